"""Issue 46: a platoon skirmish file begins mid-game: a team already lost (Losses),
suppression markers beside teams (Suppression), a later first turn; weapons and terrain of
the club's own within the Fire Points the rules read (1-12).
docs/scenarios/skirmish-after-the-barrage.yaml shows them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.scenarios.helpers import assert_refused_at
from rules.core.dice import SeededDice
from rules.skirmish import SYSTEM

TEXT = (Path(__file__).resolve().parents[2] / "docs" / "scenarios" / "skirmish-after-the-barrage.yaml").read_text("utf-8")


def test_the_game_begins_at_turn_3_with_a_team_lost_and_the_squad_suppressed() -> None:
    checked = SYSTEM.scenario_from_file(TEXT)
    s = SYSTEM.setup(checked.key, None, SeededDice(b"barrage")).state
    assert s.turn == 3 and SYSTEM.turn_part(s).startswith("Turn 3/5")
    squad = s.unit("us-1")
    assert [t.id for t in squad.alive_teams] == ["us-pl", "us-a", "us-bz"]  # us-b is lost
    # Suppression: each marker is +1 to the unit's next Training Check
    assert squad.markers == 3


@pytest.mark.parametrize(("old", "new", "path", "words"), [
    ("x: 21, y: 24, facing: 270, lost: true}", "x: 21, y: 24, facing: 270, lost: true, suppression: 1}",
     "units[0].teams[2].suppression", "go to a team still on the table"),
    ("start_turn: 3", "start_turn: 6", "start_turn", "cannot begin on turn 6"),
    ("fp: 2, at: true}", "fp: 13, at: true}", "weapons.bazooka.fp", "less than or equal to 12"),
    ("{id: de-mg, kind: infantry, weapons: [mg42], x: 20, y: 9, facing: 90}",
     "{id: de-mg, kind: infantry, weapons: [mg42], x: 20, y: 9, facing: 90, lost: true}\n"
     "      - {id: de-x, kind: infantry, weapons: [rifle], x: 22, y: 9, lost: true}",
     None, None),
])
def test_a_start_outside_the_rules_is_refused_at_its_path(old: str, new: str, path: str | None,
                                                          words: str | None) -> None:
    assert old in TEXT
    text = TEXT.replace(old, new)
    if path is None:  # a unit of lost teams only, its PL too
        text = text.replace("{id: de-pl, kind: infantry, role: pl, weapons: [rifle], x: 24, y: 10, facing: 90}",
                            "{id: de-pl, kind: infantry, role: pl, weapons: [rifle], x: 24, y: 10, facing: 90, lost: true}")
        path, words = "units[1].teams", "every team of de-1 is lost"
    assert_refused_at(SYSTEM, text, path, words)


MID_TURN = (Path(__file__).resolve().parents[2] / "docs" / "scenarios" / "skirmish-mid-turn.yaml").read_text("utf-8")


def test_a_game_begun_part_way_through_a_turn_rolls_no_initiative_and_keeps_who_acted() -> None:
    # Turns: "The Player with the Initiative rolls to activate a Unit ... Each Unit may only
    # activate once per turn": begun part-way, the file's side holds the Initiative, no die
    # is rolled, and the unit that acted waits for the next turn.
    checked = SYSTEM.scenario_from_file(MID_TURN)
    dice = SeededDice(b"mid-turn")
    step = SYSTEM.setup(checked.key, None, dice)
    s = step.state
    assert (s.turn, s.initiative, s.first) == (3, "germans", "germans")
    assert s.unit("us-1").activated and not s.unit("de-1").activated
    assert not dice.rolls, "no Initiative is rolled for a turn already under way"
    assert SYSTEM.waiting_on(s) == ["germans"]
    assert any("already acted: us-1" in e.text for e in step.events)


def test_a_side_whose_units_have_all_acted_passes_the_initiative_at_the_start() -> None:
    # Turns: "the opposing player then begins a new Initiative ... until every Unit has acted"
    text = MID_TURN.replace("start_initiative: germans", "start_initiative: us")
    s = SYSTEM.setup(SYSTEM.scenario_from_file(text).key, None, SeededDice(b"mid-turn")).state
    assert s.initiative == "germans"


@pytest.mark.parametrize(("old", "new", "path", "words"), [
    ("start_initiative: germans          # Turns: the roll is made; the Germans' Initiative\n", "",
     "units[0].activated", "cannot have acted before the turn's Initiative roll"),
    ("    training: veteran\n", "    training: veteran\n    activated: true\n",
     "start_initiative", "every unit has acted"),
])
def test_a_part_way_start_outside_the_turn_is_refused(old: str, new: str, path: str, words: str) -> None:
    assert old in MID_TURN
    assert_refused_at(SYSTEM, MID_TURN.replace(old, new), path, words)
