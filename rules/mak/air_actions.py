"""The orders of the air war and the pilots (10.0, 18.0): one model each."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from rules.core.contract import Action


class Commit(Action):
    """Assign an aircraft (air, ground, none, withdraw) or, alone, say you are done (10.1.1).

    On the duty chart (10.1); with no unit, you are finished assigning, and once both sides
    are, the assignments are shown and the dog-fight is fought (10.1.1)."""

    group: ClassVar[str] = "air"
    name = "commit"
    rule = "10.1.1"
    #: 10.1.1: the assignment is secret until both sides are ready: a sealed order, each
    #: assignment a seal, all opened when both sides are done (``air_orders.fight_air_war``).
    sealed: ClassVar[bool] = True
    unit: str | None = Field(None, description="your aeronautical unit, e.g. M-Falke1 (leave out: you are done)")
    mission: Literal["air", "ground", "none", "withdraw"] | None = Field(
        None, description="air: Air Combat; ground: Ground Combat; none: sits out; withdraw: leaves (10.1.4)")

    @property
    def done(self) -> bool:
        """No unit named: the side has finished its assignments (10.1.1)."""
        return not (self.unit or "").strip()


class Airstrike(Action):
    """Send ground-mission aircraft over an enemy hex to attack it (10.4.1)."""

    group: ClassVar[str] = "air"
    name = "strike"
    rule = "10.4"
    units: str = Field(description="up to four of your ground-mission aircraft, e.g. M-Falke1,M-Falke2")
    hex: str = Field(description="the enemy hex, e.g. 5:1016")


class Flak(Action):
    """Anti-aircraft attack: a unit in the hex fires at one aircraft over it (10.4.1 2)."""

    group: ClassVar[str] = "air"
    name = "flak"
    rule = "10.4.1"
    unit: str = Field(description="your unit in the hex under attack")
    target: str = Field(description="the aircraft it fires at")


class Strafe(Action):
    """An aircraft over the hex names the unit there it attacks (10.4.1 3)."""

    group: ClassVar[str] = "air"
    name = "strafe"
    rule = "10.4.1"
    unit: str = Field(description="your aircraft over the hex")
    target: str = Field(description="the enemy unit in the hex it attacks")


class Land(Action):
    """Land a Hornisse, its PKA separating (10.6.1), or with way up take off again (10.6.2).

    Down: a Hornisse on a ground mission lands in a hex; several named together land at once
    in adjacent hexes, one hex each in order (10.6).  Up: a PK41 and a PKA stacked since the
    turn began join and take off (10.6.2)."""

    group: ClassVar[str] = "air"
    name = "land"
    rule = "10.6"
    unit: str = Field(description="your Hornisse (PK41): on a ground mission (several: S-PK411,S-PK412), "
                                  "or on the ground to take off")
    at: str | None = Field(None, description="down: the hex to land in, e.g. 5:1016; several: one each, adjacent")
    way: Literal["down", "up"] = Field("down", description="down: land (10.6.1); up: take off again (10.6.2)")
    rider: str | None = Field(None, description="up: the PKA, Gustav or Konrad in its hex that boards it")


class Recruit(Action):
    """Create a new pilot for a unit without one (18.3.1, option creation)."""

    group: ClassVar[str] = "pilot"
    name = "recruit"
    rule = "18.3.1"
    unit: str = Field(description="your unit without a pilot")
    favour: Literal["attack", "defence", "even"] = Field(
        "even", description="where the ground ability goes: attack, defence or split evenly")


class Train(Action):
    """Raise a pilot's ability after five kills (18.3.3, option creation)."""

    group: ClassVar[str] = "pilot"
    name = "train"
    rule = "18.3.3"
    unit: str = Field(description="the unit of the pilot with five kills")
    ability: Literal["attack", "defence", "dogfight"] = Field(description="the ability to raise")


class Escape(Action):
    """A pilot on foot, or a vehicle transporting one, leaves the map (18.2.3, 18.2.4).

    From an edge hex: through the area its side entered by or towards its artillery the pilot
    escapes, elsewhere a pilot on foot is captured; a vehicle leaves only where its pilot
    escapes (18.2.4)."""

    group: ClassVar[str] = "pilot"
    name = "escape"
    rule = "18.2.3"
    unit: str = Field(description="your pilot token, or a vehicle carrying one, on an edge hex, e.g. S-Pilot10")


AIR_ACTIONS = (Commit, Airstrike, Flak, Strafe, Land, Recruit, Train, Escape)
