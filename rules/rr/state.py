"""The state of a Raid and Riposte game: every counter's place and condition, the turn's flags.

Everything is plain pydantic data so a game round-trips through JSON without loss; the
scenario itself (map, printed values) is looked up by key, never copied into the state.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

Side = Literal["nato", "soviet"]
#: Where a counter is: not yet arrived (setup pool, reinforcements, the Hind and the sniper
#: between uses), on the map, riding with a company (ATGM teams, the Kastet: 9.3, 9.4), or out
#: of the game.  Every counter is in exactly one of these.
Place = Literal["pool", "map", "attached", "gone"]
#: 6.2.1: a unit is at most one of Suppressed and Recovering.
Status = Literal["ok", "suppressed", "recovering"]
Phase = Literal["deploy", "rally", "place", "ops", "route", "over"]
Standing = Literal["ask", "never", "always"]

SIDES: tuple[Side, Side] = ("nato", "soviet")
SIDE_NAMES: dict[str, str] = {"nato": "NATO", "soviet": "Soviets"}
#: Whether a side's name takes a plural verb: "NATO has", "the Soviets have".
PLURAL_NAMES: dict[str, bool] = {"nato": False, "soviet": True}


def says(side: str, singular: str, plural: str) -> str:
    """The side's name and the verb that agrees with it: ``says("nato", "has", "have")`` is
    ``NATO has``, ``says("soviet", "has", "have")`` is ``Soviets have``."""
    return f"{SIDE_NAMES[side]} {plural if PLURAL_NAMES[side] else singular}"


def other(side: str) -> Side:
    """The opposing side."""
    return "soviet" if side == "nato" else "nato"


def as_side(side: str) -> Side:
    """``side`` as rr's typed side id: the kit hands sides over as text (``"nato"``), and
    a state field typed :data:`Side` takes only one of the two (issue 39)."""
    for known in SIDES:
        if side == known:
            return known
    raise ValueError(f"'{side}' is not a side of Raid and Riposte; the sides are nato and soviet")


def _asked_by_both() -> dict[str, Literal["ask", "never"]]:
    return {"nato": "ask", "soviet": "ask"}


def _standing_asks() -> dict[str, "Standing"]:
    return {"nato": "ask", "soviet": "ask"}


class UnitState(BaseModel):
    """One counter's condition."""

    id: str
    side: Side
    place: Place = "pool"
    area: str | None = None  # set only when place == "map"
    reduced: bool = False
    ap: int = 0
    status: Status = "ok"
    attached_to: str | None = None  # set only when place == "attached"
    #: 9.7: Col. Nikolas's +1, waiting for its use this turn: "rcm", "acm", "df", "range".
    boost: list[str] = Field(default_factory=list)
    #: 9.8: Pvt. Boyes has armed a reroll of one die of this unit's next 2d6 roll: the die
    #: the player named (``worse``: the one that hurts that roll most, ``lower``, ``higher``),
    #: used only if the roll fails or on that roll whatever it gives (``use``).
    reroll: bool = False
    reroll_die: Literal["worse", "lower", "higher"] = "worse"
    reroll_use: Literal["failed", "any"] = "failed"


class Pending(BaseModel):
    """A decision owed before play goes on.

    * ``retreat`` (7.3.3, 7.3.5.5): ``side`` decides whether ``unit`` retreats to negate one
      of ``hits`` from the attacker in ``origin``;
    * ``spread`` (7.3.5.2): ``side`` assigns ``hits`` left over after the lead defender, one
      ``take-hits`` at a time, among the defenders in ``area``;
    * ``ags`` (9.5): the AGS-17 ``unit`` rolled doubles and may fire a second time;
    * ``withdraw`` (7.3.5.2): ``side``'s ``unit`` lost an assault in ``area`` and must retreat
      to an adjacent area of its owner's choice (the attackers came from ``origin``).
    """

    kind: Literal["retreat", "spread", "ags", "withdraw"]
    side: Side
    unit: str | None = None
    hits: int = 0
    origin: str | None = None
    area: str | None = None
    #: A retreat decision of an assault's lead defender (7.3.5.5): the assault goes on after it.
    assault: bool = False
    #: For an assault: the area the attackers came from (None: placed, 11.0 turn 6).
    source: str | None = None


class MarkRecord(BaseModel):
    """A mark of the last impulse, by area ids (the view turns them into centre points)."""

    kind: Literal["move", "fire", "assault", "retreat", "place", "blast", "shot", "miss", "eliminated"]
    areas: list[str]
    text: str = ""
    side: str | None = None
    units: list[str] = Field(default_factory=list)  # who fired or assaulted (what changed)


class RRState(BaseModel):
    """A whole game of Raid and Riposte."""

    scenario: str
    turn: int = 0
    max_turn: int = 7
    phase: Phase = "deploy"
    #: Whose deployment, placement, impulse or route it is.
    active: Side = "nato"
    initiative: Side = "nato"
    init_rolls: dict[str, int] = Field(default_factory=dict)
    #: 7.0: consecutive passes in the operations phase; two end it.
    passes: int = 0
    units: dict[str, UnitState]
    pending: list[Pending] = Field(default_factory=list)
    #: 12.0: who last was the sole occupant of each area.
    control: dict[str, Side] = Field(default_factory=dict)
    #: 10.1: airstrikes still usable this turn, by side.
    airstrike: dict[str, bool] = Field(default_factory=lambda: {"nato": False, "soviet": False})
    hind_ok: bool = False  # 10.2: the Hind may be placed this turn
    sniper_uses: int = 0  # 9.2: +2 to the die from the second use on
    sniper_turn: int = 0  # 9.2: the last turn the sniper was used
    hq_turn: int = 0  # 9.10: the last turn the German HQ gave an AP
    #: 9.7 with 7.1: Col. Nikolas spent his AP in this impulse (his help is no activation of
    #: an area, 7.0, so the impulse goes on; "no more than one AP in an impulse", 7.1).
    nikolas_spent: bool = False
    vdv_lost: int = 0  # 7.3.6: VDV companies eliminated so far (the 2nd and 3rd get -1)
    #: 7.3.6: eliminated VDV companies waiting for their cadre roll, with their ordinal.
    cadres: dict[str, int] = Field(default_factory=dict)
    #: 7.3.6: "Roll only once for each eliminated VDV Para": those that had their roll.
    cadre_rolled: list[str] = Field(default_factory=list)
    routed: list[str] = Field(default_factory=list)  # 8.0: units that routed this phase
    #: 6.2 with 9.7/9.8: the sides that have finished their rally decisions this turn.
    rally_done: list[str] = Field(default_factory=list)
    #: Standing answer to "help the rally with Nikolas/Boyes?": ask, or never stop for it.
    rally_help: dict[str, Literal["ask", "never"]] = Field(default_factory=_asked_by_both)
    standing: dict[str, Standing] = Field(default_factory=_standing_asks)
    marks: list[MarkRecord] = Field(default_factory=list)
    result: str | None = None

    def on_map(self, side: str | None = None) -> list[UnitState]:
        """Units on the map, optionally of one side, in id order of the scenario.  (The
        rules ask this and :meth:`in_area` several times an order: one comparison per unit
        when it settles the answer, issue 23.)"""
        if side is None:
            return [u for u in self.units.values() if u.place == "map"]
        return [u for u in self.units.values() if u.place == "map" and u.side == side]

    def in_area(self, area: str, side: str | None = None) -> list[UnitState]:
        """Units on the map in ``area``, optionally of one side."""
        if side is None:
            return [u for u in self.units.values() if u.area == area and u.place == "map"]
        return [u for u in self.units.values() if u.area == area and u.place == "map" and u.side == side]

    def riders(self, unit: str) -> list[UnitState]:
        """Counters attached to ``unit`` (ATGM teams, the Kastet)."""
        return [u for u in self.units.values() if u.place == "attached" and u.attached_to == unit]
