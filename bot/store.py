"""The SQLite store: games, seats, the append-only step log and the audit trail.

* WAL, ``synchronous=FULL``, foreign keys on, a busy timeout.
* One writer connection (``bot/writer.py``, on its own thread); every write is one
  ``BEGIN IMMEDIATE`` transaction, serialized by a lock, so a step is either wholly there or
  not at all.  A second connection (aiosqlite) reads.
* ``migrations/NNNN_name.sql`` are applied in order; each file and the row recording its
  version are committed in the same transaction.
* Steps are never deleted or rewritten: rollback, undo and reroll add a row to
  ``step_reverts`` (migration 0002); the ``steps`` view shows it as ``reverted_by``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from abc import ABC, abstractmethod
from contextlib import AbstractAsyncContextManager, asynccontextmanager, nullcontext
from pathlib import Path
from types import TracebackType
from typing import Any, AsyncIterator

import aiosqlite
from pydantic import BaseModel

from bot import seedkey
from bot.filelocks import FileLocks
from bot.schema import migration_files, refuse_newer, sqlite_version
from bot.steprow import StepRow as StepRow  # re-exported: the stores' row types are read from here
from bot.writer import PRAGMAS, GroupCommit, Writer, WriterThread, utcnow
from rules.core import registry, scenariofile
from rules.core.contract import Event
from rules.core.dice import Roll
from rules.core.errors import RuleError


class GameRow(BaseModel):
    """A game as stored (the state stays JSON here; the service parses it)."""

    id: int
    channel_id: str
    guild_id: str | None
    system: str
    scenario: str
    options: dict[str, Any]
    status: str
    seed: bytes
    seed_hash: str
    dice_counter: int
    head_seq: int
    #: The head step's state (migration 0011: read from that step, the one copy).
    state_json: str
    last_mention: str | None
    created_by: str | None
    created_at: str
    #: Moved on by every commit (migration 0007): the guard against a stale copy.
    version: int = 0
    #: Every side's "since your last order" at the head (migration 0008; None before it).
    summaries_json: str | None = None
    #: The text of the scenario file the game was set up from (migration 0010), or None
    #: for a built-in scenario.
    scenario_text: str | None = None
    #: The hash of the game's last record (migration 0009, ``bot/chain.py``).
    chain_head: str = ""
    #: Its chain's scheme and how many records the chain holds (migration 0014).
    chain_format: str = "referee-chain/1"
    chain_count: int = 0
    #: The rules version the head step was made under (migration 0015; None: before
    #: versioning): the next order under other rules announces the change (issue 42).
    head_rules_version: int | None = None


class SeatRow(BaseModel):
    """Who holds a side."""

    side: str
    user_id: str
    user_name: str


class SeatEvent(BaseModel):
    """One line of a game's seat history: who joined, left, was seated or kicked."""

    side: str | None
    user_id: str
    user_name: str
    event: str  # join, leave, seat, unseat, kick
    audit_id: int | None = None


class AuditRow(BaseModel):
    """A moderator's (or a player's undo) action, kept for good."""

    id: int
    game_id: int
    actor_id: str
    actor_name: str
    action: str
    reason: str
    data: dict[str, Any]
    created_at: str
    #: The hash chain (migration 0009): the previous record's hash and this entry's.
    prev_hash: str | None = None
    hash: str | None = None


def split_sql(script: str) -> list[str]:
    """Split a migration into whole statements.

    SQLite's own tokenizer decides where a statement ends (``sqlite3.complete_statement``),
    so a ``;`` or ``--`` inside a string literal, a quoted name or a trigger body does not
    cut it (issue 11).  A trailing fragment with no ``;`` is a statement too; one holding
    only comments is dropped.
    """
    statements: list[str] = []
    start = 0
    for end, char in enumerate(script):
        if char == ";" and sqlite3.complete_statement(script[start:end + 1]):
            statements.append(script[start:end + 1].strip())
            start = end + 1
    statements.append(script[start:].strip())
    return [s for s in statements if not _only_comments(s)]


def _only_comments(text: str) -> bool:
    """True when ``text`` holds nothing but whitespace and SQL comments."""
    body = text
    while True:
        body = body.lstrip()
        if body.startswith("--"):
            body = body.partition("\n")[2]
        elif body.startswith("/*"):
            body = body.partition("*/")[2]
        else:
            return body in ("", ";")


class BaseStore(ABC):
    """The store interface: the reads, written once over :meth:`_fetchall`, and the writes
    each engine provides (:meth:`transaction`, :meth:`unit` + :meth:`commit_unit`,
    :meth:`lease`).  :class:`Store` is SQLite (embedded, the default); ``bot/pgstore.py``
    holds the PostgreSQL store for many processes (issue 20)."""

    #: Whether other processes may write the same database (PostgreSQL, and a SQLite file
    #: several processes share): then a cached game is checked against the stored version
    #: before it is trusted.
    shared: bool = False
    #: The server's seed key (``bot/seedkey.py``, issue 45): running games' seeds are stored
    #: wrapped with it.  None: a store opened without it (a check, a copy), which reads an
    #: ended game's seed and no running game's.
    seed_key: bytes | None = None

    @abstractmethod
    async def close(self) -> None:
        """Finish pending writes and close every connection."""

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Writer]:
        """``async with store.transaction() as db:`` one transaction; ROLLBACK on error."""

    @abstractmethod
    def unit(self) -> Writer:
        """A write unit to fill with writes that read nothing back, then :meth:`commit_unit`."""

    @abstractmethod
    async def commit_unit(self, unit: Writer) -> None:
        """Commit a unit, all-or-nothing, durable when this returns."""

    @abstractmethod
    def lease(self, name: str) -> AbstractAsyncContextManager[bool]:
        """``async with store.lease("prune") as held:`` True for exactly one holder at a
        time across every process sharing the database (work that must run once per
        deployment: pruning, reminders); False if another holds it now.  Never waits."""

    def channel_lock(self, channel_id: str) -> AbstractAsyncContextManager[tuple[int, int] | None]:
        """Held around each command on a channel, besides the service's in-process lock:
        it makes the commands of one channel take turns across every process sharing the
        database and gives the channel's active game as ``(id, version)``, read once the
        turn is taken (issue 23: the version check folded into taking the turn; ``(0, -1)``:
        no game).  A store no other process writes has nothing to do and gives None."""
        return nullcontext()

    @abstractmethod
    async def _fetchall(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        """Every row of a read (rows index by position and by column name)."""

    async def _fetchone(self, sql: str, args: tuple[Any, ...] = ()) -> Any | None:
        rows = await self._fetchall(sql, args)
        return rows[0] if rows else None

    async def _fetch_small(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        """Every row of a read known to be a few indexed rows (a game's row, its seats, a
        step or two without states): what a game read back into the cache asks (issue 41:
        cold ≤ 1.3× cached).  A store may answer these without a hand-off to another
        thread; by default, as any read."""
        return await self._fetchall(sql, args)

    async def _fetchone_small(self, sql: str, args: tuple[Any, ...] = ()) -> Any | None:
        rows = await self._fetch_small(sql, args)
        return rows[0] if rows else None

    async def schema_versions(self) -> list[int]:
        """The migration versions recorded in the database."""
        rows = await self._fetchall("SELECT version FROM schema_migrations ORDER BY version")
        return [r[0] for r in rows]

    async def game_version(self, game_id: int) -> int | None:
        """The stored version of a game (None if it is gone or ended)."""
        row = await self._fetchone(_GAME_VERSION, (game_id,))
        return None if row is None else int(row[0])

    # -- games -----------------------------------------------------------------------------

    async def active_game(self, channel_id: str) -> GameRow | None:
        """The active game of a channel, if any."""
        row = await self._fetchone_small(
            f"{_GAMES} WHERE g.channel_id = ? AND g.status = 'active'", (channel_id,)
        )
        return _game(row, self.seed_key) if row else None

    async def game(self, game_id: int) -> GameRow:
        """A game by id."""
        row = await self._fetchone(f"{_GAMES} WHERE g.id = ?", (game_id,))
        if row is None:
            raise KeyError(game_id)
        return _game(row, self.seed_key)

    async def last_ended_game(self, channel_id: str) -> GameRow | None:
        """The game of a channel that ended last, if any (it stays exportable)."""
        row = await self._fetchone(
            f"{_GAMES} WHERE g.channel_id = ? AND g.status = 'ended'"
            " ORDER BY g.ended_at DESC, g.id DESC LIMIT 1",
            (channel_id,),
        )
        return _game(row, self.seed_key) if row else None

    async def game_ids(self) -> list[int]:
        """The id of every game the database holds, oldest first (``referee health``)."""
        return [int(r[0]) for r in await self._fetchall("SELECT id FROM games ORDER BY id")]

    async def active_game_ids(self) -> list[int]:
        """The id of every running game, oldest first (checked when the bot starts, issue 45)."""
        return [int(r[0]) for r in await self._fetchall("SELECT id FROM games WHERE status = 'active' ORDER BY id")]

    async def count_games(self) -> int:
        """How many games the database holds (all statuses)."""
        row = await self._fetchone("SELECT COUNT(*) FROM games")
        return int(row[0]) if row else 0

    async def count_active_games(self) -> int:
        """How many games are being played (``referee health``: were they checked against
        this release's rules, issue 42)."""
        row = await self._fetchone("SELECT COUNT(*) FROM games WHERE status = 'active'")
        return int(row[0]) if row else 0

    async def seats(self, game_id: int) -> list[SeatRow]:
        """The seats of a game."""
        rows = await self._fetch_small(
            "SELECT side, user_id, user_name FROM seats WHERE game_id = ? ORDER BY side",
            (game_id,),
        )
        return [SeatRow(side=r[0], user_id=r[1], user_name=r[2]) for r in rows]

    async def seat_events(self, game_id: int) -> list[SeatEvent]:
        """The seat history of a game, oldest first (migration 0004)."""
        rows = await self._fetch_small(
            "SELECT side, user_id, user_name, event, audit_id FROM seat_events WHERE game_id = ?"
            " ORDER BY id", (game_id,),
        )
        return [SeatEvent(side=r[0], user_id=r[1], user_name=r[2], event=r[3], audit_id=r[4])
                for r in rows]

    async def computer_channels(self) -> list[str]:
        """The channels of active games where the computer holds a seat or stands in for
        an absent player (issue 43): looked at again when the bot starts, so a move it was
        thinking about when the bot stopped is made."""
        rows = await self._fetchall(
            "SELECT g.channel_id FROM games g WHERE g.status = 'active' AND (EXISTS (SELECT 1"
            " FROM seats s WHERE s.game_id = g.id AND s.user_id LIKE 'computer:%') OR EXISTS"
            " (SELECT 1 FROM bot_meta m WHERE m.key LIKE 'standin:' || g.id || ':%' AND m.value <> ''))"
            " ORDER BY g.id")
        return [r[0] for r in rows]

    async def open_games_by(self, user_id: str) -> int:
        """How many active games ``user_id`` started."""
        row = await self._fetchone(
            "SELECT COUNT(*) FROM games WHERE created_by = ? AND status = 'active'", (user_id,))
        return int(row[0]) if row else 0

    # -- steps -----------------------------------------------------------------------------

    async def step(self, game_id: int, seq: int) -> StepRow | None:
        """One step by number (reverted or not)."""
        row = await self._fetchone(
            "SELECT * FROM steps WHERE game_id = ? AND seq = ?", (game_id, seq)
        )
        return _step(row) if row else None

    async def last_seq(self, game_id: int) -> int:
        """The highest step number of a game (reverted steps included)."""
        row = await self._fetchone_small("SELECT MAX(seq) FROM step_log WHERE game_id = ?", (game_id,))
        return 0 if row is None or row[0] is None else int(row[0])

    async def steps(self, game_id: int, *, last: int | None = None, skip: int = 0) -> list[StepRow]:
        """Every step of a game in order (reverted ones included), or the ``last`` few
        before the newest ``skip`` (a page of ``/game log``)."""
        if last is None:
            rows = await self._fetchall(
                "SELECT * FROM steps WHERE game_id = ? ORDER BY seq", (game_id,)
            )
        else:
            rows = await self._fetchall(
                "SELECT * FROM (SELECT * FROM steps WHERE game_id = ? ORDER BY seq DESC"
                " LIMIT ? OFFSET ?) AS page ORDER BY seq",
                (game_id, last, skip),
            )
        return [_step(r) for r in rows]

    async def log_steps(self, game_id: int, *, last: int, upto: int | None = None,
                        bare: bool = False) -> list[StepRow]:
        """The ``last`` steps of a game numbered up to ``upto`` (default: all), in order,
        without their states (``state_json`` is empty): what a log line, a digest's orders
        or a summary needs (issue 23: no state JSON where the state is not used).
        ``bare``: without their dice and events too (empty lists): who ordered what and
        when, all "what changed" reads of its window (parsing them was half the CPU of a
        picture's log read, issue 41)."""
        fetch = self._fetch_small if last <= SMALL_LOG else self._fetchall
        rows = await fetch(
            f"SELECT * FROM (SELECT {_BARE_COLUMNS if bare else _LOG_COLUMNS} FROM steps WHERE game_id = ?"
            " AND seq <= ? ORDER BY seq DESC LIMIT ?) AS page ORDER BY seq",
            (game_id, upto if upto is not None else 2**62, last),
        )
        return [_step(r, with_state=False, bare=bare) for r in rows]

    async def states(self, game_id: int, seqs: list[int]) -> dict[int, str]:
        """The stored state JSON of a few steps, by number (one query; ``bot/seen.py``)."""
        if not seqs:
            return {}
        rows = await self._fetchall(
            f"SELECT seq, state_json FROM step_log WHERE game_id = ? AND seq IN ({', '.join('?' * len(seqs))})",
            (game_id, *seqs),
        )
        return {int(r[0]): r[1] for r in rows}

    async def last_dice_step(self, game_id: int) -> StepRow | None:
        """The latest active step that rolled dice (what ``/mod reroll`` re-resolves)."""
        row = await self._fetchone(
            "SELECT * FROM steps WHERE game_id = ? AND reverted_by IS NULL AND dice_json != '[]'"
            " ORDER BY seq DESC LIMIT 1",
            (game_id,),
        )
        return _step(row) if row else None

    async def active_steps_after(self, game_id: int, seq: int) -> list[StepRow]:
        """Active steps later than ``seq``, in order."""
        rows = await self._fetchall(
            "SELECT * FROM steps WHERE game_id = ? AND reverted_by IS NULL AND seq > ?"
            " ORDER BY seq",
            (game_id, seq),
        )
        return [_step(r) for r in rows]

    async def lineage(self, game_id: int, since: int = 0) -> dict[int, tuple[int | None, bool]]:
        """``seq -> (parent_seq, active)`` for every step numbered ``since`` or later: the
        tree rollback walks.  A parent always has a smaller number than its child, so the
        path between two steps never leaves ``seq >= min(both)``: a rollback reads only the
        steps it moves over, however long the log (issue 7: flat as the log grows)."""
        rows = await self._fetchall(
            "SELECT seq, parent_seq, reverted_by IS NULL FROM steps WHERE game_id = ? AND seq >= ?",
            (game_id, since),
        )
        return {r[0]: (r[1], bool(r[2])) for r in rows}

    async def audit(self, game_id: int) -> list[AuditRow]:
        """The audit trail of a game."""
        rows = await self._fetchall("SELECT * FROM audit WHERE game_id = ? ORDER BY id", (game_id,))
        return [
            AuditRow(
                id=r["id"], game_id=r["game_id"], actor_id=r["actor_id"],
                actor_name=r["actor_name"], action=r["action"], reason=r["reason"],
                data=json.loads(r["data_json"]), created_at=r["created_at"],
                prev_hash=r["prev_hash"], hash=r["hash"],
            )
            for r in rows
        ]

    async def meta(self, key: str) -> str | None:
        """A fact the bot keeps about itself (``bot_meta``), if set."""
        row = await self._fetchone("SELECT value FROM bot_meta WHERE key = ?", (key,))
        return row[0] if row else None

    async def answered(self, interaction_id: str) -> str | None:
        """The stored reply JSON of an interaction already answered, if any."""
        row = await self._fetchone(
            "SELECT reply_json FROM interactions WHERE interaction_id = ?", (interaction_id,)
        )
        return row[0] if row else None


class Store(BaseStore):
    """The SQLite store (embedded, the default): one file, shared by every bot process that
    opens it (a sharded deployment, issue 23).  Its writes are serialized by SQLite's write
    lock (``bot/writer.py`` waits for another process's); its channel turns and leases are
    byte locks on ``<db>-locks`` (``bot/filelocks.py``); a cached game is checked against
    the stored version, read once the channel's turn is taken, like PostgreSQL's."""

    shared = True

    def __init__(self, path: Path, writer: WriterThread, reader: aiosqlite.Connection):
        self.path = path
        self._writer = writer
        self._reader = reader
        self._write_lock = asyncio.Lock()
        self._group = GroupCommit(writer, self._write_lock)
        self._leases: set[str] = set()
        self._versions = _connect_versions(path)  # first: if it fails, no lock file is held
        self._locks = FileLocks(path)

    # -- life cycle ------------------------------------------------------------------------

    @classmethod
    async def open(cls, path: str | Path) -> "Store":
        """Open (creating if needed) the database and apply pending migrations; a database
        a newer release upgraded is refused first, before any file is opened for writing
        (:class:`~bot.schema.NewerSchema`)."""
        path = Path(path)
        refuse_newer(sqlite_version(path), path)
        if path.parent and not path.parent.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
        writer = WriterThread(path)
        reader: aiosqlite.Connection | None = None
        try:
            await writer.open()  # first: it turns WAL on before the reader connects
            reader = await _connect_reader(path)
            store = cls(path, writer, reader)
        except BaseException:
            # A database that cannot be opened leaves no thread behind: the reader's and the
            # writer's are not daemons, and one left running kept `referee bot` from exiting
            # after it said why it could not start.
            if reader is not None:
                await reader.close()
            await writer.close()
            raise
        try:
            await store._migrate()
        except BaseException:
            await store.close()
            raise
        return store

    async def close(self) -> None:
        """Commit what is queued, then close both connections (checkpointing the WAL)."""
        await self._group.flush()
        self._versions.close()  # first: the writer, closing last, checkpoints the WAL
        await self._reader.close()
        await self._writer.close()
        self._locks.close()

    async def _migrate(self) -> None:
        async with self.transaction() as db:
            db.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)"
            )
            done = {row[0] for row in await db.fetchall("SELECT version FROM schema_migrations")}
        for version, name, sql in migration_files():
            if version in done:
                continue
            async with self.transaction() as db:
                # Another process opening the file at the same time may have applied it
                # since: the write lock taken by this transaction makes the look final.
                if await db.fetchone("SELECT 1 FROM schema_migrations WHERE version = ?", (version,)):
                    continue
                for statement in split_sql(sql):
                    db.execute(statement)
                db.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                    (version, name, utcnow()),
                )

    # -- transactions ----------------------------------------------------------------------

    def transaction(self) -> "_Transaction":
        """``async with store.transaction() as db:`` one BEGIN IMMEDIATE ... COMMIT."""
        return _Transaction(self)

    def unit(self) -> Writer:
        """A write unit to fill with writes that read nothing back, then :meth:`commit_unit`."""
        return Writer(self._writer, begin=False)

    async def commit_unit(self, unit: Writer) -> None:
        """Commit a unit, possibly in one transaction with other channels' units (group
        commit); it is all-or-nothing on its own, and durable when this returns."""
        await self._group.submit(unit.statements())

    # Each read runs to its end in one call on the reader thread.  A cursor left open across
    # an await let other tasks' reads overlap it, which kept one read transaction (snapshot)
    # open on the reader: a game re-read after a commit could come back one step old.
    async def _fetchall(self, sql: str, args: tuple[Any, ...] = ()) -> list[aiosqlite.Row]:
        return list(await self._reader.execute_fetchall(sql, args))

    def channel_lock(self, channel_id: str) -> "_ChannelTurn":
        """The channel's turn across every process on this file (a byte lock, waited for),
        and its active game's ``(id, version)`` read once the turn is taken: a cached game
        another process has moved on is re-read before the command uses it, so a valid
        order is never refused on a stale copy (``BaseStore.channel_lock``)."""
        return _ChannelTurn(self, channel_id)

    async def _held_version(self, channel_id: str) -> tuple[int, int]:
        """``(id, version)`` of the channel's active game, ``(0, -1)`` if none."""
        row = await self._version_row(_HELD_VERSION, (channel_id,))
        return (0, -1) if row is None else (int(row[0]), int(row[1]))

    async def game_version(self, game_id: int) -> int | None:
        """The stored version of a game (None if it is gone or ended): checked before a
        cached game is used outside a command (an offer, a press, autocomplete)."""
        row = await self._version_row(_GAME_VERSION, (game_id,))
        return None if row is None else int(row[0])

    async def _fetch_small(self, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
        """A read of a few indexed rows on the event loop's thread (the connection of
        :meth:`_version_row`, which reads there for the same reason): a game read back into
        the cache made five or six hand-offs to the reader's thread, each costing more CPU
        than the read itself (issue 41: a cold order cost 1.5-1.7x a cached one)."""
        try:
            rows = self._versions.execute(sql, args).fetchall()
        except sqlite3.OperationalError:
            return await self._fetchall(sql, args)
        # A read is still a point where other tasks run: a task that reads in a loop (a
        # watcher waiting for a commit) would otherwise hold the loop for ever.
        await asyncio.sleep(0)
        return rows

    async def _version_row(self, sql: str, args: tuple[Any, ...]) -> Any | None:
        """One row of a version read, on a connection of its own on the event loop's
        thread: one indexed row in WAL is a few microseconds (bench/run.py), where a
        hand-off to the reader's thread costs ten times that on every command.  A reader in
        WAL never waits for a writer; in the rare moment it would (another connection
        recovering the WAL) the read goes to the reader's thread, which waits as every read
        does."""
        try:
            return self._versions.execute(sql, args).fetchone()
        except sqlite3.OperationalError:
            return await self._fetchone(sql, args)

    @asynccontextmanager
    async def lease(self, name: str) -> AsyncIterator[bool]:
        """A lease across every process on this file (a byte lock, never waited for), and
        within this store (a lock of the lock file's own is not exclusive to itself)."""
        if name in self._leases or not self._locks.try_lock("lease:" + name):
            yield False
            return
        self._leases.add(name)
        try:
            yield True
        finally:
            self._leases.discard(name)
            self._locks.unlock("lease:" + name)


class _ChannelTurn:
    """:meth:`Store.channel_lock`, written out: taken on every command, so the free lock is
    taken without a coroutine of its own (a generator-based context manager cost half as
    much again as the lock and the read together, bench/run.py)."""

    __slots__ = ("store", "channel_id", "key")

    def __init__(self, store: Store, channel_id: str) -> None:
        self.store, self.channel_id, self.key = store, channel_id, "channel:" + channel_id

    async def __aenter__(self) -> tuple[int, int]:
        locks = self.store._locks
        if not locks.try_lock(self.key):
            await locks.lock(self.key)
        try:
            return await self.store._held_version(self.channel_id)
        except BaseException:
            locks.unlock(self.key)
            raise

    async def __aexit__(self, *exc_info: object) -> None:
        self.store._locks.unlock(self.key)


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT on the writer, serialized; ROLLBACK on any exception."""

    def __init__(self, store: "Store") -> None:
        self.store = store
        self.writer: Writer | None = None

    async def __aenter__(self) -> Writer:
        await self.store._write_lock.acquire()
        self.writer = Writer(self.store._writer)
        return self.writer

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        assert self.writer is not None
        try:
            if exc_type is None:
                try:
                    await self.writer.commit()
                except BaseException:
                    await self.store._writer.rollback()
                    raise
            else:
                await self.store._writer.rollback()
        finally:
            self.store._write_lock.release()


async def _connect_reader(path: Path) -> aiosqlite.Connection:
    db = await aiosqlite.connect(str(path), isolation_level=None)
    db.row_factory = aiosqlite.Row
    for pragma in PRAGMAS:
        # Step the statement to its end: an unfinished PRAGMA cursor keeps a lock open.
        await db.execute_fetchall(f"PRAGMA {pragma}")
    return db


def _connect_versions(path: Path) -> sqlite3.Connection:
    """The connection :meth:`Store._held_version` reads on: read-only, and never waiting
    (``busy_timeout`` 0) since it runs on the event loop's thread."""
    db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)
    db.execute("PRAGMA busy_timeout=0").fetchall()
    db.row_factory = sqlite3.Row  # the small reads build rows by column name (Store._fetch_small)
    return db


#: The channel's active game and its version (:meth:`Store._held_version`).
#: A game row with its state: the head step's (migration 0011), so the games row needs no
#: second copy of it rewritten by every order.
_GAMES = ("SELECT g.*, s.state_json, s.rules_version AS head_rules_version FROM games g"
          " JOIN step_log s ON s.game_id = g.id AND s.seq = g.head_seq")
_HELD_VERSION = "SELECT id, version FROM games WHERE channel_id = ? AND status = 'active'"
#: A game's version while it is active (:meth:`Store.game_version`).
_GAME_VERSION = "SELECT version FROM games WHERE id = ? AND status = 'active'"

#: Every column of ``steps`` but the state (:meth:`BaseStore.log_steps`).
#: A page of the log this short is read as a small read (``BaseStore._fetch_small``): the
#: steps a game read back counts its standing orders from, a summary's first window.
SMALL_LOG = 16
_LOG_COLUMNS = ("game_id, seq, parent_seq, kind, actor_id, actor_name, side, action_json, dice_json,"
                " events_json, reveals, snapshot, turn_part, interaction_id, reverted_by, rerolls,"
                " created_at, prev_hash, hash, release_version, rules_version")
#: The log's columns less the dice and events (:meth:`BaseStore.log_steps` ``bare``).
_BARE_COLUMNS = _LOG_COLUMNS.replace(" dice_json,", "").replace(" events_json,", "")
log = logging.getLogger("referee.store")


def scenario_loaded(system: str, text: str | None) -> str | None:
    """Make the scenario file a game was set up from loadable in this process (issue 27):
    every game row read registers its stored text, so its state's scenario key resolves
    whichever process, cache or export opens it.  Checked once per text per process."""
    if text is None or scenariofile.key_of_text(system, text) is not None:
        return text
    try:
        registry.get(system).scenario_from_file(text, prove=False)
    except RuleError as exc:
        # Valid when the game began; a rules change since refuses it: say so in the log,
        # and the game's commands answer that its scenario is missing.
        log.warning("stored scenario of a %s game no longer loads: %s", system, exc)
    return text


def _game(row: aiosqlite.Row, seed_key: bytes | None) -> GameRow:
    """A game row; its seed unwrapped with the server's key (``bot/seedkey.py``)."""
    return GameRow(
        id=row["id"], channel_id=row["channel_id"], guild_id=row["guild_id"],
        system=row["system"], scenario=row["scenario"],
        options=json.loads(row["options_json"]), status=row["status"],
        seed=seedkey.unwrap(seed_key, bytes(row["seed"]), row["seed_hash"]),
        seed_hash=row["seed_hash"], dice_counter=row["dice_counter"], head_seq=row["head_seq"],
        state_json=row["state_json"], last_mention=row["last_mention"],
        created_by=row["created_by"], created_at=row["created_at"], version=row["version"],
        summaries_json=row["summaries_json"],
        scenario_text=scenario_loaded(row["system"], row["scenario_text"]),
        chain_head=row["chain_head"], chain_format=row["chain_format"],
        chain_count=row["chain_count"], head_rules_version=row["head_rules_version"],
    )


def _step(row: aiosqlite.Row, with_state: bool = True, bare: bool = False) -> StepRow:
    return StepRow(
        game_id=row["game_id"], seq=row["seq"], parent_seq=row["parent_seq"], kind=row["kind"],
        actor_id=row["actor_id"], actor_name=row["actor_name"], side=row["side"],
        action=json.loads(row["action_json"]) if row["action_json"] else None,
        dice=[] if bare else [Roll.model_validate(r) for r in json.loads(row["dice_json"])],
        events=[] if bare else [Event.model_validate(e) for e in json.loads(row["events_json"])],
        state_json=row["state_json"] if with_state else "", reveals=bool(row["reveals"]),
        snapshot=bool(row["snapshot"]), turn_part=row["turn_part"],
        interaction_id=row["interaction_id"], reverted_by=row["reverted_by"],
        rerolls=row["rerolls"], created_at=row["created_at"],
        prev_hash=row["prev_hash"], hash=row["hash"],
        release=row["release_version"], rules_version=row["rules_version"],
    )
