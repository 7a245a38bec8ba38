"""A paced game's new turn-part gets its deadline and reminders in the very commit of the
order that started it (issue 23: pacing rows in the order's own transaction; before, a
second transaction after the commit, so a failure between the two left the turn-part
without its deadline until a tick noticed).  Duel waits on one side at a time: each order
starts a new turn-part.  Real SQLite file and PostgreSQL (the ``settings`` fixture)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.pacing import store as pstore
from bot.pacing.clock import ManualClock
from bot.service import Service
from tests.pacing.conftest import START, Outbox
from tests.pacing.test_reminders import advance, paced_duel
from tests.platform.conftest import Table


async def pace_and_due(service: Service, channel: str) -> tuple[int, pstore.Pace, list[pstore.Scheduled]]:
    """The game's head, its pace as stored and its messages still due."""
    game = await service.games.load(channel)
    assert game is not None
    async with service.store.transaction() as db:
        pace = await pstore.pace_of(db, game.row.id)
    assert pace is not None
    return game.row.head_seq, pace, await pstore.pending_messages(service.store, game.row.id)


async def test_the_order_gives_the_new_turn_part_its_deadline_in_its_own_commit(
        table: Table, service: Service, monkeypatch: pytest.MonkeyPatch) -> None:
    await paced_duel(table)

    async def broken(*args: object, **kwargs: object) -> str | None:
        raise RuntimeError("the pacer fails after the commit")

    monkeypatch.setattr(service.pacer, "after_command", broken)
    reply = await table("alice", "/duel wait")  # blue's turn-part now
    assert not reply.error, reply.text
    head, pace, due = await pace_and_due(service, table.channel)
    assert pace.part_key is not None and pace.part_key.startswith(f"{head}|")
    assert pace.deadline_at == START + timedelta(hours=24)
    # Blue's two reminders (12 h and 23 h) and the deadline notice; red's are dropped.
    assert sorted((m.kind, m.side) for m in due) == [("deadline", ""), ("reminder", "blue"),
                                                    ("reminder", "blue")]
    assert {m.part_key for m in due} == {pace.part_key}


async def test_a_pace_another_process_moved_meanwhile_keeps_its_own(
        table: Table, service: Service, clock: ManualClock, outbox: Outbox) -> None:
    """The commit's pacing rows are written only if the pace is still at the turn-part the
    command saw; otherwise nothing of them is (a tick re-reads the pace and catches up)."""
    await paced_duel(table)
    assert not (await table("alice", "/duel wait")).error  # the cached pace now followed
    game = await service.games.load(table.channel)
    assert game is not None
    async with service.store.transaction() as db:  # moved without the game's version
        db.execute("UPDATE game_pace SET part_key = 'elsewhere' WHERE game_id = ?", (game.row.id,))
    reply = await table("bob", "/duel wait")
    assert not reply.error, reply.text
    head, pace, due = await pace_and_due(service, table.channel)
    assert pace.part_key == "elsewhere"
    assert not [m for m in due if m.part_key.startswith(f"{head}|")]
    await advance(clock, service, outbox, 0)  # the tick: the pace is read again and follows
    head, pace, due = await pace_and_due(service, table.channel)
    assert pace.part_key is not None and pace.part_key.startswith(f"{head}|")
    assert {m.side for m in due if m.kind == "reminder"} == {"red"}


async def test_the_deadline_notice_of_idle_orders_names_the_next_deadline(
        table: Table, service: Service, clock: ManualClock, outbox: Outbox) -> None:
    """``then:pass``: the referee's "no action" order starts the next turn-part, and the same
    commit gives it its deadline, which the notice ends with."""
    await paced_duel(table, "then:pass")
    posted = await advance(clock, service, outbox, 24)
    notice = [text for text in posted if text.startswith("⌛")]
    assert len(notice) == 1, posted
    stamp = int((START + timedelta(hours=48)).timestamp())
    assert notice[0].splitlines()[-1] == f"⏰ Deadline: <t:{stamp}:F> (<t:{stamp}:R>)", notice[0]
    head, pace, due = await pace_and_due(service, table.channel)
    assert pace.part_key is not None and pace.part_key.startswith(f"{head}|")
    assert {m.side for m in due if m.kind == "reminder"} == {"blue"}


async def test_pacing_that_fails_costs_the_player_nothing(
        table: Table, service: Service, clock: ManualClock, outbox: Outbox,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A failure while planning the pacing rows is logged; the order is stored and answered
    as usual, and the pacer follows the game after the commit, as it did before the rows
    went into the commit (``Pacer.sync``)."""
    await paced_duel(table)

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the pacer cannot plan")

    monkeypatch.setattr(service.pipeline.ledger, "pacing", broken)
    reply = await table("alice", "/duel wait")
    assert not reply.error and reply.mentions == ["bob"], reply.text
    head, pace, due = await pace_and_due(service, table.channel)
    assert pace.part_key is not None and pace.part_key.startswith(f"{head}|")
    assert {m.side for m in due if m.kind == "reminder"} == {"blue"}


async def test_a_second_process_gives_the_turn_part_it_starts_its_deadline(settings, clock) -> None:  # type: ignore[no-untyped-def]
    """Two services on one store (a SQLite file, a PostgreSQL database): the second read the
    pace before the first moved it on; its own order then starts the next turn-part, and
    that commit must give it its deadline and reminders, and the reply name that deadline
    (not one the commit skipped because the second's copy of the pace was old)."""
    one = await Service.open(settings, clock=clock)
    two = await Service.open(settings, clock=clock)
    try:
        first, second = Table(one), Table(two)
        await paced_duel(first)
        assert await two.pacer.tick(Outbox()) == 0  # two reads the paces: red's turn-part
        assert not (await first("alice", "/duel wait")).error  # one: blue's turn-part
        clock.advance(timedelta(hours=1))
        reply = await second("bob", "/duel wait")  # two: red's turn-part again
        assert not reply.error and reply.mentions == ["alice"], reply.text
        head, pace, due = await pace_and_due(two, second.channel)
        assert pace.part_key is not None and pace.part_key.startswith(f"{head}|")
        assert pace.deadline_at == START + timedelta(hours=25)
        assert sorted((m.kind, m.side) for m in due) == [("deadline", ""), ("reminder", "red"),
                                                        ("reminder", "red")]
        stamp = int(pace.deadline_at.timestamp())
        assert reply.text.splitlines()[-1] == f"⏰ Deadline: <t:{stamp}:F> (<t:{stamp}:R>)"
        assert (await two.pacer.pace(pace.game_id)) == pace
    finally:
        await one.close()
        await two.close()


async def test_a_tick_following_a_game_it_read_before_an_order_leaves_the_pace_alone(
        table: Table, service: Service) -> None:
    """The tick follows each paced game without the channel's turn: it may hold the game as
    read before an order that the commit then gave its new turn-part.  Following that old
    copy must not move the pace back to the turn-part the order ended (its reminders and
    deadline rescheduled, the new part's dropped)."""
    await paced_duel(table)
    assert not (await table("alice", "/duel wait")).error  # the pacer's copy followed
    before = await service.games.load(table.channel)  # red... now blue's turn-part
    assert before is not None
    assert not (await table("bob", "/duel wait")).error  # red's turn-part, with its rows
    assert await service.pacer.sync(before) is None  # the tick, on the copy it read first
    head, pace, due = await pace_and_due(service, table.channel)
    assert pace.part_key is not None and pace.part_key.startswith(f"{head}|")
    assert sorted((m.kind, m.side) for m in due) == [("deadline", ""), ("reminder", "red"),
                                                    ("reminder", "red")]
    assert await service.pacer.pace(pace.game_id) == pace


async def test_a_new_pace_the_pacer_could_not_read_back_is_read_before_the_next_plan(
        table: Table, service: Service, clock: ManualClock, monkeypatch: pytest.MonkeyPatch) -> None:
    """``/game pace`` commits the pace; the pacer reads it back after.  If that read fails
    (it is logged, the command stands), the next order's commit must not plan its turn-part
    from the pace as it was before (24 h instead of the 48 h just set)."""
    await paced_duel(table)
    assert not (await table("alice", "/duel wait")).error  # the pacer's copy followed

    async def broken(game_id: int) -> None:
        raise RuntimeError("the pace cannot be read back")

    with monkeypatch.context() as patch:
        patch.setattr(service.pacer, "reload", broken)
        assert not (await table("mod", "/game pace hours:48", moderator=True)).error
    reply = await table("bob", "/duel wait")
    assert not reply.error, reply.text
    head, pace, due = await pace_and_due(service, table.channel)
    assert pace.part_key is not None and pace.part_key.startswith(f"{head}|")
    assert pace.deadline_at == START + timedelta(hours=48)


async def test_a_retried_order_is_answered_with_its_deadline_line(table: Table, service: Service) -> None:
    """The ping's "⏰ Deadline" line is part of the reply stored with the order: the same
    interaction delivered again (Discord retries) is answered with the very same text."""
    await paced_duel(table)
    inv = table.invocation("alice", "/duel wait", interaction="retried-wait")
    first = await service.handle(inv)
    stamp = int((START + timedelta(hours=24)).timestamp())
    assert first.mentions == ["bob"] and first.text.count("⏰ Deadline") == 1, first.text
    assert f"⏰ Deadline: <t:{stamp}:F>" in first.text
    again = await service.handle(inv)
    assert again.text == first.text
