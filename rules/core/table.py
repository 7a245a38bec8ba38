"""Tabletop geometry in inches, written once for every system played on a measured table.

Conventions (shared with :class:`rules.core.views.TableView`):

* a point is ``(x, y)`` in inches from the top-left corner of the table as drawn: ``x``
  to the east (right), ``y`` to the south (down the picture), as ``render/table.py`` draws;
* an *angle* is in degrees, 0 = +x (east), growing from +x towards +y (the view's
  ``facing``), so 90 is south and 270 is north;
* a *heading* is what a player types: a compass bearing, 0 = north (up the picture),
  clockwise, or a compass letter (``N``, ``NE``, ... ``NNW``);
* a *shape* is a polygon (list of points) or a circle; segments are tested against shapes
  "inflated" by a clearance (a unit's base radius), which is the exact swept-disc test.

Everything here is plain arithmetic on floats: no state, no rules.  A system decides what
blocks a move, what gives cover and what counts as contact; this module only measures.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Iterable, Mapping, Sequence, TypeVar

from rules.core.errors import RuleError

Point = tuple[float, float]
T = TypeVar("T")

#: Lengths closer than this (inches) are equal: a base stopped exactly on a line touches it.
EPS = 1e-6

#: Compass letters for headings, clockwise from north.
COMPASS: dict[str, float] = {
    name: i * 22.5
    for i, name in enumerate(
        "N NNE NE ENE E ESE SE SSE S SSW SW WSW W WNW NW NNW".split()
    )
}


# -- points and vectors ------------------------------------------------------------------------


def add(a: Point, b: Point) -> Point:
    """``a + b``."""
    return (a[0] + b[0], a[1] + b[1])


def sub(a: Point, b: Point) -> Point:
    """``a - b``: the vector from ``b`` to ``a``."""
    return (a[0] - b[0], a[1] - b[1])


def scale(a: Point, k: float) -> Point:
    """``k * a``."""
    return (a[0] * k, a[1] * k)


def dot(a: Point, b: Point) -> float:
    """Dot product."""
    return a[0] * b[0] + a[1] * b[1]


def cross(a: Point, b: Point) -> float:
    """The z component of the cross product (positive: ``b`` turns from ``a`` towards +y)."""
    return a[0] * b[1] - a[1] * b[0]


def length(a: Point) -> float:
    """Length of a vector."""
    return math.hypot(a[0], a[1])


def distance(a: Point, b: Point) -> float:
    """Straight-line distance in inches."""
    return math.hypot(a[0] - b[0], a[1] - b[1])


def lerp(a: Point, b: Point, t: float) -> Point:
    """The point a fraction ``t`` of the way from ``a`` to ``b``."""
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def unit_vector(angle: float) -> Point:
    """The unit vector at ``angle`` (degrees, 0 = east, growing towards +y)."""
    rad = math.radians(angle)
    return (math.cos(rad), math.sin(rad))


def angle_of(v: Point) -> float:
    """The angle of vector ``v`` in degrees, 0 = east, growing towards +y, in [0, 360)."""
    return math.degrees(math.atan2(v[1], v[0])) % 360.0


def angle_between(a: float, b: float) -> float:
    """The smaller difference between two angles, in [0, 180]."""
    diff = abs(a - b) % 360.0
    return min(diff, 360.0 - diff)


def heading_to_angle(heading: float) -> float:
    """A compass bearing (0 = north = -y, clockwise) as a table angle (0 = east, 90 = south)."""
    return (heading - 90.0) % 360.0


def angle_to_heading(angle: float) -> float:
    """A table angle (0 = east, 90 = south) as a compass bearing (0 = north, clockwise)."""
    return (angle + 90.0) % 360.0


def compass_name(angle: float) -> str:
    """The nearest of the sixteen compass letters for an angle, e.g. ``NE``."""
    bearing = angle_to_heading(angle)
    return min(COMPASS, key=lambda name: angle_between(COMPASS[name], bearing))


def inches(value: float) -> str:
    """A length as players read it: one decimal and an inch mark, e.g. ``8.2"``."""
    return f'{value:.1f}"'


def measured(value: float) -> float:
    """A length as the tape (and every event line) shows it: to the tenth of an inch.

    Rules compare measured lengths, so a figure a player reads as ``6.0"`` is never treated
    as more than 6" because of a thousandth the table cannot show.
    """
    return float(f"{value:.1f}")


def beyond(value: float, limit: float) -> bool:
    """Whether a length is more than ``limit`` as measured (see :func:`measured`)."""
    return measured(value) > limit


# -- arcs --------------------------------------------------------------------------------------


def in_arc(origin: Point, facing: float, width: float, target: Point) -> bool:
    """Whether ``target`` lies in the arc ``width`` degrees wide centred on ``facing``.

    The edges count as inside; a target on the origin is inside any arc.  A width of 360 or
    more is all round.
    """
    if width >= 360.0:
        return True
    offset = sub(target, origin)
    if length(offset) < EPS:
        return True
    return angle_between(angle_of(offset), facing) <= width / 2.0 + 1e-9


def moving_away(start: Point, end: Point, source: Point, tolerance: float) -> bool:
    """Whether the move ``start -> end`` heads away from ``source`` within ``tolerance`` degrees.

    "Directly away" is measured against the line from ``source`` through ``start``.
    """
    move = sub(end, start)
    away = sub(start, source)
    if length(move) < EPS or length(away) < EPS:
        return False
    return angle_between(angle_of(move), angle_of(away)) <= tolerance + 1e-9


# -- shapes ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Circle:
    """A circle: centre and radius in inches."""

    centre: Point
    radius: float


@dataclass(frozen=True)
class Polygon:
    """A simple polygon given by its corners in order (either winding)."""

    points: tuple[Point, ...]

    @classmethod
    def of(cls, points: Iterable[Sequence[float]]) -> "Polygon":
        """Build from any sequence of ``(x, y)`` pairs."""
        return cls(tuple((float(p[0]), float(p[1])) for p in points))

    def edges(self) -> tuple[tuple[Point, Point], ...]:
        """The sides, each as a pair of corners (the last closes the ring); built once."""
        cached = self.__dict__.get("_edges")
        if cached is None:
            pts = self.points
            cached = tuple((pts[i], pts[(i + 1) % len(pts)]) for i in range(len(pts)))
            object.__setattr__(self, "_edges", cached)
        return cached

    def centroid(self) -> Point:
        """The area centroid (the corner average for a degenerate polygon)."""
        area = 0.0
        cx = cy = 0.0
        for a, b in self.edges():
            c = cross(a, b)
            area += c
            cx += (a[0] + b[0]) * c
            cy += (a[1] + b[1]) * c
        if abs(area) < EPS:
            n = len(self.points)
            return (sum(p[0] for p in self.points) / n, sum(p[1] for p in self.points) / n)
        return (cx / (3.0 * area), cy / (3.0 * area))

    def bounds(self) -> tuple[float, float, float, float]:
        """``(min x, min y, max x, max y)``; built once."""
        cached = self.__dict__.get("_bounds")
        if cached is None:
            xs = [p[0] for p in self.points]
            ys = [p[1] for p in self.points]
            cached = (min(xs), min(ys), max(xs), max(ys))
            object.__setattr__(self, "_bounds", cached)
        return cached


Shape = Circle | Polygon


def rectangle(x0: float, y0: float, x1: float, y1: float) -> Polygon:
    """An axis-aligned rectangle from two opposite corners."""
    return Polygon(((x0, y0), (x1, y0), (x1, y1), (x0, y1)))


def point_in_polygon(p: Point, polygon: Polygon) -> bool:
    """Whether ``p`` is strictly inside ``polygon`` (even-odd rule; edges are not inside)."""
    inside = False
    x, y = p
    for a, b in polygon.edges():
        if (a[1] > y) != (b[1] > y):
            x_cross = a[0] + (y - a[1]) * (b[0] - a[0]) / (b[1] - a[1])
            if x < x_cross:
                inside = not inside
    return inside


def closest_on_segment(p: Point, a: Point, b: Point) -> Point:
    """The point of segment ``a-b`` nearest to ``p``."""
    ab = sub(b, a)
    denom = dot(ab, ab)
    if denom < EPS * EPS:
        return a
    t = max(0.0, min(1.0, dot(sub(p, a), ab) / denom))
    return lerp(a, b, t)


def distance_to_segment(p: Point, a: Point, b: Point) -> float:
    """Distance from ``p`` to segment ``a-b`` (written out: it is the hot loop of moves)."""
    abx, aby = b[0] - a[0], b[1] - a[1]
    apx, apy = p[0] - a[0], p[1] - a[1]
    denom = abx * abx + aby * aby
    t = 0.0 if denom < EPS * EPS else max(0.0, min(1.0, (apx * abx + apy * aby) / denom))
    return math.hypot(apx - abx * t, apy - aby * t)


def closest_point(p: Point, shape: Shape) -> Point:
    """The point of ``shape``'s outline nearest to ``p``."""
    if isinstance(shape, Circle):
        v = sub(p, shape.centre)
        d = length(v)
        if d < EPS:
            return (shape.centre[0] + shape.radius, shape.centre[1])
        return add(shape.centre, scale(v, shape.radius / d))
    best = min(
        (closest_on_segment(p, a, b) for a, b in shape.edges()), key=lambda q: distance(p, q)
    )
    return best


def distance_to_shape(p: Point, shape: Shape) -> float:
    """Distance from ``p`` to the nearest part of ``shape``; 0 when ``p`` is inside it."""
    if isinstance(shape, Circle):
        return max(0.0, distance(p, shape.centre) - shape.radius)
    if point_in_polygon(p, shape):
        return 0.0
    return min(distance_to_segment(p, a, b) for a, b in shape.edges())


def shape_bounds(shape: Shape) -> tuple[float, float, float, float]:
    """``(min x, min y, max x, max y)`` of a shape."""
    if isinstance(shape, Circle):
        (x, y), r = shape.centre, shape.radius
        return (x - r, y - r, x + r, y + r)
    return shape.bounds()


def shape_centre(shape: Shape) -> Point:
    """The middle of a shape (circle centre or polygon centroid)."""
    return shape.centre if isinstance(shape, Circle) else shape.centroid()


# -- segments against shapes -------------------------------------------------------------------


def _circle_roots(a: Point, d: Point, centre: Point, radius: float) -> list[float]:
    """Parameters ``t`` where ``a + t*d`` is exactly ``radius`` from ``centre`` (0, 1 or 2)."""
    f = sub(a, centre)
    qa = dot(d, d)
    if qa < EPS * EPS:
        return []
    qb = 2.0 * dot(f, d)
    qc = dot(f, f) - radius * radius
    disc = qb * qb - 4.0 * qa * qc
    if disc < 0.0:
        return []
    root = math.sqrt(disc)
    return [(-qb - root) / (2.0 * qa), (-qb + root) / (2.0 * qa)]


def _capsule_roots(a: Point, d: Point, p: Point, q: Point, radius: float) -> list[float]:
    """Parameters ``t`` where ``a + t*d`` is exactly ``radius`` from segment ``p-q``."""
    roots = _circle_roots(a, d, p, radius) + _circle_roots(a, d, q, radius)
    pq = sub(q, p)
    span = length(pq)
    if span < EPS:
        return roots
    normal = (-pq[1] / span, pq[0] / span)
    dn = dot(d, normal)
    if abs(dn) > EPS * EPS:
        offset = dot(sub(a, p), normal)
        for sign in (1.0, -1.0):
            t = (sign * radius - offset) / dn
            u = dot(sub(add(a, scale(d, t)), p), pq) / (span * span)
            if -EPS <= u <= 1.0 + EPS:
                roots.append(t)
    return roots


def _polygon_edge_crossings(a: Point, d: Point, polygon: Polygon) -> list[float]:
    """Parameters ``t`` where ``a + t*d`` crosses a side of ``polygon``."""
    out = []
    for p, q in polygon.edges():
        e = sub(q, p)
        denom = cross(d, e)
        if abs(denom) < EPS * EPS:
            continue
        t = cross(sub(p, a), e) / denom
        u = cross(sub(p, a), d) / denom
        if -EPS <= u <= 1.0 + EPS:
            out.append(t)
    return out


def first_contact(a: Point, b: Point, shape: Shape, clearance: float = 0.0) -> float | None:
    """How far along ``a -> b`` (0..1) a disc of radius ``clearance`` first touches ``shape``.

    ``None`` when the path never comes within ``clearance`` of the shape.  A disc that starts
    touching the shape is only stopped at 0 when it moves *into* it; sliding along or away
    from it is free, so a unit stopped against wire can still walk off.
    """
    d = sub(b, a)
    if length(d) < EPS:
        return None
    if isinstance(shape, Circle):
        return _first_entry(a, d, lambda p: distance_to_shape(p, shape),
                            _circle_roots(a, d, shape.centre, shape.radius + clearance),
                            clearance)
    roots: list[float] = []
    for p, q in shape.edges():
        roots.extend(_capsule_roots(a, d, p, q, clearance))
    if clearance < EPS:
        roots.extend(_polygon_edge_crossings(a, d, shape))
    return _first_entry(a, d, lambda p: distance_to_shape(p, shape), roots, clearance)


def _first_entry(
    a: Point, d: Point, dist: Callable[[Point], float], roots: list[float], clearance: float
) -> float | None:
    """The first ``t`` in [0, 1] at which the path goes closer than ``clearance``.

    ``roots`` are the candidate parameters where the distance equals ``clearance``; each is
    confirmed by looking a hair further along (the path must really go inside there).
    """
    span = length(d)
    nudge = 1e-4 / span
    if clearance > 1e-4 and dist(a) < clearance - 1e-4:
        # Already overlapping (should not happen): only a move that gets no closer is free.
        return 0.0 if dist(lerp(a, add(a, d), nudge)) < dist(a) - EPS else None
    candidates = sorted({0.0, *(t for t in roots if -EPS <= t <= 1.0 + EPS)})
    for t in candidates:
        t = max(0.0, min(1.0, t))
        probe = a[0] + d[0] * min(1.0, t + nudge), a[1] + d[1] * min(1.0, t + nudge)
        if t < 1.0 and _deeper(dist(probe), clearance):
            return t
    return None


def _deeper(dist: float, clearance: float) -> bool:
    """Whether a point ``dist`` from a shape is closer than ``clearance`` (inside, for 0)."""
    return dist <= 0.0 if clearance <= EPS else dist < clearance - EPS


def segment_hits(a: Point, b: Point, shape: Shape, clearance: float = 0.0) -> bool:
    """Whether segment ``a-b`` passes within ``clearance`` of ``shape`` (or through it)."""
    if distance_to_shape(a, shape) <= clearance or distance_to_shape(b, shape) <= clearance:
        return True
    return first_contact(a, b, shape, clearance) is not None


def segment_crosses(a: Point, b: Point, shape: Shape) -> bool:
    """Whether the line ``a-b`` passes through ``shape``'s interior between its ends.

    Used for cover: a line of fire that runs through a building.  Ends inside the shape count.
    """
    if isinstance(shape, Circle):
        return distance_to_segment(shape.centre, a, b) < shape.radius
    if point_in_polygon(a, shape) or point_in_polygon(b, shape):
        return True
    d = sub(b, a)
    ts = sorted(t for t in _polygon_edge_crossings(a, d, shape) if 0.0 <= t <= 1.0)
    # The middle of any stretch between two crossings tells whether the line is inside.
    return any(
        point_in_polygon(lerp(a, b, (t0 + t1) / 2.0), shape) for t0, t1 in zip(ts, ts[1:])
    )


@dataclass(frozen=True)
class Contact:
    """Where a path first touches something: the fraction along it and what it touched."""

    t: float
    key: str


def first_contact_among(
    a: Point, b: Point, shapes: Mapping[str, Shape], clearance: float = 0.0
) -> Contact | None:
    """The earliest contact of path ``a -> b`` with any of ``shapes`` (keyed by id)."""
    best: Contact | None = None
    margin = clearance + 1e-3
    # A cheap test first: the segment's box, taken once, against each shape's box grown by
    # the margin (a skirmish charge asks this of every base for every way it tries).
    left, right = min(a[0], b[0]), max(a[0], b[0])
    low, high = min(a[1], b[1]), max(a[1], b[1])
    for key, shape in shapes.items():
        x0, y0, x1, y1 = shape_bounds(shape)
        if right < x0 - margin or left > x1 + margin or high < y0 - margin or low > y1 + margin:
            continue
        t = first_contact(a, b, shape, clearance)
        if t is not None and (best is None or t < best.t):
            best = Contact(t, key)
    return best


# -- paths -------------------------------------------------------------------------------------


def path_length(points: Sequence[Point]) -> float:
    """Length of a polyline."""
    return sum(distance(p, q) for p, q in zip(points, points[1:]))


def legs_needed(leg: float, step: float) -> int:
    """How many straight moves of at most ``step`` inches cover ``leg`` inches (a hair spare)."""
    leg = measured(leg)
    if leg <= 0:
        return 0
    return max(1, math.ceil(leg / step - 1e-9))


def clear_end(
    path: Sequence[Point], centres: Mapping[str, Point], clearance: float
) -> tuple[list[Point], str | None]:
    """``path`` shortened, if needed, so that its end is at least ``clearance`` from every
    centre in ``centres`` (bases that may be passed through but not stopped on).

    The end is moved back along the path to the last point that is clear; the key of the
    centre that pushed it back is returned (None when the end was clear already).
    """
    points = list(path)
    blocker: str | None = None
    while len(points) >= 2:
        a, b = points[-2], points[-1]
        t, key = _last_clear(a, b, centres, clearance)
        blocker = key or blocker
        if t is None:
            points.pop()  # the whole leg ends on bases: go back to the turn before it
            continue
        if t < 1.0:
            points[-1] = lerp(a, b, t)
        return points, blocker
    return points, blocker


def _last_clear(
    a: Point, b: Point, centres: Mapping[str, Point], clearance: float
) -> tuple[float | None, str | None]:
    """The largest ``t`` in (0, 1] where ``a + t*(b-a)`` is clear of every centre, and the key
    of the last centre that moved it back; ``None`` when no such ``t`` beyond 0 exists."""
    d = sub(b, a)
    spans: dict[str, tuple[float, float]] = {}
    for key, centre in centres.items():
        roots = _circle_roots(a, d, centre, clearance)
        if len(roots) == 2:
            spans[key] = (min(roots), max(roots))
    t, blocker, margin = 1.0, None, 1e-4 / max(length(d), EPS)
    moved = True
    while moved:
        moved = False
        for key, (lo, hi) in spans.items():
            if lo + EPS < t < hi - EPS:
                t, blocker, moved = lo - margin, key, True
    return (t, blocker) if t > margin else (None, blocker)


def toward(a: Point, b: Point, dist: float) -> Point:
    """The point ``dist`` inches from ``a`` toward ``b`` (``b`` itself if nearer)."""
    span = distance(a, b)
    if span <= dist or span < EPS:
        return b
    return lerp(a, b, dist / span)


def clamp_to_table(p: Point, width: float, height: float, margin: float = 0.0) -> Point:
    """``p`` moved the least distance to lie on the table, ``margin`` in from the edges."""
    return (
        min(max(p[0], margin), width - margin),
        min(max(p[1], margin), height - margin),
    )


def on_table(p: Point, width: float, height: float, margin: float = 0.0) -> bool:
    """Whether ``p`` is on the table, at least ``margin`` in from every edge."""
    return margin - EPS <= p[0] <= width - margin + EPS and margin - EPS <= p[1] <= (
        height - margin + EPS
    )


# -- queries -----------------------------------------------------------------------------------


def nearest(origin: Point, items: Iterable[tuple[T, Point]], within: float | None = None) -> (
    tuple[T, float] | None
):
    """The item nearest ``origin`` (ties: the first given), optionally only within a range."""
    best: tuple[T, float] | None = None
    for item, where in items:
        d = distance(origin, where)
        if within is not None and beyond(d, within):
            continue
        if best is None or d < best[1] - EPS:
            best = (item, d)
    return best


def within(origin: Point, items: Iterable[tuple[T, Point]], radius: float) -> list[tuple[T, float]]:
    """The items within ``radius`` of ``origin``, nearest first, with their distances."""
    found = [(item, distance(origin, where)) for item, where in items]
    return sorted(((i, d) for i, d in found if not beyond(d, radius)), key=lambda pair: pair[1])


# -- places a player types ---------------------------------------------------------------------


@dataclass(frozen=True)
class Place:
    """A place resolved from what a player typed: the point and how it was given."""

    point: Point
    kind: str  # "xy", "named", "unit", "heading"
    label: str


def parse_heading(text: str) -> float:
    """A heading as typed (``45``, ``NE``, ``ne``) as a compass bearing in degrees."""
    key = text.strip().upper()
    if key in COMPASS:
        return COMPASS[key]
    try:
        value = float(key)
    except ValueError:
        raise RuleError(
            f"'{text[:20]}' is not a heading; use degrees (0 = north, 90 = east) or N, NE, E..."
        ) from None
    if not math.isfinite(value):
        raise RuleError("A heading must be a number of degrees, 0 to 360.")
    return value % 360.0


def parse_place(
    text: str,
    origin: Point | None,
    named: Mapping[str, Point],
    units: Mapping[str, Point],
) -> Place:
    """Resolve what a player typed as a place on the table.

    Accepted, in this order: ``x,y`` in inches (``12,30.5``); ``heading:distance`` from
    ``origin`` (``45:6``, ``N:6``; needs an origin); a unit id; a named point.  Unit and point
    names match without regard to case.  Raises RuleError naming the forms accepted.
    """
    raw = text.strip()
    if not raw:
        raise RuleError(
            "A place is needed: a named point, a unit, x,y in inches or heading:inches."
        )
    if "," in raw:
        parts = raw.split(",")
        try:
            x, y = (float(part) for part in parts)
        except ValueError:
            raise RuleError(
                f"'{raw[:30]}' is not x,y; give two numbers in inches, e.g. 12,30."
            ) from None
        if not (math.isfinite(x) and math.isfinite(y)):
            raise RuleError("x,y must be two finite numbers of inches, e.g. 12,30.")
        return Place((x, y), "xy", f"{x:g},{y:g}")
    if ":" in raw:
        heading_text, _, dist_text = raw.partition(":")
        if origin is None:
            raise RuleError("heading:inches needs a unit to measure from; give x,y or a name.")
        bearing = parse_heading(heading_text)
        try:
            dist = float(dist_text)
        except ValueError:
            raise RuleError(
                f"'{dist_text[:20]}' is not a distance; give inches, e.g. {heading_text[:5]}:6."
            ) from None
        if not math.isfinite(dist) or dist > 1e6:
            raise RuleError("The distance after the heading is too large: it is off the table; "
                            "give inches, e.g. N:6.")
        if dist <= 0:
            raise RuleError("The distance after the heading must be more than 0 inches, e.g. N:6.")
        angle = heading_to_angle(bearing)
        point = add(origin, scale(unit_vector(angle), dist))
        return Place(point, "heading", f"{heading_text.upper()}:{dist:g}")
    key = raw.casefold()
    for name, where in units.items():
        if name.casefold() == key:
            return Place(where, "unit", name)
    for name, where in named.items():
        if name.casefold() == key:
            return Place(where, "named", name)
    raise RuleError(
        f"'{raw[:30]}' is not a place here; give a named point, a unit, x,y or heading:inches."
    )


# -- lines, sides and templates (platoon skirmish; generic) ------------------------------------


def segment_intersection(a: Point, b: Point, p: Point, q: Point) -> Point | None:
    """Where segment ``a-b`` crosses segment ``p-q`` (touching counts), or None.

    Used for linear obstacles: a line of fire or a move crossing a wall or a hedge.
    """
    d, e = sub(b, a), sub(q, p)
    denom = cross(d, e)
    if abs(denom) < EPS * EPS:
        return None
    t = cross(sub(p, a), e) / denom
    u = cross(sub(p, a), d) / denom
    if -EPS <= t <= 1.0 + EPS and -EPS <= u <= 1.0 + EPS:
        return lerp(a, b, t)
    return None


def in_front_of(origin: Point, facing: float, offset: float, target: Point) -> bool:
    """Whether ``target`` is ahead of the line across ``origin``'s front.

    The line is perpendicular to ``facing`` and ``offset`` inches ahead of ``origin`` (the
    front edge of a base); a point on the line counts as in front.
    """
    ahead = dot(sub(target, origin), unit_vector(facing))
    return ahead >= offset - EPS


def oriented_square(centre: Point, toward: Point, size: float) -> Polygon:
    """A ``size`` x ``size`` square on ``centre`` with one side facing ``toward``.

    A template "aligned perpendicular" to a point: its sides run along and across the line
    from ``centre`` to ``toward`` (east-west aligned when the two points coincide).
    """
    span = distance(centre, toward)
    along = unit_vector(0.0) if span < EPS else scale(sub(toward, centre), 1.0 / span)
    across = (-along[1], along[0])
    half = size / 2.0
    corners = []
    for sa, sc in ((1, 1), (1, -1), (-1, -1), (-1, 1)):
        corners.append(add(centre, add(scale(along, sa * half), scale(across, sc * half))))
    return Polygon(tuple(corners))


def point_in_or_on(p: Point, polygon: Polygon, margin: float = 0.0) -> bool:
    """Whether ``p`` is inside ``polygon`` or within ``margin`` of its outline."""
    return point_in_polygon(p, polygon) or distance_to_shape(p, polygon) <= margin + EPS
