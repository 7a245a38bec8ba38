"""``referee backup --to FILE`` and ``referee restore --from FILE``: the SQLite default's
backup story (issue 26).

The bot keeps its SQLite file in WAL mode and holds it open; copying the file with ``cp``
while it runs can catch a half-checkpointed database and misses what is still in the
``-wal`` file.  SQLite's online backup API (``sqlite3.Connection.backup``) copies a
consistent snapshot instead: the whole database is read in one step inside one read
transaction, which in WAL mode never blocks the bot's writer (readers and the writer work
side by side), so the bot goes on taking orders during the copy.  The copy is written beside
the target, checked (``PRAGMA integrity_check``), turned into a single self-contained file
(``journal_mode=DELETE``) and renamed into place, so a failed backup never leaves half a file
under the backup's name.

Restoring uses the same API the other way, into the bot's database (stop the bot first: it
holds the games in memory).  The database being replaced is first copied aside
(``NAME.before-restore.sqlite3``): nothing is lost by restoring the wrong file.  The restored
database may be of an older schema (the bot migrates it at start, as always), never of a newer
one: that is refused, as the stores refuse to open it (``bot/schema.py``).

PostgreSQL (``REFEREE_DB=postgresql://``) is backed up with its own tools (``pg_dump``).
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from bot.schema import refuse_newer

#: Milliseconds to wait for a lock the bot holds for a moment (its writer's commit).
BUSY_TIMEOUT_MS = 10_000


class BackupError(Exception):
    """A backup or restore that cannot be done, with the sentence saying why."""


def _open_existing(path: Path, *, read_only: bool = False) -> sqlite3.Connection:
    """A connection to an existing database file (never creating one by mistake)."""
    if not path.is_file():
        raise BackupError(f"There is no database {path} (give it with --db or REFEREE_DB).")
    mode = "ro" if read_only else "rw"
    db = sqlite3.connect(f"file:{path}?mode={mode}", uri=True, timeout=BUSY_TIMEOUT_MS / 1000)
    db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    return db


def describe(db: sqlite3.Connection, path: Path) -> str:
    """``12 games, 3,456 steps, schema version 11``; a BackupError when ``db`` is not a
    sound Referee database."""
    try:
        verdict = db.execute("PRAGMA integrity_check").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{path} is not a SQLite database ({exc}).") from None
    if verdict != "ok":
        raise BackupError(f"{path} fails SQLite's integrity check: {verdict}.")
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")}
    if not {"schema_migrations", "games", "steps"} <= tables:
        raise BackupError(f"{path} is a SQLite database but not a Referee one "
                          "(it has no games, steps and schema_migrations tables).")
    version = db.execute("SELECT MAX(version) FROM schema_migrations").fetchone()[0] or 0
    games = db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    steps = db.execute("SELECT COUNT(*) FROM steps").fetchone()[0]
    return f"{games:,} game(s), {steps:,} step(s), schema version {version}"


def _copy(source: sqlite3.Connection, target: Path) -> None:
    """Copy ``source`` into a fresh file ``target`` in one step (one consistent snapshot),
    as one self-contained file, synced to disk."""
    target.unlink(missing_ok=True)
    out = sqlite3.connect(target)
    try:
        source.backup(out)
        out.execute("PRAGMA journal_mode=DELETE")
    finally:
        out.close()
    with open(target, "rb") as handle:
        os.fsync(handle.fileno())


def backup(source: Path, target: Path) -> str:
    """Copy the live database ``source`` to ``target`` (online; see the module docstring);
    returns the line ``referee backup`` prints."""
    if target.exists() and target.resolve() == source.resolve():
        raise BackupError("The backup must go to another file than the database itself.")
    target.parent.mkdir(parents=True, exist_ok=True)
    scratch = target.with_name(f".{target.name}.partial")
    db = _open_existing(source)
    try:
        _copy(db, scratch)
        copy = sqlite3.connect(f"file:{scratch}?mode=ro", uri=True)
        try:
            what = describe(copy, source)
        finally:
            copy.close()
        os.replace(scratch, target)
    finally:
        db.close()
        scratch.unlink(missing_ok=True)
    size = target.stat().st_size / 1e6
    return f"Backed up {source} to {target}: {what}, {size:.1f} MB, integrity checked."


def restore(source: Path, target: Path) -> str:
    """Put the backup ``source`` in place of the database ``target`` (the bot stopped);
    the database replaced is kept beside it.  Returns the line ``referee restore`` prints."""
    if target.exists() and target.resolve() == source.resolve():
        raise BackupError("The backup and the database are the same file.")
    backup_db = _open_existing(source, read_only=True)
    try:
        what = describe(backup_db, source)
        # The stores' own question (bot/schema.py): a newer schema is refused, said alike.
        refuse_newer(backup_db.execute("SELECT MAX(version) FROM schema_migrations").fetchone()[0],
                     source)
        kept = None
        if target.is_file():
            kept = target.with_name(f"{target.stem}.before-restore{target.suffix or '.sqlite3'}")
            current = _open_existing(target)
            try:
                _copy(current, kept)
            finally:
                current.close()
        target.parent.mkdir(parents=True, exist_ok=True)
        into = sqlite3.connect(target, timeout=BUSY_TIMEOUT_MS / 1000)
        try:
            # Page for page over the old database, its WAL included: SQLite does the rest.
            backup_db.backup(into)
            into.execute("PRAGMA journal_mode=WAL")
        finally:
            into.close()
    finally:
        backup_db.close()
    note = f"; the database it replaced is kept as {kept}" if kept else ""
    return f"Restored {source} into {target}: {what}{note}. Start the bot again."
