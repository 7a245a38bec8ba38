"""No function of ``rules/``, ``render/``, ``bot/`` or ``tools/`` above cyclomatic complexity
25, counted by radon (issue 39): one plus each ``if``/``elif``, loop, ``except``, ``with``,
comprehension ``if``, ``assert``, ternary and each boolean operator (``a and b or c`` counts
two).  The previous counter, mccabe, left boolean operators out although this docstring said
it counted them; radon is the counter its own documentation describes.

No list of exceptions: a function over the limit is split into named steps.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from radon.complexity import cc_visit
from radon.visitors import Class, Function

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 25
FOLDERS = ("rules", "render", "bot", "tools")


def _blocks(found: list[Function | Class]) -> list[Function]:
    """Every function of radon's answer, methods and closures included."""
    out: list[Function] = []
    for block in found:
        if isinstance(block, Class):
            out += _blocks(list(block.methods) + list(block.inner_classes))
            continue
        out.append(block)
        out += _blocks(list(block.closures))
    return out


@cache
def complexities() -> dict[tuple[str, str], int]:
    """Radon's cyclomatic complexity of every function of :data:`FOLDERS`, by file and name."""
    found: dict[tuple[str, str], int] = {}
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            for block in _blocks(cc_visit(path.read_text(encoding="utf-8"))):
                found[(path.relative_to(ROOT).as_posix(), block.fullname)] = block.complexity
    return found


def test_the_counter_counts_boolean_operators() -> None:
    """The gate measures what it says: ``a and b or c`` adds two to a function's count."""
    plain = cc_visit("def f(a, b, c):\n    if a:\n        return 1\n    return 0\n")[0].complexity
    chained = cc_visit("def f(a, b, c):\n    if a and b or c:\n        return 1\n    return 0\n")[0].complexity
    assert chained == plain + 2


def test_the_counter_reads_every_folder() -> None:
    """Every folder of the gate holds functions the counter found (a moved folder would
    otherwise pass silently)."""
    counted = {place.split("/", 1)[0] for place, _ in complexities()}
    assert counted == set(FOLDERS)


@pytest.mark.parametrize("folder", FOLDERS)
def test_no_function_is_above_complexity_25(folder: str) -> None:
    too_complex = {f"{path}:{name}": value for (path, name), value in complexities().items()
                   if path.startswith(folder + "/") and value > LIMIT}
    assert not too_complex, f"split these into named steps (limit {LIMIT}): {too_complex}"
