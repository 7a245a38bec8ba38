"""The standings picture (issue 44): read at 400 px wide on a phone, its smallest text is
still 11 px; one band a player, the leader marked by a bar as well as a colour."""

from __future__ import annotations

import io

from PIL import Image

from render.standings import COLUMNS, TEXT, WIDTH, StandingRow, StandingsView, render_standings
from render.style import clean, fit_text
from render.style import PALETTE


def view(rows: int) -> StandingsView:
    names = ["alice", "bob", "Konstantin Rokossovsky the Second", "dan", "erin", "frank", "gus", "hal"]
    return StandingsView(
        title="Autumn 2026: final standings", subtitle="every system (rr, skirmish) · final · 12 games counted",
        rows=[StandingRow(rank=k + 1, player=names[k], rating="27.6 ± 8.1", played=4, won=4 - k % 5, drawn=0,
                          lost=k % 5, deadlines="12/13" if k % 3 else "104/111", abandoned=k % 2)
              for k in range(rows)],
        notes=["Longest game: #12 rr, alice v bob, 411 steps (7 turns)",
               "Biggest upset: #9 skirmish, erin beat alice (21% to win)",
               "Rating: skill ± uncertainty (OpenSkill). Met: deadlines met of those set. Ab.: games abandoned."])


def test_the_table_reads_at_a_phones_width() -> None:
    assert TEXT * 400 / WIDTH >= 11  # the smallest text, shown 400 px wide
    small, big = (Image.open(io.BytesIO(render_standings(view(n)))) for n in (2, 8))
    assert small.width == big.width == WIDTH
    assert big.height - small.height == 6 * 46  # one band a player
    rgb = big.convert("RGB")
    assert max(abs(a - b) for a, b in zip(rgb.getpixel((WIDTH - 4, 4)), PALETTE["header"])) < 12
    # The leader's bar at the left edge of the first row (a mark, not only a colour).
    first_row = 16 + 48 + 34 + 46 + 23
    r, g, b = rgb.getpixel((2, first_row))
    assert r > 180 and b < 80


def test_reliability_and_rating_cells_are_never_cut() -> None:
    """The widest figures a club reaches (a rating of two digits each side, deadlines in
    three figures) fit their columns whole: ``fit_text`` would shorten them with an ellipsis."""
    widths = {heading: width for heading, width, _ in COLUMNS}
    for heading, text in (("Rating", "-12.3 ± 10.4"), ("Met", "104/111"), ("Ab.", "12"), ("P", "99")):
        assert fit_text(clean(text), TEXT, widths[heading] - 8) == text, heading
