"""The opening position a scenario card sets beyond where units stand (issue 46): each
force line's start-of-game states, and the turn and phase the game begins at.

A rulebook example or a club's continued game starts from a position, not from a fresh
set-up: a suit already immobilised or disarmed (5.1.2's M and A results), a squad whose
morale is broken (14.3), rockets or Panzerfausts already fired (11.2.4, 11.2.5), a booster
already used (19.5.3), and the second player's phase of turn 3 (4.0).
"""

from __future__ import annotations

from typing import Any

from rules.mak.data import Deployment
from rules.mak.state import MakState, other


def starting_state(line: Deployment) -> dict[str, Any]:
    """The :class:`rules.mak.state.UnitState` fields a force line's units start with."""
    return {
        "immobilized": line.immobilized,  # 5.1.2 M: "The unit can no longer move"
        "disarmed": line.disarmed,  # 5.1.2 A: "Arm. Disabled"
        "morale": line.morale,  # 14.3: broken morale (14.3.1), broken again (14.3.2 (4))
        "fired": {w.value: n for w, n in line.fired.items()},  # 11.2.5: rounds fired
        # 19.5.3: "may be used in two turns in any single scenario": a use before the game
        # is a turn 0, which no turn of play equals.
        "boosts": [0] * line.boosts,
    }


def begin_at(state: MakState, turn: int, phase: str) -> None:
    """4.0: the game begins at ``turn``, in the first player's phase or the second's."""
    state.turn = turn
    if phase == "second":
        state.phase = "second"
        state.active = other(state.first)
