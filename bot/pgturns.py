"""Channels' turns on PostgreSQL, given back lazily (issue 23: the server's CPU per order).

A command takes its channel's turn with a session advisory lock on a connection of the lock
pool (``PgStore.channel_lock``).  Giving the turn back used to cost a round trip of its own
(``pg_advisory_unlock_all``) after every command.  Here the connection instead *lingers*
for :data:`LINGER` seconds, still holding the lock, and the next command to take a turn on
it gives the old turn back in the same statement that takes its own
(:data:`TAKE_TURN`): under load a turn costs one round trip, not two.  A lingering
connection not taken within :data:`LINGER` gives its turn back in a round trip, as before.

The game's version is read AFTER the turn is granted.  One statement sees the database as
it was when the statement started (its snapshot, taken before the wait for the lock), so a
command that waited for another process's turn would read the version from before that
process's commit, take its stale copy for fresh, and lose a Conflict and a retry at its own
commit (two processes ordering in one channel lost one at every change of hands).  So the
turn is taken by a function (:data:`TAKE_TURN_FUNCTION`, PL/pgSQL, VOLATILE), each of whose
statements takes a snapshot of its own when it starts: the read of the version after the
lock sees every commit made before the lock was granted, in the same one round trip.  The
function lives in each lock connection's temporary schema, created once per connection
(:meth:`TakeTurn.prepare`, the pool's ``init``): no migration, nothing shared to upgrade.  A
server that refuses it (no TEMP privilege on the database) gets two statements instead, the
lock then the read: the same fresh version for one more round trip.

Why this keeps every guarantee:

* A turn is only ever held *longer* (by at most :data:`LINGER`, or until the connection is
  taken again), never shorter; a command still holds it from before it reads the game until
  after its commit returned.
* The next command of the same channel takes the connection that holds its turn, so a
  process never waits for a turn it holds itself.
* The old turn is given back before the new one is waited for (the ``OFFSET 0`` subquery
  runs first), so a connection waiting for a lock holds none: no waits-for cycle can form.
* Another process waiting for the channel waits at most :data:`LINGER` longer; if we die,
  the server frees every lock with the connection.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict, deque

import asyncpg

log = logging.getLogger("referee.pgstore")

#: Seconds a connection keeps the turn of the command it served before giving it back in a
#: round trip of its own (a command of this process taking it in that time gives it back
#: for free).  Another process waiting for that channel waits at most this much longer.
LINGER = 0.010

#: Creates ``pg_temp.referee_take_turn(turn, channel, held)``: gives back the turn the
#: connection still holds (``held``; NULL: none, and ``pg_advisory_unlock`` is strict, so it
#: is then not called), THEN waits for the channel's turn (``turn``), THEN reads the
#: channel's active game and its version, in a snapshot taken after the lock was granted
#: (a VOLATILE function's every statement takes its own, in READ COMMITTED).  PL/pgSQL, not
#: SQL: it keeps its statements' plans for the session, where an SQL function plans them at
#: every call.  Columns are qualified (``g.``): no name of the function's can shadow them.
TAKE_TURN_FUNCTION = """
CREATE OR REPLACE FUNCTION pg_temp.referee_take_turn(
    turn bigint, channel text, held bigint, OUT game_id bigint, OUT game_version bigint)
LANGUAGE plpgsql VOLATILE AS $fn$
BEGIN
    PERFORM pg_advisory_unlock(held);
    PERFORM pg_advisory_lock(turn);
    SELECT g.id, g.version INTO game_id, game_version
      FROM games g WHERE g.channel_id = channel AND g.status = 'active';
END
$fn$"""

#: Takes the channel's turn (``$1``) and reads its game (``$2``) after giving back the turn
#: the connection still holds (``$3``): one round trip (:data:`TAKE_TURN_FUNCTION`).
TAKE_TURN = ("SELECT game_id AS id, game_version AS version"
             " FROM pg_temp.referee_take_turn($1, $2, $3)")

#: Where the server refused the function: gives back the turn held (``$2``), THEN waits for
#: the turn (``$1``).  ``OFFSET 0`` keeps the planner from folding the subquery in: its row,
#: and the give-back, come first.
LOCK_ONLY = ("SELECT pg_advisory_lock($1) FROM (SELECT pg_advisory_unlock($2::bigint) AS gave_back"
             " OFFSET 0) AS previous")
#: ... and then, in a statement of its own (so in a snapshot taken after the lock), the
#: channel's active game and its version.
GAME_VERSION = "SELECT id, version FROM games WHERE channel_id = $1 AND status = 'active'"


#: What a server that will not have the function answers (no TEMP privilege, no PL/pgSQL,
#: a read-only session): every turn then takes two statements.  Any other error passes.
REFUSALS = (asyncpg.SyntaxOrAccessError, asyncpg.FeatureNotSupportedError,
            asyncpg.InvalidTransactionStateError)

#: What a connection without the function is answered (no temporary schema yet, or none
#: of it in the schema).
MISSING = (asyncpg.UndefinedFunctionError, asyncpg.InvalidSchemaNameError)


class TakeTurn:
    """How the lock pool's connections take a channel's turn and read its game's version
    once the turn is granted: one round trip (:data:`TAKE_TURN`), or two where the server
    refused the function (:data:`LOCK_ONLY`, then :data:`GAME_VERSION`)."""

    def __init__(self) -> None:
        #: False once the server refused the function (:data:`REFUSALS`): every connection
        #: then takes turns in two statements (which need nothing of the function's).
        self.in_one = True

    async def prepare(self, conn: asyncpg.Connection) -> None:
        """The lock pool's ``init``: create the function on a new connection, or fall back
        to two statements (said once, in the log) when the server refuses it.  A fault
        that passes (a lock or statement timeout, the server shutting down) is no refusal:
        that connection creates the function when it first takes a turn (:meth:`__call__`)."""
        if not self.in_one:
            return
        try:
            await conn.execute(TAKE_TURN_FUNCTION)
        except REFUSALS as exc:
            self.in_one = False
            log.warning("taking a channel's turn costs two round trips: the server refused"
                        " a temporary function (%s)", exc)
        except asyncpg.PostgresError as exc:
            log.info("a lock connection could not create its function yet (%s); it does"
                     " when it first takes a turn", exc)

    async def __call__(self, conn: asyncpg.Connection, key: int, channel_id: str,
                       held: int | None) -> asyncpg.Record | None:
        """Give back turn ``held`` (None: none), wait for turn ``key``, then read channel
        ``channel_id``'s active game: a record with ``id`` and ``version`` (None, or a
        NULL ``id``: no active game)."""
        if self.in_one:
            try:
                return await conn.fetchrow(TAKE_TURN, key, channel_id, held)
            except MISSING:  # refused before it ran: nothing given back or taken
                await self.prepare(conn)  # its preparing met a passing fault
                if self.in_one:
                    return await conn.fetchrow(TAKE_TURN, key, channel_id, held)
        await conn.fetchval(LOCK_ONLY, key, held)
        return await conn.fetchrow(GAME_VERSION, channel_id)


class Turns:
    """At most ``size`` connections of ``pool`` (whose reset gives back every advisory lock)
    taking channels' turns: each busy with a command, or lingering with the turn of the
    command it served."""

    def __init__(self, pool: asyncpg.Pool, size: int, linger: float | None = None) -> None:
        self._pool = pool
        self._size = size
        self._linger = LINGER if linger is None else linger
        #: Connections out of the pool (busy or lingering).
        self._taken = 0
        #: Lingering connections and the lock key each still holds, the oldest first.
        self._lingering: OrderedDict[asyncpg.Connection, int] = OrderedDict()
        self._holders: dict[int, asyncpg.Connection] = {}
        self._timers: dict[asyncpg.Connection, asyncio.TimerHandle] = {}
        self._waiters: deque[asyncio.Future[None]] = deque()
        self._giving_back: set[asyncio.Task[None]] = set()

    async def take(self, key: int) -> tuple[asyncpg.Connection, int | None]:
        """A connection for a command that is to take turn ``key``, and the key of the turn
        it still holds (None: none), for :data:`TAKE_TURN`."""
        while True:
            conn = self._holders.get(key)
            if conn is None and self._lingering:
                conn = next(iter(self._lingering))  # the oldest: its turn waited longest
            if conn is not None:
                held = self._unlinger(conn)
                if _gone(conn):  # the server ended its session, and its turn with it
                    self.give_back(conn)
                    continue
                return conn, held
            if self._taken < self._size:
                self._taken += 1
                try:
                    return await self._pool.acquire(), None
                except BaseException:
                    self._taken -= 1
                    self._wake()
                    raise
            waiter = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
            try:
                await waiter
            except BaseException:
                if waiter.done() and not waiter.cancelled():
                    self._wake()  # woken, then cancelled: the connection is someone else's
                else:
                    self._waiters.remove(waiter)
                raise

    def linger(self, conn: asyncpg.Connection, key: int) -> None:
        """The command on ``conn`` has ended holding turn ``key``: keep it for the next
        command (which gives the turn back), or give it back after :data:`LINGER`."""
        if _gone(conn):  # the server has freed its locks
            self.give_back(conn)
            return
        self._lingering[conn] = key
        self._holders[key] = conn
        self._timers[conn] = asyncio.get_running_loop().call_later(self._linger, self._expire, conn)
        self._wake()

    def give_back(self, conn: asyncpg.Connection) -> None:
        """Return ``conn`` to the pool, whose reset gives back every turn it holds, in a
        task of its own (nobody waits for that round trip; :meth:`close` does).  A
        connection the pool already took back (:func:`_gone`) only frees its place."""
        self._taken -= 1
        task = asyncio.get_running_loop().create_task(self._pool.release(conn))
        self._giving_back.add(task)
        task.add_done_callback(self._given_back)
        self._wake()

    async def close(self) -> None:
        """Give back every lingering turn and wait until every turn is given back."""
        for conn in list(self._lingering):
            self._unlinger(conn)
            self.give_back(conn)
        await asyncio.gather(*self._giving_back, return_exceptions=True)

    def _expire(self, conn: asyncpg.Connection) -> None:
        if conn in self._lingering:
            self._unlinger(conn)
            self.give_back(conn)

    def _unlinger(self, conn: asyncpg.Connection) -> int:
        key = self._lingering.pop(conn)
        del self._holders[key]
        self._timers.pop(conn).cancel()
        return key

    def _wake(self) -> None:
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)
                return

    def _given_back(self, task: "asyncio.Task[None]") -> None:
        self._giving_back.discard(task)
        if not task.cancelled() and task.exception() is not None:
            # The pool closes a connection it could not reset; the server then frees its locks.
            log.warning("giving a channel's turn back failed: %s", task.exception())


def _gone(conn: asyncpg.Connection) -> bool:
    """Whether the server has ended ``conn``'s session (a restart, a failover,
    ``pg_terminate_backend``), taking its advisory locks with it.  asyncpg then returns the
    connection to its pool by itself and the proxy we hold refuses every call, even
    ``is_closed``: such a connection must neither be handed to a command nor make the end
    of a command's turn raise (the command has done its work; its place among the
    :class:`Turns` must be freed, or after a few such ends every command waits for ever)."""
    try:
        return bool(conn.is_closed())
    except asyncpg.InterfaceError:  # released back to the pool when its session ended
        return True
