"""View models: what a renderer draws, built by each system's ``view(state)``.

One model per geometry, shared by every system of that geometry, so ``render/`` has one
renderer per geometry and never imports a system package:

* :class:`AreaMapView`: numbered areas with polygons (Raid and Riposte);
* :class:`NetworkView`: point-to-point spaces and routes, with a battle panel (Raiders);
* :class:`TableView`: a table measured in inches (Commando raid, platoon skirmish).

Coordinates are in the view's own units (map units for areas and networks, inches for
tables); the renderer scales them.  Colours are not chosen here: ``faction`` and ``terrain``
are keys into the render palette.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

Point = tuple[float, float]


class SideStyle(BaseModel):
    """How a side or faction is told apart: a palette key and a letter (never colour alone)."""

    key: str
    label: str
    letter: str
    colour: str  # palette key, e.g. "nato_de", "nato_us", "soviet", "raider", "hostile"


class Header(BaseModel):
    """The strip across the top: title, turn, phase and short status facts."""

    title: str
    turn: int | None = None
    max_turn: int | None = None
    phase: str = ""
    facts: list[str] = Field(default_factory=list)  # "Initiative: NATO", "Airstrike: NATO"


class Mark(BaseModel):
    """Something that just happened, drawn on top: a move arrow, a fire line, an assault."""

    kind: Literal["move", "fire", "assault", "retreat", "place", "blast", "shot", "miss"]
    points: list[Point]  # from ... to, in view coordinates
    text: str = ""  # "2 hits", "18.4\"", "miss"
    side: str | None = None  # faction key of who did it


# -- areas -----------------------------------------------------------------------------------


class AreaView(BaseModel):
    """One map area."""

    id: str
    polygon: list[Point]
    centre: Point  # the centre dot (not always the middle, 7.3.2)
    terrain: str  # palette key: "clear", "woods", "city", "river", ...
    tm: int = 0
    objective: Literal["main", "secondary"] | None = None
    controller: str | None = None  # faction/side key of who controls it, for objectives
    entrance: str | None = None  # e.g. "NATO 2" on a reinforcement entrance


class CounterView(BaseModel):
    """One counter on the map."""

    id: str
    label: str  # short name for the chip, e.g. "VDV-1"
    area: str | None  # None: off map (not drawn)
    faction: str  # SideStyle key
    reduced: bool = False
    ap: int | None = None
    ap_max: int | None = None
    markers: list[str] = Field(default_factory=list)  # "suppressed", "recovering", "airstrike"
    attached_to: str | None = None  # leaders and ATGM teams ride with a unit


class LineFeature(BaseModel):
    """A river, road or bridge drawn over the areas."""

    kind: Literal["river", "bridge", "road", "rail"]
    points: list[Point]
    label: str = ""


class AreaMapView(BaseModel):
    """Everything an area-map snapshot shows."""

    kind: Literal["areamap"] = "areamap"
    header: Header
    width: float
    height: float
    areas: list[AreaView]
    lines: list[LineFeature] = Field(default_factory=list)
    counters: list[CounterView] = Field(default_factory=list)
    marks: list[Mark] = Field(default_factory=list)
    sides: list[SideStyle] = Field(default_factory=list)
    legend: list[str] = Field(default_factory=list)


# -- point-to-point networks -----------------------------------------------------------------


class SpaceView(BaseModel):
    """One space of a point-to-point map."""

    id: str
    name: str
    position: Point
    terrain: str
    staging: bool = False
    airfield: bool = False
    port: bool = False
    objective: str | None = None  # None: no marker; "?" face down; else its revealed name
    objective_done: bool = False


class RouteView(BaseModel):
    """A route between two spaces."""

    a: str
    b: str
    kind: str = "road"  # "road", "water", "air"


class UnitChip(BaseModel):
    """One unit in a force or a battle line."""

    id: str
    label: str
    faction: str
    detail: str = ""  # gear, "elite", combat value
    eliminated: bool = False


class ForceView(BaseModel):
    """A raider force (or a group of hostiles) standing in a space."""

    id: str
    space: str
    faction: str
    units: list[UnitChip]


class BattleShot(BaseModel):
    """One unit's fire in a battle round: its die and what it did."""

    unit: str
    target: str | None = None
    die: int | None = None
    result: str = ""


class BattlePanel(BaseModel):
    """The battle in progress: both lines, each unit's die and result, the Tactical Edge."""

    space: str
    round: int
    tactical_edge: str | None = None
    raiders: list[UnitChip]
    hostiles: list[UnitChip]
    shots: list[BattleShot] = Field(default_factory=list)


class Track(BaseModel):
    """A numbered track (alert level, Ops left, RP)."""

    label: str
    value: int
    minimum: int = 0
    maximum: int | None = None


class NetworkView(BaseModel):
    """Everything a point-to-point snapshot shows."""

    kind: Literal["network"] = "network"
    header: Header
    width: float
    height: float
    spaces: list[SpaceView]
    routes: list[RouteView]
    forces: list[ForceView] = Field(default_factory=list)
    tracks: list[Track] = Field(default_factory=list)
    battle: BattlePanel | None = None
    marks: list[Mark] = Field(default_factory=list)
    sides: list[SideStyle] = Field(default_factory=list)
    legend: list[str] = Field(default_factory=list)


# -- inch tables -----------------------------------------------------------------------------


class TerrainShape(BaseModel):
    """A piece of terrain on an inch table: a polygon (or a circle), with a palette key."""

    id: str
    kind: str  # "building", "water", "dock", "wire", "cover", ...
    polygon: list[Point] = Field(default_factory=list)
    circle: tuple[float, float, float] | None = None  # x, y, radius
    label: str = ""


class TableUnit(BaseModel):
    """A unit base on the table."""

    id: str
    label: str
    faction: str
    x: float
    y: float
    radius: float = 0.5  # inches
    facing: float | None = None  # degrees, 0 = +x, counter-clockwise
    arc: float | None = None  # width of the fire arc in degrees, centred on facing
    markers: list[str] = Field(default_factory=list)
    eliminated: bool = False


class NamedPoint(BaseModel):
    """A named place on the table (a landing point, a target)."""

    name: str
    x: float
    y: float


class RangeCircle(BaseModel):
    """A measured range drawn as a circle."""

    x: float
    y: float
    radius: float
    label: str = ""


class TableView(BaseModel):
    """Everything an inch-table snapshot shows."""

    kind: Literal["table"] = "table"
    header: Header
    width: float  # inches
    height: float
    grid: float = 6.0
    terrain: list[TerrainShape] = Field(default_factory=list)
    units: list[TableUnit] = Field(default_factory=list)
    points: list[NamedPoint] = Field(default_factory=list)
    circles: list[RangeCircle] = Field(default_factory=list)
    marks: list[Mark] = Field(default_factory=list)
    sides: list[SideStyle] = Field(default_factory=list)
    legend: list[str] = Field(default_factory=list)


AnyView = AreaMapView | NetworkView | TableView
