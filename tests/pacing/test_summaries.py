"""Every side's "since your last order", carried along with the game (issue 23, point 3):
after every order, rollback, reroll and a restart it equals what a read of the whole log
says, and a ping's lines come from it."""

from __future__ import annotations

import random

import pytest

from bot.autoplay import Channel
from bot.config import Settings
from bot.service import Service
from bot.store import StepRow
from bot.summaries import MOST_LINES, bullet, fresh, load, rebuild


def from_the_log(steps: list[StepRow], side: str, head: int) -> list[str]:
    """The reference: the active line up to ``head``, read whole, from ``side``'s last
    order on (what the ping read from the log before issue 23)."""
    active = [s for s in steps if s.reverted_by is None and s.seq <= head]
    mine = [s.seq for s in active if s.side == side and s.action is not None]
    start = mine[-1] if mine else -1
    lines = [bullet(s) for s in active if s.seq > start and s.kind != "setup"]
    if len(lines) > MOST_LINES:
        return [f"… {len(lines) - MOST_LINES} earlier steps (/game log)"] + lines[-MOST_LINES:]
    return lines


async def check(service: Service, channel: str) -> None:
    """The cached summaries equal a read of the log, for every side."""
    game = await service.games.load(channel)
    assert game is not None
    steps = await service.store.steps(game.row.id)
    for side in game.system.sides:
        summary = game.summaries.of(side)
        assert summary.text() == from_the_log(steps, side, game.row.head_seq), side
        # Whether the side has ordered on the active line, where it is known (a summary
        # rebuilt from a window that did not reach the start leaves it None).
        if summary.ordered is not None:
            assert summary.ordered == ordered_on_the_line(steps, side, game.row.head_seq), side


def ordered_on_the_line(steps: list[StepRow], side: str, head: int) -> bool:
    """Whether ``side`` gave an order on the active line up to ``head``."""
    return any(s.side == side and s.action is not None for s in steps
               if s.reverted_by is None and s.seq <= head)


async def moderate(channel: Channel, command: str, **options: object) -> None:
    """A moderator's command, which must be accepted."""
    reply = await channel.send(channel.invocation(channel.moderator, ["mod", command],
                                                  dict(options), moderator=True))
    assert not reply.error, reply.text


@pytest.mark.parametrize("key", ["rr", "raiders", "commando"])
async def test_summaries_follow_orders_rollbacks_rerolls_and_restarts(settings: Settings, key: str) -> None:
    service = await Service.open(settings)
    channel = Channel(service, key, f"sum-{key}", rng=random.Random(5))
    await channel.open()
    try:
        for n in range(60):
            _, reply = await channel.order()
            assert not reply.error, reply.text
            await check(service, channel.channel)
            if n in (20, 45):
                game = await service.games.load(channel.channel)
                assert game is not None
                if game.row.head_seq > 7:  # (a game that ended was started afresh)
                    await moderate(channel, "rollback", to=game.row.head_seq - 6, reason="test")
                await check(service, channel.channel)
            if n in (30, 50) and await service.store.last_dice_step(
                    (await service.games.load(channel.channel)).row.id) is not None:  # type: ignore[union-attr]
                await moderate(channel, "reroll", reason="test")
                await check(service, channel.channel)
        game = await service.games.load(channel.channel)
        assert game is not None
        kept = game.summaries
    finally:
        await service.close()
    # A restart (or a second process) reads them back as stored with the head.
    again = await Service.open(settings)
    try:
        game = await again.games.load(channel.channel)
        assert game is not None and game.summaries == kept
        await check(again, channel.channel)
    finally:
        await again.close()


async def test_a_game_stored_before_the_summaries_gets_them_from_its_log(settings: Settings) -> None:
    """Migration 0008 leaves old games' summaries NULL: they are rebuilt on first open."""
    service = await Service.open(settings)
    channel = Channel(service, "rr", "sum-old", rng=random.Random(2))
    await channel.open()
    try:
        for _ in range(30):
            await channel.order()
        game = await service.games.load(channel.channel)
        assert game is not None
        async with service.store.transaction() as db:
            db.execute("UPDATE games SET summaries_json = NULL WHERE id = ?", (game.row.id,))
        service.games.forget(channel.channel)
        await check(service, channel.channel)
    finally:
        await service.close()


def _row(seq: int, side: str | None, kind: str = "order") -> StepRow:
    return StepRow(game_id=1, seq=seq, parent_seq=seq - 1 if seq else None, kind=kind, side=side,
                   action={"name": "wait", "options": {}} if kind == "order" else None,
                   state_json="{}")


def test_a_side_that_has_not_ordered_is_told_so_and_unknown_stays_unknown() -> None:
    """A ping said "Since @bob's last order:" to a bob who had given none: a side's summary
    knows whether it has ordered (from the start, every step is counted for it)."""
    start = fresh(["red", "blue"])
    after = start.after([_row(0, None, "setup"), _row(1, "red")])
    assert after.of("blue").from_start and after.of("blue").count == 1
    assert after.of("red").ordered is True and not after.of("red").from_start
    assert after.after([_row(2, "blue")]).of("blue").ordered is True
    # Rebuilt from a window that does not reach the start: blue may have ordered before it.
    window = [_row(5, "red"), _row(6, "red")]
    rebuilt = rebuild(["red", "blue"], window, 6)
    assert rebuilt.of("blue").ordered is None and not rebuilt.of("blue").from_start
    assert rebuild(["red", "blue"], [_row(0, None, "setup"), _row(1, "red")], 1).of("blue").from_start
    # Summaries stored before this was kept read back as not known (said as before).
    old = load('{"sides": {"blue": {"count": 2, "lines": ["• a", "• b"]}}}')
    assert old is not None and old.of("blue").ordered is None
