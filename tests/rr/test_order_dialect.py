"""Issue 39: every rr order is declared once, in the one dialect, in the chapter of its rule.

Each order model of the system has a module-level rule function (``(ctx, action)``) in one of
the listed ``order_modules``, with offers ``(state, side)`` (never a name in a string, never a
method of the class); and the package's modules import one another in one direction, at
their top, with no private name taken from another module.
"""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

import rules.rr
from rules.core.dice import ScriptedDice
from rules.core.orders import OrderRule
from rules.rr import SYSTEM
from rules.rr.system import RaidAndRiposte

SOURCES = {p.stem: ast.parse(p.read_text(encoding="utf-8")) for p in Path(rules.rr.__file__).parent.glob("*.py")}


def test_every_order_is_a_module_rule_of_a_listed_chapter() -> None:
    chapters = {m.__name__ for m in RaidAndRiposte.order_modules}
    assert set(RaidAndRiposte.order_rules) == set(RaidAndRiposte.actions)
    for model, rule in RaidAndRiposte.order_rules.items():
        assert callable(rule.offers) and not isinstance(rule.offers, str), model.__name__
        assert rule.resolve.__module__ in chapters, (model.__name__, rule.resolve.__module__)
        assert rule.resolve.__doc__, f"{model.__name__}'s resolver names no rule"
    assert not [v for v in vars(RaidAndRiposte).values() if isinstance(v, OrderRule)]


def test_each_offers_function_takes_the_state_and_the_side() -> None:
    state = SYSTEM.setup(SYSTEM.scenarios[0], None, ScriptedDice([])).state
    # 11.0: NATO sets up first: its setup orders, and the anytime ones, from (state, side)
    offered = {a.name for a in SYSTEM.legal_actions(state, "nato")}
    assert {"deploy", "deploy-default", "standing", "info"} <= offered
    for rule in SYSTEM.orders_open(state, "nato"):
        assert list(rule.offers(state, "nato")) == list(SYSTEM.offers_of(rule, state, "nato"))  # type: ignore[operator]


def _imports(tree: ast.Module) -> list[tuple[ast.stmt, str, list[str]]]:
    """Each ``from rules.rr.x import ...`` / ``from rules.rr import x`` of ``tree``: the
    statement, the rr module(s) named and the names taken."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "rules.rr":
            found += [(node, a.name, []) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("rules.rr."):
            found.append((node, (node.module or "").split(".")[2], [a.name for a in node.names]))
    return found


def test_the_package_imports_in_one_direction() -> None:
    graph: dict[str, set[str]] = {name: set() for name in SOURCES}
    for name, tree in SOURCES.items():
        top = set(map(id, tree.body))
        for node, module, names in _imports(tree):
            assert id(node) in top, f"{name} imports {module} inside a function"
            assert not [n for n in names if n.startswith("_")], f"{name} takes {module}'s private names"
            if name != "__init__":
                graph[name].add(module)
    try:
        tuple(TopologicalSorter(graph).static_order())
    except CycleError as exc:  # pragma: no cover - the message is the point
        pytest.fail(f"an import circle in rules/rr: {exc.args[1]}")
