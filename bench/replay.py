"""The step-through replay (issue 19, item 5): ``/game replay`` of a 100-order Tannenbruck
game (a GIF, a frame per snapshot) against Discord's 8 MB upload limit, and the HTML page
of the same game (every whole map, cut into shared tiles) against the PNGs it replaces.

Both through the real service on a real SQLite file; the times are wall-clock and include
drawing every picture (the GIF: the phone-width focus pictures; the page: the whole maps).
"""

from __future__ import annotations

import random
import time
from pathlib import Path

from bench.stats import Row
from bot import replaycmds
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
        start = time.perf_counter()
        _, page = await export_html(service.store, game.row.id)
        page_time = time.perf_counter() - start
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
    ]


if __name__ == "__main__":
    import asyncio
    import tempfile

    from bench.stats import table

    with tempfile.TemporaryDirectory() as tmp:
        print(table(asyncio.run(measure(Path(tmp), "rr"))))
