"""Concurrency: a repeated delivery is applied once; simultaneous orders serialize; many
channels at once leave a sound log (no step lost, duplicated or interleaved)."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

import pytest

from bot.autoplay import Channel, pick_system, play, schedule
from rules.core import registry
from tests.platform.duel import DUEL
from bot.logcheck import check_log, integrity, query, table_rows
from bot.config import Settings
from bot.service import Service
from bot.store import Store
from tests.reliability.conftest import SYSTEM


async def head(service: Service, channel: str) -> tuple[int, str]:
    """``(head seq, state JSON)`` of a channel's game, read from SQLite."""
    game = await service.store.active_game(channel)
    assert game is not None
    return game.head_seq, game.state_json


async def test_same_interaction_twice_at_once_is_applied_once(service: Service, channel: Channel, db_path: Path) -> None:
    """Discord may deliver one interaction twice; both answers are the same single step."""
    inv = await channel.next_order()
    assert inv is not None
    before, _ = await head(service, channel.channel)
    first, second = await asyncio.gather(service.handle(inv), service.handle(inv.model_copy()))
    assert not first.error, first.text
    assert first == second
    after, _ = await head(service, channel.channel)
    assert after == before + 1
    assert check_log(db_path, {inv.interaction_id: first.text}) == []


async def test_same_interaction_again_later_is_answered_from_the_log(service: Service, channel: Channel) -> None:
    """A late redelivery gets the stored answer and changes nothing."""
    inv = await channel.next_order()
    assert inv is not None
    first = await service.handle(inv)
    seq, state = await head(service, channel.channel)
    again = await service.handle(inv.model_copy())
    assert again == first
    assert await head(service, channel.channel) == (seq, state)


async def test_both_sides_ordering_at_the_same_instant_serialize(service: Service, channel: Channel, db_path: Path) -> None:
    """Every side sends two orders at once, ten times over: each is applied on the state the
    one before left (parent chain intact) or refused with nothing changed."""
    for _ in range(10):
        game = await service.games.load(channel.channel)
        assert game is not None
        if game.system.result(game.state) is not None:
            await channel.restart()
            game = await service.games.load(channel.channel)
            assert game is not None
        invs = []
        for side in game.system.sides:
            orders = [a for a in game.system.legal_actions(game.state, side) if not a.read_only]
            # Two orders per side where it has them: the second must be judged on the state
            # the first left, never on the same old state.
            for action in channel.rng.sample(orders, min(2, len(orders))):
                invs.append(channel.invocation(channel.user(side), [SYSTEM, action.name],
                                               action.model_dump(mode="json", exclude_defaults=True)))
        seq_before, _ = await head(service, channel.channel)
        replies = await asyncio.gather(*(service.handle(i) for i in invs))
        applied = [r for r in replies if not r.error]
        assert applied, [r.text for r in replies]
        seq_after, _ = await head(service, channel.channel)
        assert seq_after == seq_before + len(applied)
    assert check_log(db_path) == []


async def test_many_channels_at_once_leave_a_sound_log(service: Service, db_path: Path) -> None:
    """100 channels each sending 6 orders as fast as answered: every acknowledged order is
    its own step, each game's steps form one unbroken chain, and the head is the last.

    This caught a stale read: overlapping cursors on the store's reader connection kept one
    read transaction open, so a game re-read after a commit could come back one step old
    and the next order was applied to it (two children of one step).
    """
    tables = [Channel(service, SYSTEM, f"many-{i:03}", rng=random.Random(i)) for i in range(100)]
    await asyncio.gather(*(t.open() for t in tables))
    latencies: list[float] = []
    plan = schedule(len(tables), 6, None)
    start = time.perf_counter()
    async with asyncio.TaskGroup() as group:
        for table, due in zip(tables, plan):
            group.create_task(play(table, due, latencies, start))
    acknowledged = {iid: reply.text for t in tables for iid, reply in t.acknowledged}
    assert len(acknowledged) == 600
    assert check_log(db_path, acknowledged) == []
    assert integrity(db_path) == "ok"


def committed_head(path: Path, channel: str) -> tuple[int, int]:
    """``(game id, head seq)`` of a channel's game, read on a new connection (the truth)."""
    row = query(path, "SELECT id, head_seq FROM games WHERE channel_id = ? AND status = 'active'",
                (channel,))[0]
    return int(row[0]), int(row[1])


async def test_a_read_started_after_a_commit_sees_it(service: Service, channel: Channel, db_path: Path) -> None:
    """While orders commit, 20 tasks keep reading the game through the store: a read that
    starts after an order was acknowledged never returns the game as it was before it."""
    acknowledged = committed_head(db_path, channel.channel)
    stale: list[tuple[tuple[int, int], tuple[int, int]]] = []
    done = asyncio.Event()

    async def reader() -> None:
        while not done.is_set():
            floor = acknowledged
            game = await service.store.active_game(channel.channel)
            if game is None:  # between /game end and /game new
                continue
            if (game.id, game.head_seq) < floor:
                stale.append((floor, (game.id, game.head_seq)))

    async def writer() -> None:
        nonlocal acknowledged
        try:
            for _ in range(40):
                _, reply = await channel.order()
                assert not reply.error, reply.text
                acknowledged = committed_head(db_path, channel.channel)
        finally:
            done.set()

    await asyncio.gather(writer(), *(reader() for _ in range(20)))
    assert stale == []


async def test_the_store_reads_each_query_to_its_end_in_one_call(service: Service, channel: Channel) -> None:
    """A whole game's reads go through ``execute_fetchall``: no cursor is left open across
    an await, so no other task's read can pin an old snapshot on the shared reader."""
    if not isinstance(service.store, Store):
        pytest.skip("SQLite's shared reader connection; PostgreSQL reads on pooled connections")
    reader = service.store._reader

    async def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a read left a cursor open across an await")

    reader.execute = refuse  # type: ignore[method-assign]
    for _ in range(6):
        _, reply = await channel.order()
        assert not reply.error, reply.text
    for line in (["game", "status"], ["game", "log"], ["game", "export"]):
        reply = await channel.send(channel.invocation(channel.user(channel.system.sides[0]), line))
        assert not reply.error, reply.text
    game = await service.games.load(channel.channel)
    assert game is not None
    reply = await channel.send(channel.invocation(
        channel.moderator, ["mod", "rollback"], {"to": 1, "reason": "test"}, moderator=True))
    assert not reply.error, reply.text
    # ... and the rollback did what it says, read back through the same reader.
    game = await service.games.reload(channel.channel)
    assert game is not None and game.row.head_seq == 1
    audit = await service.store.audit(game.row.id)
    assert (audit[-1].action, audit[-1].reason, audit[-1].data["to"]) == ("rollback", "test", 1)
    assert [s.seq for s in await service.store.steps(game.row.id) if s.reverted_by is None] == [0, 1]



async def test_two_sides_both_entitled_to_act_at_once_serialize(db_path: Path) -> None:
    """On the ``duel`` test system red's turn order and blue's anytime order (D3) arrive at
    the same instant, twenty times: both are applied, one after the other, chain intact."""
    registry.register(DUEL)  # the test-only system, also when tests/reliability runs alone
    key, _ = pick_system("duel")
    service = await Service.open(Settings(db=db_path))
    try:
        channel = Channel(service, key, "both")
        await channel.open()
        for n in range(20):
            game = await service.games.load("both")
            assert game is not None
            if game.system.result(game.state) is not None:
                await channel.restart()
                game = await service.games.load("both")
                assert game is not None
            mover = game.system.waiting_on(game.state)[0]
            other = next(s for s in game.system.sides if s != mover)
            before = game.row.head_seq
            replies = await asyncio.gather(
                channel.send(channel.invocation(channel.user(mover), [key, "wait"])),
                channel.send(channel.invocation(channel.user(other), [key, "stance"],
                                                {"mode": "bold" if n % 2 else "careful"})),
            )
            assert [r.error for r in replies] == [False, False], [r.text for r in replies]
            assert (await head(service, "both"))[0] == before + 2
    finally:
        await service.close()
    assert check_log(db_path) == []


async def repeated(service: Service, channel: Channel, db_path: Path, inv, *, at_once: bool) -> None:
    """``inv`` delivered twice (one after the other, or both at once): one effect, one answer."""
    if at_once:
        first, second = await asyncio.gather(service.handle(inv), service.handle(inv.model_copy()))
        after = table_rows(db_path)
    else:
        first = await service.handle(inv)
        after = table_rows(db_path)
        second = await service.handle(inv.model_copy())
    assert not first.error, (inv.command, first.text)
    assert second.text == first.text, (inv.command, second.text)
    assert table_rows(db_path) == after, f"a repeated {inv.command} was applied twice"


@pytest.mark.parametrize("at_once", [False, True], ids=["later", "at-once"])
async def test_every_command_delivered_twice_is_applied_once(
        service: Service, channel: Channel, db_path: Path, at_once: bool) -> None:
    """Discord may deliver any interaction twice, not only orders: a repeated /mod reroll
    must not reroll twice, a repeated /game undo not undo two steps (issue 14)."""
    mod = channel.moderator
    game = await service.games.load(channel.channel)
    assert game is not None
    sides = game.system.sides
    send = lambda user, command, options=None, **kw: channel.invocation(user, command, options or {}, **kw)  # noqa: E731
    # Play until an order rolled dice, so there is something to reroll.
    for _ in range(60):
        _, reply = await channel.order()
        assert not reply.error, reply.text
        game = await service.games.load(channel.channel)
        assert game is not None
        if await service.store.last_dice_step(game.row.id) is not None:
            break
    for inv in [
        send(mod, ["mod", "reroll"], {"reason": "twice"}, moderator=True),
        send(mod, ["mod", "rollback"], {"to": 1, "reason": "twice"}, moderator=True),
        send(mod, ["mod", "seat"], {"side": sides[0], "user": "sub"}, moderator=True),
        send(mod, ["mod", "kick"], {"user": "sub", "reason": "twice"}, moderator=True),
        send(channel.user(sides[0]), ["game", "join"], {"side": sides[0]}),
        send(channel.user(sides[0]), ["game", "leave"]),
        send(mod, ["mod", "seat"], {"side": sides[0], "user": channel.user(sides[0])}, moderator=True),
        send(mod, ["game", "end"], moderator=True),
        send(mod, ["game", "new"], {"system": SYSTEM}),
    ]:
        await repeated(service, channel, db_path, inv, at_once=at_once)
