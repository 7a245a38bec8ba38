"""``referee migrate-db --from FILE --to URL`` (issue 20): a played SQLite database moves to
PostgreSQL whole (every row of every table), and the game goes on there."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.autoplay import Channel, pick_system
from bot.cli import main
from bot.config import Settings
from bot.logcheck import check_log, table_rows
from bot.service import Service
from tests.platform.test_migrations import reads_each_game_at_its_head_step


async def play(db: Path | str, orders: int, *, rollback: bool = False) -> Channel:
    """Open (or continue) a game in channel ``m`` and play ``orders`` legal orders."""
    service = await Service.open(Settings(db=db))
    try:
        key, _ = pick_system()
        table = Channel(service, key, "m", rng=random.Random(3))
        if await service.games.load("m") is None:
            await table.open()
        for _ in range(orders):
            _, reply = await table.order()
            assert not reply.error, reply.text
        if rollback:
            reply = await table.send(table.invocation(table.moderator, ["mod", "rollback"],
                                                      {"to": 2, "reason": "test"}, moderator=True))
            assert not reply.error, reply.text
        return table
    finally:
        await service.close()


def test_migrate_db_copies_every_row_and_the_game_goes_on(
        tmp_path: Path, pg_url: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    source = tmp_path / "old.sqlite3"
    asyncio.run(play(source, 12, rollback=True))
    asyncio.run(play(source, 3))  # a branch after the rollback
    assert main(["migrate-db", "--from", str(source), "--to", pg_url]) == 0
    assert "copied" in capsys.readouterr().out
    before, after = table_rows(source), table_rows(pg_url)
    for table in ("games", "step_log", "step_reverts", "audit", "seats", "seat_events",
                  "interactions", "bot_meta", "owed_announcements"):
        assert after[table] == before[table], table
    assert check_log(pg_url, linear=False) == []
    asyncio.run(play(pg_url, 5))  # ids and step numbers carry on where SQLite stopped
    assert check_log(pg_url, linear=False) == []
    # A second run would double the store: refused, nothing changed.  The target comes from
    # REFEREE_DB this time (issue 26: every database command reads it).
    monkeypatch.setenv("REFEREE_DB", pg_url)
    with pytest.raises(SystemExit, match="already holds games"):
        main(["migrate-db", "--from", str(source)])
    # export-html reads the game from PostgreSQL (it took a file path only, issue 26).
    assert main(["export-html", "1", "--out", str(tmp_path)]) == 0
    [page] = tmp_path.glob("*.html")
    assert "<!doctype html>" in page.read_text("utf-8")[:40]


def test_migrate_db_says_which_end_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFEREE_DB", "postgresql://u@h/db")
    with pytest.raises(SystemExit, match="needs the SQLite file"):
        main(["migrate-db"])
    monkeypatch.setenv("REFEREE_DB", "/data/referee.sqlite3")
    with pytest.raises(SystemExit, match="needs the PostgreSQL database"):
        main(["migrate-db"])
    with pytest.raises(SystemExit, match="takes a postgresql:// URL"):
        main(["migrate-db", "--to", "/tmp/x.sqlite3"])


async def test_a_postgresql_database_of_version_10_reads_each_game_at_its_head_step(
        pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Migration 0011 on PostgreSQL: the games row's copy of the state is dropped and the
    # head step's is read, for an active game and an ended one (a reverted head included).
    from bot import pgstore  # noqa: PLC0415
    from bot.logcheck import query  # noqa: PLC0415
    from bot.store import migration_files  # noqa: PLC0415

    every = migration_files()
    monkeypatch.setattr(pgstore, "migration_files", lambda: every[:10])
    await (await pgstore.PgStore.open(pg_url)).close()
    for game, status, head in ((1, "ended", 2), (2, "active", 1)):
        query(pg_url, "INSERT INTO games (id, channel_id, system, scenario, seed, seed_hash, head_seq,"
                      " state_json, status, created_at) VALUES (?, 'c', 'duel', 's', ?, 'h', ?, ?, ?,"
                      " 'then') RETURNING id", (game, b"\0", head, f'{{"g": {game}}}', status))
        for seq in range(3):
            query(pg_url, "INSERT INTO step_log (game_id, seq, parent_seq, kind, state_json,"
                          " created_at) VALUES (?, ?, ?, 'order', ?, 'then') RETURNING seq",
                  (game, seq, seq - 1 if seq else None, f'{{"g": {game}, "n": {seq}}}'))
    query(pg_url, "INSERT INTO audit (id, game_id, actor_id, actor_name, action, created_at)"
                  " VALUES (7, 2, 'm', 'mod', 'rollback', 'then') RETURNING id")
    query(pg_url, "INSERT INTO step_reverts (game_id, seq, audit_id) VALUES (2, 1, 7), (2, 2, 7)"
                  " RETURNING seq")
    monkeypatch.setattr(pgstore, "migration_files", lambda: every)
    store = await pgstore.PgStore.open(pg_url)
    try:
        assert await store.schema_versions() == [v for v, _, _ in every]
        await reads_each_game_at_its_head_step(store)
    finally:
        await store.close()
