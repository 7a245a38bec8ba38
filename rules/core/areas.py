"""Area maps: numbered areas drawn as polygons, with adjacency, range and line of sight.

Written once for every system played on an area map (Raid and Riposte first).  Nothing here
is typed twice: adjacency is *computed* from the polygons, range from adjacency, and line of
sight from the polygons and the centre dots.  The module knows ids, shapes and which areas
block sight; it knows nothing of terrain names, units or sides.

The rules it measures (numbers from Raid and Riposte, which is the general area-map pattern):

* 7.2: areas that share a side *or a vertex* are adjacent.  Two polygons touch when a corner
  of one lies on the outline of the other (within ``tolerance`` map units): that covers a
  shared side, a shared corner, and a corner resting on the middle of a neighbour's side.
* 7.3.1: range counts the target's area but not the attacker's, so an adjacent area is at
  range 1 and the attacker's own area at 0.  All pairs are measured once, by breadth-first
  search, when the graph is built.
* 7.3.2: line of sight runs from centre dot to centre dot and is blocked when it passes
  through an area "containing buildings or trees".  Our reading, stated once here:

  - only *intervening* areas block: the attacker's and the target's own areas never do (the
    firer sits among those trees or buildings and shoots out of them, the target is in them);
  - the line must pass through the blocking area's *interior*, by more than ``tolerance``:
    a line that only grazes a corner or runs exactly along a border is not blocked.

Coordinates are map units (any scale); ``y`` may point up or down, nothing here cares.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rules.core.table import Polygon, cross, distance_to_segment, lerp, point_in_polygon, sub

Point = tuple[float, float]


@dataclass(frozen=True)
class AreaShape:
    """One area as the graph sees it: an id, its outline, its centre dot, whether it blocks LOS."""

    id: str
    polygon: tuple[Point, ...]
    centre: Point
    blocks_los: bool = False

    @classmethod
    def of(
        cls,
        id: str,
        polygon: Iterable[Sequence[float]],
        centre: Sequence[float],
        blocks_los: bool = False,
    ) -> "AreaShape":
        """Build from any sequences of numbers (JSON lists, tuples)."""
        return cls(
            id=str(id),
            polygon=tuple((float(p[0]), float(p[1])) for p in polygon),
            centre=(float(centre[0]), float(centre[1])),
            blocks_los=bool(blocks_los),
        )


def signed_area(points: Sequence[Point]) -> float:
    """The shoelace area of a ring of points (positive when counter-clockwise in y-up axes)."""
    total = 0.0
    for i, a in enumerate(points):
        b = points[(i + 1) % len(points)]
        total += cross(a, b)
    return total / 2.0


def distance_to_outline(p: Point, polygon: Polygon) -> float:
    """The distance from ``p`` to the nearest side of ``polygon``."""
    return min(distance_to_segment(p, a, b) for a, b in polygon.edges())


def strictly_inside(p: Point, polygon: Polygon, tolerance: float) -> bool:
    """Whether ``p`` is inside ``polygon`` and more than ``tolerance`` from its outline."""
    return point_in_polygon(p, polygon) and distance_to_outline(p, polygon) > tolerance


def segment_through_interior(a: Point, b: Point, polygon: Polygon, tolerance: float) -> bool:
    """Whether segment ``a-b`` passes through ``polygon``'s interior (not just its outline).

    The segment is cut where it crosses the polygon's sides; the middle of each piece tells
    whether that piece runs inside.  A piece counts only if it is longer than ``tolerance``
    and its middle lies more than ``tolerance`` inside, so grazing a corner or running along
    a side does not count.
    """
    d = sub(b, a)
    span = math.hypot(d[0], d[1])
    if span == 0.0:
        return strictly_inside(a, polygon, tolerance)
    cuts = {0.0, 1.0}
    for p, q in polygon.edges():
        e = sub(q, p)
        denom = cross(d, e)
        if denom == 0.0:
            continue  # parallel: a side along the segment adds no crossing of its own
        t = cross(sub(p, a), e) / denom
        u = cross(sub(p, a), d) / denom
        if 0.0 < t < 1.0 and -1e-9 <= u <= 1.0 + 1e-9:
            cuts.add(t)
    ts = sorted(cuts)
    return any(
        (t1 - t0) * span > tolerance and strictly_inside(lerp(a, b, (t0 + t1) / 2.0), polygon,
                                                        tolerance)
        for t0, t1 in zip(ts, ts[1:])
    )


def _boxes_touch(
    a: tuple[float, float, float, float], b: tuple[float, float, float, float], margin: float
) -> bool:
    """Whether two bounding boxes come within ``margin`` of each other."""
    return not (
        a[2] + margin < b[0] or b[2] + margin < a[0] or a[3] + margin < b[1] or b[3] + margin < a[1]
    )


def _segment_box(a: Point, b: Point) -> tuple[float, float, float, float]:
    """The bounding box of a segment."""
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1]))


def polygons_touch(a: Polygon, b: Polygon, tolerance: float) -> bool:
    """Whether two outlines share a side or a vertex (7.2): a corner of one on the other."""
    if not _boxes_touch(a.bounds(), b.bounds(), tolerance):
        return False
    return any(
        distance_to_outline(p, other) <= tolerance
        for poly, other in ((a, b), (b, a))
        for p in poly.points
    )


class AreaGraph:
    """Adjacency (7.2), range in areas (7.3.1) and line of sight (7.3.2) of an area map.

    Built once from the areas' shapes; every answer afterwards is a lookup (adjacency and
    distances are precomputed, line of sight is cached per pair), because a rules engine asks
    these questions for every order and every autocomplete.
    """

    def __init__(self, areas: Iterable[AreaShape], tolerance: float = 0.5) -> None:
        """Check the shapes and measure the map.

        ``tolerance`` (map units) is how close a corner must be to a neighbour's outline to
        count as touching, and how deep a line must go into an area to be blocked by it.
        Raises ``ValueError`` for duplicate ids, outlines of fewer than three corners or no
        area, and a centre dot outside its own area.
        """
        self.tolerance = float(tolerance)
        self.areas: tuple[AreaShape, ...] = tuple(areas)
        self.ids: tuple[str, ...] = tuple(a.id for a in self.areas)
        if len(set(self.ids)) != len(self.ids):
            raise ValueError("area ids must be unique")
        self._index = {area_id: i for i, area_id in enumerate(self.ids)}
        self._shape = {a.id: a for a in self.areas}
        self._polygon: dict[str, Polygon] = {}
        for area in self.areas:
            if len(area.polygon) < 3:
                raise ValueError(f"area {area.id} needs at least three corners")
            if abs(signed_area(area.polygon)) <= self.tolerance:
                raise ValueError(f"area {area.id} has no surface: its corners are in a line")
            polygon = Polygon.of(area.polygon)
            if not point_in_polygon(area.centre, polygon):
                raise ValueError(f"area {area.id}'s centre dot {area.centre} is outside it")
            self._polygon[area.id] = polygon
        self._adjacent = self._measure_adjacency()
        self._neighbours = {
            a: tuple(b for b in self.ids if b in self._adjacent[a]) for a in self.ids
        }
        self._distance = {a: self._bfs(a) for a in self.ids}
        self._los: dict[tuple[str, str], tuple[str, ...]] = {}

    # -- lookups ------------------------------------------------------------------------------

    def __contains__(self, area: object) -> bool:
        return area in self._index

    def __len__(self) -> int:
        return len(self.ids)

    def _check(self, area: str) -> None:
        """Raise ``KeyError`` naming the unknown area (callers validate ids before asking)."""
        if area not in self._index:
            raise KeyError(f"no area {area!r} on this map")

    def shape(self, area: str) -> AreaShape:
        """The shape an area was built from."""
        self._check(area)
        return self._shape[area]

    def centre(self, area: str) -> Point:
        """An area's centre dot (7.3.2)."""
        return self.shape(area).centre

    # -- adjacency (7.2) ----------------------------------------------------------------------

    def _measure_adjacency(self) -> dict[str, frozenset[str]]:
        """Every pair of touching outlines, once (boxes first: most pairs are far apart)."""
        near: dict[str, set[str]] = {a: set() for a in self.ids}
        for i, a in enumerate(self.ids):
            for b in self.ids[i + 1 :]:
                if polygons_touch(self._polygon[a], self._polygon[b], self.tolerance):
                    near[a].add(b)
                    near[b].add(a)
        return {a: frozenset(s) for a, s in near.items()}

    def adjacent(self, area: str) -> frozenset[str]:
        """The areas sharing a side or a vertex with ``area`` (7.2); never ``area`` itself."""
        self._check(area)
        return self._adjacent[area]

    def is_adjacent(self, a: str, b: str) -> bool:
        """Whether ``a`` and ``b`` share a side or a vertex (7.2)."""
        return b in self.adjacent(a)

    def neighbours(self, area: str) -> list[str]:
        """The adjacent areas in map order (for menus and stable messages)."""
        self._check(area)
        return list(self._neighbours[area])

    # -- range (7.3.1) ------------------------------------------------------------------------

    def _bfs(self, start: str) -> dict[str, int]:
        """Hops from ``start`` to every area it can reach."""
        hops = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for there in self._neighbours[here]:
                if there not in hops:
                    hops[there] = hops[here] + 1
                    queue.append(there)
        return hops

    def reachable(self, a: str, b: str) -> bool:
        """Whether some chain of adjacent areas joins ``a`` to ``b``."""
        self._check(a)
        self._check(b)
        return b in self._distance[a]

    def distance(self, a: str, b: str) -> int:
        """Range from ``a`` to ``b`` in areas (7.3.1): own area 0, an adjacent area 1.

        Raises ``ValueError`` when no chain of areas joins them (a map in pieces).
        """
        if not self.reachable(a, b):
            raise ValueError(f"area {b} cannot be reached from area {a}")
        return self._distance[a][b]

    def within(self, area: str, n: int) -> set[str]:
        """Every area at range ``n`` or less from ``area``, ``area`` itself included."""
        self._check(area)
        return {b for b, hops in self._distance[area].items() if hops <= n}

    def path(self, a: str, b: str) -> list[str]:
        """A shortest chain of adjacent areas from ``a`` to ``b``, both ends included.

        Ties go to the neighbour first in map order, so the same question always gets the
        same answer (move arrows, replays).
        """
        hops = self.distance(a, b)
        route = [a]
        here = a
        for step in range(hops - 1, -1, -1):
            here = next(n for n in self.neighbours(here) if self._distance[b].get(n) == step)
            route.append(here)
        return route

    # -- line of sight (7.3.2) ----------------------------------------------------------------

    def blockers(self, a: str, b: str) -> tuple[str, ...]:
        """The intervening areas that block the line from ``a``'s dot to ``b``'s, in map order.

        Empty when the line is clear.  The attacker's and target's own areas never block (see
        the module notes).  Cached per pair: the answer is the same both ways.
        """
        self._check(a)
        self._check(b)
        key = (a, b) if self._index[a] <= self._index[b] else (b, a)
        cached = self._los.get(key)
        if cached is None:
            cached = self._trace(*key)
            self._los[key] = cached
        return cached

    def _trace(self, a: str, b: str) -> tuple[str, ...]:
        """Walk the line from ``a``'s dot to ``b``'s against every blocking area between."""
        if a == b:
            return ()
        start, end = self.centre(a), self.centre(b)
        box = _segment_box(start, end)
        found = []
        for area in self.areas:
            if not area.blocks_los or area.id in (a, b):
                continue
            polygon = self._polygon[area.id]
            if not _boxes_touch(box, polygon.bounds(), 0.0):
                continue
            if segment_through_interior(start, end, polygon, self.tolerance):
                found.append(area.id)
        return tuple(found)

    def los(self, a: str, b: str) -> bool:
        """Whether the line of sight from ``a`` to ``b`` is clear (7.3.2)."""
        return not self.blockers(a, b)

    # -- points -------------------------------------------------------------------------------

    def area_at(self, point: Sequence[float]) -> str | None:
        """The area whose outline holds ``point``, or ``None`` off the map.

        A point exactly on a border belongs to the first such area in map order.
        """
        p = (float(point[0]), float(point[1]))
        for area in self.ids:
            polygon = self._polygon[area]
            if point_in_polygon(p, polygon) or distance_to_outline(p, polygon) <= self.tolerance:
                return area
        return None
