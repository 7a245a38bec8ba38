"""Autocomplete answer time: every option of every order, with a live game mid-play."""

from __future__ import annotations

import time
from pathlib import Path

from bot.autoplay import Channel, order_options
from bench import dbs
from bench.orderpath import order_latencies
from bench.stats import Row, ms, percentile
from bot.config import Settings
from bot.models import Invocation
from bot.service import Service
from rules.core import registry


async def queries(channel: Channel) -> list[tuple[Invocation, str]]:
    """Two autocomplete queries per option of every order of the system, as a player types
    a legal order's value (its first key, then the whole of it; issue 25: the list is
    filtered before it is cut), plus the ``/game`` options that complete."""
    game = await channel.service.games.load(channel.channel)
    assert game is not None
    side = (game.system.waiting_on(game.state) or list(game.system.sides))[0]
    legal = {a.name: order_options(a) for a in game.system.legal_actions(game.state, side)}
    out: list[tuple[Invocation, str]] = []
    for action in game.system.actions:
        typed = legal.get(action.name, {})
        for spec in action.options():
            value = str(typed.get(spec.name, ""))
            for keys in {value[:1], value}:
                options = {k: v for k, v in typed.items() if k != spec.name}
                options[spec.name] = keys
                inv = channel.invocation(channel.user(side), [channel.system_key, action.name],
                                         options)
                out.append((inv, spec.name))
    for command, focused in ((["game", "join"], "side"), (["game", "help"], "order"),
                             (["game", "new"], "scenario"), (["mod", "seat"], "side")):
        out.append((channel.invocation(channel.user(side), command, {focused: ""}), focused))
    return out


async def measure(workdir: Path, system_key: str, rounds: int) -> Row:
    """The autocomplete row of one system."""
    service = await Service.open(Settings(db=dbs.target(workdir, f"complete-{system_key}"),
                                          snapshot_dir=workdir / "snaps"))
    try:
        channel = Channel(service, system_key, "complete")
        await channel.open()
        times: list[float] = []
        for _ in range(rounds):
            await order_latencies(service, channel, 3)  # move the game on between rounds
            for inv, focused in await queries(channel):
                start = time.perf_counter()
                await service.autocomplete(inv, focused)
                times.append(time.perf_counter() - start)
    finally:
        await service.close()
    p99 = percentile(times, 99)
    return Row(
        figure=f"autocomplete {system_key}, {len(times):,} queries (p99)",
        measured=f"{ms(p99)} (median {ms(percentile(times, 50))})",
        floor="—",
        target="p99 ≤ 50 ms",
        ok=p99 <= 0.050,
    )


async def measure_all(workdir: Path, rounds: int) -> list[Row]:
    """One autocomplete row per registered system: each is held to the same p99 (issue 25)."""
    return [await measure(workdir, key, rounds) for key in sorted(registry.load_all())]
