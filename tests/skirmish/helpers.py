"""Shared helpers for the skirmish tests: a fresh state and teams put where a test needs them."""

from __future__ import annotations

from rules.skirmish.scenario import load_scenario
from rules.skirmish.state import SkirmishState, TeamState, opening_state


def fresh(key: str = "open_field") -> SkirmishState:
    """The opening state of a scenario (the open field has no terrain but the roads)."""
    return opening_state(load_scenario(key))


def park(state: SkirmishState) -> None:
    """Move every team to the far corners, out of everyone's way and range."""
    for i, team in enumerate(state.teams("us")):
        team.x, team.y = 1 + (i % 4) * 1.6, 46 - (i // 4) * 1.6
    for i, team in enumerate(state.teams("germans")):
        team.x, team.y = 47 - (i % 4) * 1.6, 2 + (i // 4) * 1.6


def put(state: SkirmishState, team_id: str, x: float, y: float, facing: float | None = None) -> TeamState:
    """Put a team at ``x, y`` (and turn it)."""
    team = state.team(team_id)
    team.x, team.y = x, y
    if facing is not None:
        team.facing = facing
        if team.kind == "tank":
            team.turret = facing
    return team


from rules.core.dice import Dice  # noqa: E402


class LoadedDice(Dice):
    """Scripted values first, then ``default`` for every later roll (a test's "the rest")."""

    def __init__(self, values: list[int], default: int = 4) -> None:
        super().__init__()
        self.values = list(values)
        self.default = default

    def _draw(self, sides: int, reason: str) -> tuple[int, int | None]:
        value = self.values.pop(0) if self.values else self.default
        return min(value, sides), None
