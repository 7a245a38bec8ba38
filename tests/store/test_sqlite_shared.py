"""Several bot processes on one SQLite file (WAL, ``synchronous=FULL``; issue 23): a sharded
deployment.  Migrations applied once, leases held once, the commands of a channel take turns
across processes, a cached game follows the other process's writes, a write lock held by
another connection is waited out (never an error), and two real processes ordering in one
channel and in channels of their own at once lose, repeat and interleave nothing."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import time
from pathlib import Path

import pytest

from bot import writer
from bot.autoplay import Channel
from bot.logcheck import check_log, integrity, query
from bot.service import Service
from bot.store import Store
from rules.core import registry
from tests.platform.duel import DUEL
from tests.store.test_pg_shared import (
    ORDERS, READY, acknowledged, begin, kill_one_mid_run, leases_exclude, open_shared_game, seqs, settings, stance,
    start_driver, two_services,
)

registry.register(DUEL)


def first_line(text: str) -> str:
    return text.splitlines()[0] if text else ""


async def test_two_stores_opening_a_new_file_together_migrate_once(tmp_path: Path) -> None:
    path = tmp_path / "referee.sqlite3"
    stores = await asyncio.gather(*(Store.open(path) for _ in range(3)))
    try:
        versions = await stores[0].schema_versions()
        assert versions == await stores[2].schema_versions()
        assert versions == sorted(set(versions)) and versions[0] == 1 and 7 in versions
        assert query(path, "PRAGMA journal_mode") == [("wal",)]
    finally:
        for store in stores:
            await store.close()


async def test_a_lease_is_held_by_one_store_of_the_file_at_a_time(tmp_path: Path) -> None:
    path = tmp_path / "referee.sqlite3"
    first, second = await Store.open(path), await Store.open(path)
    try:
        await leases_exclude(first, second)
        async with first.lease("reminders") as held, first.lease("reminders") as again:
            assert held and not again  # within one store too
    finally:
        await first.close()
        await second.close()


async def test_a_channels_turn_is_waited_for_and_reads_the_version(tmp_path: Path) -> None:
    """While one store holds a channel, the other's command on it waits (no other channel
    does), then reads the version the holder's commit left."""
    path = tmp_path / "referee.sqlite3"
    a, b = await two_services(path, tmp_path)
    try:
        await Channel(a, "duel", "c").open()
        async with a.store.channel_lock("c") as held:
            assert held is not None and held[1] >= 0
            waiting = asyncio.create_task(b.handle(stance("c", "blue", 0)))
            async with b.store.channel_lock("elsewhere") as other:
                assert other == (0, -1)  # another channel's turn is free; no game there
            await asyncio.sleep(0.2)
            assert not waiting.done()
        reply = await waiting
        assert not reply.error and reply.text.startswith("#1 "), reply.text
    finally:
        await a.close()
        await b.close()
    assert check_log(path) == []


async def test_a_cache_follows_the_other_process_writes(tmp_path: Path) -> None:
    """Each service sees the other's steps at once: no order is resolved (or refused) on a
    stale copy, and none meets the version guard."""
    path = tmp_path / "referee.sqlite3"
    a, b = await two_services(path, tmp_path)
    try:
        await Channel(a, "duel", "c").open()
        await b.games.load("c")  # b holds a copy, soon stale
        for n in range(6):
            svc, other = (a, b) if n % 2 == 0 else (b, a)
            reply = await svc.handle(stance("c", ("red", "blue")[n % 2], n))
            assert not reply.error and reply.text.startswith(f"#{n + 1} "), reply.text
            seen = await other.games.load("c")
            assert seen is not None and seen.row.head_seq == n + 1
    finally:
        await a.close()
        await b.close()
    assert check_log(path) == []


async def test_two_services_on_one_file_order_in_their_channels_and_in_one_together(
        tmp_path: Path) -> None:
    """Two services (each its own writer, reader and cache, as two processes) play three
    channels each and one channel together, all at once: every order is acknowledged, and
    stored once under the number its reply showed, each channel on one straight line."""
    path = tmp_path / "referee.sqlite3"
    a, b = await two_services(path, tmp_path)
    acked: dict[str, str] = {}
    errors: list[str] = []

    async def play(svc: Service, channel: str, side: str, tag: str) -> None:
        for n in range(ORDERS):
            inv = stance(channel, side, n, iid=f"{tag}-{channel}-{side}-{n}")
            reply = await svc.handle(inv)
            if reply.error:
                errors.append(reply.text)
            else:
                acked[inv.interaction_id] = first_line(reply.text)

    try:
        for channel in ("a0", "a1", "a2", "both"):
            await Channel(a, "duel", channel).open()
        for channel in ("b0", "b1", "b2"):
            await Channel(b, "duel", channel).open()
        await asyncio.gather(
            *(play(a, f"a{i}", side, "A") for i in range(3) for side in ("red", "blue")),
            *(play(b, f"b{i}", side, "B") for i in range(3) for side in ("red", "blue")),
            play(a, "both", "red", "A"), play(b, "both", "blue", "B"))
    finally:
        await a.close()
        await b.close()
    assert errors == []
    assert len(acked) == 14 * ORDERS
    assert check_log(path, acked) == []
    assert integrity(path) == "ok"
    both = query(path, "SELECT s.seq, s.interaction_id FROM step_log s JOIN games g ON"
                       " g.id = s.game_id WHERE g.channel_id = 'both' ORDER BY s.seq")
    assert [seq for seq, _ in both] == list(range(2 * ORDERS + 1))  # #0 is the setup


async def test_an_order_waits_out_another_connections_write_lock(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """Another connection (a second process, a maintenance shell) holds the write lock for
    many busy timeouts: the order waits, then is stored and acknowledged, with no error; a
    command with a transaction of its own likewise."""
    monkeypatch.setattr(writer, "PRAGMAS", ("busy_timeout=50", "foreign_keys=ON", "synchronous=FULL"))
    path = tmp_path / "referee.sqlite3"
    svc = await Service.open(settings(str(path), tmp_path))
    other = sqlite3.connect(path, isolation_level=None)
    try:
        await Channel(svc, "duel", "c").open()
        other.execute("BEGIN IMMEDIATE")
        order = asyncio.create_task(svc.handle(stance("c", "red", 0)))
        meta = asyncio.create_task(svc.set_meta("probe", "1"))
        with caplog.at_level(logging.WARNING, logger="referee.store"):
            await asyncio.sleep(0.6)  # a dozen busy timeouts
            assert not order.done() and not meta.done()
        other.execute("COMMIT")
        reply = await order
        await meta
        assert not reply.error and reply.text.startswith("#1 "), reply.text
        assert any("still waiting" in r.message for r in caplog.records)
    finally:
        other.close()
        await svc.close()
    assert query(path, "SELECT value FROM bot_meta WHERE key = 'probe'") == [("1",)]
    assert check_log(path, {"c-red-0": first_line(reply.text)}) == []


async def test_two_processes_on_one_file_apply_every_order_once_in_order(tmp_path: Path) -> None:
    """Two real bot processes send 40 orders each to the same channel at once, and two more
    play channels of their own meanwhile: all acknowledged, each stored once under the number
    its reply showed, each process's in the order it sent them; the two really took turns."""
    path = str(tmp_path / "referee.sqlite3")
    await open_shared_game(path, tmp_path)
    svc = await Service.open(settings(path, tmp_path))
    try:
        for channel in ("own1", "own2"):
            await Channel(svc, "duel", channel).open()
    finally:
        await svc.close()
    runs = [start_driver(path, side, ORDERS) for side in ("red", "blue")]
    own = [start_driver(path, "red", ORDERS, channel=c) for c in ("own1", "own2")]
    begin(runs + own)  # four processes started on a busy machine, then all at once
    for proc, _ in runs + own:
        proc.wait(timeout=300)
    time.sleep(0.2)  # the readers drain the pipes
    outputs = [lines for _, lines in runs + own]
    assert not [l for lines in outputs for l in lines if l != READY and not l.startswith("ACK")], outputs
    red, blue, own1, own2 = (acknowledged(lines) for lines in outputs)
    assert len(red) == len(blue) == len(own1) == len(own2) == ORDERS
    # The drivers number their orders by side: the channels' replies go in one by one.
    for lines in (own1, own2):
        assert seqs(lines) == list(range(1, 1 + ORDERS))
    assert check_log(path, {**red, **blue}) == []
    assert integrity(path) == "ok"
    for mine in (seqs(red), seqs(blue)):
        assert mine == sorted(mine)
    assert sorted(seqs(red) + seqs(blue)) == list(range(1, 1 + 2 * ORDERS))
    order = sorted([(s, "r") for s in seqs(red)] + [(s, "b") for s in seqs(blue)])
    switches = sum(1 for x, y in zip(order, order[1:]) if x[1] != y[1])
    assert switches > 1, "the two processes did not overlap"


async def test_killing_one_process_mid_run_leaves_no_lock_and_loses_nothing(tmp_path: Path) -> None:
    """Red's process is SIGKILLed after its 10th acknowledgement, whatever it held (the
    channel's turn, SQLite's write lock): blue's carries on to the end, and every order
    either acknowledged is stored under the number its reply showed."""
    path = str(tmp_path / "referee.sqlite3")
    await kill_one_mid_run(path, tmp_path)
    assert integrity(path) == "ok"
