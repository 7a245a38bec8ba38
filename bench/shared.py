"""200 channels with one and with two bot processes sharing one database (issues 20, 23).

* PostgreSQL (``bench/run.py --store postgresql``): at the offered rate, each beside its
  floor measured in the same run (the same number of writers doing nothing but ``BEGIN;
  INSERT step; COMMIT`` on the same server); then both with no pause (saturation), and what
  the second process adds (target: ≥ 1.6×).
* SQLite (the default run): saturation only, two processes on one file (WAL,
  ``synchronous=FULL``: a sharded deployment) beside one; the issue's ≥ 2,000 orders/s is
  judged on the better of the two, which the row names.

Two processes: each runs half the channels (``python -m bench.shared channels …``), at half
the offered rate, starting at the same instant; the parent adds up their orders and
latencies, then checks the whole log once (nothing lost, duplicated or interleaved).  At
saturation each process also says what it spent (``bench/usage.py``): CPU of its event
loop and of its other threads, and on SQLite its waits for the write lock and the orders
each commit carried.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from bench import dbs
from bench.cpuwatch import CpuWatch, Spent
from bench.channels import OFFERED, run_channels
from bench.stats import Row, ms, percentile
from bench.usage import Usage, install
from bot.logcheck import check_log, integrity
from bot.store import StepRow
from bot.record import seal_step
from bot.stores import open_store

ROOT = Path(__file__).resolve().parent.parent
#: Seconds the children get to open the service and their games before the run starts.
HEAD_START = 15.0


async def floor_run(url: str, writers: int, inserts: int, start_at: float | None = None) -> dict:
    """``writers`` tasks, each ``inserts`` times ``BEGIN; INSERT step; COMMIT`` in a game of
    its own: the latencies and the wall time."""
    store = await open_store(url)
    try:
        games = []
        for w in range(writers):
            async with store.transaction() as db:
                games.append(await db.create_game(
                    channel_id=f"floor-{time.time_ns()}-{w}", guild_id=None, system="floor",
                    scenario="floor", options={}, seed=b"0" * 32, seed_hash="0",
                    created_by="bench"))
        latencies: list[float] = []

        async def writer(game_id: int) -> None:
            for seq in range(inserts):
                row = seal_step(StepRow(game_id=game_id, seq=seq, parent_seq=None, kind="order",
                                        state_json='{"floor": true}'), "floor")
                start = time.perf_counter()
                async with store.transaction() as db:
                    db.insert_step(row)
                latencies.append(time.perf_counter() - start)

        if start_at is not None:
            await asyncio.sleep(max(0.0, start_at - time.time()))
        start = time.perf_counter()
        await asyncio.gather(*(writer(g) for g in games))
        return {"latencies": latencies, "wall": time.perf_counter() - start}
    finally:
        await store.close()


def children(args: list[list[str]]) -> list[dict]:
    """Run one child per argument list (``python -m bench.shared …``); their JSON answers."""
    procs = [subprocess.Popen([sys.executable, "-m", "bench.shared", *a], cwd=ROOT,
                              stdout=subprocess.PIPE, text=True) for a in args]
    out = []
    for proc in procs:
        stdout, _ = proc.communicate(timeout=1800)
        if proc.returncode != 0:
            raise RuntimeError(f"a benchmark child failed ({proc.returncode})")
        out.append(json.loads(stdout.strip().splitlines()[-1]))
    return out


def combined(parts: list[dict]) -> tuple[list[float], float]:
    """All latencies and the longest wall time of several processes' runs."""
    return [x for p in parts for x in p["latencies"]], max(p["wall"] for p in parts)


async def measure(workdir: Path, system_key: str, channels: int, orders: int) -> list[Row]:
    """The rows: 200 channels at the offered rate with one process and with two, each with
    its floor (as many writers inserting and committing, on the same server); then both
    with no pause (saturation), and what the second process adds (issue 23: ≥ 1.6×)."""
    rows = []
    for processes in (1, 2):
        lat, wall, problems, _, _ = await _run(workdir, system_key, channels, orders, processes, OFFERED)
        url = str(dbs.target(workdir, f"shared{processes}"))
        if processes == 1:
            floor = [await floor_run(url, channels, orders)]
        else:
            floor = children([["floor", url, str(channels // processes), str(orders),
                               str(time.time() + HEAD_START)] for _ in range(processes)])
        floor_lat, floor_wall = combined(floor)
        done = len(lat) / wall
        ok = done >= 300 and percentile(lat, 99) <= 0.100 and not problems
        rows.append(Row(
            figure=f"{channels} channels, {processes} process{'es' if processes > 1 else ''} "
                   f"sharing PostgreSQL, {OFFERED:.0f} orders/s offered, {len(lat):,} orders",
            measured=f"{done:.0f} orders/s, p99 {ms(percentile(lat, 99))}; "
                     + ("log sound" if not problems else f"{len(problems)} log problems"),
            floor=f"{len(floor_lat) / floor_wall:.0f} inserts+commits/s, p99 "
                  f"{ms(percentile(floor_lat, 99))} ({channels} writers in {processes})",
            target="≥ 300 orders/s, p99 ≤ 100 ms, nothing lost", ok=ok,
            note="; ".join(problems[:3])))
    rows.append(await saturation(workdir, system_key, channels, orders))
    return rows


#: The issue's saturation target for SQLite (issue 23), orders a second.
SQLITE_SATURATION = 2000.0


async def saturation(workdir: Path, system_key: str, channels: int, orders: int) -> Row:
    """``channels`` channels with no pause, in one process and in two sharing the database
    (each in a process of its own, measured alike): both throughputs and their ratio, and
    what each process spent."""
    rates, problems, spent = [], [], []
    for processes in (1, 2):
        lat, wall, found, used, cpu = await _run(workdir, system_key, channels, orders, processes,
                                                 None, apart=True)
        rates.append(len(lat) / wall)
        problems += found
        spent.append(f"{processes} process{'es' if processes > 1 else ''}: "
                     + "; ".join(_spent(u) for u in used) + _cpu_per_order(used, cpu, len(lat)))
    ratio = rates[1] / rates[0]
    measured = (f"{rates[0]:.0f} / {rates[1]:.0f} orders/s ({ratio:.2f}×); "
                + ("log sound" if not problems else f"{len(problems)} log problems"))
    if dbs.engine() == "postgresql":
        return Row(figure=f"{channels} channels sharing PostgreSQL, no pause (saturation): 1 process / 2",
                   measured=measured, floor="—", target="two ≥ 1.6× one, nothing lost",
                   ok=ratio >= 1.6 and not problems, note="; ".join([*problems[:3], *spent]))
    best = max(range(2), key=lambda i: rates[i])
    judged = (f"judged on {('one process', 'two processes')[best]} ({rates[best]:.0f} orders/s),"
              " the better")
    return Row(figure=f"{channels} channels on one SQLite file, no pause (saturation): 1 process / 2",
               measured=measured, floor="—",
               target=f"≥ {SQLITE_SATURATION:,.0f} orders/s (the better of 1 or 2 processes), nothing lost",
               ok=rates[best] >= SQLITE_SATURATION and not problems,
               note="; ".join([judged, *problems[:3], *spent]))


def _cpu_per_order(used: list[dict[str, float]], cpu: Spent, orders: int) -> str:
    """What the run cost the machine: the bot processes' and the database server's CPU per
    order, and how busy the two cores were (issue 23: the server shares them; what the rest
    of the machine ran in the window shows as the remainder)."""
    bots = sum(u["cpu"] for u in used)
    text = f"; bots {bots / max(1, orders) * 1000:.2f} ms CPU an order"
    if dbs.engine() == "postgresql":
        text += (f", server {cpu.server / max(1, orders) * 1000:.2f} ms an order"
                 f" ({cpu.server / cpu.wall:.0%} of a core)")
    # Each bot times its own run, which starts and ends a little off the machine's window:
    # a remainder below zero is that difference, not a negative load.
    others = max(0.0, cpu.machine - bots - cpu.server)
    return text + (f"; machine busy {cpu.machine / cpu.wall:.0%} of {os.cpu_count()} cores,"
                   f" {others / cpu.wall:.0%} of it other processes")


def _spent(used: dict[str, float]) -> str:
    """One process's spending, shortly: its loop's and other threads' share of a core, and
    (SQLite) its waits for the write lock, orders per commit and time in commits (fsync)."""
    wall = used["wall"] or 1.0
    text = f"loop {used['loop'] / wall:.0%} of a core, other threads {(used['cpu'] - used['loop']) / wall:.0%}"
    if used["commits"]:
        text += (f", write lock waited {used['begin'] / wall:.0%} of the time,"
                 f" {used['units'] / used['commits']:.1f} orders a commit, committing"
                 f" {used['committing'] / wall:.0%} of the time"
                 f" ({used['committing'] / used['commits'] * 1000:.1f} ms each)")
    return text


async def _run(workdir: Path, system_key: str, channels: int, orders: int, processes: int,
               rate: float | None, *, apart: bool = False
               ) -> tuple[list[float], float, list[str], list[dict[str, float]], Spent]:
    """``(latencies, wall seconds, log problems, each process's spending, the CPU the
    machine spent in the timed part)`` of ``channels``
    channels in ``processes`` processes on a fresh database, at ``rate`` orders/s in all
    (None: no pause); ``apart``: one process too runs as a child (measured as two are)."""
    url = str(dbs.target(workdir, f"shared{processes}{'' if rate else '-saturated'}"))
    if processes == 1 and not apart:
        lat, wall, problems, _ = await run_channels(url, system_key, channels, orders, rate)
        return lat, wall, problems, [], Spent(0.0, 0.0, wall)
    share, start_at = channels // processes, time.time() + HEAD_START
    each = "none" if rate is None else str(rate / processes)
    with CpuWatch(dbs.server_pid()) as watch:
        parts = children([["channels", url, system_key, str(share), str(orders), each,
                           f"p{p}-", str(start_at)] for p in range(processes)])
    lat, wall = combined(parts)
    problems = [x for p in parts for x in p["problems"]]
    acknowledged = {k: v for p in parts for k, v in p["acknowledged"].items()}
    problems += check_log(url, acknowledged)
    sound = integrity(url)
    if sound != "ok":
        problems.append(f"integrity_check: {sound}")
    # The timed parts as they ran: a child late for the agreed start (still opening its
    # games on a busy machine) began later, and the run lasted until the last one ended.
    began = min(p["usage"]["started_at"] for p in parts)
    ended = max(p["usage"]["started_at"] + p["usage"]["wall"] for p in parts)
    return lat, max(wall, ended - began), problems, [p["usage"] for p in parts], watch.between(began, ended)


def _main() -> None:
    """Child modes: ``channels URL SYSTEM N ORDERS RATE PREFIX START`` (``RATE`` ``none``: no
    pause) and
    ``floor URL WRITERS INSERTS START``; one JSON line out."""
    from bot.runtime import tune_gc  # noqa: PLC0415
    from rules.core import registry  # noqa: PLC0415

    tune_gc()
    registry.load_all()
    mode, url = sys.argv[1], sys.argv[2]
    if mode == "floor":
        result = asyncio.run(floor_run(url, int(sys.argv[3]), int(sys.argv[4]), float(sys.argv[5])))
    else:
        system_key, n, orders, rate, prefix, start_at = sys.argv[3:9]
        result = asyncio.run(_channels(url, system_key, int(n), int(orders),
                                       None if rate == "none" else float(rate), prefix, float(start_at)))
    print(json.dumps(result))


async def _channels(url: str, system_key: str, n: int, orders: int, rate: float | None, prefix: str,
                    start_at: float) -> dict:
    acknowledged: dict[str, str] = {}
    install()
    usage = Usage()
    lat, wall, problems, _ = await run_channels(url, system_key, n, orders, rate, prefix, start_at,
                                                acked_out=acknowledged, usage=usage)
    return {"latencies": lat, "wall": wall, "problems": problems, "acknowledged": acknowledged,
            "usage": usage.figures()}

if __name__ == "__main__":
    _main()
