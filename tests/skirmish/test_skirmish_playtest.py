"""A play-tester's reports on the hedgerow village, each replayed with scripted dice (by heading)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.core.contract import Event
from rules.core.dice import ScriptedDice
from rules.core.errors import RuleError
from rules.skirmish import SYSTEM, tohit
from rules.skirmish.fire import Fire, resolve_fire
from rules.skirmish.state import SkirmishState
from tests.console_run import run
from tests.skirmish.helpers import LoadedDice, fresh, park, put


def hedgerow() -> SkirmishState:
    """Start H: the hedgerow village, the Americans 5 against the Germans 2."""
    return SYSTEM.setup("hedgerow_village", None, ScriptedDice([5, 2])).state


def go(state: SkirmishState, side: str, name: str, dice=(), default: int = 6, **options):
    """One order through the system; the state after it and the step."""
    order = SYSTEM.parse(name, {k: str(v) for k, v in options.items()})
    step = SYSTEM.apply(state, side, order, LoadedDice(list(dice), default))
    return step.state, step


def texts(events: list[Event]) -> str:
    """Every event's text, one a line."""
    return "\n".join(e.text for e in events)


def quiet_germans(state: SkirmishState) -> SkirmishState:
    """``@bob /skirmish defaults ground:no reaction:no``."""
    return go(state, "germans", "defaults", ground="no", reaction="no")[0]


def _bars_moved() -> SkirmishState:
    """H, the Germans quiet; 1pl Move and Fire; sq3 and sq2 moved N:6 (both BARs in range)."""
    state = quiet_germans(hedgerow())
    state, _ = go(state, "us", "activate", [5], unit="1pl")
    state, _ = go(state, "us", "action", kind="move-and-fire")
    state, _ = go(state, "us", "move", who="sq3", to="N:6")
    return go(state, "us", "move", who="sq2", to="N:6")[0]


def test_hits_go_only_to_teams_within_the_range_the_team_fired_at():
    # Firing: "allocate one die to a Team in that Unit that is within range and line of sight
    # of at least one firing Team": both BARs fire at normal range (12"), so mg (15.5", 17.4")
    # and ltn (12.4" from sq3, 12.6" from sq2) take no hits.
    state, step = go(_bars_moved(), "us", "fire", target="gren")
    text = texts(step.events)
    assert "sq2 Rifles and BAR 3 FP at gren (6.8\")" in text
    assert "Hits allocated: g3 2, g1 2, g2 2 (Firing)" in text
    assert "mg saves" not in text and "ltn saves" not in text


def _sherman_at_25_32() -> SkirmishState:
    """H, the Germans quiet, the Sherman activated (Move and Fire) and moved to 25,32."""
    state = quiet_germans(hedgerow())
    state, _ = go(state, "us", "activate", [5], unit="tank")
    state, _ = go(state, "us", "action", kind="move-and-fire")
    return go(state, "us", "move", who="sherman", to="25,32")[0]


def test_at_declares_the_type_and_the_at_weapon_fires_at_it():
    # Firing: "Weapons with the 'AT' trait may declare which type of Team they are shooting at
    # in the targeted Unit before they roll To Hit. Teams of that type must be allocated hits"
    state, step = go(_sherman_at_25_32(), "us", "fire", target="pak", at="gun")
    text = texts(step.events)
    assert "sherman 75 mm M3 gun 2 FP at pak (13.6\", AT at gun teams)" in text
    assert "Hull and coaxial MG" not in text
    assert "Hits allocated: pak40 2 (Firing)" in text


def test_at_refused_for_a_type_the_target_does_not_have():
    # "which type of Team they are shooting at in the targeted Unit": pak has no tank team
    with pytest.raises(RuleError, match="pak has no tank team: at: declares a type of team"):
        go(_sherman_at_25_32(), "us", "fire", target="pak", at="tank")


def test_at_refused_without_an_at_weapon():
    # only "Weapons with the 'AT' trait" declare a type: the BAR squads have none
    state = quiet_germans(hedgerow())
    put(state, "sq2", 15, 29)  # in front of the west bocage, 6.8" from g1
    state, _ = go(state, "us", "activate", [5], unit="1pl")
    state, _ = go(state, "us", "action", kind="fire")
    with pytest.raises(RuleError, match="No firing team has an AT weapon that can fire at gren"):
        go(state, "us", "fire", target="gren", teams="sq2", at="infantry")


def _aimed_1pl(state: SkirmishState) -> SkirmishState:
    state, _ = go(quiet_germans(state), "us", "activate", [5], unit="1pl")
    return go(state, "us", "action", kind="aimed-fire")[0]


def test_directed_refused_for_a_team_that_cannot_fire():
    # Leaders: "They may direct a Team's fire, rerolling missed To Hit dice from a Team within
    # 2" of the PL": lt's carbine (8") cannot reach gren (25.3"), so nothing could be rerolled
    state = _aimed_1pl(hedgerow())
    with pytest.raises(RuleError, match=r"directed:lt is refused \(lt: gren is 25.3\", beyond "
                                        r"the 8\" range of its Carbines and pistols; at long range "
                                        r"its 1 FP halves to 0"):
        go(state, "us", "fire", target="gren", directed="lt")


def test_directed_fire_without_misses_says_so():
    # the leader's reroll is of "missed To Hit dice": with none, the line says there were none
    state = hedgerow()
    put(state, "lt", 24, 33)
    put(state, "sq2", 24, 31.5)
    state = _aimed_1pl(state)
    state, step = go(state, "us", "fire", target="gren", teams="sq2", directed="sq2")
    assert "🎲6 6 6 (no misses for the leader to reroll) → 3 hits" in texts(step.events)


def test_reaction_fire_only_from_teams_within_8_of_the_point_fired_at():
    # Reaction Fire: "Teams may fire at an enemy Unit moving within 8" of them": sq2 is fired
    # on at 15,30, where it came within 8" of g1 (7.8"); g2 is 8.8" from there: it does not fire
    state = hedgerow()
    state, _ = go(state, "us", "activate", [5], unit="1pl")
    state, _ = go(state, "us", "action", kind="move-and-fire")
    state, step = go(state, "us", "move", who="sq2", to="N:6")
    assert ("May fire at 1pl: gren: Reaction Fire (+1 To Hit), g1 7.8\": "
            "decide choice:fire unit:gren or decide choice:hold") in texts(step.events)
    state, step = go(state, "germans", "decide", [6, 5, 4, 3], choice="fire", unit="gren")
    text = texts(step.events)
    assert "sq2 is fired on where it came within 8\", 15.0,30.0 (Reaction Fire)" in text
    assert "g2 does not fire: no moving team is within 8\" of it" in text
    assert "g1 Rifles 2 FP at 1pl (7.8\")" in text and "g2 Rifles" not in text
    assert not state.team("g2").fired_initiative  # it may still fire later this Initiative
    assert state.team("sq2").pos == pytest.approx((15.0, 29.0))  # back where it stopped


async def test_the_allocation_question_lists_answers_the_console_accepts(tmp_path: Path) -> None:
    # Firing: "the target Unit must allocate one die to a Team": the question lists every
    # distinct allocation, written as the console reads it; the second one typed verbatim works
    lines = [
        "@alice /game new system:skirmish scenario:hedgerow_village",
        "@alice /game join side:us", "@bob /game join side:germans",
        "@bob /skirmish defaults ground:no reaction:no allocate:ask",
        "@alice /skirmish activate unit:1pl", "@alice /skirmish action kind:move-and-fire",
        "@alice /skirmish move who:sq3 to:N:6", "@alice /skirmish move who:sq2 to:N:6",
        "@alice /skirmish fire target:gren",
    ]
    refused, text, _ = await run(tmp_path, lines, [5, 2, 5, 6, 6, 6, 6, 6, 1] + [6] * 40)
    assert refused == 0, text
    assert ("gren: allocate the hits (teams: the teams to take hits first among equals): "
            "decide choice:allocate teams:none (g3 2, g1 2, g2 1); "
            "decide choice:allocate teams:g2 (g3 2, g2 2, g1 1) (Firing)") in text
    refused, text, _ = await run(tmp_path, ["@bob /skirmish decide choice:allocate teams:g2"], [6] * 10)
    assert refused == 0 and "Hits allocated: g3 2, g2 2, g1 1 (Firing)" in text


def test_a_failed_terrain_check_says_failed_once():
    # Moving: "a Training Check when moving through Very Difficult Terrain"
    state, _ = go(hedgerow(), "us", "defaults", reroll="no")
    state, _ = go(state, "us", "activate", [5], unit="tank")
    state, _ = go(state, "us", "action", kind="move")
    state, step = go(state, "us", "move", [2], who="sherman", to="30,30.5")
    assert ("sherman enters East bocage (Very Difficult): Training Check 🎲2 vs 4+: failed, "
            "suppressed at the edge (Moving)") in texts(step.events)


def test_seven_or_more_reads_once():
    # Firing: "If the To Hit number is 7 or more, the shooting will automatically fail."
    roll = tohit.roll_to_hit(ScriptedDice([]), 3, 7, "t")
    assert roll.text() == "→ no roll: 7 or more fails automatically"


def test_moving_refusals_say_what_is_wrong():
    # Moving: a team that has used its move, and a distance off the table
    state = quiet_germans(hedgerow())
    state, _ = go(state, "us", "activate", [5], unit="1pl")
    state, _ = go(state, "us", "action", kind="move-and-fire")
    with pytest.raises(RuleError, match="too large: it is off the table"):
        go(state, "us", "move", who="sq1", to="N:1e400")
    state, _ = go(state, "us", "move", who="sq1", to="N:6")
    with pytest.raises(RuleError, match="sq1 has used all of its move this activation"):
        go(state, "us", "move", who="sq1", to="N:1")


def test_measuring_off_the_table_says_so():
    state, step = go(hedgerow(), "us", "measure", team="sq1", to="1000,1000")
    assert "off the 48\"x48\" table" in texts(step.events) and "in sight" not in texts(step.events)


def test_rifle_hits_on_armour_say_they_cannot_harm_it():
    # Armor Saves: "Armored Teams may only be harmed by Teams firing 'AT' weapons."
    state = fresh()
    park(state)
    put(state, "sherman", 10, 30, facing=270)
    put(state, "g1", 10, 22)
    result = resolve_fire(state, [state.team("g1")], state.unit("tank"), ScriptedDice([6, 6]), Fire())
    assert "2 hits cannot harm tank's armour" in texts(result.events)


def test_a_missed_barrage_says_where_the_template_is():
    # Indirect Fire: "If the roll to range in fails, the opponent may move the template up to 6""
    state = SYSTEM.setup("hedgerow_village", None, ScriptedDice([2, 5])).state
    put(state, "sq2", 24, 26)
    state, _ = go(state, "germans", "activate", [5], unit="mortars")
    state, _ = go(state, "germans", "action", kind="barrage")
    state, step = go(state, "germans", "barrage", [1], target="sq2")
    assert "The barrage missed: the template is at 24.0,26.0; move it up to 6\"" in texts(step.events)
    state, step = go(state, "us", "decide", [1] * 20, choice="leave")
    assert "The template stays at 24.0,26.0 (Indirect Fire)" in texts(step.events)


def test_status_drops_fire_when_no_team_can_fire_and_shows_markers():
    state, _ = go(_bars_moved(), "us", "fire", target="gren")
    status = "\n".join(SYSTEM.status(state))
    assert "Active: 1pl (move-and-fire; steps left: none: done ends it)" in status
    assert "Germans: to act de-hq, gren, pak, mortars; teams lost 0; markers: gren suppression g1 1, g2 1" in status
