"""Line of sight, cover and going on the skirmish table (Cover & Terrain; Smoke; Moving).

Readings (README): a line is blocked by an area piece holding neither end ("may see into Area
Terrain ... but not beyond it"), by smoke unless both ends are in the same cloud, and by a
linear obstacle taller than teams unless a team at that end touches it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rules.core import table
from rules.skirmish.scenario import Cover, TerrainSpec, load_scenario
from rules.skirmish.state import SkirmishState, TeamState

#: A team "touching" a linear obstacle: its centre within this of the line, i.e. a 0.75" base
#: with a ¼" gap (stand-in).
TOUCH = 1.0
#: Points of the obstacle tried along the stretch a team touches (lines of fire to its base).
_CHORD_SAMPLES = 9
_RANK = {"none": 0, "soft": 1, "hard": 2}


def area_pieces(state: SkirmishState) -> list[TerrainSpec]:
    """Area terrain of the table (roads are not terrain)."""
    return [t for t in state.table.terrain if t.kind == "area"]


def linear_pieces(state: SkirmishState) -> list[TerrainSpec]:
    """Linear obstacles: walls, fences, bocage."""
    return [t for t in state.table.terrain if t.kind == "linear"]


def smoke_polygons(state: SkirmishState) -> list[table.Polygon]:
    """The smoke on the table now."""
    return [table.Polygon.of(s.corners) for s in state.smoke]


def pieces_at(state: SkirmishState, point: table.Point) -> list[TerrainSpec]:
    """Area pieces holding ``point``."""
    return [t for t in area_pieces(state) if table.point_in_polygon(point, t.polygon)]


def in_smoke(state: SkirmishState, point: table.Point) -> bool:
    """Whether ``point`` is inside a smoke area."""
    return any(table.point_in_polygon(point, p) for p in smoke_polygons(state))


def _area_blocks(piece: TerrainSpec, a: table.Point, b: table.Point) -> bool:
    inside = table.point_in_polygon(a, piece.polygon) or table.point_in_polygon(b, piece.polygon)
    return not inside and table.segment_crosses(a, b, piece.polygon)


def _smoke_blocks(poly: table.Polygon, a: table.Point, b: table.Point) -> bool:
    both = table.point_in_polygon(a, poly) and table.point_in_polygon(b, poly)
    return not both and table.segment_crosses(a, b, poly)


def crossing(piece: TerrainSpec, a: table.Point, b: table.Point) -> table.Point | None:
    """Where the line ``a-b`` first crosses a linear obstacle, or None."""
    hits = [
        hit for p, q in piece.segments
        if (hit := table.segment_intersection(a, b, p, q)) is not None
    ]
    return min(hits, key=lambda h: table.distance(a, h)) if hits else None


def _wall_blocks(piece: TerrainSpec, a: table.Point, b: table.Point, tall: float,
                 radius: float) -> bool:
    if piece.height <= tall:
        return False
    hit = crossing(piece, a, b)
    if hit is None:
        return False
    if table.distance(hit, a) <= TOUCH or table.distance(hit, b) <= TOUCH:
        return False
    # A team touching the obstacle sees and is seen across it where it touches it, whatever
    # the angle (the line to any part of its base, not only its centre).
    return not (behind(piece, a, b, radius) or behind(piece, b, a, radius))


def behind(piece: TerrainSpec, centre: table.Point, source: table.Point, radius: float) -> bool:
    """Whether a team at ``centre`` touches ``piece`` from the side away from ``source`` with
    a line from ``source`` to its base crossing the obstacle where the team touches it.

    "Linear Obstacles ... only offer concealment or protection if touching the obstacle from
    the opposite side of the incoming fire" (Cover & Terrain): the lines of fire go to the
    whole base, so a team lying along a wall is behind it from an oblique angle too, not only
    when the line to its centre crosses the wall near that centre.
    """
    for p, q in piece.segments:
        if table.distance_to_segment(centre, p, q) > TOUCH:
            continue
        straight = table.segment_intersection(source, centre, p, q)
        if straight is not None and table.distance(straight, centre) <= TOUCH:
            return True  # the line to its centre crosses where it touches
        along = table.sub(q, p)
        if table.cross(along, table.sub(centre, p)) * table.cross(along, table.sub(source, p)) >= 0:
            continue  # the fire comes from the team's own side of the obstacle
        for hit in _touched_stretch(p, q, centre):
            ray = table.sub(hit, source)
            span = table.length(ray)
            if span < 1e-9:
                continue
            ahead = table.add(hit, table.scale(ray, 2 * TOUCH / span))
            if table.distance_to_segment(centre, hit, ahead) <= radius + 1e-6:
                return True
    return False


def _touched_stretch(p: table.Point, q: table.Point, centre: table.Point) -> list[table.Point]:
    """Points of the segment ``p-q`` within :data:`TOUCH` of ``centre`` (the stretch of the
    obstacle the team touches), evenly spaced."""
    foot = table.closest_on_segment(centre, p, q)
    span = table.length(table.sub(q, p))
    if span < 1e-9:
        return [p]
    half = max(0.0, TOUCH ** 2 - table.distance(centre, foot) ** 2) ** 0.5
    at = table.distance(p, foot)
    lo, hi = max(0.0, at - half), min(span, at + half)
    steps = _CHORD_SAMPLES - 1
    return [table.lerp(p, q, (lo + (hi - lo) * i / steps) / span) for i in range(_CHORD_SAMPLES)]


def line_of_sight(state: SkirmishState, a: table.Point, b: table.Point) -> bool:
    """Whether a team at ``a`` sees a team at ``b`` (Cover & Terrain; Smoke)."""
    if not _terrain_sight(state.scenario, a, b):
        return False
    return not any(_smoke_blocks(p, a, b) for p in smoke_polygons(state))


@lru_cache(maxsize=1 << 16)
def _terrain_sight(scenario: str, a: table.Point, b: table.Point) -> bool:
    """Sight past the fixed terrain of a scenario (area pieces, tall obstacles): a pure
    function of the scenario and the two points, so it is remembered (offers ask it often)."""
    scen = load_scenario(scenario)
    if any(_area_blocks(t, a, b) for t in scen.terrain if t.kind == "area"):
        return False
    tall, radius = scen.team_height, scen.base_radius
    return not any(_wall_blocks(t, a, b, tall, radius) for t in scen.terrain if t.kind == "linear")


def team_cover(state: SkirmishState, target: TeamState, source: table.Point) -> Cover:
    """The cover a team has against fire from ``source`` (Cover & Terrain).

    Area terrain covers what is inside it; a linear obstacle covers a team touching it from
    the far side of the incoming fire (:func:`behind`); smoke conceals as soft cover.
    """
    best: Cover = "none"
    for piece in pieces_at(state, target.pos):
        best = _better(best, piece.cover)
    radius = state.table.base_radius
    for piece in linear_pieces(state):
        if behind(piece, target.pos, source, radius):
            best = _better(best, piece.cover)
    if in_smoke(state, target.pos):
        best = _better(best, "soft")
    return best


def _better(a: Cover, b: Cover) -> Cover:
    return a if _RANK[a] >= _RANK[b] else b


def concealed(state: SkirmishState, target: TeamState, source: table.Point) -> bool:
    """Whether a team is concealed from fire from ``source`` (Cover & Terrain).

    In soft or hard cover, in smoke, or Infantry that did not move during its last activation
    ("Concealed even in the Open").
    """
    if team_cover(state, target, source) != "none":
        return True
    return target.kind == "infantry" and target.still_last_activation


@dataclass(frozen=True)
class Going:
    """Difficult ground met along a move: the piece, how hard, where it is first met."""

    piece: TerrainSpec
    going: str
    at: table.Point
    along: float


def going_along(state: SkirmishState, a: table.Point, b: table.Point) -> list[Going]:
    """Difficult and Very Difficult terrain a move ``a -> b`` enters, in the order met (Moving).

    A piece the team already stands in is not "entered" again.
    """
    return list(_going(state.scenario, a, b))


@lru_cache(maxsize=1 << 14)
def _going(scenario: str, a: table.Point, b: table.Point) -> tuple[Going, ...]:
    """:func:`going_along` on a scenario's fixed terrain: pure, so remembered."""
    found: list[Going] = []
    for piece in load_scenario(scenario).terrain:
        if piece.going == "open":
            continue
        at = _entry(piece, a, b)
        if at is not None:
            found.append(Going(piece, piece.going, at, table.distance(a, at)))
    return tuple(sorted(found, key=lambda g: g.along))


def _entry(piece: TerrainSpec, a: table.Point, b: table.Point) -> table.Point | None:
    if piece.kind == "linear":
        return crossing(piece, a, b)
    if piece.kind != "area" or table.point_in_polygon(a, piece.polygon):
        return None
    t = table.first_contact(a, b, piece.polygon)
    return None if t is None else table.lerp(a, b, t)
