"""Session-wide fixtures: one throwaway PostgreSQL server for the whole run (issue 20).

The store, service and reliability tests run on both stores: ``store_url`` is
parametrized over ``sqlite`` (a file in the test's folder) and ``postgresql`` (a fresh
schema on the session's server).  The server is started on first use, once per
session, and stopped at the end.  Without PostgreSQL binaries the ``postgresql`` cases are
skipped, and the reason is printed in the summary.
"""

from __future__ import annotations

import itertools
import os
from pathlib import Path
from typing import Iterator

import pytest

from bot.pgserver import PgServer, unavailable_reason

_REASON = unavailable_reason()
_names = itertools.count(1)
STORES = ("sqlite", "postgresql")
#: The database holding every test's schema.
DATABASE = "referee_tests"


@pytest.fixture(scope="session")
def pg_server() -> Iterator[PgServer]:
    """The session's PostgreSQL server (skips the test when none can run here)."""
    if _REASON is not None:
        if os.environ.get("REFEREE_REQUIRE_POSTGRES"):
            pytest.fail(f"REFEREE_REQUIRE_POSTGRES is set (.ci/run) but {_REASON}")
        pytest.skip(f"PostgreSQL tests skipped: {_REASON}")
    server = PgServer(fsync=False).start()
    try:
        server.create_database(DATABASE)
        yield server
    finally:
        server.stop()


def fresh_pg_url(request: pytest.FixtureRequest) -> str:
    """A fresh, empty schema of its own on the session's server, as a URL whose
    ``search_path`` names it: what the store creates goes there.  A schema, not a database:
    a new database copies the template's 7 MB, a schema costs nothing (a busy CI disk)."""
    server: PgServer = request.getfixturevalue("pg_server")
    name = f"t{next(_names)}"
    server.sql(f'CREATE SCHEMA "{name}"', DATABASE)
    return f"{server.url(DATABASE)}&search_path={name}"


@pytest.fixture
def pg_url(request: pytest.FixtureRequest) -> str:
    """A fresh, empty schema on the session's server (:func:`fresh_pg_url`)."""
    return fresh_pg_url(request)


def store_target(kind: str, request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """Where a test's store lives: a SQLite file, or a fresh PostgreSQL database."""
    if kind == "sqlite":
        return tmp_path / "referee.sqlite3"
    return request.getfixturevalue("pg_url")


@pytest.fixture(params=STORES)
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """The test's store, once on each engine."""
    return store_target(request.param, request, tmp_path)


def pytest_report_header() -> str:
    """Say whether the PostgreSQL cases run."""
    return ("PostgreSQL tests: on (throwaway server via initdb/pg_ctl)" if _REASON is None
            else f"PostgreSQL tests: SKIPPED, {_REASON}")


def pytest_terminal_summary(terminalreporter) -> None:  # type: ignore[no-untyped-def]
    """Repeat the reason at the end, where a reader of CI output looks."""
    if _REASON is not None:
        terminalreporter.write_line(f"PostgreSQL tests were skipped: {_REASON}", yellow=True)
