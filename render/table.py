"""The inch-table snapshot: terrain, bases, arcs, measures, stop zones.

Layout, top to bottom: the header strip; the table with a ruler of inch marks every grid
line on its top and left edges; the legend.

The table keeps the view's coordinates: x right, y down, angles 0 = +x and growing from +x
towards +y (the rules' "counter-clockwise" in table coordinates), which is also the way
Pillow measures arcs on screen, so a facing needs no conversion.  Bases are drawn at their
true size in the side's badge shape with the side's letter, facing as a tick, fire arcs as
a wedge outline.  Each base's label (name and short markers) is placed clear of every other
label, with a leader line when it had to move away from its base.
"""

from __future__ import annotations

import json
import math
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from functools import partial

from PIL import Image, ImageChops, ImageDraw

from render.caches import held
from render.changes import change_entries, draw_change_tags
from render.chrome import (
    LegendEntry,
    header_height,
    mark_colour,
    mark_entries,
    note_entries,
    side_entries,
    terrain_entries,
)
from render.layout import Box, Layout, Placer, Snapshot, bbox, box_in_polygon
from render.marks import MarkLabel, draw_mark_labels, draw_mark_line, place_mark_labels
from render.registry import renderer
from render.scene import Scene, Sheet, put_header
from render.style import (
    MARGIN,
    PALETTE,
    RGB,
    SMALL,
    WIDTH,
    Canvas,
    Frame,
    SideBook,
    SideLook,
    clean,
    colour,
    fixed_palette,
    shade,
    tint,
)
from render.vocab import StyleBook
from rules.core.views import NamedPoint, TableUnit, TableView, TerrainShape

Point = tuple[float, float]

RULER = 30.0  # room for the inch numbers on the top and left edges

class Inches:
    """Table inches to final image pixels."""

    def __init__(self, view: TableView, left: float, top: float) -> None:
        self.scale = (WIDTH - left - MARGIN) / view.width
        self.left = left
        self.top = top
        self.box: Box = (left, top, left + view.width * self.scale, top + view.height * self.scale)

    def __call__(self, x: float, y: float) -> Point:
        return (self.left + x * self.scale, self.top + y * self.scale)

    def many(self, points: list[tuple[float, float]]) -> list[Point]:
        """Transform a list of points."""
        return [self(x, y) for x, y in points]


def unit_label(unit: TableUnit, book: StyleBook | None = None) -> str:
    """``O1 Off Asl``: the base's name and its markers, short (the view's marker texts)."""
    styles = book or StyleBook()
    words = [clean(unit.label) or unit.id]
    for m in unit.markers:
        known = styles.known_marker(m)
        words.append(clean(known.text) if known else clean(m))
    return " ".join(w for w in words if w)


def shape_points(shape: TerrainShape, tf: Inches) -> list[Point]:
    """A terrain piece's outline in pixels (a circle as a 32-gon)."""
    if shape.circle is not None:
        cx, cy, r = shape.circle
        return [tf(cx + r * math.cos(k * math.pi / 16), cy + r * math.sin(k * math.pi / 16))
                for k in range(32)]
    return tf.many(shape.polygon)


def draw_shape(canvas: Canvas, shape: TerrainShape, pts: list[Point], book: StyleBook) -> None:
    """Terrain by the view's style, each with a pattern as well as a colour: waves, crosses."""
    style = book.terrain(shape.kind)
    texture = style.texture
    if len(pts) < 3:
        return
    if texture == "crosses":
        canvas.polygon(pts, fill=colour(style.fill, "clear"), outline=PALETTE["wire"], width=2)
        # Crosses along the outline: barbed wire, readable without colour.
        for a, b in zip(pts, pts[1:] + pts[:1]):
            n = max(1, int(math.dist(a, b) // 14))
            for k in range(n):
                x = a[0] + (b[0] - a[0]) * (k + 0.5) / n
                y = a[1] + (b[1] - a[1]) * (k + 0.5) / n
                canvas.line([(x - 4, y - 4), (x + 4, y + 4)], PALETTE["wire"], 1.6)
                canvas.line([(x - 4, y + 4), (x + 4, y - 4)], PALETTE["wire"], 1.6)
        return
    fill = colour(style.fill, "clear")
    if texture == "outline":
        canvas.polygon(pts, fill=fill, outline=shade(PALETTE["objective_main"], 0.4), width=3)
        return
    canvas.polygon(pts, fill=fill, outline=shade(fill, 0.35), width=2)
    if texture == "waves":
        xs = [p[0] for p in pts]
        ys = [p[1] for p in pts]
        y = min(ys) + 12
        while y < max(ys) - 6:
            x = min(xs) + 10 + (int(y) // 18 % 2) * 20
            while x < max(xs) - 24:
                if box_in_polygon((x, y - 3, x + 16, y + 3), pts):
                    canvas.line([(x, y), (x + 5, y - 3), (x + 10, y), (x + 15, y - 3)],
                                shade(fill, 0.25), 1.4)
                x += 40
            y += 18


def draw_base(canvas: Canvas, unit: TableUnit, tf: Inches, book: SideBook,
              at: Point | None = None) -> Box:
    """A base at true size (at least 22 px across) in the side's shape, with facing and arc.

    ``at``: where to draw it when it was moved off a base it would hide (a thin line joins
    it to its true place)."""
    look = book.look(unit.faction)
    x, y = tf(unit.x, unit.y)
    r = max(unit.radius * tf.scale, 11.0)
    if at is not None:
        if math.dist(at, (x, y)) > 1:
            canvas.line([(x, y), at], shade(look.rgb, 0.3), 1.6)
            canvas.ellipse(x, y, 3, fill=shade(look.rgb, 0.3))
        x, y = at
    if unit.arc is not None and unit.facing is not None:
        reach = max(r * 3.2, 2.0 * tf.scale)
        start, end = unit.facing - unit.arc / 2, unit.facing + unit.arc / 2
        canvas.arc((x - reach, y - reach, x + reach, y + reach), start, end,
                   shade(look.rgb, 0.2), 2, pie=tint(look.rgb, 0.7))
    if unit.facing is not None:
        dx, dy = math.cos(math.radians(unit.facing)), math.sin(math.radians(unit.facing))
        canvas.line([(x, y), (x + dx * (r + 10), y + dy * (r + 10))], PALETTE["ink"], 4)
    if unit.eliminated:
        canvas.ellipse(x, y, r, fill=tint(PALETTE["eliminated"], 0.5),
                       outline=PALETTE["eliminated"], width=2)
        canvas.line([(x - r * 0.7, y - r * 0.7), (x + r * 0.7, y + r * 0.7)], PALETTE["ink"], 2.5)
        canvas.line([(x - r * 0.7, y + r * 0.7), (x + r * 0.7, y - r * 0.7)], PALETTE["ink"], 2.5)
    else:
        canvas.badge(x, y, 2 * r, look)
    return (x - r, y - r, x + r, y + r)


def base_key(unit: TableUnit, tf: Inches, at: Point, look: SideLook) -> tuple[Hashable, ...]:
    """What :func:`draw_base` shows of ``unit`` drawn at ``at``: its offset from its place, size, facing,
    arc and state, and its side's look; not its name or markers (its label shows those),
    so a base whose markers change is not drawn again, and no JSON dump of the unit is made
    for each base of each picture (issue 41).

    A base at its own place (not spread) is keyed without its place: the piece's box adds
    its sub-pixel phase, which is all its pixels depend on (:func:`snap`), so a base that
    moved is drawn again only when it turned or changed."""
    x, y = tf(unit.x, unit.y)
    # A spread base's line back to its place is drawn by the offset from ``at``: the key
    # holds that offset (in pixels), not the place in inches, whose pixels move with the
    # table's offset in the picture.
    where: tuple[Hashable, ...] = ("at", x - at[0], y - at[1]) if math.dist(at, (x, y)) > 1 else ("own",)
    return ("base", *where, unit.radius, unit.facing, unit.arc, unit.eliminated, tf.scale,
            look.rgb, look.shape, look.letter)


def draw_rings(frame: Frame, view: TableView, tf: Inches) -> None:
    """The range rings (searchlights light), clipped to the table: a range may reach past its
    edge, never over the ruler.  Cached pieces: most rings stay where they were.

    The table's pieces are lazy (:meth:`Frame.piece`: drawn only when the picture, or the
    focus crop, shows them), so each is drawn by a ``partial`` that holds its own values, not
    a closure over the loop's variables, which would all see the last one's."""
    inside = (tf.box[0] + 2, tf.box[1] + 2, tf.box[2] - 2, tf.box[3] - 2)
    for circle in view.circles:
        x, y = tf(circle.x, circle.y)
        r = circle.radius * tf.scale
        ring = (x - r, y - r, x + r, y + r)
        clip = (max(ring[0] - 2, inside[0]), max(ring[1] - 2, inside[1]),
                min(ring[2] + 2, inside[2]), min(ring[3] + 2, inside[3]))
        if clip[0] < clip[2] and clip[1] < clip[3]:
            ink = tint(PALETTE["fire"], 0.45) if circle.light else shade(PALETTE["fire"], 0.1)
            width = 1 if circle.light else 2
            frame.piece(("ring", ring, clip, ink, width), clip,
                        partial(Canvas.arc, box=ring, start=0, end=360, fill=ink, width=width),
                        pad=0.0, lazy=True, shapes=True)


def draw_unit_labels(frame: Frame, view: TableView, book: StyleBook, bases: dict[str, Box],
                     label_boxes: dict[str, tuple[str, Box]], layout: Layout) -> None:
    """Each base's label in a tint of its side, with a leader line when it sits away from
    its base (cached pieces: a label recurs from one picture to the next)."""
    for unit in view.units:
        if unit.id not in label_boxes:
            continue
        text, box = label_boxes[unit.id]
        b = bases[unit.id]
        look = book.look(unit.faction)
        if not _touches(box, b, 4):
            frame.line([((b[0] + b[2]) / 2, (b[1] + b[3]) / 2),
                        ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)], shade(look.rgb, 0.3), 1.6)

        def label(c: Canvas, box: Box = box, text: str = text, rgb: RGB = look.rgb) -> None:
            c.rect(box, fill=tint(rgb, 0.85), outline=shade(rgb, 0.3), width=1.2, radius=4)
            c.text_in(box, text, SMALL, PALETTE["ink"], bold=True)

        frame.piece(("label", text, look.rgb), box, label, lazy=True)
        layout.add("label", f"unit-{unit.id}", box, parent=unit.id, text=SMALL)


def draw_tag(canvas: Canvas, box: Box, text: str, edge: tuple[int, int, int], width: float = 1.5) -> None:
    """A small white label with a coloured edge (a range ring's name, a named point's)."""
    canvas.rect(box, fill=PALETTE["halo"], outline=edge, width=width, radius=4)
    canvas.text_in(box, text, SMALL, PALETTE["ink"])


def draw_point(canvas: Canvas, x: float, y: float, box: Box, text: str) -> None:
    """A named point: a small diamond and its name."""
    s = 7.0
    canvas.polygon([(x, y - s), (x + s, y), (x, y + s), (x - s, y)], fill=PALETTE["ink"],
                   outline=PALETTE["halo"], width=1.5)
    draw_tag(canvas, box, text, PALETTE["ink_soft"], 1)


def base_extent(unit: TableUnit, tf: Inches, at: Point) -> Box:
    """Everything :func:`draw_base` may touch: the base, its facing tick, its fire arc, and
    the line back to its true place when it was spread off it."""
    x, y = tf(unit.x, unit.y)
    r = max(unit.radius * tf.scale, 11.0)
    reach = r + 12
    if unit.arc is not None and unit.facing is not None:
        reach = max(reach, max(r * 3.2, 2.0 * tf.scale) + 2)
    return (min(at[0] - reach, x - 4), min(at[1] - reach, y - 4),
            max(at[0] + reach, x + 4), max(at[1] + reach, y + 4))


def draw_zones(frame: Frame, view: TableView, tf: Inches) -> None:
    """Stop zones as one shaded region (the union of their discs) with an orange edge: where
    a move must stop reads at a glance, without a ring per unit.

    Drawn on the finished picture: a mask at drawing scale over the zones' box only (inside
    the table's edge), reduced once, then the shade and the edge pasted through it."""
    if not view.zones:
        return
    x0, y0, x1, y1 = tf.box
    box = [x0 + 2, y0 + 2, x1 - 2, y1 - 2]
    discs = []
    for zone in view.zones:
        x, y = tf(zone.x, zone.y)
        r = zone.radius * tf.scale
        discs.append((x - r, y - r, x + r, y + r))
    box = [max(box[0], min(d[0] for d in discs)), max(box[1], min(d[1] for d in discs)),
           min(box[2], max(d[2] for d in discs)), min(box[3], max(d[3] for d in discs))]
    left, top = math.floor(box[0]), math.floor(box[1])
    w, h = math.ceil(box[2]) - left, math.ceil(box[3]) - top
    if w <= 0 or h <= 0:
        return
    fill, edge = _zone_masks(tuple(discs), (left, top, w, h))
    frame.paint(PALETTE["changed"], left, top, fill)
    frame.paint(shade(PALETTE["changed"], 0.2), left, top, edge)


@held(maxsize=64)
def _zone_masks(discs: tuple[Box, ...], where: tuple[int, int, int, int]) -> tuple[Image.Image, Image.Image]:
    """The shade and the edge masks (final size) of a union of discs, over the box ``where``
    (``left, top, width, height``: the zones' box inside the table's edge, which clips them).

    Drawn at final size: the shade is faint and the edge 2 px, so the drawing scale's
    anti-aliasing buys nothing visible, and the zones change with every move.  The edge is
    each disc's rim less the inside of any disc (the union's outline, not a ring per unit):
    all or nothing, so a "1" mask (painted the same as its "L" of 0 and 255, faster)."""
    left, top, w, h = where
    region = Image.new("L", (w, h), 0)
    rims = Image.new("L", (w, h), 0)
    inner = Image.new("L", (w, h), 0)
    draw_region, draw_rims, draw_inner = ImageDraw.Draw(region), ImageDraw.Draw(rims), ImageDraw.Draw(inner)
    for d in discs:
        x0, y0, x1, y1 = d[0] - left, d[1] - top, d[2] - left, d[3] - top
        draw_region.ellipse([x0, y0, x1, y1], fill=36)
        draw_rims.ellipse([x0, y0, x1, y1], outline=255, width=2)
        draw_inner.ellipse([x0 + 2, y0 + 2, x1 - 2, y1 - 2], fill=255)
    return region, ImageChops.subtract(rims, inner).point(ALL_OR_NOTHING, "1")


#: Any coverage to all (a lookup table for ``Image.point``: a mask of 0 and 255 as "1").
ALL_OR_NOTHING = [0] + [255] * 255


def grid_steps(view: TableView) -> tuple[list[float], list[float]]:
    """The inch values of the vertical and horizontal grid lines."""
    step = view.grid if view.grid > 0 else 6.0
    xs = [k * step for k in range(int(view.width / step + 1e-6) + 1)]
    ys = [k * step for k in range(int(view.height / step + 1e-6) + 1)]
    return xs, ys


def draw_grid(canvas: Canvas, view: TableView, tf: Inches) -> None:
    """The table cloth and grid lines every ``grid`` inches."""
    x0, y0, x1, y1 = tf.box
    canvas.rect(tf.box, fill=PALETTE["clear"])
    xs, ys = grid_steps(view)
    for k in xs:
        x = tf(k, 0)[0]
        canvas.line([(x, y0), (x, y1)], PALETTE["grid"], 1.2)
    for k in ys:
        y = tf(0, k)[1]
        canvas.line([(x0, y), (x1, y)], PALETTE["grid"], 1.2)


def draw_ruler(canvas: Canvas, view: TableView, tf: Inches) -> None:
    """Inch numbers of the grid lines along the top and left edges."""
    x0, y0, _, _ = tf.box
    xs, ys = grid_steps(view)
    for k in xs:
        canvas.text((tf(k, 0)[0], y0 - 4), f"{k:g}", SMALL, PALETTE["ink_soft"], anchor="md")
    for k in ys:
        canvas.text((x0 - 4, tf(0, k)[1]), f"{k:g}", SMALL, PALETTE["ink_soft"], anchor="rm")


@held(maxsize=16)
def _static_table(key: str, top: float, bottom: int) -> tuple[Image.Image, tuple[tuple[str, int], ...]]:
    """The unchanging part of a table's pictures, reduced once: paper, grid, terrain, the
    table's edge and the ruler (cached by the view's table and terrain: ``key``)."""
    view = TableView.model_validate({**json.loads(key), "header": {"title": ""}})
    book = StyleBook.of(view)
    tf = Inches(view, MARGIN + RULER, top + MARGIN + RULER)
    canvas = Canvas(WIDTH, bottom)
    draw_grid(canvas, view, tf)
    for shape in view.terrain:
        draw_shape(canvas, shape, shape_points(shape, tf), book)
    canvas.rect(tf.box, outline=PALETTE["ink"], width=3)
    draw_ruler(canvas, view, tf)
    return canvas.reduced(), tuple(canvas.texts)


@held(maxsize=16)
def _table_palette(key: str, top: float, bottom: int, colours: tuple[RGB, ...]) -> Image.Image:
    """The fixed palette of a table's pictures (see :func:`render.style.fixed_palette`)."""
    return fixed_palette(_static_table(key, top, bottom)[0], colours)


def static_key(view: TableView) -> str:
    """What the static layer shows: the table's size, grid and terrain, and their styles."""
    return view.model_dump_json(include={"width", "height", "grid", "terrain", "terrain_styles"})


def render_table(view: TableView) -> Snapshot:
    """Draw a :class:`TableView` (the full picture)."""
    return table_scene(view).snapshot()


def spread_bases(view: TableView, tf: Inches) -> dict[str, Box]:
    """Each base's box; a base that would cover one already placed (a stack of bases on
    one spot) is moved to the nearest free spot, so stacked bases show as several."""
    bases: dict[str, Box] = {}
    spread = Placer(tf.box)
    for unit in sorted(view.units, key=lambda u: u.eliminated):
        x, y = (snap(v) for v in tf(unit.x, unit.y))
        r = max(unit.radius * tf.scale, 11.0)
        box = (x - r, y - r, x + r, y + r)
        if not spread.free(box, pad=1.0):
            box = spread.search((x, y), (2 * r, 2 * r), step=r * 0.8, rings=8, pad=1.0)
        bases[unit.id] = spread.claim(box)
    return bases


def snap(value: float) -> float:
    """``value`` to the nearest half pixel (a drawing-scale pixel).  A base's centre, and so
    its label, lands on one of four sub-pixel phases: a base or a label that moved is the
    same piece as before (:meth:`render.style.Frame.piece` keys pieces by their phase), not
    a new one drawn at drawing scale (issue 41: about ten a focus picture of a table, 5 ms).
    A quarter pixel at most, on a table drawn at 20 px an inch: nobody sees it."""
    return round(value * 2) / 2


@dataclass(frozen=True)
class TableBoard:
    """The table under the header (:class:`Inches`), its terrain outlines and its bases."""

    book: StyleBook
    top: float
    tf: Inches
    shapes: list[tuple[TerrainShape, list[Point]]]
    bases: dict[str, Box]


@dataclass(frozen=True)
class TableLabels:
    """Every label placed on the table, clear of the bases and of each other."""

    points: list[tuple[NamedPoint, str, Point, Box]]
    units: dict[str, tuple[str, Box]]
    circles: list[tuple[str, Box]]
    shapes: list[tuple[TerrainShape, str, Box]]
    marks: list[MarkLabel]
    mark_points: list[list[Point]]


@renderer("table")
def table_scene(view: TableView) -> Scene:
    """Lay out and draw a :class:`TableView`; see the module docstring for the layout.

    The stages: the board and its bases; the labels placed around them; the picture."""
    board = _layout_board(view)
    labels = _place_labels(view, board)
    return _compose(view, board, labels)


def _layout_board(view: TableView) -> TableBoard:
    """The table scaled under the header, and the bases spread so none hides another."""
    book = StyleBook.of(view)
    for unit in view.units:
        book.look(unit.faction)
    top = header_height(view.header, WIDTH)
    tf = Inches(view, MARGIN + RULER, top + MARGIN + RULER)
    shapes = [(shape, shape_points(shape, tf)) for shape in view.terrain]
    # Bases first: they cannot move.
    return TableBoard(book, top, tf, shapes, spread_bases(view, tf))


def _place_labels(view: TableView, board: TableBoard) -> TableLabels:
    """Named points, unit labels, range tags, terrain names, then marks' labels (in this
    order: each is placed clear of those before it)."""
    tf = board.tf
    placer = Placer(tf.box, list(board.bases.values()))
    point_boxes = []
    for point in view.points:
        x, y = tf(point.x, point.y)
        text = clean(point.name)
        w, h = Canvas.text_size(text, SMALL)
        box = placer.place_near((x, y - h / 2 - 8), (w + 8, h), step=8, rings=12)
        point_boxes.append((point, text, (x, y), box))
    units = _place_unit_labels(view, board, placer)
    circle_boxes = []
    for circle in view.circles:
        text = clean(circle.label)
        if not text:
            continue
        x, y = tf(circle.x, circle.y - circle.radius)
        w, h = Canvas.text_size(text, SMALL)
        circle_boxes.append((text, placer.place_near((x, y), (w + 8, h), step=8, rings=10)))
    shape_labels = _place_shape_labels(board, placer)
    mark_pts = [tf.many(m.points) for m in view.marks]
    marks = place_mark_labels(view.marks, mark_pts, placer,
                              lambda pts: ((pts[0][0] + pts[-1][0]) / 2, (pts[0][1] + pts[-1][1]) / 2),
                              rings=16)
    # The table numbers its mark labels among the labelled marks only (``mark-0`` is the
    # first mark with words), as it always has; the focus boxes look them up by that name.
    marks = [label._replace(number=k) for k, label in enumerate(marks)]
    return TableLabels(point_boxes, units, circle_boxes, shape_labels, marks, mark_pts)


def _place_unit_labels(view: TableView, board: TableBoard, placer: Placer) -> dict[str, tuple[str, Box]]:
    """Each base's label: right, left, under or over the base, else the nearest free spot."""
    label_boxes: dict[str, tuple[str, Box]] = {}
    for unit in view.units:
        if unit.eliminated:
            continue  # out of action: a grey crossed base, no label (the legend says so)
        text = unit_label(unit, board.book)
        w, h = Canvas.text_size(text, SMALL)
        b = board.bases[unit.id]
        size = (w + 8, h + 1)
        cands = [(b[2] + 3, (b[1] + b[3] - size[1]) / 2, b[2] + 3 + size[0], (b[1] + b[3] + size[1]) / 2),
                 (b[0] - 3 - size[0], (b[1] + b[3] - size[1]) / 2, b[0] - 3, (b[1] + b[3] + size[1]) / 2),
                 ((b[0] + b[2] - size[0]) / 2, b[3] + 2, (b[0] + b[2] + size[0]) / 2, b[3] + 2 + size[1]),
                 ((b[0] + b[2] - size[0]) / 2, b[1] - 2 - size[1], (b[0] + b[2] + size[0]) / 2, b[1] - 2)]
        box = placer.place(cands) or placer.place_near(((b[0] + b[2]) / 2, b[3] + 14), size,
                                                       step=9, rings=16)
        label_boxes[unit.id] = (text, box)
    return label_boxes


def _place_shape_labels(board: TableBoard, placer: Placer) -> list[tuple[TerrainShape, str, Box]]:
    """Terrain names near each piece's centre, where they crowd nothing."""
    shape_labels = []
    for shape, pts in board.shapes:
        text = clean(shape.label)
        if not text or len(pts) < 3:
            continue
        w, h = Canvas.text_size(text, SMALL)
        cx = sum(p[0] for p in pts) / len(pts)
        cy = sum(p[1] for p in pts) / len(pts)
        box = placer.search((cx, cy), (w + 8, h), step=8, rings=10)
        # A terrain name is a courtesy: drop it rather than crowd a unit's label.
        if placer.free(box):
            shape_labels.append((shape, text, placer.claim(box)))
    return shape_labels


def _compose(view: TableView, board: TableBoard, labels: TableLabels) -> Scene:
    """The picture: the static layer, zones and rings, header, marks' lines, bases, labels,
    marks' labels, change tags, legend."""
    book, tf = board.book, board.tf
    legend_top = tf.box[3] + MARGIN
    # The static layer (paper, grid, terrain, edge, ruler) is drawn once per table; the rest
    # is composed on it at final size from small anti-aliased pieces (render.style.Frame).
    key = static_key(view)
    static, static_texts = _static_table(key, board.top, math.ceil(legend_top))
    sheet = Sheet.open(legend(view, book), legend_top, base=static)
    canvas, layout = sheet.frame, sheet.layout
    canvas.note_texts(static_texts)
    canvas.palette = _table_palette(key, board.top, math.ceil(legend_top), book.colours())
    for shape, pts in board.shapes:
        if pts:
            layout.add("terrain", shape.id, bbox(pts), parent=shape.kind)
    draw_zones(canvas, view, tf)
    draw_rings(canvas, view, tf)
    put_header(canvas, view.header, layout)
    _draw_mark_lines(canvas, view, labels.mark_points, board)
    changed = {c.id: c.what for c in view.changes}
    _draw_bases(canvas, layout, view, board, changed)
    _draw_labels(canvas, layout, view, board, labels)
    for i, (mark, pts) in enumerate(zip(view.marks, labels.mark_points)):
        if pts:
            layout.add("mark", f"mark-{i}", bbox(pts), parent=mark.kind)
    # Over the labels: what happened to each changed base.
    draw_change_tags(canvas, [(uid, board.bases[uid]) for uid in changed if uid in board.bases], changed, layout)
    return sheet.close(view.header, view.banner, book, tf.box,
                       focus_boxes(view, layout, labels.mark_points, board.bases))


def _draw_mark_lines(canvas: Frame, view: TableView, mark_pts: list[list[Point]], board: TableBoard) -> None:
    """Each mark's line, a move's with a hollow ring where the base started (so even a
    short move under the base shows)."""
    ghost_r = max(0.5 * board.tf.scale, 11.0)
    for mark, pts in zip(view.marks, mark_pts):
        if mark.kind in ("move", "retreat") and len(pts) > 1:
            x, y = pts[0]
            canvas.ellipse(x, y, ghost_r, fill=PALETTE["paper"], outline=mark_colour(mark.kind, board.book),
                           width=2.5)
        draw_mark_line(canvas, mark, pts, book=board.book)


def _draw_bases(canvas: Frame, layout: Layout, view: TableView, board: TableBoard,
                changed: Mapping[str, str]) -> None:
    """The bases, eliminated ones first (under the others), changed ones ringed."""
    tf, book = board.tf, board.book
    for unit in sorted(view.units, key=lambda u: not u.eliminated):
        b = board.bases[unit.id]
        at = ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)
        # A base is drawn once and reused while it stays put (pieces cached by what they show).
        look = book.look(unit.faction)
        canvas.piece(base_key(unit, tf, at, look),
                     base_extent(unit, tf, at),
                     partial(draw_base, unit=unit, tf=tf, book=book, at=at), lazy=True)
        if unit.id in changed:
            canvas.ellipse((b[0] + b[2]) / 2, (b[1] + b[3]) / 2, (b[2] - b[0]) / 2 + 4,
                           outline=PALETTE["changed"], width=3)
        layout.add("unit", unit.id, b, parent=unit.faction)


def _draw_labels(canvas: Frame, layout: Layout, view: TableView, board: TableBoard,
                 labels: TableLabels) -> None:
    """Named points, terrain names, range tags, unit labels, marks' labels."""
    for point, text, (x, y), box in labels.points:
        canvas.piece(("point", text, x, y), (min(box[0], x - 9), min(box[1], y - 9), max(box[2], x + 9), max(box[3], y + 9)),
                     partial(draw_point, x=x, y=y, box=box, text=text), lazy=True)
        layout.add("label", f"point-{point.name}", box, text=SMALL)
    for shape, text, box in labels.shapes:
        canvas.text_in(box, text, SMALL, shade(colour(shape.kind, "ink"), 0.6),
                       halo=tint(colour(shape.kind, "clear"), 0.5))
        layout.add("label", f"terrain-{shape.id}", box, parent=shape.id, text=SMALL)
    for text, box in labels.circles:
        canvas.piece(("range", text), box, partial(draw_tag, box=box, text=text, edge=PALETTE["fire"]),
                     lazy=True)
        layout.add("label", f"range-{text}", box, text=SMALL)
    draw_unit_labels(canvas, view, board.book, board.bases, labels.units, layout)
    draw_mark_labels(canvas, labels.marks, board.book, layout)


def focus_boxes(view: TableView, layout: Layout, mark_pts: list[list[Point]],
                bases: dict[str, Box]) -> list[Box]:
    """What the focus picture shows, most important first: the units eliminated or hit (the
    turn's key events: a pillbox destroyed must be in the picture, issue 25 point 12), the
    marks (newest first) with their labels, the focus ids, then the other changed units,
    each with its label."""
    labels = {i.id: i.box for i in layout.items if i.kind == "label"}
    marks: list[Box] = []
    for i in reversed(range(len(mark_pts))):
        if mark_pts[i]:
            box = bbox(mark_pts[i])
            lb = labels.get(f"mark-{i}")
            if lb is not None:
                box = (min(box[0], lb[0]), min(box[1], lb[1]), max(box[2], lb[2]), max(box[3], lb[3]))
            marks.append(box)

    def unit_box(uid: str) -> list[Box]:
        if uid not in bases:
            return []
        b = bases[uid]
        lb = labels.get(f"unit-{uid}")
        if lb is not None:
            b = (min(b[0], lb[0]), min(b[1], lb[1]), max(b[2], lb[2]), max(b[3], lb[3]))
        return [b]

    key = [c.id for c in view.changes if c.what == "eliminated"]
    key += [c.id for c in view.changes if c.what == "hit"]
    out = [b for uid in key for b in unit_box(uid)] + marks
    out += [b for uid in list(view.focus) + [c.id for c in view.changes] for b in unit_box(uid)]
    return out


def _touches(a: Box, b: Box, gap: float) -> bool:
    """Whether box ``a`` is within ``gap`` pixels of box ``b`` (a label next to its base)."""
    return a[0] - gap <= b[2] and b[0] <= a[2] + gap and a[1] - gap <= b[3] and b[1] <= a[3] + gap


def legend(view: TableView, book: StyleBook) -> list[LegendEntry]:
    """Sides, terrain kinds, marker words, marks, zones, range circles and the view's notes."""
    entries = side_entries(book)
    entries += change_entries(view.changes)
    entries += terrain_entries((t.kind for t in view.terrain), book)
    used = sorted({m.lower() for u in view.units for m in u.markers})
    styles = [s for s in (book.known_marker(m) for m in used) if s is not None]
    words = [f"{clean(s.text)} {clean(s.words) or clean(s.key)}" for s in styles
             if clean(s.text).lower() != (clean(s.words) or clean(s.key)).lower()]
    if words:
        entries.append(LegendEntry("text", ", ".join(words)))
    if any(u.arc is not None for u in view.units):
        entries.append(LegendEntry("text", "wedge = fire arc, tick = facing"))
    if any(u.eliminated for u in view.units):
        entries.append(LegendEntry("text", "grey X = out of action"))
    if view.zones:
        entries.append(LegendEntry("swatch", "stop zone (6\" from the side not moving)",
                                   key="#f8d9a0"))
    if view.circles:
        entries.append(LegendEntry("text", "red ring = range"))
    entries += mark_entries(view.marks, book)
    entries += note_entries(view.legend)
    return entries
