"""Sequence of play (6.0): initiative (6.1, 10.1, 10.2), rally with the worked example of
6.2.1, operations impulses (7.0, 7.1, 7.2), the route phase (8.0), cadres (7.3.6), victory
(12.0) and stacking (5.1)."""

from __future__ import annotations

import pytest

from rules.core.errors import RuleError
from rules.core.dice import ScriptedDice
from rules.rr import SYSTEM
from rules.rr.actions import Deploy, Done, Fire, Move, Nikolas, Pass, Route
from rules.rr.scenario import Deployment
from tests.rr.helpers import act, legal, board, end_ops, game, spec, texts

UNITS = [
    spec("US1", nation="us", morale=7), spec("US2", nation="us"), spec("DE1"), spec("DE2"),
    spec("DE3"), spec("DE4"),
    spec("NIK", "soviet", kind="leader", special="nikolas", stacking=0, acm=None, ap=2),
    spec("VDV", "soviet", special="vdv"), spec("VDV2", "soviet", special="vdv"),
    spec("VDV3", "soviet", special="vdv"),
    spec("HIND", "soviet", kind="hind", special="hind", stacking=0, vehicle=True, acm=None, ap=2),
]
# A 4x3 grid: 1 2 3 4 / 5 6 7 8 / 9 10 11 12.  Main objective 6, secondary 12.
GRID = board("s-grid", 4, 3, UNITS, main_objective="6", secondary_objectives=["12"],
             cadre_area="12", turns=7)


def test_initiative_ties_go_to_nato_and_air_follows_the_dice_6_1_10_1_10_2() -> None:
    """6.1 ties to NATO; 10.1 NATO air on a roll <= turn, Soviet air on >= turn; 10.2 no
    Hind when NATO has an airstrike."""
    state = game(GRID, {"US1": "1", "VDV": "12"}, turn=1)
    step = end_ops(state, [1, 1])  # turn 2: NATO 1, Soviets 1
    s = step.state
    assert s.turn == 2 and s.initiative == "nato" and s.phase == "ops" and s.active == "nato"
    assert s.airstrike == {"nato": True, "soviet": False} and not s.hind_ok
    s2 = end_ops(state, [5, 6]).state  # NATO 5 > 2: no air; Soviets 6 >= 2: air; Hind free
    assert s2.initiative == "soviet" and s2.active == "soviet"
    assert s2.airstrike == {"nato": False, "soviet": True} and s2.hind_ok


def test_worked_example_of_6_2_1_suppressed_then_recovering_then_marker_off() -> None:
    """6.2.1: a morale 7 US infantry, Suppressed, rolls 3+5 = 8: fails, turns Recovering.
    Next rally it needs 8 or less (7 +1); failing, the marker goes but AP are not reset."""
    state = game(GRID, {"US1": "1", "VDV": "12"})
    state.units["US1"].status, state.units["US1"].ap = "suppressed", 0
    step = end_ops(state, [4, 4, 3, 5])  # initiative 4/4, then the rally 3+5
    assert "🎲 3+5 = 8 vs morale 7: US1 fails, now Recovering (6.2)" in texts(step)
    us1 = step.state.units["US1"]
    assert us1.status == "recovering" and us1.ap == 0
    step = end_ops(step.state, [4, 4, 5, 4])  # 9 > 8
    assert "🎲 5+4 = 9 vs morale 7 +1 Rec = 8: US1 fails, marker off, AP not reset (6.2)" in texts(step)
    assert step.state.units["US1"].status == "ok" and step.state.units["US1"].ap == 0
    # The unit is out for no more than three turns: the next turn's reset gives it its AP.
    step = end_ops(step.state, [4, 4])
    assert step.state.units["US1"].ap == 3


def test_rally_success_removes_the_marker_and_resets_ap_6_2() -> None:
    """6.2 step 3: 2d6 <= morale rallies and resets the AP; step 2 skips marked units."""
    state = game(GRID, {"US1": "1", "US2": "2", "VDV": "12"})
    state.units["US1"].status, state.units["US1"].ap = "recovering", 0
    state.units["US2"].ap = 0
    step = end_ops(state, [4, 4, 4, 4])  # 8 <= 7 + 1
    assert step.state.units["US1"].status == "ok" and step.state.units["US1"].ap == 3
    assert step.state.units["US2"].ap == 3


def test_nikolas_adds_morale_to_one_unit_of_his_choice_in_the_rally_9_7() -> None:
    """9.7: "Col. Nikolas may use this action point during the Rally Phase to increase the
    morale of one unit in his area": the player chooses the unit (or none); nothing is
    spent unasked."""
    state = game(GRID, {"VDV": "12", "VDV2": "12", "NIK": "12", "US1": "1"})
    for uid in ("VDV", "VDV2"):
        state.units[uid].status, state.units[uid].ap = "suppressed", 0
    asked = end_ops(state, [4, 4])  # turn 2: initiative 4/4, then the Soviets decide
    assert asked.state.phase == "rally" and asked.waiting_on == ["soviet"]
    assert "Soviets: Nikolas may help the rally (nikolas), then done (9.7)" in texts(asked)
    assert set(legal(asked.state, "soviet")) == {Nikolas(unit="VDV", value="morale"),
                                                 Nikolas(unit="VDV2", value="morale"), Done()}
    with pytest.raises(RuleError, match="9.7"):
        act(asked.state, "soviet", Nikolas(unit="VDV", value="rcm"))
    step = act(asked.state, "soviet", Nikolas(unit="VDV2", value="morale"), [5, 4, 5, 3])
    assert "🎲 5+4 = 9 vs morale 7: VDV fails, now Recovering (6.2)" in texts(step)
    assert "🎲 5+3 = 8 vs morale 7 +1 Nikolas 9.7 = 8: VDV2 rallies, AP reset (6.2)" in texts(step)
    assert step.state.units["NIK"].ap == 1 and step.state.phase == "ops"
    unhelped = act(asked.state, "soviet", Done(), [4, 4, 4, 4])
    assert unhelped.state.units["NIK"].ap == 2
    assert "🎲 4+4 = 8 vs morale 7: VDV2 fails, now Recovering (6.2)" in texts(unhelped)


def test_a_standing_never_skips_the_rally_decisions_9_7() -> None:
    """A standing default answers the rally decision when the player set one."""
    state = game(GRID, {"VDV": "12", "NIK": "12", "US1": "1"}, rally_help={"nato": "ask", "soviet": "never"})
    state.units["VDV"].status, state.units["VDV"].ap = "suppressed", 0
    step = end_ops(state, [4, 4, 4, 4])
    assert step.state.phase == "ops" and step.state.units["NIK"].ap == 2


def test_impulses_alternate_and_two_passes_end_the_phase_7_0() -> None:
    """7.0: one order per impulse, then the opponent; a pass then an order resets the count."""
    state = game(GRID, {"US1": "1", "VDV": "12"})
    step = act(state, "nato", Move(units="US1", to="2"))
    assert step.waiting_on == ["soviet"] and step.snapshot
    step = act(step.state, "soviet", Pass())
    assert step.waiting_on == ["nato"] and step.state.phase == "ops"
    step = act(step.state, "nato", Move(units="US1", to="3"))
    step = act(step.state, "soviet", Pass())
    with pytest.raises(RuleError, match="not your turn"):
        act(step.state, "soviet", Pass())
    assert Pass() in legal(step.state, "nato")


def test_a_unit_spends_one_ap_per_area_and_only_to_adjacent_areas_7_1_7_2() -> None:
    """7.2: one AP per area entered; only adjacent areas (a shared side or a corner)."""
    state = game(GRID, {"US1": "1", "VDV": "12"})
    step = act(state, "nato", Move(units="US1", to="6"))  # diagonal: a shared corner
    assert step.state.units["US1"].area == "6" and step.state.units["US1"].ap == 2
    with pytest.raises(RuleError, match="not adjacent"):
        act(state, "nato", Move(units="US1", to="3"))
    state.units["US1"].ap = 0
    with pytest.raises(RuleError, match="AP"):
        act(state, "nato", Move(units="US1", to="2"))


def test_stacking_six_points_no_germans_with_americans_leaders_free_5_1() -> None:
    """5.1: six stacking points per area; Germans and Americans never share; counters with
    no stacking points do not count."""
    state = game(GRID, {"DE1": "1", "DE2": "2", "DE3": "2", "DE4": "2", "US1": "5", "VDV": "12"})
    with pytest.raises(RuleError, match="6 is the limit"):
        act(state, "nato", Move(units="DE1", to="2"))
    with pytest.raises(RuleError, match="German and American"):
        act(state, "nato", Move(units="US1", to="1"))
    soviet = game(GRID, {"VDV": "11", "VDV2": "11", "VDV3": "12", "NIK": "12", "US1": "1"},
                  active="soviet")
    step = act(soviet, "soviet", Move(units="VDV3,NIK", to="11"))  # 6 points: Nikolas counts 0
    assert step.state.units["NIK"].area == "11"


def test_route_phase_initiative_first_never_closer_to_the_enemy_8_0() -> None:
    """8.0: Suppressed/Recovering units may route to an adjacent area, no closer to an enemy,
    within stacking; the side with the initiative routes first."""
    state = game(GRID, {"US1": "2", "VDV": "4", "VDV2": "12"}, initiative="soviet")
    state.units["US1"].status, state.units["US1"].ap = "suppressed", 0
    state.units["VDV"].status, state.units["VDV"].ap = "suppressed", 0
    step = act(act(state, "nato", Pass()).state, "soviet", Pass())
    assert step.state.phase == "route" and step.waiting_on == ["soviet"]
    routes = {a.to for a in legal(step.state, "soviet") if isinstance(a, Route)}
    assert routes == {"8"}  # 3 and 7 are nearer to US1 in 2
    step = act(step.state, "soviet", Route(unit="VDV", to="8"))
    # VDV was the Soviets' one unit to route: they are done at once, NATO routes next.
    assert "Soviets: no other unit may route (8.0)" in texts(step)
    assert step.waiting_on == ["nato"]
    with pytest.raises(RuleError, match="8.0"):
        act(step.state, "nato", Route(unit="US1", to="3"))
    # US1 was NATO's one unit to route: the route phase ends and turn 2 rolls (initiative,
    # then both units' rallies, 6.2).
    step = act(step.state, "nato", Route(unit="US1", to="1"), [6, 1, 6, 6, 6, 6])
    assert step.state.units["US1"].area == "1" and step.state.turn == state.turn + 1


def test_cadre_returns_reduced_on_1_to_4_with_minus_one_after_the_first_7_3_6() -> None:
    """7.3.6: one roll per eliminated VDV in the next rally: 1-4 returns it reduced in the
    cadre area; -1 for the second and third; none while NATO controls the area."""
    state = game(GRID, {"US1": "1", "VDV3": "11"}, vdv_lost=2, cadres={"VDV": 1, "VDV2": 2})
    state.units["VDV"].place = state.units["VDV2"].place = "gone"
    step = end_ops(state, [3, 3, 4, 5])  # VDV: 4 -> back; VDV2: 5 -1 = 4 -> back
    assert "🎲 4 = 4: VDV returns reduced in 12 (7.3.6)" in texts(step)
    assert "🎲 5 -1 2nd/3rd = 4: VDV2 returns reduced in 12 (7.3.6)" in texts(step)
    assert step.state.units["VDV2"].area == "12" and step.state.units["VDV2"].reduced
    assert step.state.units["VDV2"].ap == 3 and step.state.cadres == {}
    held = game(GRID, {"US1": "12", "VDV3": "11"}, control={"12": "nato"}, cadres={"VDV": 1})
    held.units["VDV"].place = "gone"
    step = end_ops(held, [3, 3])
    assert "VDV: NATO holds 12, no cadre (7.3.6)" in texts(step)
    assert step.state.units["VDV"].place == "gone"


def test_hind_leaves_at_the_end_of_the_turn_10_2() -> None:
    """10.2: the Hind is removed in the administrative phase."""
    state = game(GRID, {"US1": "1", "VDV": "12", "HIND": "11"})
    step = end_ops(state, [3, 3])
    assert step.state.units["HIND"].place == "pool"


def test_victory_after_turn_seven_12_0() -> None:
    """12.0: NATO needs 6 and every area around it, plus a secondary; else the Soviets win.
    Control is the sole occupant's, or the last sole occupant's."""
    ring = ["1", "2", "3", "5", "6", "7", "9", "10", "11"]
    control = {a: "nato" for a in ring} | {"12": "nato"}
    state = game(GRID, {"US1": "6", "VDV": "4"}, turn=7, control=control)
    step = end_ops(state, [])
    assert step.game_over and step.result == "NATO wins: controls 6, its ring and 12 (12.0)"
    control["11"] = "soviet"
    state = game(GRID, {"US1": "6", "VDV": "4"}, turn=7, control=control)
    assert end_ops(state, []).result == "Soviet win: NATO lacks 11 of the 6 ring (12.0)"
    lines = SYSTEM.status(state)
    assert any(line.startswith("Main (12.0): 6:NATO") and "11:SOV" in line for line in lines)


def test_fire_costs_one_ap_and_one_attack_per_impulse_7_3_1() -> None:
    """7.3.1: a ranged attack costs an AP; the unit attacks once in its impulse."""
    state = game(GRID, {"US1": "1", "VDV": "3"}, standing={"nato": "never", "soviet": "never"})
    step = act(state, "nato", Fire(unit="US1", target="VDV"), [1, 1])
    assert step.state.units["US1"].ap == 2 and step.waiting_on == ["soviet"]


def test_setup_areas_come_from_the_scenario_11_0() -> None:
    """11.0: a unit sets up only in its deployment's areas."""
    dep = [Deployment(side="nato", units=["US1"], areas=["1", "5"])]
    sc = board("s-setup", 4, 3, UNITS, deployments=dep, main_objective="6",
               secondary_objectives=["12"])
    start = SYSTEM.setup(sc.key, {}, ScriptedDice([]))
    assert start.waiting_on == ["nato"]
    with pytest.raises(RuleError, match="sets up in area 1, 5"):
        act(start.state, "nato", Deploy(unit="US1", area="2"))
    assert act(start.state, "nato", Deploy(unit="US1", area="5")).state.units["US1"].area == "5"


def test_turn_part_names_the_decision_owed() -> None:
    """The turn-part label changes with who owes what, so the right player is pinged."""
    state = game(GRID, {"US1": "1", "VDV": "3"})
    assert SYSTEM.turn_part(state) == "Turn 1/7 · Operations · NATO"
    step = act(state, "nato", Fire(unit="US1", target="VDV"), [6, 4])
    assert step.turn_part == "Turn 1/7 · Operations · Retreat? · Soviets"
