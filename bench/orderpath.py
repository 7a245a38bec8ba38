"""The order path (parse -> rules -> commit -> reply text, no render) against its floor:
a bare insert and commit of the same step row through the same store settings."""

from __future__ import annotations

import time
from pathlib import Path

from bot.autoplay import Channel
from bench.stats import Row, median, ms, percentile
from bot.config import Settings
from bot.service import Service
from bench import dbs
from bot.store import StepRow
from bot.stores import open_store


async def order_latencies(service: Service, channel: Channel, orders: int) -> list[float]:
    """Wall-clock seconds of ``Service.handle`` for ``orders`` legal orders, one after another."""
    times: list[float] = []
    while len(times) < orders:
        inv = await channel.next_order()
        if inv is None:
            await channel.restart()
            continue
        start = time.perf_counter()
        reply = await service.handle(inv)
        times.append(time.perf_counter() - start)
        if reply.error:
            raise RuntimeError(f"a legal order was refused: {inv.command} {inv.options}: {reply.text}")
    return times


async def floor_latencies(path: Path | str, sample: StepRow, inserts: int) -> list[float]:
    """Wall-clock seconds of one ``BEGIN; INSERT step; COMMIT`` on a fresh store."""
    store = await open_store(path)
    try:
        async with store.transaction() as db:
            game_id = await db.create_game(
                channel_id="floor", guild_id=None, system="floor", scenario="floor", options={},
                seed=b"0" * 32, seed_hash="0", state_json=sample.state_json, created_by="bench",
            )
        times: list[float] = []
        for seq in range(inserts):
            row = sample.model_copy(update={"game_id": game_id, "seq": seq, "parent_seq": None,
                                            "interaction_id": None})
            start = time.perf_counter()
            async with store.transaction() as db:
                db.insert_step(row)
            times.append(time.perf_counter() - start)
        return times
    finally:
        await store.close()


async def measure(workdir: Path, system_key: str, orders: int) -> Row:
    """The order-path row of the table."""
    settings = Settings(db=dbs.target(workdir, "order-path"), snapshot_dir=workdir / "snaps")
    service = await Service.open(settings)
    try:
        channel = Channel(service, system_key, "order-path")
        await channel.open()
        await order_latencies(service, channel, min(20, orders))  # warm-up: imports, caches
        times = await order_latencies(service, channel, orders)
        game = await service.live_game("order-path")
        assert game is not None
        sample = await service.store.step(game.row.id, game.row.head_seq)
        assert sample is not None
    finally:
        await service.close()
    floor = await floor_latencies(dbs.target(workdir, "floor"), sample, orders)
    med, p99, floor_med = median(times), percentile(times, 99), median(floor)
    ok = med <= 0.005 and med <= 5 * floor_med
    return Row(
        figure=f"order path, {orders} orders (median / p99)",
        measured=f"{ms(med)} / {ms(p99)} ({med / floor_med:.1f}× floor)",
        floor=f"insert+commit of a step row: {ms(floor_med)} / {ms(percentile(floor, 99))}",
        target="median ≤ 5 ms and ≤ 5× floor",
        ok=ok,
    )
