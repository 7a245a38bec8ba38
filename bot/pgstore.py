"""The PostgreSQL store: one database shared by several bot processes (issue 20).

Chosen by ``REFEREE_DB=postgresql://…``; everything above the store is unchanged.  The SQL
is the SQLite store's own (``bot/store.py`` reads, ``bot/writer.py`` writes), sent through
``bot/dialect.py``; the migrations are the same files, recorded in the same
``schema_migrations`` table.

How it keeps the SQLite store's guarantees with several writers:

* **Durable before acknowledged.**  Every write is one transaction on a pooled connection,
  with ``synchronous_commit`` on (the server's default): a command returns after COMMIT
  returned, i.e. after the server flushed its WAL.
* **One order per game at a time, across processes.**  The commands of a channel take
  turns across processes (:meth:`PgStore.channel_lock`, an advisory lock), and a cached
  game is checked against the stored ``games.version`` before it is used.  As a safety
  net every commit's first statement is the guarded ``UPDATE games … WHERE id = ? AND
  version = ?`` (``Writer.set_head``): a writer holding a stale copy matches no row and
  raises :class:`~bot.writer.Conflict`, nothing of it is stored, and the service drops its
  copy and runs the command again on the new head (``bot/service.py``).
* **Exactly once.**  ``steps.interaction_id`` and ``interactions.interaction_id`` are UNIQUE
  in the database, so a repeated delivery reaching another process is refused by the
  server; a constraint's refusal is raised as :class:`~bot.writer.StoreIntegrityError`.
* **Once per deployment.**  :meth:`PgStore.lease` is a session advisory lock
  (``pg_try_advisory_lock``), held on its own connection for the block and released by the
  server if the process dies.
* **Migrations once.**  Each migration runs in one transaction holding an advisory lock, so
  two processes starting together apply it once.
"""

from __future__ import annotations

import hashlib
import logging
import re
from contextlib import asynccontextmanager
from functools import lru_cache
from importlib import resources
from typing import Any, AsyncIterator
from urllib.parse import urlsplit

import asyncpg

from bot.dialect import inlined, migration_sql, placeholder_count, placeholders
from bot.pgturns import TakeTurn, Turns
from bot.schema import migration_files, refuse_newer
from bot.store import BaseStore
from bot.writer import Conflict, Outcome, Statement, StoreIntegrityError, Writer, utcnow

log = logging.getLogger("referee.pgstore")

#: Connections per process: reads and commits of different channels run side by side.
POOL_SIZE = 10
#: Connections per process holding a channel's turn (commands of that many channels may be
#: under way at once; more wait for a connection), and more for leases.
LOCK_POOL_SIZE = 20
LEASES = 4


def lock_key(name: str) -> int:
    """The 64-bit advisory-lock key of a lease name (stable across processes and runs)."""
    return int.from_bytes(hashlib.sha256(name.encode()).digest()[:8], "big", signed=True)


MIGRATION_LOCK = lock_key("referee:migrations")


@lru_cache(maxsize=512)
def _pg(sql: str) -> str:
    """A statement of ours as PostgreSQL takes it (``?`` numbered; SQLite's ``BEGIN
    IMMEDIATE`` is a plain ``BEGIN``: the row locks do what SQLite's write lock did)."""
    if sql == "BEGIN IMMEDIATE":
        return "BEGIN"
    return placeholders(sql)


def _returns_rows(sql: str) -> bool:
    head = sql.lstrip()[:6].upper()
    return head in ("SELECT", "WITH") or " RETURNING " in sql.upper()


def postgres_migration(version: int, name: str, sqlite_text: str) -> str:
    """The PostgreSQL text of a migration: ``migrations/postgresql/<name>`` if shipped,
    else the SQLite text translated (``bot/dialect.py``)."""
    override = resources.files("migrations").joinpath("postgresql", name)
    if override.is_file():
        return override.read_text("utf-8")
    return migration_sql(sqlite_text)


async def run_statement(conn: asyncpg.Connection, st: Statement) -> Outcome:
    """Execute one queued statement on ``conn``."""
    sql = _pg(st.sql)
    try:
        if st.many:
            await conn.executemany(sql, st.args)
            return Outcome(rows=[], lastrowid=None, rowcount=len(st.args))
        if _returns_rows(sql):
            rows = await conn.fetch(sql, *st.args)
            return Outcome(rows=list(rows), lastrowid=None, rowcount=len(rows))
        status = await conn.execute(sql, *st.args)
    except asyncpg.IntegrityConstraintViolationError as exc:
        raise StoreIntegrityError(str(exc)) from exc
    tail = status.rsplit(" ", 1)[-1]
    count = int(tail) if tail.isdigit() else 0
    if st.expect is not None and count != st.expect:
        raise Conflict(f"{st.sql.split(' WHERE ')[0][:40]}… matched {count} rows")
    return Outcome(rows=[], lastrowid=None, rowcount=count)


def unit_script(statements: list[Statement]) -> str:
    """A unit's statements as one script of plain SQL, values inlined.  A guarded statement
    (``expect``) divides by zero unless it changed exactly the rows it must: the script
    stops there and nothing of it is kept.  The unit's statements read nothing back."""
    out: list[str] = []
    for st in statements:
        rows = st.args if st.many else [st.args]
        for args in rows:
            sql = inlined(st.sql, args)
            if st.expect is not None:
                sql = (f"WITH changed AS ({sql} RETURNING 1) SELECT 1 / (CASE WHEN count(*) ="
                       f" {int(st.expect)} THEN 1 ELSE 0 END) FROM changed")
            out.append(sql)
    return ";\n".join(out)


#: The most statements a unit sends as one statement with parameters (:func:`unit_statement`);
#: a bigger unit (hundreds of rows) goes as a script.
MAX_PARTS = 32
#: What a unit's statement writes: ``INSERT INTO t``, ``UPDATE t`` or ``DELETE FROM t``.
_TARGET = re.compile(r"\s*(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(\w+)[\s(]", re.I)


def unit_statement(statements: list[Statement]) -> tuple[str, list[Any]] | None:
    """A unit as ONE statement with its values as parameters, ``(sql, args)``, or None when
    it cannot be one (then :func:`unit_script`).

    Each statement becomes a data-modifying ``WITH`` part; the final ``SELECT`` divides by
    zero unless every guarded part (``expect``) changed exactly the rows it must, so the
    statement fails as a whole, as the script does.  Prepared once per unit shape and run
    with its values bound, the server neither lexes kilobytes of literals nor plans the
    statements again on every order (issue 23: the server's CPU per order).

    The parts of one statement all see the database as it was before it, and the order they
    run in is the server's; so only units whose parts cannot see each other qualify: plain
    ``INSERT … VALUES`` and ``UPDATE``/``DELETE`` reading no other table (no ``SELECT``, no
    ``ON CONFLICT``), and a table changed in place (update, delete) by no other part."""
    shape = tuple((st.sql, len(st.args) if st.many else None, st.expect) for st in statements)
    sql = _combined(shape)
    if sql is None:
        return None
    args: list[Any] = []
    for st in statements:
        for row in (st.args if st.many else [st.args]):
            args.extend(row)
    return sql, args


@lru_cache(maxsize=256)
def _combined(shape: tuple[tuple[str, int | None, int | None], ...]) -> str | None:
    """The statement of a unit of this shape (each part's SQL, its rows if ``many`` (None:
    one statement; 0: none, it runs nothing), expected row count), or None when its parts
    could see each other (:func:`unit_statement`)."""
    parts: list[tuple[str, int | None]] = []
    touched: dict[str, list[bool]] = {}  # table -> for each part on it: changes rows in place
    for sql, many, expect in shape:
        target = _TARGET.match(sql)
        upper = sql.upper()
        if target is None or "SELECT" in upper or "ON CONFLICT" in upper or ";" in sql:
            return None
        in_place = not target.group(1).upper().startswith("INSERT")
        for _ in range(1 if many is None else many):
            touched.setdefault(target.group(2).lower(), []).append(in_place)
            parts.append((sql, expect))
    if not parts or len(parts) > MAX_PARTS:
        return None
    if any(len(kinds) > 1 and any(kinds) for kinds in touched.values()):
        return None
    withs, checks, taken = [], [], 0
    for n, (sql, expect) in enumerate(parts):
        numbered = placeholders(sql, taken)
        taken += placeholder_count(sql)
        if expect is not None:
            numbered += " RETURNING 1"
            checks.append(f"(SELECT count(*) FROM p{n}) = {int(expect)}")
        withs.append(f"p{n} AS ({numbered})")
    guard = "1" if not checks else f"1 / (CASE WHEN {' AND '.join(checks)} THEN 1 ELSE 0 END)"
    return f"WITH {', '.join(withs)} SELECT {guard}"


#: Settings of every read/commit connection.  Standard strings: a unit sent as a script has
#: its values inlined as literals in which a backslash is a plain character
#: (bot/dialect.literal).
SESSION = {"standard_conforming_strings": "on"}
#: And, where the server has it, LZ4 for the values it compresses before storing them
#: (TOAST: the step row's state, kilobytes of JSON): a fraction of the CPU of the default
#: (pglz) for about the same bytes; issue 23 measured the commit of an rr order 235-255 µs
#: of server CPU with it, 280-305 µs without.  A server built without LZ4 refuses the
#: setting, and keeps its default.
FAST_COMPRESSION = {"default_toast_compression": "lz4"}


#: Settings of every lock-pool connection: READ COMMITTED whatever the database's default,
#: so each statement of the function that takes a turn reads in a snapshot of its own, the
#: version after the lock (``bot/pgturns.py``); under REPEATABLE READ they would all share
#: the first one's, taken before the wait.
TURN_SESSION = {"default_transaction_isolation": "read committed"}


async def _commit_pool(url: str, size: int) -> asyncpg.Pool:
    """The pool commands read and commit on, with :data:`SESSION` (and
    :data:`FAST_COMPRESSION` where the server takes it)."""
    try:
        return await asyncpg.create_pool(url, min_size=1, max_size=size, reset=_keep_session,
                                         server_settings={**SESSION, **FAST_COMPRESSION})
    except asyncpg.InvalidParameterValueError:
        log.info("the server has no LZ4; values are compressed its default way")
        return await asyncpg.create_pool(url, min_size=1, max_size=size, reset=_keep_session,
                                         server_settings=SESSION)


async def _refuse_newer(pool: asyncpg.Pool, url: str) -> None:
    """Raise :class:`~bot.schema.NewerSchema` when the database records a migration newer
    than this release knows (read only; no table is created)."""
    async with pool.acquire() as conn:
        version = None
        if await conn.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL"):
            version = await conn.fetchval("SELECT MAX(version) FROM schema_migrations")
    parts = urlsplit(url)
    refuse_newer(version, f"The PostgreSQL database {parts.path.lstrip('/') or parts.username}"
                          f" on {parts.hostname or 'the local socket'}")


async def _keep_session(conn: asyncpg.Connection) -> None:
    """A read/commit connection going back to the pool keeps its session as it is: we never
    change session state (no LISTEN, cursors, settings or locks on this pool), and asyncpg
    has already rolled back any open transaction.  asyncpg's default reset would cost every
    read and every commit one more round trip to the server."""


async def _release_locks(conn: asyncpg.Connection) -> None:
    """A lock-pool connection going back to the pool gives back every advisory lock it
    holds: the end of a channel's turn or of a lease, in the one round trip it costs."""
    await conn.execute("SELECT pg_advisory_unlock_all()")


class PgBackend:
    """A :class:`~bot.writer.Writer`'s statements on one connection (``None``: a unit that
    is only queued, then committed by :meth:`PgStore.commit_unit`)."""

    def __init__(self, conn: asyncpg.Connection | None) -> None:
        self.conn = conn

    async def run(self, statements: list[Statement]) -> Outcome:
        """Execute ``statements`` in order; the last one's result."""
        if self.conn is None:
            raise RuntimeError("a group-commit unit cannot read; use store.transaction()")
        outcome = Outcome(rows=[], lastrowid=None, rowcount=0)
        for st in statements:
            outcome = await run_statement(self.conn, st)
        return outcome


class PgStore(BaseStore):
    """The store on a PostgreSQL server; open with :meth:`open`, finish with :meth:`close`."""

    shared = True

    def __init__(self, url: str, pool: asyncpg.Pool, locks: asyncpg.Pool,
                 turns: int = LOCK_POOL_SIZE, take_turn: TakeTurn | None = None) -> None:
        self.url = url
        self._pool = pool
        self._locks = locks
        #: The lock pool's connections taking channels' turns, given back lazily.
        self._turns = Turns(locks, turns)
        #: How a turn is taken and the game's version read once it is granted (the lock
        #: pool's ``init`` prepares each connection for it).
        self._take_turn = take_turn or TakeTurn()

    @classmethod
    async def open(cls, url: str, *, pool_size: int = POOL_SIZE,
                   lock_pool_size: int = LOCK_POOL_SIZE) -> "PgStore":
        """Connect and apply pending migrations; a database a newer release upgraded is
        refused first, before anything is written (:class:`~bot.schema.NewerSchema`)."""
        pool = await _commit_pool(url, pool_size)
        try:
            await _refuse_newer(pool, url)
            take_turn = TakeTurn()
            locks = await asyncpg.create_pool(url, min_size=1, max_size=lock_pool_size + LEASES,
                                              reset=_release_locks, init=take_turn.prepare,
                                              server_settings=TURN_SESSION)
        except BaseException:
            await pool.close()
            raise
        store = cls(url, pool, locks, lock_pool_size, take_turn)
        try:
            await store._migrate()
        except BaseException:
            await store.close()
            raise
        return store

    async def close(self) -> None:
        """Close every connection (each commit has already returned)."""
        await self._turns.close()
        await self._locks.close()
        await self._pool.close()

    async def _migrate(self) -> None:
        async with self._pool.acquire() as conn:
            done = set()
            if await conn.fetchval("SELECT to_regclass('schema_migrations') IS NOT NULL"):
                done = {r[0] for r in await conn.fetch("SELECT version FROM schema_migrations")}
            for version, name, sql in migration_files():
                if version in done:
                    continue
                async with conn.transaction():
                    # One process at a time: the others wait, then find the version applied.
                    await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
                    await conn.execute(
                        "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY"
                        " KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)")
                    if await conn.fetchval(
                            "SELECT 1 FROM schema_migrations WHERE version = $1", version):
                        continue
                    await conn.execute(postgres_migration(version, name, sql))
                    await conn.execute(
                        "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
                        version, name, utcnow())

    # -- writes ----------------------------------------------------------------------------

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Writer]:
        """``async with store.transaction() as db:`` BEGIN … COMMIT on one connection;
        ROLLBACK on any exception."""
        async with self._pool.acquire() as conn:
            writer = Writer(PgBackend(conn))
            try:
                yield writer
                await writer.commit()
            except BaseException:
                if not conn.is_closed() and conn.is_in_transaction():
                    await conn.execute("ROLLBACK")
                raise

    def unit(self) -> Writer:
        """A write unit to fill with writes that read nothing back, then :meth:`commit_unit`."""
        return Writer(PgBackend(None), begin=False)

    async def commit_unit(self, unit: Writer) -> None:
        """Commit a unit in a transaction of its own (the server group-commits concurrent
        transactions itself); durable when this returns.

        One round trip (issue 23: it was BEGIN, one per statement, COMMIT), all or nothing:
        an order's unit as one prepared statement, its values bound
        (:func:`unit_statement`: about half the server's CPU of the script, measured 240
        against 440 µs for an rr order); any other unit as one simple query, its values
        inlined (:func:`unit_script`).  A guarded update that changes another number of
        rows than it must stops either with an error, read back as the :class:`Conflict` it
        is."""
        statements = unit.statements()
        one = unit_statement(statements)
        async with self._pool.acquire() as conn:
            try:
                if one is not None:
                    await conn.fetchval(one[0], *one[1])
                else:
                    await conn.execute(unit_script(statements))
            except asyncpg.DivisionByZeroError as exc:
                raise Conflict("a guarded update matched another number of rows") from exc
            except asyncpg.IntegrityConstraintViolationError as exc:
                raise StoreIntegrityError(str(exc)) from exc

    @asynccontextmanager
    async def channel_lock(self, channel_id: str) -> AsyncIterator[tuple[int, int] | None]:
        """The commands of one channel take turns across every process: a session advisory
        lock, waited for, on a connection of the lock pool (never the pool the command
        reads and commits on, so a full pool cannot wait on itself).

        Why not only the guarded update: with two processes ordering in one channel as
        fast as they can, an optimistic retry can lose the race again and again (the test
        saw four conflicts in a row).  Taking turns makes the guard a safety net: a
        command reads the game only once the previous one committed."""
        key = lock_key("referee:channel:" + channel_id)
        conn, held = await self._turns.take(key)
        try:
            # One round trip gives back the turn the connection still held (bot/pgturns.py),
            # takes this one and reads the game's version (issue 23), in a snapshot taken
            # once the turn was granted: a command that waited for another process's turn
            # sees that process's commit, and re-reads the game instead of losing a
            # Conflict at its own commit.  The commit's guarded update stays the safety net.
            row = await self._take_turn(conn, key, channel_id, held)
        except BaseException:  # cancelled while waiting, say: the pool's reset unlocks all
            self._turns.give_back(conn)
            raise
        try:
            yield (0, -1) if row is None or row["id"] is None else (int(row["id"]), int(row["version"]))
        finally:
            # The command has committed and may answer at once: the turn is given back by
            # the next command on this connection, or after a moment (bot/pgturns.py).
            self._turns.linger(conn, key)

    @asynccontextmanager
    async def lease(self, name: str) -> AsyncIterator[bool]:
        """A session advisory lock on a connection of its own: True for one holder across
        every process; released at the end of the block, or by the server if we die."""
        key = lock_key("referee:lease:" + name)
        async with self._locks.acquire() as conn:  # released with it (_release_locks)
            yield bool(await conn.fetchval("SELECT pg_try_advisory_lock($1)", key))

    # -- reads -----------------------------------------------------------------------------

    async def _fetchall(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        async with self._pool.acquire() as conn:
            return list(await conn.fetch(_pg(sql), *args))
