"""``bot/logcheck.py`` on a database of an older schema (issue 23 follow-up).

Before migration 0011 the games row held a second copy of the head's state, and the check
compares it with the head step's.  It reads the row with the newest query first and falls
back to an older one only when the database says a column is missing; any other error (a
lock held for a moment) is raised, never taken for an older schema, which would skip the
comparison.  Each finding about a game's head is reported on its own.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

import bot.logcheck as logcheck
from bot.logcheck import check_log
from bot.store import migration_files, split_sql
from bot.stores import open_store
from tests.platform.test_migrations import _old_database

#: The last schema whose games row holds its own copy of the state.
BEFORE_HEAD_STATE = 10


def version_10(path: Path) -> None:
    """A database brought to migration 10 the way the bot did: one game, three steps, #2
    reverted (``tests/platform/test_migrations.py``)."""
    _old_database(path)
    with sqlite3.connect(path) as db:
        for version, name, sql in migration_files():
            if 1 < version <= BEFORE_HEAD_STATE:
                for statement in split_sql(sql):
                    db.execute(statement)
                db.execute("INSERT INTO schema_migrations VALUES (?, ?, 'then')", (version, name))
    db.close()


def doctor(path: Path, *, head: int, state: str) -> None:
    with sqlite3.connect(path) as db:
        db.execute("UPDATE games SET head_seq = ?, state_json = ?", (head, state))
    db.close()


def test_a_sound_old_database_passes(tmp_path: Path) -> None:
    path = tmp_path / "v10.sqlite3"
    version_10(path)
    assert check_log(path, linear=False) == []


def test_every_head_finding_is_reported_on_its_own(tmp_path: Path) -> None:
    # The head on reverted step #2 and the row's copy of the state unlike #2's: both said.
    path = tmp_path / "v10.sqlite3"
    version_10(path)
    doctor(path, head=2, state='{"n": 9}')
    problems = check_log(path, linear=False)
    assert "game 1: head state differs from step 2's state" in problems
    assert "game 1: head 2 is a reverted step" in problems


async def test_the_newest_schema_is_read_without_the_copy(store_url: Path | str, tmp_path: Path) -> None:
    # Migration 0011 dropped games.state_json: the fallback is taken on "no such column"
    # (SQLite) and on undefined_column (PostgreSQL), and the check reads on.
    store = await open_store(store_url)
    try:
        async with store.transaction() as db:
            db.execute("INSERT INTO games (channel_id, system, scenario, seed, seed_hash, head_seq,"
                       " created_at) VALUES ('c', 'duel', 's', ?, 'h', 0, 'then')", (b"\x00",))
    finally:
        await store.close()
    assert check_log(store_url) == ["game 1: head 0 is not a stored step"]


def test_a_locked_database_is_an_error_not_an_older_schema(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Another connection holds the file's lock while the first query of the games runs,
    # and lets go just after: the check must say "locked", not read on with the query of
    # a newer schema and skip the comparison of the head's state.
    path = tmp_path / "v10.sqlite3"
    version_10(path)
    doctor(path, head=1, state='{"n": 9}')
    real = logcheck.query
    first = threading.Event()

    def query(target: Path, sql: str, args: tuple = ()) -> list[tuple]:
        if "FROM games" not in sql or first.is_set():
            return real(target, sql, args)
        first.set()
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("BEGIN EXCLUSIVE")
        try:
            return real(target, sql, args)
        finally:
            holder.execute("ROLLBACK")
            holder.close()

    monkeypatch.setattr(logcheck, "query", query)
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        check_log(path, linear=False)
