"""Setup and reinforcements on the real Tannenbruck map (11.0), and what the players see:
status (12.0 objectives at every moment), autocomplete, the view."""

from __future__ import annotations

import re
import time

import pytest

from rules.core.dice import ScriptedDice, SeededDice
from rules.core.errors import RuleError
from rules.core.views import AreaMapView
from rules.rr import SYSTEM
from rules.rr.actions import Deploy, DeployDefault, Done, Enter, Move, Pass, Place, Ready, Skip
from rules.rr.board import Board
from rules.rr.state import RRState
from tests.rr.helpers import act, legal


def start() -> RRState:
    """The opening state: NATO to set up."""
    state = SYSTEM.setup("tannenbruck", {}, ScriptedDice([])).state
    assert isinstance(state, RRState)
    return state


def both_deployed(dice: list[int]) -> RRState:
    """Both default deployments, then turn 1 rolled with ``dice``."""
    state = act(start(), "nato", DeployDefault()).state
    state = act(state, "nato", Ready()).state
    state = act(state, "soviet", DeployDefault()).state
    return act(state, "soviet", Ready(), dice).state


def test_nato_sets_up_first_asu85_in_19_and_the_game_lasts_seven_turns_11_0() -> None:
    """11.0: NATO first; the ASU-85 starts in 19; seven turns."""
    step = SYSTEM.setup("tannenbruck", {}, ScriptedDice([]))
    state = step.state
    assert step.waiting_on == ["nato"] and state.max_turn == 7
    assert state.units["ASU85"].area == "19" and state.control["19"] == "soviet"
    with pytest.raises(RuleError, match="not your turn"):
        act(state, "soviet", DeployDefault())
    with pytest.raises(RuleError, match="sets up in area 1, 2, 3, 4"):
        act(state, "nato", Deploy(unit="M48-1", area="7"))
    with pytest.raises(RuleError, match="first"):
        act(state, "nato", Ready())


def test_default_deployments_are_legal_and_turn_one_starts_itself_11_0_6_1() -> None:
    """One order per side gives a legal setup; then initiative, air and rally run alone."""
    state = both_deployed([2, 5])
    b = Board(state)
    assert b.points("7", "soviet") >= 1  # 11.0
    assert state.units["SAGGER"].attached_to == "VDV-1" and state.units["KASTET"].attached_to == "T12"
    assert state.turn == 1 and state.phase == "ops" and state.initiative == "soviet"
    assert state.airstrike == {"nato": False, "soviet": True}
    for unit in state.on_map():
        assert unit.ap == b.max_ap(unit.id)
    assert SYSTEM.waiting_on(state) == ["soviet"]


def test_soviets_need_a_stacking_point_in_area_7_11_0() -> None:
    """11.0: at least one Soviet stacking point in area 7."""
    state = act(act(start(), "nato", DeployDefault()).state, "nato", Ready()).state
    for uid, area in [("VDV-1", "10"), ("VDV-2", "10"), ("VDV-3", "14"), ("MORT-SU", "14"),
                      ("BMD", "15"), ("T12", "15"), ("AGS", "16"), ("NIKOLAS", "16")]:
        state = act(state, "soviet", Deploy(unit=uid, area=area)).state
    with pytest.raises(RuleError, match="area 7"):
        act(state, "soviet", Ready())
    state = act(state, "soviet", Deploy(unit="AGS", area="7")).state
    with pytest.raises(RuleError, match="NIKOLAS must set up with another unit"):
        act(state, "soviet", Ready())


def test_reinforcements_enter_paying_an_ap_from_their_turn_on_11_0() -> None:
    """11.0: "enter" reinforcements pay an AP, at their entrances, from their turn."""
    state = both_deployed([1, 1])
    state.active = "nato"
    with pytest.raises(RuleError, match="not a reinforcement due"):
        act(state, "nato", Enter(units="M48-3", to="1"))
    state.turn = 2
    with pytest.raises(RuleError, match="enters at area 1, 2"):
        act(state, "nato", Enter(units="M48-3", to="4"))
    step = act(state, "nato", Enter(units="M48-3,INF-DE1", to="1"))
    assert step.state.units["M48-3"].area == "1" and step.state.units["M48-3"].ap == 2
    state.turn = 3
    step = act(state, "nato", Enter(units="INF-US1,BOYES", to="13"))
    assert step.state.units["TOW"].attached_to == "INF-US1"  # 9.3
    with pytest.raises(RuleError, match="leader enters with another"):
        act(state, "nato", Enter(units="BOYES", to="13"))


def test_turn_five_mortar_is_placed_in_the_rally_phase_without_ap_cost_11_0() -> None:
    """11.0 turn 5: placed in an area solely occupied by US units, at no AP cost."""
    state = both_deployed([1, 1])
    for unit in state.units.values():
        if unit.id in ("M60-1",):
            unit.place, unit.area, unit.ap = "map", "13", 3
    state.turn, state.active, state.passes = 4, "nato", 1
    state.routed = [u.id for u in state.on_map()]
    step = act(state, "nato", Pass(), [1, 1])
    while step.state.phase == "route":
        step = act(step.state, step.waiting_on[0], Done(), [])
    s = step.state
    assert s.turn == 5 and s.phase == "place" and step.waiting_on == ["nato"]
    with pytest.raises(RuleError, match="may be placed in: 13"):
        act(s, "nato", Place(unit="MORT-US", area="1"))
    placed = act(s, "nato", Place(unit="MORT-US", area="13"))
    assert placed.state.units["MORT-US"].ap == 3 and placed.state.phase == "ops"
    skipped = act(s, "nato", Skip())
    assert skipped.state.phase == "ops" and skipped.state.units["MORT-US"].place == "pool"


def test_territorialheer_assaults_at_once_a_soviet_city_area_11_0() -> None:
    """11.0 turn 6: any city area east of the river; a Soviet-held one is assaulted at once."""
    state = both_deployed([1, 1])
    state.turn, state.phase, state.active = 6, "place", "nato"
    state.standing = {"nato": "never", "soviet": "never"}
    step = act(state, "nato", Place(unit="TERR", area="19", target="ASU85"), [3, 3])
    assert "🎲 3+3 +2 ACM = 8 vs DF 7 = 7 → +1: one hit (7.3.5)" in [e.text for e in step.events]
    assert step.state.units["ASU85"].status == "suppressed"  # 7.3.5.3: a tank gets no TM
    # 1 SP against 2: the platoon must go back, and it came from nowhere (our reading).
    assert step.state.units["TERR"].place == "gone" and step.state.phase == "ops"
    with pytest.raises(RuleError, match="may be placed in"):
        act(state, "nato", Place(unit="TERR", area="7"))


def test_status_shows_objectives_air_and_orders_12_0() -> None:
    """/game status: turn, initiative, air, reinforcements, each objective's controller."""
    state = both_deployed([1, 3])
    lines = SYSTEM.status(state)
    assert lines[0] == "Turn 1/7 · Operations · Soviets"
    assert any(line.startswith("Airstrike: NATO/Soviets") for line in lines)
    assert any(line.startswith("Main (12.0): 19:SOV 17:") for line in lines)
    assert any(line.startswith("Secondary: 26:") for line in lines)
    assert any(line.startswith("Soviets can: ") and "move" in line for line in lines)


def test_autocomplete_is_fast_and_offers_legal_values() -> None:
    """Autocomplete: units that can act, then legal destinations, at most 25, in a few ms."""
    state = both_deployed([3, 3])
    t0 = time.perf_counter()
    units = SYSTEM.choices(state, "nato", "move", "units", {})
    areas = SYSTEM.choices(state, "nato", "move", "to", {"units": "M48-1"})
    elapsed = time.perf_counter() - t0
    assert units and len(units) <= 25
    assert re.fullmatch(r"\S+ \(area \d+, \d AP\)", units[0].label), units[0].label
    here = state.units["M48-1"].area
    b = Board(state)
    assert {c.value for c in areas} <= set(b.g.adjacent(here or ""))
    assert elapsed < 0.25
    assert [c.info for c in SYSTEM.choices(state, "soviet", "move", "units", {})] == [True]  # not your turn


def test_view_draws_every_counter_and_the_last_impulse() -> None:
    """view(): areas, counters with faction keys, objectives, marks of the last impulse."""
    state = both_deployed([3, 3])
    unit = "M48-1"
    here = state.units[unit].area or ""
    to = sorted(Board(state).g.adjacent(here) - Board(state).enemy_areas("nato"))[0]
    state = act(state, "nato", Move(units=unit, to=to)).state
    view = SYSTEM.view(state)
    assert isinstance(view, AreaMapView) and len(view.areas) == 30
    assert {c.faction for c in view.counters} == {"nato_de", "soviet"}
    assert any(c.attached_to == "VDV-1" for c in view.counters)
    assert [m.kind for m in view.marks] == ["move"]
    assert {a.id for a in view.areas if a.objective == "main"} == {"19", "17", "18", "20", "21", "23", "24"}
    assert view.header.max_turn == 7 and view.header.turn == 1
    AreaMapView.model_validate_json(view.model_dump_json())


def test_a_setup_gone_wrong_always_offers_a_way_out_11_0() -> None:
    """A leader left alone or an empty area 7 still leaves legal orders that fix it."""
    state = act(act(start(), "nato", DeployDefault()).state, "nato", Ready()).state
    for uid, area in [("VDV-1", "10"), ("VDV-2", "10"), ("VDV-3", "14"), ("MORT-SU", "14"),
                      ("BMD", "15"), ("T12", "15"), ("AGS", "16"), ("NIKOLAS", "7")]:
        state = act(state, "soviet", Deploy(unit=uid, area=area)).state
    offered = legal(state, "soviet")
    assert Ready() not in offered
    assert Deploy(unit="NIKOLAS", area="10") in offered and Deploy(unit="AGS", area="7") in offered
    fixed = act(state, "soviet", Deploy(unit="AGS", area="7")).state
    assert Ready() in legal(fixed, "soviet")


def test_reinforcements_are_announced_and_stay_available_11_0() -> None:
    """11.0: the turn's reinforcements are announced; those not brought on stay available."""
    state = both_deployed([1, 1])
    state.active, state.passes = "nato", 1
    step = act(state, "nato", Pass(), [4, 4])
    assert "NATO may enter at 1/2 (1 AP): M48-3, INF-DE1, INF-DE2, INF-DE3, HQ (11.0)" in [
        e.text for e in step.events]
    later = step.state.model_copy(update={"turn": 5, "active": "nato"}, deep=True)
    assert act(later, "nato", Enter(units="HQ,INF-DE2", to="2")).state.units["HQ"].area == "2"


def test_fire_targets_come_with_range_and_defence() -> None:
    """Autocomplete of a fire target shows the range and the DF + TM it will face."""
    state = both_deployed([3, 3])
    b = Board(state)
    b.s.units["M48-1"].area = "6"
    found = SYSTEM.choices(state, "nato", "fire", "target", {"unit": "M48-1"})
    assert found, "a target should be in sight of area 6"
    first = state.units[found[0].value]
    assert found[0].label.startswith(f"{first.id} in {first.area} (range ")


def test_a_unit_misnamed_in_set_up_is_refused_with_the_pool_not_an_empty_map_11_0() -> None:
    """Issue 40: during set-up (11.0) a side's units are in the pool, not on the map: a wrong
    id names the ones it may set up, never "on the map: none"."""
    state = SYSTEM.setup("tannenbruck", {}, ScriptedDice([])).state
    with pytest.raises(RuleError) as refused:
        SYSTEM.apply(state, "nato", Deploy(unit="M48-9", area="1"), ScriptedDice([]))
    assert "in the pool: M48-1" in refused.value.message
    assert "on the map: none" not in refused.value.message
