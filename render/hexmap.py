"""The hex-map snapshot (geomorphic boards of hexes): terrain, elevation, ridgelines, counters.

Two framings of the same :class:`~rules.core.views.HexMapView`:

* **focus** (the picture posted after an order, when the view names ``focus`` hexes): a crop
  of about 9 x 7 hexes around the action, :data:`render.scene.FOCUS_MAX` (750) px wide like
  every system's focus picture, so its smallest text (17 px) shows at 9 px or more on a phone
  that shows it 400 px wide; big hexes with the four-digit number printed in every hex;
* **whole** (``/game map``, or a view without focus): every board, smaller hexes, the hex
  numbers as rulers (column numbers along the top and bottom of each board, row numbers down
  its sides) and the board number printed faintly in its middle, since a four-digit number
  does not fit a small hex at the 17 px minimum.

Hexes are flat-topped in columns; even-numbered book columns sit half a hex lower.  Terrain
is a fill colour (with a pattern for forest and buildings, so it reads in greyscale);
elevation darkens the fill and draws a contour along sides that drop to a lower hex; ridges
are heavy brown hexside lines with ticks, walls dark grey.  Counters are one fixed size,
centred in their hex: the side's colour, its letter and shape in a badge, the type name, a
marker strip (``AD`` armament disabled, ``IM`` immobilised, ``R3`` rockets fired...), a wedge
for facing where the view gives one; a stack shows the top counter over offset edges with a
count badge.  The last move or attack is drawn over everything, with its label.

The static part (terrain, sides, numbers) is drawn once per map and framing and cached.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.caches import MISSING, held, keep, recall
from render.changes import change_entries, draw_changes_on
from render.chrome import LegendEntry, draw_header, draw_legend, header_height, legend_height, mark_entries, side_entries
from render.hexpanel import draw_panel, panel_height
from render.layout import Box, Layout, Placer, Snapshot
from render.registry import renderer
from render.banner import draw_banner
from render.scene import FOCUS_MAX, strip
from render.marks import draw_mark_label, draw_mark_line, mark_label_size
from render.style import BODY, MARGIN, PALETTE, SCALE, SMALL, WIDTH, Canvas, Frame as Picture, SideBook, Surface, clean, hex_rgb, ink_height, ink_on, shade, tint
from rules.core.views import HexBoardView, HexCellView, HexCounterView, HexMapView, HexMark, HexMarkerView, Mark

Point = tuple[float, float]
SQRT3 = math.sqrt(3)

#: Terrain fills (style keys of the view), pale so counters stand out; unknown keys fall back.
TERRAIN: dict[str, str] = {
    "clear": "#eee9d2", "forest": "#a4c78e", "woods": "#a4c78e", "building": "#b9a48f",
    "water": "#93bde3", "river": "#93bde3", "hill": "#d8bd86", "rough": "#d6cdb4",
    "desert": "#efdca6", "heights": "#e3d7aa", "swamp": "#b6cfb8", "road": "#d9c9a4", "crater": "#c9bba6",
}
FALLBACK_TERRAIN = "#e4e0d0"
RIDGE = hex_rgb("#7a4b1e")
WALL = hex_rgb("#3d3d3d")
CONTOUR = hex_rgb("#8c6a3c")

#: Marker words on counters -> (short tag, fill).  Unknown markers: their first three letters.
TAGS: dict[str, tuple[str, str]] = {
    "arm. disabled": ("AD", "#e0592a"),
    "immobilized": ("IM", "#e7c12f"),
    "morale broken": ("MB", "#c58be0"),
    "pinned": ("PIN", "#e0592a"),
    "carried": ("CAR", "#cccccc"),
    "spotter": ("SP", "#9fd0ef"),
    "drained": ("DR", "#e0592a"),
    "transported": ("IN", "#9fd0ef"),
    "transporting": ("TR", "#9fd0ef"),
    "amu": ("AMU", "#4aa3df"),
}
#: Tags and hex markers of a side's own secrets (issue 28), drawn only in that side's picture,
#: in colours the palette has already (so every other picture keeps its bytes).
SECRET_TAGS: dict[str, tuple[str, str]] = {"concealed": ("CON", "#cccccc")}  # 15.0
SECRET_MARKERS: dict[str, tuple[str, str]] = {"mine_own": ("OWN MINE ", "#f4a6a6")}  # 19.1.1
TAG_WORDS = {"CON": "under your concealment marker (only you see it)", "AD": "Arm. Disabled", "IM": "Immobilized", "MB": "Morale Broken", "R": "rockets fired",
             "PF": "PanzerFaust fired", "PIN": "pinned", "CAR": "carried", "SP": "spotter",
             "IN": "transported", "TR": "transporting"}
#: Minefields (19.1), public and one's own: on the whole map (small hexes, no numbers in
#: them) their hex is outlined in the tag's colour, under the counters.
MINE_KINDS = ("mine", "mine_own")
#: Markers lying in hexes: (text prefix, fill).
HEX_MARKERS: dict[str, tuple[str, str]] = {
    "smoke": ("SMK", "#9a9a9a"), "fire": ("FIRE", "#e8642c"), "depot": ("DEP", "#d4a017"),
    "position": ("DP", "#b08850"), "amu": ("AMU", "#4aa3df"), "objective": ("OBJ", "#d4a017"),
    "artillery": ("ART", "#f4a6a6"),
    "mine": ("MINE", "#c0392b"),
}

FOCUS_SIZE = 54.0  # hex circumradius in the focus crop (numbers fit in every hex)
WHOLE_SIZE = 32.0  # hex circumradius on the whole map
FOCUS_COLS, FOCUS_ROWS = 9, 7  # at FOCUS_MAX px wide, hexes stay about FOCUS_SIZE
STACK_STEP = 3.0  # how far each counter under the top one shows, up and right
COUNTER_W, COUNTER_H = 46.0, 40.0  # the smallest counter (whole map); bigger in the focus crop
RULER = 24.0


def tag_of(marker: str) -> tuple[str, str]:
    """The short tag and fill of a counter marker (``R3`` and ``PF1`` pass through)."""
    key = marker.strip().lower()
    if key in TAGS:
        return TAGS[key]
    if key in SECRET_TAGS:
        return SECRET_TAGS[key]
    text = clean(marker)[:4] or "?"
    return (text.upper() if len(text) <= 3 else text[:3].upper(), "#dddddd")


@dataclass(frozen=True)
class Frame:
    """Which hexes are drawn and where: a window of map columns/rows at one hex size."""

    col0: int
    row0: int
    cols: int
    rows: int
    size: float
    left: float
    top: float
    focus: bool

    def centre(self, col: int, row: int) -> Point:
        """Pixel centre of map hex ``(col, row)``."""
        r = self.size
        x = self.left + r + (col - self.col0) * 1.5 * r
        y = self.top + SQRT3 / 2 * r + (row - self.row0) * SQRT3 * r + (SQRT3 / 2 * r if col % 2 else 0)
        return (x, y)

    def corners(self, col: int, row: int, inset: float = 0.0) -> list[Point]:
        """The six corners (east first, clockwise on screen)."""
        cx, cy = self.centre(col, row)
        r = self.size - inset
        return [(cx + r * math.cos(math.radians(60 * k)), cy + r * math.sin(math.radians(60 * k)))
                for k in range(6)]

    def side_points(self, col: int, row: int, direction: int) -> tuple[Point, Point]:
        """The two ends of side ``direction`` (0 = N, clockwise) of a hex."""
        pts = self.corners(col, row)
        return pts[(4 + direction) % 6], pts[(5 + direction) % 6]

    def shows(self, col: int, row: int) -> bool:
        """Whether the hex is inside the window."""
        return self.col0 <= col < self.col0 + self.cols and self.row0 <= row < self.row0 + self.rows

    @property
    def counter(self) -> tuple[float, float]:
        """Width and height of every counter in this frame (one fixed size)."""
        return (max(COUNTER_W, 1.3 * self.size), max(COUNTER_H, 1.15 * self.size))

    @property
    def counter_drop(self) -> float:
        """How far below the hex's centre a counter sits: in the focus crop, far enough that
        the counter (and the two under it in a stack, drawn 2 * STACK_STEP higher) leaves the
        hex's number at its top clear (issue 25 point 13: names over the numbers)."""
        if not self.focus:
            return 0.0
        top_free = -SQRT3 / 2 * self.size + 1 + number_height() + 2
        return max(0.0, top_free + 2 * STACK_STEP + self.counter[1] / 2)

    @property
    def pixel_size(self) -> tuple[float, float]:
        """Width and height of the drawn hexes."""
        r = self.size
        return (r * (1.5 * self.cols + 0.5), SQRT3 * r * (self.rows + 0.5))


def map_extent(view: HexMapView) -> tuple[int, int]:
    """Columns and rows of the whole map."""
    return (max(b.col + b.columns for b in view.boards), max(b.row + b.rows for b in view.boards))


def _window(view: HexMapView) -> tuple[int, int, int, int]:
    """``(col0, row0, cols, rows)`` of the focus crop: the action's box, padded, clamped."""
    width, height = map_extent(view)
    points = list(view.focus) + [p for m in view.marks for p in m.hexes]
    cols, rows = min(FOCUS_COLS, width), min(FOCUS_ROWS, height)
    c0, c1 = min(p[0] for p in points), max(p[0] for p in points)
    r0, r1 = min(p[1] for p in points), max(p[1] for p in points)
    cols = min(width, max(cols, c1 - c0 + 5))
    rows = min(height, max(rows, r1 - r0 + 5))
    col0 = min(max(0, (c0 + c1) // 2 - cols // 2), width - cols)
    row0 = min(max(0, (r0 + r1) // 2 - rows // 2), height - rows)
    return col0 - col0 % 2, row0, min(cols + col0 % 2, width - col0 + col0 % 2), rows


def make_frame(view: HexMapView, top: float) -> Frame:
    """The frame of this snapshot: the focus crop, or the whole map."""
    focus = bool(view.focus) and not view.whole
    if focus:
        col0, row0, cols, rows = _window(view)
        fit = (FOCUS_MAX - 2 * MARGIN) / (1.5 * cols + 0.5)
        return snapped(Frame(col0, row0, cols, rows, min(FOCUS_SIZE, fit), MARGIN, top + MARGIN, True))
    cols, rows = map_extent(view)
    return Frame(0, 0, cols, rows, WHOLE_SIZE, MARGIN + RULER, top + MARGIN + RULER, False)


# -- the static layer ----------------------------------------------------------------------------


def terrain_fill(cell: HexCellView) -> tuple[int, int, int]:
    """The hex's fill: its terrain colour, darkened for each elevation level (6.2)."""
    rgb = hex_rgb(TERRAIN.get(cell.terrain, FALLBACK_TERRAIN))
    return shade(rgb, 0.16 * max(0, cell.elevation))


def _draw_pattern(canvas: Canvas, cell: HexCellView, frame: Frame) -> None:
    """A pattern so terrain reads without colour: tree dots, building blocks, water waves."""
    cx, cy = frame.centre(cell.col, cell.row)
    r = frame.size
    if cell.terrain in ("forest", "woods"):
        for dx, dy in ((-0.45, -0.3), (0.45, -0.3), (0, 0.5), (-0.5, 0.35), (0.5, 0.35)):
            canvas.ellipse(cx + dx * r, cy + dy * r, r * 0.13, fill=hex_rgb("#6f9a5a"))
    elif cell.terrain == "building" and not cell.partial:
        s = r * 0.34
        canvas.rect((cx - s, cy - s, cx + s, cy + s), fill=hex_rgb("#8a735e"))
    elif cell.terrain in ("water", "river"):
        for dy in (-0.3, 0.3):
            canvas.line([(cx - r * 0.5, cy + dy * r), (cx - r * 0.15, cy + dy * r - 3),
                         (cx + r * 0.15, cy + dy * r), (cx + r * 0.5, cy + dy * r - 3)],
                        hex_rgb("#5d8fc0"), 1.5)
    if cell.partial:
        # 7.1.7: a partial building hex, a block in the north-west corner only.
        s = r * 0.3
        canvas.rect((cx - r * 0.62, cy - r * 0.62, cx - r * 0.62 + s * 1.4, cy - r * 0.62 + s * 1.4),
                    fill=hex_rgb("#8a735e"))


def _draw_cell(canvas: Canvas, cell: HexCellView, frame: Frame) -> None:
    canvas.polygon(frame.corners(cell.col, cell.row), fill=terrain_fill(cell), outline=PALETTE["grid"], width=1)
    _draw_pattern(canvas, cell, frame)


def _draw_contours(canvas: Canvas, view: HexMapView, frame: Frame) -> None:
    """A contour line on every side where the ground drops to a lower hex (6.2)."""
    level = {(c.col, c.row): c.elevation for c in view.cells}
    for cell in view.cells:
        if cell.elevation <= 0 or not frame.shows(cell.col, cell.row):
            continue
        for d in range(6):
            other = _neighbour(cell.col, cell.row, d)
            if level.get(other, 0) < cell.elevation:
                canvas.line(list(frame.side_points(cell.col, cell.row, d)), CONTOUR, 2.5)


def _draw_roads(canvas: Canvas, view: HexMapView, frame: Frame) -> None:
    """A road from centre to centre of neighbouring road hexes (7.1.6: movement along it)."""
    roads = {(c.col, c.row) for c in view.cells if c.road}
    for col, row in roads:
        if not frame.shows(col, row):
            continue
        here = frame.centre(col, row)
        for d in (1, 2, 3):  # each link once: towards NE, SE and S
            other = _neighbour(col, row, d)
            if other in roads:
                canvas.line([here, frame.centre(*other)], PALETTE["road"], max(4.0, frame.size * 0.18))


def _neighbour(col: int, row: int, direction: int) -> tuple[int, int]:
    """The offset neighbour (odd 0-based columns sit lower)."""
    low = col % 2
    deltas = [(0, -1), (1, -1 + low), (1, low), (0, 1), (-1, low), (-1, -1 + low)]
    dc, dr = deltas[direction]
    return (col + dc, row + dr)


def _draw_hexside(canvas: Canvas, frame: Frame, col: int, row: int, direction: int, kind: str) -> None:
    a, b = frame.side_points(col, row, direction)
    if kind == "wall":
        canvas.line([a, b], WALL, 5)
        return
    canvas.line([a, b], RIDGE, 6)
    # Ticks on the ridge (towards the hex the feature is listed for): a ridge, not a road.
    cx, cy = frame.centre(col, row)
    for t in (0.25, 0.5, 0.75):
        px, py = a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t
        canvas.line([(px, py), (px + (cx - px) * 0.22, py + (cy - py) * 0.22)], RIDGE, 3)


def number_height() -> float:
    """How far down a hex number's ink reaches from its top (the digits at ``SMALL``)."""
    return ink_height("0123456789", SMALL)


def number_box(frame: Frame, col: int, row: int, number: str) -> Box:
    """Where a hex's number is printed in the focus crop (see :func:`_draw_numbers`)."""
    cx, cy = frame.centre(col, row)
    w = Canvas.text_size(number, SMALL)[0]
    top = cy - SQRT3 / 2 * frame.size + 1
    return (cx - w / 2, top, cx + w / 2, top + number_height())


def _draw_numbers(canvas: Canvas, view: HexMapView, frame: Frame) -> None:
    """Every hex's number (focus crop) or rulers along each board and its number (whole map)."""
    if frame.focus:
        for cell in view.cells:
            if frame.shows(cell.col, cell.row):
                cx, cy = frame.centre(cell.col, cell.row)
                canvas.text((cx, cy - SQRT3 / 2 * frame.size + 1), cell.number, SMALL,
                            PALETTE["ink_soft"], anchor="mt")
        return
    for b in view.boards:
        x0, y0 = frame.centre(b.col, b.row)
        x1, y1 = frame.centre(b.col + b.columns - 1, b.row + b.rows - 1)
        canvas.text(((x0 + x1) / 2, (y0 + y1) / 2), str(b.board), 96, tint(PALETTE["ink_soft"], 0.55),
                    anchor="mm")
        _draw_rulers(canvas, b, frame)


def _draw_rulers(canvas: Canvas, board: HexBoardView, frame: Frame) -> None:
    """Column numbers above and below a board; row numbers only on the map's outer sides
    (boards side by side share their rows, and a ruler at the join would cover hexes)."""
    col, row, columns, rows = board.col, board.row, board.columns, board.rows
    ink = PALETTE["ink_soft"]
    top = frame.centre(col, row)[1] - SQRT3 / 2 * frame.size
    bottom = frame.centre(col + 1, row + rows - 1)[1] + SQRT3 / 2 * frame.size
    for c in range(columns):
        x = frame.centre(col + c, row)[0]
        canvas.text((x, top - 2), f"{c + 1:02d}", SMALL, ink, anchor="mb")
        canvas.text((x, bottom + 2), f"{c + 1:02d}", SMALL, ink, anchor="mt")
    left = frame.centre(col, row)[0] - frame.size
    right = frame.centre(col + columns - 1, row)[0] + frame.size
    for r in range(rows):
        y = frame.centre(col, row + r)[1]
        if col == frame.col0:
            canvas.text((left - 2, y), f"{r + 1:02d}", SMALL, ink, anchor="rm")
        if col + columns == frame.col0 + frame.cols:
            canvas.text((right + 2, y), f"{r + 1:02d}", SMALL, ink, anchor="lm")


def static_key(view: HexMapView, frame: Frame, height: int) -> tuple[Hashable, ...]:
    """What the static layer depends on (terrain, sides, numbers, framing)."""
    cells = tuple((c.col, c.row, c.number, c.terrain, c.elevation, c.partial, c.road) for c in view.cells)
    sides = tuple((s.col, s.row, s.direction, s.kind) for s in view.hexsides)
    boards = tuple((b.board, b.col, b.row, b.columns, b.rows) for b in view.boards)
    return (cells, sides, boards, frame, height)


class StaticLayer:
    """The terrain, hexsides and numbers under one picture, at drawing scale (:meth:`drawn`,
    what a :class:`Patch` draws over) and at final size (:attr:`small`), the map's PNG
    palette (:func:`map_palette`) and the texts it shows (the layout's legibility checks).

    The whole map is one layer, drawn once per map.  A focus crop's layer is cut from the
    whole map drawn once per map and hex size (:func:`whole_at`): the crop's hexes through a
    mask of their outlines, paper around them.  Caching a layer per crop thrashed: 43
    pictures of a game used 24 crops against 8 kept, and redrawing the terrain was 70% of
    the render (issue 41)."""

    def __init__(self, big: Image.Image | None, small: Image.Image, palette: Image.Image,
                 texts: tuple[tuple[str, int], ...]) -> None:
        self.big, self.small, self.palette, self.texts = big, small, palette, texts

    def drawn(self, box: tuple[int, int, int, int]) -> Image.Image:
        """The layer over ``box`` (final pixels) at drawing scale, to draw on (a copy)."""
        assert self.big is not None, "a focus crop's layer has none: its picture is drawn on"
        x0, y0, x1, y1 = box
        return self.big.crop((x0 * SCALE, y0 * SCALE, x1 * SCALE, y1 * SCALE))

    def put_on(self, out: Picture) -> None:
        """Lay the layer on a new picture ``out`` as its first step."""
        out.put(self.small, 0, 0)


class CutLayer(StaticLayer):
    """A focus crop's layer: the whole map at its hex size (``whole``), moved by ``shift``
    final pixels, seen through ``mask`` (over ``where``), paper elsewhere.  It has no
    drawing-scale image: what is drawn over a crop is drawn on its picture, each piece in a
    patch of its own (:class:`render.style.Frame`); nor a final-size image of its own: it is
    one step of its picture (:meth:`put_on`), the crop of the whole map pasted through the
    mask on the picture's paper (a picture-size copy of paper and crop, then pasted whole,
    was a seventh of a Maschinen Krieger focus picture, issue 41)."""

    def __init__(self, whole: StaticLayer, shift: tuple[int, int], mask: Image.Image,
                 where: tuple[int, int, int, int], inside: Box,
                 texts: tuple[tuple[str, int], ...]) -> None:
        x0, y0, x1, y1 = where
        dx, dy = shift
        self.cut = whole.small.crop((x0 - dx, y0 - dy, x1 - dx, y1 - dy))
        self.mask, self.where = mask, where
        # Whole pixels inside ``inside`` (the hexes' own, :func:`inner_box`): the mask is
        # opaque there, by a pixel's margin.
        ix0, iy0 = max(x0, math.ceil(inside[0]) + 1), max(y0, math.ceil(inside[1]) + 1)
        ix1, iy1 = min(x1, math.floor(inside[2]) - 1), min(y1, math.floor(inside[3]) - 1)
        self.inner = (ix0, iy0, ix1, iy1) if ix0 < ix1 and iy0 < iy1 else None
        super().__init__(None, self.cut, whole.palette, texts)

    def put_on(self, out: Picture) -> None:
        """The crop through its mask, at :attr:`where` on ``out`` (paper is its background):
        copied where the mask is opaque (:attr:`inner`), blended through it only around
        (pasting all of it through the mask was 3 ms of a focus picture)."""
        x0, y0, x1, y1 = self.where
        if self.inner is None:
            parts = [self.where]
        else:
            ix0, iy0, ix1, iy1 = self.inner
            out.put(self.cut.crop((ix0 - x0, iy0 - y0, ix1 - x0, iy1 - y0)), ix0, iy0)
            parts = [(x0, y0, x1, iy0), (x0, iy1, x1, y1), (x0, iy0, ix0, iy1), (ix1, iy0, x1, iy1)]
        for part in parts:
            if part[0] < part[2] and part[1] < part[3]:
                local = (part[0] - x0, part[1] - y0, part[2] - x0, part[3] - y0)
                out.op(part, _pasting_through(self.cut.crop(local), self.mask.crop(local), part[0], part[1]))


def _pasting_through(image: Image.Image, mask: Image.Image, x: int,
                     y: int) -> "Callable[[Image.Image, int, int], None]":
    """The drawing step pasting ``image`` through ``mask`` with its top-left at ``(x, y)``."""
    return lambda im, ox, oy: im.paste(image, (x - ox, y - oy), mask)


#: The layers' cache (:func:`render.caches.held`: within the workers' budget in bytes).
STATIC_NAME = "render.hexmap.static"
#: Layers kept: a game's whole map and its whole map at each focus hex size (a crop's
#: columns set the size: two or three sizes a game), for a few games at once.
STATIC_CACHE = 8
#: Paper around the whole map drawn for cutting focus crops from (final pixels).
CUT_PAD = 4


def _layer(view: HexMapView, frame: Frame, width: int, height: int) -> StaticLayer:
    """The static layer of ``frame`` drawn on a ``width`` x ``height`` picture (cached)."""
    key = static_key(view, frame, height) + (tuple(s.colour for s in view.sides),)
    known = recall(STATIC_NAME, key)
    if known is not MISSING:
        layer: StaticLayer = known
        return layer
    canvas = Canvas(width, height)
    for cell in view.cells:
        if frame.shows(cell.col, cell.row):
            _draw_cell(canvas, cell, frame)
    _draw_contours(canvas, view, frame)
    _draw_roads(canvas, view, frame)
    for hs in view.hexsides:
        if frame.shows(hs.col, hs.row):
            _draw_hexside(canvas, frame, hs.col, hs.row, hs.direction, hs.kind)
    _draw_numbers(canvas, view, frame)
    small = canvas.image.reduce(SCALE)
    # A focus-size whole map is only ever cut from at final size (:class:`CutLayer`): its
    # drawing-scale image, four times the pixels, is not kept.  Kept, it made each such layer
    # 50-87 MB, and three hex sizes of one game overran the shared budget: the layers
    # evicted each other and a third of mak's focus pictures redrew the whole map (issue 41).
    big = None if frame.focus else canvas.image
    layer = StaticLayer(big, small, map_palette(small, view), tuple(canvas.texts))
    keep(STATIC_NAME, key, layer, STATIC_CACHE)
    return layer


def whole_frame(view: HexMapView, size: float) -> Frame:
    """The whole map framed as a focus crop at hex ``size``, ``CUT_PAD`` from the top-left."""
    cols, rows = map_extent(view)
    return Frame(0, 0, cols, rows, size, CUT_PAD, CUT_PAD, True)


def whole_at(view: HexMapView, size: float) -> StaticLayer:
    """The whole map drawn as focus crops show it (every hex numbered), at hex ``size``."""
    frame = whole_frame(view, size)
    w, h = frame.pixel_size
    return _layer(view, frame, math.ceil(w) + 2 * CUT_PAD, math.ceil(h) + 2 * CUT_PAD)


def snapped(frame: Frame) -> Frame:
    """A focus frame moved by under half a pixel so that its hexes fall on whole pixels of
    the whole map drawn at its size (:func:`whole_at`): its layer is then a plain cut."""
    x = frame.col0 * 1.5 * frame.size - CUT_PAD
    y = frame.row0 * SQRT3 * frame.size - CUT_PAD
    return dataclasses.replace(frame, left=x + round(frame.left - x), top=y + round(frame.top - y))


def static_layer(view: HexMapView, frame: Frame, width: int, height: int) -> StaticLayer:
    """The static layer under a picture of ``frame`` (see :class:`StaticLayer`)."""
    if not frame.focus:
        return _layer(view, frame, width, height)
    whole = whole_at(view, frame.size)
    shift = (round(frame.left - CUT_PAD - frame.col0 * 1.5 * frame.size),
             round(frame.top - CUT_PAD - frame.row0 * SQRT3 * frame.size))
    w, h = frame.pixel_size
    where = (max(0, math.floor(frame.left) - 2), max(0, math.floor(frame.top) - 2),
             min(width, math.ceil(frame.left + w) + 2), min(height, math.ceil(frame.top + h) + 2))
    mask = _crop_mask(frame.cols, frame.rows, frame.size, frame.col0 % 2, frame.left, frame.top, where)
    texts = tuple((c.number, SMALL) for c in view.cells if frame.shows(c.col, c.row))
    return CutLayer(whole, shift, mask, where, inner_box(frame), texts)


@held(maxsize=32)
def _crop_mask(cols: int, rows: int, size: float, odd: int, left: float, top: float,
               where: tuple[int, int, int, int]) -> Image.Image:
    """Where a focus crop's hexes are (their outlines included) over ``where``, drawn at
    drawing scale and reduced: the crop shows its own hexes only, as when drawn alone.

    The hexes are all filled (255), so their union is drawn: the rectangle between the
    extreme hexes' centres, which they cover, then only the hexes of the outer columns and
    rows, which reach past it (drawing every hex of a crop was 6 ms a new crop, issue 41)."""
    frame = Frame(odd, 0, cols, rows, size, left, top, True)
    mask = Image.new("L", ((where[2] - where[0]) * SCALE, (where[3] - where[1]) * SCALE), 0)
    draw = ImageDraw.Draw(mask)

    def at(x: float, y: float) -> tuple[float, float]:
        return ((x - where[0]) * SCALE, (y - where[1]) * SCALE)
    last_col, last_row = odd + cols - 1, rows - 1
    x0, y0, x1, y1 = inner_box(frame)
    if y0 < y1:
        draw.rectangle(at(x0, y0) + at(x1, y1), fill=255)
    for col in range(odd, odd + cols):
        outer = col in (odd, last_col)
        for row in range(rows) if outer else sorted({0, last_row}):
            draw.polygon([at(x, y) for x, y in frame.corners(col, row)], fill=255, outline=255, width=2)
    return mask.reduce(SCALE)


def inner_box(frame: Frame) -> Box:
    """The rectangle between the centres of a frame's extreme hexes, which its hexes cover
    (final pixels; empty, bottom over top, when the frame has one row): x from the first
    column's centres to the last's, y from the lower of the first row's centres (a shifted
    column's) to the higher of the last row's."""
    first, last = frame.col0, frame.col0 + frame.cols - 1
    columns = {first, min(first + 1, last)}
    top = max(frame.centre(c, frame.row0)[1] for c in columns)
    bottom = min(frame.centre(c, frame.row0 + frame.rows - 1)[1] for c in columns)
    return (frame.centre(first, frame.row0)[0], top, frame.centre(last, frame.row0)[0], bottom)


def map_palette(small: Image.Image, view: HexMapView) -> Image.Image:
    """The PNG palette of every snapshot of this map: the static layer's own 160 colours
    plus every colour the dynamic layer paints (ink, sides, tags, marks), fixed per map.

    Mapping each snapshot onto a fixed palette is about six times faster than building a
    new one (a full map: 36 ms against 6 ms), and deterministic: the palette depends only
    on the map and the view's sides, never on what was drawn before.
    """
    base = small.quantize(160, method=Image.Quantize.FASTOCTREE)
    base_palette = base.getpalette()
    assert base_palette is not None  # a quantized ("P") image always has one
    colours = base_palette[: 160 * 3]
    extra: list[tuple[int, int, int]] = list(PALETTE.values())
    extra += [hex_rgb(fill) for _, fill in TAGS.values()] + [hex_rgb(f) for _, f in HEX_MARKERS.values()]
    book = SideBook(view.sides)
    for look in book.all():
        extra += [look.rgb, tint(look.rgb, 0.3), shade(look.rgb, 0.5), shade(look.rgb, 0.6)]
    for rgb in extra[: 256 - 160]:
        colours += list(rgb)
    palette = Image.new("P", (1, 1))
    palette.putpalette(colours)
    return palette


# -- counters, markers, marks -------------------------------------------------------------------


def _stacks(view: HexMapView, frame: Frame) -> dict[tuple[int, int], list[HexCounterView]]:
    stacks: dict[tuple[int, int], list[HexCounterView]] = {}
    for counter in view.counters:
        if frame.shows(counter.col, counter.row):
            stacks.setdefault((counter.col, counter.row), []).append(counter)
    for units in stacks.values():
        units.sort(key=lambda u: u.top)  # the top counter last
    return stacks


def _draw_counter(canvas: Surface, book: SideBook, counter: HexCounterView, cx: float, cy: float,
                  size: tuple[float, float]) -> Box:
    look = book.look(counter.faction)
    cw, ch = size
    box = (cx - cw / 2, cy - ch / 2, cx + cw / 2, cy + ch / 2)
    canvas.rect(box, fill=look.rgb, outline=shade(look.rgb, 0.5), width=2, radius=4)
    ink = ink_on(look.rgb)
    label_size = BODY if ch >= 55 else SMALL  # the bigger focus counters take bigger names
    canvas.text((cx, box[1] + 3), clean(counter.label)[:5], label_size, ink, anchor="mt", bold=True)
    tags = [tag_of(m) for m in counter.markers]
    if tags:
        text = " ".join(t for t, _ in tags)
        w = max(cw, Canvas.text_size(text, SMALL)[0] + 6)
        strip = (cx - w / 2, box[3] - 21, cx + w / 2, box[3] + 2)
        canvas.rect(strip, fill=hex_rgb(tags[0][1]), outline=PALETTE["ink"], width=1, radius=3)
        canvas.text((cx, (strip[1] + strip[3]) / 2), text, SMALL, PALETTE["ink"], anchor="mm")
    else:
        canvas.badge(cx, box[3] - 11, 15, look, letter_size=SMALL)
    if counter.facing is not None:
        _draw_facing(canvas, cx, cy, ch, counter.facing, shade(look.rgb, 0.6))
    return box


def _draw_facing(canvas: Surface, cx: float, cy: float, ch: float, facing: int,
                 ink: tuple[int, int, int]) -> None:
    """A wedge pointing out of the counter towards the hexside it faces."""
    angle = math.radians(-90 + 60 * facing)
    reach = ch / 2 + 9
    tip = (cx + reach * math.cos(angle), cy + reach * math.sin(angle))
    base = ch / 2 - 1
    wing = math.radians(90)
    left = (cx + base * math.cos(angle) + 7 * math.cos(angle + wing), cy + base * math.sin(angle) + 7 * math.sin(angle + wing))
    right = (cx + base * math.cos(angle) - 7 * math.cos(angle + wing), cy + base * math.sin(angle) - 7 * math.sin(angle + wing))
    canvas.polygon([tip, left, right], fill=ink, outline=PALETTE["halo"], width=1)


def _draw_stack(canvas: Surface, book: SideBook, units: list[HexCounterView], frame: Frame,
                layout: Layout, number: str) -> None:
    cx, cy = frame.centre(units[0].col, units[0].row)
    cy += frame.counter_drop
    cw, ch = frame.counter
    depth = min(len(units) - 1, 2)
    for k in range(depth, 0, -1):
        look = book.look(units[-1 - k].faction)
        off = STACK_STEP * k
        canvas.rect((cx - cw / 2 + off, cy - ch / 2 - off, cx + cw / 2 + off, cy + ch / 2 - off),
                    fill=tint(look.rgb, 0.3), outline=shade(look.rgb, 0.5), width=1.5, radius=4)
    box = _draw_counter(canvas, book, units[-1], cx, cy, frame.counter)
    for unit in units:
        layout.add("counter", unit.id, box, parent=number)
    if len(units) > 1:
        bx, by = box[2] + 2, box[1] - 2
        canvas.ellipse(bx, by, 12, fill=PALETTE["ink"], outline=PALETTE["halo"], width=2)
        canvas.text((bx, by), str(len(units)), SMALL, PALETTE["header_ink"], anchor="mm", bold=True)
        layout.add("stack", number, (bx - 12, by - 12, bx + 12, by + 12), parent=number)


def _draw_hex_marker(canvas: Surface, marker: HexMarkerView, frame: Frame, layout: Layout, number: str,
                     placer: Placer) -> Callable[[], None] | None:
    """A marker lying in a hex: an outline for smoke and fire, and a tag at the hex's foot.
    The tag never covers a counter or another tag (``placer`` holds them): where one stands
    it goes just under the counter, else above it, beside it, or the nearest free place
    (issue 28: "OWN MINE 13" was drawn over the counter of the hex below).  Its place is
    taken now; the returned call paints it, over the marks' lines drawn in between."""
    cx, cy = frame.centre(marker.col, marker.row)
    if marker.kind == "smoke":
        canvas.polygon(frame.corners(marker.col, marker.row, inset=3), outline=hex_rgb("#777777"), width=4)
    elif marker.kind == "fire":
        canvas.polygon(frame.corners(marker.col, marker.row, inset=3), outline=hex_rgb("#e8642c"), width=5)
    elif marker.kind in ("artillery", "artillery_zone"):  # a requested strike and its template
        canvas.polygon(frame.corners(marker.col, marker.row, inset=4), outline=hex_rgb("#c0262d"), width=3)
        if marker.kind == "artillery_zone":
            return None
    prefix, fill = HEX_MARKERS.get(marker.kind) or SECRET_MARKERS.get(marker.kind) or \
        (clean(marker.kind)[:3].upper(), "#dddddd")
    text = f"{prefix}{clean(marker.text)}"
    w = Canvas.text_size(text, SMALL)[0] + 6
    box = placer.place(_tag_spots(frame, cx, cy, w), pad=1.0) or \
        placer.place_near((cx, cy + SQRT3 / 2 * frame.size - 11), (w, 20), step=10, rings=6, pad=1.0)
    layout.add("marker", f"{marker.kind}@{number}", box, parent=number)

    def paint() -> None:
        canvas.rect(box, fill=hex_rgb(fill), outline=PALETTE["ink"], width=1, radius=3)
        canvas.text_in(box, text, SMALL, PALETTE["ink"])

    return paint


def _tag_spots(frame: Frame, cx: float, cy: float, w: float) -> list[Box]:
    """Where a hex marker's tag may go, best first: at the hex's foot; just under, above, left
    and right of a counter standing there."""
    cw, ch = frame.counter
    top, bottom = cy + frame.counter_drop - ch / 2, cy + frame.counter_drop + ch / 2
    foot = cy + SQRT3 / 2 * frame.size - 21
    spots = [(cx - w / 2, foot), (cx - w / 2, bottom + 2), (cx - w / 2, top - 22),
             (cx - cw / 2 - 2 - w, cy + frame.counter_drop - 10), (cx + cw / 2 + 2, cy + frame.counter_drop - 10)]
    return [(x, y, x + w, y + 20) for x, y in spots]


def _mark_points(mark: HexMark, frame: Frame, occupied: set[tuple[int, int]]) -> list[Point]:
    """Hex centres; a line ending on a counter stops at the counter's edge, so both show."""
    points = [frame.centre(c, r) for c, r in mark.hexes]
    if len(points) >= 2 and mark.hexes[-1] in occupied:
        (ax, ay), (bx, by) = points[-2], points[-1]
        d = math.dist((ax, ay), (bx, by)) or 1.0
        cut = min(d * 0.6, frame.counter[1] / 2 + 6)
        points[-1] = (bx - (bx - ax) * cut / d, by - (by - ay) * cut / d)
    return points


def _draw_marks(canvas: Surface, view: HexMapView, frame: Frame, placer: Placer, layout: Layout) -> None:
    occupied = {(c.col, c.row) for c in view.counters}
    for i, mark in enumerate(view.marks):
        points = _mark_points(mark, frame, occupied)
        as_mark = Mark(kind=mark.kind, points=points, text=mark.text, side=mark.side)
        draw_mark_line(canvas, as_mark, points)
        layout.add("mark", f"{i}:{mark.kind}", _points_box(points))
        text = clean(mark.text)
        if not text or not points:
            continue
        w, h = mark_label_size(text)
        box = placer.place_near((points[-1][0], points[-1][1] + frame.size), (w, h), step=12, rings=14)
        draw_mark_label(canvas, as_mark, text, box)
        layout.add("mark_label", f"{i}:{mark.kind}", box)


def _points_box(points: list[Point]) -> Box:
    xs = [p[0] for p in points] or [0.0]
    ys = [p[1] for p in points] or [0.0]
    return (min(xs) - 6, min(ys) - 6, max(xs) + 6, max(ys) + 6)


def _legend(view: HexMapView, book: SideBook, drawn: list[HexCounterView]) -> list[LegendEntry]:
    entries = side_entries(book)
    entries += mark_entries([Mark(kind=m.kind, points=[]) for m in view.marks])
    shown = sorted({tag_of(m)[0].rstrip("0123456789") for c in drawn for m in c.markers})
    entries += [LegendEntry("text", f"{tag} {TAG_WORDS[tag]}") for tag in shown if tag in TAG_WORDS]
    entries += change_entries(view.changes)
    entries += [LegendEntry("text", clean(text)) for text in view.legend if clean(text)]
    return entries


def _dynamic_box(view: HexMapView, frame: Frame, map_box: Box) -> Box | None:
    """The part of the map that counters, markers and marks (with their labels) may cover:
    the box of their hexes, padded by room for labels, clamped to the map; None if empty."""
    hexes = [(c.col, c.row) for c in view.counters] + [(m.col, m.row) for m in view.markers]
    hexes += [p for m in view.marks for p in m.hexes]
    hexes = [h for h in hexes if frame.shows(*h)]
    if not hexes:
        return None
    xs, ys = zip(*(frame.centre(c, r) for c, r in hexes))
    pad_x, pad_y = frame.size * 1.5 + 200, frame.size * 1.5 + 120
    box = (max(map_box[0], min(xs) - pad_x), max(map_box[1], min(ys) - pad_y),
           min(map_box[2], max(xs) + pad_x), min(map_box[3], max(ys) + pad_y))
    return (float(math.floor(box[0])), float(math.floor(box[1])),
            float(math.ceil(box[2])), float(math.ceil(box[3])))


class Patch:
    """Draw on one box of the image at drawing scale, then reduce it into the final image.

    Only the boxes of the whole map that change between snapshots (the action, the panel)
    are drawn at twice the size and reduced; the static map is reduced once per map and
    copied.  Pixels are the same as reducing the whole image: boxes lie on whole final
    pixels.  A focus crop is drawn on its picture instead (:func:`render_hexmap`).
    """

    def __init__(self, base: StaticLayer, box: Box) -> None:
        self.x0, self.y0 = int(box[0]), int(box[1])
        self.x1, self.y1 = int(box[2]), int(box[3])
        self.canvas = Canvas.over(base.drawn((self.x0, self.y0, self.x1, self.y1)))

    def paste_into(self, out: Picture, layout: Layout, first_item: int) -> None:
        """Reduce into ``out`` and move the layout items drawn here to final coordinates."""
        out.put(self.canvas.image.reduce(SCALE), self.x0, self.y0)
        for i in range(first_item, len(layout.items)):
            item = layout.items[i]
            b = item.box
            layout.items[i] = item.model_copy(update={"box": (
                round(b[0] + self.x0, 1), round(b[1] + self.y0, 1),
                round(b[2] + self.x0, 1), round(b[3] + self.y0, 1))})


def _draw_action(view: HexMapView, local: Frame, book: SideBook, canvas: Surface, bounds: Box,
                 layout: Layout) -> None:
    """Markers, stacks, then the last marks, on ``canvas`` (``local``: the frame where it
    is; ``bounds``: where labels may go on it)."""
    first = len(layout.items)
    numbers = {(c.col, c.row): c.number for c in view.cells}
    stacks = _stacks(view, local)
    for marker in view.markers:  # the whole map: a minefield's hex outlined (its tag may stand aside)
        if marker.kind in MINE_KINDS and not local.focus and local.shows(marker.col, marker.row):
            fill = (HEX_MARKERS.get(marker.kind) or SECRET_MARKERS[marker.kind])[1]
            canvas.polygon(local.corners(marker.col, marker.row, inset=3), outline=hex_rgb(fill), width=4)
    for pos, units in stacks.items():
        _draw_stack(canvas, book, units, local, layout, numbers.get(pos, "?"))
    taken = [i.box for i in layout.of_kind("counter", "stack")]
    placer = Placer(bounds, taken)  # tags and labels: clear of the counters and of each other
    tags = [_draw_hex_marker(canvas, marker, local, layout, numbers.get((marker.col, marker.row), "?"), placer)
            for marker in view.markers if local.shows(marker.col, marker.row)]
    _draw_marks(canvas, view, local, placer, layout)
    for paint in tags:  # the markers' tags over the marks' lines, so both read
        if paint is not None:
            paint()
    draw_changes_on(canvas, view.changes, layout, start=first)  # issue 15: what changed
    if view.banner:  # the final picture: the result across the top of the board
        w, _ = local.pixel_size
        draw_banner(canvas, view.banner, (local.left, local.top, local.left + w, local.top), layout)


def _put_header(out: Picture, view: HexMapView, focus: bool, top: float, layout: Layout) -> None:
    """The header: on a focus crop from pieces cached by their words (its width is the
    crop's), on the whole map as one strip cached by its words."""
    if focus:
        draw_header(out, view.header, layout)
        return
    width, h = out.width, math.ceil(top)
    image, words = strip("hexheader", view.header.model_dump_json(), width, h,
                         lambda c: draw_header(c, view.header, Layout(width=width, height=h)))
    out.put(image, 0, 0)
    out.note_texts(words)
    layout.add("header", "header", (0.0, 0.0, float(width), top))


def _put_legend(out: Picture, entries: list[LegendEntry], book: SideBook, focus: bool, top: int,
                layout: Layout) -> None:
    """The legend from ``top``: as :func:`_put_header`, the strip cached by its entries and
    the sides' looks."""
    if focus:
        draw_legend(out, entries, top, book, layout)
        return
    width, h = out.width, out.height - top
    looks = tuple((lk.key, lk.letter, lk.rgb, lk.shape, lk.label) for lk in book.all())
    key = repr(([(e.icon, e.text, e.key, e.pill, e.style) for e in entries], looks))
    image, words = strip("hexlegend", key, width, h,
                         lambda c: draw_legend(c, entries, 0, book, Layout(width=width, height=h)))
    out.put(image, 0, top)
    out.note_texts(words)
    layout.add("legend", "legend", (0.0, float(top), float(width), top + legend_height(entries, width)))


@renderer("hexmap")
def render_hexmap(view: HexMapView) -> Snapshot:
    """Draw a :class:`HexMapView`: the focus crop when it names focus hexes, else the whole map."""
    book = SideBook(view.sides)
    for counter in view.counters:
        book.look(counter.faction)
    focus = bool(view.focus) and not view.whole
    top = header_height(view.header, FOCUS_MAX if focus else WIDTH)
    frame = make_frame(view, top)
    map_w, map_h = frame.pixel_size
    # The focus picture is read inline on a phone: at most FOCUS_MAX wide (render.scene).
    width = FOCUS_MAX if focus else max(WIDTH, math.ceil(frame.left + map_w + MARGIN + RULER))
    entries = _legend(view, book, [c for c in view.counters if frame.shows(c.col, c.row)])
    map_bottom = math.ceil(frame.top + map_h + (0 if frame.focus else RULER) + MARGIN)
    panel_bottom = map_bottom + math.ceil(panel_height(view.panel, width))  # duty chart, pilots
    height = math.ceil(panel_bottom + legend_height(entries, width))
    static = static_layer(view, frame, width, height)
    out = Picture(width, height)
    static.put_on(out)
    out.palette = static.palette
    layout = Layout(width=width, height=height)
    _put_header(out, view, frame.focus, top, layout)
    texts = list(static.texts)
    map_box = (frame.left, frame.top, frame.left + map_w, frame.top + map_h)
    layout.add("map", "focus" if frame.focus else "whole", map_box)
    if frame.focus:  # the printed hex numbers, so tests can see nothing covers them
        for cell in view.cells:
            if frame.shows(cell.col, cell.row):
                layout.add("number", cell.number, number_box(frame, cell.col, cell.row, cell.number))
    action = _dynamic_box(view, frame, map_box)
    if view.banner:  # the banner's strip along the top of the board is drawn too
        top_strip = (map_box[0], map_box[1], map_box[2], map_box[1] + 70)
        action = top_strip if action is None else (
            min(action[0], top_strip[0]), min(action[1], top_strip[1]),
            max(action[2], top_strip[2]), max(action[3], top_strip[3]))
        action = (float(math.floor(action[0])), float(math.floor(action[1])),
                  float(math.ceil(action[2])), float(math.ceil(action[3])))
    if action is not None and frame.focus:
        # On the picture itself, each piece in a patch of its own: one patch over the crop
        # at drawing scale would need the crop's layer at drawing scale under it.
        _draw_action(view, frame, book, out, (action[0], action[1], action[2], action[3]), layout)
    elif action is not None:
        first = len(layout.items)
        patch = Patch(static, action)
        local = dataclasses.replace(frame, left=frame.left - patch.x0, top=frame.top - patch.y0)
        _draw_action(view, local, book, patch.canvas, (0.0, 0.0, float(patch.x1 - patch.x0),
                                                       float(patch.y1 - patch.y0)), layout)
        patch.paste_into(out, layout, first)
        texts += patch.canvas.texts
    if view.panel and frame.focus:
        draw_panel(out, view.panel, map_bottom, book, layout)
    elif view.panel:
        first = len(layout.items)
        side = Patch(static, (0, map_bottom, width, panel_bottom))
        draw_panel(side.canvas, view.panel, 0, book, layout)
        side.paste_into(out, layout, first)
        texts += side.canvas.texts
    if entries:
        _put_legend(out, entries, book, frame.focus, panel_bottom, layout)
    png = out.png()  # first: a piece notes its texts when it is drawn
    layout.texts = texts[:len(static.texts)] + out.texts + texts[len(static.texts):]
    return Snapshot(png=png, width=width, height=height, layout=layout)


__all__ = ["Frame", "make_frame", "render_hexmap"]
