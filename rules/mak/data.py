"""Maschinen Krieger data models: units, charts, boards and scenarios, validated by pydantic.

The rulebook prints procedures and a few numbers but not its reference card (unit statistics,
the Terrain Effects and Attack Modifiers charts, the range-adjusted attack chart, the armour
endurance chart) nor the geomorphic boards.  They are authored in ``data/*.json``: every value
the text prints is used as printed (the tests pin each one), every other value is ours and
marked ``"stand_in": true`` in the file (or in a ``stand_in`` list of field names).
"""

from __future__ import annotations

import json
from enum import Enum
from functools import lru_cache
from importlib import resources
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, create_model, field_validator, model_validator

from rules.core import bounds, scenariofile


class Weapon(str, Enum):
    """Weapon types (11.1.1)."""

    LASER = "L"
    GUN = "G"
    MG = "MG"
    ROCKET = "R"
    PF = "PF"


class Movement(str, Enum):
    """Movement forms (7.1.2): the letter printed after the movement allowance."""

    WALK = "W"  # walking suits (stand-in reading of the letter)
    CRAWLER = "C"  # tracked / crawler
    HOVER = "H"
    WHEEL = "T"  # trucks and wheeled vehicles
    FOOT = "I"  # infantry and pilots: hexes, not points (14.1)
    BOOSTER = "B"  # 19.5.3, part 2
    AIR = "F"  # aeronautical units (10.0): they fly missions, they do not move over hexes


Result = Literal["D", "A", "M", "-"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class WeaponStats(_Model):
    """One weapon of a unit: type, attack ability, range, and rounds carried (rockets, PF)."""

    type: Weapon
    attack: int = Field(ge=0, le=20)
    range: int = Field(ge=0, le=30)
    rounds: int | None = Field(default=None, ge=1, le=12)  # 11.2.4; None: unlimited
    indirect: bool = False  # 5.5: may fire at a spotted target out of sight
    stand_in: list[str] = Field(default_factory=list)


class SmokeGear(_Model):
    """A unit's line of the Smoke Screen Equipment Chart (19.2.2; the chart is not in the
    text: every number is ours).  ``uses`` None: unlimited, own hex only (19.2.4)."""

    uses: int | None = Field(default=None, ge=1, le=12)
    range: int = Field(default=0, ge=0, le=12)
    per_turn: int = Field(default=1, ge=1, le=6)


class UnitStats(_Model):
    """One unit type's counter (2.2)."""

    key: str
    name: str
    short: str = Field(default="", max_length=5)  # the counter's label on the map ("Gus")
    unit_class: Literal[1, 2, 3]  # Type I / II / III (2.2)
    infantry: bool = False
    vehicle: bool = False
    unmanned: bool = False
    movement: int = Field(ge=0, le=20)
    move_form: Movement
    defense: int = Field(ge=-5, le=10)
    endurance: str = Field(pattern=r"^[A-E]$")
    weapons: list[WeaponStats] = Field(default_factory=list)
    stack_points: int | None = None  # None: by type (8.1)
    engineer: bool = False  # 14.4.1-14.4.3
    command: bool = False  # 16.1 / 17.1.2: HQ units
    vp: int = Field(default=1, ge=0, le=20)  # victory points (O.G.P. item 1)
    dogfight: int | None = Field(default=None, ge=0, le=10)  # 10.2.1: aeronautical units only
    rider: list[str] = Field(default_factory=list)  # 10.6: the units that join it (PK41)
    transport: int | None = Field(default=None, ge=0, le=10)  # 13.1.5: stack points carried
    transport_type1_only: bool = False  # 13.1.5: the Sph69-p carries Type I units only
    recon: bool = False  # 17.1.2 2: NeuSpotter, Kröte, Raccoon
    detects_mines: bool = False  # 19.5.2: the Kröte Pioneer has the engineers' mine detection
    noncombatant: bool = False  # 19.5.1: Eddy Amzel moves, and does nothing else
    smoke: SmokeGear | None = None  # 19.2.1: units that lay smoke screens
    booster: int | None = Field(default=None, ge=1, le=20)  # 19.5.3: the SAFS Mk. II's 12B
    stand_in: list[str] = Field(default_factory=list)

    @property
    def aeronautical(self) -> bool:
        """10.0: a unit with a dog-fight rating flies."""
        return self.dogfight is not None

    @property
    def finds_mines(self) -> bool:
        """14.4.1 / 19.5.2: engineers (and the Kröte Pioneer) look for minefields."""
        return self.engineer or self.detects_mines

    @property
    def points(self) -> int:
        """Stack points (8.1): Type I 1, Type II (infantry too) 2, Type III strafing 1."""
        if self.stack_points is not None:
            return self.stack_points
        return 2 if self.unit_class == 2 else 1


class TerrainStats(_Model):
    """One row of the Terrain Effects chart: movement cost by form, attack modifier by weapon."""

    key: str
    name: str
    cost: dict[Movement, float | None]  # None: prohibited (7.1.8)
    attack: dict[Weapon, int]
    height: Literal[0, 1] = 0  # 6.2.1
    blocks: bool = False  # 6.1.2 obstacle terrain
    stand_in: list[str] = Field(default_factory=list)


class HexsideStats(_Model):
    """A hexside feature (ridge, wall): extra movement cost (+) and the attack modifier."""

    key: str
    cost: dict[Movement, float | None]
    attack: dict[Weapon, int]
    stand_in: list[str] = Field(default_factory=list)


class RangeBand(_Model):
    """``upto`` hexes and closer (after the previous band): ``modifier``."""

    upto: int
    modifier: int


class EnduranceRow(_Model):
    """One endurance class: the highest 2d6 sum giving D, then A, then M; above is no effect."""

    d: int
    a: int
    m: int


class Charts(_Model):
    """The reference card: terrain, hexsides, range-adjusted attack, armour endurance."""

    note: str = ""
    terrain: list[TerrainStats]
    hexsides: list[HexsideStats]
    road_cost: float  # 7.1.6, 14.2.2: "1/2MP per road hex"
    range: dict[Weapon, list[RangeBand]]
    endurance: dict[str, EnduranceRow]
    stand_in: list[str] = Field(default_factory=list)

    def terrain_of(self, key: str) -> TerrainStats:
        """The terrain row of ``key`` (KeyError for a key the chart lacks)."""
        return _terrain_index(id(self), self)[key]

    def hexside_of(self, key: str) -> HexsideStats:
        """The hexside row of ``key``."""
        for row in self.hexsides:
            if row.key == key:
                return row
        raise KeyError(key)

    def range_modifier(self, weapon: Weapon, hexes: int) -> int:
        """The range-adjusted attack modifier (5.1.3 2) for ``hexes`` with ``weapon``."""
        for band in self.range[weapon]:
            if hexes <= band.upto:
                return band.modifier
        return self.range[weapon][-1].modifier

    def endurance_result(self, endurance: str, roll: int) -> Result:
        """The armour endurance chart (5.1.2): D, A, M or - for a 2d6 sum."""
        row = self.endurance[endurance]
        if roll <= row.d:
            return "D"
        if roll <= row.a:
            return "A"
        if roll <= row.m:
            return "M"
        return "-"


class BoardSpec(_Model):
    """A geomorphic board: its size and features in the book's four-digit numbers.

    ``terrain`` maps a terrain key to hexes or rectangles ``"0405..0709"`` (columns 04-07,
    rows 05-09); ``elevation`` lists level-1 hexes; ``hexsides`` ``"0807 SE ridge"``;
    ``partial`` partial building hexes; ``roads`` road hexes.
    """

    number: int
    columns: int = 20
    rows: int = 30
    terrain: dict[str, list[str]] = Field(default_factory=dict)
    elevation: list[str] = Field(default_factory=list)
    hexsides: list[str] = Field(default_factory=list)
    partial: list[str] = Field(default_factory=list)
    roads: list[str] = Field(default_factory=list)
    stand_in: bool = True


class Deployment(_Model):
    """One line of a scenario's forces: unit type, count, and where (book notation)."""

    unit: str
    count: int = Field(default=1, ge=1, le=30)
    deploy: str  # "1⑤N▷1801" (enters), "⑤0512" (set up in a hex) or "⑤⑥E"
    names: list[str] = Field(default_factory=list)
    crew: str = ""  # scenario notes b: "(Ld 1①) (Ld 2⑤) ⑪", "PC④" (18.1.3)
    rider: str | None = None  # 10.6: a PK41 enters as a Hornisse with this unit aboard
    aboard: str = ""  # 13.1: set up transported by the side's first vehicle of this type with room
    airdrop: bool = False  # 12.2: dropped on its turn into any hex of its boards
    #: Start-of-game states (issue 46), as a rulebook example or a continued game has them:
    #: 5.1.2's M (immobilised) and A (arm. disabled) results, 14.3 broken morale, rounds
    #: fired by weapon type (11.2.5), and the turns of 19.5.3's booster already used.
    immobilized: bool = False
    disarmed: bool = False
    morale: Literal["ok", "broken", "broken_again"] = "ok"
    fired: dict[Weapon, Annotated[int, Field(ge=1, le=12)]] = Field(default_factory=dict)
    boosts: int = Field(default=0, ge=0, le=2)  # 19.5.3: "may be used in two turns"


#: The stats a card's own unit type may give (issue 46): every field a counter prints.
OWN_STATS = ("name", "short", "unit_class", "infantry", "vehicle", "unmanned", "movement",
             "move_form", "defense", "endurance", "weapons", "engineer", "command", "vp",
             "transport", "recon", "booster")


class _OwnUnitBase(_Model):
    """A unit type of the scenario's own (issue 46): a club's mecha, or a counter with its
    stats overridden.  ``base`` names a shipped type whose every stat it starts from; each
    field given replaces that stat.  Without ``base`` every stat a counter needs is given.
    The merged stats are validated as a shipped counter's are (:class:`UnitStats`: the
    rulebook's ranges, movement 0-20, defense -5 to 10, endurance A-E ...)."""

    key: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9]{0,15}$")
    base: str = ""
    stand_in: list[str] = Field(default_factory=list)

    def overrides(self) -> dict[str, object]:
        """The stats this type gives, as :class:`UnitStats` fields."""
        given = self.model_dump(exclude={"base", "stand_in"}, exclude_none=True)
        given["stand_in"] = list(self.stand_in)
        return given


#: Each of :data:`OWN_STATS` optional, typed as the counter's own field (one declaration).
OwnUnitType = create_model(  # type: ignore[call-overload]
    "OwnUnitType", __base__=_OwnUnitBase, __doc__=_OwnUnitBase.__doc__,
    **{name: (UnitStats.model_fields[name].annotation | None, None) for name in OWN_STATS})


class StartSpec(_Model):
    """Where a game begins (issue 46): a later turn, or the second player's phase (4.0),
    as a rulebook example or a club's continued game needs."""

    turn: int = Field(default=1, ge=1, le=30)
    phase: Literal["first", "second"] = "first"


class SideSpec(_Model):
    """A side of a scenario."""

    key: Literal["merc", "strahl"]
    forces: list[Deployment] = Field(max_length=bounds.PIECES)
    artillery: list[str] = Field(default_factory=list, max_length=bounds.PIECES)  # 17.0: "Type II … ⑥W−80×5 (2)"


class ScenarioPoints(_Model):
    """O.G.P. item 3: points the scenario gives a side (may be negative).

    ``hold``: the side has a unit in ``hex`` and the enemy none when the game ends;
    ``depot``: the side's Depot in ``hex`` has been destroyed (11.3.3).
    """

    kind: Literal["hold", "depot"]
    hex: str
    side: Literal["merc", "strahl"]
    points: int = Field(ge=-20, le=20)
    text: str = ""


class MineSpec(_Model):
    """A minefield laid before play (19.1): its owner and attack power, 5 to 13 (19.1.1)."""

    owner: Literal["merc", "strahl"]
    attack: int = Field(ge=5, le=13)


class ScenarioSpec(_Model):
    """A scenario card: boards, turns, who goes first, forces, and how it is won."""

    key: str
    title: str
    boards: list[int] = Field(min_length=1, max_length=6)
    turns: int = Field(ge=1, le=30)
    first: Literal["merc", "strahl"]
    sides: list[SideSpec]
    victory: str
    #: 12.3: "5:0818" -> the position's rating, -3 to 0 (-1, -2 in the book's scenarios).
    positions: dict[str, Annotated[int, Field(ge=-3, le=0)]] = Field(default_factory=dict)
    depots: dict[str, Literal["merc", "strahl"]] = Field(default_factory=dict)  # 11.3: hex -> owner
    attacker: Literal["merc", "strahl"] | None = None  # 10.2.1: the aggressor when ratings tie
    points: list[ScenarioPoints] = Field(default_factory=list)  # O.G.P. item 3
    mines: dict[str, "MineSpec"] = Field(default_factory=dict)  # 19.1: hex -> minefield
    #: 19.1 "Following the rules of the scenario, the player distributes these mines": each
    #: side's total attack power to lay at set-up (``/mak mines lay``), 5 to 13 a hex.
    mine_points: dict[Literal["merc", "strahl"], Annotated[int, Field(ge=0, le=200)]] = Field(default_factory=dict)
    night: bool = False  # 19.3
    amu: bool = False  # 16.2.2: "any scenario after December 2884"
    stand_in: bool = True
    #: Issue 46: unit types of the scenario's own, boards beyond the shipped 5 and 6 (their
    #: numbers then go in ``boards``), and a game that begins at a later turn or phase.
    unit_types: list[OwnUnitType] = Field(default_factory=list)  # type: ignore[valid-type]
    own_boards: list["BoardSpec"] = Field(default_factory=list)
    start: StartSpec = StartSpec()

    #: Issue 45: each list within the limits of scale, counted before its entries are read
    #: (the hexes a card names are hexes of at most 6 boards: 3,600 at most).
    _pieces = field_validator("sides", "positions", "depots", "points", "mines", mode="before")(bounds.pieces)

    @model_validator(mode="after")
    def _scale(self) -> "ScenarioSpec":
        # Issue 45: more units than a battle has are refused before the checks walk them.
        bounds.units_in_all(sum(line.count for side in self.sides for line in side.forces))
        return self

    @model_validator(mode="after")
    def _two_sides(self, info: ValidationInfo) -> "ScenarioSpec":
        # Inside a file check, rules/mak/scenario.py says it with the path of the side.
        if sorted(s.key for s in self.sides) != ["merc", "strahl"] and not (
                info.context and info.context.get("scenario_file")):
            raise ValueError("a scenario has the two sides merc and strahl")
        return self


_INDEX: dict[int, dict[str, TerrainStats]] = {}


def _terrain_index(key: int, table: Charts) -> dict[str, TerrainStats]:
    """The terrain rows by key (built once per chart object: the hot path of movement)."""
    index = _INDEX.get(key)
    if index is None:
        index = _INDEX[key] = {row.key: row for row in table.terrain}
    return index


def read_data(name: str) -> object:
    """The JSON file ``name`` of the package's ``data`` folder, parsed."""
    return json.loads(resources.files("rules.mak").joinpath("data").joinpath(name).read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def units() -> dict[str, UnitStats]:
    """Every unit type by key (``data/units.json`` and the other ``units_*.json`` files)."""
    folder = resources.files("rules.mak").joinpath("data")
    names = sorted(f.name for f in folder.iterdir() if f.name.startswith("units") and f.name.endswith(".json"))
    out: dict[str, UnitStats] = {}
    for name in names:
        raw = read_data(name)
        assert isinstance(raw, dict)
        out.update({u.key: u for u in (UnitStats.model_validate(x) for x in raw["units"])})
    return out


@lru_cache(maxsize=1)
def charts() -> Charts:
    """The reference card (``data/charts.json``)."""
    return Charts.model_validate(read_data("charts.json"))


@lru_cache(maxsize=1)
def boards() -> dict[int, BoardSpec]:
    """The geomorphic boards by number (``data/boards.json``)."""
    raw = read_data("boards.json")
    assert isinstance(raw, dict)
    return {b.number: b for b in (BoardSpec.model_validate(x) for x in raw["boards"])}


def merged_type(own: _OwnUnitBase) -> UnitStats:
    """The counter of a scenario's own type: its base's stats with its own over them
    (a pydantic ValidationError or KeyError for a file the checks refuse)."""
    base = units()[own.base].model_dump() if own.base else {}
    base.update(own.overrides())
    base["key"] = own.key
    return UnitStats.model_validate(base)


@lru_cache(maxsize=64)
def _own_types(scenario_key: str) -> dict[str, UnitStats]:
    return {own.key: merged_type(own) for own in scenario(scenario_key).unit_types}


def own_type_key(scenario_key: str, unit: str) -> str:
    """The type a unit of a scenario's own type carries in the state: ``<scenario>/<type>``
    (the scenario key holds its file's hash, so two files' types never mix)."""
    return f"{scenario_key}/{unit}"


def unit_stats(type_key: str) -> UnitStats:
    """A unit's counter by its state's type: a shipped type, or a scenario's own
    (``<scenario>/<type>``, issue 46)."""
    if "/" in type_key:
        scenario_key, own = type_key.split("/", 1)
        return _own_types(scenario_key)[own]
    return units()[type_key]


def board_catalogue(scenario_key: str = "") -> dict[int, BoardSpec]:
    """The boards a scenario may lay: the shipped ones and its own (issue 46)."""
    if not scenario_key:
        return boards()
    return {**boards(), **{b.number: b for b in scenario(scenario_key).own_boards}}


#: The text of a shipped scenario card by key (``data/scenario_<key>.json``).
builtin_text = scenariofile.builtin_reader("rules.mak", "scenario_{key}.json")
#: A scenario card by key: a file registered under it (issue 27), else the shipped one.
scenario = scenariofile.cached_loader("mak", ScenarioSpec, builtin_text)


SCENARIOS: tuple[str, ...] = ("patrol", "ridge", "air", "assault", "pioneers", "minefields")
