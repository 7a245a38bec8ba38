"""The schema's version: the migrations this release ships, and the refusal of a database a
newer release has migrated.

A database records every migration applied to it in ``schema_migrations``; its version is
the highest.  A release knows the migrations it ships (``migrations/NNNN_name.sql``) and
nothing after them: opened on a database a newer release upgraded, its queries would read
what the newer schema dropped (migration 0011 dropped ``games.state_json``) and every
command would fail.  So the SQLite store, the PostgreSQL store and ``referee restore`` all
ask :func:`refuse_newer` first, before anything of the database is written, and the
operator reads one sentence saying what to do.
"""

from __future__ import annotations

import re
import sqlite3
from importlib import resources
from pathlib import Path

from bot import VERSION

_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


def migration_files() -> list[tuple[int, str, str]]:
    """``(version, name, sql)`` of every migration shipped in the ``migrations`` package."""
    found = []
    for entry in resources.files("migrations").iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.name, entry.read_text("utf-8")))
    found.sort()
    versions = [v for v, _, _ in found]
    if len(set(versions)) != len(versions):
        raise RuntimeError(f"two migrations share a version number: {versions}")
    return found


def newest_known() -> int:
    """The newest schema version this release can migrate to (its last migration)."""
    return max((version for version, _, _ in migration_files()), default=0)


class NewerSchema(Exception):
    """A database at a schema version newer than this release knows; its message is the
    one sentence the operator reads."""

    def __init__(self, db: object, version: int, known: int) -> None:
        self.version = version
        self.known = known
        super().__init__(
            f"{db} is at schema version {version}, but this release of Referee ({VERSION})"
            f" knows versions up to {known} only, so it will not use it and nothing in it was"
            " changed: run the newer release that upgraded it, or restore a backup taken"
            " before that upgrade."
        )


def refuse_newer(version: int | None, db: object) -> None:
    """Raise :class:`NewerSchema` when ``version`` (a database's highest recorded migration;
    None: it records none) is newer than :func:`newest_known`.  ``db`` is how the sentence
    names the database (a path, a URL without its password)."""
    known = newest_known()
    if version is not None and version > known:
        raise NewerSchema(db, version, known)


def sqlite_version(path: Path) -> int | None:
    """The schema version of the SQLite file ``path``, read without writing anything: None
    when there is no file yet or it records no migration (a new database).  A file that is
    not a database raises SQLite's own error, as opening the store would.

    Read-write but never writing (``mode=rw`` creates no file): a read-only connection could
    not remove the ``-wal`` and ``-shm`` files it makes beside a WAL database, while this one,
    the last to close, removes them and leaves the folder as it found it."""
    if not path.is_file():
        return None
    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=rw", uri=True, timeout=10)
    try:
        known = db.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
        ).fetchone()
        if known is None:
            return None
        version: int | None = db.execute("SELECT MAX(version) FROM schema_migrations").fetchone()[0]
        return version
    finally:
        db.close()


__all__ = ["NewerSchema", "migration_files", "newest_known", "refuse_newer", "sqlite_version"]
