"""Issue 39: every commando order is declared once, on the rule function of its chapter module
(``@order`` on a module-level resolver, offers ``(state, side)``); ``system.py`` only lists
the chapters."""

from __future__ import annotations

import inspect

from rules.commando import SYSTEM, activation, system, turns
from rules.commando.actions import ACTIONS, End, Roll
from rules.core.orders import OrderRule
from tests.commando.helpers import setup


def test_every_order_is_a_module_level_rule_of_a_chapter_module() -> None:
    """Each order has one rule, declared in a chapter module listed by the system (not in
    system.py, not as a method), whose docstring names the order's rule."""
    assert set(SYSTEM.order_rules) == set(ACTIONS)
    chapters = {module.__name__ for module in SYSTEM.order_modules}
    assert system.__name__ not in chapters
    for action, rule in SYSTEM.order_rules.items():
        # A module-level function (the kit has no method dialect any more, issue 39).
        assert inspect.isfunction(rule.resolve) and "." not in rule.resolve.__qualname__, action.__name__
        assert rule.resolve.__module__ in chapters, action.__name__
        assert action.rule in (rule.resolve.__doc__ or ""), action.__name__
        assert callable(rule.offers), action.__name__  # a function, never a method's name


def test_the_system_class_declares_no_order_and_forwards_nothing() -> None:
    """No rule on the class, and ``label``/``view`` are the chapter functions themselves."""
    assert not [v for v in vars(type(SYSTEM)).values() if isinstance(v, OrderRule)]
    assert "@order" not in inspect.getsource(system)
    assert type(SYSTEM).__dict__["view"].__func__.__module__ == "rules.commando.view"
    assert type(SYSTEM).__dict__["label"].__func__.__module__ == "rules.commando.labels"


def test_offers_take_the_state_and_side_only() -> None:
    """Turns ("the side may always end its turn") and Activation Roll (every unit, or one):
    the offers are called with the state and the side, no system."""
    state = setup()
    assert list(turns.end_offers(state, "commandos")) == [End()]
    rolls = list(activation.roll_offers(state, "commandos"))
    assert rolls[0] == Roll() and len(rolls) == 1 + len(activation.rollable(state, "commandos"))
    assert SYSTEM.order_rules[End].offers is turns.end_offers
    assert SYSTEM.order_rules[Roll].offers is activation.roll_offers
