"""Issue 46: a commando raid file begins mid-game: a later turn, the Germans' part of it
first (Turns), a target already blown (Demolition) and wire already cut (Barbed Wire);
units of the club's own move their own inches (Movement: 6" and 12" are the book's) and
take the armoured -1 as the file says (Shooting).  docs/scenarios/commando-second-wave.yaml."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.commando import SYSTEM
from rules.commando.movement import speed
from rules.commando.shooting import measure_shot
from tests.scenarios.helpers import assert_change_refused
from rules.core.dice import SeededDice

TEXT = (Path(__file__).resolve().parents[2] / "docs" / "scenarios" / "commando-second-wave.yaml").read_text("utf-8")


def opening(text: str = TEXT):  # type: ignore[no-untyped-def]
    checked = SYSTEM.scenario_from_file(text)
    return SYSTEM.setup(checked.key, None, SeededDice(b"wave")).state


def test_the_raid_begins_at_turn_3_with_the_germans_and_the_winch_blown() -> None:
    s = opening()
    assert (s.turn, s.side) == (3, "germans") and SYSTEM.waiting_on(s) == ["germans"]
    assert s.destroyed == ["winch"] and s.wire_removed == ["wire"]


def test_a_unit_of_the_clubs_own_moves_and_is_shot_at_as_the_file_says() -> None:
    s = opening()
    assert speed(s.unit("H1")) == 4 and speed(s.unit("D1")) == 6  # Movement: 6" a move action
    assert speed(s.unit("T1")) == 12
    # Shooting: "-1 if the target unit ... is armoured car/half-track": the lorry's cab is
    # armoured by the file
    plan = measure_shot(s, s.unit("O1"), s.unit("T1"), 5.0)
    assert any(why == "armoured" for _, why in plan.modifiers), plan


@pytest.mark.parametrize(("old", "new", "path", "words"), [
    ("destroyed: [winch]", "destroyed: [wnich]", "start.destroyed[0]", "did you mean 'winch'?"),
    ("wire_removed: [wire]", "wire_removed: [shed]", "start.wire_removed[0]", "not a wire section"),
    ("  turn: 3", "  turn: 6", "start.turn", "cannot begin on turn 6"),
    ("x: 10, y: 9, move: 4}", "x: 10, y: 9, move: 14}", "units[2].move", "less than or equal to 12"),
    ("x: 22, y: 8, facing: 270}", "x: 22, y: 8, facing: 270, move: 3}", "units[3].move", "never moves"),
])
def test_a_start_outside_the_rules_is_refused_at_its_path(old: str, new: str, path: str, words: str) -> None:
    assert_change_refused(SYSTEM, TEXT, old, new, path, words)
