"""Pieces every snapshot shares: the header strip, the legend, marker pills and unit chips.

Each block is measured before the canvas exists (so the image is exactly as tall as its
content) and then drawn; every drawn block is recorded in the :class:`~render.layout.Layout`.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Iterable, Literal, Sequence

from PIL import Image

from render.caches import cached
from render.layout import Box, Layout
from render.style import (
    BIG,
    BODY,
    MARGIN,
    PALETTE,
    RGB,
    SMALL,
    TITLE,
    Canvas,
    SideBook,
    Shape,
    SideLook,
    Surface,
    clean,
    colour,
    fit_text,
    ink_on,
    piece,
    shade,
    tint,
    wrap,
)
from render.vocab import DEFAULT_BOOK, StyleBook
from rules.core.views import Header, Mark

# -- marker pills -------------------------------------------------------------------------------
# Short words, not icons: the bundled font has no symbols, and a word is clear without the
# legend.  The words come from the view's MarkerStyle list (render.vocab has the defaults).


def marker_pill(marker: str, book: SideBook | None = None) -> tuple[str, str]:
    """The pill text and fill colour of a marker (unknown markers: first four letters)."""
    style = (book if isinstance(book, StyleBook) else DEFAULT_BOOK).marker(marker)
    return (clean(style.text) or "?", style.fill)


PILL_PAD = 4.0
PILL_H = 20.0


def pill_width(text: str, size: int = SMALL) -> float:
    """Width of a pill holding ``text``."""
    return Canvas.text_size(text, size)[0] + 2 * PILL_PAD + 2


def draw_pill(canvas: Surface, x: float, cy: float, text: str, fill_key: str,
              size: int = SMALL) -> Box:
    """A rounded pill with dark text, left edge at ``x``, centred on ``cy``; returns its box."""
    w = pill_width(text, size)
    box = (x, cy - PILL_H / 2, x + w, cy + PILL_H / 2)
    fill = colour(fill_key, "panel")
    canvas.rect(box, fill=fill, outline=PALETTE["ink"], width=1.2, radius=5)
    canvas.text((x + w / 2, cy), text, size, ink_on(fill), anchor="mm")
    return box


# -- unit chips ---------------------------------------------------------------------------------

CHIP_LABEL = 19  # the unit's short name: the one thing a player must read at a glance
CHIP_PAD = 3.0
BADGE = 21.0
ROW1 = 22.0
ROW2 = 20.0


@dataclass
class Chip:
    """One unit chip: short name, side, status line (AP left) and marker pills.

    A full chip has two rows (name and marker pills; printed values and AP).  A ``small`` chip, for a leader or team
    riding with a unit, is one row (name, AP, pills) and hangs under its unit's chip.
    """

    id: str
    label: str
    look: SideLook
    status: str = ""
    pills: list[tuple[str, str]] = field(default_factory=list)
    eliminated: bool = False
    small: bool = False

    def _pills_width(self) -> float:
        return sum(pill_width(text) + 3 for text, _ in self.pills)

    def _status_width(self) -> float:
        width = Canvas.text_size(self.status, SMALL)[0] + CHIP_PAD if self.status else 0.0
        return width + (self._pills_width() if self.small else 0.0)

    @property
    def size(self) -> tuple[float, float]:
        """Width and height in final pixels."""
        label_w = Canvas.text_size(self.label, CHIP_LABEL)[0]
        head = BADGE + 3 * CHIP_PAD + label_w
        if self.small:
            extra = self._status_width() + CHIP_PAD if self.status or self.pills else 0.0
            return (head + extra + 2, ROW1 + 2 * CHIP_PAD)
        if self.pills:  # the marker pills follow the name on row 1 (see paint_chip)
            head += CHIP_PAD + self._pills_width()
        row2 = BADGE + 3 * CHIP_PAD + self._status_width() if self.has_row2 else 0.0
        height = ROW1 + (ROW2 if self.has_row2 else 0) + 2 * CHIP_PAD
        return (max(head, row2) + 2, height)

    @property
    def has_row2(self) -> bool:
        """Whether a full chip has a second row: its status (printed values, AP left)."""
        return bool(self.status)


def draw_chip(canvas: Surface, chip: Chip, x: float, y: float) -> Box:
    """Draw ``chip`` with its top-left at ``(x, y)``; returns its box.

    Chips are drawn once into a transparent patch and cached: most units look the same from
    one snapshot of a game to the next, and pasting is far cheaper than drawing.
    """
    look = chip.look
    key = (chip.label, chip.status, tuple(chip.pills), chip.eliminated, chip.small,
           look.key, look.letter, look.rgb, look.shape, look.label)
    # Made when its pixels are first asked for (:meth:`Frame.paste_made`); its texts now.
    canvas.paste_made(lambda: _chip_patch(key), chip.size, x, y)
    canvas.note_texts([(chip.label, CHIP_LABEL), (chip.status, SMALL), (look.letter, SMALL)]
                      + [(text, SMALL) for text, _ in chip.pills])
    w, h = chip.size
    return (x, y, x + w, y + h)


#: Everything a chip shows (:func:`draw_chip`'s cache key): label, status, pills, eliminated,
#: small, and its side's key, letter, colour, shape and label.
ChipKey = tuple[str, str, tuple[tuple[str, str], ...], bool, bool, str, str, RGB, Shape, str]


@cached(maxsize=1024)
def _chip_patch(key: ChipKey) -> Image.Image:
    """The chip of ``key`` drawn on a transparent patch at drawing scale (shared: read-only)."""
    label, status, pills, eliminated, small, side, letter, rgb, shape, side_label = key
    chip = Chip(id="", label=label, look=SideLook(side, letter, rgb, shape, side_label),
                status=status, pills=list(pills), eliminated=eliminated, small=small)
    w, h = chip.size
    patch = Canvas(math.ceil(w) + 1, math.ceil(h) + 1, background=None)
    paint_chip(patch, chip, 0, 0)
    return patch.image


def paint_chip(canvas: Canvas, chip: Chip, x: float, y: float) -> Box:
    """Draw ``chip`` directly (no cache) with its top-left at ``(x, y)``; returns its box.

    The badge (side letter in the side's shape) sits left; the name and marker pills on row 1,
    the status (printed values, AP) on row 2 (all on row 1 for a small chip).  The body is a pale tint of the side colour,
    so colour helps but the letter and shape carry the side.
    """
    w, h = chip.size
    box = (x, y, x + w, y + h)
    body = tint(chip.look.rgb, 0.8)
    edge = shade(chip.look.rgb, 0.35)
    if chip.eliminated:
        body, edge = tint(PALETTE["eliminated"], 0.6), PALETTE["eliminated"]
    canvas.rect(box, fill=body, outline=edge, width=2.2 if not chip.small else 1.5, radius=5)
    badge_cx = x + CHIP_PAD + 1 + BADGE / 2
    badge_cy = y + CHIP_PAD + ROW1 / 2
    canvas.badge(badge_cx, badge_cy, BADGE - 4, chip.look)
    text_x = x + CHIP_PAD * 2 + 1 + BADGE
    canvas.text((text_x, badge_cy), chip.label, CHIP_LABEL, PALETTE["ink"], anchor="lm",
                bold=not chip.small)
    label_w = Canvas.text_size(chip.label, CHIP_LABEL)[0]
    if chip.eliminated:
        canvas.line([(text_x, badge_cy), (text_x + label_w, badge_cy)], PALETTE["ink"], 2)
    # The marker pills (Suppressed, reduced) follow the name on row 1, so a counter with a
    # badge keeps the printed values and AP of row 2 on the same width as one without (a
    # row 2 of values, AP and pills was the widest chip of a crowded area: the first to
    # lose its values).  A small chip is one row: name, AP, pills.
    px = text_x + label_w + CHIP_PAD + 2
    if chip.status:
        sx, sy = (px, badge_cy) if chip.small else (text_x, y + CHIP_PAD + ROW1 + ROW2 / 2 - 1)
        canvas.text((sx, sy), chip.status, SMALL, PALETTE["ink"], anchor="lm")
        if chip.small:
            px += Canvas.text_size(chip.status, SMALL)[0] + CHIP_PAD
    for text, key in chip.pills:
        draw_pill(canvas, px, badge_cy, text, key)
        px += pill_width(text) + 3
    return box


# -- header strip -------------------------------------------------------------------------------


def header_facts(header: Header, width: int | None = None) -> list[str]:
    """The short facts shown as pills in the header: phase first, then the view's facts; a
    fact wider than a ``width`` picture goes on as many pills as it needs (never cut)."""
    facts = [clean(header.phase)] if header.phase else []
    facts += [clean(f) for f in header.facts if clean(f)]
    if width is None:
        return facts
    room = width - 2 * MARGIN - 16
    return [part for f in facts for part in (wrap(f, BODY, room) if pill_width(f, BODY) + 4 > room else [f])]


def header_turn(header: Header) -> str:
    """``Turn 3/7`` (or ``Turn 3``, or nothing; the header's ``turn_word`` for "Turn")."""
    if header.turn is None:
        return ""
    word = header.turn_word
    return f"{word} {header.turn}/{header.max_turn}" if header.max_turn else f"{word} {header.turn}"


def _flow(widths: Sequence[float], left: float, right: float, gap: float) -> list[tuple[float, int]]:
    """Left-to-right flow: each width's x and row number, wrapping at ``right``."""
    out: list[tuple[float, int]] = []
    x, row = left, 0
    for w in widths:
        if x > left and x + w > right:
            x, row = left, row + 1
        out.append((x, row))
        x += w + gap
    return out


FACT_ROW = 30.0


def title_lines(header: Header, width: int) -> list[str]:
    """The title in one line, or wrapped to two on a narrow picture (never cut short unless
    even two lines cannot hold it)."""
    turn = header_turn(header)
    turn_w = Canvas.text_size(turn, BIG)[0] + 16 if turn else 0
    room = width - 3 * MARGIN - turn_w
    title = clean(header.title)
    if Canvas.text_size(title, TITLE)[0] <= room:
        return [title]
    lines = wrap(title, TITLE, room)
    if len(lines) > 2:
        lines = lines[:1] + [fit_text(" ".join(lines[1:]), TITLE, room)]
    return lines


TITLE_ROW = 38.0


def header_height(header: Header, width: int) -> float:
    """The header strip's height for ``width``."""
    facts = header_facts(header, width)
    rows = 0
    if facts:
        places = _flow([pill_width(f, BODY) + 4 for f in facts], MARGIN, width - MARGIN, 8)
        rows = places[-1][1] + 1
    return 12 + TITLE_ROW * len(title_lines(header, width)) + rows * FACT_ROW + 8


def draw_header(canvas: Surface, header: Header, layout: Layout) -> float:
    """Draw the header strip across the top; returns its height.  On a :class:`Frame` (a
    focus picture, whose width changes with its crop) the turn box and the fact pills are
    pieces cached by their text: a header recurs word for word, rarely at the same width."""
    width = canvas.width
    height = header_height(header, width)
    box = (0.0, 0.0, float(width), height)
    canvas.rect(box, fill=PALETTE["header"])
    turn = header_turn(header)
    turn_w = Canvas.text_size(turn, BIG)[0] if turn else 0
    titles = title_lines(header, width)
    for k, title in enumerate(titles):
        canvas.text((MARGIN, 12 + 19 + k * TITLE_ROW), title, TITLE, PALETTE["header_ink"],
                    anchor="lm", bold=True)
    top = 12 + TITLE_ROW * (len(titles) - 1)
    if turn:
        tx0 = width - MARGIN - turn_w - 16
        piece(canvas, ("turn", turn), (tx0, 12, width - MARGIN, 12 + 36),
              lambda c: _draw_turn(c, turn, tx0, width - MARGIN))
    facts = header_facts(header, width)
    widths = [pill_width(f, BODY) + 4 for f in facts]
    for text, w, (x, row) in zip(facts, widths, _flow(widths, MARGIN, width - MARGIN, 8)):
        cy = top + 12 + 38 + row * FACT_ROW + FACT_ROW / 2 - 12
        pill = (x, cy - 13, x + w, cy + 13)
        middle = (x + w / 2, cy)
        piece(canvas, ("fact", text), pill,
              functools.partial(_draw_fact, pill=pill, text=text, middle=middle))
    layout.add("header", "header", box)
    return height


def _draw_turn(canvas: Canvas, turn: str, x0: float, x1: float) -> None:
    """The header's turn box (``Turn 3/7``) from ``x0`` to ``x1``."""
    canvas.rect((x0, 12, x1, 12 + 36), fill=PALETTE["header_ink"], radius=6)
    canvas.text((x0 + 8, 12 + 18), turn, BIG, PALETTE["header"], anchor="lm", bold=True)


def _draw_fact(canvas: Canvas, pill: Box, text: str, middle: tuple[float, float]) -> None:
    """One fact pill of the header, its text centred on ``middle``."""
    canvas.rect(pill, fill=tint(PALETTE["header"], 0.85), radius=6)
    canvas.text(middle, text, BODY, PALETTE["ink"], anchor="mm")


# -- legend -------------------------------------------------------------------------------------

IconKind = Literal["side", "pill", "swatch", "line", "text", "ring"]
LEGEND_ROW = 30.0
ICON_W = 40.0


@dataclass
class LegendEntry:
    """One legend item: an icon and its words."""

    icon: IconKind
    text: str
    key: str = ""  # palette key (pill, swatch, line) or faction key (side)
    pill: str = ""  # the pill's text
    style: str = ""  # line style: "move", "fire", "assault", "dashed", "dotted", "solid"

    @property
    def width(self) -> float:
        """Width of icon + text."""
        icon = {"pill": pill_width(self.pill) + 6, "text": 0.0}.get(self.icon, ICON_W)
        return icon + Canvas.text_size(self.text, SMALL)[0] + 6


def marker_entries(markers: Sequence[str], book: SideBook | None = None) -> list[LegendEntry]:
    """Legend entries for the marker pills that appear in the image (and only those)."""
    styles = book if isinstance(book, StyleBook) else DEFAULT_BOOK
    out = []
    for marker in markers:
        style = styles.marker(marker)
        out.append(LegendEntry("pill", clean(style.words) or clean(marker), key=style.fill,
                               pill=clean(style.text) or "?"))
    return out


def terrain_entries(kinds: Iterable[str], book: StyleBook) -> list[LegendEntry]:
    """A swatch for each terrain kind drawn, by name (its label, else its key)."""
    entries: list[LegendEntry] = []
    for kind in sorted(set(kinds)):
        style = book.terrain(kind)
        entries.append(LegendEntry("swatch", clean(style.label) or kind, key=style.fill))
    return entries


def note_entries(notes: Sequence[str]) -> list[LegendEntry]:
    """The view's own legend lines (empty ones dropped)."""
    return [LegendEntry("text", clean(t)) for t in notes if clean(t)]


def side_entries(book: SideBook) -> list[LegendEntry]:
    """One entry per side: badge and the side's name."""
    return [LegendEntry("side", clean(look.label) or look.key, key=look.key) for look in book.all()]


def mark_entries(marks: Sequence[Mark], book: SideBook | None = None) -> list[LegendEntry]:
    """Entries for the kinds of marks drawn this time (the view's words for its own kinds)."""
    styles = book if isinstance(book, StyleBook) else DEFAULT_BOOK
    kinds = sorted({m.kind for m in marks})
    return [LegendEntry("line", clean(styles.mark(k).words) or clean(k), key=k, style=k)
            for k in kinds]


def legend_height(entries: Sequence[LegendEntry], width: int) -> float:
    """Height of the legend block for ``width``."""
    if not entries:
        return 0.0
    places = _flow([e.width for e in entries], MARGIN, width - MARGIN, 18)
    return 10 + (places[-1][1] + 1) * LEGEND_ROW + 8


def draw_legend(canvas: Surface, entries: Sequence[LegendEntry], top: float, book: SideBook,
                layout: Layout) -> float:
    """Draw the legend rows from ``top``; returns the height used.  On a :class:`Frame` (a
    focus picture) each entry is a piece cached by what it shows (see :func:`draw_header`)."""
    height = legend_height(entries, canvas.width)
    if not height:
        return 0.0
    box = (0.0, top, float(canvas.width), top + height)
    canvas.rect(box, fill=PALETTE["panel"])
    canvas.line([(0, top), (canvas.width, top)], PALETTE["grid"], 1.5)
    places = _flow([e.width for e in entries], MARGIN, canvas.width - MARGIN, 18)
    for entry, (x, row) in zip(entries, places):
        cy = top + 10 + row * LEGEND_ROW + LEGEND_ROW / 2
        look = book.look(entry.key) if entry.icon == "side" else None
        seen = (look.letter, look.rgb, look.shape) if look is not None else None
        key = ("legend", entry.icon, entry.text, entry.key, entry.pill, entry.style, seen,
               _mark_look(entry, book))
        piece(canvas, key, (x, cy - LEGEND_ROW / 2, x + entry.width, cy + LEGEND_ROW / 2),
              functools.partial(_draw_entry, entry=entry, x=x, cy=cy, book=book))
    layout.add("legend", "legend", box)
    return height


def _mark_look(entry: LegendEntry, book: SideBook) -> tuple[str, str] | None:
    """What a line entry's sample shows of the view's mark style (its line and colour)."""
    if entry.icon != "line":
        return None
    mark = (book if isinstance(book, StyleBook) else DEFAULT_BOOK).mark(entry.style)
    return (mark.line, mark.colour)


def _draw_entry(canvas: Canvas, entry: LegendEntry, x: float, cy: float, book: SideBook) -> None:
    """One legend entry: its icon at ``x``, its words after it, centred on ``cy``."""
    tx = x + ICON_W
    if entry.icon == "side":
        canvas.badge(x + 14, cy, 20, book.look(entry.key))
    elif entry.icon == "pill":
        draw_pill(canvas, x, cy, entry.pill, entry.key)
        tx = x + pill_width(entry.pill) + 6
    elif entry.icon == "swatch":
        canvas.rect((x, cy - 10, x + 30, cy + 10), fill=colour(entry.key, "clear"),
                    outline=PALETTE["ink_soft"], width=1.2, radius=3)
    elif entry.icon == "line":
        draw_mark_sample(canvas, entry.style, x, cy, book)
    elif entry.icon == "ring":
        canvas.rect((x + 2, cy - 10, x + 32, cy + 10), outline=colour(entry.key, "ink"),
                    width=3, radius=5)
    else:
        tx = x
    canvas.text((tx, cy), entry.text, SMALL, PALETTE["ink"], anchor="lm")


def draw_mark_sample(canvas: Canvas, style: str, x: float, cy: float,
                     book: SideBook | None = None) -> None:
    """A short sample of a mark's line style for the legend (or of a route kind)."""
    a, b = (x, cy), (x + 32, cy)
    if style == "dashed":
        canvas.dashed([a, b], PALETTE["water"], width=4, dash=7, gap=4)
        return
    if style == "road":
        canvas.line([a, b], PALETTE["road"], 6)
        return
    if style == "track":
        canvas.dashed([a, b], PALETTE["road"], width=3, dash=5, gap=4)
        return
    if style == "dotted":
        canvas.dashed([a, b], PALETTE["ink_soft"], width=3, dash=3, gap=4)
        return
    mark = (book if isinstance(book, StyleBook) else DEFAULT_BOOK).mark(style)
    ink = colour(mark.colour, "ink")
    if mark.line in ("arrow", "dashed-arrow"):
        canvas.arrow([a, b], ink, width=4, head=12, dashed=mark.line == "dashed-arrow")
    elif mark.line in ("fire", "miss"):
        canvas.dashed([a, (x + 26, cy)], ink, width=3, dash=7, gap=4)
        canvas.ellipse(x + 28, cy, 5, fill=ink)
    elif mark.line == "heavy-arrow":
        canvas.arrow([a, b], ink, width=7, head=14)
    else:
        canvas.ellipse(x + 16, cy, 8, outline=ink, width=3)


def mark_colour(kind: str, book: SideBook | None = None) -> tuple[int, int, int]:
    """The colour of a mark kind (the view's, else the default: moves blue, fire red)."""
    return colour((book if isinstance(book, StyleBook) else DEFAULT_BOOK).mark(kind).colour, "ink")
