"""The step-through replay (issue 19, item 5): ``/game replay`` of a 100-order Tannenbruck
game (a GIF, a frame per snapshot) against Discord's 8 MB upload limit, and the HTML page
of the same game (every whole map, cut into shared tiles) against the PNGs it replaces.
And what building that page costs everyone else (issue 41): the event loop's lag while it
is built in the bot's worker for long drawings (``bot/longdraw.py``, as the bot does) and,
side by side, in a thread of the bot (as it did before).

Both through the real service on a real SQLite file; the times are wall-clock and include
drawing every picture (the GIF: the phone-width focus pictures; the page: the whole maps).
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Awaitable

from bench.stats import Row, ms, percentile
from bot import longdraw, replaycmds
from bot.autoplay import Channel
from bot.config import Settings
from bot.export_html import export_html
from bot.service import Service

UPLOAD_LIMIT = 8 * 1024 * 1024


async def measure(workdir: Path, system_key: str, orders: int = 100) -> list[Row]:
    """The GIF's and the page's rows."""
    settings = Settings(db=workdir / "replay.sqlite3", snapshot_dir=workdir / "snaps")
    service = await Service.open(settings)
    try:
        channel = Channel(service, system_key, "replay", rng=random.Random(19))
        await channel.open()
        for _ in range(orders):
            inv = await channel.next_order()
            if inv is None:
                break
            await channel.send(inv)
        game = await service.games.load("replay")
        assert game is not None
        steps = await service.store.steps(game.row.id)
        shown = replaycmds.shown_steps(steps)
        start = time.perf_counter()
        reply = await service.handle(channel.invocation("watcher", ["game", "replay"], {}))
        gif_time = time.perf_counter() - start
        if reply.error:
            raise RuntimeError(f"/game replay was refused: {reply.text}")
        gif = reply.attachments[0].data
        other = Channel(service, system_key, "replay-other", rng=random.Random(20))
        await other.open()
        start = time.perf_counter()
        (_, page), worker_lag = await lagging(export_html(service.store, game.row.id, longdraw.shared(settings)),
                                              other)
        page_time = time.perf_counter() - start
        _, thread_lag = await lagging(export_html(service.store, game.row.id), other)  # the old way
    finally:
        await service.close()
    return [
        Row(figure=f"/game replay of {orders} orders ({len(shown)} maps, GIF)",
            measured=f"{len(gif) / 1e6:.2f} MB in {gif_time:.1f} s",
            floor=f"{len(gif) / len(shown) / 1024:.0f} kB a frame",
            target="< 8 MB (Discord's upload limit)", ok=len(gif) < UPLOAD_LIMIT),
        Row(figure=f"HTML page of the same game ({len(shown)} whole maps, tiled)",
            measured=f"{len(page) / 1e6:.2f} MB in {page_time:.1f} s",
            floor=f"{len(page) / len(shown) / 1024:.0f} kB a map", target="(info)", ok=None),
        Row(figure="another channel's orders while that page is built in the worker for long drawings "
                   "(reply p50 / p99, orders answered a second)",
            measured=f"{ms(percentile(worker_lag.times, 50))} / {ms(percentile(worker_lag.times, 99))}, "
                     f"{worker_lag.rate:.0f}/s",
            floor=f"in a thread of the bot: {ms(percentile(thread_lag.times, 50))} / "
                  f"{ms(percentile(thread_lag.times, 99))}, {thread_lag.rate:.0f}/s",
            target="p99 ≤ 300 ms (a text reply)", ok=percentile(worker_lag.times, 99) <= 0.300),
    ]


async def lagging(job: Awaitable[tuple[str, bytes]], other: Channel) -> tuple[tuple[str, bytes], "Answered"]:
    """``job``'s result, and how long each order of another channel's game (``other``) took
    to be answered while it ran (the orders are what a busy bot does meanwhile)."""
    replies: list[float] = []
    begun = time.perf_counter()
    task = asyncio.ensure_future(job)
    while not task.done():
        inv = await other.next_order()
        if inv is None:
            await other.restart()
            continue
        start = time.perf_counter()
        await other.service.handle(inv)
        replies.append(time.perf_counter() - start)
        await asyncio.sleep(0.005)  # a player's pace, not a flood: the page's drawing goes on
    rate = len(replies) / (time.perf_counter() - begun)
    return await task, Answered(times=replies or [0.0], rate=rate)


@dataclass
class Answered:
    """Another channel's orders answered while a long job ran: each reply's time, and how
    many a second."""

    times: list[float]
    rate: float


if __name__ == "__main__":
    import asyncio
    import tempfile

    from bench.stats import table

    with tempfile.TemporaryDirectory() as tmp:
        print(table(asyncio.run(measure(Path(tmp), "rr"))))
