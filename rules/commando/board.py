"""What stands on the table now, as shapes: obstacles, cover, targets and bases.

Measurements are centre to centre between units (every base is 1" across), and from a unit's
centre to the edge of a piece of terrain; a unit touches terrain when its base does.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType

from rules.commando.scenario import VEHICLES, TargetSpec, TerrainSpec, load_scenario
from rules.commando.state import RaidState, UnitState
from rules.core import table

#: Every base is a 1" disc (our stand-in; the text does not size bases).
BASE_RADIUS = 0.5
#: Two bases touch when their centres are this close.
CONTACT = 2 * BASE_RADIUS
#: Slack for "in contact": a base stopped against something is within this of touching it.
TOUCH_SLACK = 0.05


def terrain(state: RaidState) -> list[TerrainSpec]:
    """Terrain still on the table (removed wire is gone)."""
    return [t for t in state.table.terrain if t.id not in state.wire_removed]


def live_targets(state: RaidState) -> list[TargetSpec]:
    """Demolition targets not yet destroyed."""
    return [t for t in state.table.targets if t.id not in state.destroyed]




def obstacles(state: RaidState, kind: str | None = None) -> Mapping[str, table.Shape]:
    """Shapes no base of a ``kind`` unit may enter: water, barbed wire (Barbed Wire) and
    standing targets; for a vehicle, buildings too.

    Movement: "Commando units and German infantry units move 6 inches ... There are no
    deductions for moving in built up areas, cover": the text lets men on foot move through
    built-up areas and gives vehicles no such leave, so an armoured car, truck, motor-cycle or
    half-track drives round a building, never into it.  Shared and read-only (built once per
    table, wire and targets standing): copy to change.
    """
    return _obstacles(state.scenario, tuple(state.wire_removed), tuple(state.destroyed),
                      kind in VEHICLES)


@lru_cache(maxsize=256)
def _obstacles(scenario: str, removed: tuple[str, ...], destroyed: tuple[str, ...],
               vehicle: bool) -> Mapping[str, table.Shape]:
    scen = load_scenario(scenario)
    shapes = {t.id: t.shape() for t in scen.terrain
              if (t.blocks or (vehicle and t.kind == "building")) and t.id not in removed}
    shapes.update({t.id: t.shape() for t in scen.targets if t.id not in destroyed})
    return MappingProxyType(shapes)


def bases(state: RaidState, side: str, leave_out: str | None = None) -> Mapping[str, table.Shape]:
    """The bases of ``side``'s living units as discs (what a move of the other side touches).

    Shared and read-only (built once per arrangement of those bases).
    """
    found = tuple((u.id, u.x, u.y) for u in state.alive(side) if u.id != leave_out)
    return _discs(found)


@lru_cache(maxsize=1024)
def _discs(found: tuple[tuple[str, float, float], ...]) -> Mapping[str, table.Shape]:
    return MappingProxyType({key: table.Circle((x, y), BASE_RADIUS) for key, x, y in found})


def cover_shapes(state: RaidState) -> dict[str, table.Shape]:
    """Buildings and cover pieces (Shooting: -1 if the target is in cover)."""
    return {t.id: t.shape() for t in terrain(state) if t.cover}


def wire(state: RaidState) -> dict[str, TerrainSpec]:
    """Wire sections still standing, by id."""
    return {t.id: t for t in terrain(state) if t.kind == "wire"}


def feature_name(state: RaidState, key: str) -> str:
    """The name of a terrain piece, target or unit, for event lines."""
    specs: list[TerrainSpec | TargetSpec] = [*state.table.terrain, *state.table.targets]
    for spec in specs:
        if spec.id == key:
            return spec.name
    return key


def touching(unit: UnitState, shape: table.Shape) -> bool:
    """Whether the unit's base touches ``shape`` (Demolition, Barbed Wire: "in contact")."""
    return table.distance_to_shape(unit.pos, shape) <= BASE_RADIUS + TOUCH_SLACK


@dataclass(frozen=True)
class Cover:
    """The cover a target stands in: the building or cover piece its base touches."""

    name: str

    def words(self) -> str:
        """As a shot's line says it: ``in Crates``."""
        return f"in {self.name}"


def in_cover(state: RaidState, target: UnitState) -> Cover | None:
    """The cover the target stands in, or None (Shooting: "-1 if the target unit in cover").

    The rule counts cover the *target* is in: its base touches a building or cover piece.  A
    piece that only lies on the line of fire, the target standing clear of it, gives nothing
    (the text has no line of fire through cover).
    """
    for key, shape in cover_shapes(state).items():
        if table.distance_to_shape(target.pos, shape) <= BASE_RADIUS:
            return Cover(feature_name(state, key))
    return None


def target_named(state: RaidState, label: str) -> TargetSpec | None:
    """The demolition target called ``label`` (id or name, any case), destroyed or not."""
    key = label.casefold()
    return next((t for t in state.table.targets
                 if key in (t.id.casefold(), t.name.casefold())), None)


def named_points(state: RaidState) -> dict[str, table.Point]:
    """Places a player may name: landing points and the centres of targets and wire
    sections, by id and name."""
    return _named_points(state.scenario)


@lru_cache(maxsize=None)
def _named_points(scenario: str) -> dict[str, table.Point]:
    # The named places are the scenario's, fixed for the whole game: built once per table.
    scen = load_scenario(scenario)
    out: dict[str, table.Point] = {}
    for point in scen.points:
        out[point.id] = (point.x, point.y)
        out[point.name] = (point.x, point.y)
    for target in scen.targets:
        centre = table.shape_centre(target.shape())
        out[target.id] = centre
        out[target.name] = centre
    for piece in scen.terrain:
        if piece.kind == "wire":  # Barbed Wire: a unit goes to touch it to remove it
            centre = table.shape_centre(piece.shape())
            out[piece.id] = centre
            out[piece.name] = centre
    return out


def contact_shape(state: RaidState, label: str) -> tuple[str, table.Shape] | None:
    """The name and shape of the standing demolition target or wire section called
    ``label`` (a move there goes into contact with it), or None."""
    key = label.casefold()
    target = target_named(state, label)
    if target is not None and target.id not in state.destroyed:
        return target.name, target.shape()
    for piece in terrain(state):
        if piece.kind == "wire" and key in (piece.id.casefold(), piece.name.casefold()):
            return piece.name, piece.shape()
    return None


def unit_points(state: RaidState) -> dict[str, table.Point]:
    """Living units' positions by id (a unit is a place too)."""
    return {u.id: u.pos for u in state.alive()}


def place(state: RaidState, text: str, origin: table.Point | None) -> table.Place:
    """Resolve a typed place (x,y / heading:inches / unit / named point) on this table."""
    return table.parse_place(text, origin, named_points(state), unit_points(state))
