"""Unit Activation, Activation Roll, Officers, Searchlights and Pillboxes (commando-raid.txt)."""

from __future__ import annotations

import pytest

from rules.commando.activation import actions_for, standing_lines
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
    step = order(state, "roll", unit="A1", dice=[5])
    assert step.state.unit("A1").actions == 3
    assert "A1: 🎲 5 = 5 → 3 actions" in texts(step)
    assert step.state.phase == "actions"


def test_each_unit_rolls_once_one_at_a_time() -> None:
    """Activation Roll: "For each activated unit roll a dice": one unit per roll, once a turn;
    ``roll`` alone rolls every unit not yet rolled, in turn."""
    state = arrange({"A1": (24, 4), "D1": (28, 4), "G1": (24, 30)})
    one = order(state, "roll", unit="D1", dice=[3])
    assert one.state.unit("D1").actions == 2 and one.state.unit("A1").score is None
    with pytest.raises(RuleError, match="D1 has already rolled this turn"):
        order(one.state, "roll", unit="D1", dice=[6])
    rest = order(one.state, "roll", dice=[6])  # only A1 is left
    assert rest.state.unit("A1").actions == 3 and rest.state.unit("D1").actions == 2
    with pytest.raises(RuleError, match="Every unit that can activate has rolled"):
        order(rest.state, "roll")


def test_a_unit_acts_only_after_its_roll() -> None:
    """Unit Activation: "Assuming a successful activation a unit can move, shoot...": a unit
    that has not rolled cannot act, and its orders say how to activate it."""
    state = arrange({"A1": (24, 4), "D1": (28, 4), "G1": (24, 14)})
    rolled = order(state, "roll", unit="D1", dice=[4]).state
    with pytest.raises(RuleError, match="A1 has not rolled for activation yet; roll unit:A1"):
        order(rolled, "shoot", unit="A1", target="G1")
    with pytest.raises(RuleError, match="A1 has not rolled"):
        order(rolled, "move", unit="A1", to="E:3")


def test_germans_take_minus_one() -> None:
    """Activation Roll: -1 for German forces; a German 1 is 0, no action."""
    state = arrange({"A1": (24, 4), "G1": (24, 30), "T1": (4, 20)}, side="germans")
    step = order(state, "roll", dice=[1, 5])
    assert step.state.unit("G1").actions == 0
    assert step.state.unit("T1").actions == 2
    assert "G1: 🎲 1 -1 German = 0 → 0 actions" in texts(step)


def test_pillbox_needs_no_roll_and_searchlight_never_acts() -> None:
    """Pillboxes: "do not need to activate, they always have one shooting action"; a
    searchlight never rolls."""
    state = arrange({"A1": (24, 29), "PB1": (24, 33), "SL1": (46, 34)}, side="germans")
    assert state.unit("PB1").actions == 1 and state.unit("SL1").actions == 0
    with pytest.raises(RuleError, match="PB1 is a pillbox: no roll"):
        order(state, "roll", unit="PB1")
    with pytest.raises(RuleError, match="searchlights never activate"):
        order(state, "roll", unit="SL1")
    with pytest.raises(RuleError, match="Every unit that can activate has rolled"):
        order(state, "roll")
    step = order(state, "shoot", unit="PB1", target="A1", dice=[1])  # no roll first
    assert step.state.unit("PB1").actions == 0


def test_officer_direction_adds_one_and_officer_forgoes_activation() -> None:
    """Officers: the officer does not activate, a friend within 6" gets +1."""
    state = arrange({"O1": (20, 4), "A1": (24, 4), "G1": (24, 30)})
    step = order(state, "direct", officer="O1", unit="A1")
    assert 'O1 directs A1 4.0": +1 (Officers)' in texts(step)
    step = order(step.state, "roll", dice=[4])  # only A1 rolls
    assert step.state.unit("A1").actions == 3
    assert step.state.unit("O1").actions == 0
    assert "A1: 🎲 4 +1 officer = 5 → 3 actions" in texts(step)
    with pytest.raises(RuleError, match="O1 directs A1 this turn instead of activating"):
        order(step.state, "roll", unit="O1")


def test_officer_cannot_direct_itself_or_beyond_6_inches() -> None:
    """Officers: not to themselves; only a unit within 6"."""
    state = arrange({"O1": (20, 4), "A1": (27, 4), "G1": (24, 30)})
    with pytest.raises(RuleError, match="cannot direct its own unit"):
        order(state, "direct", officer="O1", unit="O1")
    with pytest.raises(RuleError, match='A1 is 7.0" from O1; officers reach 6"'):
        order(state, "direct", officer="O1", unit="A1")
    with pytest.raises(RuleError, match="has no officer"):
        order(state, "direct", officer="A1", unit="O1")


def test_direction_comes_before_either_unit_rolls() -> None:
    """Officers "choose not to activate" and "add 1 to the activation dice roll": neither the
    officer nor the unit directed may have rolled."""
    state = arrange({"O1": (20, 4), "A1": (24, 4), "D1": (22, 6), "G1": (24, 30)})
    rolled = order(state, "roll", unit="A1", dice=[3]).state
    with pytest.raises(RuleError, match="A1 has already rolled; direction adds to the roll"):
        order(rolled, "direct", officer="O1", unit="A1")
    step = order(rolled, "direct", officer="O1", unit="D1")  # later in the turn is fine
    assert step.state.unit("D1").directed_by == "O1"
    officer_rolled = order(state, "roll", unit="O1", dice=[3]).state
    with pytest.raises(RuleError, match="O1 has activated this turn"):
        order(officer_rolled, "direct", officer="O1", unit="A1")


def test_searchlight_minus_two_to_nearest_commando_within_12() -> None:
    """Searchlights: the closest commando unit within 12" subtracts 2, the others do not."""
    state = arrange({"A1": (40, 30), "D1": (36, 28), "SL1": (46, 34), "G1": (4, 33)})
    step = order(state, "roll", dice=[5, 5])
    assert step.state.unit("A1").actions == 2  # 5 - 2 = 3
    assert step.state.unit("D1").actions == 3
    assert "A1: 🎲 5 -2 SL1 searchlight = 3 → 2 actions" in texts(step)
    assert step.events[0].data["searchlight"] == "SL1"


def test_searchlight_out_of_range_or_shot_out_has_no_effect() -> None:
    """Searchlights: beyond 12" nothing; an eliminated searchlight is no longer active."""
    state = arrange({"A1": (30, 24), "SL1": (46, 34), "G1": (4, 33)})  # 18.9" away
    assert order(state, "roll", dice=[5]).state.unit("A1").actions == 3
    near = arrange({"A1": (40, 30), "SL1": (46, 34), "G1": (4, 33)})
    near.unit("SL1").alive = False
    assert order(near, "roll", dice=[5]).state.unit("A1").actions == 3


def test_a_searchlight_shot_out_mid_turn_spares_the_units_that_roll_after() -> None:
    """Activation Roll, Searchlights: rolled one unit at a time, so once M1 has mortared the
    searchlight, A1 (the closest commando within 12") rolls without the -2."""
    state = arrange({"A1": (40, 30), "M1": (37, 27), "SL1": (46, 34), "G1": (4, 4)})
    lit = order(state, "roll", unit="A1", dice=[5])
    assert "-2 SL1 searchlight" in texts(lit)  # as it stood: A1 is the closest
    state = order(state, "roll", unit="M1", dice=[6]).state  # M1 is not the closest: no -2
    state = order(state, "mortar", unit="M1", target="SL1", dice=[5]).state
    assert not state.unit("SL1").alive
    dark = order(state, "roll", unit="A1", dice=[5])
    assert dark.state.unit("A1").actions == 3 and "searchlight" not in texts(dark)


def test_moving_orders_before_any_roll_are_refused_with_the_orders_open() -> None:
    """Unit Activation: a unit acts only after a successful activation."""
    state = arrange({"A1": (24, 4), "G1": (24, 30)})
    with pytest.raises(RuleError, match="orders now: end, measure, roll"):
        order(state, "move", unit="A1", to="N:6")


def test_one_pillbox_and_one_searchlight_are_named_in_the_singular() -> None:
    """Pillboxes: "always have one shooting action"; Searchlights never act: with one of each
    left the line agrees with the one unit named (issue 46)."""
    state = arrange({"PB1": (10, 10), "SL1": (20, 20), "G1": (30, 30)}, side="germans")
    assert [e.text for e in standing_lines(state)] == [
        "No roll: PB1 has 1 shooting action (Pillboxes)",
        'No roll: SL1 never acts, it lights the closest commando within 12" (Searchlights)',
    ]
