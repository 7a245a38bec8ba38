"""Raid and Riposte scenario data: the map's areas, the counters, setup and reinforcements.

The rulebook prints procedures, not the map art or the counters' values, so the Tannenbruck
scenario is authored in ``data/tannenbruck.json`` and validated by these models.  Every value
the text does not give is marked ``stand_in`` there, so a group that owns the game can type in
its own.  Geometry (adjacency, range, line of sight) is *computed* from the polygons by
:mod:`rules.core.areas`, never typed twice.
"""

from __future__ import annotations

from functools import cached_property
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from rules.core import bounds, scenariofile
from rules.core.areas import AreaGraph, AreaShape
from rules.core.scenariofile import Loc, ScenarioFormat

Side = Literal["nato", "soviet"]
Nation = Literal["de", "us", "su"]  # 2.0: West German (gray), American (green), Soviet (red)
Point = bounds.Point


class AreaSpec(BaseModel):
    """One numbered map area (5.0)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    name: str = ""
    terrain: Literal["clear", "woods", "city", "river", "fields", "hills"]
    tm: int = Field(ge=-1, le=2)  # 5.2: printed +2 to -1
    polygon: bounds.Outline
    centre: Point  # 7.3.2: the centre dot, not always the middle of the area
    city: bool = False  # part of Tannenbruck (9.2 sniper, 11.0 Territorialheer)
    east_of_river: bool = False
    #: 7.3.2: an area "containing buildings or trees" blocks line of sight through it.
    blocks_los: bool = False


class UnitValues(BaseModel):
    """The printed values of one side of a counter (2.0), within what the rules can roll
    against (issue 46: a club's own counters are held to them): the combat modifiers are
    added to a 2d6 roll (7.3.3), the Defense Factor and Morale are 2d6 targets (7.3.3, 6.2),
    action points are spent one an action (7.1); 0 where the counter prints none."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    rcm: int = Field(ge=-3, le=6)
    acm: int | None = Field(ge=-3, le=6)  # None: an asterisk, cannot initiate or support assault (7.3.5)
    df: int = Field(ge=-3, le=12)  # 0: none printed (leaders, the sniper)
    morale: int = Field(ge=0, le=12)
    ap: int = Field(ge=0, le=6)


class UnitStart(BaseModel):
    """A counter's condition when the game begins (issue 46): on its reduced side (2.0), and
    Suppressed or Recovering (6.2.1: at most one of them)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    reduced: bool = False
    status: Literal["ok", "suppressed", "recovering"] = "ok"


class GameStart(BaseModel):
    """Where play begins (issue 46): the first turn played, and its first phase: the rally
    phase (6.2, the whole turn) or the operations phase (7.0: initiative rolled, no rally)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    turn: int = Field(default=1, ge=1, le=20)
    phase: Literal["rally", "operations"] = "rally"


class UnitSpec(BaseModel):
    """One counter of 11.0 with both its sides."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str  # short id typed on a phone, e.g. "VDV-1"
    name: str
    side: Side
    nation: Nation
    #: What special rules apply: "infantry", "tank", "recon", "mortar", "atgm", "at_gun",
    #: "ags17", "leader", "hq", "sniper", "hind", ...
    kind: str
    #: The named unit for chapter 9/10 rules: "nikolas", "boyes", "koval", "luchs", "t12",
    #: "kastet", "sagger", "tow", "sniper", "hind", "hq", "territorial", "spetsnaz", "vdv"...
    special: str | None = None
    stacking: int = Field(ge=0, le=6)  # 5.1: 0 = no stacking points shown
    vehicle: bool = False  # a vehicle illustration (9.5, 9.6)
    full: UnitValues
    reduced: UnitValues | None = None  # None: a one-step unit, eliminated by a reduction
    #: For ATGM teams and the Kastet: the unit they stay with (9.3, 9.4).
    attached_to: str | None = None
    stand_in: bool = True  # values are ours, not the printed counter's
    start: UnitStart = UnitStart()  # issue 46: its condition when the game begins


class Deployment(BaseModel):
    """Units that start on the map (11.0 setup) or arrive later (reinforcements)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    side: Side
    units: list[str]
    areas: list[str]  # allowed areas
    turn: int = 0  # 0: initial setup
    #: "setup": deployed before turn 1; "enter": pays an AP to enter (11.0 note);
    #: "place": placed without an AP (11.0 note); "place_us_only": 11.0 turn 5 mortar;
    #: "city_east": 11.0 turn 6 Territorialheer.
    mode: Literal["setup", "enter", "place", "place_us_only", "city_east"] = "setup"
    note: str = ""


class Scenario(BaseModel):
    """A whole Raid and Riposte scenario."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    key: str
    title: str
    turns: int = 7  # 11.0
    width: bounds.MapSide
    height: bounds.MapSide
    areas: list[AreaSpec]
    rivers: list[bounds.Outline] = Field(default_factory=list)
    bridges: list[bounds.Outline] = Field(default_factory=list)
    units: list[UnitSpec]
    deployments: list[Deployment]
    #: 11.0: the Soviets must have at least one stacking point in this area at setup.
    soviet_required_area: str = "7"
    main_objective: str = "19"  # 12.0: area 19 and every area adjacent to it
    secondary_objectives: list[str] = Field(default_factory=lambda: ["26", "28", "29", "30"])
    cadre_area: str = "29"  # 7.3.6
    #: 9.11: the Luchs's DF reduction is not printed; our stand-in figure.
    luchs_df_penalty: int = 1
    stand_ins: str = ""  # prose: which values are ours
    #: Counters that are never deployed in an area: the sniper (9.2) is laid on a target for
    #: one impulse, the Hind (10.2) is placed afresh each turn it is available.
    off_map_units: list[str] = Field(default_factory=list)
    start: GameStart = GameStart()  # issue 46: a game begun at a later turn or phase

    #: Issue 45: each list within the limits of scale, counted before its entries are read.
    _pieces = field_validator("areas", "rivers", "bridges", "units", "deployments", "off_map_units", mode="before")(bounds.pieces)

    @model_validator(mode="after")
    def _scale(self) -> "Scenario":
        # Issue 45: a map no picture can show, or more units than a battle has, is refused
        # before the cross-field checks walk it and before anything is drawn.
        bounds.table_shape(self.width, self.height)
        bounds.units_in_all(len(self.units))
        bounds.corners_in_all([a.polygon for a in self.areas] + self.rivers + self.bridges)
        return self

    @cached_property
    def area_by_id(self) -> dict[str, AreaSpec]:
        """Areas by id."""
        return {a.id: a for a in self.areas}

    @cached_property
    def unit_by_id(self) -> dict[str, UnitSpec]:
        """Counters by id."""
        return {u.id: u for u in self.units}

    @cached_property
    def deployment_by_unit(self) -> dict[str, Deployment]:
        """The setup or reinforcement entry that brings each counter in (the first naming it)."""
        out: dict[str, Deployment] = {}
        for deployment in self.deployments:
            for uid in deployment.units:
                out.setdefault(uid, deployment)
        return out

    @cached_property
    def graph(self) -> AreaGraph:
        """Adjacency (7.2), range (7.3.1) and line of sight (7.3.2), computed from the polygons."""
        return AreaGraph(
            AreaShape.of(a.id, a.polygon, a.centre, a.blocks_los) for a in self.areas
        )

    @cached_property
    def main_objective_areas(self) -> frozenset[str]:
        """12.0: the main objective and every area adjacent to it (NATO must hold them all)."""
        return self.graph.adjacent(self.main_objective) | {self.main_objective}

    @cached_property
    def city_areas(self) -> frozenset[str]:
        """The areas of Tannenbruck (9.2: the sniper may only shoot at units there)."""
        return frozenset(a.id for a in self.areas if a.city)

    @cached_property
    def city_east_areas(self) -> frozenset[str]:
        """11.0 turn 6: the city areas east of the river (the Territorialheer arrives there)."""
        return frozenset(a.id for a in self.areas if a.city and a.east_of_river)

    @cached_property
    def entrances(self) -> dict[str, list[tuple[Side, int]]]:
        """Reinforcement entrances (11.0): area -> [(side, turn)], as the map's circles show."""
        out: dict[str, list[tuple[Side, int]]] = {}
        for deployment in self.deployments:
            if deployment.mode == "enter":
                for area in deployment.areas:
                    out.setdefault(area, []).append((deployment.side, deployment.turn))
        return out


#: The text of a shipped scenario by key (``data/<key>.json``).
builtin_text = scenariofile.builtin_reader("rules.rr")
#: A scenario by key: a file registered under it (issue 27), else the shipped one; cached.
load_scenario = scenariofile.cached_loader("rr", Scenario, builtin_text)


def _on_edge(area: AreaSpec, sc: Scenario, margin: float = 1.0) -> bool:
    """Whether an area reaches the map's edge (11.0: reinforcements enter from off the map)."""
    return any(x <= margin or y <= margin or x >= sc.width - margin or y >= sc.height - margin
               for x, y in area.polygon)


def problems(sc: Scenario) -> list[tuple[Loc, str]]:
    """What the model alone cannot check: ids used twice, areas and units that do not exist,
    areas that touch no other (7.2: a unit could never leave), reinforcements entering
    (11.0) from an area that is not on the map's edge, objectives (12.0) off the map, and a
    set-up the Soviets could never finish (11.0)."""
    out = scenariofile.duplicates([(("areas", i, "id"), a.id) for i, a in enumerate(sc.areas)], "area id")
    out += scenariofile.duplicates([(("units", i, "id"), u.id) for i, u in enumerate(sc.units)], "unit id")
    if out:
        return out  # the map's geometry needs every id once
    try:
        graph = AreaGraph(AreaShape.of(a.id, a.polygon, a.centre, a.blocks_los) for a in sc.areas)
    except ValueError as exc:  # an outline that is not a polygon, a centre dot outside it
        return [_outline_problem(sc, exc)]
    placed, found = _deployment_problems(sc)
    return (out + _map_problems(sc, graph) + found + _unit_problems(sc, placed)
            + _area_field_problems(sc) + _setup_area_problems(sc) + _start_problems(sc))


def _start_problems(sc: Scenario) -> list[tuple[Loc, str]]:
    """Issue 46: a counter begins reduced only if it has a reduced side (2.0: one without is
    eliminated by a reduction); the first turn is one of the game's, and no reinforcement
    (11.0) is due before it, since it would never arrive."""
    out: list[tuple[Loc, str]] = []
    for i, unit in enumerate(sc.units):
        if unit.start.reduced and unit.reduced is None:
            out.append((("units", i, "start", "reduced"), f"{unit.id} has no reduced side, so "
                        "a reduction eliminates it (2.0); give it reduced values or start it full."))
    first = sc.start.turn
    if first > sc.turns:
        out.append((("start", "turn"), f"the game has {sc.turns} turns; it cannot begin on turn {first}."))
    for i, dep in enumerate(sc.deployments):
        if dep.mode != "setup" and 0 < dep.turn < first:
            out.append((("deployments", i, "turn"), f"these units arrive on turn {dep.turn}, before "
                        f"the game begins on turn {first}; set them up (mode: setup) or bring "
                        f"them on turn {first} or later (11.0)."))
    return out


def _outline_problem(sc: Scenario, exc: ValueError) -> tuple[Loc, str]:
    """The area whose outline or centre dot the geometry refused, named with the rule."""
    index = next((i for i, a in enumerate(sc.areas) if f"area {a.id}'" in str(exc)), None)
    return (("areas",) if index is None else ("areas", index), f"{exc} (7.3.2: the centre "
            "dot lies inside its area's outline of 3 or more corners).")


def _map_problems(sc: Scenario, graph: AreaGraph) -> list[tuple[Loc, str]]:
    """7.2: every centre dot on the map, every area touching another, the map in one piece."""
    out: list[tuple[Loc, str]] = []
    start = sc.areas[0].id if sc.areas else None
    for i, area in enumerate(sc.areas):
        if not (0 <= area.centre[0] <= sc.width and 0 <= area.centre[1] <= sc.height):
            out.append((("areas", i, "centre"), f"area {area.id}'s centre is off the map "
                        f"(0-{sc.width:g} by 0-{sc.height:g})."))
        if len(sc.areas) > 1 and not graph.adjacent(area.id):
            out.append((("areas", i, "polygon"), f"area {area.id} touches no other area; areas "
                        "are adjacent when their outlines share a side or a corner (7.2)."))
        elif start is not None and not graph.reachable(start, area.id):
            out.append((("areas", i, "polygon"), f"area {area.id} cannot be reached from area "
                        f"{start}: the map is in separate pieces (7.2)."))
    return out


def _deployment_problems(sc: Scenario) -> tuple[dict[str, Loc], list[tuple[Loc, str]]]:
    """Each deployment's units (real, of its side, deployed once) and areas (on the map; an
    entrance on its edge, 11.0); with where each unit is first deployed."""
    placed: dict[str, Loc] = {}
    out: list[tuple[Loc, str]] = []
    for i, dep in enumerate(sc.deployments):
        for j, uid in enumerate(dep.units):
            loc: Loc = ("deployments", i, "units", j)
            why = _deployed_unit_problem(sc, dep, uid, placed)
            if why:
                out.append((loc, why))
            placed.setdefault(uid, loc)
        out += [(("deployments", i, "areas", j), why) for j, aid in enumerate(dep.areas)
                if (why := _deployment_area_problem(sc, dep, aid))]
    return placed, out


def _deployed_unit_problem(sc: Scenario, dep: Deployment, uid: str, placed: dict[str, Loc]) -> str | None:
    """Why ``uid`` cannot be in ``dep``: no such unit, the other side's, already deployed."""
    units = sc.unit_by_id
    if uid not in units:
        return f"'{uid}' is not a unit of this scenario; units: {scenariofile.one_of(units)}."
    if units[uid].side != dep.side:
        return f"{uid} is a {units[uid].side} unit, deployed with the {dep.side}."
    if uid in placed:
        return f"{uid} is deployed twice (also at {scenariofile.path_text(placed[uid])})."
    return None


def _deployment_area_problem(sc: Scenario, dep: Deployment, aid: str) -> str | None:
    """Why ``aid`` cannot be one of ``dep``'s areas: not on the map, or an entrance (11.0)
    that does not reach the map's edge."""
    areas = sc.area_by_id
    if aid not in areas:
        return f"'{aid}' is not an area of the map; areas: {scenariofile.one_of(areas)}."
    if dep.mode == "enter" and not _on_edge(areas[aid], sc):
        edge = [a.id for a in sc.areas if _on_edge(a, sc)]
        return (f"reinforcements enter from off the map (11.0), but area {aid} does not reach "
                f"the map's edge; areas on the edge: {scenariofile.one_of(edge)}.")
    return None


def _unit_problems(sc: Scenario, placed: dict[str, Loc]) -> list[tuple[Loc, str]]:
    """Every counter attached to a real unit (9.3, 9.4), and deployed or listed off the map."""
    units = sc.unit_by_id
    out: list[tuple[Loc, str]] = []
    for i, unit in enumerate(sc.units):
        if unit.attached_to is not None and unit.attached_to not in units:
            out.append((("units", i, "attached_to"), f"'{unit.attached_to}' is not a unit; units: {scenariofile.one_of(units)}."))
        if unit.id not in placed and unit.id not in sc.off_map_units:
            out.append((("units", i, "id"), f"{unit.id} is in no deployment and not off the map; "
                        "list it in a deployment or in off_map_units."))
    for i, uid in enumerate(sc.off_map_units):
        if uid not in units:
            out.append((("off_map_units", i), f"'{uid}' is not a unit of this scenario; units: {scenariofile.one_of(units)}."))
    return out


def _area_field_problems(sc: Scenario) -> list[tuple[Loc, str]]:
    """The named areas (11.0 set-up, 12.0 objectives, 7.3.6 cadre) are areas of the map."""
    areas = sc.area_by_id
    named: list[tuple[Loc, str]] = [((field,), getattr(sc, field))
                                    for field in ("soviet_required_area", "main_objective", "cadre_area")]
    named += [(("secondary_objectives", i), aid) for i, aid in enumerate(sc.secondary_objectives)]
    return [(loc, f"'{aid}' is not an area of the map; areas: {scenariofile.one_of(areas)}.")
            for loc, aid in named if aid not in areas]


def _setup_area_problems(sc: Scenario) -> list[tuple[Loc, str]]:
    """11.0: "The Soviets must have at least one stacking point in area 7" at set-up: the
    required area must be a Soviet set-up area of a unit that has stacking points, or the
    Soviets could never finish set-up (``ready`` refused for ever)."""
    required = sc.soviet_required_area
    if required not in sc.area_by_id:
        return []  # told once, by _area_field_problems
    setups = [d for d in sc.deployments if d.side == "soviet" and d.mode == "setup"]
    zones = sorted({a for d in setups for a in d.areas}, key=_area_order)
    able = [uid for d in setups if required in d.areas for uid in d.units
            if uid in sc.unit_by_id and sc.unit_by_id[uid].stacking > 0]
    if able:
        return []
    if required not in zones:
        why = (f"area {required} is in no Soviet set-up zone; Soviet units set up in: "
               f"{scenariofile.one_of(zones) if zones else 'no area'}")
    else:
        why = f"no Soviet unit with stacking points may set up in area {required}"
    return [(("soviet_required_area",), f"the Soviets must set up at least one stacking point "
             f"in area {required} (11.0), but {why}; the game could never begin.")]


def _area_order(aid: str) -> tuple[int, str]:
    """Area ids in map order: numbers as numbers, then any others by name."""
    return (int(aid), "") if aid.isdigit() else (10**9, aid)


#: The file format of a Raid and Riposte scenario (issue 27).
FORMAT = ScenarioFormat(model=Scenario, builtin=builtin_text, problems=problems,
                        units=lambda data: scenariofile.count(data, "units"))
