"""A play-tester's reports on the hedgerow village, each replayed with scripted dice (by heading)."""

from __future__ import annotations

from rules.core.contract import Event
from rules.core.dice import ScriptedDice
from rules.skirmish import SYSTEM
from rules.skirmish.state import SkirmishState
from tests.skirmish.helpers import LoadedDice


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


def test_hits_go_only_to_teams_within_the_range_the_team_fired_at():
    # Firing: "allocate one die to a Team in that Unit that is within range and line of sight
    # of at least one firing Team": both BARs fire at normal range (12"), so mg (15.5", 17.4")
    # and ltn (12.4" from sq3, 12.6" from sq2) take no hits.
    state = quiet_germans(hedgerow())
    state, _ = go(state, "us", "activate", [5], unit="1pl")
    state, _ = go(state, "us", "action", kind="move-and-fire")
    state, _ = go(state, "us", "move", who="sq3", to="N:6")
    state, _ = go(state, "us", "move", who="sq2", to="N:6")
    state, step = go(state, "us", "fire", target="gren")
    text = texts(step.events)
    assert "sq2 Rifles and BAR 3 FP at gren (6.8\")" in text
    assert "Hits allocated: g3 2, g1 2, g2 2 (Firing)" in text
    assert "mg saves" not in text and "ltn saves" not in text
