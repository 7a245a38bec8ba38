"""A deadline that passes is acted on once, even when acting fails (issue 19, issue 23's review).

The deadline's message used to be marked sent in a transaction of its own before the pacer
gave the "no action" order: any error while acting (the rules, the store, posting) then lost
the order and the notice for good.  Now the message is marked sent in the transaction that
stores the order (``Change.extra``), so a failure before it leaves the message due and the
next tick acts again; a notice whose order is stored but whose posting failed is kept with the
message and posted on the next tick.  Each failure is logged once for the operator; players
never see it.  Real SQLite file and PostgreSQL, the real service; Duel's "no action" is
``wait`` (D2).
"""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

import pytest

from bot.models import Reply
from bot.pacing import store as pstore
from bot.pacing.runner import SEND_TRIES
from bot.service import Service
from rules.core import registry
from tests.pacing.conftest import Outbox
from tests.pacing.test_reminders import advance, paced_duel
from tests.platform.conftest import Table


class Once:
    """Raise ``error`` the first time one of the deadline's parts is reached, then pass."""

    def __init__(self, error: Exception) -> None:
        self.error = error
        self.raised = 0

    def fire(self) -> None:
        if not self.raised:
            self.raised += 1
            raise self.error


def inject(where: str, service: Service, once: Once, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the first attempt at the deadline fail at ``where``."""
    if where == "rules":  # the rules raise (not a refusal): a bug, a resource gone
        system = registry.get("duel")
        real_apply = system.apply

        def apply(state, side, action, dice):  # type: ignore[no-untyped-def]
            once.fire()
            return real_apply(state, side, action, dice)
        monkeypatch.setattr(system, "apply", apply)
    elif where == "store":  # the order's own transaction fails: nothing of it is kept
        real_commit = service.store.commit_unit

        async def commit_unit(unit):  # type: ignore[no-untyped-def]
            once.fire()
            return await real_commit(unit)
        monkeypatch.setattr(service.store, "commit_unit", commit_unit)
    else:
        raise AssertionError(where)


async def referee_steps(service: Service, table: Table) -> list[str]:
    """The sides the referee gave an order for, in the log."""
    game = await service.games.load(table.channel)
    assert game is not None
    return [s.side or "" for s in await service.store.steps(game.row.id)
            if s.actor_name == "Referee (deadline)"]


@pytest.mark.parametrize("where", ["rules", "store"])
async def test_a_failed_deadline_order_is_given_on_a_later_tick_once(
        table: Table, service: Service, clock, outbox: Outbox, where: str,
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    await paced_duel(table, "then:pass")
    clock.advance(timedelta(hours=23.5))  # past both reminders, before the deadline
    await service.pacer.tick(outbox)
    once = Once(OSError("the disk went away"))
    inject(where, service, once, monkeypatch)
    with caplog.at_level(logging.DEBUG, logger="referee.pacing"):
        first = await advance(clock, service, outbox, 0.5)  # the deadline: acting fails
        assert once.raised == 1
        assert first == [] and await referee_steps(service, table) == []
        second = await advance(clock, service, outbox, 0)  # the next tick acts
        third = await advance(clock, service, outbox, 1)
    assert len(second) == 1 and second[0].startswith("⌛ The deadline passed"), second
    assert second[0].count("Referee (red): wait") == 1 and "Traceback" not in second[0]
    assert third == []
    assert await referee_steps(service, table) == ["red"]
    game = await service.games.load(table.channel)
    assert game is not None and game.system.waiting_on(game.state) == ["blue"]
    # The operator learns it once, with the error; nothing of it reached the channel.
    told = [r for r in caplog.records if r.levelno >= logging.WARNING and r.exc_info]
    assert len(told) == 1 and "the disk went away" in str(told[0].exc_info[1]), caplog.records
    assert all("disk" not in text for text in outbox.texts())


async def test_a_deadline_failing_on_every_tick_is_logged_once_and_acted_on_when_it_works(
        table: Table, service: Service, clock, outbox: Outbox,
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """A store that stays down for several ticks: one report with its traceback, not one a
    tick; when it is back the order is given once and the recovery is logged."""
    await paced_duel(table, "then:pass")
    clock.advance(timedelta(hours=23.5))
    await service.pacer.tick(outbox)
    real_commit = service.store.commit_unit
    down = [True]

    async def commit_unit(unit):  # type: ignore[no-untyped-def]
        if down[0]:
            raise OSError("the disk went away")
        return await real_commit(unit)
    monkeypatch.setattr(service.store, "commit_unit", commit_unit)
    with caplog.at_level(logging.DEBUG, logger="referee.pacing"):
        for _ in range(4):  # the deadline (24 h), then three more ticks
            assert await advance(clock, service, outbox, 0.5) == []
        down[0] = False
        posted = await advance(clock, service, outbox, 0)
    assert len(posted) == 1 and posted[0].count("Referee (red): wait") == 1
    assert await referee_steps(service, table) == ["red"]
    tracebacks = [r for r in caplog.records if r.exc_info]
    assert len(tracebacks) == 1, [r.getMessage() for r in caplog.records]
    assert any("after 4 failed" in r.getMessage() for r in caplog.records)


async def test_a_notice_whose_posting_failed_is_posted_on_the_next_tick_and_the_order_kept(
        table: Table, service: Service, clock, outbox: Outbox) -> None:
    """The order is stored with the message marked sent; posting the notice fails (the
    network): the notice is kept with the message and posted on the next tick, even after
    the game moved on, and the order is not given a second time."""
    await paced_duel(table, "then:pass")
    clock.advance(timedelta(hours=23.5))
    await service.pacer.tick(outbox)
    failed: list[str] = []

    async def flaky(channel_id: str, reply: Reply) -> None:
        if reply.text.startswith("⌛") and not failed:
            failed.append(reply.text)
            raise ConnectionResetError("the network dropped")
        await outbox(channel_id, reply)

    clock.advance(timedelta(hours=0.5))
    assert await service.pacer.tick(flaky) == 0
    assert failed and await referee_steps(service, table) == ["red"]
    # bob plays before the next tick: a new turn-part, whose deadline drops the old part's
    # messages, but not a notice whose order is stored.
    assert not (await table("bob", "/duel wait")).error
    assert await service.pacer.tick(flaky) == 1
    assert [t for t in outbox.texts() if t.startswith("⌛")] == failed  # the same notice
    assert outbox.sent[-1][1].mentions == ["bob"]
    assert await service.pacer.tick(flaky) == 0
    assert await referee_steps(service, table) == ["red"]
    game = await service.games.load(table.channel)
    assert game is not None
    assert not [m for m in await pstore.pending_messages(service.store, game.row.id)
                if m.kind == "deadline" and m.due_at <= clock.now()]


async def failing_digests(service: Service, table: Table, count: int,
                          monkeypatch: pytest.MonkeyPatch) -> None:
    """``count`` digests of the table's game due now whose building fails on every tick
    (a system's view that raises on the game's states, say)."""
    game = await service.games.load(table.channel)
    assert game is not None
    now = service.clock.now()
    async with service.store.transaction() as db:
        for turn in range(count):
            pstore.schedule(db, pstore.digest_message(game.row.id, table.channel, (100 + turn, "Turn"),
                                                      game.row.head_seq, now), now)

    async def broken(message: pstore.Scheduled) -> None:
        raise RuntimeError("the view of this state cannot be built")
    monkeypatch.setattr(service.pacer, "digest_reply", broken)


async def test_messages_failing_on_every_tick_do_not_hold_up_the_others(
        table: Table, service: Service, clock, outbox: Outbox,
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """A message that cannot be built stays due (issue 23 review, point 1); more of them than
    a tick reads at once (a broken system's digests, one a turn) must not stop the deadline
    of another game's turn-part from being acted on, on time."""
    await paced_duel(table, "then:pass")
    await failing_digests(service, table, pstore.DUE_BATCH, monkeypatch)
    with caplog.at_level(logging.CRITICAL, logger="referee.pacing"):
        posted = await advance(clock, service, outbox, 24)  # the deadline
    assert [t for t in posted if t.startswith("⌛")], posted
    assert await referee_steps(service, table) == ["red"]


async def test_a_digest_that_cannot_be_built_is_given_up_after_some_ticks(
        table: Table, service: Service, clock, outbox: Outbox,
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """A digest is news, not something done: one whose building fails on SEND_TRIES ticks
    in a row is dropped, said once in the log, instead of being built again on every tick
    for ever (each attempt reads the turn's steps and draws their views)."""
    await paced_duel(table)
    await failing_digests(service, table, 1, monkeypatch)
    game = await service.games.load(table.channel)
    assert game is not None
    with caplog.at_level(logging.INFO, logger="referee.pacing"):
        for _ in range(SEND_TRIES):
            assert await advance(clock, service, outbox, 0.01) == []
    assert not [m for m in await pstore.pending_messages(service.store, game.row.id) if m.kind == "digest"]
    assert sum("given up" in r.getMessage() for r in caplog.records) == 1, \
        [r.getMessage() for r in caplog.records]


async def test_a_deadline_extended_while_the_tick_waited_for_the_turn_is_not_acted_on(
        table: Table, service: Service, clock, outbox: Outbox,
        monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """The tick read the deadline as due; before it took the channel's turn a moderator's
    /mod extend (holding the turn) dropped that message and scheduled a later one.  The turn
    and the pace still match the message, but the message is no longer due: the referee's
    orders are refused with it (one transaction) and nothing is done, quietly, once; the
    later deadline is acted on when it comes."""
    await paced_duel(table, "then:pass")
    real = pstore.due_messages
    extended: list[str] = []

    async def due_then_extended(*args, **kwargs):  # type: ignore[no-untyped-def]
        found = await real(*args, **kwargs)
        if any(m.kind == "deadline" for m in found) and not extended:
            reply = await table("mod", "/mod extend hours:2 reason:holiday", moderator=True)
            extended.append(reply.text)
        return found

    monkeypatch.setattr(pstore, "due_messages", due_then_extended)
    attempts = []
    real_act = service.pacer._act

    async def act(*args, **kwargs):  # type: ignore[no-untyped-def]
        attempts.append(1)
        return await real_act(*args, **kwargs)
    monkeypatch.setattr(service.pacer, "_act", act)
    with caplog.at_level(logging.INFO, logger="referee.pacing"):
        posted = await advance(clock, service, outbox, 24)
    assert extended and "extends the deadline" in extended[0], extended
    assert not [t for t in posted if t.startswith("⌛")], posted
    assert await referee_steps(service, table) == []
    assert len(attempts) <= 1 and not [r for r in caplog.records if r.levelno >= logging.WARNING], \
        [r.getMessage() for r in caplog.records]
    later = await advance(clock, service, outbox, 2)
    assert len([t for t in later if t.startswith("⌛")]) == 1, later
    assert await referee_steps(service, table) == ["red"]


async def test_two_processes_at_one_deadline_give_the_order_once(settings, clock) -> None:  # type: ignore[no-untyped-def]
    """Two services on one store (a SQLite file, a PostgreSQL database) tick at the deadline
    together: one takes the channel's turn and stores the order with the message marked
    sent; the other, once it has the turn, sees the game moved on.  One order, one notice."""
    one = await Service.open(settings, clock=clock)
    two = await Service.open(settings, clock=clock)
    outbox = Outbox()
    table = Table(one)
    try:
        await paced_duel(table, "then:pass")
        clock.advance(timedelta(hours=23.5))
        await one.pacer.tick(outbox)
        await two.pacer.tick(outbox)  # the reminders, out of the way
        before = len(outbox.sent)
        clock.advance(timedelta(hours=0.5))
        await asyncio.gather(one.pacer.tick(outbox), two.pacer.tick(outbox))
        await asyncio.gather(one.pacer.tick(outbox), two.pacer.tick(outbox))
        notices = [r.text for _, r in outbox.sent[before:] if r.text.startswith("⌛")]
        assert len(notices) == 1 and notices[0].count("Referee (red): wait") == 1, notices
        assert await referee_steps(one, table) == ["red"]
    finally:
        await one.close()
        await two.close()
