"""Activation Roll, Officers, Searchlights and Pillboxes (commando-raid.txt)."""

from __future__ import annotations

import pytest

from rules.commando.activation import actions_for
from rules.core.errors import RuleError
from tests.commando.helpers import arrange, order, texts


@pytest.mark.parametrize(
    ("score", "actions"),
    [(-2, 0), (0, 0), (1, 1), (2, 1), (3, 2), (4, 2), (5, 3), (6, 3), (7, 3)],
)
def test_activation_table(score: int, actions: int) -> None:
    """Activation Roll: less than 1 none, 1-2 one, 3-4 two, 5+ three actions."""
    assert actions_for(score) == actions


def test_commando_roll_has_no_modifier() -> None:
    """Activation Roll: a commando 5 gives three actions (the half-track ambush's black die)."""
    state = arrange({"A1": (24, 4), "G1": (24, 30)})
    step = order(state, "roll", dice=[5])
    assert step.state.unit("A1").actions == 3
    assert "A1: 🎲 5 = 5 → 3 actions" in texts(step)
    assert step.state.phase == "actions"


def test_germans_take_minus_one() -> None:
    """Activation Roll: -1 for German forces; a German 1 is 0, no action."""
    state = arrange({"A1": (24, 4), "G1": (24, 30), "T1": (4, 20)}, side="germans")
    step = order(state, "roll", dice=[1, 5])
    assert step.state.unit("G1").actions == 0
    assert step.state.unit("T1").actions == 2
    assert "G1: 🎲 1 -1 German = 0 → 0 actions" in texts(step)


def test_pillbox_needs_no_roll_and_searchlight_never_acts() -> None:
    """Pillboxes: always one shooting action, no roll; searchlights have no actions."""
    state = arrange({"A1": (24, 4), "PB1": (24, 33), "SL1": (46, 34)}, side="germans")
    step = order(state, "roll", dice=[])
    assert step.state.unit("PB1").actions == 1
    assert step.state.unit("SL1").actions == 0
    assert "PB1: no roll: 1 shot (Pillboxes)" in texts(step)


def test_officer_direction_adds_one_and_officer_forgoes_activation() -> None:
    """Officers: the officer does not activate, a friend within 6" gets +1."""
    state = arrange({"O1": (20, 4), "A1": (24, 4), "G1": (24, 30)})
    step = order(state, "direct", officer="O1", unit="A1")
    assert 'O1 directs A1 4.0": +1 (Officers)' in texts(step)
    step = order(step.state, "roll", dice=[4])  # only A1 rolls
    assert step.state.unit("A1").actions == 3
    assert step.state.unit("O1").actions == 0
    assert "A1: 🎲 4 +1 officer = 5 → 3 actions" in texts(step)


def test_officer_cannot_direct_itself_or_beyond_6_inches() -> None:
    """Officers: not to themselves; only a unit within 6"."""
    state = arrange({"O1": (20, 4), "A1": (27, 4), "G1": (24, 30)})
    with pytest.raises(RuleError, match="cannot direct its own unit"):
        order(state, "direct", officer="O1", unit="O1")
    with pytest.raises(RuleError, match='A1 is 7.0" from O1; officers reach 6"'):
        order(state, "direct", officer="O1", unit="A1")
    with pytest.raises(RuleError, match="has no officer"):
        order(state, "direct", officer="A1", unit="O1")


def test_direction_only_before_the_roll() -> None:
    """Officers choose not to activate, so they direct before the activation roll."""
    state = arrange({"O1": (20, 4), "A1": (24, 4), "G1": (24, 30)})
    rolled = order(state, "roll", dice=[3, 3]).state
    with pytest.raises(RuleError, match="orders are: move"):
        order(rolled, "direct", officer="O1", unit="A1")


def test_searchlight_minus_two_to_nearest_commando_within_12() -> None:
    """Searchlights: the closest commando unit within 12" subtracts 2, the others do not."""
    state = arrange({"A1": (40, 30), "D1": (36, 28), "SL1": (46, 34), "G1": (4, 33)})
    step = order(state, "roll", dice=[5, 5])
    assert step.state.unit("A1").actions == 2  # 5 - 2 = 3
    assert step.state.unit("D1").actions == 3
    assert "A1: 🎲 5 -2 searchlight = 3 → 2 actions" in texts(step)
    assert step.events[0].data["searchlight"] == "SL1"


def test_searchlight_out_of_range_or_shot_out_has_no_effect() -> None:
    """Searchlights: beyond 12" nothing; an eliminated searchlight is no longer active."""
    state = arrange({"A1": (30, 24), "SL1": (46, 34), "G1": (4, 33)})  # 18.9" away
    assert order(state, "roll", dice=[5]).state.unit("A1").actions == 3
    near = arrange({"A1": (40, 30), "SL1": (46, 34), "G1": (4, 33)})
    near.unit("SL1").alive = False
    assert order(near, "roll", dice=[5]).state.unit("A1").actions == 3


def test_orders_before_roll_are_refused() -> None:
    """Unit Activation: a unit acts only after a successful activation."""
    state = arrange({"A1": (24, 4), "G1": (24, 30)})
    with pytest.raises(RuleError, match="Before the activation roll the orders are: direct, roll"):
        order(state, "move", unit="A1", to="N:6")
