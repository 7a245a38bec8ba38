"""Games played once for the replay tests: Raid and Riposte's Tannenbruck through the real
service on a real SQLite file, by robot players (``bot/autoplay.py``).

* ``hundred``: 100 orders (steps #0 to #100), the game still running.
* ``whole``: a game of 120 orders ended by its moderator with ``/game end`` (whose reply,
  with the final log and the HTML page of the whole game attached, is kept).
* ``played_out``: a game played to its result, then ended (behind ``slow``: its page draws
  333 maps, about 30 s of CPU).
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass
from pathlib import Path
from unittest.mock import patch

import pytest

from bot.autoplay import Channel
from bot.config import Settings
from bot.models import Reply
from bot.service import Service
from rules.core.dice import seed_hash
from tests.conftest import shared_once

CHANNEL = "replay-chan"


@dataclass
class PlayedGame:
    """A game in a database file: its number, its channel and (once ended) the end reply
    and the page owed after it, as delivered (issue 25: built after the announcement)."""

    db: Path
    game_id: int
    channel: str
    end: Reply | None = None
    page: Reply | None = None


#: The games' dice seed: fixed, so that every run plays the same game (the size of the page
#: and the number of its maps do not change from run to run).
SEED = bytes(range(32))


async def _play(db: Path, orders: int | None, end: bool) -> PlayedGame:
    service = await Service.open(Settings(db=db, snapshot_dir=db.parent / "snaps"))
    try:
        with patch("bot.gamecmds.new_seed", lambda: (SEED, seed_hash(SEED))):
            return await _orders(service, db, orders, end)
    finally:
        await service.close()


async def _orders(service: Service, db: Path, orders: int | None, end: bool) -> PlayedGame:
    """Robot players' orders (all of them, or ``orders``), then ``/game end`` if asked."""
    table = Channel(service, "rr", CHANNEL, rng=random.Random(19))
    await table.open()
    played = 0
    while orders is None or played < orders:
        inv = await table.next_order()
        if inv is None:
            break
        reply = await table.send(inv)
        assert not reply.error, reply.text
        played += 1
    game = await service.games.load(CHANNEL)
    assert game is not None
    result = PlayedGame(db=db, game_id=game.row.id, channel=CHANNEL)
    if end:
        result.end = await table.send(table.invocation(table.moderator, ["game", "end"],
                                                       moderator=True))
        assert not result.end.error, result.end.text
        for owed_id, owed in await service.owed(CHANNEL):
            if owed.page_key == game.row.id:
                result.page = await service.attach_page(owed)
                await service.settle(owed_id)
    return result


@pytest.fixture(scope="session")
def hundred(tmp_path_factory: pytest.TempPathFactory) -> PlayedGame:
    """A Tannenbruck game of 100 orders, still running (played once per run)."""
    return shared_once(tmp_path_factory, "hundred",
                       lambda folder: asyncio.run(_play(folder / "referee.sqlite3", 100, end=False)))


#: Orders before the moderator ends ``whole``: enough for every kind of step the page shows
#: (moves, fire with its dice, reactions, a turn's end), and a third of a game's maps.
ENDED_AFTER = 120


@pytest.fixture(scope="session")
def whole(tmp_path_factory: pytest.TempPathFactory) -> PlayedGame:
    """A Tannenbruck game ended by its moderator after ``ENDED_AFTER`` orders (played once per
    run: every map of it is drawn for the page ``/game end`` attaches)."""
    return shared_once(tmp_path_factory, "whole",
                       lambda folder: asyncio.run(_play(folder / "referee.sqlite3", ENDED_AFTER,
                                                        end=True)))


@pytest.fixture(scope="session")
def played_out(tmp_path_factory: pytest.TempPathFactory) -> PlayedGame:
    """A whole Tannenbruck game, played to its result and ended (for the ``slow`` tests)."""
    return shared_once(tmp_path_factory, "played_out",
                       lambda folder: asyncio.run(_play(folder / "referee.sqlite3", None, end=True)))
