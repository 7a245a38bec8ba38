"""The last impulse, drawn on top: move arrows, fire lines, assaults, shots, blasts.

Each kind has its own line style as well as its colour (solid arrow, dashed line ending in a
burst, heavy arrow with a cross), so they read in greyscale.  Labels ("2 hits", 18.4") sit
in a white box placed by the shared :class:`~render.layout.Placer`, clear of chips.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import NamedTuple

from render.chrome import mark_colour
from render.layout import Box, Layout, Placer
from render.style import BODY, PALETTE, Canvas, Frame, SideBook, Surface, clean, colour, shade
from render.vocab import DEFAULT_BOOK, StyleBook
from rules.core.views import Mark

Point = tuple[float, float]
LABEL_PAD = 6.0


def _shorten(points: list[Point], start: float, end: float) -> list[Point]:
    """The polyline with its first and last segments cut back (so arrows stop short of dots)."""
    if len(points) < 2:
        return points
    pts = list(points)
    (ax, ay), (bx, by) = pts[0], pts[1]
    length = math.dist(pts[0], pts[1]) or 1.0
    if length > start * 2:
        pts[0] = (ax + (bx - ax) * start / length, ay + (by - ay) * start / length)
    (ax, ay), (bx, by) = pts[-2], pts[-1]
    length = math.dist(pts[-2], pts[-1]) or 1.0
    if length > end * 2:
        pts[-1] = (bx - (bx - ax) * end / length, by - (by - ay) * end / length)
    return pts


#: A ring on a point (a unit's place marked): its radius and its casing's width.
RING_RADIUS, RING_CASING = 16, 7
#: A burst on a point (fire that landed there) and its outline's width.
BURST_RADIUS, BURST_OUTLINE = 20, 2
#: How far a ring or burst drawn on a point reaches from it, in final pixels: what a
#: label placed near it keeps clear of.
SYMBOL_REACH = max(RING_RADIUS + RING_CASING / 2, BURST_RADIUS + BURST_OUTLINE / 2) + 1


def burst(cx: float, cy: float, r: float) -> list[Point]:
    """An eight-pointed burst: where fire landed."""
    points = []
    for k in range(16):
        radius = r if k % 2 == 0 else r * 0.5
        angle = k * math.pi / 8
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return points


def draw_mark_line(canvas: Surface, mark: Mark, points: list[Point], part: str = "all",
                   book: SideBook | None = None) -> None:
    """Draw one mark's line and symbol (not its label).

    ``part``: ``"line"`` draws the shafts and dashes only, ``"head"`` the arrowheads, bursts
    and rings only (so a renderer can put lines under its chips and heads over them),
    ``"all"`` everything.
    """
    style = (book if isinstance(book, StyleBook) else DEFAULT_BOOK).mark(mark.kind)
    ink = colour(style.colour, "ink")
    line = style.line
    casing = PALETTE["halo"]
    lines = part in ("all", "line")
    heads = part in ("all", "head")
    if not points:
        return
    if len(points) == 1 or line in ("ring", "burst"):
        x, y = points[-1]
        if not heads:
            return
        if line == "burst":
            canvas.polygon(burst(x, y, BURST_RADIUS), fill=ink, outline=casing, width=BURST_OUTLINE)
        else:
            canvas.ellipse(x, y, RING_RADIUS, outline=casing, width=RING_CASING)
            canvas.ellipse(x, y, RING_RADIUS, outline=ink, width=4)
        return
    arrow_part = {"all": "all", "line": "shaft", "head": "head"}[part]
    if line in ("arrow", "dashed-arrow"):
        canvas.arrow(_shorten(points, 8, 8), ink, width=5, head=20, dashed=line == "dashed-arrow",
                     casing=casing, part=arrow_part)
    elif line == "heavy-arrow":
        pts = _shorten(points, 8, 6)
        canvas.arrow(pts, ink, width=9, head=26, casing=casing, part=arrow_part)
        x, y = pts[0]
        if lines:
            # A cross at the start: the assaulting stack (assault moves into the area, 7.3.5).
            for dx in (-1, 1):
                canvas.line([(x - 9 * dx, y - 9), (x + 9 * dx, y + 9)], shade(ink, 0.3), 4)
    else:
        # Stop short of the target's centre dot so the burst does not hide it.
        pts = _shorten(points, 8, 14)
        if lines:
            canvas.dashed(pts, casing, 7, dash=14, gap=7)
            canvas.dashed(pts, ink, 4, dash=14, gap=7)
        if heads:
            x, y = pts[-1]
            if line == "miss":
                canvas.ellipse(x, y, 10, outline=casing, width=6)
                canvas.ellipse(x, y, 10, outline=ink, width=3)
            else:
                canvas.polygon(burst(x, y, 14), fill=ink, outline=casing, width=2)


def head_box(a: Point, b: Point, length: float = 34.0, half: float = 14.0) -> Box:
    """The box around the last ``length`` pixels of segment ``a``-``b``: an arrowhead's room."""
    d = math.dist(a, b) or 1.0
    t = max(0.0, 1 - length / d)
    p = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
    return (min(p[0], b[0]) - half, min(p[1], b[1]) - half,
            max(p[0], b[0]) + half, max(p[1], b[1]) + half)


def mark_label_size(text: str) -> tuple[float, float]:
    """Size of a mark's label box."""
    w, h = Canvas.text_size(text, BODY)
    return (w + 2 * LABEL_PAD + 4, h + 6)


def draw_mark_label(canvas: Surface, mark: Mark, text: str, box: Box,
                    book: SideBook | None = None) -> None:
    """A mark's label: white box with an edge in the mark's colour, dark text."""
    ink = mark_colour(mark.kind, book)

    def draw(c: Canvas) -> None:
        c.rect(box, fill=PALETTE["halo"], outline=ink, width=2.5, radius=6)
        c.text_in(box, text, BODY, PALETTE["ink"], bold=True)

    if isinstance(canvas, Frame):
        # A piece cached by what it shows (a label recurs), and lazy: drawn only when the
        # picture shows it.  A focus crop shows the newest marks; the older marks' labels,
        # new in each picture (their words and places change), were drawn for nothing
        # (issue 41: about 0.7 ms each, 1-2 ms of a table's focus picture).
        canvas.piece(("mark-label", text, ink), box, draw, lazy=True)
    else:
        draw(canvas)


class MarkLabel(NamedTuple):
    """A mark's label placed on the board: the layout names it ``mark-{number}``."""

    number: int
    mark: Mark
    text: str
    box: Box


def place_mark_labels(marks: Sequence[Mark], lines: Sequence[list[Point]], placer: Placer,
                      anchor: Callable[[list[Point]], Point], rings: int) -> list[MarkLabel]:
    """Claim a box for each mark's label (a mark with no words or no points has none), near
    the point ``anchor`` picks on its line, in the marks' order (each clear of the last)."""
    labels: list[MarkLabel] = []
    for i, (mark, pts) in enumerate(zip(marks, lines)):
        text = clean(mark.text)
        if text and pts:
            box = placer.place_near(anchor(pts), mark_label_size(text), step=10, rings=rings)
            labels.append(MarkLabel(i, mark, text, box))
    return labels


def draw_mark_labels(canvas: Surface, labels: Sequence[MarkLabel], book: SideBook,
                     layout: Layout) -> None:
    """Draw the placed mark labels and record them in the layout."""
    for label in labels:
        draw_mark_label(canvas, label.mark, label.text, label.box, book)
        layout.add("label", f"mark-{label.number}", label.box, parent=label.mark.kind, text=BODY)
