"""Group commit: units of many channels share one transaction, each all-or-nothing."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot import writer
from bot.store import StepRow, Store
from bot.record import seal_step


async def _game(store: Store, channel: str) -> int:
    """A game with its setup step #0, whose state is the game's until a unit moves the head."""
    async with store.transaction() as db:
        game_id = await db.create_game(
            channel_id=channel, guild_id=None, system="duel", scenario="s", options={},
            seed=b"0" * 32, seed_hash="h", created_by="test",
        )
        db.insert_step(seal_step(StepRow(game_id=game_id, seq=0, parent_seq=None, kind="setup",
                                         state_json='{"seq": 0}'), "test"))
        return game_id


def _unit(store: Store, game_id: int, seq: int, interaction: str) -> writer.Writer:
    unit = store.unit()
    unit.insert_step(seal_step(StepRow(game_id=game_id, seq=seq, parent_seq=seq - 1, kind="order",
                                       state_json=f'{{"seq": {seq}}}', interaction_id=interaction),
                               "test"))
    unit.set_head(game_id, seq)
    return unit


async def test_units_arriving_together_share_a_commit_and_fail_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    batches: list[int] = []
    real = writer._commit_units

    def counting(conn: sqlite3.Connection, units: list) -> list:
        batches.append(len(units))
        return real(conn, units)

    monkeypatch.setattr(writer, "_commit_units", counting)
    store = await Store.open(tmp_path / "group.sqlite3")
    try:
        games = [await _game(store, f"c{i}") for i in range(20)]
        units = [_unit(store, g, 1, f"i{g}") for g in games]
        units[7] = _unit(store, games[7], 1, f"i{games[3]}")  # a duplicate interaction id
        results = await asyncio.gather(*(store.commit_unit(u) for u in units),
                                       return_exceptions=True)
        failed = [i for i, r in enumerate(results) if isinstance(r, Exception)]
        assert failed == [7] and isinstance(results[7], sqlite3.IntegrityError)
        assert sum(batches) == 20 and len(batches) < 20, batches  # shared commits
        for i, game_id in enumerate(games):
            game = await store.game(game_id)
            steps = await store.steps(game_id)
            # The failed unit left nothing behind: not its step, not its head move.
            expected = 0 if i == 7 else 1
            assert game.head_seq == expected and len(steps) == expected + 1, i
            assert game.state_json == f'{{"seq": {expected}}}', i
    finally:
        await store.close()


async def test_a_unit_cannot_read(tmp_path: Path) -> None:
    # A unit may be committed with others, so it cannot see its own transaction.
    store = await Store.open(tmp_path / "unit.sqlite3")
    try:
        with pytest.raises(RuntimeError, match="cannot read"):
            await store.unit().fetchone("SELECT 1")
    finally:
        await store.close()


async def test_close_commits_what_was_submitted(tmp_path: Path) -> None:
    path = tmp_path / "close.sqlite3"
    store = await Store.open(path)
    game_id = await _game(store, "c")
    pending = asyncio.ensure_future(store.commit_unit(_unit(store, game_id, 1, "i1")))
    await asyncio.sleep(0)  # submitted, maybe not yet committed
    await store.close()
    await pending
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT head_seq FROM games").fetchone() == (1,)
