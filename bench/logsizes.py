"""Opening a game and rolling back 1,000 steps, as the log grows from 100 to 10,000 steps.

The logs are built quickly: the steps of a real game played through the service are copied,
renumbered, into each game in one transaction through the store's own :class:`Writer`, so
every row holds a realistic state, dice and events.
"""

from __future__ import annotations

import time
from pathlib import Path

from bot import chain, record
from bot.autoplay import Channel
from bench import dbs
from bench.orderpath import order_latencies
from bench.stats import Row, median, ms
from bot.config import Settings
from bot.service import Service
from bot.store import StepRow

ROLLBACK = 1000
OPEN_TARGET = 0.020
ROLLBACK_TARGET = 0.050


async def sample_steps(service: Service, channel: Channel, orders: int) -> list[StepRow]:
    """The order steps of a real game of ``orders`` orders (their states, dice and events)."""
    await channel.open()
    await order_latencies(service, channel, orders)
    game = await service.games.load(channel.channel)
    assert game is not None
    steps = [s for s in await service.store.steps(game.row.id) if s.kind == "order"]
    return steps or await service.store.steps(game.row.id)


async def build_log(service: Service, system_key: str, channel: str, samples: list[StepRow], size: int) -> None:
    """A game in ``channel`` with a setup step and ``size`` order steps, head at the last,
    sealed in a chain of their own (issue 45: the bot holds a game whose records fail their
    hashes, so steps copied with their first game's hashes would open as damaged)."""
    first = samples[0]
    fmt = chain.CHAIN_FORMAT_2
    rows = [first.model_copy(update={
        "game_id": 0, "seq": 0, "parent_seq": None, "kind": "setup", "interaction_id": None})]
    rows += [samples[seq % len(samples)].model_copy(update={
        "game_id": 0, "seq": seq, "parent_seq": seq - 1, "interaction_id": None})
        for seq in range(1, size + 1)]
    async with service.store.transaction() as db:
        game_id = await db.create_game(
            channel_id=channel, guild_id="bench", system=system_key, scenario="bench", options={},
            seed=b"s" * 32, seed_hash="bench", created_by="bench", chain_format=fmt,
        )
        for side in registry_sides(service, system_key):
            db.set_seat(game_id, side, f"{channel}-{side}", f"{channel}-{side}")
        genesis = chain.genesis(system_key, "bench", {}, "bench", fmt=fmt)
        sealed, head = record.seal_steps([r.model_copy(update={"game_id": game_id}) for r in rows], genesis)
        for row in sealed:
            db.insert_step(row)
        db.set_head(game_id, size, chain_head=head, chain_count=len(sealed))


async def built_logs(workdir: Path, system_key: str, prefix: str, sizes: tuple[int, ...]) -> Settings:
    """A database with one game per size (channel ``<prefix>-<size>``) of that many steps,
    copied from a real game; the settings to open it with."""
    settings = Settings(db=dbs.target(workdir, prefix), snapshot_dir=workdir / "snaps")
    service = await Service.open(settings)
    try:
        samples = await sample_steps(service, Channel(service, system_key, "sample"), 40)
        for size in sizes:
            await build_log(service, system_key, f"{prefix}-{size}", samples, size)
    finally:
        await service.close()
    return settings


def registry_sides(service: Service, system_key: str) -> tuple[str, ...]:
    """The sides of a system as the service knows it."""
    return service.systems[system_key].sides


async def measure(workdir: Path, system_key: str, sizes: tuple[int, ...], runs: int) -> list[Row]:
    """One row per log size: cold open and a rollback of 1,000 steps (or the whole log)."""
    settings = await built_logs(workdir, system_key, "log", sizes)

    service = await Service.open(settings)  # a fresh process would start like this
    opens: dict[int, list[float]] = {}
    rollbacks: dict[int, list[float]] = {}
    try:
        for size in sizes:
            name = f"log-{size}"
            channel = Channel(service, system_key, name)
            times = []
            for _ in range(runs):
                service.games.forget(name)
                start = time.perf_counter()
                game = await service.games.load(name)
                times.append(time.perf_counter() - start)
                assert game is not None and game.row.head_seq == size
            opens[size] = times
            back_to = max(0, size - ROLLBACK)
            times = []
            for _ in range(runs):
                reply, elapsed = await _timed(channel, ["mod", "rollback"], {"to": back_to, "reason": "bench"})
                if reply.error:
                    raise RuntimeError(f"rollback refused: {reply.text}")
                times.append(elapsed)
                reply, _ = await _timed(channel, ["mod", "rollback"], {"to": size, "reason": "bench"})
                if reply.error:
                    raise RuntimeError(f"roll forward refused: {reply.text}")
            rollbacks[size] = times
    finally:
        await service.close()

    smallest = min(sizes)
    rows = []
    for size in sizes:
        open_med, back_med = median(opens[size]), median(rollbacks[size])
        # Flat: the biggest log costs at most twice the smallest (plus 1 ms of noise).
        flat_open = open_med <= 2 * median(opens[smallest]) + 0.001
        flat_back = size <= ROLLBACK or back_med <= 2 * median(rollbacks[min(s for s in sizes if s >= ROLLBACK)]) + 0.001
        steps_back = min(size, ROLLBACK)
        rows.append(Row(
            figure=f"log of {size:,} steps: open / rollback of {steps_back:,}",
            measured=f"{ms(open_med)} / {ms(back_med)}",
            floor="—",
            target="open ≤ 20 ms, rollback ≤ 50 ms, flat",
            ok=open_med <= OPEN_TARGET and back_med <= ROLLBACK_TARGET and flat_open and flat_back,
        ))
    return rows


async def _timed(channel: Channel, command: list[str], options: dict) -> tuple:
    inv = channel.invocation(channel.moderator, command, options, moderator=True)
    start = time.perf_counter()
    reply = await channel.send(inv)
    return reply, time.perf_counter() - start
