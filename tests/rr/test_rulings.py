"""The Raid and Riposte rulings of issue 12, each by its rule number with scripted dice:
8.0 routes, 7.3.6 cadres, the 7.3.5 note, 7.3.2 adjacent lines of sight, the player's own
decisions (9.7, 9.8, 7.3.5.2, 10.1: see also test_sequence, test_leaders, test_assault,
test_special) and what the referee says (retreat prompts, itemised modifiers, eliminations,
7.0 automatic passes, ``info``)."""

from __future__ import annotations

import pytest

from rules.core.dice import ScriptedDice
from rules.core.errors import RuleError
from rules.rr import SYSTEM
from rules.rr.actions import Assault, Done, Fire, Info, Pass, Retreat, Route, TakeHits
from rules.rr.board import Board, scenario_of
from tests.rr.helpers import act, board, end_ops, game, legal, spec, texts

TANNENBRUCK = scenario_of("tannenbruck")
UNITS = [
    spec("INF", acm=3), spec("INF2", acm=3), spec("INF3", acm=3),
    spec("MORT", kind="mortar", stacking=1, acm=None, rcm=2, df=5),
    spec("VDV", "soviet", special="vdv"), spec("VDV2", "soviet", special="vdv"),
    spec("VDV3", "soviet", special="vdv"),
    spec("SMORT", "soviet", kind="mortar", stacking=1, acm=None, rcm=2, df=5),
    spec("NIK", "soviet", kind="leader", special="nikolas", stacking=0, acm=None, ap=2),
    spec("SAGGER", "soviet", kind="atgm", special="sagger", stacking=0, acm=None, rcm=1, df=0,
         attached_to="VDV2"),
]
STRIP = board("r-strip", 6, 1, UNITS, tm={"3": 1}, cadre_area="6")
NEVER = {"nato": "never", "soviet": "never"}


# -- 1. 8.0: "nor can the route bring the unit closer to an enemy unit" ------------------------


def test_8_0_a_route_may_not_close_on_any_enemy_unit_not_only_the_nearest() -> None:
    """The issue's case: a Suppressed AGS in 15, the Luchs 2 areas away (6) and M48-1 3 away
    (3): 13 is no closer to the Luchs but closer to M48-1, so it is refused."""
    state = game(TANNENBRUCK, {"AGS": "15", "LUCHS": "6", "M48-1": "3", "VDV-1": "30"},
                 phase="route", active="soviet")
    state.units["AGS"].status, state.units["AGS"].ap = "suppressed", 0
    b = Board(state)
    assert b.g.distance("15", "6") == 2 and b.g.distance("15", "3") == 3 and b.g.distance("13", "3") < 3
    routes = {a.to for a in legal(state, "soviet") if isinstance(a, Route)}
    assert "13" not in routes
    for to in routes:
        assert all(b.g.distance(to, e) >= b.g.distance("15", e) for e in ("6", "3"))
    with pytest.raises(RuleError, match="8.0"):
        act(state, "soviet", Route(unit="AGS", to="13"))


# -- 2. 7.3.6: "Roll only once for each eliminated VDV Para" ----------------------------------


def test_7_3_6_a_cadre_eliminated_again_is_lost_without_a_roll_and_not_counted_again() -> None:
    """VDV came back as a cadre; eliminated again it gets no roll, and VDV2, the second
    company eliminated, still rolls with -1 (not as a third)."""
    state = game(STRIP, {"INF": "1", "INF2": "1", "VDV": "2", "VDV3": "5"}, standing=dict(NEVER),
                 vdv_lost=1, cadre_rolled=["VDV"])
    state.units["VDV"].reduced = True
    step = act(state, "nato", Fire(unit="INF", target="VDV", support="INF2"), [6, 6])  # 3 hits
    assert step.state.units["VDV"].place == "gone"
    assert step.state.cadres == {} and step.state.vdv_lost == 1
    state = step.state
    state.units["VDV2"].place = "gone"
    state.cadres, state.vdv_lost = {"VDV2": 2}, 2
    turn = end_ops(state, [3, 3, 5])  # initiative, then one cadre roll: VDV2's 5 -1 = 4
    cadre = [t for t in texts(turn) if "(7.3.6)" in t]
    assert cadre == ["🎲 5 -1 2nd/3rd = 4: VDV2 returns reduced in 6 (7.3.6)"]
    assert turn.state.cadre_rolled == ["VDV", "VDV2"] and turn.state.units["VDV"].place == "gone"


# -- 3. 7.3.5 note: no ACM, no support -----------------------------------------------------------


def test_7_3_5_note_a_mortar_does_not_support_the_defence() -> None:
    """"Units with an asterisk in the ACM location cannot initiate or support Assault
    Combat": the Soviet mortar in the defending area adds nothing to the TDF."""
    state = game(STRIP, {"INF": "2", "VDV": "3", "SMORT": "3"}, standing=dict(NEVER))
    step = act(state, "nato", Assault(units="INF", to="3", target="VDV"), [3, 3])
    assert "🎲 3+3 +3 ACM = 9 vs DF 7 +1 TM = 8 → +1: one hit (7.3.5)" in texts(step)


# -- 5. 7.3.2: adjacent areas see each other -----------------------------------------------------


def test_7_3_2_every_pair_of_adjacent_areas_sees_each_other() -> None:
    """The six pairs whose dots' line crossed a third area (6-7, 13-15, 13-18, 13-21, 24-25,
    29-30) and every other adjacent pair: a unit may fire at its neighbour."""
    b = Board(game(TANNENBRUCK, {}))
    pairs = [(a, c) for a in b.g.ids for c in b.g.neighbours(a)]
    assert len(pairs) > 60 and all(b.sees(a, c) for a, c in pairs)
    for a, c in [("6", "7"), ("13", "15"), ("13", "18"), ("13", "21"), ("24", "25"), ("29", "30")]:
        assert b.sees(a, c) and b.sees(c, a)


def test_7_3_2_us_entry_area_13_fires_at_its_city_neighbours() -> None:
    """The US entry area 13 was blind to every city neighbour; now INF-US1 may fire at 15."""
    state = game(TANNENBRUCK, {"INF-US1": "13", "VDV-1": "15"}, standing=dict(NEVER))
    assert Fire(unit="INF-US1", target="VDV-1") in legal(state, "nato")
    step = act(state, "nato", Fire(unit="INF-US1", target="VDV-1"), [1, 1])
    assert step.events[0].text == "INF-US1 fires on VDV-1 in 15 (range 1)"


# -- 7. what the referee says ---------------------------------------------------------------------


def test_7_3_3_the_retreat_prompt_names_the_areas_and_the_hits() -> None:
    """The defender reads where it may go and how many hits it faces; take-hits naming
    another unit is refused, not applied to the unit hit."""
    state = game(STRIP, {"INF": "1", "VDV": "3", "VDV2": "3"})
    step = act(state, "nato", Fire(unit="INF", target="VDV"), [6, 4])  # 12 vs 8: two hits
    assert "VDV, two hits: retreat to 2, 4 to negate one, or take-hits? (7.3.3)" in texts(step)
    with pytest.raises(RuleError, match="VDV's to take"):
        act(step.state, "soviet", TakeHits(unit="VDV2"))
    took = act(step.state, "soviet", TakeHits(unit="VDV"))
    assert took.state.units["VDV"].reduced and took.state.units["VDV2"].status == "ok"


def test_9_1_each_mortar_roll_names_its_target() -> None:
    """A mortar rolls once per unit of the area: each line starts with the unit it is at."""
    state = game(STRIP, {"MORT": "1", "VDV": "3", "VDV2": "3"}, standing=dict(NEVER))
    step = act(state, "nato", Fire(unit="MORT", target="VDV"), [1, 1, 1, 2])
    rolls = [e.text for e in step.events if e.kind == "roll"]
    assert rolls[0].startswith("VDV: 🎲 1+1 +2 RCM") and rolls[1].startswith("VDV2: 🎲 1+2 +2 RCM")


def test_modifiers_are_itemised_9_3_9_7() -> None:
    """``+2 RCM +1 ATGM +1 Nikolas``, not ``+4 RCM``."""
    state = game(STRIP, {"VDV2": "4", "NIK": "4", "INF": "1"}, active="soviet", standing=dict(NEVER))
    boosted = act(state, "soviet", SYSTEM.parse("nikolas", {"unit": "VDV2", "value": "rcm"})).state
    boosted.active = "soviet"
    step = act(boosted, "soviet", Fire(unit="VDV2", target="INF"), [1, 1])
    assert "🎲 1+1 +2 RCM +1 ATGM +1 Nikolas = 6 vs DF 7 = 7 → -1: no effect (7.3.3)" in texts(step)


def test_eliminations_and_leaders_removed_are_announced_9_3_9_7() -> None:
    """VDV2 eliminated: its Sagger goes with it and Col. Nikolas, left alone, leaves play."""
    state = game(STRIP, {"INF": "1", "INF2": "1", "VDV2": "3", "NIK": "3"}, standing=dict(NEVER))
    state.units["VDV2"].status, state.units["VDV2"].reduced = "suppressed", True
    step = act(state, "nato", Fire(unit="INF", target="VDV2"), [1, 3])  # 4 +2 = 6 vs 8: miss
    assert step.state.units["VDV2"].place == "map"
    step = act(state, "nato", Fire(unit="INF", target="VDV2"), [6, 1])  # 9 vs 8: one hit
    lines = texts(step)
    assert "VDV2 eliminated (7.3.3)" in lines
    assert "SAGGER removed with its company (9.3, 9.4)" in lines
    assert "NIK removed from play: no unit of his side left with him (9.7-9.9)" in lines


def test_7_0_a_side_with_no_order_left_is_passed_for() -> None:
    """"Players must pass if they have no remaining actions to use": the bot passes for
    them and says so; two passes end the operations phase as usual."""
    state = game(STRIP, {"INF": "1", "VDV": "5"}, standing=dict(NEVER))
    state.units["VDV"].ap = 0
    step = act(state, "nato", Pass(), [3, 3])  # both passed: the turn ends, initiative 3/3
    assert texts(step)[:2] == ["NATO passes (7.0)", "Soviets have no order left: passed at once (7.0)"]
    assert step.state.turn == 2
    step = act(state, "nato", SYSTEM.parse("move", {"units": "INF", "to": "2"}))
    assert "Soviets have no order left: passed at once (7.0)" in texts(step)
    assert step.waiting_on == ["nato"] and step.state.passes == 1


def test_info_shows_a_counters_values_to_anyone() -> None:
    """``/rr info unit:`` is read-only: any side, any time, and the state does not change."""
    state = game(TANNENBRUCK, {"VDV-1": "7"})
    for side in ("nato", "soviet"):
        step = SYSTEM.apply(state, side, Info(unit="vdv-1"), ScriptedDice([]))
        text = step.events[0].text
        assert "VDV-1" in text and "RCM" in text and "ACM" in text and "DF" in text
        assert "morale" in text and "stacking 2" in text and "AP" in text
        assert step.state == state
    with pytest.raises(RuleError, match="no unit"):
        act(state, "nato", Info(unit="nobody"))
    assert [c.value for c in SYSTEM.choices(state, "soviet", "info", "unit", {"unit": "M48"})][:3] == [
        "M48-1", "M48-2", "M48-3"]


def test_the_soviets_done_in_the_rally_hands_the_rolls_on_6_2() -> None:
    """A side with a rally decision says done; then the rolls follow (the initiative first)."""
    state = game(STRIP, {"VDV": "5", "NIK": "5", "INF": "1"})
    state.units["VDV"].status, state.units["VDV"].ap = "suppressed", 0
    asked = end_ops(state, [4, 4])
    step = act(asked.state, "soviet", Done(), [1, 1])
    assert "🎲 1+1 = 2 vs morale 7: VDV rallies, AP reset (6.2)" in texts(step)
    assert step.state.phase == "ops"


def test_7_3_5_2_a_retreat_order_to_a_wrong_area_names_the_right_ones() -> None:
    """The withdraw decision refuses an area it may not take, listing those it may."""
    state = game(STRIP, {"INF": "2", "INF2": "2", "INF3": "2", "VDV": "3", "VDV2": "3"})
    step = act(state, "nato", Assault(units="INF,INF2,INF3", to="3", target="VDV"), [6, 6])
    assert step.state.pending[0].kind == "retreat"  # 7.3.5.5 first: VDV may negate a hit
    step = act(step.state, "soviet", TakeHits())
    assert step.state.units["VDV"].place == "gone" and step.state.pending[0].kind == "withdraw"
    assert "VDV2 must retreat: to 2, 4? (7.3.5.2)" in texts(step)
    with pytest.raises(RuleError, match="VDV2 cannot retreat to 1: it is not adjacent to 3. The defender must retreat to an adjacent area: 2, 4"):
        act(step.state, "soviet", Retreat(to="1"))
    assert act(step.state, "soviet", Retreat(to="2")).state.units["VDV2"].area == "2"
