"""Many channels playing at once through one service in one process (asyncio tasks), then a
check in SQLite that no step was lost, duplicated or interleaved.

Two runs:

* **offered load** (the target): 200 channels whose players send orders at random moments,
  together ``OFFERED`` orders a second (one Poisson stream dealt round-robin; each player
  waits for the reply to the previous order, as a real one reads the result first); the
  service must keep up (>= 300 orders/s done) with p99 <= 100 ms.
* **saturation** (for information): every channel sends its next order the moment the
  previous one is answered, with no pause at all.  By Little's law the latency then is
  200 / throughput whatever the service does, so only the throughput says something.
"""

from __future__ import annotations

import asyncio
import random
import tempfile
import time
from pathlib import Path
from typing import Awaitable, Callable

from bench import dbs
from bot.autoplay import play, schedule
from bench.robots import RobotChannel, Robots
from bot.logcheck import check_log, integrity
from bench.stats import Row, ms, percentile
from bench.usage import Usage
from bot.config import Settings
from bot.service import Service

#: Orders a second offered in the target run: 10% over the target, so "keeps up" means >= 300.
OFFERED = 330.0


async def run_channels(path: Path | str, system_key: str, channels: int, orders: int, rate: float | None,
                       prefix: str = "ch", ready: Callable[[], Awaitable[None]] | None = None,
                       acked_out: dict[str, str] | None = None,
                       usage: Usage | None = None) -> tuple[list[float], float, list[str], float]:
    """``(latencies, wall seconds, log problems, driver seconds)`` of one run on a fresh
    database (``prefix`` names the channels; ``ready``: awaited once the games are open,
    so several processes start together, ``bench/shared.py``).  With ``acked_out`` the acknowledged replies go
    there and the log is not checked here: another process may still be writing it;
    ``usage`` is started and stopped around the timed part."""
    service = await Service.open(Settings(db=path, snapshot_dir=Path(tempfile.gettempdir()) / "referee-bench-snaps"))
    pool = await Robots.start()  # the robots choose in a process of their own (issue 23)
    tables: list[RobotChannel] = []
    try:
        tables = [RobotChannel(service, system_key, f"{prefix}{i:03}", rng=random.Random(i),
                               pool=pool, seed=i, ahead=orders) for i in range(channels)]
        await asyncio.gather(*(t.open() for t in tables))
        if ready is not None:
            await ready()
        latencies: list[float] = []
        driver: list[float] = []
        plan = schedule(channels, orders, rate)
        if usage is not None:
            usage.start()
        start = time.perf_counter()
        async with asyncio.TaskGroup() as group:  # one failure cancels the rest
            for table, due in zip(tables, plan):
                group.create_task(play(table, due, latencies, start, driver))
        wall = time.perf_counter() - start
        if usage is not None:
            usage.stop()
    finally:
        for table in tables:
            table.stop()
        await pool.close()
        await service.close()
    acknowledged = {iid: reply.text for t in tables for iid, reply in t.acknowledged}
    if acked_out is not None:
        acked_out.update(acknowledged)
        missing = channels * orders - len(acknowledged)
        return latencies, wall, [f"{missing} orders not acknowledged"] if missing else [], sum(driver)
    problems = check_log(path, acknowledged)
    if len(acknowledged) != channels * orders:
        problems.append(f"{len(acknowledged)} orders acknowledged of {channels * orders} sent")
    sound = integrity(path)
    if sound != "ok":
        problems.append(f"integrity_check: {sound}")
    return latencies, wall, problems, sum(driver)


async def measure(workdir: Path, system_key: str, channels: int, orders: int) -> list[Row]:
    """The many-channels rows of the table: offered load (target) and saturation (info)."""
    rows = []
    for name, rate in (("offered", OFFERED), ("saturated", None)):
        latencies, wall, problems, driver = await run_channels(
            dbs.target(workdir, name), system_key, channels, orders, rate)
        done, p99 = len(latencies) / wall, percentile(latencies, 99)
        verdict = "log sound" if not problems else f"{len(problems)} log problems"
        if rate is None:
            figure = f"{channels} channels, no pause (saturation), {len(latencies):,} orders"
            target, ok = "most the service can do; nothing lost", None if not problems else False
        else:
            figure = f"{channels} channels at once, {rate:.0f} orders/s offered, {len(latencies):,} orders"
            target = "≥ 300 orders/s, p99 ≤ 100 ms, nothing lost"
            ok = done >= 300 and p99 <= 0.100 and not problems
        rows.append(Row(figure=figure, measured=f"{done:.0f} orders/s, p99 {ms(p99)}; {verdict}",
                        floor="—", target=target, ok=ok,
                        note="; ".join([f"orders planned before the run by the robots' process; the loop waited {driver / max(1, len(latencies)) * 1000:.1f} ms an order for them",
                                        *problems[:3]])))
    return rows
