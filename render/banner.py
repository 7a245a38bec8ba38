"""The result banner ("Mission won") every kind of picture puts on its board (issue 25,
point 13): its size, where it hides least, and its drawing.  Its own module, below
:mod:`render.scene` and the renderers, so that neither imports the other for it."""

from __future__ import annotations

import math

from render.layout import Box, Layout
from render.style import MARGIN, PALETTE, TITLE, Canvas, Surface, clean, wrap

#: What a result banner must not hide (issue 25 point 13: a unit, a place name).
BANNER_AVOIDS = frozenset({"counter", "stack", "unit", "force", "label", "space", "area_label",
                           "objective", "marker", "mark_label", "entrance", "gone", "change"})


def draw_banner(canvas: Surface, text: str, box: Box, layout: Layout) -> None:
    """The result on the board of the final picture ("Mission won"): at the top of ``box``
    if it hides nothing there, else the free spot nearest the top (bottom, corners, then down
    the board), else where it hides least (:func:`banner_spot`)."""
    lines, w, bh = banner_size(text, box[2] - box[0])
    x0, y0 = banner_spot(box, w, bh, [i.box for i in layout.items if i.kind in BANNER_AVOIDS])
    put_banner(canvas, lines, (x0, y0, x0 + w, y0 + bh), layout)


def banner_size(text: str, room: float) -> tuple[list[str], float, float]:
    """A banner's lines (wrapped to ``room`` pixels, never cut short), width and height."""
    lines = wrap(clean(text), TITLE, room - 2 * MARGIN - 32)
    w = max(Canvas.text_size(line, TITLE)[0] for line in lines) + 32
    h = Canvas.text_size("Ag", TITLE)[1]
    return lines, w, h * len(lines) + 6 * (len(lines) - 1) + 14


def put_banner(canvas: Surface, lines: list[str], banner: Box, layout: Layout) -> None:
    """Draw a banner's box and lines (see :func:`banner_size`)."""
    h = Canvas.text_size("Ag", TITLE)[1]
    canvas.rect(banner, fill=PALETTE["header"], outline=PALETTE["objective_main"], width=3, radius=8)
    for k, line in enumerate(lines):
        top = banner[1] + 7 + k * (h + 6)
        canvas.text_in((banner[0], top, banner[2], top + h), line, TITLE, PALETTE["header_ink"], bold=True)
    layout.add("banner", "banner", banner, text=TITLE)


def banner_spot(box: Box, w: float, h: float, avoid: list[Box]) -> tuple[float, float]:
    """Where a ``w`` by ``h`` banner goes in ``box`` (a box with no height: along its top):
    the first of top centre, bottom centre, the four corners, then rows down the board, that
    overlaps nothing in ``avoid``; if every spot hides something, the one hiding least area."""
    left, right = box[0] + 10, box[2] - 10 - w
    centre = (box[0] + box[2]) / 2 - w / 2
    top = box[1] + 10
    bottom = max(top, box[3] - 10 - h)
    xs = [centre, left, right] if right > left else [centre]
    spots = [(centre, top), (centre, bottom)] + [(x, y) for y in (top, bottom) for x in xs[1:]]
    y = top + 24
    while y < bottom:
        spots += [(x, y) for x in xs]
        y += 24
    best, least = spots[0], math.inf
    for x, y in spots:
        hidden = sum(max(0.0, min(x + w, b[2]) - max(x, b[0])) * max(0.0, min(y + h, b[3]) - max(y, b[1]))
                     for b in avoid)
        if hidden == 0:
            return x, y
        if hidden < least:
            best, least = (x, y), hidden
    return best
