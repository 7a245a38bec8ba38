"""A release opened on a database a newer release upgraded is refused (issue 23 follow-up).

Migration 0011 dropped ``games.state_json``: a bot of an older release reading that column
would fail every command.  So the SQLite store, the PostgreSQL store and ``referee restore``
refuse a database whose recorded schema version is newer than the newest migration they
know, before changing anything in it, with one sentence for the operator; ``python -m bot``
says it and exits 1, no traceback.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import asyncpg
import pytest

from bot.backup import backup, restore
from bot.cli import main
from bot.pgstore import PgStore
from bot.schema import NewerSchema, newest_known
from bot.store import Store

ROOT = Path(__file__).resolve().parents[2]
NEWER = newest_known() + 1
#: What the operator reads, whichever way the database was opened.
SENTENCE = (f"is at schema version {NEWER}, but this release of Referee (",
            f") knows versions up to {NEWER - 1} only, so it will not use it and nothing in it"
            " was changed: run the newer release that upgraded it, or restore a backup taken"
            " before that upgrade.")


def said(text: str) -> bool:
    """Whether ``text`` holds the operator's sentence."""
    return all(part in text for part in SENTENCE)


async def newer_sqlite(path: Path) -> None:
    """A SQLite database as a release with one more migration leaves it."""
    store = await Store.open(path)
    await store.close()
    with sqlite3.connect(path) as db:
        db.execute("INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                   (NEWER, f"{NEWER:04d}_from_the_future.sql", "2027-01-01T00:00:00Z"))
    db.close()


def folder(path: Path) -> dict[str, str]:
    """Every file beside the database, with the hash of its bytes."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(path.parent.iterdir())}


async def test_sqlite_store_refuses_a_newer_database_and_leaves_it_alone(tmp_path: Path) -> None:
    path = tmp_path / "referee.sqlite3"
    await newer_sqlite(path)
    before = folder(path)
    with pytest.raises(NewerSchema) as refused:
        await Store.open(path)
    assert said(str(refused.value)) and str(path) in str(refused.value)
    assert folder(path) == before  # not a byte, not a -wal, -shm or -locks file more


async def test_sqlite_store_opens_its_own_version_and_a_new_file(tmp_path: Path) -> None:
    # The refusal is for newer only: the newest known version and a new file open as before.
    path = tmp_path / "referee.sqlite3"
    for _ in range(2):
        store = await Store.open(path)
        try:
            assert max(await store.schema_versions()) == newest_known()
        finally:
            await store.close()


async def _catalog(url: str) -> list[tuple]:
    """The tables and columns of the test's schema and its recorded migrations."""
    conn = await asyncpg.connect(url)
    try:
        columns = await conn.fetch(
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() ORDER BY 1, 2")
        versions = await conn.fetch("SELECT version, name, applied_at FROM schema_migrations"
                                    " ORDER BY version")
        return [tuple(r) for r in columns] + [tuple(r) for r in versions]
    finally:
        await conn.close()


async def test_postgres_store_refuses_a_newer_database_and_leaves_it_alone(pg_url: str) -> None:
    store = await PgStore.open(pg_url)
    await store.close()
    conn = await asyncpg.connect(pg_url)
    try:
        await conn.execute("INSERT INTO schema_migrations (version, name, applied_at)"
                           " VALUES ($1, $2, $3)", NEWER, "future.sql", "2027-01-01T00:00:00Z")
    finally:
        await conn.close()
    before = await _catalog(pg_url)
    with pytest.raises(NewerSchema) as refused:
        await PgStore.open(pg_url)
    assert said(str(refused.value)) and "referee_tests" in str(refused.value)
    assert await _catalog(pg_url) == before


async def test_restore_refuses_a_newer_backup(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # restore asks the same question as the stores (bot/schema.py), and says the same.
    live = tmp_path / "live.sqlite3"
    await newer_sqlite(live)
    copy = tmp_path / "copy.sqlite3"
    backup(live, copy)
    target = tmp_path / "referee.sqlite3"
    with pytest.raises(NewerSchema):
        restore(copy, target)
    assert main(["restore", "--db", str(target), "--from", str(copy)]) == 1
    err = capsys.readouterr().err
    assert said(err) and str(copy) in err
    assert not target.exists()


def _run(args: list[str], db: Path, tmp_path: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "REFEREE_DB": str(db),
           "REFEREE_SNAPSHOT_DIR": str(tmp_path / "snaps"), "PYTHONPATH": str(ROOT), **extra}
    return subprocess.run([sys.executable, *args], env=env, capture_output=True, text=True,
                          timeout=120, cwd=tmp_path, stdin=subprocess.DEVNULL)


async def test_python_m_bot_says_it_and_exits_non_zero(tmp_path: Path) -> None:
    db = tmp_path / "referee.sqlite3"
    await newer_sqlite(db)
    before = folder(db)
    # No token: the console; `health`: the operator's check.
    for args in (["-m", "bot"], ["-m", "bot", "health"]):
        done = _run(args, db, tmp_path)
        assert done.returncode == 1, done.stderr
        assert said(done.stderr) and "Traceback" not in done.stderr, done.stderr
    # The Discord bot: the store is opened before the login, which must not be reached
    # (no network here; tests/discord/test_discord_startup.py).
    code = ("import discord, sys\n"
            "from bot.cli import main\n"
            "async def login(self, token):\n"
            "    raise RuntimeError('logged in to Discord with a refused database')\n"
            "discord.Client.login = login\n"
            "sys.exit(main(['bot']))\n")
    done = _run(["-c", code], db, tmp_path, DISCORD_TOKEN="a-token")
    assert done.returncode == 1, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert said(lines[-1]) and "Traceback" not in done.stderr, done.stderr
    assert folder(db) == before
