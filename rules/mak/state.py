"""The state of a Maschinen Krieger game: units, the turn and phase, what is pending.

Designed to grow for part 2 (issue 18): ``phase`` already has the air commitment phase's
name, units carry a ``pilot`` slot, and aircraft, artillery requests, smoke and fire have
their own lists (empty in the ground war).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from rules.mak.aircrew import AirState, Crew
from rules.mak.hidden_state import Concealment
from rules.mak.land_state import ArtilleryRequest, Battery, Overrun

Side = Literal["merc", "strahl"]
SIDES: tuple[Side, Side] = ("merc", "strahl")
SIDE_NAMES = {"merc": "Mercenary", "strahl": "Strahl"}
Morale = Literal["ok", "broken", "broken_again"]


def other(side: str) -> Side:
    """The opponent."""
    return "strahl" if side == "merc" else "merc"


class UnitState(BaseModel):
    """One unit on (or waiting to enter, or gone from) the map."""

    id: str  # "M-AFS1": side letter, type, number
    type: str  # key into data/units.json
    side: Side
    deploy: str  # the scenario's code, e.g. "1⑤N▷1801"
    hex: str | None = None  # "5:1801"; None before it enters
    status: Literal["waiting", "on", "destroyed", "aloft", "aboard", "withdrawn"] = "waiting"  # aloft/aboard: 10.0; withdrawn: 16.2.3 too
    immobilized: bool = False  # M (5.1.2)
    disarmed: bool = False  # A: "Arm. Disabled" (5.1.2, 11.2.3)
    weapons_out: list[str] = Field(default_factory=list)  # weapon types spent (PF out, laser on)
    fired: dict[str, int] = Field(default_factory=dict)  # rounds fired by weapon type (11.2.5)
    phase_shots: dict[str, int] = Field(default_factory=dict)  # rockets / PF this phase (11.2.4)
    drained_until: int = 0  # 14.4.4: the AAR rifle is drained through this turn
    morale: Morale = "ok"  # 14.3
    mp_spent: float = 0.0
    moved: bool = False
    move_done: bool = False  # 7.2.5: finished moving this phase
    attacked: bool = False  # its one offensive attack this phase (5.3.1)
    spotted: bool = False  # spotted for an indirect attack this turn (5.5.1)
    struck: bool = False  # attacked in close quarters this phase
    #: 9.2 "A unit that engages in case 1 cannot attack in case 2": the enemies that made a
    #: defensive attack on it in the hex it stands in, this phase (cleared as it enters another)
    approach_fire: list[str] = Field(default_factory=list)
    carrying: str | None = None  # 7.3: the immobilised Type I unit it carries
    pilot: int | None = None  # 18.1.3: the number of the side's pilot in it
    rider: str | None = None  # 10.6: the PKA (Gustav, Konrad) a PK41 carries as a Hornisse
    aboard: str | None = None  # 13.1: the vehicle transporting it
    loaded_turn: int = 0  # 13.1.2: a vehicle may not move on the turn it loads
    airdrop: bool = False  # 12.2: enters by airdrop (the scenario says so)
    amu: bool = False  # 16.2.3: carries a collected AMU
    boosts: list[int] = Field(default_factory=list)  # 19.5.3: turns the booster was used
    smoke_laid: dict[int, int] = Field(default_factory=dict)  # 19.2.2: screens laid, by turn
    spared_at: int = -1  # 14.4.3: the order in which it was last fired upon without damage
    arson_turn: int = 0  # 14.4.2: tried arson this turn: no other attack, defensive included

    @property
    def on_map(self) -> bool:
        """Whether the unit stands on the map."""
        return self.status == "on" and self.hex is not None


class Mark(BaseModel):
    """The last move or attack, in hex labels, for the snapshot."""

    kind: Literal["move", "fire", "miss", "assault", "blast", "place"]
    hexes: list[str]
    text: str = ""
    side: Side | None = None
    by: list[str] = Field(default_factory=list)  # who fired (what changed since a player's order)
    order: int = 0  # the order that drew it: the snapshot shows the last order's marks


class Window(BaseModel):
    """Defensive attacks owed to the anti-phase player (5.4, 7.2.4, 9.2).

    ``defenders`` may each attack one of ``targets`` once in this window; ``pass`` closes it.
    """

    reason: str  # "attack", "move", "assault_adjacent", "assault_same"
    targets: list[str]
    defenders: list[str]
    used: list[str] = Field(default_factory=list)
    unpinned: list[str] = Field(default_factory=list)  # 9.4.3: named by the phase player
    opened: int = -1  # the order that opened it (14.4.3)


class PinChoice(BaseModel):
    """9.4.3: the phasing player names which anti-phasing units in a hex stay unpinned."""

    hex: str
    candidates: list[str]
    need: int
    chosen: list[str] = Field(default_factory=list)


class Assault(BaseModel):
    """A close quarters assault under way (9.1): who, which hex, and the stage reached."""

    unit: str
    hex: str
    stage: Literal["adjacent", "same", "strike", "unarmed"] = "adjacent"
    target: str | None = None  # 9.5: the unarmed strike's target, after the armed answer
    charge: bool = False  # 14.2.2: an infantry charge from two hexes away
    fired_adjacent: list[str] = Field(default_factory=list)  # 9.2: case 1 excludes case 2
    answer: str | None = None  # 9.5: the target's unarmed answer, landing with the blow


class Position(BaseModel):
    """A defensive position marker (12.3): its rating and the side whose units are in it."""

    rating: int = Field(ge=-3, le=0)
    holder: Side | None = None


class Minefield(BaseModel):
    """A minefield (19.1; found by engineers, 14.4.1): its owner, attack power, and whether
    the enemy knows of it (19.1.1: secret until discovered or entered)."""

    owner: Side
    attack: int = Field(ge=5, le=20)  # 19.1.1: 5-13 laid; 19.1.6: up to 20 with artillery
    revealed: bool = False
    spared: list[str] = Field(default_factory=list)  # 19.1.7: units there when artillery laid it
    #: 19.1: a minefield a player laid is a sealed item: the seal's key and the item's index,
    #: unsealed when it is discovered (19.1.2, 14.4.1, 19.1.8); "" for a scenario's own.
    seal: str = ""
    index: int = -1
    #: 19.1.6: artillery was seen to scatter mines here (the hex is known, the power is not).
    suspected: bool = False


class Blow(BaseModel):
    """One unit's declared attack in a close quarters exchange (9.3.2, 9.5)."""

    unit: str
    target: str
    unarmed: bool = False


class Exchange(BaseModel):
    """A continuing close quarters combat fought out (9.3.2): the phasing player declares a
    target for each unit and resolves, then the other player; results land together."""

    hex: str
    stage: Literal["phasing", "anti"] = "phasing"
    blows: list[Blow] = Field(default_factory=list)
    held: list[str] = Field(default_factory=list)  # units that make no attack
    pending: list[tuple[str, str, str, str]] = Field(default_factory=list)  # (unit, D/A/M, weapon, by) to apply


class Arson(BaseModel):
    """An arson attempt declared this phase (14.4.2): rolled at the end of the troop phase."""

    hex: str
    units: list[str]


class MakState(BaseModel):
    """Everything about one game."""

    scenario: str
    title: str
    boards: list[int]
    turns: int
    turn: int = 1
    first: Side
    active: Side  # the phase player
    phase: Literal["air", "first", "second"] = "first"
    method: Literal["sum", "product"] = "sum"
    units: list[UnitState]
    moving: str | None = None  # the unit whose move is under way (7.2.5)
    window: Window | None = None
    pin: PinChoice | None = None
    assault: Assault | None = None
    marks: list[Mark] = Field(default_factory=list)
    orders: int = 0  # accepted orders so far (numbers the marks)
    positions: dict[str, Position] = Field(default_factory=dict)  # 12.3, by hex
    depots: dict[str, Side] = Field(default_factory=dict)  # 11.3: hex -> owner
    smoke: dict[str, int] = Field(default_factory=dict)  # part 2 (19.2): hex -> turns left
    fire: list[str] = Field(default_factory=list)  # part 2 (19.4)
    air: AirState = Field(default_factory=AirState)  # 10.0
    crew: Crew = Field(default_factory=Crew)  # 18.0
    attacker: Side | None = None  # 10.2.1: the scenario's attacking player (None: the first)
    overrun: Overrun | None = None  # 13.2
    batteries: list[Battery] = Field(default_factory=list)  # 17.0: off-board artillery
    requests: list[ArtilleryRequest] = Field(default_factory=list)  # 17.1.5: the record sheet
    over: bool = False
    exchange: Exchange | None = None  # 9.3.2
    mines: dict[str, Minefield] = Field(default_factory=dict)  # 19.1 / 14.4.1, by hex
    arson: list[Arson] = Field(default_factory=list)  # 14.4.2, pending to the end of the phase
    smoke_owner: dict[str, Side] = Field(default_factory=dict)  # 19.2.3: whose phase counts it down
    amus: dict[str, int] = Field(default_factory=dict)  # 16.2.2: dropped AMUs by hex
    amu_rule: bool = False  # 16.2.2: a scenario after December 2884
    amu_points: int = 0  # 16.2.3: AMUs the Strahl carried off the map
    night: bool = False  # 19.3
    drop: str | None = None  # 12.2: the unit under anti-aircraft fire as it lands
    #: 19.1 / 15.0: the sides still at set-up (laying minefields, placing concealment
    #: markers) before the first phase; empty once play has begun.
    setup: list[Side] = Field(default_factory=list)
    mine_points: dict[str, int] = Field(default_factory=dict)  # 19.1: each side's total, from the scenario
    laid: list[Side] = Field(default_factory=list)  # 19.1: sides that have laid their minefields
    #: 19.1.6: hexes where a side's mine rounds were seen to fall, by that side: public,
    #: whether they laid a minefield or were lost on an enemy one (the map shows MINE ? on
    #: each until it is found either way, so a lost round does not give the enemy's away).
    scattered: dict[str, Side] = Field(default_factory=dict)
    concealment: Concealment | None = None  # 15.0 (optional rule): None when not in use
    seals: int = 0  # sealed choices made so far (numbers their keys)

    def unit(self, uid: str) -> UnitState:
        """The unit with id ``uid`` (KeyError if none)."""
        for u in self.units:
            if u.id == uid:
                return u
        raise KeyError(uid)

    def find(self, uid: str) -> UnitState | None:
        """The unit with id ``uid`` (case-insensitive), or None."""
        key = uid.strip().lower()
        for u in self.units:
            if u.id.lower() == key:
                return u
        if self.concealment is not None:  # 15.0: an order names a concealed unit by its marker
            under = next((v for k, v in self.concealment.markers.items() if k.lower() == key and v), None)
            if under is not None:
                return self.unit(under)
        return None

    def at(self, label: str) -> list[UnitState]:
        """The units on the map in hex ``label``."""
        return [u for u in self.units if u.on_map and u.hex == label]
