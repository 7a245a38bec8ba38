"""Helpers for commando tests: a practice table with units placed where a test needs them."""

from __future__ import annotations

from typing import Any

from rules.commando import SYSTEM
from rules.commando.activation import reset_turn
from rules.commando.state import RaidState
from rules.core.contract import Step
from rules.core.dice import ScriptedDice, SeededDice


def setup(scenario: str = "training", **options: Any) -> RaidState:
    """The opening state of a scenario."""
    state = SYSTEM.setup(scenario, options, SeededDice(b"setup")).state
    assert isinstance(state, RaidState)
    return state


def arrange(
    keep: dict[str, tuple[float, float]],
    *,
    actions: dict[str, int] | None = None,
    side: str = "commandos",
    scenario: str = "training",
) -> RaidState:
    """A training-table state with only the units in ``keep``, at those places.

    With ``actions`` the units named have rolled and hold those actions (the others have not
    rolled yet).
    """
    state = setup(scenario)
    state.units = [u for u in state.units if u.id in keep]
    for unit in state.units:
        unit.x, unit.y = keep[unit.id]
    state.side = side  # type: ignore[assignment]
    reset_turn(state)  # the start of that side's turn: its pillboxes have their shot
    if actions is not None:
        state.phase = "actions"
        for unit in state.units:
            if unit.id in actions:
                unit.actions = actions[unit.id]
                unit.score = None if unit.static else unit.actions
    return state


def order(state: RaidState, name: str, side: str | None = None, dice: list[int] | None = None,
          **options: Any) -> Step:
    """Parse and apply one order with scripted dice; checks every die was used."""
    scripted = ScriptedDice(dice or [])
    action = SYSTEM.parse(name, {k: v for k, v in options.items()})
    step = SYSTEM.apply(state, side or state.side, action, scripted)
    assert scripted.left == 0, f"{scripted.left} scripted dice unused"
    return step


def texts(step: Step) -> str:
    """All event lines of a step, one per line."""
    return "\n".join(e.text for e in step.events)
