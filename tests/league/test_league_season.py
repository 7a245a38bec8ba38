"""A six-player, two-round Swiss season of rr and skirmish in the console, robots typing the
orders as console lines in each pairing's channel (issue 44): the standings picture posted
and readable, the ratings equal to their recomputation from the games' logs."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from PIL import Image

from bot.config import Settings
from bot.console import Console, thread_channel
from bot.league import history, records
from bot.service import Service
from tests.league.season import PLAYERS, console_send, play_out


@pytest.fixture
async def service(tmp_path: Path):
    svc = await Service.open(Settings(db=str(tmp_path / "league.sqlite3"), html_at_end=False))
    yield svc
    await svc.close()


@pytest.mark.parametrize("concede_after", [
    # A round's concessions (after so many orders; None: played to the rules' end).  The
    # quick run plays one skirmish game to its end and concedes the rest after a few orders:
    # every outcome path (the Discord season plays an rr game to its end).
    pytest.param(((8, 12, 30), (None, 12, 30)), id="quick"),
    pytest.param(((None,) * 3, (None,) * 3), id="every-game-to-its-end", marks=pytest.mark.slow),
])
async def test_a_swiss_season_in_the_console(service: Service, tmp_path: Path,
                                             concede_after: tuple[tuple[int | None, ...], ...]) -> None:
    out: list[str] = []
    console = Console(service, user="mo", moderator=True, snapshot_dir=tmp_path / "snaps", write=out.append)
    await console.run_script(["/league new name:Autumn systems:rr,skirmish",
                              *[f"@{p} /league join" for p in PLAYERS]], echo=False)
    rng = random.Random(44)
    for round_no, system in ((1, "rr"), (2, "skirmish")):
        await console.run_line("/league schedule")
        league = (await records.leagues(service.store, "console"))[0]
        opened = [p for p in await records.pairings(service.store, league.id) if p.round == round_no]
        assert len(opened) == 3 and {p.system for p in opened} == {system}
        assert all(p.channel_id == thread_channel(p.id) and p.state == "playing" for p in opened)
        for p, after in zip(opened, concede_after[round_no - 1]):
            said = await play_out(service, p.channel_id or "", rng, console_send(console), concede_after=after)
            assert f"League Autumn: counted as" in said
    # Swiss: nobody meets the same opponent twice in two rounds.
    met = [frozenset((p.first_id, p.second_id)) for p in await records.pairings(service.store, league.id)]
    assert len(set(met)) == 6
    await console.run_line("/league close")
    text = "\n".join(out)
    assert "Autumn is over: the final table." in text and "Longest game:" in text
    final = tmp_path / "snaps" / "league-autumn-final.png"
    image = Image.open(final)
    assert image.width == 760 and image.height > 400  # six rows and the records
    # Every member played two games; the table's counts add up (2 games a player, 6 games).
    rows = await records.ratings(service.store, league.id, records.OVERALL)
    assert sorted(r.played for r in rows) == [2] * 6
    assert sum(r.won for r in rows) + sum(r.drawn for r in rows) / 2 == 6
    # The stored figures are what replaying the games' logs gives.
    again = await history.recompute(service.store, league)
    assert again.problems == []
    assert again.figures() == await history.stored(service.store, league)
    assert {r.figure.mu for r in rows} != {25.0}
