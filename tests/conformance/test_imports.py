"""The import graph has no circle (issue 39): every module of ``rules/``, ``render/``, ``bot/``
and ``tools/``, with the imports written inside functions counted too (a lazy import that
closes a circle is a circle a reader must still hold in mind), and the layers point one way:
``rules`` imports nothing of ``bot`` or ``render``, ``render`` no system package, and no module
imports a private name (``_x``) of another module.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("rules", "render", "bot", "tools")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def modules() -> dict[str, Path]:
    """Every module of :data:`PACKAGES` by dotted name."""
    return {_module_name(p): p for package in PACKAGES for p in sorted((ROOT / package).rglob("*.py"))}


def _resolve(module: str, node: ast.ImportFrom) -> str:
    """The absolute module an ``ImportFrom`` names (relative imports resolved)."""
    if not node.level:
        return node.module or ""
    base = module.split(".")
    is_package = modules()[module].name == "__init__.py"
    base = base if is_package else base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


@cache
def imports() -> dict[str, set[tuple[str, str]]]:
    """Each module's imports of our modules: ``(module, name)`` pairs (``name`` the imported
    name for ``from m import name``, else empty), lazy ones included."""
    known = modules()
    out: dict[str, set[tuple[str, str]]] = {}
    for module, path in known.items():
        found: set[tuple[str, str]] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {(alias.name, "") for alias in node.names if alias.name in known}
            elif isinstance(node, ast.ImportFrom):
                target = _resolve(module, node)
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    if sub in known:  # ``from render import areamap``: the module itself
                        found.add((sub, ""))
                    elif target in known:
                        found.add((target, alias.name))
        out[module] = {(m, n) for m, n in found if m != module}
    return out


def _edges() -> dict[str, set[str]]:
    """Module -> the modules it imports.  ``from package import x`` runs the package's
    ``__init__``, so it counts as an edge to the package too."""
    return {m: {target for target, _ in found} for m, found in imports().items()}


def cycles() -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    graph = _edges()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


@pytest.mark.parametrize("package", PACKAGES)
def test_no_import_circle(package: str) -> None:
    circles = [c for c in cycles() if any(m == package or m.startswith(package + ".") for m in c)]
    assert not circles, f"import circles (lazy imports included): {circles}"


def test_the_checker_finds_a_circle() -> None:
    """The graph walk is real: a module that imports its importer is a circle."""
    graph = {"a": {"b"}, "b": {"a"}, "c": {"a"}}
    saved = _edges
    try:
        globals()["_edges"] = lambda: graph
        assert cycles() == [["a", "b"]]
    finally:
        globals()["_edges"] = saved


def test_the_layers_point_one_way() -> None:
    """``rules`` imports nothing of ``bot``/``render``; ``render`` no system package; ``bot``
    and ``render`` nothing of ``tools``."""
    wrong = []
    for module, found in imports().items():
        for target, _ in found:
            top = target.split(".")[0]
            if module.startswith("rules") and top in ("bot", "render", "tools"):
                wrong.append(f"{module} -> {target}")
            elif module.startswith("render") and top == "rules" and not target.startswith("rules.core"):
                wrong.append(f"{module} -> {target}")
            elif top == "tools" and not module.startswith("tools"):
                wrong.append(f"{module} -> {target}")
    assert not wrong, wrong


def test_no_private_name_is_imported_from_another_module() -> None:
    private = sorted(f"{module}: {target}.{name}" for module, found in imports().items()
                     for target, name in found if name.startswith("_") and not name.startswith("__"))
    assert not private, f"private names imported across modules: {private}"
