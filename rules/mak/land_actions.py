"""The orders of vehicles (13.0) and off-board artillery (17.0)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from rules.core.contract import Action


class Load(Action):
    """A unit boards a friendly truck or hover tank in its hex (13.1.2): the vehicle may not
    move this turn; infantry make no further move (14.1).  ``way:out`` gets it out instead,
    spending half its movement points; not in a phase it fired (13.1.4)."""

    name = "load"
    rule = "13.1.2"
    unit: str = Field(description="the vehicle, e.g. M-Truck1")
    rider: str = Field(description="your Type I or infantry unit in its hex (or in it)")
    way: Literal["in", "out"] = Field(default="in", description="in: board; out: unload (half its MP)")


class Overrun(Action):
    """A vehicle next to an enemy hex drives through it, attacking one unit there, and out
    through the hex opposite (13.2); its riders may attack too (13.2.3)."""

    name = "overrun"
    rule = "13.2"
    unit: str = Field(description="the armed vehicle")
    target: str = Field(description="the enemy unit in the next hex that it attacks")
    riders: bool = Field(default=False, description="the transported units attack it too (13.2.3)")


class Artillery(Action):
    """Request off-board artillery on an enemy a unit sees (17.1); it lands at the start of
    your next phase (17.1.6)."""

    name = "artillery"
    rule = "17.1"
    battery: str = Field(description="your off-board artillery, e.g. M-Art1")
    at: str = Field(description="the target hex: an enemy the observer sees, e.g. 6:0512")
    observer: str = Field(description="the unit that sees the target (17.1.3)")
    requester: str = Field(default="", description="the command unit that calls it (default: the observer)")
    rounds: int = Field(default=1, ge=1, le=12, description="rounds fired (17.1.5)")


LAND_ACTIONS: tuple[type[Action], ...] = (Load, Overrun, Artillery)
