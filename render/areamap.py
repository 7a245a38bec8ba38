"""The area-map snapshot: areas, objectives, counters, the last impulse.

Layout, top to bottom: the header strip; the map scaled to the image width; a panel for
areas too crowded to show their chips inside (the map shows a stack chip "8 units" with the
side counts, the panel every chip of it); the legend.

Chips are placed inside their own area's polygon, near its centre dot, by a mask search:
each area gets a small mask of where a chip may go (inside the polygon, clear of labels and
of chips already placed), and a candidate box is free when its crop of the mask is all set.
If every chip of an area does not fit, none is drawn there and the area goes to the panel,
so a counter is always drawn exactly once and never on top of another.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import compress
from dataclasses import dataclass, field
from typing import Callable, Hashable, Mapping, NamedTuple, Protocol

from PIL import Image, ImageDraw

from render.caches import cached, held
from render.changes import change_entries, draw_change_tag, draw_change_tags
from render.chrome import (
    CHIP_LABEL,
    PILL_H,
    PILL_PAD,
    Chip,
    LegendEntry,
    draw_chip,
    header_height,
    mark_entries,
    marker_entries,
    marker_pill,
    note_entries,
    side_entries,
    terrain_entries,
)
from render.layout import (
    Box,
    Layout,
    Placer,
    Snapshot,
    bbox,
    overlaps,
    point_in_polygon,
)
from render.marks import SYMBOL_REACH, draw_mark_labels, draw_mark_line, head_box, place_mark_labels
from render.registry import renderer
from render.scene import PanelFn, Scene, Sheet, for_focus, put_header
from render.style import (
    BODY,
    MARGIN,
    PALETTE,
    RGB,
    SMALL,
    WIDTH,
    Canvas,
    Frame,
    SideBook,
    Surface,
    clean,
    colour,
    fixed_palette,
    piece,
    shade,
    tint,
)
from render.vocab import StyleBook
from rules.core.views import AreaMapView, AreaView, CounterView

Point = tuple[float, float]

#: Gap between a chip and anything else, in final pixels.
GAP = 3
PANEL_HEAD = 34.0
#: How far a ring or burst drawn on a point reaches from it (``render/marks.py``).
RING_REACH = SYMBOL_REACH


@dataclass
class Block:
    """A unit chip with the chips attached to it (leaders, ATGM teams) stacked below."""

    chips: list[Chip]
    counters: list[CounterView]

    @property
    def size(self) -> tuple[float, float]:
        """Width and height of the whole block."""
        sizes = [chip.size for chip in self.chips]
        return (max(w for w, _ in sizes), sum(h for _, h in sizes))

    def boxes(self, x: float, y: float) -> list[Box]:
        """The box of each chip when the block's top-left is at ``(x, y)``."""
        out = []
        for chip in self.chips:
            w, h = chip.size
            out.append((x, y, x + w, y + h))
            y += h
        return out


class Transform:
    """Map units to final image pixels."""

    def __init__(self, view: AreaMapView, left: float, top: float, width: float) -> None:
        self.scale = width / view.width
        self.left = left
        self.top = top
        self.height = view.height * self.scale

    def __call__(self, point: Point) -> Point:
        return (self.left + point[0] * self.scale, self.top + point[1] * self.scale)

    def many(self, points: list[Point]) -> list[Point]:
        """Transform a list of points."""
        return [self(p) for p in points]


def counter_chip(counter: CounterView, book: SideBook, small: bool = False,
                 values: bool = True) -> Chip:
    """The chip of one counter: name, its printed values (``values``, full chips only), AP
    left, reduced and marker pills."""
    status = ""
    # A counter with no AP of its own (an ATGM team riding with its unit) shows none.
    if counter.ap is not None and counter.ap_max != 0:
        status = f"AP {counter.ap}/{counter.ap_max}" if counter.ap_max is not None else f"AP {counter.ap}"
    if counter.values and values and not small:
        # The printed values where they fit: a full chip; a compact (crowded) one drops them.
        status = f"{clean(counter.values)}  {status}".strip()
    pills = [marker_pill(m, book) for m in counter.markers]
    if counter.reduced:
        pills.insert(0, marker_pill("reduced", book))
    return Chip(id=counter.id, label=clean(counter.label) or counter.id,
                look=book.look(counter.faction), status=status, pills=pills, small=small)


def build_blocks(counters: list[CounterView], book: SideBook,
                 compact: bool = False, values: bool = True) -> dict[str, list[Block]]:
    """Blocks per area, in the view's order, with attached counters under their unit.

    ``compact``: every chip one row high (name, AP, pills), for areas too small for the
    two-row chips; ``values=False``: two-row chips without the printed values (an area with
    room for the chips but not for their values).
    """
    on_map = [c for c in counters if c.area is not None]
    by_id = {c.id: c for c in on_map}
    riders: dict[str, list[CounterView]] = {}
    for c in on_map:
        host = by_id.get(c.attached_to) if c.attached_to else None
        if host is not None and host.area == c.area and host.attached_to is None:
            riders.setdefault(host.id, []).append(c)
    riding = {c.id for group in riders.values() for c in group}
    blocks: dict[str, list[Block]] = {}
    for c in on_map:
        if c.id in riding or c.area is None:  # (never None on the map: narrows the type)
            continue
        group = [c] + riders.get(c.id, [])
        chips = [counter_chip(c, book, small=compact, values=values)]
        chips += [counter_chip(r, book, small=True) for r in group[1:]]
        blocks.setdefault(c.area, []).append(Block(chips, group))
    return blocks


#: Cell size of the coarse free-space grid, in final pixels.
CELL = 5


#: Half-size, in cells, of the cached distance image (areas up to 640 px use it).
GRADIENT = 128


@cached(maxsize=1)
def _gradient() -> Image.Image:
    """Distance from the centre cell, rows weighing 1.5 columns, two levels per cell."""
    size = 2 * GRADIENT + 1
    values = bytes(
        min(255, round(2 * math.sqrt((c - GRADIENT) ** 2 + 2.2 * (r - GRADIENT) ** 2)))
        for r in range(size) for c in range(size)
    )
    return Image.frombytes("L", (size, size), values)


#: The lookup table keeping only wholly free cells (255), every other value 0: a list, since
#: ``Image.point`` given a function calls it 256 times in Python for every mask.
WHOLLY_FREE = [0] * 255 + [255]


class AreaMask:
    """Where a chip may go in one area: inside the polygon, clear of what is placed.

    The polygon is rasterised (eroded by the border line's width), the boxes already taken
    are cut out, and the result is reduced to a grid of :data:`CELL`-pixel cells, a cell
    being free only if every pixel of it is.  For each box size asked, the free cells are
    eroded by the box on rows of bits (a row an int), so "where may this box go" is one bit
    per cell and trying the positions nearest the anchor first stays cheap in pure Python.
    Boxes are snapped to the grid (conservatively, never smaller).
    """

    def __init__(self, polygon: list[Point], taken: list[Box]) -> None:
        inside, self.x0, self.y0 = _polygon_raster(tuple(polygon))
        mask = inside.copy()
        w, h = mask.size
        draw = ImageDraw.Draw(mask)
        for x0, y0, x1, y1 in taken:
            if x1 >= self.x0 and y1 >= self.y0 and x0 <= self.x0 + w and y0 <= self.y0 + h:
                draw.rectangle((x0 - self.x0 - GAP, y0 - self.y0 - GAP,
                                x1 - self.x0 + GAP, y1 - self.y0 + GAP), fill=0)
        coarse = mask.reduce(CELL)
        self.coarse = coarse.point(WHOLLY_FREE)
        self.cols, self.rows = coarse.size
        # The wholly free cells (255 in ``coarse``, 0 else), picked in C: a Python loop
        # over every cell was a few per cent of a focus picture (issue 41).
        self.open = list(compress(range(self.cols * self.rows), self.coarse.tobytes()))
        self.placed: list[tuple[int, int, int, int]] = []  # cell boxes placed in this area
        #: Cell boxes to keep clear in this search only (label spots an area may give up).
        self.soft: list[tuple[int, int, int, int]] = []
        self.last = (0, 0, 0, 0)
        #: (box cells, placed count, soft boxes) -> :meth:`_fits`; placed only ever grows.
        self._fits_cache: dict[tuple[int, int, int, tuple[tuple[int, int, int, int], ...]], tuple[int, ...]] = {}
        #: (box cells) -> the free cells eroded by the box (:meth:`_eroded`).
        self._eroded_cache: dict[tuple[int, int], tuple[int, ...]] = {}
        self._rows: tuple[int, ...] | None = None

    def set_soft(self, boxes: list[Box]) -> None:
        """Keep these boxes (plus the gap) clear until the next call, without a new mask."""
        self.soft = [
            (math.floor((y0 - GAP - self.y0) / CELL), math.floor((x0 - GAP - self.x0) / CELL),
             math.ceil((y1 + GAP - self.y0) / CELL), math.ceil((x1 + GAP - self.x0) / CELL))
            for x0, y0, x1, y1 in boxes
            if x1 + GAP >= self.x0 and y1 + GAP >= self.y0
            and x0 - GAP <= self.x0 + self.cols * CELL and y0 - GAP <= self.y0 + self.rows * CELL
        ]

    def candidates(self, anchor: Point) -> list[int]:
        """Free cells (their index, ``row * cols + column``), nearest the anchor first.

        Vertical distance weighs more: stacks grow sideways first, as counters do.  The
        order comes from a cached distance image cropped around the anchor and used as a
        C-level sort key, which is several times faster than computing keys in Python.
        """
        r0 = min(max(round((anchor[1] - self.y0) / CELL), 0), self.rows - 1)
        c0 = min(max(round((anchor[0] - self.x0) / CELL), 0), self.cols - 1)
        cols = self.cols
        if max(self.rows, cols) <= GRADIENT:
            crop = _gradient().crop((GRADIENT - c0, GRADIENT - r0,
                                     GRADIENT - c0 + cols, GRADIENT - r0 + self.rows))
            order = sorted(self.open, key=crop.tobytes().__getitem__)
        else:
            order = sorted(self.open, key=lambda k: (k % cols - c0) ** 2 + 2.2 * (k // cols - r0) ** 2)
        # Indices, not (row, column) pairs: a search reads only the first few.
        return order

    def find(self, size: tuple[float, float], candidates: list[int]) -> Box | None:
        """The free box of ``size`` whose centre cell is nearest the anchor, or None."""
        cw = math.ceil(size[0] / CELL)
        ch = math.ceil(size[1] / CELL)
        if cw * ch > len(self.open) or cw > self.cols or ch > self.rows:
            return None
        fits = self._fits(cw, ch)
        if not any(fits):  # no position at all: no need to walk the candidates
            return None
        rows, cols = self.rows, self.cols
        hw, hh = cw // 2, ch // 2
        for k in candidates:
            r0, c0 = k // cols - hh, k % cols - hw
            if r0 < 0 or c0 < 0 or r0 + ch > rows or c0 + cw > cols:
                continue
            if not fits[r0] >> c0 & 1:
                continue
            x, y = self.x0 + c0 * CELL, self.y0 + r0 * CELL
            # Centre the box in its cells: the snap never makes it smaller.
            dx, dy = (cw * CELL - size[0]) / 2, (ch * CELL - size[1]) / 2
            self.last = (r0, c0, r0 + ch, c0 + cw)
            return (x + dx, y + dy, x + dx + size[0], y + dy + size[1])
        return None

    def _fits(self, cw: int, ch: int) -> tuple[int, ...]:
        """Each row of cells as an int, bit ``c`` set where a box of ``cw`` x ``ch`` cells may
        have its top-left at that row's column ``c``.

        The free cells eroded by the box (:meth:`_eroded`, once per size), less every
        top-left whose box would reach a placed box (with the gap) or a soft box: the
        erosion of the free cells less a rectangle is the erosion less that rectangle grown
        up and left by the box, so the release passes of one search, which differ only in
        their soft boxes, share one erosion per size (issue 41: eroding again for each pass
        was most of an area's search).  The same cells as eroding the cut-out cells.
        """
        key = (cw, ch, len(self.placed), tuple(self.soft))
        hit = self._fits_cache.get(key)
        if hit is not None:
            return hit
        fits = self._eroded(cw, ch)
        if self.placed or self.soft:
            out = list(fits)
            gap = math.ceil(GAP / CELL)
            cut = [(r0 - gap, c0 - gap, r1 + gap, c1 + gap) for r0, c0, r1, c1 in self.placed] + self.soft
            for r0, c0, r1, c1 in cut:  # cells [r0, r1) x [c0, c1) taken: no box may reach them
                left, right = max(c0 - cw + 1, 0), min(c1 - 1, self.cols - 1)
                if left > right:
                    continue
                keep = ~(((1 << (right + 1)) - 1) ^ ((1 << left) - 1))
                for r in range(max(r0 - ch + 1, 0), min(r1, self.rows)):
                    out[r] &= keep
            fits = tuple(out)
        self._fits_cache[key] = fits
        return fits

    def _eroded(self, cw: int, ch: int) -> tuple[int, ...]:
        """The free cells (rows of bits, as :meth:`_fits`) eroded by a box of ``cw`` x ``ch``
        cells; kept per size for the mask's life.  Integer operations, each row one int:
        Pillow's ``darker`` on shifted copies of a grid this small (a few dozen cells a
        side) cost more in its calls than in its pixels (issue 41)."""
        eroded = self._eroded_cache.get((cw, ch))
        if eroded is None:
            eroded = _erode_rows(tuple(_erode_bits(row, cw) for row in self._free_rows()), ch)
            self._eroded_cache[(cw, ch)] = eroded
        return eroded

    def _free_rows(self) -> tuple[int, ...]:
        """The wholly free cells, a row an int (bit ``c``: column ``c``), made once."""
        if self._rows is None:
            cells, cols = self.coarse.tobytes(), self.cols
            self._rows = tuple(_row_bits(cells[r * cols:(r + 1) * cols]) for r in range(self.rows))
        return self._rows

    def claim_last(self) -> None:
        """Keep the box the last :meth:`find` returned clear for the next finds."""
        self.placed.append(self.last)


@cached(maxsize=256)
def _polygon_raster(polygon: tuple[Point, ...]) -> tuple[Image.Image, int, int]:
    """Where in its box a chip may touch an area ``polygon``: the polygon filled, less its
    border line (chips keep clear of the area's outline); and the box's top-left.  The same
    for every search of the area (a map's polygons never move), so drawn once: filling and
    stroking it again was about a third of each search's mask (issue 41).  Read-only."""
    xs = [p[0] for p in polygon]
    ys = [p[1] for p in polygon]
    x0, y0 = math.floor(min(xs)), math.floor(min(ys))
    w = math.ceil(max(xs)) - x0 + CELL
    h = math.ceil(max(ys)) - y0 + CELL
    mask = Image.new("L", (w, h), 0)
    draw = ImageDraw.Draw(mask)
    local = [(x - x0, y - y0) for x, y in polygon]
    draw.polygon(local, fill=255)
    draw.line(local + local[:1], fill=0, width=2 * GAP + 2)
    return mask, x0, y0


def _row_bits(cells: bytes) -> int:
    """A row of cells (255: free, 0: not) as an int whose bit ``c`` is set where cell ``c``
    is free: the row reversed, read as binary digits (in C)."""
    return int(cells[::-1].translate(_BINARY_DIGITS), 2) if cells else 0


#: A cell's byte (0 or 255) as the binary digit :func:`_row_bits` reads.
_BINARY_DIGITS = bytes.maketrans(b"\x00\xff", b"01")


def _erode_bits(row: int, length: int) -> int:
    """Each bit becomes the AND of the ``length`` bits from it upwards (rightwards on the
    map): a cell stays free only if a run of ``length`` free cells starts there; past the
    row's end is blocked.  Doubling spans: log steps."""
    span, out = 1, row
    while span * 2 <= length:
        out &= out >> span
        span *= 2
    if span < length:
        out &= out >> (length - span)
    return out


def _erode_rows(rows: tuple[int, ...], length: int) -> tuple[int, ...]:
    """Each row becomes the AND of the ``length`` rows from it down (past the last: blocked),
    by doubling spans as :func:`_erode_bits`."""
    span, out = 1, rows
    while span * 2 <= length:
        out = tuple(a & b for a, b in zip(out, out[span:] + (0,) * span))
        span *= 2
    if span < length:
        k = length - span
        out = tuple(a & b for a, b in zip(out, out[k:] + (0,) * k))
    return out


def arrangements(blocks: Sequence[HasSize]) -> list[tuple[tuple[float, float], list[Point]]]:
    """Ways to pack all blocks as one tidy group: rows of 1..n blocks.

    Returns (group size, offset of each block in the group), squarest group first, so a
    stack looks like a stack and leaves the area's other corners for labels.
    """
    out = []
    for per_row in range(1, len(blocks) + 1):
        offsets: list[Point] = []
        x = y = row_h = width = 0.0
        for k, block in enumerate(blocks):
            w, h = block.size
            if k and k % per_row == 0:
                y += row_h + 2 * GAP
                x = row_h = 0.0
            offsets.append((x, y))
            x += w + 2 * GAP
            width = max(width, x - 2 * GAP)
            row_h = max(row_h, h)
        size = (width, y + row_h)
        out.append((size, offsets))
    out.sort(key=lambda item: (max(item[0][0] / item[0][1], item[0][1] / item[0][0] * 1.6),
                               item[0][0]))
    return out


def place_area(mask: AreaMask, blocks: Sequence[HasSize],
               candidates: list[int]) -> list[Box] | None:
    """Boxes of every block inside the area, or None if they do not all fit.

    First as one group (tidiest); failing that, block by block, largest first.  Blocks
    whose total area exceeds the area's free cells cannot fit, so no search is made.
    """
    need = sum(math.ceil(b.size[0] / CELL) * math.ceil(b.size[1] / CELL) for b in blocks)
    if need > len(mask.open):
        return None
    for size, offsets in arrangements(blocks):
        group = mask.find(size, candidates)
        if group is not None:
            boxes = []
            for block, (dx, dy) in zip(blocks, offsets):
                w, h = block.size
                boxes.append((group[0] + dx, group[1] + dy, group[0] + dx + w, group[1] + dy + h))
            return boxes
    placed: dict[int, Box] = {}
    for i in sorted(range(len(blocks)), key=lambda i: -blocks[i].size[0] * blocks[i].size[1]):
        box = mask.find(blocks[i].size, candidates)
        if box is None:
            return None
        mask.claim_last()
        placed[i] = box
    return [placed[i] for i in range(len(blocks))]


def id_label_box(centre: Point, text: str, corner: int = 0) -> Box:
    """The box of an area's id label: just above and right of the centre dot (``corner`` 1:
    below right, 2: above left, 3: below left)."""
    w, h = Canvas.text_size(text, BODY)
    x0 = centre[0] + 4 if corner in (0, 1) else centre[0] - 4 - w - 6
    y0 = centre[1] - h - 2 if corner in (0, 2) else centre[1] + 2
    return (x0, y0, x0 + w + 6, y0 + h)


def label_spots(view: AreaMapView, centres: dict[str, Point], keep: list[Box]) -> dict[str, Box]:
    """Each area's label box: above right of its dot unless that covers an objective tag, a
    mark's head (a burst on the dot) or an earlier label (a long ``24 TM+1`` near a
    neighbour's tag), then the other corners."""
    out: dict[str, Box] = {}
    others = list(keep)
    for area in view.areas:
        text = area_label_text(area)
        options = [id_label_box(centres[area.id], text, k) for k in range(4)]
        # Only what reaches the four corners' union can be covered by one of them: the
        # counts below are those of every box (a tenth of a focus picture went here).
        reach = (min(b[0] for b in options), min(b[1] for b in options),
                 max(b[2] for b in options), max(b[3] for b in options))
        near = [o for o in others if overlaps(reach, o, 1)]
        # The corner that covers the fewest things (the first of them on a tie).
        box = min(options, key=lambda b: sum(overlaps(b, o, 1) for o in near))
        out[area.id] = box
        others.append(box)
    return out


OBJ_SIZE = 30.0


def objective_box(centre: Point) -> Box:
    """The objective tag's box: left of the centre dot."""
    return (centre[0] - 8 - 2 * OBJ_SIZE, centre[1] - OBJ_SIZE, centre[0] - 8, centre[1])


def stack_chip(area: str, blocks: list[Block], book: SideBook) -> Chip:
    """The stand-in chip of a crowded area: how many units, and how many of each side."""
    counts: dict[str, int] = {}
    for block in blocks:
        for counter in block.counters:
            counts[counter.faction] = counts.get(counter.faction, 0) + (1 if counter.counted else 0)
    total = sum(counts.values())
    parts = [f"{book.look(k).letter}{n}" for k, n in counts.items() if n]
    first = book.look(next(iter(counts)))
    return Chip(id=f"stack-{area}", label=f"{total} unit{'' if total == 1 else 's'}", look=first,
                status=" ".join(parts) + "  see below")


class HasSize(Protocol):
    """What the placement of an area reads of a block: its size."""

    @property
    def size(self) -> tuple[float, float]:
        """Width and height in final pixels."""
        ...


@dataclass(frozen=True)
class Sized:
    """A block reduced to its size: what the placement of an area depends on."""

    size: tuple[float, float]


def _near(box: Box, region: Box, pad: float) -> bool:
    return (box[2] + pad >= region[0] and box[0] - pad <= region[2]
            and box[3] + pad >= region[1] and box[1] - pad <= region[3])


@cached(maxsize=2048)
def place_in_area(polygon: tuple[Point, ...], full: tuple[tuple[float, float], ...],
                  plain: tuple[tuple[float, float], ...],
                  compact: tuple[tuple[float, float], ...], stack: tuple[float, float],
                  taken: tuple[Box, ...], strict: tuple[Box, ...], loose: tuple[Box, ...],
                  own: tuple[Box, ...], anchor: Point) -> tuple[str, tuple[Box, ...], int]:
    """Where the blocks of one area go: ``(mode, boxes, release)``, a pure function (cached).

    ``mode`` is ``full``, ``plain`` or ``compact`` (two-row chips with the printed values,
    without them, or one-row chips; ``boxes`` one per block),
    ``stack`` (a stack chip at ``boxes[0]``, every chip in the panel) or ``none`` (a stack
    chip with no room in the area: the caller places it near the anchor).  ``release`` 0
    keeps the area's label spots and dot clear, 1 gives up the label spots, 2 the dot too.

    Everything it reads is in its arguments (only the boxes near the area), so a snapshot
    re-places only the areas where something changed: the others come from the cache, and
    the result is the same as a placement from scratch.
    """
    mask = AreaMask(list(polygon), list(taken))
    candidates = mask.candidates(anchor)
    variants = [("full", [Sized(z) for z in full]), ("plain", [Sized(z) for z in plain]),
                ("compact", [Sized(z) for z in compact])]
    if plain == full:  # no values to drop: the same search twice would fail twice
        del variants[1]

    def attempt(release: int, blocks: list[Sized]) -> list[Box] | None:
        mask.set_soft(list(loose if release else strict) + (list(own) if release < 2 else []))
        mask.placed.clear()
        return place_area(mask, blocks, candidates)

    # The printed values matter more than where the area's number and tag sit (issue 25
    # point 13: six counters had "no room for values"): each chip variant is tried with the
    # label spots given up, and the dot, before a variant with less on it.  The most
    # permissive pass first: if even it fails, the stricter ones would too.
    # An area of several blocks shows a stack chip, and its chips with their values in the
    # panel, rather than chips without values; a lone unit keeps its name on the map.
    stacked = [("stack", [Sized(stack)])]
    order = variants[:1] + stacked + variants[1:] if len(full) > 1 else variants + stacked
    for mode, blocks in order:
        if attempt(2, blocks) is None:
            continue
        for release in (0, 1, 2):
            boxes = attempt(release, blocks)
            if boxes is not None:
                return mode, (tuple(boxes) if mode != "stack" else (boxes[0],)), release
    # Marks' heads and the neighbours' spill fill it: the stack chip still goes inside its
    # own area, over them, rather than into the next area (issue 25 point 13: area 14's
    # stack chip was drawn in area 7).
    bare_mask = AreaMask(list(polygon), [])
    fit = place_area(bare_mask, [Sized(stack)], bare_mask.candidates(anchor))
    if fit is not None:
        return "stack", (fit[0],), 2
    return "none", (), 1


def render_areamap(view: AreaMapView) -> Snapshot:
    """Draw an :class:`AreaMapView` (the full picture)."""
    return areamap_scene(view).snapshot()


@dataclass(frozen=True)
class AreaBoard:
    """Where the map lies in the picture and where each area is on it (final pixels)."""

    book: StyleBook
    tf: Transform
    box: Box
    polys: dict[str, list[Point]]
    centres: dict[str, Point]


@dataclass(frozen=True)
class Spots:
    """What chips keep clear: each area's id label and objective tag (``reserved``; an area
    whose chips only fit on them gives them up, ``released``), its dot and the heads of the
    marks ending there (``keep_clear``)."""

    labels: dict[str, Box]
    objectives: dict[str, Box]
    reserved: dict[str, list[Box]]
    keep_clear: dict[str, list[Box]]
    released: set[str] = field(default_factory=set)

    def held(self, skip: str | None = None) -> list[Box]:
        """The label and tag spots still reserved (all but ``skip``'s)."""
        return [b for aid, boxes in self.reserved.items() if aid not in self.released and aid != skip
                for b in boxes]


@dataclass(frozen=True)
class ChipPlan:
    """Where the counters went: each area's blocks (``blocks``, in the variant drawn), the
    boxes of those placed on the map, the crowded areas shown by a stack chip (their chips in
    the panel), the counters drawn without their printed values, and every box taken."""

    full: dict[str, list[Block]]
    taken: list[Box]
    blocks: dict[str, list[Block]] = field(default_factory=dict)
    placements: dict[str, list[Box]] = field(default_factory=dict)
    crowded: list[str] = field(default_factory=list)
    stacks: dict[str, tuple[Chip, Box]] = field(default_factory=dict)
    bare: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class AreaTags:
    """The tags placed after the chips: entrances by area, eliminated units by (area, text)."""

    entrances: dict[str, tuple[str, Box]]
    gone: dict[tuple[str, str], Box]


@renderer("areamap")
def areamap_scene(view: AreaMapView) -> Scene:
    """Lay out and draw an :class:`AreaMapView`; see the module docstring for the layout.

    The stages: the board, the spots chips keep clear, the chips, the tags placed around
    them, the marks cut back to the chips; then the picture is composed in that order."""
    board = _layout_board(view)
    mark_lines = [board.tf.many(m.points) for m in view.marks]
    spots = _reserve_spots(view, board, mark_lines)
    plan = _place_chips(view, board, spots)
    tags = _place_tags(view, board, spots, plan)
    _panel_orphans(view, plan)
    # A mark ending under a chip (the unit that just moved sits on its area's dot) stops at
    # the chip's edge, so its arrowhead or burst shows.
    chip_boxes = _chip_boxes(plan)
    mark_lines = [pull_back(pts, chip_boxes) for pts in mark_lines]
    return _compose(view, board, spots, plan, tags, mark_lines)


def _layout_board(view: AreaMapView) -> AreaBoard:
    """The map under the header, and each area's outline and centre on it."""
    book = StyleBook.of(view)
    top = header_height(view.header, WIDTH)
    tf = Transform(view, MARGIN, top + MARGIN, WIDTH - 2 * MARGIN)
    box: Box = (tf.left, tf.top, tf.left + WIDTH - 2 * MARGIN, tf.top + tf.height)
    return AreaBoard(book, tf, box, {a.id: tf.many(a.polygon) for a in view.areas},
                     {a.id: tf(a.centre) for a in view.areas})


def _reserve_spots(view: AreaMapView, board: AreaBoard, mark_lines: list[list[Point]]) -> Spots:
    """Each area's id label sits above-right of its centre dot and its objective tag left of
    it.  Chips keep clear of those spots if they can; an area whose chips only fit with the
    spots free gives them up, and its labels are placed after the chips, near the dot."""
    centres = board.centres
    dot_boxes = {aid: (c[0] - 7, c[1] - 7, c[0] + 7, c[1] + 7) for aid, c in centres.items()}
    obj_boxes = {a.id: objective_box(centres[a.id]) for a in view.areas if a.objective}
    # Marks' lines are known now; their labels are placed after the chips.
    heads = [symbol_box(pts) for pts in mark_lines if pts]
    label_boxes = label_spots(view, centres, list(obj_boxes.values()) + heads)
    reserved = {a.id: [label_boxes[a.id]] + ([obj_boxes[a.id]] if a.id in obj_boxes else [])
                for a in view.areas}
    # Each area keeps its dot and the heads of marks ending there clear if it can.  A ring or
    # burst on the dot (a unit placed, fire landed) is drawn over the chips, so a chip under
    # it would have its name cut: the chips keep clear of the whole symbol if they can.
    keep_clear: dict[str, list[Box]] = {aid: [box] for aid, box in dot_boxes.items()}
    for mark, pts in zip(view.marks, mark_lines):
        if not pts or not centres:
            continue
        end = min(centres, key=lambda aid: math.dist(centres[aid], pts[-1]))
        if _on_point(pts, board.book.mark(mark.kind).line):
            x, y = pts[-1]
            keep_clear[end].append((x - RING_REACH, y - RING_REACH, x + RING_REACH, y + RING_REACH))
        else:
            keep_clear[end].append(head_box(pts[-2], pts[-1]))
    return Spots(label_boxes, obj_boxes, reserved, keep_clear)


def _place_chips(view: AreaMapView, board: AreaBoard, spots: Spots) -> ChipPlan:
    """Every area's chips, in the first variant that fits (:func:`place_in_area`)."""
    full = build_blocks(view.counters, board.book)
    by_mode = {"full": full, "plain": build_blocks(view.counters, board.book, values=False),
               "compact": build_blocks(view.counters, board.book, compact=True)}
    plan = ChipPlan(full=full, taken=[b for boxes in spots.keep_clear.values() for b in boxes])
    for area in view.areas:
        if area.id in full:
            _place_area_chips(area.id, board, spots, by_mode, plan)
    return plan


def _place_area_chips(aid: str, board: AreaBoard, spots: Spots,
                      by_mode: dict[str, dict[str, list[Block]]], plan: ChipPlan) -> None:
    """Place one area's chips (or its stack chip) and record them in ``plan``."""
    full = plan.full[aid]
    anchor = (board.centres[aid][0], board.centres[aid][1] + 24)
    own = spots.keep_clear[aid]
    region = bbox(board.polys[aid])
    chip = stack_chip(aid, full, board.book)
    reach = 2 * GAP + CELL
    # The spots still held near the area, with whose they are (``spots.held()`` near it,
    # and the same less the area's own: one pass, in the same order).
    held = [(owner, b) for owner, spots_of in spots.reserved.items() if owner not in spots.released
            for b in spots_of if _near(b, region, reach)]
    mode, boxes, release = place_in_area(
        tuple(board.polys[aid]),
        tuple(b.size for b in full),
        tuple(b.size for b in by_mode["plain"][aid]),
        tuple(b.size for b in by_mode["compact"][aid]),
        chip.size,
        tuple(b for b in plan.taken if _near(b, region, reach) and not any(b is o for o in own)),
        tuple(b for _, b in held),
        tuple(b for owner, b in held if owner != aid),
        tuple(own), anchor)
    if release:
        spots.released.add(aid)
    if mode in by_mode:
        if mode != "full":
            plan.bare.extend(b.counters[0].id for b in full if b.counters[0].values)
        plan.blocks[aid] = by_mode[mode][aid]
        plan.placements[aid] = list(boxes)
        plan.taken.extend(boxes)
        return
    plan.blocks[aid] = full
    plan.crowded.append(aid)
    fit = boxes[0] if boxes else Placer(board.box, plan.taken + spots.held()).search(anchor, chip.size)
    plan.stacks[aid] = (chip, fit)
    plan.taken.append(fit)


def _place_tags(view: AreaMapView, board: AreaBoard, spots: Spots, plan: ChipPlan) -> AreaTags:
    """The labels given up to the chips, then the entrance and eliminated-unit tags."""
    held = spots.held()
    place_released_labels(view, spots.released, (spots.labels, spots.objectives), board.polys,
                          board.box, plan.taken, held)
    entrances = place_entrances(view, board.polys, board.box, plan.taken, held)
    return AreaTags(entrances, place_gone(view, board.polys, board.box, plan.taken))


def _panel_orphans(view: AreaMapView, plan: ChipPlan) -> None:
    """A counter in an area the map does not have is still shown: in the panel, under its
    area's name (an engine bug made visible rather than a unit silently missing)."""
    areas = {a.id for a in view.areas}
    for area_id in plan.full:
        if area_id not in areas:
            plan.blocks[area_id] = plan.full[area_id]
            plan.crowded.append(area_id)


def _compose(view: AreaMapView, board: AreaBoard, spots: Spots, plan: ChipPlan, tags: AreaTags,
             mark_lines: list[list[Point]]) -> Scene:
    """The picture: header, map, marks' lines, labels and tags, chips, marks' heads and
    labels, the panel of crowded areas under the map, the legend."""
    book = board.book
    panel_top = board.box[3] + MARGIN
    panel_rows, panel_h = panel_layout(plan.crowded, plan.blocks, panel_top)
    sheet = Sheet.open(legend(view, book, plan.bare), panel_top + panel_h)
    frame, layout = sheet.frame, sheet.layout
    put_header(frame, view.header, layout)
    background, frame.palette = static_map(view, board.tf, book)
    frame.put(background, round(board.tf.left) - 1, round(board.tf.top) - 1)
    for area in view.areas:
        layout.add("area", area.id, bbox(board.polys[area.id]))
    for mark, pts in zip(view.marks, mark_lines):
        draw_mark_line(frame, mark, pts, part="line", book=book)
    _draw_area_tags(frame, layout, view, board, spots, tags)
    changed = {c.id: c.what for c in view.changes}
    under = _symbols_under_chips(view, book, plan, mark_lines)
    for i in under:
        draw_mark_line(frame, view.marks[i], mark_lines[i], part="head", book=book)
    _draw_chips(frame, layout, plan, changed)
    # Arrowheads and bursts over the chips: where a unit went or fire landed must show.
    for i, (mark, pts) in enumerate(zip(view.marks, mark_lines)):
        if i not in under:
            draw_mark_line(frame, mark, pts, part="head", book=book)
    # Mark labels last, clear of every chip and label.
    labels = place_mark_labels(view.marks, mark_lines, Placer(board.box, plan.taken), midpoint, rings=20)
    draw_mark_labels(frame, labels, book, layout)
    for i, mark in enumerate(view.marks):
        layout.add("mark", f"mark-{i}", bbox(mark_lines[i]), parent=mark.kind)
    if not for_focus():  # a focus picture draws a panel of its own (crowded_panel)
        draw_panel(frame, plan.crowded, plan.blocks, panel_rows, panel_top, layout, changed)
    return sheet.close(view.header, view.banner, book, board.box,
                       focus_boxes(view, layout, board.polys, mark_lines),
                       panel=crowded_panel(plan.crowded, plan.blocks, plan.stacks, changed))


def _chip_boxes(plan: ChipPlan) -> list[Box]:
    """Every chip's box on the map: the areas' chips and the stack chips."""
    return [b for boxes in plan.placements.values() for b in boxes] + [box for _, box in plan.stacks.values()]


def _on_point(mark_line: list[Point], line: str) -> bool:
    """Whether a mark is a symbol on a point (a ring or burst on an area's dot), not a line."""
    return len(mark_line) == 1 or line in ("ring", "burst")


def _symbols_under_chips(view: AreaMapView, book: StyleBook, plan: ChipPlan,
                         mark_lines: list[list[Point]]) -> set[int]:
    """The marks drawn under the chips: a ring or burst on a dot that a chip still covers
    (its area had no room to keep it clear, :func:`_reserve_spots`).  Over the chip it would
    cut the unit's name; under it, it shows round the chip's edge."""
    chips = _chip_boxes(plan)
    under = set()
    for i, (mark, pts) in enumerate(zip(view.marks, mark_lines)):
        if pts and _on_point(pts, book.mark(mark.kind).line):
            x, y = pts[-1]
            reach = (x - RING_REACH, y - RING_REACH, x + RING_REACH, y + RING_REACH)
            if any(overlaps(reach, chip) for chip in chips):
                under.add(i)
    return under


def _draw_area_tags(frame: Frame, layout: Layout, view: AreaMapView, board: AreaBoard,
                    spots: Spots, tags: AreaTags) -> None:
    """Each area's dot and label, objective and entrance tags; the eliminated-unit tags."""
    for area in view.areas:
        draw_area_label(frame, area, board.centres[area.id], spots.labels[area.id], layout)
        if area.id in spots.objectives:
            draw_objective(frame, area, spots.objectives[area.id], board.book, layout)
        if area.id in tags.entrances:
            text, box = tags.entrances[area.id]
            frame.rect(box, fill=PALETTE["header"], radius=5)
            frame.text_in(box, text, SMALL, PALETTE["header_ink"])
            layout.add("entrance", area.id, box, parent=area.id, text=SMALL)
    for (area_id, text), box in tags.gone.items():
        draw_gone(frame, text, box)
        layout.add("gone", text, box, parent=area_id, text=SMALL)


def _draw_chips(frame: Frame, layout: Layout, plan: ChipPlan, changed: Mapping[str, str]) -> None:
    """The placed chips (changed ones framed, then tagged over every chip) and stack chips."""
    tags: list[tuple[str, Box]] = []
    for area_id, boxes in plan.placements.items():
        for block, box in zip(plan.blocks[area_id], boxes):
            for chip, counter, cbox in zip(block.chips, block.counters, block.boxes(box[0], box[1])):
                draw_chip(frame, chip, cbox[0], cbox[1])
                if counter.id in changed:
                    draw_changed(frame, cbox)
                    tags.append((counter.id, cbox))
                layout.add("counter", counter.id, cbox, parent=area_id, text=CHIP_LABEL)
    draw_change_tags(frame, tags, changed, layout)
    for area_id, (chip, box) in plan.stacks.items():
        draw_chip(frame, chip, box[0], box[1])
        frame.rect(box, outline=PALETTE["ink"], width=2.5, radius=5)
        layout.add("stack", area_id, box, parent=area_id, text=CHIP_LABEL)


def crowded_panel(crowded: list[str], blocks_by_area: dict[str, list[Block]],
                  stacks: dict[str, tuple[Chip, Box]], changed: Mapping[str, str]) -> PanelFn:
    """The focus picture's panel: every chip of the crowded areas whose stack chip it shows
    ("3 units, see below" must have its below)."""

    def make(width: int, crop: Box) -> tuple[float, Callable[[Frame, float, Layout], None]]:
        shown = [a for a in crowded if a in stacks and overlaps(stacks[a][1], crop)]
        rows, height = panel_layout(shown, blocks_by_area, 0.0, width)

        def draw(frame: Frame, top: float, layout: Layout) -> None:
            moved = [(a, y + top, h, [(b, (x0, y0 + top, x1, y1 + top)) for b, (x0, y0, x1, y1) in placed])
                     for a, y, h, placed in rows]
            draw_panel(frame, shown, blocks_by_area, moved, top, layout, changed)

        return height, draw

    return make


def focus_boxes(view: AreaMapView, layout: Layout, polys: dict[str, list[Point]],
                mark_lines: list[list[Point]]) -> list[Box]:
    """What the focus picture shows, most important first: the units eliminated or hit (the
    turn's key events), where the marks end (the area the action reached, with its chips;
    the latest first), where they start, then changed units."""
    boxes: list[Box] = []
    by_area = {a.id: a for a in view.areas}

    def area_box(aid: str) -> None:
        # The area's dot, label, tags and chips (not its whole outline: a big area would
        # leave no room for the other end of the action).
        if aid in polys:
            items = [i.box for i in layout.items
                     if i.parent == aid and not i.in_panel and i.kind not in ("area", "panel")]
            if not items:
                return
            x0, y0, x1, y1 = items[0]
            for b in items:
                x0, y0, x1, y1 = min(x0, b[0]), min(y0, b[1]), max(x1, b[2]), max(y1, b[3])
            boxes.append((x0, y0, x1, y1))

    def area_at(p: Point) -> str | None:
        return min(by_area, key=lambda aid: math.dist(by_area[aid].centre, p)) if by_area else None

    # The turn's key events first (issue 25 point 12): units eliminated or hit.
    struck = {c.id for c in view.changes if c.what in ("eliminated", "hit")}
    boxes += [i.box for i in layout.items if (i.kind == "gone" or (i.kind == "counter" and i.id in struck))
              and not i.in_panel]
    for mark in reversed(view.marks):
        if mark.points:
            end = area_at(mark.points[-1])
            if end:
                area_box(end)
    for mark in reversed(view.marks):
        if mark.points:
            start = area_at(mark.points[0])
            if start:
                area_box(start)
    for aid in view.focus:
        area_box(aid)
    changed = {c.id for c in view.changes}
    for item in layout.items:
        if item.kind == "counter" and (item.id in changed or item.id in view.focus) and not item.in_panel:
            boxes.append(item.box)
        elif item.kind == "gone":
            boxes.append(item.box)
    return boxes


def find_in_area(polygon: list[Point], taken: list[Box], size: tuple[float, float],
                 anchor: Point) -> Box | None:
    """Where a box of ``size`` goes in the area ``polygon``, clear of ``taken``, nearest
    ``anchor`` (:class:`AreaMask`), or None.  A pure function of the polygon and the boxes
    that reach its mask (the mask's own test), so it is cached by them: an area's tags are
    placed again only when something near it changed (issue 41: masks made afresh for every
    entrance and label were a third of a focus picture's render)."""
    xs = [p[0] for p in polygon]
    ys = [p[1] for p in polygon]
    x0, y0 = math.floor(min(xs)), math.floor(min(ys))
    x1, y1 = math.ceil(max(xs)) + CELL, math.ceil(max(ys)) + CELL
    near = tuple((b[0], b[1], b[2], b[3]) for b in taken if b[2] >= x0 and b[3] >= y0 and b[0] <= x1 and b[1] <= y1)
    return _find_in_area(tuple(polygon), near, size, anchor)


@cached(maxsize=2048)
def _find_in_area(polygon: tuple[Point, ...], near: tuple[Box, ...], size: tuple[float, float],
                  anchor: Point) -> Box | None:
    mask = AreaMask(list(polygon), list(near))
    return mask.find(size, mask.candidates(anchor))


def place_released_labels(view: AreaMapView, released: set[str], spots: tuple[dict[str, Box], ...],
                          polys: dict[str, list[Point]], map_box: Box, taken: list[Box],
                          reserved: list[Box]) -> None:
    """Labels and tags of areas that gave their spots up to chips: as near their preferred
    spot as the area allows (``spots`` are updated; every final box is added to ``taken``)."""
    for area in view.areas:
        for boxes in spots:
            if area.id not in boxes:
                continue
            box = boxes[area.id]
            if area.id in released:
                others = taken + reserved
                size = (box[2] - box[0], box[3] - box[1])
                centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
                box = find_in_area(polys[area.id], others, size, centre) or Placer(map_box, others).search(centre, size)
                boxes[area.id] = box
            taken.append(box)


def place_entrances(view: AreaMapView, polys: dict[str, list[Point]], map_box: Box,
                    taken: list[Box], reserved: list[Box]) -> dict[str, tuple[str, Box]]:
    """Reinforcement entrances: a tag inside the area, near its point closest to the map
    edge, where the units come on.  A courtesy: dropped if the area has no room."""
    out: dict[str, tuple[str, Box]] = {}
    for area in view.areas:
        if not area.entrance:
            continue
        text = f"in: {clean(area.entrance)}"
        w, _ = Canvas.text_size(text, SMALL)
        size = (w + 2 * PILL_PAD + 2, PILL_H)
        edge = min(polys[area.id], key=lambda p: min(p[0] - map_box[0], map_box[2] - p[0],
                                                      p[1] - map_box[1], map_box[3] - p[1]))
        found = find_in_area(polys[area.id], taken + reserved, size, edge)
        if found is not None:
            out[area.id] = (text, found)
            taken.append(found)
    return out


def place_gone(view: AreaMapView, polys: dict[str, list[Point]], map_box: Box,
               taken: list[Box]) -> dict[tuple[str, str], Box]:
    """A tag "X VDV-3" in the area where each unit eliminated since the player's last order
    was: eliminations show on the picture, not only in the words."""
    out: dict[tuple[str, str], Box] = {}
    for change in view.changes:
        if change.what != "eliminated" or change.where not in polys:
            continue
        text = f"X {clean(change.id)}"
        w, _ = Canvas.text_size(text, SMALL)
        size = (w + 2 * PILL_PAD + 2, PILL_H)
        poly = polys[change.where]
        centre = ((bbox(poly)[0] + bbox(poly)[2]) / 2, (bbox(poly)[1] + bbox(poly)[3]) / 2)
        box = find_in_area(poly, taken, size, centre) or Placer(map_box, taken).search(centre, size)
        out[(change.where, text)] = box
        taken.append(box)
    return out


def draw_gone(canvas: Surface, text: str, box: Box) -> None:
    """An eliminated unit's tag: grey, framed in the "changed" colour (the X says it; a line
    through the name would make it harder to read on a phone)."""
    canvas.rect(box, fill=tint(PALETTE["eliminated"], 0.6), outline=PALETTE["changed"], width=2, radius=5)
    canvas.text_in(box, text, SMALL, PALETTE["ink"])


def symbol_box(pts: list[Point]) -> Box:
    """Where a mark's arrowhead or burst is drawn: just short of its end, on the incoming side
    (an area's label takes a corner clear of it)."""
    x, y = pts[-1]
    if len(pts) > 1:
        d = math.dist(pts[-2], pts[-1]) or 1.0
        x -= (pts[-1][0] - pts[-2][0]) / d * 16
        y -= (pts[-1][1] - pts[-2][1]) / d * 16
    return (x - 12, y - 12, x + 12, y + 12)


def draw_changed(canvas: Surface, box: Box) -> None:
    """A unit changed since the player's last order: a thick orange frame round its chip."""
    canvas.rect((box[0] - 3, box[1] - 3, box[2] + 3, box[3] + 3), outline=PALETTE["changed"],
                width=3, radius=7)


def area_label_text(area: AreaView) -> str:
    """The area's number, and its terrain modifier when it has one (``12 TM+1``)."""
    text = clean(area.id)
    return f"{text} TM{area.tm:+d}" if area.tm else text


class StaticKey(NamedTuple):
    """Everything the static layer of a map shows (:func:`_static_map`'s arguments)."""

    areas: tuple[tuple[str, tuple[Point, ...]], ...]
    looks: tuple[tuple[str, str], ...]
    lines: tuple[tuple[str, tuple[Point, ...]], ...]
    scale: float
    width: int
    height: int
    dx: float
    dy: float


def static_map(view: AreaMapView, tf: Transform, book: StyleBook) -> tuple[Image.Image, Image.Image]:
    """Terrain, textures, rivers and outlines at final size, drawn and reduced once per map,
    and the fixed palette of the map's pictures (its colours and the view's side, marker
    and mark colours)."""
    left, top = round(tf.left) - 1, round(tf.top) - 1
    areas = tuple((a.terrain, tuple(a.polygon)) for a in view.areas)
    looks = tuple((book.terrain(t).fill, book.terrain(t).texture) for t, _ in areas)
    lines = tuple((f.kind, tuple(f.points)) for f in view.lines)
    for counter in view.counters:
        book.look(counter.faction)
    key = StaticKey(areas, looks, lines, tf.scale, math.ceil(view.width * tf.scale) + 4,
                    math.ceil(view.height * tf.scale) + 4, tf.left - left, tf.top - top)
    return _static_map(*key), _palette(key, book.colours())


@held(maxsize=8)
def _static_map(areas: tuple[tuple[str, tuple[Point, ...]], ...],
                looks: tuple[tuple[str, str], ...],
                lines: tuple[tuple[str, tuple[Point, ...]], ...], scale: float,
                width: int, height: int, dx: float, dy: float) -> Image.Image:
    return map_background(areas, looks, lines, scale, width, height, dx, dy).reduced()


@held(maxsize=32)
def _palette(key: StaticKey, colours: tuple[RGB, ...]) -> Image.Image:
    """The fixed palette of a map's pictures (see :func:`render.style.fixed_palette`)."""
    return fixed_palette(_static_map(*key), colours)


def pull_back(points: list[Point], boxes: list[Box], margin: float = 4.0) -> list[Point]:
    """The polyline with its end moved back along the last segment until clear of ``boxes``."""
    if len(points) < 2:
        return points

    def covered(p: Point) -> bool:
        return any(b[0] - margin <= p[0] <= b[2] + margin and b[1] - margin <= p[1] <= b[3] + margin
                   for b in boxes)

    a, b = points[-2], points[-1]
    if not covered(b):
        return points
    length = math.dist(a, b)
    steps = max(1, int(length // 3))
    for k in range(1, steps):
        t = 1 - k / steps
        p = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
        if not covered(p):
            # Keep at least 30 px of the last segment so the arrow still shows its way.
            if math.dist(a, p) < 30:
                return points
            return points[:-1] + [p]
    return points


def midpoint(points: list[Point]) -> Point:
    """The point halfway along a polyline (where a mark's label goes)."""
    if len(points) == 1:
        return points[0]
    lengths = [math.dist(a, b) for a, b in zip(points, points[1:])]
    half = sum(lengths) / 2
    for (a, b), length in zip(zip(points, points[1:]), lengths):
        if half <= length and length > 0:
            t = half / length
            return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
        half -= length
    return points[-1]


# -- drawing the map ----------------------------------------------------------------------------


def clip_segment(a: Point, b: Point, polygon: list[Point]) -> list[tuple[Point, Point]]:
    """The parts of segment ``a``-``b`` inside ``polygon`` (even-odd crossings)."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    ts = []
    for (px, py), (qx, qy) in zip(polygon, polygon[1:] + polygon[:1]):
        ex, ey = qx - px, qy - py
        denom = dx * ey - dy * ex
        if denom == 0:
            continue
        t = ((px - a[0]) * ey - (py - a[1]) * ex) / denom
        u = ((px - a[0]) * dy - (py - a[1]) * dx) / denom
        if 0 <= t <= 1 and 0 <= u < 1:
            ts.append(t)
    if point_in_polygon(a[0], a[1], polygon):
        ts.append(0.0)
    if point_in_polygon(b[0], b[1], polygon):
        ts.append(1.0)
    ts.sort()
    return [((a[0] + dx * t0, a[1] + dy * t0), (a[0] + dx * t1, a[1] + dy * t1))
            for t0, t1 in zip(ts[::2], ts[1::2])]


Primitive = tuple[str, tuple[float, ...]]


@cached(maxsize=512)
def texture_primitives(texture: str, polygon: tuple[Point, ...]) -> tuple[Primitive, ...]:
    """The dots, squares or lines of an area's texture (cached: a map's areas never change).

    Trees (``dots``), buildings (``squares``), ``furrows`` or ``contours`` tell terrain apart
    in greyscale too.  Drawn as primitives clipped to the polygon, anchored to the image,
    not the area, so neighbours line up.  Another texture draws nothing here.
    """
    poly = list(polygon)
    x0, y0, x1, y1 = bbox(poly)
    out: list[Primitive] = []
    if texture in ("dots", "squares"):
        woods = texture == "dots"
        step = 24.0 if woods else 20.0
        r = 4.5 if woods else 4.0
        row = math.floor(y0 / step)
        while row * step <= y1:
            y = row * step
            x = math.floor(x0 / step) * step + (row % 2) * step / 2
            while x <= x1:
                # The centre alone decides: a dot that overhangs the border a little is
                # covered by the area outlines drawn later.
                if point_in_polygon(x, y, poly):
                    out.append(("dot" if woods else "square", (x, y, r)))
                x += step
            row += 1
    elif texture in ("furrows", "contours"):
        # Diagonal furrows (fields); level contour lines (hills).
        fields = texture == "furrows"
        step = 14.0 if fields else 16.0
        height = y1 - y0
        v = math.floor(((x0 - height) if fields else y0) / step) * step
        while v <= (x1 if fields else y1):
            a, b = ((v, y1), (v + height, y0)) if fields else ((x0 - 1, v), (x1 + 1, v))
            for p, q in clip_segment(a, b, poly):
                out.append(("line", (p[0], p[1], q[0], q[1])))
            v += step
    return tuple(out)


def draw_texture(canvas: Canvas, texture: str, polygon: list[Point], fill: RGB) -> None:
    """Draw an area's texture in a darker shade of its fill."""
    ink = shade(fill, 0.28)
    for kind, v in texture_primitives(texture, tuple(polygon)):
        if kind == "dot":
            canvas.ellipse(v[0], v[1], v[2], fill=ink)
        elif kind == "square":
            canvas.rect((v[0] - v[2], v[1] - v[2], v[0] + v[2], v[1] + v[2]), fill=ink)
        else:
            canvas.line([(v[0], v[1]), (v[2], v[3])], ink, 1.1)


def map_background(areas: tuple[tuple[str, tuple[Point, ...]], ...],
                   looks: tuple[tuple[str, str], ...],
                   lines: tuple[tuple[str, tuple[Point, ...]], ...], scale: float,
                   width: int, height: int, dx: float, dy: float) -> Canvas:
    """The static map at drawing scale: each area's fill and texture (from the view's
    terrain styles), the line features, the outlines."""
    canvas = Canvas(width, height)

    def local(points: tuple[Point, ...]) -> list[Point]:
        return [(dx + x * scale, dy + y * scale) for x, y in points]

    for (_, polygon), (fill_key, texture) in zip(areas, looks):
        pts = local(polygon)
        fill = colour(fill_key, "clear")
        canvas.polygon(pts, fill=fill)
        draw_texture(canvas, texture, pts, fill)
    for kind, points in lines:
        draw_line_feature(canvas, kind, local(points))
    for _, polygon in areas:
        canvas.polygon(local(polygon), outline=PALETTE["ink_soft"], width=1.6)
    return canvas


def draw_line_feature(canvas: Canvas, kind: str, points: list[Point]) -> None:
    """Rivers as wide blue bands, bridges as brown decks with end ticks, roads, rails."""
    if len(points) < 2:
        return
    if kind == "river":
        canvas.line(points, shade(PALETTE["river"], 0.35), 14)
        canvas.line(points, PALETTE["river"], 10)
    elif kind == "bridge":
        canvas.line(points, PALETTE["ink"], 11)
        canvas.line(points, PALETTE["bridge"], 7)
        for end, nxt in ((points[0], points[1]), (points[-1], points[-2])):
            length = math.dist(end, nxt) or 1.0
            ux, uy = (end[0] - nxt[0]) / length, (end[1] - nxt[1]) / length
            canvas.line([(end[0] - uy * 8 + ux * 4, end[1] + ux * 8 + uy * 4),
                         (end[0] + uy * 8 + ux * 4, end[1] - ux * 8 + uy * 4)], PALETTE["ink"], 3)
    elif kind == "road":
        canvas.line(points, shade(PALETTE["road"], 0.3), 6)
        canvas.line(points, PALETTE["road"], 4)
    else:
        canvas.line(points, PALETTE["rail"], 3)
        canvas.dashed(points, PALETTE["paper"], 2, dash=8, gap=8)


def draw_area_label(canvas: Surface, area: AreaView, centre: Point, box: Box,
                    layout: Layout) -> None:
    """The centre dot (lines of sight are traced from it) and the area's id (and TM)."""
    text = area_label_text(area)

    def dot(c: Canvas) -> None:
        c.ellipse(centre[0], centre[1], 5, fill=PALETTE["ink"], outline=PALETTE["halo"], width=1.5)

    def label(c: Canvas) -> None:
        c.rect(box, fill=tint(PALETTE["paper"], 0.3), outline=PALETTE["ink_soft"], width=1, radius=4)
        c.text_in(box, text, BODY, PALETTE["ink"], bold=True)

    # Lazy: a map's thirty labels are looked up only where a focus crop shows them.
    piece(canvas, ("dot",), (centre[0] - 5, centre[1] - 5, centre[0] + 5, centre[1] + 5), dot, lazy=True)
    piece(canvas, ("area_label", text), box, label, lazy=True)
    layout.add("area_label", area.id, box, parent=area.id, text=BODY)


def star(cx: float, cy: float, r: float) -> list[Point]:
    """A five-pointed star (the objective symbol), point up."""
    points = []
    for k in range(10):
        radius = r if k % 2 == 0 else r * 0.45
        angle = -math.pi / 2 + k * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return points


def draw_objective(canvas: Surface, area: AreaView, box: Box, book: SideBook,
                   layout: Layout) -> None:
    """An objective tag: a star (filled gold: main; pale: secondary) and who controls it."""
    look = book.look(area.controller) if area.controller else None
    key = ("objective", area.objective, look and (look.letter, look.rgb, look.shape))
    piece(canvas, key, box, lambda c: _draw_objective(c, area, box, book), lazy=True)
    layout.add("objective", area.id, box, parent=area.id)


def _draw_objective(canvas: Canvas, area: AreaView, box: Box, book: SideBook) -> None:
    x0, y0, x1, y1 = box
    canvas.rect(box, fill=PALETTE["paper"], outline=PALETTE["ink"], width=1.5, radius=6)
    main = area.objective == "main"
    r = OBJ_SIZE / 2 - 2
    fill = PALETTE["objective_main"] if main else PALETTE["objective_secondary"]
    canvas.polygon(star(x0 + OBJ_SIZE / 2, y0 + OBJ_SIZE / 2 + 1, r), fill=fill,
                   outline=PALETTE["ink"], width=1.6 if main else 1)
    cx = x0 + OBJ_SIZE * 1.5
    if area.controller:
        canvas.badge(cx, (y0 + y1) / 2, OBJ_SIZE - 10, book.look(area.controller))
    else:
        canvas.text((cx, (y0 + y1) / 2), "-", BODY, PALETTE["ink_soft"], anchor="mm")


# -- the panel of crowded areas -----------------------------------------------------------------


def panel_layout(crowded: list[str], blocks_by_area: dict[str, list[Block]],
                 top: float, width: int = WIDTH) -> tuple[list[tuple[str, float, float, list[tuple[Block, Box]]]], float]:
    """Rows of the crowded-areas panel: (area, heading y, row height, placed blocks)."""
    rows: list[tuple[str, float, float, list[tuple[Block, Box]]]] = []
    y = top
    if not crowded:
        return rows, 0.0
    y += 8
    for area_id in crowded:
        heading_y = y
        y += PANEL_HEAD
        x = float(MARGIN)
        row_h = 0.0
        placed: list[tuple[Block, Box]] = []
        for block in blocks_by_area[area_id]:
            w, h = block.size
            if x > MARGIN and x + w > width - MARGIN:
                y += row_h + 6
                x, row_h = float(MARGIN), 0.0
            placed.append((block, (x, y, x + w, y + h)))
            x += w + 8
            row_h = max(row_h, h)
        y += row_h + 10
        rows.append((area_id, heading_y, row_h, placed))
    return rows, y - top + 4


def panel_heading(area_id: str, counters: Sequence[CounterView]) -> str:
    """``Area 15: 2 units + NIKOLAS, SAGGER``: the units counted, then by name the leaders and
    teams that ride with them (a view's ``counted``), which are not units of the tally."""
    count = sum(1 for c in counters if c.counted)
    riders = [clean(c.label) for c in counters if not c.counted]
    return (f"Area {clean(area_id)}: {count} unit{'' if count == 1 else 's'}"
            + (f" + {', '.join(riders)}" if riders else ""))


def draw_panel(canvas: Surface, crowded: list[str], blocks_by_area: dict[str, list[Block]],
               rows: list[tuple[str, float, float, list[tuple[Block, Box]]]], top: float,
               layout: Layout, changed: Mapping[str, str] | None = None) -> None:
    """Every chip of each crowded area, under a heading naming the area."""
    if not rows:
        return
    bottom = max(box[3] for _, _, _, placed in rows for _, box in placed) + 10
    canvas.rect((0, top, canvas.width, bottom), fill=PALETTE["panel"])
    for area_id, heading_y, _, placed in rows:
        text = panel_heading(area_id, [c for block, _ in placed for c in block.counters])
        w, h = Canvas.text_size(text, BODY)
        head = (MARGIN, heading_y + 4, MARGIN + w + 12, heading_y + 4 + h + 2)
        canvas.rect(head, fill=PALETTE["header"], radius=5)
        canvas.text((MARGIN + 6, (head[1] + head[3]) / 2), text, BODY, PALETTE["header_ink"],
                    anchor="lm", bold=True)
        layout.add("panel", area_id, head, parent=area_id)
        for block, box in placed:
            for chip, counter, cbox in zip(block.chips, block.counters, block.boxes(box[0], box[1])):
                draw_chip(canvas, chip, cbox[0], cbox[1])
                if changed and counter.id in changed:
                    draw_changed(canvas, cbox)
                    draw_change_tag(canvas, cbox, changed[counter.id], layout, counter.id)
                layout.add("counter", counter.id, cbox, parent=area_id, in_panel=True,
                           text=CHIP_LABEL)


def legend(view: AreaMapView, book: StyleBook, bare: Sequence[str] = ()) -> list[LegendEntry]:
    """The legend: sides, objectives, markers and marks in this image, terrain, notes, and
    the counters whose printed values had no room on their chip (``bare``)."""
    for counter in view.counters:
        book.look(counter.faction)
    entries = side_entries(book)
    entries += change_entries([c for c in view.changes if c.what != "eliminated"])
    entries += _objective_entries(view)
    entries += marker_entries(_markers_shown(view), book)
    entries += mark_entries(view.marks, book)
    entries += terrain_entries((a.terrain for a in view.areas), book)
    if any(a.tm for a in view.areas) and not any("TM" in t for t in view.legend):
        entries.append(LegendEntry("text", "TM = terrain modifier"))
    entries += note_entries(view.legend)
    if bare:
        entries.append(LegendEntry("text", f"No room for the values on: {', '.join(bare)}"))
    return entries


def _objective_entries(view: AreaMapView) -> list[LegendEntry]:
    """The eliminated-there tag and the objective swatches, where the map shows them."""
    entries: list[LegendEntry] = []
    if any(c.what == "eliminated" and c.where for c in view.changes):
        entries.append(LegendEntry("pill", "eliminated there", key="#cfcfcf", pill="X name"))
    if any(a.objective == "main" for a in view.areas):
        entries.append(LegendEntry("swatch", "main objective", key="objective_main"))
    if any(a.objective == "secondary" for a in view.areas):
        entries.append(LegendEntry("swatch", "secondary", key="objective_secondary"))
    return entries


def _markers_shown(view: AreaMapView) -> list[str]:
    """The markers on the counters drawn on the map, first seen first ("reduced" leads)."""
    markers: list[str] = []
    if any(c.reduced for c in view.counters if c.area):
        markers.append("reduced")
    for counter in view.counters:
        if counter.area:
            markers += [m for m in dict.fromkeys(x.lower() for x in counter.markers) if m not in markers]
    return markers
