"""Resident memory with 1,000 games in the database and 50 of them active.

The parent builds the database; a fresh Python process (``python -m bench.memory``) opens
the service, plays orders in the active games and reports its own VmRSS, so the figure holds
nothing of the benchmark itself.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

from bot.autoplay import Channel
from bench import dbs
from bench.logsizes import build_log, sample_steps
from bench.stats import Row
from bot.config import Settings
from bot.renderworker import DrawRequest
from bot.service import Service

ROOT = Path(__file__).resolve().parent.parent
LIMIT_MB = 200
STEPS_PER_GAME = 20


def vm_kb(name: str, pid: int | str = "self") -> int:
    """A ``/proc/<pid>/status`` figure (VmRSS, VmHWM) in kB: this process's, or another's
    (a render worker's, read from here: the worker is not asked)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(name + ":"):
            return int(line.split()[1])
    raise KeyError(name)


async def build(path: Path | str, system_key: str, games: int) -> None:
    """``games`` games of ``STEPS_PER_GAME`` realistic steps each, in channels m0000…"""
    service = await Service.open(Settings(db=path))
    try:
        samples = await sample_steps(service, Channel(service, system_key, "sample"), 40)
        # The sample game counts too: the database ends with exactly ``games`` games.
        for i in range(games - await service.store.count_games()):
            await build_log(service, system_key, f"m{i:04}", samples, STEPS_PER_GAME)
    finally:
        await service.close()


async def child(path: Path | str, system_key: str, active: int, orders: int, pictures: int = 0) -> dict:
    """In the measured process: open the service, play in ``active`` games, have the render
    workers draw the pictures of ``pictures`` orders of every system (focus and whole), report memory."""
    service = await Service.open(Settings(db=path))
    try:
        start_kb = vm_kb("VmRSS")
        for i in range(active):
            channel = Channel(service, system_key, f"m{i:04}")
            for _ in range(orders):
                await channel.order()
        await draw_every_system(service, pictures)
        return {
            "rss_kb": vm_kb("VmRSS"), "hwm_kb": vm_kb("VmHWM"), "start_kb": start_kb,
            # The render workers (issue 41), each: warm, they hold every system's static layers.
            "workers_kb": [vm_kb("VmRSS", pid) for pid in service.pictures.pids()],
            "cached_games": len(service.games),  # what the service holds parsed in memory
            "games_in_db": await service.store.count_games(),
        }
    finally:
        await service.close()


async def draw_every_system(service: Service, count: int) -> None:
    """The pictures of ``count`` orders of each registered system's seeded game, focus and whole, drawn
    by the service's render workers (what a worker holds after a day of every system)."""
    if not count:
        return
    from rules.core import registry  # noqa: PLC0415
    from rules.core.samples import pictures  # noqa: PLC0415

    for _, system in sorted(registry.load_all().items()):
        for view in pictures(system, count):
            for whole in (False, True):
                await asyncio.wrap_future(service.pictures.offer(DrawRequest(view=view, whole=whole)).future)


def run_child(path: Path | str, system_key: str, active: int, orders: int, pictures: int = 0) -> dict:
    """:func:`child` in a fresh process; its figures."""
    out = subprocess.run(
        [sys.executable, "-m", "bench.memory", str(path), system_key, str(active), str(orders), str(pictures)],
        cwd=ROOT, capture_output=True, text=True, check=True,
    )
    figures: dict = json.loads(out.stdout.strip().splitlines()[-1])
    return figures


async def measure(workdir: Path, system_key: str, games: int, active: int, orders: int) -> Row:
    """The memory row of the table."""
    path = dbs.target(workdir, "memory")
    await build(path, system_key, games)
    figures = run_child(path, system_key, active, orders)
    rss_mb, start_mb = figures["rss_kb"] / 1024, figures["start_kb"] / 1024
    idle_dropped = figures["cached_games"] <= active
    return Row(
        figure=f"memory: {figures['games_in_db']:,} games in the DB, {active} active",
        measured=(f"{rss_mb:.0f} MB RSS (peak {figures['hwm_kb'] / 1024:.0f} MB); "
                  f"{figures['cached_games']} games held in memory"),
        floor=f"service opened, no game touched: {start_mb:.0f} MB",
        target=f"≤ {LIMIT_MB} MB; idle games not held",
        ok=rss_mb <= LIMIT_MB and idle_dropped,
    )


async def measure_with_workers(workdir: Path, system_key: str, games: int = 500, pictures: int = 40) -> Row:
    """Issue 41's memory row: ``games`` games played once each (the cache holds at most
    ``GAME_CACHE_SIZE`` of them), then ``pictures`` focus pictures and whole maps of every
    system drawn by the workers (those of ``pictures`` orders of each); the bot's process and its render workers' RSS in all.
    Run after :func:`measure`, on its database."""
    figures = run_child(dbs.target(workdir, "memory"), system_key, games, 1, pictures)
    main_mb = figures["rss_kb"] / 1024
    workers = [kb / 1024 for kb in figures["workers_kb"]]
    total = main_mb + sum(workers)
    return Row(
        figure=(f"memory: {games} games played, {figures['cached_games']} held, and the render workers "
                f"after the pictures of {pictures} orders of every system, focus and whole"),
        measured=(f"{total:.0f} MB RSS in all: the bot {main_mb:.0f} MB, "
                  f"{len(workers)} worker(s) {', '.join(f'{mb:.0f}' for mb in workers)} MB"),
        floor=f"service opened: {figures['start_kb'] / 1024:.0f} MB",
        target="≤ 600 MB in all", ok=total <= 600,
    )


def _main() -> None:
    from bot.autoplay import pick_system  # noqa: PLC0415

    path, system_key, active, orders = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    pictures = int(sys.argv[5]) if len(sys.argv) > 5 else 0
    key, _ = pick_system(system_key)
    from bot.runtime import tune_gc  # noqa: PLC0415

    tune_gc()  # as the deployed process does
    print(json.dumps(asyncio.run(child(dbs.parse(path), key, active, orders, pictures))))


if __name__ == "__main__":
    _main()
