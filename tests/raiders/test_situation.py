"""Mission card camps (8.0 (1) Situation) and coordinated operations of several forces (26.0)."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from rules.core.errors import RuleError
from rules.raiders import SYSTEM
from rules.raiders import actions as A
from rules.raiders.battle import pick_hostiles
from rules.raiders.scenario import Scenario, load_scenario
from tests.raiders.helpers import ctx, do, mission, mission_state, put, texts


def test_mission_card_places_its_camp_from_the_bin() -> None:
    # 8.0 (1): M4's Situation puts two hostiles at Gialo; they leave the bin (14.0).
    state = mission_state("M4")
    m = mission(state)
    assert m.camps == {"gialo": ["Ita-1", "Ita-2"]}  # the helper's dice pick the first
    c = ctx(state, [1] * 18)
    assert set(pick_hostiles(c, 18, "test")).isdisjoint({"Ita-1", "Ita-2"})
    status = SYSTEM.status(state)
    assert "Camp at Gialo: 2 hostiles" in status and "  Ita-1 Ita-2" in status
    camp = [f for f in SYSTEM.view(state).forces if f.space == "gialo" and f.faction == "hostile"]
    assert camp and camp[0].id == "Well guard" and [u.id for u in camp[0].units] == ["Ita-1", "Ita-2"]


def test_a_camp_size_can_be_a_die_or_the_alert_level() -> None:
    # 8.0 (1) with 15.1 (1)'s counts: M6 has a camp of 'alert' and one of 'die' hostiles.
    m = mission(mission_state("M6"))  # alert 3 at the start; the helper's dice roll 1s
    assert len(m.camps["el-adem"]) == m.alert and len(m.camps["sidi-rezegh"]) == 1


def test_a_force_ending_at_a_camp_fights_it_and_wipes_it_out() -> None:
    # 11.0 (4): hostiles in the space entered must be fought, though the card (C1) calls none.
    state = put(mission_state("M4"), "kufra", "Cdo-1")
    step = do(state, A.Move(force="F1", to="gialo"), [1, 6, 1])  # C1; Edge 6 vs 1
    b = mission(step).battle
    assert b is not None and b.source == "camp" and b.card is None
    assert b.hostile_line == ["Ita-1", "Ita-2"] and b.camp == ["Ita-1", "Ita-2"]
    # Cdo-1 hits Ita-1 on 1, Ita-2 misses on 6, Cdo-1 hits Ita-2 on 1; leader roll 1; marker.
    done = do(step.state, A.Fire(target="Ita-1"), [1, 6, 1, 1, 2])
    assert "The camp at Gialo is wiped out (8.0)" in texts(done)
    assert mission(done).camps == {} and mission(done).battle is None
    assert not [f for f in SYSTEM.view(done.state).forces if f.faction == "hostile"]


def test_a_camp_that_wins_stays_where_it_is() -> None:
    # 14.0 returns a card's hostiles to the bin; a camp is the scenario's exception (8.0).
    state = put(mission_state("M4"), "kufra", "Cdo-1")
    step = do(state, A.Move(force="F1", to="gialo"), [1, 1, 6, 1])  # Edge 1 vs 6: Ita-1 hits
    assert "2 stay in the camp at Gialo (8.0)" in texts(step)
    m = mission(step)
    assert m.camps == {"gialo": ["Ita-1", "Ita-2"]} and m.last_battle is not None
    assert m.last_battle.outcome == "hostile"


def test_card_hostiles_and_the_camp_fight_one_battle() -> None:
    # 11.0 (4): one combat segment; afterwards only the camp's survivors stay on the map.
    state = put(mission_state("M4"), "kufra", "Cdo-1")
    # C2 Patrol contact: a die of hostiles (1), picked from the bin (Ita-3); Edge 1 vs 6;
    # Ita-1 eliminates Cdo-1; C2 lost costs an Op (a card discarded face down, 11.3).
    step = do(state, A.Move(force="F1", to="gialo"), [2, 1, 1, 1, 6, 1])
    assert "−1 Op: C2 lost → 5 Ops left (11.3)" in texts(step)  # the card's own lines apply
    b = mission(step).last_battle
    assert b is not None and b.source == "card" and b.card == "C2"
    assert set(b.hostile_line) == {"Ita-1", "Ita-2", "Ita-3"} and b.camp == ["Ita-1", "Ita-2"]
    assert mission(step).camps == {"gialo": ["Ita-1", "Ita-2"]}


def test_three_forces_coordinate_into_a_camp_space() -> None:
    # 26.0: "two or more" forces, each with a leader, end together where a camp is.
    state = put(mission_state("M4", coordinated=True), "kufra", "Ldr-1", "Cdo-1")
    put(state, "kufra", "Ldr-2", "Cdo-2", force="F2")
    put(state, "kufra", "Ldr-3", force="F3")
    choices = SYSTEM.choices(state, "raiders", "move", "with_force", {"force": "F1"})
    assert [c.value for c in choices] == ["F2", "F3", "F2,F3"]
    step = do(state, A.Move(force="F1", to="gialo", with_force="F2,f3"), [1, 6, 1])
    m = mission(step)
    assert {u.id for u in m.units if u.space == "gialo"} == {"Ldr-1", "Cdo-1", "Ldr-2", "Cdo-2", "Ldr-3"}
    assert {u.force for u in m.units if u.space == "gialo"} == {"F1"}
    assert m.battle is not None and set(m.battle.raider_line) >= {"Cdo-1", "Cdo-2"}
    assert any(a.with_force == "F2,F3" for a in SYSTEM.legal_actions(state, "raiders")
               if isinstance(a, A.Move))
    with pytest.raises(RuleError, match="once"):
        do(state, A.Move(force="F1", to="gialo", with_force="F2,F2"))
    with pytest.raises(RuleError, match="other forces"):
        do(state, A.Move(force="F1", to="gialo", with_force="F1"))


def test_a_camp_must_stand_on_the_map_outside_the_staging_areas() -> None:
    # 8.0 (1) as we read it: raiders recruit in Staging Areas (7.0), so no camp there.
    data = json.loads(load_scenario("desert").model_dump_json())
    data["missions"][0]["camps"] = [{"space": "siwa", "hostiles": 1}]
    with pytest.raises(ValidationError, match="Staging"):
        Scenario.model_validate(data)
