"""The orders of Maschinen Krieger: one model each (the subcommand is ``name``).

Units are named by id (``M-AFS1``), hexes by board and number (``5:1801``).
"""

from __future__ import annotations

from pydantic import Field

from rules.core.contract import Action


class Enter(Action):
    """Bring a reinforcement onto the map at an entry hex of its deployment (12.1)."""

    name = "enter"
    rule = "12.1"
    unit: str = Field(description="the unit waiting to enter, e.g. M-AFS1")
    at: str = Field(description="entry hex, e.g. 5:1030 (its cost is spent from the move)")


class Move(Action):
    """Move a unit to a hex in reach, round known minefields; defensive fire may interrupt (7.0)."""

    name = "move"
    rule = "7.1"
    unit: str = Field(description="the unit to move")
    to: str = Field(description="the hex to move to, e.g. 5:0607")
    boost: bool | None = Field(default=None, description="SAFS Mk. II booster: true flies 12 hexes, terrain ignored; false walks (19.5.3)")
    through_mines: bool = Field(default=False, description="go through a known minefield when no other way is in reach (19.1.4)")


class Fire(Action):
    """An offensive direct attack: a unit that has not moved fires at a target it sees (5.3)."""

    name = "fire"
    rule = "5.3"
    unit: str = Field(description="the attacking unit")
    target: str = Field(description="the enemy unit to attack")
    weapon: str = Field(default="", description="weapon type (L, G, MG, R, PF); default the best")


class Volley(Action):
    """A Simultaneous Attack (5.3.3): stacked units attack one target together; the defensive
    attacks come after all of them, each defender against one unit of the stack (5.4.2)."""

    name = "volley"
    rule = "5.3.3"
    units: str = Field(description="two or more of your units in one hex, e.g. M-AFS1,M-AFS2")
    target: str = Field(description="the enemy unit they all attack")


class Combined(Action):
    """Stacked Infantry add their attack power for one attack, one roll (14.2.1).

    The defensive attacks answer the squads, as after a Simultaneous Attack (5.4.2)."""

    name = "combine"
    rule = "14.2.1"
    units: str = Field(description="two or more of your Infantry units in one hex, e.g. M-InfSQ1,M-InfSQ2")
    target: str = Field(description="the enemy unit they attack together")


class Indirect(Action):
    """An indirect attack on a hex a spotter sees (5.5): the hex and the six around it.  With
    an off-board battery as the unit (``M-Art1``) it is an artillery request (17.1): it lands
    at the start of your next phase."""

    name = "indirect"
    rule = "5.5"
    unit: str = Field(description="the unit with an indirect weapon, or your artillery (M-Art1)")
    at: str = Field(description="the target hex")
    spotter: str = Field(description="the friendly unit that sees the target (artillery: observer)")
    requester: str = Field(default="", description="artillery: the command unit calling it (17.1.4)")
    rounds: int = Field(default=1, ge=1, le=12, description="artillery: rounds fired (17.1.5)")
    mines: bool = Field(default=False, description="artillery: mine rounds, a secret minefield where they land (19.1.6)")


class Assault(Action):
    """Close quarters: a unit next to an enemy hex (infantry: two hexes) goes in (9.1)."""

    name = "assault"
    rule = "9.1"
    unit: str = Field(description="the unit that goes in")
    hex: str = Field(description="the enemy hex to enter")
    through_mines: bool = Field(default=False, description="infantry charge: cross a known minefield when every hex between holds one (19.1.4)")


class Strike(Action):
    """The assaulting unit's close quarters attack on a unit in its hex (9.1 3, 9.5)."""

    name = "strike"
    rule = "9.1"
    target: str = Field(description="the enemy unit in the hex")
    unarmed: bool = Field(default=False, description="fight unarmed at an unmodified 4 (9.5, Type I)")


class Defend(Action):
    """A defensive attack by the anti-phase player while the window is open (5.4)."""

    name = "defend"
    rule = "5.4"
    unit: str = Field(description="your unit that fires")
    target: str = Field(description="the enemy unit it fires at")
    weapon: str = Field(default="", description="weapon type; default the best")


class Pass(Action):
    """Make no (more) defensive attacks now (5.4: they are never required)."""

    name = "pass"
    rule = "5.4"


class Unpin(Action):
    """Name an enemy unit in close quarters that stays unpinned (9.4.3)."""

    name = "unpin"
    rule = "9.4.3"
    unit: str = Field(description="the enemy unit left unpinned")


class Carry(Action):
    """Pick up (or, with drop, put down) an immobilised Type I unit in the same hex: 1 MP (7.3)."""

    name = "carry"
    rule = "7.3"
    unit: str = Field(description="the carrying Type I unit")
    load: str = Field(description="the immobilised friendly Type I unit in its hex")
    drop: bool = Field(default=False, description="put the carried unit down instead")


class End(Action):
    """End your phase (4.0); stacking limits are checked (8.2)."""

    name = "end"
    rule = "4.0"


ACTIONS = (Enter, Move, Fire, Volley, Combined, Indirect, Assault, Strike, Defend, Pass, Unpin, Carry, End)
