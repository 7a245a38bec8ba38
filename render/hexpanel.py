"""The side panel of a hex-map snapshot: titled blocks of lines (a duty chart, the pilots).

Measured before drawing (so the image is as tall as its content) and drawn in a strip under
the map, the blocks flowing in columns as wide as the picture allows (one column on a phone).
"""

from __future__ import annotations

from typing import Sequence

from render.layout import Layout
from render.style import MARGIN, PALETTE, SMALL, Canvas, SideBook, Surface, fit_text
from rules.core.views import PanelSection

ROW = 26.0
TITLE_ROW = 30.0
COLUMN_W = 330.0
GAP = 16.0
BADGE = 16.0


def _columns(width: float) -> int:
    return max(1, int((width - 2 * MARGIN + GAP) // (COLUMN_W + GAP)))


def _block_height(section: PanelSection) -> float:
    return TITLE_ROW + max(1, len(section.entries)) * ROW + 6


def _places(sections: Sequence[PanelSection], width: float) -> list[tuple[float, float, float]]:
    """``(x, y, column width)`` of each block from the top of the panel, filled column by
    column so that the columns end level (a greedy shortest-column fill)."""
    cols = _columns(width)
    col_w = (width - 2 * MARGIN - (cols - 1) * GAP) / cols
    heights = [10.0] * cols
    out = []
    for section in sections:
        c = min(range(cols), key=lambda i: (heights[i], i))
        out.append((MARGIN + c * (col_w + GAP), heights[c], col_w))
        heights[c] += _block_height(section) + 8
    return out


def panel_height(sections: Sequence[PanelSection], width: float) -> float:
    """Height of the panel strip at ``width`` (0 without sections)."""
    if not sections:
        return 0.0
    places = _places(sections, width)
    return max(y + _block_height(s) for s, (_, y, _) in zip(sections, places)) + 10


def draw_panel(canvas: Surface, sections: Sequence[PanelSection], top: float, book: SideBook,
               layout: Layout) -> float:
    """Draw the panel from ``top``; returns its height."""
    height = panel_height(sections, canvas.width)
    if not height:
        return 0.0
    box = (0.0, top, float(canvas.width), top + height)
    canvas.rect(box, fill=PALETTE["paper"])
    canvas.line([(0, top), (canvas.width, top)], PALETTE["grid"], 1.5)
    for section, (x, y, w) in zip(sections, _places(sections, canvas.width)):
        y0 = top + y
        block = (x, y0, x + w, y0 + _block_height(section))
        canvas.rect(block, fill=PALETTE["panel"], outline=PALETTE["grid"], width=1.2, radius=6)
        canvas.text((x + 10, y0 + TITLE_ROW / 2 + 2), fit_text(section.title, SMALL, w - 20), SMALL,
                    PALETTE["ink"], anchor="lm", bold=True)
        if not section.entries:
            canvas.text((x + 10, y0 + TITLE_ROW + ROW / 2), "none", SMALL, PALETTE["ink_soft"], anchor="lm")
        label_w = max((Canvas.text_size(e.label, SMALL)[0] for e in section.entries), default=0) + 10
        for i, entry in enumerate(section.entries):
            cy = y0 + TITLE_ROW + i * ROW + ROW / 2
            tx = x + 10
            if entry.faction:
                canvas.badge(tx + BADGE / 2, cy, BADGE, book.look(entry.faction))
                tx += BADGE + 8
            ink = PALETTE["ink_soft"] if entry.dim else PALETTE["ink"]
            label = fit_text(entry.label, SMALL, 60)
            canvas.text((tx, cy), label, SMALL, ink, anchor="lm", bold=True)
            tx += min(label_w, 64)
            canvas.text((tx, cy), fit_text(entry.text, SMALL, x + w - 10 - tx), SMALL, ink, anchor="lm")
        layout.add("panel", section.title, block)
    layout.add("side_panel", "panel", box)
    return height


__all__ = ["draw_panel", "panel_height"]
