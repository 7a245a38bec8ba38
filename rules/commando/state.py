"""The state of a commando raid: units on the table, the turn, what is destroyed or removed.

Static table data (terrain, targets, named points) stays in the scenario file and is looked up
by ``scenario``; the state holds only what changes, so it stays small and round-trips through
JSON without loss.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from rules.commando.scenario import Scenario, Side, UnitKind, load_scenario
from rules.core.errors import RuleError
from rules.core.views import Mark

Phase = Literal["command", "actions"]

SIDES: tuple[Side, Side] = ("commandos", "germans")
SIDE_NAMES: dict[str, str] = {"commandos": "Commandos", "germans": "Germans"}


class UnitState(BaseModel):
    """One unit on the table and what it has done this turn."""

    id: str
    name: str
    side: Side
    kind: UnitKind
    officer: bool = False
    x: float
    y: float
    facing: float | None = None
    alive: bool = True
    #: The adjusted activation score this turn; None until rolled (Activation Roll).
    score: int | None = None
    actions: int = 0  # actions left this turn
    moved: bool = False  # Movement: all moves of a turn are one order
    #: Movement: its move was the last thing it did, so a charge may still follow on from it
    #: ("it must perform all its move actions together").
    moving: bool = False
    shot: bool = False  # Shooting: all shots of a turn are one order
    directing: str | None = None  # Officers: the unit this officer directs instead of acting
    directed_by: str | None = None
    move: float | None = None  # issue 46: a scenario's own inches per move action
    armoured: bool | None = None  # issue 46: a scenario's own armoured -1 (Shooting)

    @property
    def pos(self) -> tuple[float, float]:
        """Where the unit stands, in inches."""
        return (self.x, self.y)

    @property
    def static(self) -> bool:
        """Pillboxes and searchlights never move and never roll for activation."""
        return self.kind in ("pillbox", "searchlight")


class RaidState(BaseModel):
    """Everything that changes during a raid."""

    scenario: str
    turn: int = 1
    max_turn: int
    side: Side = "commandos"
    phase: Phase = "command"
    units: list[UnitState]
    destroyed: list[str] = Field(default_factory=list)  # demolition targets blown
    wire_removed: list[str] = Field(default_factory=list)
    marks: list[Mark] = Field(default_factory=list)  # measured lines of the side's turn so far
    last_marks: list[Mark] = Field(default_factory=list)  # ...of the last finished side turn
    finished: bool = False

    @property
    def table(self) -> Scenario:
        """The scenario this state is played on."""
        return load_scenario(self.scenario)

    def unit(self, unit_id: str) -> UnitState:
        """The unit called ``unit_id`` (any case), alive or not; RuleError if there is none."""
        key = unit_id.strip().casefold()
        for unit in self.units:
            if unit.id.casefold() == key:
                return unit
        raise RuleError(f"There is no unit '{unit_id[:20]}'; units: {_ids(self.units)}.")

    def own_unit(self, side: str, unit_id: str) -> UnitState:
        """A living unit of ``side``; RuleError naming that side's units otherwise."""
        unit = self.unit(unit_id)
        if unit.side != side:
            mine = [u for u in self.units if u.side == side and u.alive]
            raise RuleError(f"{unit.id} is not yours; your units: {_ids(mine)}.")
        if not unit.alive:
            raise RuleError(f"{unit.id} has been eliminated and can do nothing more.")
        return unit

    def enemy_unit(self, side: str, unit_id: str) -> UnitState:
        """A living unit of the other side; RuleError otherwise."""
        unit = self.unit(unit_id)
        if unit.side == side:
            raise RuleError(f"{unit.id} is on your side; pick an enemy unit.")
        if not unit.alive:
            raise RuleError(f"{unit.id} has already been eliminated.")
        return unit

    def alive(self, side: str | None = None) -> list[UnitState]:
        """Living units, of one side or of both."""
        return [u for u in self.units if u.alive and (side is None or u.side == side)]

    def lost(self, side: str) -> list[UnitState]:
        """Eliminated units of ``side``."""
        return [u for u in self.units if not u.alive and u.side == side]


def other(side: str) -> Side:
    """The opposing side."""
    return "germans" if side == "commandos" else "commandos"


def _ids(units: list[UnitState]) -> str:
    return ", ".join(u.id for u in units) or "none"
