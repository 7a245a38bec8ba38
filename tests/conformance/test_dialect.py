"""Every system speaks the kit's one dialect (issue 39): each order declared once, on a
module-level rule function of a chapter module the system lists (``order_modules``), its
offers a plain ``(state, side)`` function; no order on a method of the system class, no
offers named by a string, no ``apply`` of its own, and every order model has its rule."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

from rules.core import registry
from rules.core.contract import GameSystem
from rules.core.orders import OrderRule, order
from tests.platform.duel.state import Wait
from tests.platform.duel import DUEL

SYSTEMS: dict[str, GameSystem[Any]] = {**registry.load_all(), "duel": DUEL}


@pytest.mark.parametrize("key", sorted(SYSTEMS))
def test_every_order_is_a_rule_function_of_a_listed_chapter_module(key: str) -> None:
    system = SYSTEMS[key]
    cls = type(system)
    assert cls.apply is GameSystem.apply, f"{key} dispatches in its own apply"
    listed = {m.__name__ for klass in cls.__mro__ for m in vars(klass).get("order_modules", ())}
    assert listed, f"{key} lists no chapter module"
    for action in system.actions:
        rule = system.order_rules.get(action)
        assert rule is not None, f"{key}: {action.__name__} has no @order rule"
        assert not isinstance(rule.offers, str), f"{key}: {action.__name__}'s offers are named by a string"
        assert rule.resolve.__module__ in listed, (
            f"{key}: {action.__name__} is resolved in {rule.resolve.__module__}, not a listed chapter module")
        assert "." not in rule.resolve.__qualname__, f"{key}: {rule.resolve.__qualname__} is not module-level"
        if rule.offers is not None:
            params = list(inspect.signature(rule.offers).parameters)
            assert len(params) == 2, f"{key}: {action.__name__}'s offers take {params}, not (state, side)"


@pytest.mark.parametrize("key", sorted(SYSTEMS))
def test_no_system_class_declares_an_order(key: str) -> None:
    """The system class is the table of contents: no OrderRule among its own attributes."""
    declared = [name for name, value in vars(type(SYSTEMS[key])).items() if isinstance(value, OrderRule)]
    assert not declared, f"{key} declares orders on its class: {declared}"


def test_an_order_declared_on_a_system_class_is_refused_at_start_up() -> None:
    """The old dialect (an ``@order`` method) no longer loads, saying where to declare it."""
    with pytest.raises(TypeError, match="chapter module"):
        class Stray(type(DUEL)):  # type: ignore[misc]
            key = "stray"

            @order(Wait)
            def wait(ctx: Any, action: Wait) -> None:
                """Never loaded."""
