"""Pictures beside play (issue 41, point 5): channel A's autocomplete and text replies while
other channels offer pictures at 10, 30 and 60 per second, drawn in the render workers
(``bot/renderpool.py``) and, in the same minutes, in a thread as before (``asyncio.to_thread``
around the renderer); pictures per second per worker; what happens past capacity (pictures
refused, pictures that followed their reply, the longest a reply waited for its picture);
and the workers' resident memory, each.

The pictures offered are rr focus pictures of a seeded game (:func:`rules.core.samples.pictures`),
offered as the service offers them: a picture a free worker starts is waited for, one queued
behind others at most ``render_wait``; a reply's wait is measured from its offer to its
picture, or to the bound when it went without.
"""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path
from typing import Any, Awaitable, Callable

from bench import dbs
from bench.autocomplete import queries
from bench.memory import vm_kb
from bench.stats import Row, ms, percentile
from bot.autoplay import Channel
from bot.config import Settings
from bot.renderpool import RenderBusy
from bot.renderworker import DrawRequest
from bot.service import Service
from rules.core import registry
from rules.core.samples import pictures

#: The targets of issue 41.
AUTOCOMPLETE_P99 = 0.050
TEXT_P99 = 0.300


class Offered:
    """What the pictures offered at one rate came to."""

    def __init__(self) -> None:
        self.waits: list[float] = []
        self.refused = 0
        self.followed = 0
        self.drawn = 0


async def offer_pool(service: Service, view: Any, tally: Offered) -> None:
    """One picture through the worker pool, as ``Service.attach_snapshot`` waits for it."""
    started = time.perf_counter()
    try:
        ticket = service.pictures.offer(DrawRequest(view=view))
    except RenderBusy:
        tally.refused += 1
        tally.waits.append(time.perf_counter() - started)
        return
    png = asyncio.wrap_future(ticket.future)
    if ticket.queued:
        done, _ = await asyncio.wait({png}, timeout=service.settings.render_wait)
        if not done:
            tally.followed += 1
            tally.waits.append(time.perf_counter() - started)
            await png
            tally.drawn += 1
            return
    await png
    tally.drawn += 1
    tally.waits.append(time.perf_counter() - started)


async def offer_thread(service: Service, view: Any, tally: Offered) -> None:
    """One picture drawn in a thread of this process (the path before issue 41)."""
    from render import focus  # noqa: PLC0415

    started = time.perf_counter()
    await asyncio.to_thread(lambda: focus(view).png)
    tally.drawn += 1
    tally.waits.append(time.perf_counter() - started)


async def channel_a(service: Service, channel: Channel, seconds: float) -> tuple[list[float], list[float]]:
    """Channel A for ``seconds``: an autocomplete and a ``/game status`` every 50 ms."""
    asked = await queries(channel)
    side = next(iter(channel.service.systems[channel.system_key].sides))
    status = channel.invocation(channel.user(side), ["game", "status"])
    completes: list[float] = []
    texts: list[float] = []
    end = time.perf_counter() + seconds
    n = 0
    while time.perf_counter() < end:
        inv, focused = asked[n % len(asked)]
        start = time.perf_counter()
        await service.autocomplete(inv, focused)
        completes.append(time.perf_counter() - start)
        start = time.perf_counter()
        await service.handle(status)
        texts.append(time.perf_counter() - start)
        n += 1
        await asyncio.sleep(0.05)
    return completes, texts


async def under_load(service: Service, channel: Channel, views: list[Any], rate: float, seconds: float,
                     offer: Callable[[Service, Any, Offered], Awaitable[None]]) -> tuple[list[float], list[float], Offered]:
    """Channel A while pictures are offered at ``rate`` per second (Poisson arrivals)."""
    tally = Offered()
    rng = random.Random(41)
    pending: set[asyncio.Task[None]] = set()

    async def others() -> None:
        end = time.perf_counter() + seconds
        n = 0
        while time.perf_counter() < end:
            task = asyncio.ensure_future(offer(service, views[n % len(views)], tally))
            pending.add(task)
            task.add_done_callback(pending.discard)
            n += 1
            await asyncio.sleep(rng.expovariate(rate))

    load = asyncio.ensure_future(others())
    completes, texts = await channel_a(service, channel, seconds)
    await load
    await asyncio.gather(*pending)
    return completes, texts, tally


async def measure(workdir: Path, seconds: float, rates: tuple[float, ...] = (10, 30, 60)) -> list[Row]:
    """The rows of issue 41 point 5 (see the module doc)."""
    service = await Service.open(Settings(db=dbs.target(workdir, "pictures"), snapshot_dir=workdir / "snaps"))
    rows: list[Row] = []
    try:
        channel = Channel(service, "rr", "pictures-a")
        await channel.open()
        views = pictures(registry.get("rr"), 12)
        from render import focus  # noqa: PLC0415 - the thread path's renderer, loaded before timing

        focus(views[0])
        workers = service.pictures.workers
        rows.append(await throughput(service, views, workers))
        for rate in rates:
            pool = await under_load(service, channel, views, rate, seconds, offer_pool)
            thread = await under_load(service, channel, views, rate, seconds, offer_thread)
            rows += load_rows(rate, pool, thread, service.settings.render_wait)
        per = [vm_kb("VmRSS", pid) / 1024 for pid in service.pictures.pids()]
        rows.append(Row(figure=f"render workers' RSS ({len(per)} worker(s))",
                        measured=", ".join(f"{mb:.0f} MB" for mb in per), floor="—",
                        target="with 500 cached games ≤ 600 MB in all", ok=None))
    finally:
        await service.close()
    return rows


async def throughput(service: Service, views: list[Any], workers: int) -> Row:
    """Pictures per second per worker: as many offered as there are workers, back to back."""
    count = max(12, 4 * workers)
    start = time.perf_counter()
    done = 0
    while done < count:
        batch = [asyncio.wrap_future(service.pictures.offer(DrawRequest(view=views[(done + k) % len(views)])).future)
                 for k in range(workers)]
        await asyncio.gather(*batch)
        done += workers
    rate = done / (time.perf_counter() - start) / workers
    return Row(figure="rr focus pictures per second per worker", measured=f"{rate:.1f}/s",
               floor="—", target="(info)", ok=None)


def load_rows(rate: float, pool: tuple[list[float], list[float], Offered],
              thread: tuple[list[float], list[float], Offered], bound: float) -> list[Row]:
    """Channel A's figures at one rate, workers beside the thread path."""
    (pc, pt, po), (tc, tt, to) = pool, thread
    ac, tx = percentile(pc, 99), percentile(pt, 99)
    ratio_a = percentile(tc, 99) / ac if ac else 0.0
    ratio_t = percentile(tt, 99) / tx if tx else 0.0
    longest = max(po.waits, default=0.0)
    return [
        Row(figure=f"channel A autocomplete, others offer {rate:.0f} pictures/s",
            measured=f"p50 {ms(percentile(pc, 50))}, p99 {ms(ac)}",
            floor=f"thread path p99 {ms(percentile(tc, 99))} ({ratio_a:.1f}×)",
            target="p99 ≤ 50 ms", ok=ac <= AUTOCOMPLETE_P99),
        Row(figure=f"channel A text reply, others offer {rate:.0f} pictures/s",
            measured=f"p50 {ms(percentile(pt, 50))}, p99 {ms(tx)}",
            floor=f"thread path p99 {ms(percentile(tt, 99))} ({ratio_t:.1f}×)",
            target="p99 ≤ 300 ms", ok=tx <= TEXT_P99),
        Row(figure=f"pictures offered at {rate:.0f}/s: drawn / followed their reply / refused",
            measured=f"{po.drawn} / {po.followed} / {po.refused}; longest reply wait {ms(longest)}",
            floor=f"thread path: all {to.drawn} drawn, longest wait {ms(max(to.waits, default=0.0))}",
            target=f"no reply waits past its own picture or {bound:.1f} s behind others", ok=None),
    ]
