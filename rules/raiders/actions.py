"""The raider player's orders (``/raiders <order>``): one model per decision the rules leave open.

Everything else (card draws, hostile picks and fire, alert, post-battle) the bot does inside
the order that triggers it.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from rules.core.contract import Action


class Recruit(Action):
    """Buy a raider unit with RP, or place a kept leader, in a Staging Area (9.0)."""

    name: ClassVar[str] = "recruit"
    rule: ClassVar[str] = "9.0"
    unit: str = Field(description="A Recruit Table line of this theatre, or a kept leader")
    at: str = Field(description="Staging Area to place it in")


class BuyGear(Action):
    """Buy a gear item with RP and give it to a raider unit (23.1)."""

    name: ClassVar[str] = "gear"
    rule: ClassVar[str] = "23.1"
    item: str = Field(description="A gear kind of this theatre")
    unit: str = Field(description="Raider unit that carries it")


class Trade(Action):
    """Hand a gear item to another unit of the same force, before moving (23.2)."""

    name: ClassVar[str] = "trade"
    rule: ClassVar[str] = "23.2"
    gear: str = Field(description="A gear counter: its prefix and number")
    to: str = Field(description="Unit of the same force")


class Abandon(Action):
    """Abandon a gear item: it goes back to the Recruit Pool (23.4)."""

    name: ClassVar[str] = "abandon"
    rule: ClassVar[str] = "23.4"
    gear: str = Field(description="A gear counter: its prefix and number")


class Split(Action):
    """Leave one unit behind as a force of its own, before moving (12.0)."""

    name: ClassVar[str] = "split"
    rule: ClassVar[str] = "12.0"
    unit: str = Field(description="Unit that forms a new force")


class Join(Action):
    """Merge a force into another force in the same space (10.3)."""

    name: ClassVar[str] = "join"
    rule: ClassVar[str] = "10.3"
    force: str = Field(description="Force that joins")
    into: str = Field(description="Force it joins")


class Begin(Action):
    """Finish recruiting, bank the RP left and start operation 1 (7.0, 9.1)."""

    name: ClassVar[str] = "begin"
    rule: ClassVar[str] = "7.0"


class Scout(Action):
    """Scout a face-down marker next to a force: even die reveals it (27.0, option)."""

    name: ClassVar[str] = "scout"
    rule: ClassVar[str] = "27.0"
    force: str = Field(description="Operating force with a scouting unit")
    target: str = Field(description="Adjacent space with a face-down marker")


class Move(Action):
    """Move one force (it is this operation's force); then the bot draws the Ops card (12.0)."""

    name: ClassVar[str] = "move"
    rule: ClassVar[str] = "12.0"
    force: str = Field(description="Force that operates")
    to: str = Field(description="Where it ends its move (its own space: stay)")
    how: Literal["road", "air", "water"] = Field(default="road", description="road, or a kept card's air/water move")
    march: bool = Field(default=False, description="Forced march: +1 space with Supplies (24.0)")
    with_force: str | None = Field(
        default=None, description="Coordinated op: other leader forces, e.g. F2 or F2,F3 (26.0)")


class Swap(Action):
    """Send the drawn Ops card to the bottom and draw another (guide or PSYOP card, 22.0)."""

    name: ClassVar[str] = "swap"
    rule: ClassVar[str] = "22.0"


class Accept(Action):
    """Play the drawn Ops card (13.0), spending Supplies for its bonus if you like (24.0)."""

    name: ClassVar[str] = "accept"
    rule: ClassVar[str] = "13.0"
    supply: bool = Field(default=False, description="Expend Supplies for the card's bonus (24.0)")


class Line(Action):
    """Line up the raiders, first to fire first; the line stands every round until changed (15.1)."""

    name: ClassVar[str] = "line"
    rule: ClassVar[str] = "15.1"
    order: str = Field(default="", description="Unit ids in firing order (the rest follow); empty: keep")
    hostiles: str = Field(
        default="", description="Hostiles of equal combat value in the order you want (15.1 (3))")
    firepower: bool = Field(default=False, description="Expend Supplies: 2 dice each this round (24.0)")


class Fire(Action):
    """The next raider in line fires at a hostile; with firepower, each die its own target (15.1)."""

    name: ClassVar[str] = "fire"
    rule: ClassVar[str] = "15.1"
    target: str = Field(description="Hostile to fire at")
    firepower: bool = Field(default=False, description="Expend Supplies: 2 dice each this round (24.0)")


class Demolish(Action):
    """One pioneer of the operating force tries to blow up a revealed target (21.1)."""

    name: ClassVar[str] = "demolish"
    rule: ClassVar[str] = "21.1"
    unit: str = Field(description="Pioneer (sapper) of the operating force")
    marker: str = Field(description="Revealed target marker in its space")
    explosives: bool = Field(default=False, description="Expend an explosives gear for its bonus to the roll (21.1, 23.4)")


class Carry(Action):
    """A mobile unit picks up revealed cargo to bring it to a Staging Area (18.4)."""

    name: ClassVar[str] = "carry"
    rule: ClassVar[str] = "18.4"
    unit: str = Field(description="Mobile unit of the operating force")
    marker: str = Field(description="Revealed cargo marker in its space")


class Drop(Action):
    """Set down carried cargo in the carrier's space after its move (18.4)."""

    name: ClassVar[str] = "drop"
    rule: ClassVar[str] = "18.4"
    unit: str = Field(description="Unit of the operating force carrying cargo")


class EndOp(Action):
    """End this operation's Objective segment (11.0)."""

    name: ClassVar[str] = "end-op"
    rule: ClassVar[str] = "11.0"


class PlayCard(Action):
    """Play a kept card's gain-Op, gain-RP or calm event (13.1)."""

    name: ClassVar[str] = "play"
    rule: ClassVar[str] = "13.1"
    card: str = Field(description="Kept Ops card")
    #: 13.1: a name, not a fixed list, so that an event played through another order (a
    #: move, a march, a swap) is answered with that order; autocomplete offers the card's own.
    event: str = Field(description="gain_op, gain_rp or calm (air/water moves: move how:air/water)")


class EndMission(Action):
    """End the mission now: its objective is met (11.1)."""

    name: ClassVar[str] = "end-mission"
    rule: ClassVar[str] = "11.1"


class Place(Action):
    """Place a free recruit that cannot join its force in a Staging Area (9.0, 9.2)."""

    name: ClassVar[str] = "place"
    rule: ClassVar[str] = "9.2"
    unit: str = Field(description="The free recruit waiting to be placed")
    at: str = Field(description="Staging Area to place it in")


class NextMission(Action):
    """Draw the next Mission card of the campaign and set it up (25.0)."""

    name: ClassVar[str] = "next-mission"
    rule: ClassVar[str] = "25.0"


class CampaignReport(Action):
    """Show the campaign: missions won and lost, banked RP, surviving leaders (25.0)."""

    name: ClassVar[str] = "campaign"
    rule: ClassVar[str] = "25.0"
    read_only: ClassVar[bool] = True
    anytime: ClassVar[bool] = True


class CardInfo(Action):
    """Show the whole text of an Ops or Mission card (read-only, 5.0)."""

    name: ClassVar[str] = "card"
    rule: ClassVar[str] = "5.0"
    read_only: ClassVar[bool] = True
    anytime: ClassVar[bool] = True
    id: str = Field(description="An Ops or Mission card id of this theatre")


ACTIONS: tuple[type[Action], ...] = (
    Recruit,
    BuyGear,
    Trade,
    Abandon,
    Split,
    Join,
    Begin,
    Scout,
    Move,
    Swap,
    Accept,
    Line,
    Fire,
    Demolish,
    Carry,
    Drop,
    EndOp,
    PlayCard,
    EndMission,
    Place,
    NextMission,
    CampaignReport,
    CardInfo,
)
