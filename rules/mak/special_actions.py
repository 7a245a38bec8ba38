"""Orders of close quarters fought out (9.3), engineers and smoke (14.4, 19.2) and the AMU
(16.2), and razing a Depot (11.3.3, ``lay what:raze``).  Discord gives a command group at most 25 subcommands, so the other part-2 moves ride
on the ground war's orders: an airdrop is an ``enter`` (12.2), the booster a ``move`` (19.5.3),
and ``pass`` ends a side's declarations in close quarters (9.3.2)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from rules.core.contract import Action


class Engage(Action):
    """Fight close quarters out (9.3.2): name a target for one of your units in the hex; the
    first name opens the combat there. ``pass`` when your units have their targets."""

    name = "engage"
    rule = "9.3.2"
    unit: str = Field(description="your unit in close quarters")
    target: str = Field(description="the enemy unit in its hex it attacks")
    unarmed: bool = Field(default=False, description="fight unarmed at an unmodified 4 (9.5, Type I)")


class Lay(Action):
    """Lay smoke (19.2), set a building alight (14.4.2) or raze an enemy Depot (11.3.3).

    Smoke screens (19.2); with an engineer squad, set an adjacent building alight (14.4.2; also
    instead of a defensive attack, 14.4.3); or raze: destroy the enemy Depot in the unit's own
    hex, unopposed, for 1 MP and its attack (11.3.3)."""

    name = "lay"
    rule = "19.2"
    unit: str = Field(description="your unit: smoke equipment, an engineer squad for fire, any armed unit to raze")
    what: Literal["smoke", "fire", "raze"] = Field(
        description="smoke (19.2), fire (arson, 14.4.2) or raze (the enemy Depot in its hex, 11.3.3)")
    at: str = Field(description="the hex, e.g. 5:0822 (raze: the unit's own hex)")


class Amu(Action):
    """The AMU (16.2): collect it (Strahl), destroy it (Mercenary), or leave the map with it."""

    name = "amu"
    rule = "16.2"
    unit: str = Field(description="your unit in the AMU's hex, or carrying one on the map's edge")
    do: Literal["collect", "destroy", "leave"] = Field(description="collect (16.2.3), destroy (16.2.4), "
                                                                   "leave the map with it (16.2.3)")


SPECIAL_ACTIONS = (Engage, Lay, Amu)
