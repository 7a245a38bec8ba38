"""The modules of ``bot/`` import each other one way only, and only public names (issue 11:
``bot/modcmds.py`` imported the private ``_Outcome``; ``service`` and ``gamecmds``/``modcmds``
imported each other).  Imports under ``if TYPE_CHECKING:`` are for type hints only and do
not count."""

from __future__ import annotations

import ast
from pathlib import Path

BOT = Path(__file__).resolve().parents[2] / "bot"


def _module(path: Path) -> str:
    return ".".join(path.relative_to(BOT.parent).with_suffix("").parts).removesuffix(".__init__")


def _runtime_imports(tree: ast.AST) -> list[ast.ImportFrom | ast.Import]:
    """Every import statement, anywhere (functions too), except under TYPE_CHECKING."""
    found: list[ast.ImportFrom | ast.Import] = []

    def walk(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                found.append(child)
            walk(child)

    walk(tree)
    return found


def graph() -> tuple[dict[str, set[str]], list[str]]:
    """``module -> bot modules it imports`` and every private name imported across modules."""
    edges: dict[str, set[str]] = {}
    private: list[str] = []
    for path in sorted(BOT.rglob("*.py")):
        name = _module(path)
        edges.setdefault(name, set())
        for node in _runtime_imports(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("bot"):
                for alias in node.names:
                    target = f"{node.module}.{alias.name}"
                    if (BOT.parent / (target.replace(".", "/") + ".py")).exists():
                        edges[name].add(target)
                    else:
                        edges[name].add(node.module)
                        if alias.name.startswith("_"):
                            private.append(f"{name} imports {node.module}.{alias.name}")
            elif isinstance(node, ast.Import):
                edges[name] |= {a.name for a in node.names if a.name.startswith("bot.")}
    return edges, private


def test_no_private_name_crosses_a_module() -> None:
    assert graph()[1] == []


def test_the_bot_modules_import_each_other_one_way() -> None:
    edges, _ = graph()
    cycles: list[list[str]] = []

    def visit(node: str, path: list[str]) -> None:
        for nxt in sorted(edges.get(node, ())):
            if nxt in path:
                cycles.append(path[path.index(nxt):] + [nxt])
            elif len(path) < 30:
                visit(nxt, path + [nxt])

    for start in sorted(edges):
        visit(start, [start])
    assert cycles == [], cycles[:5]
    assert "bot.service" not in edges["bot.gamecmds"] and "bot.service" not in edges["bot.modcmds"]
