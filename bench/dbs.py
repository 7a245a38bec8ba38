"""Where the benchmark's databases live: SQLite files in the run's folder (the default), or
databases on a throwaway PostgreSQL server (``bench/run.py --store postgresql``).

The server is the one the tests use (``bot/pgserver.py``) but with ``fsync`` on, so every
commit waits for the disk as in production and the floors are honest.
"""

from __future__ import annotations

import itertools
from pathlib import Path

from bot.pgserver import PgServer
from bot.stores import is_postgres_url

_SERVER: list[PgServer] = []
_names = itertools.count(1)


def use_postgres(server: PgServer | None) -> None:
    """Put every later database on ``server`` (None: back to SQLite files)."""
    _SERVER[:] = [server] if server is not None else []


def engine() -> str:
    """``sqlite`` or ``postgresql``: what the databases are now."""
    return "postgresql" if _SERVER else "sqlite"


def server_pid() -> int | None:
    """The PostgreSQL server's postmaster process id (None: SQLite files, no server)."""
    if not _SERVER:
        return None
    return int((_SERVER[0].data / "postmaster.pid").read_text().split()[0])


def target(workdir: Path, name: str) -> Path | str:
    """A fresh database for one measurement: ``workdir/name.sqlite3`` or a new database."""
    if not _SERVER:
        return workdir / f"{name}.sqlite3"
    return _SERVER[0].create_database(f"{name.replace('-', '_')}_{next(_names)}")


def parse(text: str) -> Path | str:
    """A database named on a command line (a child process's argument)."""
    return text if is_postgres_url(text) else Path(text)
