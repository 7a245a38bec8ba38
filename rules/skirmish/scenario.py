"""Platoon skirmish scenario data: table, terrain, weapons, units of teams, and their places.

The rulebook gives procedures only: no unit lists, weapon ranges, FP, armour, Tank Assault
ratings, terrain table or scenario.  The 1944 scenario in ``data/`` is authored; every value
the text does not print is marked ``stand_in`` in the file.  Coordinates are inches from the
top-left corner as drawn, ``x`` east, ``y`` south (see :mod:`rules.core.table`).
"""

from __future__ import annotations

from functools import cached_property
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from rules.core import bounds, table
from rules.core import scenariofile
from rules.core.scenariofile import Loc, ScenarioFormat

Side = Literal["us", "germans"]
Training = Literal["green", "trained", "veteran"]
TeamKind = Literal["infantry", "gun", "tank"]
#: A team's role in its unit: its Platoon Leader, a Forward Observer, the Company Commander.
Role = Literal["team", "pl", "fo", "cc"]
Cover = Literal["none", "soft", "hard"]
Going = Literal["open", "difficult", "very_difficult"]
Point = bounds.Point


class Weapon(BaseModel):
    """A weapon: range in inches, Fire Points (FP), the AT trait, barrage capability."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str
    range: bounds.Length = Field(gt=0)
    fp: int = Field(ge=1, le=12)
    at: bool = False  # 'AT' trait: harms armoured teams, rolled and allocated separately
    barrage: bool = False  # artillery: may fire barrages and smoke (Indirect Fire)
    stand_in: bool = True


class TeamSpec(BaseModel):
    """One team (a stand of models or a vehicle) and where it starts."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    kind: TeamKind
    role: Role = "team"
    weapons: list[str] = Field(min_length=1, max_length=bounds.PIECES)  # keys into Scenario.weapons
    x: bounds.Coordinate
    y: bounds.Coordinate
    facing: scenariofile.Facing = 0.0  # on the table: 0 = east, 90 = south; or N, SE... (guns, tanks: 180° arc)
    #: Tanks: Armored (tanks, half tracks, SP) or Soft Skinned (trucks, jeeps) (Armor Saves).
    armoured: bool = False
    hull_save: int | None = Field(default=None, ge=2, le=6)  # armour thickness as a save
    turret_save: int | None = Field(default=None, ge=2, le=6)
    tank_assault: int = Field(default=0, ge=0, le=4)  # Tank Assault rating (Assaults)
    stand_in: bool = True
    #: Issue 46: its condition when the game begins: already a casualty (Losses), and the
    #: suppression markers beside it (Suppression: each +1 to its unit's Training Check).
    lost: bool = False
    suppression: int = Field(default=0, ge=0, le=6)

    @model_validator(mode="after")
    def _armour(self) -> "TeamSpec":
        if self.armoured and (self.kind != "tank" or self.hull_save is None):
            raise ValueError(f"{self.id}: only tank teams are armoured, with a hull_save")
        return self


class UnitSpec(BaseModel):
    """A unit of teams with its Training level (Units)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    name: str
    side: Side
    training: Training
    teams: list[TeamSpec] = Field(min_length=1, max_length=bounds.UNITS)
    stand_in: bool = True
    #: Issue 46: the unit has already activated in the turn play begins part-way through
    #: (Turns: "Each Unit may only activate once per turn"); only with ``start_initiative``.
    activated: bool = False

    @model_validator(mode="after")
    def _one_leader(self) -> "UnitSpec":
        leaders = [t for t in self.teams if t.role in ("pl", "cc")]
        if len(leaders) != 1:
            raise ValueError(f"{self.id}: a unit needs exactly one PL (or CC) team")
        return self


class TerrainSpec(BaseModel):
    """A terrain piece: area terrain (polygon) or a linear obstacle (a polyline)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    name: str
    kind: Literal["area", "linear", "road"]
    points: bounds.Outline = Field(min_length=2)
    cover: Cover = "none"
    going: Going = "open"  # Moving: difficult and very difficult terrain
    height: bounds.Length = 0.0  # inches; taller than teams (1") blocks sight
    style: str = "field"  # palette key for the renderer: wood, building, hedge, wall, road
    stand_in: bool = True

    @model_validator(mode="after")
    def _shape(self) -> "TerrainSpec":
        if self.kind == "area" and len(self.points) < 3:
            raise ValueError(f"{self.id}: area terrain needs a polygon of 3+ corners")
        return self

    @cached_property
    def polygon(self) -> table.Polygon:
        """The area's outline (area terrain only)."""
        return table.Polygon.of(self.points)

    @property
    def segments(self) -> list[tuple[Point, Point]]:
        """The sides of a linear obstacle (or road) as segments."""
        return list(zip(self.points, self.points[1:]))


class PointSpec(BaseModel):
    """A named point on the table (an objective, a landmark)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    name: str
    x: bounds.Coordinate
    y: bounds.Coordinate
    stand_in: bool = True


class VictorySpec(BaseModel):
    """How the game ends beyond the text's company retreat (stand-in)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    objective: str  # a named point id
    radius: bounds.Length = 6.0
    stand_in: bool = True


class Scenario(BaseModel):
    """A whole table: size, terrain, weapons, units, length and victory."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str
    title: str
    note: str = ""
    year: int = 1944
    width: bounds.TableSide
    height: bounds.TableSide
    turns: int = Field(ge=1, le=20)
    turns_stand_in: bool = True
    team_height: bounds.Length = 1.0  # inches: what "taller than Teams" means (stand-in)
    base_radius: bounds.Length = 0.75  # inches, every team's base as a disc (stand-in)
    weapons: dict[str, Weapon]
    terrain: list[TerrainSpec]
    points: list[PointSpec]
    units: list[UnitSpec]
    victory: VictorySpec
    #: Issue 46: the turn play begins at (its Initiative is rolled as every turn's, Turns).
    start_turn: int = Field(default=1, ge=1, le=20)
    #: Issue 46: play begins part-way through ``start_turn``, its Initiative roll made: this
    #: side holds the Initiative (and had the first), and units marked ``activated`` have
    #: acted (Turns).  Unset, the turn begins with its Initiative roll.
    start_initiative: Side | None = None

    #: Issue 45: each list within the limits of scale, counted before its entries are read.
    _pieces = field_validator("weapons", "terrain", "points", "units", mode="before")(bounds.pieces)

    @model_validator(mode="after")
    def _scale(self) -> "Scenario":
        # Issue 45: a table no picture can show, or more units than a battle has, is refused
        # before the cross-field checks walk it and before anything is drawn.
        bounds.table_shape(self.width, self.height)
        bounds.units_in_all(sum(len(u.teams) for u in self.units))
        bounds.corners_in_all([t.points for t in self.terrain])
        return self

    @model_validator(mode="after")
    def _consistent(self, info: ValidationInfo) -> "Scenario":
        # Ids once, weapons that exist, teams on the table, a named objective: see problems().
        return scenariofile.cross_checked(self, info, problems)

    def weapon(self, key: str) -> Weapon:
        """The weapon called ``key``."""
        return self.weapons[key]

    def terrain_piece(self, key: str) -> TerrainSpec:
        """The terrain piece called ``key``."""
        return next(t for t in self.terrain if t.id == key)


#: The text of a shipped scenario by key (``data/<key>.json``).
builtin_text = scenariofile.builtin_reader("rules.skirmish")
#: A scenario by key: a file registered under it (issue 27), else the shipped one; cached.
load_scenario = scenariofile.cached_loader("skirmish", Scenario, builtin_text)


Faults = list[tuple[Loc, str]]


def _size(sc: Scenario) -> str:
    """The table's size as a fault message gives it."""
    return f"the table is 0-{sc.width:g} by 0-{sc.height:g} inches"


def _ids_used_twice(sc: Scenario) -> Faults:
    """Ids used twice: terrain, points, units and teams together."""
    items = [(("terrain", i, "id"), t.id) for i, t in enumerate(sc.terrain)]
    items += [(("points", i, "id"), p.id) for i, p in enumerate(sc.points)]
    for i, unit in enumerate(sc.units):
        items.append((("units", i, "id"), unit.id))
        items += [(("units", i, "teams", j, "id"), t.id) for j, t in enumerate(unit.teams)]
    return scenariofile.duplicates(items)


def _places_off_the_table(sc: Scenario) -> Faults:
    """Terrain corners (the first of each piece) and named points off the table."""
    out: Faults = []
    for i, piece in enumerate(sc.terrain):
        off = next((j for j, c in enumerate(piece.points) if not table.on_table(c, sc.width, sc.height)), None)
        if off is not None:
            out.append((("terrain", i, "points", off), f"{piece.id}'s corner {list(piece.points[off])} "
                        f"is off the table ({_size(sc)})."))
    for i, point in enumerate(sc.points):
        if not table.on_table((point.x, point.y), sc.width, sc.height):
            out.append((("points", i, "x"), f"{point.id} is off the table ({_size(sc)})."))
    return out


def _team_faults(sc: Scenario, loc: Loc, team: TeamSpec) -> Faults:
    """One team's faults: weapon keys not in ``weapons``, off the table, a gun or tank set up
    in very difficult going only infantry may stand in (Moving)."""
    out: Faults = [(loc + ("weapons", k), f"'{key}' is not a key of weapons; weapons: "
                    f"{scenariofile.one_of(sc.weapons)}.")
                   for k, key in enumerate(team.weapons) if key not in sc.weapons]
    if not table.on_table((team.x, team.y), sc.width, sc.height):
        field = "x" if not 0 <= team.x <= sc.width else "y"
        out.append((loc + (field,), f"{team.id} at {team.x:g},{team.y:g} starts off the "
                    f"table ({_size(sc)})."))
    if team.kind == "infantry":
        return out
    for piece in sc.terrain:
        if (piece.kind == "area" and piece.going == "very_difficult"
                and table.point_in_polygon((team.x, team.y), piece.polygon)):
            out.append((loc, f"{team.id} is a {team.kind} set up in {piece.id}, very "
                        "difficult going only infantry may stand in (Moving)."))
    return out


def _sides_and_objective(sc: Scenario) -> Faults:
    """Each side with a unit, the victory objective a named point."""
    out: Faults = [(("units",), f"the {side} have no unit; each side needs one at least.")
                   for side in ("us", "germans") if not any(u.side == side for u in sc.units)]
    if sc.victory.objective not in {p.id for p in sc.points}:
        out.append((("victory", "objective"), f"'{sc.victory.objective}' is not a named point; "
                    f"points: {scenariofile.one_of(p.id for p in sc.points)}."))
    return out


def _start_faults(sc: Scenario) -> Faults:
    """Issue 46: a unit begins with a team on the table (a unit of casualties only is not
    set up), a casualty carries no suppression marker (Suppression: a casualty's markers
    move to another team), and the first turn is one of the game's."""
    out: Faults = []
    for i, unit in enumerate(sc.units):
        if all(t.lost for t in unit.teams):
            out.append((("units", i, "teams"), f"every team of {unit.id} is lost; a unit begins "
                        "with one team on the table at least (leave it out instead)."))
        out += [(("units", i, "teams", j, "suppression"), f"{team.id} is lost: its suppression "
                 "markers go to a team still on the table (Suppression).")
                for j, team in enumerate(unit.teams) if team.lost and team.suppression]
    if sc.start_turn > sc.turns:
        out.append((("start_turn",), f"the game has {sc.turns} turns; it cannot begin on turn "
                    f"{sc.start_turn}."))
    return out + _part_way_faults(sc)


def _part_way_faults(sc: Scenario) -> Faults:
    """Issue 46, Turns: a unit has acted only in a turn begun part-way (``start_initiative``),
    and a turn begun part-way still has a unit to activate ("until every Unit has acted")."""
    acted = [i for i, unit in enumerate(sc.units) if unit.activated]
    if sc.start_initiative is None:
        return [(("units", i, "activated"), f"{sc.units[i].id} cannot have acted before the "
                 "turn's Initiative roll; set start_initiative to begin part-way through the turn "
                 "(Turns).") for i in acted]
    if len(acted) == len(sc.units):
        return [(("start_initiative",), "every unit has acted: that turn is over; begin at the "
                 "next turn instead (Turns).")]
    return []


def _weapons_not_carried(sc: Scenario) -> Faults:
    """Weapons no team carries (a typo in a key)."""
    carried = {w for u in sc.units for t in u.teams for w in t.weapons}
    return [(("weapons", name), f"no team carries the weapon '{name}'; remove it or give it to a "
             "team (a typo in a team's weapons?).") for name in sc.weapons if name not in carried]


def problems(sc: Scenario) -> Faults:
    """Every cross-field fault with its field path: ids used twice (terrain, points, units
    and teams together), a team's weapon key that is not in ``weapons``, teams, terrain and
    named points off the table, a gun or tank set up in very difficult going only infantry
    may stand in (Moving), each side with a unit, the victory objective a named point, and
    weapons no team carries (a typo in a key)."""
    out = _ids_used_twice(sc) + _places_off_the_table(sc)
    for i, unit in enumerate(sc.units):
        for j, team in enumerate(unit.teams):
            out += _team_faults(sc, ("units", i, "teams", j), team)
    return out + _sides_and_objective(sc) + _weapons_not_carried(sc) + _start_faults(sc)


#: The file format of a platoon skirmish scenario (issue 27).
FORMAT = ScenarioFormat(model=Scenario, builtin=builtin_text, problems=problems,
                        units=lambda data: scenariofile.count(data, "units", "units.teams"))

