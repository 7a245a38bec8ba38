"""A league's standings as a picture a phone reads (issue 44): one row a player, rank,
name, rating with its uncertainty, played/won/drawn/lost and reliability (deadlines met of
those set, games abandoned), then the season's records.

The picture is :data:`WIDTH` pixels wide and every text is at least :data:`TEXT` px, so
shown 400 px wide on a phone (Discord's inline width) the smallest text is still about
11 px.  Rows are banded, and the leader's row is marked with a bar as well as a colour, so
a greyscale print reads.  The same table is written as plain text for screen readers by
``bot/league/standings.py``.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from render.style import PALETTE, Canvas, clean, fit_text, shade, tint, wrap

#: The picture's width in pixels (shown at 400 px: half size).
WIDTH = 760
#: Text sizes: no text below TEXT (about 11 px at 400 px wide).
TITLE, HEAD, TEXT = 34, 24, 23
ROW = 46
PAD = 16


class StandingRow(BaseModel):
    """One player's line of the table, as words already (the bot formats the figures)."""

    rank: int
    player: str
    rating: str
    played: int
    won: int
    drawn: int
    lost: int
    #: Deadlines met of those set (``12/13``; ``–`` before the first).
    deadlines: str
    abandoned: int


class StandingsView(BaseModel):
    """What the picture draws: a title, a subtitle, the rows and the season's notes."""

    title: str
    subtitle: str = ""
    rows: list[StandingRow] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)


#: The columns: heading, width and alignment ("l" left, "m" centre).
COLUMNS: tuple[tuple[str, int, str], ...] = (
    ("#", 44, "m"), ("Player", 200, "l"), ("Rating", 140, "m"), ("P", 46, "m"), ("W", 46, "m"),
    ("D", 46, "m"), ("L", 46, "m"), ("Met", 116, "m"), ("Ab.", 44, "m"),
)


def render_standings(view: StandingsView) -> bytes:
    """The standings picture as PNG bytes."""
    notes = [line for n in view.notes for line in wrap(clean(n), TEXT, WIDTH - 2 * PAD)]
    height = PAD + 48 + (34 if view.subtitle else 0) + ROW * (len(view.rows) + 1) + PAD \
        + (len(notes) * 32 + 12 if notes else 0) + PAD
    canvas = Canvas(WIDTH, height)
    ink, soft = PALETTE["ink"], PALETTE["ink_soft"]
    canvas.rect((0, 0, WIDTH, PAD + 44), fill=PALETTE["header"])
    canvas.text((PAD, PAD + 22), fit_text(clean(view.title), TITLE, WIDTH - 2 * PAD), TITLE,
                PALETTE["header_ink"], anchor="lm", bold=True)
    y = PAD + 48
    if view.subtitle:
        canvas.text((PAD, y + 17), fit_text(clean(view.subtitle), TEXT, WIDTH - 2 * PAD), TEXT, soft, anchor="lm")
        y += 34
    _row(canvas, y, [c[0] for c in COLUMNS], HEAD, ink, fill=PALETTE["panel"], bold=True)
    y += ROW
    for k, row in enumerate(view.rows):
        band = tint(PALETTE["objective_main"], 0.75) if row.rank == 1 else (
            PALETTE["paper"] if k % 2 else shade(PALETTE["paper"], 0.04))
        cells = [str(row.rank), row.player, row.rating, str(row.played), str(row.won), str(row.drawn),
                 str(row.lost), row.deadlines, str(row.abandoned)]
        _row(canvas, y, cells, TEXT, ink, fill=band, bold=row.rank == 1)
        if row.rank == 1:
            canvas.rect((0, y, 6, y + ROW), fill=PALETTE["objective_main"])
        y += ROW
    canvas.line([(PAD, y), (WIDTH - PAD, y)], PALETTE["grid"], 2)
    y += 12
    for note in notes:
        canvas.text((PAD, y + 16), note, TEXT, ink, anchor="lm")
        y += 32
    return canvas.png()


def _row(canvas: Canvas, y: float, cells: list[str], size: int, ink: tuple[int, int, int], *,
         fill: tuple[int, int, int], bold: bool = False) -> None:
    """One row of cells, left to right in :data:`COLUMNS`, on a band of ``fill``."""
    canvas.rect((0, y, WIDTH, y + ROW), fill=fill)
    x = float(PAD)
    for (_, width, align), text in zip(COLUMNS, cells):
        shown = fit_text(clean(text), size, width - 8)
        if align == "l":
            canvas.text((x + 4, y + ROW / 2), shown, size, ink, anchor="lm", bold=bold)
        else:
            canvas.text_in((x, y, x + width, y + ROW), shown, size, ink, bold=bold)
        x += width


__all__ = ["COLUMNS", "StandingRow", "StandingsView", "WIDTH", "render_standings"]
