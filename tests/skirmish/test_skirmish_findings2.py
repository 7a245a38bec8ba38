"""Issue 46, a newcomer's play-test of the platoon skirmish: rulings checked against the
rulebook with scripted dice (each test quotes its heading)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.core.errors import RuleError
from rules.skirmish import SYSTEM, morale, play, suppression
from tests.console_run import run
from tests.skirmish.helpers import LoadedDice
from tests.skirmish.test_skirmish_game import go, new
from tests.skirmish.test_skirmish_rulings3 import _game
from tests.skirmish.test_skirmish_rerolls import _assault, _bogged, _text

# -- Suppression: "Units with suppressed Teams take a +1 penalty to their next Training Check
# per suppression marker." — every Training Check of the unit, not only its activation.


def test_suppression_markers_weigh_on_the_counter_attack_check():
    state = _assault({"reroll": "no"}, {"losses": "auto", "reroll": "no"}, [6, 1, 1, 1, 1])
    assert state.pending.kind == "assault-choice"
    gren = state.unit("gren")
    gren.alive_teams[0].suppression = 1  # e.g. from the assault's suppressing fire
    # Trained 4+, +1 marker = 5+: the 4 fails and the unit must break off (Assaults)
    state, step = go(state, "germans", "decide", [4], default=1, choice="counter")
    text = _text(step)
    assert "gren Training Check 🎲4 vs 4+ +1 suppression = 5+: failed: it must break off" in text
    assert "failed: failed" not in text
    # Suppression: "If the Training Check is failed, one suppression marker is removed"
    assert "gren: one suppression marker removed" in text and state.unit("gren").markers == 0


def test_a_passed_counter_attack_check_clears_the_markers():
    state = _assault({"reroll": "no"}, {"losses": "auto", "reroll": "no"}, [6, 1, 1, 1, 1])
    state.unit("gren").alive_teams[0].suppression = 1
    state, step = go(state, "germans", "decide", [5], default=1, choice="counter")
    text = _text(step)
    assert "🎲5 vs 4+ +1 suppression = 5+: passed: it counter-attacks" in text
    # "If a suppressed Unit successfully makes its next Training Check, all suppressed Teams
    # immediately become unsuppressed"
    assert "gren: all suppression removed (Suppression)" in text


def test_the_cc_reroll_of_a_counter_attack_check_carries_the_same_markers():
    state = _assault({"reroll": "no"}, {"losses": "auto", "reroll": "yes"}, [6, 1, 1, 1, 1])
    state.unit("gren").alive_teams[0].suppression = 1
    state, step = go(state, "germans", "decide", [4, 4], default=1, choice="counter")
    assert "CC reroll: gren Training Check 🎲4 vs 4+ +1 suppression = 5+: failed" in _text(step)


def _below_half(markers: int):
    """1pl (5 teams) loses three this turn: below 50%, it owes a Morale check (Morale)."""
    state = new([6, 1])
    unit = state.unit("1pl")
    for team in unit.alive_teams[1:4]:
        suppression.remove_team(unit, team)
    unit.alive_teams[0].suppression = markers
    return state, unit


def test_suppression_markers_weigh_on_the_morale_check():
    # Morale: "that Unit must make a Training Check to see if it stays to fight"; Trained 4+
    # with 1 marker needs 5+: the 4 fails and the unit retreats.
    state, unit = _below_half(1)
    text = " | ".join(e.text for e in morale.end_of_turn(state, LoadedDice([4])))
    assert "1pl (2/5 teams) Morale Training Check 🎲4 vs 4+ +1 suppression = 5+: failed" in text
    assert "1pl retreats and is removed (Morale)" in text and not unit.on_table


def test_a_passed_morale_check_clears_the_markers():
    state, unit = _below_half(2)
    text = " | ".join(e.text for e in morale.end_of_turn(state, LoadedDice([6])))
    assert "🎲6 vs 4+ +2 suppression = 6+: passed: it stays to fight; all suppression removed" in text
    assert unit.on_table and unit.markers == 0


# -- Moving: "Tank teams must roll a 2+ when moving through Difficult Terrain, or a Training
# Check when moving through Very Difficult Terrain. A failure in either causes the Team to
# become suppressed at the point of contact with the terrain."


def test_a_failed_very_difficult_terrain_check_ends_the_tanks_move():
    state, step = _bogged({"reroll": "no"})
    text = _text(step)
    assert "failed, suppressed at the edge" in text
    assert "sherman's move ends at the edge of the terrain, suppressed (Moving)" in text
    tank = state.team("sherman")
    assert play.budget(state.unit("tank"), tank) == 0
    assert not [o for o in SYSTEM.legal_actions(state, "us") if o.name == "move"]
    with pytest.raises(RuleError):
        go(state, "us", "move", who="sherman", to="14,36")


def test_the_move_ends_too_when_the_cc_reroll_is_declined_or_fails():
    state, _ = _bogged({})  # asked
    state, step = go(state, "us", "decide", choice="accept")
    assert play.budget(state.unit("tank"), state.team("sherman")) == 0
    state, _ = _bogged({})
    state, step = go(state, "us", "decide", [2], choice="reroll")  # 2 vs 4+: fails again
    assert play.budget(state.unit("tank"), state.team("sherman")) == 0


# -- Firing: "the target Unit must allocate one die to a Team"; Suppression: "that Unit must
# place a suppression marker next to one of its Teams": the target player's choice.


async def test_an_automatic_allocation_tells_the_target_player_the_choice_was_theirs(tmp_path: Path) -> None:
    # The Sherman's 3 hits on gren: g3 and ltn in the open, then one of the hard-cover teams
    # g1 or g2 (equals): the standing order picks, and the reply says how to choose instead.
    script = _game("hedgerow_village") + ["@bob /skirmish defaults ground:no"] + [
        f"@alice /skirmish {line}" for line in (
            "activate unit:tank", "action kind:move-and-fire", "move who:sherman to:26,31",
            "fire target:gren")]
    refused, text, _ = await run(tmp_path, script, [5, 2, 5, 4, 4, 4, 2, 2, 2])
    assert refused == 0, text
    assert "Hits allocated: g3 1, ltn 1, g2 1 (Firing)" in text
    assert ("Germans: which of the equal teams took the hits was your choice, made by your standing "
            "order (allocate:auto); to be asked: defaults allocate:ask") in text
