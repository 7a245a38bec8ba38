"""What a player waits for, per system (issue 41): an order and its focus picture, in CPU,
against that picture's own PNG-encode floor; the whole map against its floor; the CPU of an
order alone with the game cached, and of an order whose game is not in the cache (cold).

Everything through the real :class:`~bot.service.Service` on a real SQLite file: an order
is ``Service.handle``, its picture ``Service.attach_snapshot`` (what the Discord adapter
calls), both on this process's CPU clock, and the picture's drawing on its render
worker's (``/proc/<pid>/task/*/schedstat``, nanoseconds: the worker is another process, so
this process's clock does not see it).  The floor is
Pillow's bare PNG encode of the finished picture itself, decoded, so it compresses the very
same pixels; the whole map is drawn by the render worker from the same games' views, as
the service draws a turn's first map.  Orders
alternate with the cold ones (the game forgotten first), so a slow minute weighs on both.

Run alone: ``.venv/bin/python -m bench.picturecost [orders]``.
"""

from __future__ import annotations

import asyncio
import io
import sys
import time
from pathlib import Path
from typing import Any

from PIL import Image

from bench import dbs
from bench.stats import Row, median, ms
from bot.autoplay import Channel
from bot.config import Settings
from bot.renderworker import DrawRequest
from bot.service import Service
from rules.core.registry import load_all

#: Every system measured, Raid and Riposte first.
SYSTEMS = ("rr", "raiders", "commando", "skirmish", "mak")
#: The focus pictures a system's row reads at least (its median over fewer moved by ±2×).
MIN_FOCUS = 12


def workers_cpu(service: Service) -> float:
    """CPU seconds the render workers of ``service`` have run so far, every thread of each
    (the scheduler's own count, in nanoseconds: ``/proc`` ticks are too coarse for one
    picture)."""
    total = 0
    for pid in service.pictures.pids():
        for task in Path(f"/proc/{pid}/task").glob("*/schedstat"):
            try:
                total += int(task.read_text().split()[0])
            except (OSError, ValueError, IndexError):
                continue  # a thread that ended meanwhile
    return total / 1e9


def encode_floor(png: bytes) -> float:
    """CPU seconds of Pillow's bare PNG encode of the picture ``png`` (decoded first)."""
    image = Image.open(io.BytesIO(png))
    image.load()
    start = time.process_time()
    image.save(io.BytesIO(), format="PNG")
    return time.process_time() - start


class Figures:
    """The samples of one system's run (seconds)."""

    def __init__(self) -> None:
        self.focus: list[float] = []  # order + its focus picture / the picture's floor
        self.whole: list[float] = []  # whole map / its floor
        self.cached: list[float] = []  # CPU of an order, game cached
        self.cold: list[float] = []  # CPU of an order, game not cached
        self.pictures = 0  # orders that posted a picture


async def _order(service: Service, channel: Channel, figures: Figures, cold: bool) -> bool:
    """One order (cold: its game forgotten first); its picture drawn when it posts one.
    False when the game ended (a new one is opened, nothing counted)."""
    inv = await channel.next_order()
    if inv is None:
        await channel.restart()
        return False
    if cold:
        service.games.forget(channel.channel)
    start = time.process_time()
    reply = await service.handle(inv)
    taken = time.process_time() - start
    if reply.error:
        raise RuntimeError(f"a legal order was refused: {inv.command} {inv.options}: {reply.text}")
    (figures.cold if cold else figures.cached).append(taken)
    if not reply.snapshot_key:
        return True
    figures.pictures += 1
    if figures.pictures % 2:  # every other picture: the whole map of the state instead
        await _whole_map(service, channel, figures)
        return True
    start, drawing = time.process_time(), workers_cpu(service)
    drawn = await service.attach_snapshot(reply)
    picture = time.process_time() - start + workers_cpu(service) - drawing
    png = drawn.attachments[-1].data if drawn.attachments else b""
    if png and not png_is_whole(drawn):
        figures.focus.append((taken + picture) / encode_floor(png))
    return True


async def _whole_map(service: Service, channel: Channel, figures: Figures) -> None:
    """The whole map of the channel's game drawn as the service draws a turn's first map:
    its view built and kept (``bot/seen.py``: the next focus picture compares with it), the
    picture drawn in a render worker; this process's CPU (the view, the request pickled)
    and the worker's together against the PNG's floor, as the focus picture is counted.

    Not ``render.snapshot`` in this process: the bot never draws in its own process, and a
    whole map drawn here left the step's view unkept (the next focus picture built it
    again) and this process's caches cold for the next order, which the bot's own process
    does not meet from a whole map (docs/benchmark.md, 6 December)."""
    game = await service.games.load(channel.channel)
    if game is None:
        return
    start, drawing = time.process_time(), workers_cpu(service)
    view = game.system.view(game.state)
    service.pipeline.seen.keep(game.row.id, game.row.head_seq, view)
    png = await asyncio.wrap_future(service.pictures.offer(DrawRequest(view=view, whole=True)).future)
    taken = time.process_time() - start + workers_cpu(service) - drawing
    figures.whole.append(taken / encode_floor(png))


def png_is_whole(reply: Any) -> bool:
    """Whether the reply's picture is the whole map (a turn's first step)."""
    return any(a.filename.endswith("-map.png") for a in reply.attachments)


async def measure_system(workdir: Path, key: str, orders: int) -> Figures:
    """Play ``orders`` orders of ``key`` (every third cold); of the pictures they post,
    every other one is the focus picture the service attaches, the others the whole map."""
    settings = Settings(db=dbs.target(workdir, f"pictures-{key}"), snapshot_dir=workdir / f"snaps-{key}")
    service = await Service.open(settings)
    figures = Figures()
    try:
        channel = Channel(service, key, f"pictures-{key}")
        await channel.open()
        for k in range(10):  # warm-up: imports, static layers, caches
            await _order(service, channel, Figures(), cold=k % 3 == 2)
        k = 0
        # Commando and the skirmish post a picture every 10-150 orders, most of them a turn's
        # whole map: five focus pictures read ±2× between runs of the same tree, so play on
        # until MIN_FOCUS of them (bounded, for a system that posts none).
        while len(figures.cached) < orders or (len(figures.focus) < MIN_FOCUS and k < 40 * orders):
            if await _order(service, channel, figures, cold=k % 3 == 2):
                k += 1
    finally:
        await service.close()
    return figures


async def measure(workdir: Path, orders: int) -> list[Row]:
    """One row per system, and the rr order rows."""
    rows: list[Row] = []
    registered = load_all()
    for key in SYSTEMS:
        if key not in registered:
            continue
        f = await measure_system(workdir, key, orders)
        focus, whole = median(f.focus) if f.focus else float("nan"), median(f.whole) if f.whole else float("nan")
        cached, cold = median(f.cached), median(f.cold)
        rows.append(Row(
            figure=f"{key}: order + focus picture / whole map, each against its PNG-encode floor "
                   f"({len(f.focus)} pictures, median CPU)",
            measured=f"{focus:.1f}× / {whole:.1f}×",
            floor="Pillow PNG encode of each finished picture, decoded",
            target="≤ 3× / ≤ 2.5×", ok=focus <= 3 and whole <= 2.5,
        ))
        rows.append(Row(
            figure=f"{key}: CPU per order, game cached / not cached ({len(f.cached)} / {len(f.cold)} orders, median)",
            measured=f"{ms(cached)} / {ms(cold)} ({cold / cached:.2f}×)", floor="—",
            target=("≤ 1.2 ms / " if key == "rr" else "") + "cold ≤ 1.3× cached",
            ok=(cached <= 0.0012 or key != "rr") and cold <= 1.3 * cached,
        ))
    return rows


if __name__ == "__main__":
    import tempfile

    from bench.stats import table
    from bot.runtime import tune_gc

    tune_gc()
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    with tempfile.TemporaryDirectory(prefix="referee-pictures-") as tmp:
        print(table(asyncio.run(measure(Path(tmp), count))))
