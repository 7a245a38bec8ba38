"""A channel's turn on PostgreSQL is given back lazily (``bot/pgturns.py``, issue 23): the
connection that served a command keeps the turn a moment, and the next command on it gives
that turn back in the statement that takes its own.  Held a moment longer, never shorter;
never waited for by its own process; given back to another process within the moment."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot import pgturns
from bot.autoplay import Channel
from bot.logcheck import check_log
from bot.pgstore import PgStore, lock_key
from bot.pgsync import run_sync
from bot.service import Service
from bot.stores import open_store
from bot.writer import Conflict
from tests.store.test_pg_shared import ORDERS, stance, two_services, watch_conflicts


def held_elsewhere(url: str, channel: str) -> bool:
    """Whether some session holds ``channel``'s turn (asked on a connection of its own,
    which gives back what it took when it closes)."""
    rows = run_sync(url, "SELECT pg_try_advisory_lock(?)", (lock_key("referee:channel:" + channel),))
    return not rows[0][0]


async def pg_store(url: str) -> PgStore:
    store = await open_store(url)
    assert isinstance(store, PgStore)
    return store


@pytest.fixture
async def lingering(pg_url: str, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[PgStore]:
    """A store whose turns linger until a command takes them (``LINGER`` of a minute: only a
    command gives a turn back within a test), closed after the test."""
    monkeypatch.setattr(pgturns, "LINGER", 60.0)
    store = await pg_store(pg_url)
    yield store
    await store.close()


async def test_the_next_command_gives_the_turn_back_in_its_own_statement(
        pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pgturns, "LINGER", 60.0)  # only a command can give it back here
    store = await pg_store(pg_url)
    try:
        async with store.channel_lock("a") as held:
            assert held == (0, -1)  # no game in that channel
        assert held_elsewhere(pg_url, "a")  # lingering: still held after the command
        async with store.channel_lock("a"):  # the same connection: its own turn, not waited for
            pass
        async with store.channel_lock("b"):
            assert not held_elsewhere(pg_url, "a")  # given back by taking b
            assert held_elsewhere(pg_url, "b")
    finally:
        await store.close()
    assert not held_elsewhere(pg_url, "b")  # close gives back every lingering turn


async def test_another_process_gets_the_turn_within_the_moment(pg_url: str) -> None:
    first, second = await pg_store(pg_url), await pg_store(pg_url)
    try:
        async with first.channel_lock("c"):
            pass  # a command that ends at once: its connection lingers holding c
        async with asyncio.timeout(5 + pgturns.LINGER):  # a hang, not a speed, is the failure
            async with second.channel_lock("c"):
                assert held_elsewhere(pg_url, "c")
        assert not first._turns._lingering  # it gave the turn back on its own
    finally:
        await first.close()
        await second.close()


async def test_commands_beyond_the_connections_wait_for_a_lingering_one(
        pg_url: str, lingering: PgStore) -> None:
    store = lingering
    store._turns._size = 1  # one connection for every channel's turn
    order: list[str] = []

    async def command(channel: str) -> None:
        async with store.channel_lock(channel):
            order.append(channel)
            await asyncio.sleep(0.05)

    async with asyncio.timeout(10):
        await asyncio.gather(*(command(c) for c in "xyz"))
    assert sorted(order) == ["x", "y", "z"]
    assert not held_elsewhere(pg_url, "x") and not held_elsewhere(pg_url, "y")
    assert held_elsewhere(pg_url, "z")  # the last one lingers


async def test_a_cancelled_wait_passes_the_connection_on(lingering: PgStore) -> None:
    store = lingering
    store._turns._size = 1
    async with store.channel_lock("p"):
        waiting = asyncio.create_task(store.channel_lock("q").__aenter__())
        later = asyncio.create_task(_take(store, "r"))
        await asyncio.sleep(0.05)
        waiting.cancel()
    async with asyncio.timeout(10):
        assert await later == "r"


async def _take(store: PgStore, channel: str) -> str:
    async with store.channel_lock(channel):
        return channel



async def _server_ends(url: str, conn) -> None:
    """The server ends ``conn``'s session (a restart, a failover, an operator's
    ``pg_terminate_backend``), and this process has read its goodbye: asyncpg then hands
    the connection back to its pool by itself, and the proxy we hold answers nothing."""
    run_sync(url, "SELECT pg_terminate_backend(?)", (conn.get_server_pid(),))
    async with asyncio.timeout(10):
        while conn._con is not None and not conn._con.is_closed():
            await asyncio.sleep(0.01)


async def test_a_lingering_connection_the_server_closed_is_not_handed_to_the_next_command(
        pg_url: str, lingering: PgStore) -> None:
    # Its locks went with its session.  The pool replaces a closed connection on acquire;
    # the next command must not be refused because the turn's connection was kept out of
    # the pool, lingering.
    store = lingering
    async with store.channel_lock("k"):
        pass  # a command that ends at once: its connection then lingers with the turn
    (conn,) = store._turns._lingering
    await _server_ends(pg_url, conn)
    async with asyncio.timeout(10):
        for channel in ("k", "other"):  # its own channel, and any other
            async with store.channel_lock(channel) as held:
                assert held == (0, -1)
                assert held_elsewhere(pg_url, channel)


async def test_a_turn_whose_connection_the_server_closed_mid_command_ends_cleanly(
        pg_url: str, lingering: PgStore, monkeypatch: pytest.MonkeyPatch) -> None:
    # The command itself (its reads and commit go through the other pool) has done its
    # work: ending the turn must not raise, and must not keep the connection's place, or
    # after a few such ends every later command waits for ever for a turn.
    store = lingering
    store._turns._size = 1
    taken = []
    take = store._turns.take

    async def recorded(key: int):
        conn, held = await take(key)
        taken.append(conn)
        return conn, held

    monkeypatch.setattr(store._turns, "take", recorded)
    async with store.channel_lock("m"):
        await _server_ends(pg_url, taken[-1])
    async with asyncio.timeout(10):
        assert await _take(store, "n") == "n"
        assert await _take(store, "m") == "m"


async def waiting_for(store: PgStore, channel: str) -> int:
    """How many sessions wait for ``channel``'s turn (a 64-bit advisory key shows in
    ``pg_locks`` as its high and low 32 bits)."""
    key = lock_key("referee:channel:" + channel) & (2**64 - 1)
    rows = await store._fetchall(
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
        " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())"
        " AND classid = ? AND objid = ? AND objsubid = 1", (key >> 32, key & 0xFFFFFFFF))
    return int(rows[0][0])


#: A server that refuses the temporary function (no TEMP privilege on the database).
REFUSED = ("DO $$ BEGIN RAISE EXCEPTION 'permission denied to create temporary tables'"
           " USING ERRCODE = 'insufficient_privilege'; END $$")


@pytest.mark.parametrize(("function", "isolation"), [
    (True, None), (False, None), (True, "repeatable read")],
    ids=["one-statement", "refused-two-statements", "database-default-repeatable-read"])
async def test_a_command_that_waited_for_the_turn_sees_the_commit_it_waited_for(
        pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, function: bool,
        isolation: str | None) -> None:
    """Two processes, one channel: A holds the turn through its commit; B, holding the game
    as it was, asks for the turn before A commits and waits.  The version B's turn reads
    must be the one A committed (read after the lock was granted, not in a snapshot taken
    before the wait), so B re-reads the game and its order costs no Conflict.  Counted,
    not timed.  The same where the server refuses the function and the turn takes two
    statements, and where the database's default isolation is REPEATABLE READ (in which
    every statement of a transaction reads the first one's snapshot)."""
    if not function:
        monkeypatch.setattr(pgturns, "TAKE_TURN_FUNCTION", REFUSED)
    if isolation is not None:  # as an operator's ALTER DATABASE … SET would
        pg_url += "&default_transaction_isolation=" + isolation.replace(" ", "%20")
    a, b = await two_services(pg_url, tmp_path)
    try:
        for svc in (a, b):
            assert isinstance(svc.store, PgStore) and svc.store._take_turn.in_one is function
        await Channel(a, "duel", "c").open()
        assert await b.games.load("c") is not None  # B's copy: the game before A's order
        entered, go_on = asyncio.Event(), asyncio.Event()
        commit = a.store.commit_unit

        async def held_open(unit) -> None:  # type: ignore[no-untyped-def]
            entered.set()  # A holds the channel's turn, its order not yet committed
            await go_on.wait()
            await commit(unit)

        monkeypatch.setattr(a.store, "commit_unit", held_open)
        conflicts: list[Conflict] = []
        watch_conflicts(b, monkeypatch, conflicts)
        first = asyncio.create_task(a.handle(stance("c", "red", 0)))
        async with asyncio.timeout(10):  # a hang, not a speed, is the failure
            await entered.wait()
            second = asyncio.create_task(b.handle(stance("c", "blue", 1)))
            while await waiting_for(a.store, "c") == 0:  # B has asked for the turn, and waits
                await asyncio.sleep(0.01)
            go_on.set()
            replies = await asyncio.gather(first, second)
        assert [r.text.split()[0] for r in replies] == ["#1", "#2"], [r.text for r in replies]
        assert conflicts == []
    finally:
        await a.close()
        await b.close()
    assert check_log(pg_url) == []


async def test_two_processes_ordering_in_one_channel_meet_no_conflict(
        pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Both processes order in one channel as fast as they can, each waiting for the
    other's turn: every order is stored at its first attempt (conflicts counted)."""
    a, b = await two_services(pg_url, tmp_path)
    try:
        await Channel(a, "duel", "c").open()
        await b.games.load("c")
        conflicts: list[Conflict] = []
        watch_conflicts(a, monkeypatch, conflicts)
        watch_conflicts(b, monkeypatch, conflicts)

        async def orders(svc: Service, side: str) -> list[str]:
            return [(await svc.handle(stance("c", side, n))).text for n in range(ORDERS)]

        async with asyncio.timeout(60):
            red, blue = await asyncio.gather(orders(a, "red"), orders(b, "blue"))
        steps = sorted(int(text.split()[0][1:]) for text in red + blue)
        assert steps == list(range(1, 1 + 2 * ORDERS)), red + blue
        assert conflicts == []
    finally:
        await a.close()
        await b.close()



#: A fault that passes (a lock timeout while the connection was being prepared): no refusal.
PASSING = ("DO $$ BEGIN RAISE EXCEPTION 'canceling statement due to lock timeout'"
           " USING ERRCODE = 'lock_not_available'; END $$")


async def test_a_fault_that_passes_while_a_connection_is_prepared_is_not_taken_for_a_refusal(
        pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Only a server that refuses the function (privileges, a missing feature) makes every
    turn cost two statements for the rest of the process's life; a connection whose
    preparing met a passing fault creates the function when it first takes a turn."""
    real = pgturns.TAKE_TURN_FUNCTION
    monkeypatch.setattr(pgturns, "TAKE_TURN_FUNCTION", PASSING)
    store = await pg_store(pg_url)  # its lock pool's first connection meets the fault
    try:
        monkeypatch.setattr(pgturns, "TAKE_TURN_FUNCTION", real)
        async with store.channel_lock("a") as held:
            assert held == (0, -1)
        assert store._take_turn.in_one
        async with store.channel_lock("b") as held:  # the same connection, in one statement
            assert held == (0, -1)
            assert held_elsewhere(pg_url, "b") and not held_elsewhere(pg_url, "a")
    finally:
        await store.close()
