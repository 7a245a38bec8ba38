"""The orders of Raid and Riposte, short enough to type on a phone.

One impulse is one order (7.0): a group ``move`` from one area, a ``fire`` with its
supporters, an ``assault``, or one special action; the impulse then passes to the opponent.
Several units are given as one comma-separated option, e.g. ``units:VDV-1,VDV-2``.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from rules.core.contract import Action


class Deploy(Action):
    """Set up one unit in an allowed area (11.0)."""

    name: ClassVar[str] = "deploy"
    rule: ClassVar[str] = "11.0"
    unit: str = Field(description="the unit to set up")
    area: str = Field(description="an allowed setup area")


class DeployDefault(Action):
    """Set up every unit still waiting in a ready-made legal deployment (11.0)."""

    name: ClassVar[str] = "deploy-default"
    rule: ClassVar[str] = "11.0"


class Ready(Action):
    """Finish your setup (11.0)."""

    name: ClassVar[str] = "ready"
    rule: ClassVar[str] = "11.0"


class Move(Action):
    """Move units from one area to an adjacent one, 1 AP each (7.2)."""

    name: ClassVar[str] = "move"
    rule: ClassVar[str] = "7.2"
    units: str = Field(description="unit ids from one area, comma-separated")
    to: str = Field(description="an adjacent area")


class Enter(Action):
    """Bring reinforcements onto the map at an entrance, 1 AP each (11.0)."""

    name: ClassVar[str] = "enter"
    rule: ClassVar[str] = "11.0"
    units: str = Field(description="reinforcements, comma-separated")
    to: str = Field(description="an entrance area")


class Place(Action):
    """Place a reinforcement that arrives without AP cost (11.0 turns 5 and 6)."""

    name: ClassVar[str] = "place"
    rule: ClassVar[str] = "11.0"
    unit: str = Field(description="the reinforcement to place")
    area: str = Field(description="where it may be placed")
    target: str | None = Field(default=None, description="defender it assaults, if any")


class Skip(Action):
    """Decline an optional step: a placement now, or the AGS-17's second shot (9.5)."""

    name: ClassVar[str] = "skip"
    rule: ClassVar[str] = "11.0"


class Fire(Action):
    """Ranged attack with one unit and supporters from its area, 1 AP each (7.3.3)."""

    name: ClassVar[str] = "fire"
    rule: ClassVar[str] = "7.3.3"
    unit: str = Field(description="the firing unit")
    target: str = Field(description="the enemy unit fired on")
    support: str = Field(default="", description="supporting units, same area, comma-separated")
    air: bool = Field(default=False, description="add your airstrike: +2 (10.1)")
    kastet: bool = Field(default=False, description="T-12 fires the Kastet: +1 RCM (9.4)")


class Assault(Action):
    """Move units into an enemy area and assault it, 1 AP each (7.3.5)."""

    name: ClassVar[str] = "assault"
    rule: ClassVar[str] = "7.3.5"
    units: str = Field(description="attackers from one area, comma-separated, lead first")
    to: str = Field(description="the adjacent enemy-held area")
    target: str = Field(description="the defending unit you designate")
    air: bool = Field(default=False, description="add your airstrike: +2 (10.1)")


class Pass(Action):
    """Pass this impulse; two passes in a row end the operations phase (7.0)."""

    name: ClassVar[str] = "pass"
    rule: ClassVar[str] = "7.0"


class Retreat(Action):
    """Defender: retreat one area to negate a hit (7.3.3), or where to after a lost assault."""

    name: ClassVar[str] = "retreat"
    rule: ClassVar[str] = "7.3.3"
    to: str = Field(description="an area farther from the attacker")


class TakeHits(Action):
    """Defender: take the hits without retreating, or give an extra assault hit to a unit."""

    name: ClassVar[str] = "take-hits"
    rule: ClassVar[str] = "7.3.5.2"
    unit: str | None = Field(default=None, description="the unit taking an extra assault hit")


class Route(Action):
    """Route a Suppressed or Recovering unit to an adjacent area (8.0)."""

    name: ClassVar[str] = "route"
    rule: ClassVar[str] = "8.0"
    unit: str = Field(description="a Suppressed or Recovering unit")
    to: str = Field(description="an adjacent area no closer to the enemy")


class Done(Action):
    """Finish your routes (8.0) or your rally decisions (6.2, 9.7, 9.8)."""

    name: ClassVar[str] = "done"
    rule: ClassVar[str] = "8.0"


class Nikolas(Action):
    """Col. Nikolas, 1 AP: +1 to one value of a unit in his area (9.7)."""

    name: ClassVar[str] = "nikolas"
    rule: ClassVar[str] = "9.7"
    unit: str = Field(description="a unit in his area")
    value: str = Field(description="rcm, acm, df, or range (a mortar's); morale in the rally")


class Boyes(Action):
    """Pvt. Boyes, 1 AP: a unit in his area may reroll one die of its next roll (9.8)."""

    name: ClassVar[str] = "boyes"
    rule: ClassVar[str] = "9.8"
    unit: str = Field(description="a unit in his area")
    die: Literal["worse", "lower", "higher"] = Field(
        default="worse", description="the die to reroll: worse (for that roll), lower or higher")
    use: Literal["failed", "any"] = Field(
        default="failed", description="reroll only if the roll fails, or on that roll whatever it gives")


class Hq(Action):
    """German HQ, once a turn, 1 AP: +1 AP to a unit in or next to its area (9.10)."""

    name: ClassVar[str] = "hq"
    rule: ClassVar[str] = "9.10"
    unit: str = Field(description="any NATO unit in or next to the HQ's area (9.10)")


class Sniper(Action):
    """NATO sniper, once a turn: try to suppress a unit in Tannenbruck (9.2)."""

    name: ClassVar[str] = "sniper"
    rule: ClassVar[str] = "9.2"
    target: str = Field(description="an enemy unit in a city area")


class Airstrike(Action):
    """Airstrike alone on an area: 2d6 +2 vs DF + TM at each enemy unit in it (10.1)."""

    name: ClassVar[str] = "airstrike"
    rule: ClassVar[str] = "10.1"
    area: str = Field(description="an area holding enemy units")


class Hind(Action):
    """Soviet: place the Hind in an area with no enemy units (10.2)."""

    name: ClassVar[str] = "hind"
    rule: ClassVar[str] = "10.2"
    area: str = Field(description="an area with no NATO units")


class StandingChoice(Action):
    """Set your standing answers: retreats (7.3.3, 7.3.5.2), rally help (9.7, 9.8)."""

    name: ClassVar[str] = "standing"
    rule: ClassVar[str] = "7.3.3"
    anytime: ClassVar[bool] = True
    retreat: Literal["ask", "never", "always"] | None = Field(
        default=None, description="retreat to negate a hit / where to withdraw: ask me, never, always")
    rally: Literal["ask", "never"] | None = Field(
        default=None, description="Nikolas/Boyes before the rally rolls: ask me, or never")


class Info(Action):
    """Show a counter's values: RCM, ACM, DF, morale, stacking, AP (anyone may ask)."""

    name: ClassVar[str] = "info"
    rule: ClassVar[str] = "2.0"
    read_only: ClassVar[bool] = True
    unit: str = Field(description="any unit of the game")


ACTIONS: tuple[type[Action], ...] = (
    Deploy, DeployDefault, Ready, Move, Enter, Place, Skip, Fire, Assault, Pass, Retreat,
    TakeHits, Route, Done, Nikolas, Boyes, Hq, Sniper, Airstrike, Hind, StandingChoice, Info,
)


def split_ids(text: str) -> list[str]:
    """The ids of a comma-separated option, in order, without blanks or repeats."""
    out: list[str] = []
    for part in text.replace(" ", ",").split(","):
        part = part.strip()
        if part and part.lower() not in (p.lower() for p in out):
            out.append(part)
    return out
