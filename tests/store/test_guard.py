"""The guarded head update (migration 0007), on both stores: a commit made against a game
version another writer has moved on is refused whole with Conflict, and a unit refused in a
group commit fails alone."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.logcheck import query
from bot.store import BaseStore, StepRow
from bot.record import seal_step
from bot.stores import open_store
from bot.writer import Conflict, Writer


async def _game(store: BaseStore) -> int:
    async with store.transaction() as db:
        return await db.create_game(
            channel_id="g", guild_id=None, system="duel", scenario="s", options={},
            seed=b"0" * 32, seed_hash="h", created_by="test")


def _unit(store: BaseStore, game_id: int, seq: int, version: int) -> Writer:
    unit = store.unit()
    unit.set_head(game_id, seq, version=version)  # first: the guard
    unit.insert_step(seal_step(StepRow(game_id=game_id, seq=seq, parent_seq=seq - 1, kind="order",
                                       state_json=f'{{"seq": {seq}}}', interaction_id=f"i{seq}"),
                               "test"))
    return unit


async def test_a_stale_version_is_refused_whole(store_url: Path | str) -> None:
    store = await open_store(store_url)
    try:
        game = await _game(store)
        results = await asyncio.gather(
            store.commit_unit(_unit(store, game, 1, version=0)),
            store.commit_unit(_unit(store, game, 2, version=0)),  # read the same version
            return_exceptions=True)
        assert results[0] is None and isinstance(results[1], Conflict), results
        assert (await store.game(game)).version == 1
        assert (await store.game(game)).head_seq == 1
        with pytest.raises(Conflict):
            async with store.transaction() as db:
                db.set_head(game, 9, version=0)
        assert query(store_url, "SELECT seq FROM step_log ORDER BY seq") == [(1,)]
        await store.commit_unit(_unit(store, game, 2, version=1))  # the fresh version passes
        assert (await store.game(game)).version == 2
    finally:
        await store.close()
