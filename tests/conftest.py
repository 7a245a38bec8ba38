"""Session-wide fixtures: one throwaway PostgreSQL server for the whole run (issue 20).

The store, service and reliability tests run on both stores: ``store_url`` is
parametrized over ``sqlite`` (a file in the test's folder) and ``postgresql`` (a fresh
schema on the session's server).  The server is started on first use, once per
session, and stopped at the end.  Without PostgreSQL binaries the ``postgresql`` cases are
skipped, and the reason is printed in the summary.
"""

from __future__ import annotations

import fcntl
import hashlib
import itertools
import os
import pickle
import sys
from pathlib import Path
from typing import Callable, Iterator, TypeVar

import pytest

from bot.pgserver import PgServer, unavailable_reason
from rules.core.dice import seed_hash

T = TypeVar("T")

_REASON = unavailable_reason()
_names = itertools.count(1)
STORES = ("sqlite", "postgresql")
#: The database holding every test's schema.
DATABASE = "referee_tests"
#: The server's seed key every test's bot runs with (``bot/seedkey.py``): set before any
#: fixture, module-scoped ones included, so no test writes a key file where it runs; a
#: test of the key file itself removes it from its environment.
TEST_SEED_KEY = hashlib.sha256(b"referee tests' seed key").hexdigest()
os.environ.setdefault("REFEREE_SEED_KEY", TEST_SEED_KEY)
#: A render worker's first start draws all five systems' openings (2-3 s of a core) so a
#: serving bot's first picture is quick.  The tests start dozens of bot processes (the crash
#: drivers, the console, two processes on one file), each of which would pay it for the
#: few pictures it draws: they start cold.  tests/platform/test_render_pool.py keeps warming
#: tested (its pools are made with the default, warm).
os.environ.setdefault("REFEREE_RENDER_WARM", "false")
# Some machines (CI's among them) set PYTHONDONTWRITEBYTECODE: then every process the
# tests start compiles the bot from source again (0.3-0.5 s of CPU each), and
# every run rewrites every test module's asserts.  The compiled files go where Python always
# puts them (__pycache__, ignored by git).
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False


@pytest.fixture(autouse=True)
def _dice_seeded_by_test(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every game a test starts with ``/game new`` gets its dice seed from the test's id and a
    counter, not a secret drawn at random: the same games every run, so a failure replays.
    (A secret seed per game made each run another game, and a rare path now and then a
    flaky failure.)  A test that seeds its own games patches ``new_seed`` after this."""
    count = itertools.count()

    def seeded() -> tuple[bytes, str]:
        seed = hashlib.sha256(f"{request.node.nodeid}#{next(count)}".encode()).digest()
        return seed, seed_hash(seed)

    monkeypatch.setattr("bot.gamecmds.new_seed", seeded)


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


def shared_once(factory: pytest.TempPathFactory, name: str, build: Callable[[Path], T]) -> T:
    """What ``build(folder)`` returns, built once for the whole run even when pytest-xdist
    runs it in several workers (issue 26): a session fixture is per worker, so an expensive
    one (a whole game played and rendered) would be built by each.  The first worker to ask
    builds it in a folder shared by the run, under a lock, and leaves it pickled; the others
    wait for it and load it.  The value must not be changed by the tests, and what it names
    on disk (a database file) is read, never written, by them."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return build(factory.mktemp(name))
    root = factory.getbasetemp().parent / f"shared-{name}"
    root.mkdir(exist_ok=True)
    with open(root / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = root / ".value.pickle"
        if done.exists():
            return pickle.loads(done.read_bytes())
        value = build(root)
        done.write_bytes(pickle.dumps(value))
        return value


def pytest_report_header() -> str:
    """Say whether the PostgreSQL cases run."""
    return ("PostgreSQL tests: on (throwaway server via initdb/pg_ctl)" if _REASON is None
            else f"PostgreSQL tests: SKIPPED, {_REASON}")


def pytest_terminal_summary(terminalreporter) -> None:  # type: ignore[no-untyped-def]
    """Repeat the reason at the end, where a reader of CI output looks."""
    if _REASON is not None:
        terminalreporter.write_line(f"PostgreSQL tests were skipped: {_REASON}", yellow=True)
