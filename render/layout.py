"""What a renderer drew and where: the :class:`Layout` returned with every snapshot.

Tests assert on it (every unit drawn once, in its area, no two labels overlapping) and a
front end could use it for image maps.  Boxes are in final image pixels, ``(x0, y0, x1, y1)``.

:class:`Placer` is the small greedy label placer every renderer shares: it keeps the boxes
already taken and hands out the first candidate box that is free.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Iterable, Sequence

from pydantic import BaseModel, ConfigDict, Field

Box = tuple[float, float, float, float]


class LayoutItem(BaseModel):
    """One drawn thing: its kind, its id, its box, and where it belongs.

    ``kind`` is one of ``area``, ``area_label``, ``objective``, ``counter``, ``stack``,
    ``label``, ``space``, ``force``, ``unit``, ``track``, ``terrain``, ``mark``, ``header``,
    ``legend``, ``battle``, ``panel``.  ``parent`` is the area or space a counter or unit was
    drawn for (also when it is drawn in the overflow panel); ``in_panel`` says it was.
    """

    model_config = ConfigDict(frozen=True)

    kind: str
    id: str
    box: Box
    parent: str | None = None
    in_panel: bool = False
    #: The size in final pixels of the item's name text (a unit's label, an area's number),
    #: when it has one: what the legibility tests read.
    text: int | None = None


class Layout(BaseModel):
    """Every item of a snapshot, in drawing order, and every text drawn (with its size)."""

    width: int
    height: int
    items: list[LayoutItem] = Field(default_factory=list)
    #: Every text drawn and its size in final pixels, in drawing order.
    texts: list[tuple[str, int]] = Field(default_factory=list)

    def add(self, kind: str, id: str, box: Box, parent: str | None = None,
            in_panel: bool = False, text: int | None = None) -> LayoutItem:
        """Record a drawn item (boxes are rounded to tenths so the layout is stable)."""
        item = LayoutItem(kind=kind, id=id, box=(round(box[0], 1), round(box[1], 1), round(box[2], 1), round(box[3], 1)),
                          parent=parent, in_panel=in_panel, text=text)
        self.items.append(item)
        return item

    def inline_px(self, size: float, inline_width: float = 400.0) -> float:
        """How tall text of ``size`` final pixels shows when the picture is ``inline_width``
        pixels wide (a phone shows a chat image about 400 px wide)."""
        return size * inline_width / self.width

    def of_kind(self, *kinds: str) -> list[LayoutItem]:
        """The items of the given kinds, in drawing order."""
        return [item for item in self.items if item.kind in kinds]

    def get(self, kind: str, id: str) -> LayoutItem:
        """The one item of ``kind`` with ``id`` (KeyError if absent)."""
        for item in self.items:
            if item.kind == kind and item.id == id:
                return item
        raise KeyError(f"no {kind} {id!r} in the layout")


def overlaps(a: Box, b: Box, pad: float = 0.0) -> bool:
    """Whether two boxes overlap by more than touching (``pad`` widens ``a``)."""
    return (a[0] - pad < b[2] and b[0] < a[2] + pad
            and a[1] - pad < b[3] and b[1] < a[3] + pad)


def contains(outer: Box, inner: Box, tolerance: float = 0.5) -> bool:
    """Whether ``inner`` lies within ``outer``."""
    return (inner[0] >= outer[0] - tolerance and inner[1] >= outer[1] - tolerance
            and inner[2] <= outer[2] + tolerance and inner[3] <= outer[3] + tolerance)


def overlapping_pairs(items: Sequence[LayoutItem]) -> list[tuple[LayoutItem, LayoutItem]]:
    """Every pair of items whose boxes overlap (a sweep over x, fine for a few hundred)."""
    ordered = sorted(items, key=lambda item: item.box[0])
    pairs: list[tuple[LayoutItem, LayoutItem]] = []
    for i, a in enumerate(ordered):
        for b in ordered[i + 1:]:
            if b.box[0] >= a.box[2]:
                break
            if overlaps(a.box, b.box):
                pairs.append((a, b))
    return pairs


def bbox(points: Sequence[tuple[float, float]]) -> Box:
    """The bounding box of some points."""
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    return (min(xs), min(ys), max(xs), max(ys))


def point_in_polygon(x: float, y: float, polygon: Sequence[tuple[float, float]]) -> bool:
    """Even-odd ray casting: whether ``(x, y)`` is inside ``polygon``."""
    inside = False
    n = len(polygon)
    for i in range(n):
        x0, y0 = polygon[i]
        x1, y1 = polygon[(i + 1) % n]
        if (y0 > y) != (y1 > y):
            cross = x0 + (y - y0) * (x1 - x0) / (y1 - y0)
            if x < cross:
                inside = not inside
    return inside


def box_in_polygon(box: Box, polygon: Sequence[tuple[float, float]]) -> bool:
    """Whether a box's corners and edge midpoints all lie inside ``polygon``."""
    x0, y0, x1, y1 = box
    xm, ym = (x0 + x1) / 2, (y0 + y1) / 2
    probes = ((x0, y0), (x1, y0), (x0, y1), (x1, y1), (xm, y0), (xm, y1), (x0, ym), (x1, ym))
    return all(point_in_polygon(px, py, polygon) for px, py in probes)


class Placer:
    """Greedy placement: boxes already taken, and the first free candidate wins."""

    #: Side of the cells taken boxes are filed under (a candidate is checked only against
    #: the boxes of the cells it touches: the same answer as checking every box, faster).
    CELL = 64.0

    def __init__(self, bounds: Box, taken: Iterable[Box] = ()) -> None:
        self.bounds = bounds
        self.taken: list[Box] = []
        self._cells: dict[tuple[int, int], list[Box]] = {}
        for box in taken:
            self.claim(box)

    def free(self, box: Box, pad: float = 2.0) -> bool:
        """Whether ``box`` is inside the bounds and clear of every taken box.

        The cells' loop and :func:`overlaps` written out (the same sums in the same order):
        a table's label search asks this some 500 times a picture."""
        x0, y0, x1, y1 = box
        bounds = self.bounds
        if x0 < bounds[0] or y0 < bounds[1] or x1 > bounds[2] or y1 > bounds[3]:
            return False
        cells, c, near = self._cells, self.CELL, pad + 1
        left, top, right, bottom = x0 - pad, y0 - pad, x1 + pad, y1 + pad
        rows = range(math.floor((y0 - near) / c), math.floor((y1 + near) / c) + 1)
        for i in range(math.floor((x0 - near) / c), math.floor((x1 + near) / c) + 1):
            for j in rows:
                for other in cells.get((i, j), ()):
                    if left < other[2] and other[0] < right and top < other[3] and other[1] < bottom:
                        return False
        return True

    def claim(self, box: Box) -> Box:
        """Mark ``box`` as taken and return it."""
        self.taken.append(box)
        c, cells = self.CELL, self._cells
        rows = range(math.floor(box[1] / c), math.floor(box[3] / c) + 1)
        for i in range(math.floor(box[0] / c), math.floor(box[2] / c) + 1):
            for j in rows:
                cells.setdefault((i, j), []).append(box)
        return box

    def place(self, candidates: Iterable[Box], pad: float = 2.0) -> Box | None:
        """Claim and return the first free candidate, or None if none is free."""
        for box in candidates:
            if self.free(box, pad):
                return self.claim(box)
        return None

    def place_near(self, anchor: tuple[float, float], size: tuple[float, float],
                   step: float = 8.0, rings: int = 14, pad: float = 2.0) -> Box:
        """Claim a free box of ``size`` as near ``anchor`` as the rings allow.

        Tries the anchor, then rings of 16 positions ``step`` apart.  If every position is
        taken it still returns (and claims) a box clamped into the bounds, so a label is never
        lost; :func:`overlapping_pairs` in the tests catches that case.
        """
        return self.claim(self.search(anchor, size, step, rings, pad))

    def search(self, anchor: tuple[float, float], size: tuple[float, float],
               step: float = 8.0, rings: int = 14, pad: float = 2.0) -> Box:
        """Like :meth:`place_near` without claiming (the caller may reject the result)."""
        w, h = size
        ax, ay = anchor
        first = None
        for box in ring_candidates(ax, ay, w, h, step, rings):
            box = self.clamp(box)
            if first is None:
                first = box
            if self.free(box, pad):
                return box
        assert first is not None
        return first

    def clamp(self, box: Box) -> Box:
        """Shift ``box`` into the bounds (keeping its size)."""
        x0, y0, x1, y1 = box
        bx0, by0, bx1, by1 = self.bounds
        dx = max(bx0 - x0, 0) - max(x1 - bx1, 0)
        dy = max(by0 - y0, 0) - max(y1 - by1, 0)
        return (x0 + dx, y0 + dy, x1 + dx, y1 + dy)


def ring_candidates(ax: float, ay: float, w: float, h: float, step: float,
                    rings: int) -> Iterable[Box]:
    """Boxes of ``w`` x ``h`` centred at the anchor, then on rings around it (stable order)."""
    yield (ax - w / 2, ay - h / 2, ax + w / 2, ay + h / 2)
    for ring in range(1, rings + 1):
        radius = ring * step
        for cos, sin in _ring_turns(ring):
            cx = ax + radius * cos * 1.6  # wide boxes: search wider than tall
            cy = ay + radius * sin
            yield (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)


@lru_cache(maxsize=64)
def _ring_turns(ring: int) -> tuple[tuple[float, float], ...]:
    """The cosine and sine of each of ring ``ring``'s ``8 + 4 * ring`` positions, starting
    below the anchor (computed once: the searches ask for the same rings every picture)."""
    count = 8 + 4 * ring
    angles = [2 * math.pi * k / count + math.pi / 2 for k in range(count)]
    return tuple((math.cos(angle), math.sin(angle)) for angle in angles)


class Snapshot(BaseModel):
    """A rendered image: PNG bytes, their size, and the layout of what was drawn."""

    model_config = ConfigDict(frozen=True)

    png: bytes
    width: int
    height: int
    layout: Layout
