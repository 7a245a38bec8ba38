"""Views (picture models) built per picture posted, in every system (issue 23: at most one,
the picture's own).  Robots play each system's first scenario through the real service;
every reply with a map is drawn as the Discord adapter draws it (``attach_snapshot``) and
the views it built are counted by wrapping ``GameSystem.view``.  The first few pictures are
drawn uncounted: the orders before them drew nothing, as after a restart."""

from __future__ import annotations

import random
from pathlib import Path

from bench import dbs
from bench.orderpath import counted_views
from bench.stats import Row
from bot.autoplay import Channel
from bot.config import Settings
from bot.service import Service
from rules.core import registry

#: The five systems under rules/ (the test-only duel is not a player's game).
SYSTEMS = ("commando", "mak", "raiders", "rr", "skirmish")


async def per_picture(workdir: Path, key: str, pictures: int, warm: int = 5) -> tuple[int, int, int]:
    """``(pictures, views, orders)``: orders played until ``pictures`` maps were drawn after
    ``warm`` uncounted ones, and the views those maps built."""
    service = await Service.open(Settings(db=dbs.target(workdir, f"views-{key}"), snapshot_dir=workdir / "snaps"))
    try:
        channel = Channel(service, key, f"views-{key}", rng=random.Random(3))
        await channel.open()
        drawn = views = orders = 0
        while drawn < pictures + warm and orders < 60 * (pictures + warm):
            inv = await channel.next_order()
            if inv is None:
                await channel.restart()
                continue
            reply = await service.handle(inv)
            orders += 1
            if reply.snapshot_key:
                with counted_views(service, key) as count:
                    await service.attach_snapshot(reply)
                drawn += 1
                views += count[0] if drawn > warm else 0
        return drawn - warm, views, orders
    finally:
        await service.close()


async def measure(workdir: Path, pictures: int) -> Row:
    """One row: views per picture of each system."""
    found = {key: await per_picture(workdir, key, pictures) for key in SYSTEMS if key in registry.load_all()}
    above = [key for key, (drawn, views, _) in found.items() if views > drawn]
    return Row(
        figure=f"views built per picture posted, every system ({pictures} pictures each, after 5)",
        measured=", ".join(f"{key} {views / max(1, drawn):.2f}" for key, (drawn, views, _) in found.items()),
        floor="—", target="≤ 1 (the picture's own)", ok=not above,
        note=f"above 1: {', '.join(above)} (a step that drew no picture viewed: no GameSystem.seen"
             " or fired of its own)" if above else "")
