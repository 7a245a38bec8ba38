"""Issue 46: a Raid and Riposte file begins a game mid-way: counters reduced or Suppressed
(2.0, 6.2.1), a later first turn, its operations phase (7.0), counters of the club's own
held to what the rules roll against; docs/scenarios/rr-counterattack.yaml shows them."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.core import scenariofile as sf
from tests.scenarios.helpers import assert_change_refused
from rules.core.dice import SeededDice
from rules.rr import SYSTEM

TEXT = (Path(__file__).resolve().parents[2] / "docs" / "scenarios" / "rr-counterattack.yaml").read_text("utf-8")


def after_setup(text: str = TEXT):  # type: ignore[no-untyped-def]
    checked = SYSTEM.scenario_from_file(text)
    state = SYSTEM.setup(checked.key, None, SeededDice(b"start")).state
    for side in ("nato", "soviet"):  # 11.0: each side sets up, then ready
        for name in ("deploy-default", "ready"):
            order = next(a for a in SYSTEM.legal_actions(state, side) if a.name == name)
            state = SYSTEM.apply(state, side, order, SeededDice(b"start")).state
    return state


def test_the_game_begins_at_turn_3s_operations_with_the_counters_as_the_file_says() -> None:
    s = after_setup()
    assert s.turn == 3 and s.phase == "ops"  # 7.0, no rally phase this turn
    assert s.units["PZG-1"].reduced and not s.units["PZG-2"].reduced  # 2.0: the reduced side
    # 6.2.1: "Suppressed units lose all action points"
    assert s.units["VDV-A"].status == "suppressed" and s.units["VDV-A"].ap == 0
    assert s.units["VDV-B"].ap == 3


def test_from_turn_3s_rally_phase_the_suppressed_counter_rolls_to_rally() -> None:
    # 6.2.1: "Suppressed units that fail to rally flip their Suppressed marker to the
    # Recovering side": after the rally phase it is no longer Suppressed, either way.
    s = after_setup(TEXT.replace("phase: operations", "phase: rally"))
    assert (s.turn, s.phase) == (3, "ops")
    assert s.units["VDV-A"].status in ("ok", "recovering")


@pytest.mark.parametrize(("old", "new", "path", "words"), [
    ("full: {rcm: 2, acm: 3, df: 7, morale: 8, ap: 3}, reduced: {rcm: 1, acm: 2, df: 6, morale: 7, ap: 3},\n     start: {reduced: true}}",
     "full: {rcm: 2, acm: 3, df: 7, morale: 8, ap: 3},\n     start: {reduced: true}}",
     "units[0].start.reduced", "has no reduced side"),
    ("morale: 8, ap: 3}, reduced: {rcm: 1, acm: 2, df: 6, morale: 7, ap: 3},\n     start: {reduced: true}}",
     "morale: 13, ap: 3}, reduced: {rcm: 1, acm: 2, df: 6, morale: 7, ap: 3},\n     start: {reduced: true}}",
     "units[0].full.morale", "less than or equal to 12"),
    ("start: {turn: 3,", "start: {turn: 5,", "start.turn", "cannot begin on turn 5"),
    ("start: {status: suppressed}", "start: {status: supressed}", "units[2].start.status", "did you mean 'suppressed'?"),
])
def test_a_start_outside_the_rules_is_refused_at_its_path(old: str, new: str, path: str, words: str) -> None:
    assert_change_refused(SYSTEM, TEXT, old, new, path, words)


def test_a_reinforcement_due_before_the_first_turn_is_refused() -> None:
    late = TEXT.replace('  - {side: soviet, units: [VDV-A, VDV-B], areas: ["2", "3"]}',
                        '  - {side: soviet, units: [VDV-A], areas: ["2", "3"]}\n'
                        '  - {side: soviet, units: [VDV-B], areas: ["3"], turn: 2, mode: enter}')
    with pytest.raises(sf.ScenarioError) as caught:
        SYSTEM.scenario_from_file(late)
    assert "before the game begins on turn 3" in str(caught.value)
