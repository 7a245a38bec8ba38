"""What stands on the table now, as shapes: obstacles, cover, targets and bases.

Measurements are centre to centre between units (every base is 1" across), and from a unit's
centre to the edge of a piece of terrain; a unit touches terrain when its base does.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from types import MappingProxyType

from rules.commando.scenario import TargetSpec, TerrainSpec, load_scenario
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


def obstacles(state: RaidState) -> Mapping[str, table.Shape]:
    """Shapes no base may enter: water, barbed wire (Barbed Wire) and standing targets.

    Shared and read-only (built once per table, wire and targets standing): copy to change.
    """
    return _obstacles(state.scenario, tuple(state.wire_removed), tuple(state.destroyed))


@lru_cache(maxsize=256)
def _obstacles(scenario: str, removed: tuple[str, ...], destroyed: tuple[str, ...]) -> (
    Mapping[str, table.Shape]
):
    scen = load_scenario(scenario)
    shapes = {t.id: t.shape() for t in scen.terrain if t.blocks and t.id not in removed}
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
    """The cover a target has against a shooter: the piece, and whether the target stands in
    it (its base touches it) or only the line of fire crosses it."""

    name: str
    crossed: bool = False

    def words(self) -> str:
        """As a shot's line says it: ``in Crates``, or ``through Crates`` for cover that lies
        on the line of fire while the target stands clear of it."""
        return f"{'through' if self.crossed else 'in'} {self.name}"


def in_cover(state: RaidState, shooter: UnitState, target: UnitState) -> Cover | None:
    """The cover the target has against ``shooter``, or None (Shooting).

    A target is in cover when its base touches a building or cover piece, or when the line of
    fire passes through one the shooter is not itself in.  A shooter is *in* a piece only when
    its centre is inside it: a base touching a building's wall from outside fires through the
    building, so a target behind it has its cover.
    """
    shapes = cover_shapes(state)
    for key, shape in shapes.items():
        if table.distance_to_shape(target.pos, shape) <= BASE_RADIUS:
            return Cover(feature_name(state, key))
    for key, shape in shapes.items():
        if inside(shooter.pos, shape):
            continue
        if table.segment_crosses(shooter.pos, target.pos, shape):
            return Cover(feature_name(state, key), crossed=True)
    return None


def inside(point: table.Point, shape: table.Shape) -> bool:
    """Whether ``point`` (a base's centre) is inside ``shape``, not merely touching it."""
    return table.distance_to_shape(point, shape) <= table.EPS


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
