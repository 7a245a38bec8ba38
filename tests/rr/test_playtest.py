"""A play-tester's findings on Tannenbruck: refusals that give the real reason (and what is
allowed), by rule number: 9.6 the T-12, 7.3.3 support, 6.2.1 Suppressed, 7.2, 9.2."""

from __future__ import annotations

import re

import pytest

from render.areamap import areamap_scene
from rules.core.errors import RuleError
from rules.rr import SYSTEM
from rules.rr.actions import Fire, Info, Move
from rules.rr.board import Board, scenario_of
from rules.rr.sequence import rally_prompt
from rules.rr.state import RRState, says
from rules.rr.victory import objective_lines
from tests.rr.helpers import act, game
from tests.rr.test_setup import both_deployed

TANNENBRUCK = scenario_of("tannenbruck")


def soviet_turn(where: dict[str, str]) -> RRState:
    """Operations of turn 1, the Soviets to act, units placed with full AP."""
    return game(TANNENBRUCK, where, active="soviet")


@pytest.mark.parametrize(("where", "order", "why"), [
    # 9.6: "It cannot move from its initial placement area, even to retreat".
    ({"T12": "28"}, Move(units="T12", to="27"),
     r"T12 cannot move: the T-12 cannot move from its initial placement area; it can only fire \(9\.6\)"),
    # 7.2: "Units can only enter adjacent areas": the unit is in 14 already.
    ({"VDV-1": "14"}, Move(units="VDV-1", to="14"),
     r"VDV-1 is already in area 14; move to an adjacent area: 7, 9, 10, 16, 17 \(7\.2\)"),
])
def test_9_6_and_7_2_a_refused_move_gives_its_real_reason(where: dict[str, str], order: Move, why: str) -> None:
    """Not "needs an AP and no Suppressed marker (7.1)", not "14 is not adjacent to 14"."""
    with pytest.raises(RuleError, match=why):
        act(soviet_turn(where | {"M48-1": "3"}), "soviet", order)


def test_7_3_3_a_unit_cannot_support_its_own_attack() -> None:
    """7.3.3: "one for any additional in range supporting units from the same area"."""
    state = soviet_turn({"VDV-2": "15", "M48-2": "12"})
    with pytest.raises(RuleError, match=r"VDV-2 cannot support: a unit cannot support its own attack"):
        act(state, "soviet", Fire(unit="VDV-2", target="M48-2", support="VDV-2"))


@pytest.mark.parametrize(("status", "ap", "area", "why"), [
    ("suppressed", 0, "15", r"it is Suppressed \(6\.2\.1\)"),
    ("ok", 0, "15", r"it has no AP left this turn \(7\.3\.1\)"),
    ("ok", 3, "14", r"it is in area 14; supporters fire from the firer's area 15 \(7\.3\.3\)"),
])
def test_6_2_1_and_7_3_3_a_supporter_refused_names_the_failing_condition(
        status: str, ap: int, area: str, why: str) -> None:
    """The refusal says which condition fails: Suppressed (6.2.1), no AP (7.3.1), another area."""
    state = soviet_turn({"VDV-2": "15", "VDV-1": area, "M48-2": "12"})
    state.units["VDV-1"].status, state.units["VDV-1"].ap = status, ap  # type: ignore[assignment]
    with pytest.raises(RuleError, match=f"VDV-1 cannot support: {why}"):
        act(state, "soviet", Fire(unit="VDV-2", target="M48-2", support="VDV-1"))


def test_6_2_1_a_suppressed_firer_is_told_so() -> None:
    """6.2.1: "Suppressed units lose all action points"."""
    state = soviet_turn({"VDV-2": "15", "M48-2": "12"})
    state.units["VDV-2"].status, state.units["VDV-2"].ap = "suppressed", 0
    with pytest.raises(RuleError, match=r"VDV-2 cannot fire: it is Suppressed \(6\.2\.1\)"):
        act(state, "soviet", Fire(unit="VDV-2", target="M48-2"))


def test_9_2_firing_at_the_sniper_cites_the_sniper_rule() -> None:
    """9.2: the sniper is placed on a unit only to shoot; it is no target on the map."""
    state = soviet_turn({"VDV-1": "14", "M48-1": "3"})
    with pytest.raises(RuleError, match=r"SNIPER cannot be fired on: .*\(9\.2\)\.$"):
        act(state, "soviet", Fire(unit="VDV-1", target="SNIPER"))


def test_9_3_info_shows_the_atgm_plus_one_as_it_shows_nikolas() -> None:
    """9.3: "They increase the companies' RCM by one": ``info`` lists the Sagger's +1 RCM
    (its fire rolls +2 RCM +1 ATGM), and the T-12's Kastet (9.4), as it lists Nikolas's."""
    state = soviet_turn({"VDV-1": "14", "NIKOLAS": "14", "T12": "28"})
    state.units["VDV-1"].boost = ["rcm"]
    text = act(state, "soviet", Info(unit="VDV-1")).events[0].text
    assert "RCM 2 ·" in text and "+1 RCM (SAGGER ATGM 9.3); +1 RCM (Nikolas 9.7)" in text
    kastet = act(state, "soviet", Info(unit="T12")).events[0].text
    assert "+1 RCM with the Kastet, one shot (KASTET 9.4)" in kastet


def test_wording_a_side_name_agrees_with_its_verb_and_areas_are_in_map_order() -> None:
    """"NATO has/wins/passes", "the Soviets have/win/pass"; LOS blocked by "areas"; an
    unknown unit for ``info`` (any unit) lists both sides' units."""
    b = Board(soviet_turn({"VDV-1": "14", "M48-1": "3"}))
    assert says("nato", "has", "have") == "NATO has" and says("soviet", "has", "have") == "Soviets have"
    for side in ("nato", "soviet"):
        b.s.control = {a: side for a in b.g.ids}
        assert objective_lines(b)[-1] == f"If it ended now: {says(side, 'wins', 'win')}"
    assert b.area_list(["2", "3", "11", "6", "12"]) == "2, 3, 6, 11, 12"
    with pytest.raises(RuleError, match=r"There is no unit 'ZZZ' of either side; on the map: "
                                        r"NATO M48-1; Soviets VDV-1\."):
        b.unit("ZZZ")


def test_every_counter_shows_its_values_or_the_legend_names_it() -> None:
    """The legend's "2-3-7 on a counter: RCM-ACM-DF": a chip with no room for them (a crowded
    area's smaller chips) is named in the legend; leaders and ATGMs carry none (9.3, 9.7)."""
    state = both_deployed([6, 2])
    view = SYSTEM.view(state)
    assert {c.id for c in view.counters if not c.values} == {"NIKOLAS", "SAGGER", "KASTET"}
    scene = areamap_scene(view)
    notes = [e.text for e in scene.entries if e.text.startswith("No room for the values on: ")]
    bare = notes[0].removeprefix("No room for the values on: ").split(", ") if notes else []
    scene.snapshot()
    shown = [t for t, _ in scene.layout.texts if re.fullmatch(r"\d+-[\d*]+-\d+  AP \d+/\d+", t)]
    on_map = [c for c in view.counters if c.area and c.values]
    assert len(shown) + len(bare) == len(on_map) and set(bare) <= {c.id for c in on_map}


def test_9_7_9_8_the_rally_prompt_offers_each_side_only_its_own_leader() -> None:
    """Col. Nikolas is the Soviets' (9.7), Pvt. Boyes NATO's (9.8): each side is offered its own."""
    state = game(TANNENBRUCK, {"INF-US1": "4", "BOYES": "4", "VDV-1": "14", "NIKOLAS": "14"}, phase="rally")
    for uid in ("INF-US1", "VDV-1"):
        state.units[uid].status, state.units[uid].ap = "suppressed", 0
    b = Board(state)
    assert rally_prompt(b, "nato").text == "NATO: Boyes may help the rally (boyes), then done (9.8)"
    assert rally_prompt(b, "soviet").text == "Soviets: Nikolas may help the rally (nikolas), then done (9.7)"
