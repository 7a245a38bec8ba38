"""Leaders and immovable units: Col. Nikolas (9.7), Pvt. Boyes in the rally (9.8), the T-12
(9.6), and what a side with nothing left to do may order (7.0)."""

from __future__ import annotations

import pytest

from rules.core.errors import RuleError
from rules.rr import SYSTEM
from rules.rr.actions import Assault, Boyes, Done, Fire, Move, Pass, Retreat
from tests.rr.helpers import act, legal, board, end_ops, game, spec, texts

UNITS = [
    spec("INF"), spec("INF2"), spec("US1", nation="us", morale=7),
    spec("BOYES", nation="us", kind="leader", special="boyes", stacking=0, acm=None, ap=2),
    spec("VDV", "soviet", special="vdv"), spec("VDV2", "soviet", special="vdv"),
    spec("NIK", "soviet", kind="leader", special="nikolas", stacking=0, acm=None, ap=2),
    spec("T12", "soviet", kind="at_gun", special="t12", stacking=1, acm=None, rcm=3, ap=2),
]
STRIP = board("l-strip", 6, 1, UNITS)
NEVER = {"nato": "never", "soviet": "never"}


def test_nikolas_cannot_be_attacked_and_goes_when_his_area_is_emptied_9_7() -> None:
    """9.7: never attacked directly; removed from play when all units of his area are gone."""
    state = game(STRIP, {"INF": "1", "VDV": "2", "NIK": "2"}, standing=dict(NEVER))
    with pytest.raises(RuleError, match="cannot be attacked"):
        act(state, "nato", Fire(unit="INF", target="NIK"))
    step = act(state, "nato", Fire(unit="INF", target="VDV"), [6, 6])
    assert step.state.units["VDV"].place == "gone" and step.state.units["NIK"].place == "gone"


def test_nikolas_moves_and_retreats_with_a_unit_9_7() -> None:
    """9.7: he always moves with another unit, and may retreat with one of his area."""
    state = game(STRIP, {"INF": "1", "VDV": "3", "NIK": "3"}, active="soviet")
    with pytest.raises(RuleError, match="moves with another unit"):
        act(state, "soviet", Move(units="NIK", to="4"))
    moved = act(state, "soviet", Move(units="VDV", to="4"))  # the last unit out: he follows
    assert moved.state.units["NIK"].area == "4" and moved.state.units["NIK"].ap == 2
    fired = game(STRIP, {"INF": "1", "VDV": "3", "NIK": "3"}, standing={"nato": "ask", "soviet": "always"})
    step = act(fired, "nato", Fire(unit="INF", target="VDV"), [6, 3])
    assert step.state.units["VDV"].area == "4" and step.state.units["NIK"].area == "4"


def test_boyes_rerolls_the_die_the_player_chose_in_a_rally_9_8() -> None:
    """9.8: "Pvt. Boyes may use one action point to allow a unit in his area to reroll one
    die, even during a rally attempt": the player decides, before the roll, for which unit,
    which die and whether only on a failure."""
    state = game(STRIP, {"US1": "1", "BOYES": "1", "VDV": "6"})
    state.units["US1"].status, state.units["US1"].ap = "suppressed", 0
    asked = end_ops(state, [4, 4])
    assert asked.state.phase == "rally" and asked.waiting_on == ["nato"]
    step = act(asked.state, "nato", Boyes(unit="US1"), [6, 5, 2])  # 6+5 fails: the 6 (worse) rerolled
    assert "🎲 2+5 = 7 vs morale 7: US1 rallies, AP reset (6.2), Boyes 6→2 9.8" in texts(step)
    assert step.state.units["BOYES"].ap == 1 and step.state.units["US1"].ap == 3
    lower = act(asked.state, "nato", Boyes(unit="US1", die="lower"), [6, 5, 1])  # the 5 rerolled
    assert "🎲 6+1 = 7 vs morale 7: US1 rallies, AP reset (6.2), Boyes 5→1 9.8" in texts(lower)
    # Not asked: a unit of his that need not rally, or the rally left alone.
    assert act(asked.state, "nato", Done(), [6, 5]).state.units["BOYES"].ap == 2


def test_boyes_reroll_may_be_used_on_a_roll_that_did_not_fail_9_8() -> None:
    """9.8: the reroll may be used on any roll: use:any rerolls even a hit, for more hits."""
    state = game(STRIP, {"US1": "1", "BOYES": "1", "VDV": "3"}, standing={"nato": "never", "soviet": "never"})
    armed = act(state, "nato", Boyes(unit="US1", die="lower", use="any")).state
    armed.active = "nato"
    shot = act(armed, "nato", Fire(unit="US1", target="VDV"), [5, 2, 6])  # 9 hits once; the 2 → 6
    assert "🎲 5+6 +2 RCM = 13 vs DF 7 = 7 → +6: three hits (7.3.3), Boyes 2→6 9.8" in texts(shot)


def test_t12_never_moves_even_to_retreat_9_6() -> None:
    """9.6: the T-12 cannot leave its area, even to retreat: losing an assault destroys it."""
    state = game(STRIP, {"T12": "2", "INF": "1", "INF2": "1"}, active="soviet")
    with pytest.raises(RuleError, match="cannot move"):
        act(state, "soviet", Move(units="T12", to="3"))
    state.active = "nato"
    step = act(state, "nato", Assault(units="INF,INF2", to="2", target="T12"), [4, 2])  # 10 vs 7
    assert "T12 suppressed and reduced (7.3.5.2)" in texts(step)
    assert "4 vs 1 SP: the defenders must leave area 2 (7.3.5.2)" in texts(step)
    assert "T12 cannot retreat: eliminated (7.3.5.2)" in texts(step)
    assert step.state.units["T12"].place == "gone"


def test_a_side_with_nothing_to_do_can_only_pass_7_0() -> None:
    """7.0: players must pass if they have no remaining actions."""
    state = game(STRIP, {"INF": "1", "VDV": "6"})
    state.units["INF"].ap = 0
    assert legal(state, "nato") == [Pass()]
    assert legal(state, "soviet") == []


def test_a_retreat_says_that_nikolas_went_along_7_3_3_9_7() -> None:
    """9.7 "Col. Nikolas must remain in an area, and always move, with at least one other
    unit ... may retreat with a unit from his area": VDV, the only unit of his area, retreats
    to negate a hit (7.3.3) and he goes with it, said in the reply, not silently."""
    state = game(STRIP, {"INF": "1", "VDV": "3", "NIK": "3"})
    shot = act(state, "nato", Fire(unit="INF", target="VDV"), [3, 3])  # 6 +2 = 8 vs 7: one hit
    step = act(shot.state, "soviet", Retreat(to="4"))
    assert ("VDV retreats 3→4 with NIK (9.7-9.9: a leader is never left without a unit), "
            "one hit negated (7.3.3)") in texts(step)
    assert step.state.units["NIK"].area == "4"


def test_an_area_box_counts_units_not_the_leaders_and_teams_with_them_9_3_9_7() -> None:
    """9.7 Col. Nikolas and 9.3 an ATGM team ride with a unit and are no units of an area's
    tally (5.1 stacking 0): "Area 15: 4 units" for VDV-1, VDV-2, NIKOLAS and SAGGER read as
    four units; the box says two, then names the others."""
    from render.areamap import panel_heading

    units = [spec("VDV", "soviet", special="vdv"), spec("VDV2", "soviet", special="vdv"),
             spec("NIK", "soviet", kind="leader", special="nikolas", stacking=0, acm=None, ap=2),
             spec("SAG", "soviet", kind="atgm", special="atgm", stacking=0, acm=None, attached_to="VDV")]
    grid = board("l-tally", 3, 1, units, main_objective="2", secondary_objectives=["3"], cadre_area="3")
    view = SYSTEM.view(game(grid, {"VDV": "2", "VDV2": "2", "NIK": "2"}))
    here = [c for c in view.counters if c.area == "2" or c.attached_to == "VDV"]
    assert panel_heading("2", here) == "Area 2: 2 units + NIK, SAG"
