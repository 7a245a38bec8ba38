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


#: artillery requests (17.1) are ``indirect`` orders naming a battery (``actions.Indirect``)
LAND_ACTIONS: tuple[type[Action], ...] = (Load, Overrun)
