"""Issue 46: a Raiders file begins a campaign later: a Mission card already won (25.1 (1)),
RP kept (25.1 (2)), a leader that survived (25.0), the card the game begins with.
docs/scenarios/raiders-after-the-bridge.yaml shows them."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.core.dice import SeededDice
from rules.raiders import SYSTEM
from tests.scenarios.helpers import assert_change_refused

TEXT = (Path(__file__).resolve().parents[2] / "docs" / "scenarios" / "raiders-after-the-bridge.yaml").read_text("utf-8")


def test_the_campaign_goes_on_with_the_second_card_and_what_was_kept() -> None:
    checked = SYSTEM.scenario_from_file(TEXT)
    step = SYSTEM.setup(checked.key, None, SeededDice(b"later"))
    s = step.state
    assert [r.mission for r in s.campaign.record] == ["M1"] and s.campaign.deck == ["M2"]
    assert s.campaign.leaders == ["Ldr-1"]  # 25.0: surviving leaders stay
    # 25.1 (2): "unexpended RP" kept add to the mission's 10
    assert "10 Ops · 14 RP (4 kept) · command 4" in [e.text for e in step.events]


@pytest.mark.parametrize(("old", "new", "path", "words"), [
    ("won: [M1]", "won: [M3]", "start.won[0]", "not a Mission card"),
    ("won: [M1]", "won: [M1, M2]", "start.won", "campaign is over before it begins"),
    ("mission: M2", "mission: M1", "start.mission", "not a Mission card still to win"),
    ("rp: 4\n", "rp: 16\n", "start.rp", "goes up to 15"),
    ("leaders: [Ldr-1]", "leaders: [Ldr-3]", "start.leaders[0]", "did you mean 'Ldr-2'?"),
])
def test_a_start_outside_the_rules_is_refused_at_its_path(old: str, new: str, path: str, words: str) -> None:
    assert_change_refused(SYSTEM, TEXT, old, new, path, words)
