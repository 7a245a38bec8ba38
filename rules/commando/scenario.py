"""Commando raid scenario data: the table, its terrain, targets, named points and forces.

The rulebook gives procedures and distances but no table, so the St Nazaire-style raid is
authored in ``data/st_nazaire.json`` and validated by these models.  Every value the text does
not give (positions, sizes, target points, game length) is ours and marked ``stand_in`` in the
file, so a group can lay out its own table.  Coordinates are inches from the top-left corner as
drawn, ``x`` east, ``y`` south (see :mod:`rules.core.table`).
"""

from __future__ import annotations

from functools import cached_property
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from rules.core import bounds, table
from rules.core import scenariofile
from rules.core.scenariofile import Loc, ScenarioFormat

Side = Literal["commandos", "germans"]
#: What a unit is, which decides its move, its save modifier and what it may do.
UnitKind = Literal[
    "assault",  # commando assault unit: may fight hand to hand
    "demolition",  # commando demolition unit: may demolish targets
    "mortar",  # commando 2" mortar team
    "infantry",  # German infantry
    "armoured_car",
    "half_track",
    "truck",
    "motorcycle",
    "pillbox",
    "searchlight",
]
TerrainKind = Literal["water", "building", "wire", "cover", "quay"]
Point = bounds.Point
#: Units that drive (Movement: 12" a move action); they may not enter buildings.
VEHICLES = frozenset({"armoured_car", "truck", "motorcycle", "half_track"})


def _one_point_each() -> dict[Side, int]:
    return {"commandos": 1, "germans": 1}


class ShapeSpec(BaseModel):
    """A polygon or a circle on the table."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    polygon: bounds.Outline = Field(default_factory=list)
    circle: tuple[bounds.Coordinate, bounds.Coordinate, bounds.Length] | None = None  # x, y, radius

    @model_validator(mode="after")
    def _one_shape(self) -> "ShapeSpec":
        if (len(self.polygon) >= 3) == (self.circle is not None):
            raise ValueError("give either a polygon of 3+ corners or a circle, not both")
        return self

    def shape(self) -> table.Shape:
        """The geometry of this shape (built once; the spec is frozen)."""
        return self._shape

    @cached_property
    def _shape(self) -> table.Shape:
        if self.circle is not None:
            x, y, r = self.circle
            return table.Circle((x, y), r)
        return table.Polygon.of(self.polygon)


class TerrainSpec(ShapeSpec):
    """A piece of terrain: water and wire block movement, buildings and cover give cover."""

    id: str
    name: str
    kind: TerrainKind
    stand_in: bool = True

    @property
    def blocks(self) -> bool:
        """Water and barbed wire cannot be crossed (Barbed Wire)."""
        return self.kind in ("water", "wire")

    @property
    def cover(self) -> bool:
        """Buildings and cover give the -1 to shots at units in or behind them (Shooting)."""
        return self.kind in ("building", "cover")


class TargetSpec(ShapeSpec):
    """A demolition target (Demolition); solid, touched by the demolition unit."""

    id: str
    name: str
    points: int = Field(ge=0)  # victory points for the commandos when destroyed (stand-in)
    gun: bool = False  # a gun emplacement: never fires at ground units (Shooting)
    stand_in: bool = True


class PointSpec(BaseModel):
    """A named point, e.g. a landing point."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    name: str
    x: bounds.Coordinate
    y: bounds.Coordinate
    landing: bool = False
    stand_in: bool = True


class UnitSpec(BaseModel):
    """One unit (a base) and where it starts."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    name: str
    side: Side
    kind: UnitKind
    officer: bool = False  # Officers: may direct another unit instead of activating
    x: bounds.Coordinate
    y: bounds.Coordinate
    facing: scenariofile.Facing | None = None  # on the table: 0 = east, 90 = south; or N, SE...
    stand_in: bool = True
    #: Issue 46, a unit of the club's own: inches per move action (Movement prints 6" for
    #: foot and 12" for vehicles; none: its kind's), and whether shots at it take the
    #: armoured -1 (Shooting; none: armoured cars and half-tracks do).
    move: float | None = Field(default=None, ge=1, le=12)
    armoured: bool | None = None

    @model_validator(mode="after")
    def _fits_side(self) -> "UnitSpec":
        commando = self.kind in ("assault", "demolition", "mortar")
        if commando != (self.side == "commandos"):
            raise ValueError(f"{self.id}: a {self.kind} unit cannot be on the {self.side} side "
                             "(commandos: assault, demolition, mortar; germans: infantry, "
                             "armoured_car, half_track, truck, motorcycle, pillbox, searchlight)")
        if self.kind == "pillbox" and self.facing is None:
            raise ValueError(f"{self.id}: a pillbox needs a facing for its 180 degree arc "
                             "(degrees on the table: 0 east, 90 south, 180 west, 270 north)")
        return self


class VictorySpec(BaseModel):
    """How the raid is scored: targets destroyed and units lost (stand-in values)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    #: Points the *other* side scores for each unit a side loses.
    loss_points: dict[Side, int] = Field(default_factory=_one_point_each)
    stand_in: bool = True


class RaidStart(BaseModel):
    """Where the raid begins (issue 46): a later turn, the side whose part of it comes first
    (Turns: the commandos, then the Germans), targets already blown (Demolition) and wire
    already cut (Barbed Wire)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    turn: int = Field(default=1, ge=1, le=30)
    side: Side = "commandos"
    destroyed: list[str] = Field(default_factory=list)
    wire_removed: list[str] = Field(default_factory=list)


class Scenario(BaseModel):
    """A whole table: size, terrain, targets, named points, forces, length and victory."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str
    title: str
    note: str = ""
    width: bounds.TableSide
    height: bounds.TableSide
    turns: int = Field(ge=1, le=30)
    turns_stand_in: bool = True
    terrain: list[TerrainSpec]
    targets: list[TargetSpec]
    points: list[PointSpec]
    units: list[UnitSpec]
    victory: VictorySpec = VictorySpec()
    start: RaidStart = RaidStart()  # issue 46

    #: Issue 45: each list within the limits of scale, counted before its entries are read.
    _pieces = field_validator("terrain", "targets", "points", "units", mode="before")(bounds.pieces)

    @model_validator(mode="after")
    def _scale(self) -> "Scenario":
        # Issue 45: a table no picture can show, or more units than a battle has, is refused
        # before the cross-field checks walk it and before anything is drawn.
        bounds.table_shape(self.width, self.height)
        bounds.units_in_all(len(self.units))
        bounds.corners_in_all([s.polygon for s in [*self.terrain, *self.targets]])
        return self

    @model_validator(mode="after")
    def _consistent(self, info: ValidationInfo) -> "Scenario":
        # Ids once, units on the table and out of water, wire and targets: see problems().
        return scenariofile.cross_checked(self, info, problems)


#: The text of a shipped scenario by key (``data/<key>.json``).
builtin_text = scenariofile.builtin_reader("rules.commando")
#: A scenario by key: a file registered under it (issue 27), else the shipped one; cached.
load_scenario = scenariofile.cached_loader("commando", Scenario, builtin_text)


def problems(sc: Scenario) -> list[tuple[Loc, str]]:
    """Every cross-field fault with its field path: ids used twice (across terrain, targets,
    points and units), a unit set up off the table or inside water, wire (Barbed Wire) or a
    target, named points and targets off the table, a side with no unit."""
    out = scenariofile.duplicates(
        [(("terrain", i, "id"), t.id) for i, t in enumerate(sc.terrain)]
        + [(("targets", i, "id"), t.id) for i, t in enumerate(sc.targets)]
        + [(("points", i, "id"), p.id) for i, p in enumerate(sc.points)]
        + [(("units", i, "id"), u.id) for i, u in enumerate(sc.units)])
    size = f"the table is 0-{sc.width:g} by 0-{sc.height:g} inches"
    blockers: list[tuple[str, int, TerrainSpec | TargetSpec]] = \
        [("terrain", i, t) for i, t in enumerate(sc.terrain) if t.blocks]
    blockers += [("targets", i, t) for i, t in enumerate(sc.targets)]
    vehicle_blockers: list[tuple[str, int, TerrainSpec | TargetSpec]] = \
        [("terrain", i, t) for i, t in enumerate(sc.terrain) if t.kind == "building"]
    for i, unit in enumerate(sc.units):
        if not table.on_table((unit.x, unit.y), sc.width, sc.height, 0.5):
            field = "x" if not 0.5 <= unit.x <= sc.width - 0.5 else "y"
            out.append((("units", i, field), f"{unit.id} at {unit.x:g},{unit.y:g} starts off the "
                        f"table; {size}, and a base stays 0.5\" inside its edges."))
            continue
        out += _start_inside(unit, i, blockers + vehicle_blockers if unit.kind in VEHICLES else blockers)
    for i, point in enumerate(sc.points):
        if not table.on_table((point.x, point.y), sc.width, sc.height):
            out.append((("points", i, "x"), f"{point.id} is off the table ({size})."))
    for i, target in enumerate(sc.targets):
        low_x, low_y, high_x, high_y = table.shape_bounds(target.shape())
        if high_x < 0 or high_y < 0 or low_x > sc.width or low_y > sc.height:
            out.append((("targets", i), f"target {target.id} is off the table ({size})."))
    for side in ("commandos", "germans"):
        if not any(u.side == side for u in sc.units):
            out.append((("units",), f"the {side} have no unit; each side needs one at least."))
    return out + _start_problems(sc)


def _start_inside(unit: UnitSpec, i: int,
                  blockers: list[tuple[str, int, TerrainSpec | TargetSpec]]) -> list[tuple[Loc, str]]:
    """The fault of a unit set up inside what it may not enter: water, wire, a target, and a
    building for a vehicle (Movement: only men on foot move in built-up areas)."""
    for kind, j, blocker in blockers:
        if table.distance_to_shape((unit.x, unit.y), blocker.shape()) < 0.5 - 1e-6:
            what = f"{blocker.kind} ({kind}[{j}])" if isinstance(blocker, TerrainSpec) else "a target"
            return [(("units", i, "x"), f"{unit.id} starts inside {blocker.id}, {what}: "
                     "no unit stands in water, wire or a target, nor a vehicle in a building; "
                     "move its x,y clear.")]
    return []


def _start_problems(sc: Scenario) -> list[tuple[Loc, str]]:
    """Issue 46: targets blown and wire cut before play are targets and wire of the table;
    the first turn is one of the game's; a unit's own speed is for a unit that moves."""
    out: list[tuple[Loc, str]] = []
    targets = [t.id for t in sc.targets]
    wire = [t.id for t in sc.terrain if t.kind == "wire"]
    for field, known, what in (("destroyed", targets, "a target"), ("wire_removed", wire, "a wire section")):
        for i, ident in enumerate(getattr(sc.start, field)):
            if ident not in known:
                out.append((("start", field, i), f"'{ident}' is not {what} of the table;"
                            f"{scenariofile.did_you_mean(ident, known)} {what.split()[-1]}s: "
                            f"{scenariofile.one_of(known)}."))
    if sc.start.turn > sc.turns:
        out.append((("start", "turn"), f"the raid has {sc.turns} turns; it cannot begin on turn {sc.start.turn}."))
    for i, unit in enumerate(sc.units):
        if unit.move is not None and unit.kind in ("pillbox", "searchlight"):
            out.append((("units", i, "move"), f"a {unit.kind} never moves (Pillboxes, Searchlights)."))
    return out


#: The file format of a commando raid scenario (issue 27).
FORMAT = ScenarioFormat(model=Scenario, builtin=builtin_text, problems=problems,
                        units=lambda data: scenariofile.count(data, "units"))

