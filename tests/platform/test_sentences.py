"""Every bad value is a sentence, and so is a database in trouble (issue 29, points 5-6):
Unicode digits, overflowing numbers and spans, a full disk, a read-only or damaged database
are said plainly to the player (ephemeral, nothing changed) and to the operator (start-up:
one sentence, exit code 1, never a traceback); ``referee health`` fails a failed integrity
check."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.store import Store
from tests.platform.conftest import Table


@pytest.fixture
def store_url(tmp_path: Path) -> Path:
    return tmp_path / "referee.sqlite3"


async def _playing(table: Table) -> None:
    for user, line in [("alice", "/game new system:duel options:target=30"),
                       ("alice", "/game join side:red"), ("bob", "/game join side:blue")]:
        assert not (await table(user, line)).error


BAD = [
    "/game deadline at:①", "/game deadline at:١٢٣٤٥٦٧٨٩٠", "/game deadline at:<t:99999999999999999999>",
    "/game deadline at:99999999999", "/game away until:999999999999", "/game digest since:①", "/game digest since:٣",
    "/game digest since:99999999999999999999", "/game away until:999999999999999999999999999999",
    "/game away until:２０２６-１２-０１", "/game pace hours:24 remind:100000000000000000000d",
    "/game pace hours:24 remind:1e400h", "/game pace hours:①", "/game log last:١٠",
    "/game log page:99999999999999999999999", "/game replay from:-1", "/mod rollback to:①",
    "/mod rollback to:9999999999999999999999", "/game export game:1_000",
    "/duel roll label:" + "x" * 5000,
]


@pytest.mark.parametrize("line", BAD)
async def test_a_bad_value_gets_a_sentence_not_an_incident(table: Table, line: str) -> None:
    await _playing(table)
    reply = await table("mod" if line.startswith("/mod") else "alice", line,
                        moderator=line.startswith("/mod"))
    assert reply.error and reply.ephemeral, reply.text
    assert "incident" not in reply.text and "went wrong" not in reply.text, reply.text


async def _writer_pragma(table: Table, pragma: str) -> None:
    store = table.service.store
    assert isinstance(store, Store)
    await store._writer.call(lambda: store._writer._connection().execute(f"PRAGMA {pragma}").fetchall())


async def test_a_full_disk_is_said_and_nothing_is_lost(table: Table) -> None:
    """SQLite's own "database or disk is full" (max_page_count at the file's size): the
    player is told, nothing changes; with room again the game goes on, nothing lost."""
    await _playing(table)
    rows = await table.service.store._fetchall("PRAGMA page_count")
    await _writer_pragma(table, f"max_page_count = {rows[0][0]}")
    said = None
    for n in range(200):
        reply = await table("alice" if n % 2 == 0 else "bob", "/duel wait")
        if reply.error:
            said = reply.text
            break
    assert said is not None and "disk is full" in said and "nothing changed" in said, said
    assert "incident" not in said
    await _writer_pragma(table, "max_page_count = 1073741823")
    game = await table.service.games.load(table.channel)
    assert game is not None
    waited = game.system.waiting_on(game.state)[0]
    again = await table("alice" if waited == "red" else "bob", "/duel wait")
    assert not again.error, again.text


async def test_a_read_only_database_is_said(table: Table) -> None:
    await _playing(table)
    await _writer_pragma(table, "query_only = ON")
    reply = await table("alice", "/duel wait")
    assert reply.error and "cannot write its game database" in reply.text, reply.text
    await _writer_pragma(table, "query_only = OFF")


def _cli(tmp_path: Path, *args: str, db: Path) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "REFEREE_DB": str(db), "REFEREE_SNAPSHOT_DIR": str(tmp_path / "s"),
           "PYTHONPATH": str(Path.cwd())}
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], env=env, input="quit\n",
                          capture_output=True, text=True, timeout=120)


async def _damaged_copy(tmp_path: Path) -> Path:
    """A database with a game whose table pages are overwritten (a torn disk, say): the
    file opens, its header is intact, but PRAGMA integrity_check fails."""
    db = tmp_path / "damaged.sqlite3"
    store = await Store.open(db)
    async with store.transaction() as tx:
        for n in range(40):
            await tx.create_game(channel_id=f"c{n}", guild_id=None, system="duel", scenario="s",
                                 options={}, seed=b"0" * 32, seed_hash="h", created_by="t",
                                 scenario_text="{}" * 400)
    await store.close()
    # The one-channel index of games: nothing reads it at start, integrity_check does.
    root = sqlite3.connect(db).execute(
        "SELECT rootpage FROM sqlite_master WHERE name = 'games_active_channel'").fetchone()[0]
    page = sqlite3.connect(db).execute("PRAGMA page_size").fetchone()[0]
    data = bytearray(db.read_bytes())
    start = (root - 1) * page
    data[start + 8:start + 8 + 200] = bytes(range(200))
    db.write_bytes(bytes(data))
    return db


async def test_health_fails_a_failed_integrity_check(tmp_path: Path) -> None:
    db = await _damaged_copy(tmp_path)
    done = _cli(tmp_path, "health", db=db)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and "fails its integrity check" in done.stderr, done.stderr
    good = _cli(tmp_path, "health", db=tmp_path / "fresh.sqlite3")
    assert good.returncode == 0, good.stderr


@pytest.mark.parametrize("command", ["health", "console"])
def test_a_file_that_is_no_database_is_said_at_start(tmp_path: Path, command: str) -> None:
    db = tmp_path / "junk.sqlite3"
    db.write_bytes(b"this is not a database, it is a letter to grandma" * 200)
    done = _cli(tmp_path, command, db=db)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and "is damaged" in done.stderr, done.stderr


def test_the_operators_sentence_never_shows_a_database_password() -> None:
    """A PostgreSQL URL carries its password; the operator's sentence goes to the log (and
    ``referee health``'s output), so it names the database with the password hidden."""
    from bot.storage import for_operator

    url = "postgresql://referee:s3cret-pw@db.example:5432/referee"
    said = for_operator(sqlite3.OperationalError("unable to open database file"), url)
    assert said is not None and "s3cret-pw" not in said
    assert "postgresql://referee:***@db.example:5432/referee" in said
    assert "/srv/referee.db" in (for_operator(sqlite3.OperationalError("database or disk is full"),
                                              Path("/srv/referee.db")) or "")
