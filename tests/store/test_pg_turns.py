"""A channel's turn on PostgreSQL is given back lazily (``bot/pgturns.py``, issue 23): the
connection that served a command keeps the turn a moment, and the next command on it gives
that turn back in the statement that takes its own.  Held a moment longer, never shorter;
never waited for by its own process; given back to another process within the moment."""

from __future__ import annotations

import asyncio

import pytest

from bot import pgturns
from bot.pgstore import PgStore, lock_key
from bot.pgsync import run_sync
from bot.stores import open_store


def held_elsewhere(url: str, channel: str) -> bool:
    """Whether some session holds ``channel``'s turn (asked on a connection of its own,
    which gives back what it took when it closes)."""
    rows = run_sync(url, "SELECT pg_try_advisory_lock(?)", (lock_key("referee:channel:" + channel),))
    return not rows[0][0]


async def pg_store(url: str) -> PgStore:
    store = await open_store(url)
    assert isinstance(store, PgStore)
    return store


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
        pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pgturns, "LINGER", 60.0)
    store = await open_store(pg_url)
    assert isinstance(store, PgStore)
    store._turns._size = 1  # one connection for every channel's turn
    order: list[str] = []

    async def command(channel: str) -> None:
        async with store.channel_lock(channel):
            order.append(channel)
            await asyncio.sleep(0.05)

    try:
        async with asyncio.timeout(10):
            await asyncio.gather(*(command(c) for c in "xyz"))
        assert sorted(order) == ["x", "y", "z"]
        assert not held_elsewhere(pg_url, "x") and not held_elsewhere(pg_url, "y")
        assert held_elsewhere(pg_url, "z")  # the last one lingers
    finally:
        await store.close()


async def test_a_cancelled_wait_passes_the_connection_on(
        pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pgturns, "LINGER", 60.0)
    store = await pg_store(pg_url)
    store._turns._size = 1
    try:
        async with store.channel_lock("p"):
            waiting = asyncio.create_task(store.channel_lock("q").__aenter__())
            later = asyncio.create_task(_take(store, "r"))
            await asyncio.sleep(0.05)
            waiting.cancel()
        async with asyncio.timeout(10):
            assert await later == "r"
    finally:
        await store.close()


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
        pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Its locks went with its session.  The pool replaces a closed connection on acquire;
    # the next command must not be refused because the turn's connection was kept out of
    # the pool, lingering.
    monkeypatch.setattr(pgturns, "LINGER", 60.0)
    store = await pg_store(pg_url)
    try:
        async with store.channel_lock("k"):
            pass  # a command that ends at once: its connection then lingers with the turn
        (conn,) = store._turns._lingering
        await _server_ends(pg_url, conn)
        async with asyncio.timeout(10):
            for channel in ("k", "other"):  # its own channel, and any other
                async with store.channel_lock(channel) as held:
                    assert held == (0, -1)
                    assert held_elsewhere(pg_url, channel)
    finally:
        await store.close()


async def test_a_turn_whose_connection_the_server_closed_mid_command_ends_cleanly(
        pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # The command itself (its reads and commit go through the other pool) has done its
    # work: ending the turn must not raise, and must not keep the connection's place, or
    # after a few such ends every later command waits for ever for a turn.
    monkeypatch.setattr(pgturns, "LINGER", 60.0)
    store = await pg_store(pg_url)
    store._turns._size = 1
    taken = []
    take = store._turns.take

    async def recorded(key: int):
        conn, held = await take(key)
        taken.append(conn)
        return conn, held

    monkeypatch.setattr(store._turns, "take", recorded)
    try:
        async with store.channel_lock("m"):
            await _server_ends(pg_url, taken[-1])
        async with asyncio.timeout(10):
            assert await _take(store, "n") == "n"
            assert await _take(store, "m") == "m"
    finally:
        await store.close()
