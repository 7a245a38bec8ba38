"""The one writer connection and the write operations of a transaction.

Why a thread of our own rather than aiosqlite for writes: aiosqlite hands every statement
(and every fetch and cursor close) to its thread separately, and a write transaction holds
the database's single write lock across all those hand-offs.  With 200 channels ordering at
once the hand-offs, not SQLite, were the bottleneck (issue 7: 26 thread round trips per
order, the event loop idle half the time).  Here the statements of a transaction are queued
and sent over together: an order is two hand-offs (``BEGIN IMMEDIATE`` with the next step
number, then the inserts, updates and ``COMMIT``), and the write lock is held that long.

Reads stay on aiosqlite (``bot/store.py``); the writer thread is one ``sqlite3`` connection
used by exactly one worker thread, so SQLite's own threading rules hold.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterable, Protocol, TypeVar

import orjson

from bot.steprow import StepRow

BUSY_TIMEOUT_MS = 5000
#: How every write transaction starts (:func:`_begin` waits for the write lock).
BEGIN = "BEGIN IMMEDIATE"
#: Every connection, reader or writer, runs with these (WAL is set once, by the writer).
PRAGMAS = (f"busy_timeout={BUSY_TIMEOUT_MS}", "foreign_keys=ON", "synchronous=FULL")

T = TypeVar("T")
log = logging.getLogger("referee.store")


def utcnow() -> str:
    """The current UTC time as ISO text to the millisecond (what every row records).

    The text of the current second is kept and the milliseconds written onto it: an order
    asks twice (its step's seal, its remembered reply) and formatting a datetime was most
    of the cost (issue 23).  The text is :meth:`datetime.isoformat`'s with
    ``timespec="milliseconds"``, which truncates as this does."""
    global _second
    seconds, ms = divmod(time.time_ns() // 1_000_000, 1000)
    if seconds != _second[0]:
        text = datetime.fromtimestamp(seconds, timezone.utc).isoformat(timespec="seconds")
        _second = (seconds, text.removesuffix("+00:00"))
    return f"{_second[1]}.{ms:03d}+00:00"


#: The second :func:`utcnow` last wrote, and its text up to the seconds (one tuple:
#: swapped whole).
_second: tuple[int, str] = (-1, "")


def _json(value: Any) -> str:
    """A step's JSON column: orjson's compact text, a fifth of ``json.dumps``'s cost on
    every order (issue 23); ``json.dumps`` where orjson cannot write the value (an integer
    beyond 64 bits).  Readers parse the columns, so the spelling is free (and the seal
    hashes the values, not this text)."""
    try:
        return orjson.dumps(value).decode("utf-8")
    except (TypeError, orjson.JSONEncodeError):
        return json.dumps(value)


#: How many times a command (or the pacer's deadline order) is run again after a write
#: conflict before it is refused.
CONFLICT_RETRIES = 3


class Conflict(Exception):
    """Another writer changed the game since it was read: a guarded update matched no row.

    Why: several processes may share one PostgreSQL store (issue 20), each with its own
    game cache.  Every commit moves the game's ``version`` on only if it is still the one
    the command was resolved against; if not, the whole unit is rolled back, nothing is
    stored, and the service re-reads the game and tries the command again (or refuses it).
    """


class StoreIntegrityError(sqlite3.IntegrityError):
    """A constraint of the PostgreSQL store refused a write (a duplicate interaction id, a
    second active game in a channel): raised as ``sqlite3.IntegrityError`` so every caller
    handles both stores' refusals with one ``except``."""


@dataclass(frozen=True)
class Statement:
    """One SQL statement waiting to be sent (``many``: ``args`` is a list of rows).

    ``expect``: the number of rows it must change, else :class:`Conflict` (a guarded
    update)."""

    sql: str
    args: tuple[Any, ...] | list[Any] = ()
    many: bool = False
    expect: int | None = None


@dataclass(frozen=True)
class Outcome:
    """What the last statement of a batch gave back."""

    rows: list[Any]  # sqlite3.Row or asyncpg.Record: both index by position and by name
    lastrowid: int | None
    rowcount: int


class Backend(Protocol):
    """Where a :class:`Writer`'s statements go: the SQLite writer thread, or one PostgreSQL
    connection (``bot/pgstore.py``)."""

    async def run(self, statements: list[Statement]) -> Outcome:
        """Execute ``statements`` in order; the last one's result."""
        ...


class WriterThread:
    """The writer connection, living on one worker thread; :meth:`run` is one hand-off."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="referee-writer")
        self._conn: sqlite3.Connection | None = None

    async def open(self) -> None:
        """Connect on the worker thread, WAL on, the shared pragmas set."""
        self._conn = await self.call(_connect_writer, self.path)

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        """Run ``fn(*args)`` on the writer thread."""
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn, *args)

    async def run(self, statements: list[Statement]) -> Outcome:
        """Execute ``statements`` in order in one hand-off; the last one's result."""
        return await self.call(_execute_all, self._connection(), statements)

    async def rollback(self) -> None:
        """Undo the open transaction, if one is open (a failed BEGIN leaves none)."""
        await self.call(_rollback, self._connection())

    async def close(self) -> None:
        """Close the connection (SQLite checkpoints the WAL) and stop the thread."""
        if self._conn is not None:
            await self.call(self._conn.close)
            self._conn = None
        self._pool.shutdown(wait=True)

    def _connection(self) -> sqlite3.Connection:
        if self._conn is None:
            raise RuntimeError("the store is closed")
        return self._conn


def _connect_writer(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(str(path), isolation_level=None)
    conn.row_factory = sqlite3.Row
    # The busy timeout first: turning WAL on waits for another process opening the file.
    for pragma in PRAGMAS:
        conn.execute(f"PRAGMA {pragma}").fetchall()  # stepped to its end: no lock left open
    _turn_wal_on(conn)
    return conn


def _turn_wal_on(conn: sqlite3.Connection) -> None:
    """``journal_mode=WAL``, tried again while another connection opening the same new
    file holds it: SQLite answers that change SQLITE_BUSY at once, without its busy
    handler, when it meets another connection's lock (seen with three stores opening one
    file together)."""
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            conn.execute("PRAGMA journal_mode=WAL").fetchall()
            return
        except sqlite3.OperationalError as exc:
            if not _busy(exc) or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


def _busy(exc: sqlite3.Error) -> bool:
    """Whether SQLite said another connection holds the lock (SQLITE_BUSY)."""
    return (getattr(exc, "sqlite_errorcode", 0) & 0xFF) == sqlite3.SQLITE_BUSY


def _begin(conn: sqlite3.Connection) -> None:
    """``BEGIN IMMEDIATE``: take the database's write lock, waiting for it as long as
    another connection holds it.

    Why not only the busy timeout: with several bot processes on one file (issue 23) the
    other may hold the lock again and again (its group commits), and SQLite's busy handler
    polls with growing sleeps, so a wait can outlast :data:`BUSY_TIMEOUT_MS` without
    anything being wrong.  Each order then waits on: none is refused for it, and an
    operator learns of a long wait from the log.  A failure that is not SQLITE_BUSY (a full
    disk, a damaged file) is raised at once."""
    started = time.monotonic()
    while True:
        try:
            conn.execute(BEGIN)
            return
        except sqlite3.OperationalError as exc:
            if not _busy(exc):
                raise
            log.warning("the database's write lock has been held by another connection for %.0f s;"
                        " still waiting", time.monotonic() - started)


def _execute_all(conn: sqlite3.Connection, statements: list[Statement]) -> Outcome:
    cur: sqlite3.Cursor | None = None
    for st in statements:
        if st.sql == BEGIN:
            _begin(conn)
            continue
        cur = conn.executemany(st.sql, st.args) if st.many else conn.execute(st.sql, st.args)
        if st.expect is not None and cur.rowcount != st.expect:
            raise Conflict(f"{st.sql.split(' WHERE ')[0][:40]}… matched {cur.rowcount} rows")
    if cur is None:
        return Outcome(rows=[], lastrowid=None, rowcount=0)
    return Outcome(rows=cur.fetchall(), lastrowid=cur.lastrowid, rowcount=cur.rowcount)


def _commit_units(conn: sqlite3.Connection, units: list[list[Statement]]) -> list[Exception | None]:
    """One transaction for several independent units; each unit all-or-nothing on its own.

    A unit that fails (a duplicate interaction id, say) is rolled back to its savepoint and
    reported; the others still commit.  If the transaction itself fails, every unit fails.
    """
    outcomes: list[Exception | None] = []
    try:
        _begin(conn)
        for unit in units:
            conn.execute("SAVEPOINT unit")
            try:
                _execute_all(conn, unit)
            except (sqlite3.Error, Conflict) as exc:
                conn.execute("ROLLBACK TO unit")
                outcomes.append(exc)
            else:
                outcomes.append(None)
            conn.execute("RELEASE unit")
        conn.execute("COMMIT")
    except sqlite3.Error as exc:
        _rollback(conn)
        return [exc] * len(units)
    return outcomes


def _rollback(conn: sqlite3.Connection) -> None:
    if conn.in_transaction:
        conn.execute("ROLLBACK")


class GroupCommit:
    """Commits the units of many orders together: one ``BEGIN … COMMIT``, one fsync.

    Why: with ``synchronous=FULL`` every commit waits for the disk, and one writer commits
    one transaction at a time, so channels ordering at once queued behind each other's fsync
    (issue 7: 200 channels).  Units that arrive while a commit is under way go together in
    the next one; each order is acknowledged only once the commit holding it returned, so
    nothing acknowledged can be lost.  With one order at a time it is one commit per order,
    as before.
    """

    def __init__(self, thread: WriterThread, lock: asyncio.Lock) -> None:
        self._thread = thread
        self._lock = lock
        self._queue: list[tuple[list[Statement], asyncio.Future[None]]] = []
        self._task: asyncio.Task[None] | None = None

    async def submit(self, statements: list[Statement]) -> None:
        """Commit ``statements`` as one all-or-nothing unit; return once it is durable."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.append((statements, done))
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._drain())
        await done

    async def flush(self) -> None:
        """Wait until every submitted unit is committed (before closing)."""
        if self._task is not None:
            await asyncio.shield(self._task)

    async def _drain(self) -> None:
        while self._queue:
            async with self._lock:
                batch, self._queue = self._queue, []
                try:
                    outcomes = await self._thread.call(
                        _commit_units, self._thread._connection(), [s for s, _ in batch])
                except Exception as exc:  # the thread or connection itself failed
                    outcomes = [exc] * len(batch)
            for (_, done), error in zip(batch, outcomes):
                if done.done():
                    continue  # its order was cancelled; the unit is committed regardless
                if error is None:
                    done.set_result(None)
                else:
                    done.set_exception(error)


class Writer:
    """The write operations, available only inside ``store.transaction()``.

    Statements that give nothing back are queued and go over with the next one that does,
    or with ``COMMIT``; a queued statement that fails (a duplicate interaction id, say)
    raises at that point, and the whole transaction is rolled back.
    """

    def __init__(self, thread: WriterThread | Backend, *, begin: bool = True) -> None:
        self._thread = thread
        self._interactive = begin
        self._pending: list[Statement] = [Statement(BEGIN)] if begin else []

    # -- the plumbing --------------------------------------------------------------------

    def execute(self, sql: str, args: tuple[Any, ...] = ()) -> None:
        """Queue one statement (it runs before the next read or at commit)."""
        self._pending.append(Statement(sql, args))

    def execute_guarded(self, sql: str, args: tuple[Any, ...] = (), rows: int = 1) -> None:
        """Queue a statement that must change exactly ``rows`` rows: otherwise it raises
        :class:`Conflict` and nothing of the transaction is kept (a claim that another
        process, or a command, made void meanwhile)."""
        self._pending.append(Statement(sql, args, expect=rows))

    def executemany(self, sql: str, rows: Iterable[tuple[Any, ...]]) -> None:
        """Queue one statement for each of ``rows``."""
        self._pending.append(Statement(sql, list(rows), many=True))

    def statements(self) -> list[Statement]:
        """What is queued (for a unit handed to :class:`GroupCommit`)."""
        return list(self._pending)

    async def _now(self, sql: str, args: tuple[Any, ...] = ()) -> Outcome:
        if not self._interactive:
            raise RuntimeError("a group-commit unit cannot read; use store.transaction()")
        batch, self._pending = [*self._pending, Statement(sql, args)], []
        return await self._thread.run(batch)

    async def fetchone(self, sql: str, args: tuple[Any, ...] = ()) -> sqlite3.Row | None:
        """Read inside the transaction (sees its own uncommitted writes)."""
        rows = (await self._now(sql, args)).rows
        return rows[0] if rows else None

    async def fetchall(self, sql: str, args: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        """Every row of a read inside the transaction."""
        return (await self._now(sql, args)).rows

    async def commit(self) -> None:
        """Send what is queued, then ``COMMIT``: one hand-off."""
        await self._now("COMMIT")

    # -- games, seats, audit -------------------------------------------------------------

    async def create_game(
        self, *, channel_id: str, guild_id: str | None, system: str, scenario: str,
        options: dict[str, Any], seed: bytes, seed_hash: str, created_by: str,
        scenario_text: str | None = None, chain_format: str = "referee-chain/1",
    ) -> int:
        """Insert a game and return its id (the unique index refuses a second active one);
        ``scenario_text``: the scenario file it was set up from (migration 0010).  Its
        state is its head step's: insert step #0 in the same transaction (migration 0011)."""
        done = await self._now(
            "INSERT INTO games (channel_id, guild_id, system, scenario, options_json, seed,"
            " seed_hash, created_by, created_at, scenario_text, chain_format)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?) RETURNING id",
            (channel_id, guild_id, system, scenario, json.dumps(options), seed, seed_hash,
             created_by, utcnow(), scenario_text, chain_format),
        )
        return int(done.rows[0][0])

    def set_head(
        self, game_id: int, seq: int, *, dice_counter: int | None = None,
        last_mention: str | None = None, version: int | None = None,
        summaries: str | None = None, chain_head: str | None = None,
        chain_count: int | None = None,
    ) -> None:
        """Point the game at a new current step (its state is that step's, migration 0011),
        with its roll counter, last ping and every side's "since your last order" (0008).

        With ``version`` (the game's version the command was resolved against) the update
        is guarded: it moves the version on, and raises :class:`Conflict` if another writer
        moved it first (migration 0007).  A guarded update goes first in its transaction,
        so a stale command stops before writing anything, and holds the game's row lock
        (PostgreSQL) until its commit: two writers of one game serialize there."""
        columns: dict[str, Any] = {"head_seq": seq}
        if dice_counter is not None:
            columns["dice_counter"] = dice_counter
        if last_mention is not None:
            columns["last_mention"] = last_mention
        if summaries is not None:
            columns["summaries_json"] = summaries
        if chain_head is not None:
            columns["chain_head"] = chain_head
        if chain_count is not None:
            columns["chain_count"] = chain_count
        sets = ", ".join(f"{name} = ?" for name in columns)
        if version is None:
            self.execute(f"UPDATE games SET {sets} WHERE id = ?", (*columns.values(), game_id))
            return
        self._pending.append(Statement(
            f"UPDATE games SET {sets}, version = version + 1 WHERE id = ? AND version = ?",
            (*columns.values(), game_id, version), expect=1))

    def set_last_mention(self, game_id: int, key: str) -> None:
        """Remember the turn-part last announced with a ping."""
        self.execute("UPDATE games SET last_mention = ? WHERE id = ?", (key, game_id))

    def end_game(self, game_id: int, seed: bytes | None = None) -> None:
        """Mark a game ended (its channel may start a new one); ``seed``: its dice seed, kept
        plainly from now on (it is public once the game has ended, ``bot/seedkey.py``)."""
        if seed:
            self.execute("UPDATE games SET status = 'ended', ended_at = ?, seed = ? WHERE id = ?",
                         (utcnow(), seed, game_id))
            return
        self.execute(
            "UPDATE games SET status = 'ended', ended_at = ? WHERE id = ?", (utcnow(), game_id)
        )

    def set_seat(self, game_id: int, side: str, user_id: str, user_name: str) -> None:
        """Give a side to a user (replacing whoever held it)."""
        self.execute(
            "INSERT INTO seats (game_id, side, user_id, user_name) VALUES (?,?,?,?)"
            " ON CONFLICT (game_id, side) DO UPDATE SET user_id = excluded.user_id,"
            " user_name = excluded.user_name",
            (game_id, side, user_id, user_name),
        )

    def remove_seats(self, game_id: int, user_id: str) -> None:
        """Free every seat a user holds in a game."""
        self.execute("DELETE FROM seats WHERE game_id = ? AND user_id = ?", (game_id, user_id))

    async def add_audit(
        self, game_id: int, actor_id: str, actor_name: str, action: str, reason: str,
        data: dict[str, Any] | None = None, *, created_at: str | None = None,
        prev_hash: str | None = None, hash: str | None = None,
    ) -> int:
        """Record a moderator action (or an undo) and return its id (``prev_hash``/``hash``:
        its place in the game's hash chain, ``bot/record.py``)."""
        done = await self._now(
            "INSERT INTO audit (game_id, actor_id, actor_name, action, reason, data_json,"
            " created_at, prev_hash, hash) VALUES (?,?,?,?,?,?,?,?,?) RETURNING id",
            (game_id, actor_id, actor_name, action, reason, json.dumps(data or {}),
             created_at or utcnow(), prev_hash, hash),
        )
        return int(done.rows[0][0])

    def add_seat_event(
        self, game_id: int, side: str | None, user_id: str, user_name: str, event: str,
        audit_id: int | None,
    ) -> None:
        """Append a line to a game's seat history (who joined, left, was seated or kicked)."""
        self.execute(
            "INSERT INTO seat_events (game_id, side, user_id, user_name, event, audit_id,"
            " created_at) VALUES (?,?,?,?,?,?,?)",
            (game_id, side, user_id, user_name, event, audit_id, utcnow()),
        )

    def prune_interactions(self, before: str) -> None:
        """Forget replies to interactions older than ``before`` (ISO time): a repeated
        delivery comes within seconds, and the table would otherwise grow for ever."""
        self.execute("DELETE FROM interactions WHERE created_at < ?", (before,))

    def set_meta(self, key: str, value: str) -> None:
        """Keep a fact about the bot itself (``bot_meta``), replacing the old value."""
        self.execute(
            "INSERT INTO bot_meta (key, value, updated_at) VALUES (?,?,?) ON CONFLICT (key)"
            " DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
            (key, value, utcnow()),
        )

    def remember_reply(self, interaction_id: str, game_id: int | None, reply_json: str) -> None:
        """Keep the reply to an interaction, to answer a repeated delivery identically."""
        self.execute(
            "INSERT INTO interactions (interaction_id, game_id, reply_json, created_at)"
            " VALUES (?,?,?,?)",
            (interaction_id, game_id, reply_json, utcnow()),
        )

    # -- steps ---------------------------------------------------------------------------

    async def next_seq(self, game_id: int) -> int:
        """The number the next step gets (one more than any step, reverted ones included)."""
        row = await self.fetchone("SELECT MAX(seq) FROM step_log WHERE game_id = ?", (game_id,))
        return 0 if row is None or row[0] is None else int(row[0]) + 1

    def insert_step(self, step: StepRow) -> None:
        """Append a step row, sealed in the game's hash chain (``bot/record.py``): a row
        with no hash is refused, so no step can enter the log outside the chain."""
        if not step.hash or not step.created_at:
            raise ValueError(f"step #{step.seq} is not sealed in the hash chain")
        dice, events = step.records()
        self.execute(
            "INSERT INTO step_log (game_id, seq, parent_seq, kind, actor_id, actor_name, side,"
            " action_json, dice_json, events_json, state_json, reveals, snapshot, turn_part,"
            " interaction_id, rerolls, created_at, prev_hash, hash, release_version, rules_version)"
            " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (
                step.game_id, step.seq, step.parent_seq, step.kind, step.actor_id,
                step.actor_name, step.side,
                _json(step.action) if step.action is not None else None,
                _json(dice), _json(events),
                step.state_json, int(step.reveals), int(step.snapshot), step.turn_part,
                step.interaction_id, step.rerolls, step.created_at, step.prev_hash, step.hash,
                step.release, step.rules_version,
            ),
        )

    def revert_after(self, game_id: int, seq: int, audit_id: int) -> None:
        """Mark every active step later than ``seq`` reverted by ``audit_id``."""
        self.execute(
            "INSERT INTO step_reverts (game_id, seq, audit_id)"
            " SELECT s.game_id, s.seq, CAST(? AS INTEGER) FROM step_log s WHERE s.game_id = ? AND s.seq > ?"
            " AND NOT EXISTS (SELECT 1 FROM step_reverts r"
            " WHERE r.game_id = s.game_id AND r.seq = s.seq)",
            (audit_id, game_id, seq),
        )

    def unrevert(self, game_id: int, seqs: list[int]) -> None:
        """Make reverted steps active again (rolling forward)."""
        self.executemany(
            "DELETE FROM step_reverts WHERE game_id = ? AND seq = ?",
            [(game_id, s) for s in seqs],
        )
