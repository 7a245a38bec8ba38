"""The HTML export (issue 19, item 5): ``/game end`` attaches it and ``referee export-html``
writes it; one file with the log, the dice and every snapshot, needing no network."""

from __future__ import annotations

import asyncio
import html
import re

import pytest
from PIL import ImageChops

from bot.cli import main
from bot.export_html import PageData
from bot.export_html import page as make_page
from bot.replaycmds import shown_steps
from bot.store import Store
from render import snapshot
from render.scene import FOCUS_MAX
from rules.core import registry
from tests.replay.conftest import PlayedGame
from tests.replay.pages import focus_picture, page_data, picture, rgb


async def _read(game: PlayedGame, what: str):
    """``store.steps`` or ``store.game`` of a played game, from its database file."""
    store = await Store.open(game.db)
    try:
        return await getattr(store, what)(game.game_id)
    finally:
        await store.close()


def steps_of(game: PlayedGame):
    return asyncio.run(_read(game, "steps"))


def end_page(whole: PlayedGame) -> tuple[str, str]:
    assert whole.page is not None
    [page] = [a for a in whole.page.attachments if a.filename.endswith(".html")]
    return page.filename, page.data.decode("utf-8")


def test_game_end_announces_the_log_at_once_and_owes_the_whole_game_as_one_page(whole):
    """Issue 25 point 4: the result, the seed and the log go out at once; the page (every map
    drawn) is owed in the end's own transaction and built at delivery, as its own message."""
    name, page = end_page(whole)
    assert name == f"rr-game{whole.game_id}-final.html"
    assert whole.end is not None and whole.page is not None
    assert [a.filename for a in whole.end.attachments] == [f"rr-game{whole.game_id}-final.json.gz"]
    assert name in whole.end.text and "follows" in whole.end.text
    assert name in whole.page.text and "offline" in whole.page.text
    assert len(page.encode()) < 10 * 1024 * 1024


@pytest.mark.slow
def test_a_game_played_to_its_result_has_one_page_well_inside_discords_limits(played_out):
    """Issue 25 point 4, at full length: 333 maps in one page of under 10 MB."""
    name, page = end_page(played_out)
    assert name in played_out.page.text and "offline" in played_out.page.text
    assert len(page.encode()) < 10 * 1024 * 1024, "a whole game should stay well inside Discord's limits"


def test_the_page_holds_every_snapshot_the_log_and_the_dice(whole):
    _, page = end_page(whole)
    steps = steps_of(whole)
    data = page_data(page)
    shown = [s.seq for s in shown_steps(steps)]
    kept = [f.seq for f in data.frames]
    assert data.maps == len(shown) and kept[-1] == shown[-1] and set(kept) <= set(shown)
    if kept != shown:  # over the upload budget: every k-th map and the last, and said
        assert kept[0] == shown[0] and f"{len(kept)} of the {len(shown)} maps kept" in page
    # Every step of the log is a line, with its dice one by one.
    for step in steps:
        assert f'id="step-{step.seq}"' in page
    rolls = [r for s in steps for r in s.dice]
    assert rolls and all(html.escape(r.label()) in page for r in rolls)
    assert page.count("<li>die: ") == len(rolls)
    # The seed is revealed at the end, with how to check it.
    assert "Dice seed:" in page and "tools/verify_dice.py" in page


def test_each_map_comes_back_exactly_from_its_tiles(whole):
    _, page = end_page(whole)
    data = page_data(page)
    system = registry.get("rr")
    by_seq = {s.seq: s for s in shown_steps(steps_of(whole))}
    for index in (0, len(data.frames) // 2, len(data.frames) - 1):
        drawn = snapshot(system.view(system.load_state(by_seq[data.frames[index].seq].state_json)))
        assert ImageChops.difference(picture(data, index), rgb(drawn.png)).getbbox() is None
        # The phone's part (issue 25 point 14): the focus picture's board, cut from the map.
        x0, y0, x1, y1 = data.frames[index].c
        assert 0 <= x0 < x1 <= drawn.width and 0 <= y0 < y1 <= drawn.height and x1 - x0 <= FOCUS_MAX
        assert focus_picture(data, index).size == (x1 - x0, y1 - y0)


def test_the_page_needs_no_network(whole):
    _, page = end_page(whole)
    assert "default-src 'none'" in page  # the browser refuses any request at all
    # No element fetches anything: the pictures are drawn by the script from data: URIs.
    assert not re.search(r"<[a-z]+[^>]*\s(?:src|href|srcset|action)\s*=", page, re.I)
    assert "http://" not in page and "https://" not in page


def test_what_a_player_typed_cannot_break_out_of_the_page(whole):
    steps = steps_of(whole)
    evil = steps[1].model_copy(update={"action": {"name": "move", "options": {
        "to": "</script><script>alert(1)</script> @DATA@ <b>"}}})
    text = make_page(asyncio.run(_read(whole, "game")), registry.get("rr"), [evil],
                     PageData(tile=128, tiles=[], frames=[]))
    assert "<script>alert(1)" not in text and "<b>" not in text
    assert text.count('<script id="data"') == 1 and "@DATA@" in text  # kept as typed, not replaced


def test_referee_export_html_writes_the_page_of_a_running_game(hundred, tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("REFEREE_DB", raising=False)
    code = main(["export-html", str(hundred.game_id), "--db", str(hundred.db), "--out", str(tmp_path)])
    assert code == 0
    written = tmp_path / f"rr-game{hundred.game_id}.html"
    assert str(written) in capsys.readouterr().out
    data = page_data(written.read_text("utf-8"))
    assert [f.seq for f in data.frames] == [s.seq for s in shown_steps(steps_of(hundred))]


def test_referee_export_html_says_so_for_a_missing_game_or_database(hundred, tmp_path, capsys):
    assert main(["export-html", "999", "--db", str(hundred.db), "--out", str(tmp_path)]) == 1
    assert "no game #999" in capsys.readouterr().err
    assert main(["export-html", "1", "--db", str(tmp_path / "none.sqlite3")]) == 1
    assert "no database" in capsys.readouterr().err
    assert not (tmp_path / "none.sqlite3").exists()


def test_a_page_over_its_budget_keeps_an_even_part_of_the_maps_and_says_so(hundred):
    """A game whose maps would pass Discord's upload limit keeps every k-th map and the last
    (here a budget of about half the tiles stands in for 8 MiB); the page says so."""
    from bot.export_html import build_data

    system = registry.get("rr")
    steps = steps_of(hundred)
    shown = shown_steps(steps)[:12]
    full = build_data(system, shown)
    assert [f.seq for f in full.frames] == [s.seq for s in shown] and full.maps == len(shown)
    budget = len(full.model_dump_json()) * 6 // 10
    data = build_data(system, shown, budget=budget)
    assert len(data.model_dump_json()) <= budget and data.maps == len(shown)
    seqs = [f.seq for f in data.frames]
    assert 1 < len(seqs) < len(shown) and seqs[0] == shown[0].seq and seqs[-1] == shown[-1].seq
    step = shown.index(next(s for s in shown if s.seq == seqs[1]))
    assert seqs[:-1] == [s.seq for s in shown[::step]][:len(seqs) - 1]  # evenly
    for k, seq in enumerate(seqs):  # each kept map still comes back exactly from its tiles
        [kept] = [s for s in shown if s.seq == seq]
        drawn = snapshot(system.view(system.load_state(kept.state_json)))
        assert ImageChops.difference(picture(data, k), rgb(drawn.png)).getbbox() is None
    page = make_page(asyncio.run(_read(hundred, "game")), system, steps, data)
    assert f"{len(seqs)} of the {len(shown)} maps kept" in page
    assert "maps kept" not in make_page(asyncio.run(_read(hundred, "game")), system, steps, full)

