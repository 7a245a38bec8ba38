"""rules/mak is layered (issue 39, part 5): its modules import one another in one direction.

Every import of a rules/mak module by another is read from the source, wherever it stands (at
the top of the module, inside a function, under ``if TYPE_CHECKING``), so a lazy import that
hides a circle is found too.  The graph must have no cycle, no import may stand inside a
function, and no module imports another's private (``_x``) name, by ``from m import _x`` or
as ``m._x``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import rules.mak

PACKAGE = "rules.mak"
ROOT = Path(rules.mak.__file__).parent
MODULES = {p.stem: p for p in sorted(ROOT.glob("*.py"))}


def _targets(node: ast.AST) -> list[tuple[str, str | None]]:
    """``(module, name)`` for each rules/mak module ``node`` imports (name None: the module)."""
    if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
        if node.module == PACKAGE:
            return [(a.name, None) for a in node.names]
        if node.module.startswith(PACKAGE + "."):
            return [(node.module.split(".")[2], a.name) for a in node.names]
    if isinstance(node, ast.Import):
        return [(a.name.split(".")[2], None) for a in node.names if a.name.startswith(PACKAGE + ".")]
    return []


def _parsed() -> dict[str, ast.Module]:
    return {name: ast.parse(path.read_text(encoding="utf-8")) for name, path in MODULES.items()}


def imports() -> dict[str, set[str]]:
    """Each module's rules/mak imports, every one of them (function-local ones included)."""
    graph: dict[str, set[str]] = {}
    for name, tree in _parsed().items():
        graph[name] = {m for node in ast.walk(tree) for m, _ in _targets(node) if m in MODULES and m != name}
    return graph


def cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import circle of ``graph`` (its modules in order), or [] when there is none."""
    state: dict[str, int] = {}  # 1: on the path being walked, 2: done
    path: list[str] = []

    def walk(v: str) -> list[str]:
        state[v] = 1
        path.append(v)
        for w in sorted(graph[v]):
            if state.get(w) == 1:
                return path[path.index(w):] + [w]
            if w not in state:
                found = walk(w)
                if found:
                    return found
        state[v] = 2
        path.pop()
        return []

    for v in sorted(graph):
        if v not in state:
            found = walk(v)
            if found:
                return found
    return []


def test_the_cycle_finder_finds_a_circle_and_passes_a_layered_graph() -> None:
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) == []


def test_rules_mak_has_no_import_circle_lazy_imports_included() -> None:
    graph = imports()
    assert len(graph) > 40  # every module was read
    assert cycle(graph) == []


def test_no_function_local_imports_in_rules_mak() -> None:
    local = []
    for name, tree in _parsed().items():
        for fn in ast.walk(tree):
            if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                local += [f"{name}.py:{n.lineno}" for n in ast.walk(fn) if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert local == []


def test_no_private_name_is_imported_across_rules_mak_modules() -> None:
    found = []
    for name, tree in _parsed().items():
        modules = {a.asname or a.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                   and node.module == PACKAGE for a in node.names}
        for node in ast.walk(tree):
            found += [f"{name}: {m}.{n}" for m, n in _targets(node) if n is not None and n.startswith("_")]
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules
                    and node.attr.startswith("_") and not node.attr.startswith("__")):
                found.append(f"{name}: {node.value.id}.{node.attr}")
    assert found == []
