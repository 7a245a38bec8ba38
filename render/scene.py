"""A rendered scene, and the two pictures made from it: the full map and the focus view.

Every renderer returns a :class:`Scene`: the finished picture at final size (a
:class:`~render.style.Frame`), its :class:`~render.layout.Layout`, where the board (map,
network, table) lies in it, and the boxes of what the last action touched.

* :meth:`Scene.snapshot` encodes the full picture (``/game map``, the turn's end).
* :func:`focus_snapshot` is the picture posted after an impulse or battle round, read inline
  on a phone: the part of the board around the action, at the full picture's scale (so no
  text shrinks), at most :data:`FOCUS_MAX` pixels wide, with its own narrow header and
  legend.  A phone shows a chat image about 400 px wide, so the smallest text (17 px) shows
  at ``17 * 400 / 750 = 9.07`` px or more, and unit labels (19 px) at 10.1 px or more
  (measured from the layout: each item's text size times 400 over the picture's width).
"""

from __future__ import annotations

import bisect
import math
import threading
from contextlib import contextmanager
from contextvars import ContextVar
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Callable, Iterator, Sequence

from PIL import Image

from render.banner import banner_size, put_banner
from render.caches import on_clear
from render.chrome import LegendEntry, draw_header, draw_legend, header_height, legend_height
from render.layout import Box, Layout, LayoutItem, Snapshot, contains, overlaps
from render.style import MARGIN, PALETTE, WIDTH, Canvas, Frame, SideBook
from rules.core.views import Header

#: The focus picture's width range in final pixels (see the module docstring).
FOCUS_MIN = 560
FOCUS_MAX = 750
#: The focus picture's board height range.
FOCUS_H_MIN = 360
FOCUS_H_MAX = 820
#: Room kept around the action.
FOCUS_PAD = 40

#: True while the scene of a focus picture is laid out (:func:`for_focus`).
_FOR_FOCUS: ContextVar[bool] = ContextVar("for_focus", default=False)


@contextmanager
def laying_out_focus() -> Iterator[None]:
    """Lay out scenes for a focus picture within this block (:func:`render.pictures.focus`)."""
    token = _FOR_FOCUS.set(True)
    try:
        yield
    finally:
        _FOR_FOCUS.reset(token)


def for_focus() -> bool:
    """Whether the scene being laid out is for a focus picture.  A renderer then leaves out
    of the whole picture what lies below its board and only the whole picture shows (the
    crowded areas' panel, the battle): the focus picture is cut from the board and draws a
    narrow panel of its own, so those steps were composed for nothing (issue 41: the
    battle was about 4% of a network's focus picture).  Its layout and texts then lack
    them; its pixels are the same."""
    return _FOR_FOCUS.get()


#: A narrow panel for the focus picture: given the width and the crop (board pixels), its
#: height and how to draw it at a given top.
PanelFn = Callable[[int, Box], tuple[float, Callable[[Frame, float, Layout], None]]]


@dataclass
class Scene:
    """What a renderer made: the picture, its layout, the board's box, the focus boxes."""

    frame: Frame
    layout: Layout
    board: Box
    header: Header
    book: SideBook
    entries: list[LegendEntry]
    focus: list[Box] = field(default_factory=list)
    panel: PanelFn | None = None
    banner: str | None = None  # the result, drawn on the focus picture's board too
    #: Blocks outside the board (a force drawn under the map for want of room by its space)
    #: that belong to the action: the focus picture shows them under its board crop.
    extras: list[Box] = field(default_factory=list)

    def snapshot(self) -> Snapshot:
        """The full picture as PNG, with its layout; the result banner is added here, in a
        band of its own under the header (:meth:`add_banner_band`)."""
        if self.banner:
            self.add_banner_band()
        png = self.frame.png()  # first: the strips note their texts when drawn
        self.layout.texts = list(self.frame.texts)
        return Snapshot(png=png, width=self.frame.width, height=self.frame.height, layout=self.layout)


    def add_banner_band(self) -> None:
        """Open a band under the header and draw the result there: over the board it hid
        units and names (issue 25 point 13).  Everything under the header moves down; the
        focus picture, cut from the picture before, never shows it a second time."""

        assert self.banner
        old = self.frame
        top = round(self.layout.get("header", "header").box[3])
        lines, w, h = banner_size(self.banner, old.width)
        band = round(h) + 12
        new = Frame(old.width, old.height + band)
        new.put(old.image.crop((0, 0, old.width, top)), 0, 0)
        new.put(old.image.crop((0, top, old.width, old.height)), 0, top + band)
        new.palette, new.texts = old.palette, list(old.texts)
        self.layout.items = [item if item.box[1] < top else item.model_copy(update={"box": (
            item.box[0], item.box[1] + band, item.box[2], item.box[3] + band)}) for item in self.layout.items]
        self.layout.height += band
        x = (old.width - w) / 2
        put_banner(new, lines, (x, top + 6, x + w, top + 6 + h), self.layout)
        self.frame = new
        self.board = (self.board[0], self.board[1] + band, self.board[2], self.board[3] + band)
        self.focus = [(b[0], b[1] + band, b[2], b[3] + band) if b[1] >= top else b for b in self.focus]
        self.extras = [(b[0], b[1] + band, b[2], b[3] + band) if b[1] >= top else b for b in self.extras]
        self.banner = None  # drawn


@dataclass(frozen=True)
class Sheet:
    """A full picture being composed: its frame and layout, and the legend that closes it.

    The stage the three board renderers share: :meth:`open` sizes the picture from where
    its legend starts, the renderer draws its header and board, :meth:`close` draws the
    legend and hands back the :class:`Scene`.
    """

    frame: Frame
    layout: Layout
    entries: list[LegendEntry]
    legend_top: float

    @classmethod
    def open(cls, entries: list[LegendEntry], legend_top: float,
             base: Image.Image | None = None) -> Sheet:
        """A blank picture :data:`~render.style.WIDTH` wide, tall enough for the legend
        from ``legend_top`` (``base``: a static layer it starts from)."""
        height = math.ceil(legend_top + legend_height(entries, WIDTH))
        return cls(Frame(WIDTH, height, base=base), Layout(width=WIDTH, height=height), entries, legend_top)

    def close(self, header: Header, banner: str | None, book: SideBook, board: Box,
              focus: list[Box], panel: PanelFn | None = None, extras: list[Box] | None = None) -> Scene:
        """Draw the legend and return the finished :class:`Scene`."""
        put_legend(self.frame, self.entries, self.legend_top, book, self.layout)
        return Scene(banner=banner, frame=self.frame, layout=self.layout, board=board, header=header,
                     book=book, entries=self.entries, focus=focus, panel=panel,
                     extras=extras if extras is not None else [])


_STRIPS: "OrderedDict[tuple[str, str, int, int], tuple[Image.Image, tuple[tuple[str, int], ...]]]" = OrderedDict()
_STRIPS_LOCK = threading.Lock()


@on_clear
def _forget_strips() -> None:
    """Empty the header and legend strips (:mod:`render.caches`)."""
    with _STRIPS_LOCK:
        _STRIPS.clear()


def strip(kind: str, key: str, width: int, height: int,
           draw: Callable[[Canvas], object]) -> tuple[Image.Image, tuple[tuple[str, int], ...]]:
    """A header or legend strip ``width`` x ``height`` drawn by ``draw`` at drawing scale on
    paper and reduced once, with the texts drawn: cached by ``kind`` and ``key`` (what it
    shows: a header changes once per order, a legend rarely; treat the image as read-only)."""
    ident = (kind, key, width, height)
    with _STRIPS_LOCK:
        if ident in _STRIPS:
            _STRIPS.move_to_end(ident)
            return _STRIPS[ident]
    canvas = Canvas(width, height, background="paper")
    draw(canvas)
    out = (canvas.reduced(), tuple(canvas.texts))
    with _STRIPS_LOCK:
        _STRIPS[ident] = out
        while len(_STRIPS) > 64:
            _STRIPS.popitem(last=False)
    return out


def put_header(frame: Frame, header: Header, layout: Layout) -> float:
    """Draw the header strip (cached) across the top of ``frame``; returns its height.  It
    is drawn when its pixels are first asked for (:meth:`Frame.when_seen`): a focus picture
    draws a narrow header of its own, never the whole picture's."""
    height = header_height(header, frame.width)
    h = int(round(height)) + 1
    key, width = header.model_dump_json(), frame.width
    frame.when_seen((0, 0, width, h), lambda: strip(
        "header", key, width, h, lambda c: draw_header(c, header, Layout(width=width, height=h))))
    layout.add("header", "header", (0.0, 0.0, float(frame.width), height))
    return height


def put_legend(frame: Frame, entries: list[LegendEntry], top: float, book: SideBook,
               layout: Layout) -> float:
    """Draw the legend (cached by its entries and looks) from ``top``; returns its height
    (drawn when first seen, as :func:`put_header`)."""
    height = legend_height(entries, frame.width)
    if not height:
        return 0.0
    h = int(round(height)) + 1
    looks = tuple((lk.key, lk.letter, lk.rgb, lk.shape, lk.label) for lk in book.all())
    key = repr(([(e.icon, e.text, e.key, e.pill, e.style) for e in entries], looks))
    width, y = frame.width, round(top)
    frame.when_seen((0, y, width, y + h), lambda: strip(
        "legend", key, width, h, lambda c: draw_legend(c, entries, 0, book, Layout(width=width, height=h))))
    layout.add("legend", "legend", (0.0, top, float(frame.width), top + height))
    return height


def focus_box(scene: Scene) -> tuple[int, int, int, int]:
    """The part of the board the focus picture shows: the action and what it touched.

    Boxes are added in order (most important first) while the whole still fits in
    :data:`FOCUS_MAX`; the crop is then grown to at least :data:`FOCUS_MIN` by
    :data:`FOCUS_H_MIN` around it and kept inside the board.
    """
    return crop_for(scene.board, scene.focus, scene.layout.items)


def crop_for(board: Box, focus: list[Box], items: list[LayoutItem]) -> tuple[int, int, int, int]:
    """:func:`focus_box` of a board, its focus boxes (most important first) and its drawn
    items (labels are kept whole, :func:`settle_crop`)."""
    bx0, by0, bx1, by1 = board
    boxes = [b for b in focus if b[2] > bx0 and b[0] < bx1 and b[3] > by0 and b[1] < by1]
    if boxes:
        ux0, uy0, ux1, uy1 = boxes[0]
        for b in boxes[1:]:
            nx0, ny0, nx1, ny1 = min(ux0, b[0]), min(uy0, b[1]), max(ux1, b[2]), max(uy1, b[3])
            # The room around the action shrinks before a part of the action is left out.
            if nx1 - nx0 + 8 <= FOCUS_MAX and ny1 - ny0 + 8 <= FOCUS_H_MAX:
                ux0, uy0, ux1, uy1 = nx0, ny0, nx1, ny1
    else:
        cx, cy = (bx0 + bx1) / 2, (by0 + by1) / 2
        ux0, uy0, ux1, uy1 = cx - 1, cy - 1, cx + 1, cy + 1
    width = min(max(ux1 - ux0 + 2 * FOCUS_PAD, FOCUS_MIN), FOCUS_MAX, bx1 - bx0)
    height = min(max(uy1 - uy0 + 2 * FOCUS_PAD, FOCUS_H_MIN), FOCUS_H_MAX, by1 - by0)
    cx, cy = (ux0 + ux1) / 2, (uy0 + uy1) / 2
    x0 = min(max(cx - width / 2, bx0), bx1 - width)
    y0 = min(max(cy - height / 2, by0), by1 - height)
    crop = (round(x0), round(y0), round(x0 + width), round(y0 + height))
    words = [item.box for item in items if item.kind in WORDS and not item.in_panel]
    # The labels' edges may cut into the room around the action, never into the action.
    return settle_crop(crop, words, board, (ux0, uy0, ux1, uy1))


#: Layout kinds that carry words or a unit a player reads: the focus crop never cuts one
#: (issue 25 point 13: "2 units S2 see b", "7 TM", "gun-west" at the crop's edges).
WORDS = frozenset({"label", "area_label", "counter", "stack", "unit", "force", "space", "objective",
                   "marker", "mark_label", "entrance", "gone"})


def settle_crop(crop: tuple[int, int, int, int], words: list[Box], board: Box,
                core: Box) -> tuple[int, int, int, int]:
    """Move the edges of ``crop`` so that they cut as few labels as possible (none, mostly):
    each edge may go out or in to just past a label, the crop keeping the action (``core``),
    the board, :data:`FOCUS_MAX` by :data:`FOCUS_H_MAX`, and at least its width less
    :data:`SETTLE_SHRINK`.  Of equal cuts, the edges nearest the first crop win."""
    x0, y0, x1, y1 = crop
    core = (max(core[0], x0), max(core[1], y0), min(core[2], x1), min(core[3], y1))
    for _ in range(2):  # x, then y with the new x; once more, as the other axis moved
        across = [b for b in words if b[1] < y1 and b[3] > y0]
        x0, x1 = _settle_axis(x0, x1, [(b[0], b[2]) for b in across], (board[0], board[2]),
                              (core[0], core[2]), FOCUS_MAX)
        down = [b for b in words if b[0] < x1 and b[2] > x0]
        y0, y1 = _settle_axis(y0, y1, [(b[1], b[3]) for b in down], (board[1], board[3]),
                              (core[1], core[3]), FOCUS_H_MAX)
    return (x0, y0, x1, y1)


#: How much narrower (or lower) than first planned the focus crop may get to keep labels whole.
SETTLE_SHRINK = 140


def _settle_axis(lo: int, hi: int, spans: list[tuple[float, float]], board: tuple[float, float],
                 core: tuple[float, float], most: int) -> tuple[int, int]:
    """One axis of :func:`settle_crop`: the (lo, hi) cutting fewest spans, then nearest."""
    near = [sp for sp in spans if sp[0] < hi + 400 and sp[1] > lo - 400]
    if not near:
        return lo, hi
    # A span cuts an edge when a < edge < b: of the spans with a < b (no other can), those
    # starting before the edge less those ending at or before it (each of which starts
    # before it too), counted by bisection (the count over every span, per candidate edge,
    # was a tenth of a table's focus picture).
    starts_at = sorted(a for a, b in near if a < b)
    ends_at = sorted(b for a, b in near if a < b)

    def cuts(edge: float) -> int:
        return bisect.bisect_left(starts_at, edge) - bisect.bisect_right(ends_at, edge)
    starts = {lo} | {math.floor(a - 2) for a, _ in near} | {math.ceil(b + 2) for _, b in near}
    ends = {hi} | {math.floor(a - 2) for a, _ in near} | {math.ceil(b + 2) for _, b in near}
    least = min(hi - lo - SETTLE_SHRINK, most)
    lows = sorted((cuts(v), abs(v - lo), v) for v in starts if board[0] <= v <= core[0])
    highs = sorted((cuts(v), abs(v - hi), v) for v in ends if core[1] <= v <= board[1])
    best = _best_pair(lows, highs, least, most)
    return (best[2], best[3]) if best is not None else (lo, hi)


Edge = tuple[int, float, int]  # the spans it cuts, how far it moved, where it is


def _best_pair(lows: Sequence[Edge], highs: Sequence[Edge], least: int,
               most: int) -> tuple[int, float, int, int] | None:
    """Of the (low, high) edge pairs ``least`` to ``most`` apart, the one cutting fewest
    spans, then moved least; ``lows`` and ``highs`` sorted (fewest cuts first)."""
    best: tuple[int, float, int, int] | None = None
    fewest = highs[0][0] if highs else 0
    for cl, dl, a in lows:
        if best is not None and cl + fewest > best[0]:
            break  # lows come by their cuts: no later pair cuts as few
        for ch, dh, b in highs:
            if best is not None and cl + ch > best[0]:
                break  # nor does a later high with this low
            if least <= b - a <= most:
                score = (cl + ch, dl + dh, a, b)
                if best is None or score < best:
                    best = score
    return best


#: Words drawn next to what they name, not at its place: a label the crop would cut is drawn
#: whole just inside the edge instead (a unit or counter is never moved off its place).
MOVABLE = frozenset({"label", "area_label", "mark_label", "stack"})


def pull_in_cut_labels(frame: Frame, layout: Layout, scene: Scene, crop: tuple[int, int, int, int],
                       board_top: int) -> None:
    """Labels the focus crop still cuts (:func:`settle_crop` left them: the action fills the
    crop) are pasted whole from the full picture, moved just inside the crop's edge (on their
    own line, else one or two lines up or down, wherever they hide no other word or unit); a
    label with no such place has its stub covered over (a ``cut`` item in the layout).  So no
    word shows cut in half ("7 TM", "gun-west": issue 25 point 13)."""
    x0, y0, x1, y1 = crop
    for item in scene.layout.items:
        if item.kind not in MOVABLE or item.in_panel:
            continue
        b = item.box
        if not (b[0] < x1 and b[2] > x0 and b[1] < y1 and b[3] > y0) or contains(crop, b, 0):
            continue
        w, h = math.ceil(b[2] - b[0]), math.ceil(b[3] - b[1])
        if w > x1 - x0 - 8 or h > y1 - y0 - 8:
            continue
        # Only the part of the label past the edge moves in; a label wholly inside on one
        # axis keeps its place on it.
        nx = min(max(math.floor(b[0]), x0 + 2), x1 - 2 - w)
        ny = min(max(math.floor(b[1]), y0 + 2), y1 - 2 - h)
        src = (math.floor(b[0]), math.floor(b[1]), math.floor(b[0]) + w, math.floor(b[1]) + h)
        if not contains((0, 0, scene.frame.width, scene.frame.height), src, 0):
            continue
        # Its own line first, else a line up or down, where it hides no other word or unit.
        for shift in (0, -(h + 2), h + 2, -2 * (h + 2), 2 * (h + 2)):
            top = ny + shift
            if top < y0 + 2 or top + h > y1 - 2:
                continue
            moved = (nx - x0, top - y0 + board_top, nx - x0 + w, top - y0 + board_top + h)
            # the label's own stub is covered by it, so it counts only at its own line
            if not any(other.kind in WORDS and overlaps(moved, other.box, pad=-3) for other in layout.items):
                break
        else:
            moved = None  # no free line near: the label stays out of this picture
        stub = (max(b[0], x0) - x0, max(b[1], y0) - y0 + board_top,
                min(b[2], x1) - x0, min(b[3], y1) - y0 + board_top)
        if moved is None or shift:
            if any(other.kind in WORDS and overlaps(stub, other.box, pad=-1) for other in layout.items):
                continue  # the stub shares its place with a unit or word: it stays
            # The stub on the edge is covered in the colour of the map around the label.
            frame.rect(stub, fill=ground_colour(scene.frame, b))
            layout.add("cut", item.id, stub, parent=item.parent)
        if moved is not None:
            frame.put(scene.frame.crop(src), moved[0], moved[1])
            layout.add(item.kind, item.id, moved, parent=item.parent, text=item.text)


def ground_colour(frame: Frame, box: Box) -> tuple[int, int, int]:
    """The commonest colour just above and below ``box`` (the map a label sits on), read
    from the two rows of ``frame`` it looks at (only they are drawn)."""
    x0, x1 = max(0, math.floor(box[0])), min(frame.width - 1, math.ceil(box[2]))
    seen: dict[tuple[int, int, int], int] = {}
    for y in (math.floor(box[1]) - 3, math.ceil(box[3]) + 3):
        if 0 <= y < frame.height and x0 <= x1:
            row = frame.crop((x0, y, x1 + 1, y + 1))
            for x in range(0, x1 - x0 + 1, 4):
                pixel = row.getpixel((x, 0))
                assert isinstance(pixel, tuple)  # an RGB picture: a tuple per pixel
                rgb = (pixel[0], pixel[1], pixel[2])
                seen[rgb] = seen.get(rgb, 0) + 1
    return max(seen, key=seen.__getitem__) if seen else PALETTE["paper"]


def extras_row(boxes: list[Box], width: int) -> tuple[list[tuple[Box, int, int]], int]:
    """Where the scene's extra blocks go under the focus board: each block with its x and
    its y below the board, left to right, wrapping at ``width``; and the height they take."""
    out: list[tuple[Box, int, int]] = []
    x, y, row_h = 8, 0, 0
    for box in boxes:
        w, h = round(box[2] - box[0]), round(box[3] - box[1])
        if x > 8 and x + w > width - 8:
            x, y, row_h = 8, y + row_h + 6, 0
        out.append((box, x, y))
        x, row_h = x + w + 10, max(row_h, h)
    return out, (y + row_h + 6 if out else 0)


def put_extras(frame: Frame, layout: Layout, scene: Scene, top: int, width: int) -> None:
    """Paste the scene's extra blocks under the focus board from ``top`` (see
    :func:`extras_row`), with the layout items inside them."""
    for box, x, y in extras_row(scene.extras, width)[0]:
        src = (round(box[0]), round(box[1]), round(box[2]), round(box[3]))
        frame.put(scene.frame.crop(src), x, top + y)
        dx, dy = src[0] - x, src[1] - top - y
        for item in scene.layout.items:
            if item.in_panel and contains(box, item.box, 0):
                layout.add(item.kind, item.id, (item.box[0] - dx, item.box[1] - dy,
                                                item.box[2] - dx, item.box[3] - dy),
                           parent=item.parent, text=item.text)


def focus_snapshot(scene: Scene) -> Snapshot:
    """The focus picture: narrow header, the board around the action, the action's blocks
    drawn under the board (:attr:`Scene.extras`), a panel, the legend."""
    crop = focus_box(scene)
    width = crop[2] - crop[0]
    board_h = crop[3] - crop[1]
    head_h = header_height(scene.header, width)
    # The result goes in a band of its own over the board: on a crop this narrow a banner
    # on the board would hide units and names (issue 25 point 13).

    banner = banner_size(scene.banner, width) if scene.banner else None
    band_h = round(banner[2]) + 8 if banner else 0
    board_top = round(head_h) + 4 + band_h
    extra_h = extras_row(scene.extras, width)[1]
    panel_h, panel_draw = scene.panel(width, crop) if scene.panel else (0.0, None)
    entries = [e for e in scene.entries if e.icon != "text"]
    legend_top = board_top + board_h + 4 + extra_h + panel_h
    height = int(round(legend_top + legend_height(entries, width))) + 1
    frame = Frame(width, height)
    # The map's fixed palette (one per game's map and sides), not an octree of each picture.
    frame.palette = scene.frame.palette
    layout = Layout(width=width, height=height)
    # The narrow header and legend are drawn on the picture from pieces cached by their
    # words: a strip cached whole would be cached by its width too, which follows the crop.
    draw_header(frame, scene.header, layout)
    frame.put(scene.frame.crop(crop), 0, board_top)
    dx, dy = crop[0], crop[1] - board_top
    for item in scene.layout.items:
        if item.kind in ("header", "legend", "panel", "battle", "banner") or item.in_panel:
            continue
        if contains(crop, item.box, 0):
            layout.add(item.kind, item.id, (item.box[0] - dx, item.box[1] - dy,
                                            item.box[2] - dx, item.box[3] - dy),
                       parent=item.parent, text=item.text)
    pull_in_cut_labels(frame, layout, scene, crop, board_top)
    edge = PALETTE["grid"]
    for line in ((0, board_top, width, board_top + 2), (0, board_top + board_h - 2, width, board_top + board_h),
                 (0, board_top, 2, board_top + board_h), (width - 2, board_top, width, board_top + board_h)):
        frame.rect(line, fill=edge)
    if banner is not None:  # the final picture says who won, above whatever its crop shows
        lines, w, h = banner
        bx = (width - w) / 2
        put_banner(frame, lines, (bx, board_top - band_h, bx + w, board_top - band_h + h), layout)
    put_extras(frame, layout, scene, board_top + board_h + 4, width)
    if panel_draw is not None:
        panel_draw(frame, board_top + board_h + 4 + extra_h, layout)
    draw_legend(frame, entries, legend_top, scene.book, layout)
    png = frame.png()  # first: a piece notes its texts when it is drawn
    layout.texts = list(frame.texts) + [t for t in scene.frame.texts]
    return Snapshot(png=png, width=width, height=height, layout=layout)


__all__ = ["FOCUS_MAX", "FOCUS_MIN", "MARGIN", "Scene", "Sheet", "crop_for", "extras_row", "focus_box", "focus_snapshot",
           "for_focus", "laying_out_focus", "put_header", "put_legend", "strip"]
