"""Deadlines and reminders with a clock the test moves (issue 19, items 1-2).

Real SQLite file, the real service; Duel waits on one side at a time, so each order starts a
new turn-part.  A pace of 24 hours reminds half-way (12 h) and one hour before (23 h).
"""

from __future__ import annotations

import asyncio
from datetime import timedelta

from bot.config import Settings
from bot.pacing import store as pstore
from bot.pacing.clock import ManualClock
from bot.service import Service
from tests.pacing.conftest import START, Outbox
from tests.platform.conftest import Table


async def paced_duel(table: Table, *extra: str) -> None:
    """A Duel between alice (red, to act) and bob, with a pace of 24 h set by a moderator."""
    await table("alice", "/game new system:duel")
    await table("alice", "/game join side:red")
    await table("bob", "/game join side:blue")
    reply = await table("mod", "/game pace hours:24 " + " ".join(extra), moderator=True)
    assert not reply.error, reply.text


async def advance(clock: ManualClock, service: Service, outbox: Outbox, hours: float) -> list[str]:
    """Move the clock, tick, and return what was posted by this tick."""
    before = len(outbox.sent)
    clock.advance(timedelta(hours=hours))
    await service.pacer.tick(outbox)
    return [reply.text for _, reply in outbox.sent[before:]]


async def test_pace_sets_a_deadline_shown_as_discord_timestamps(table: Table) -> None:
    await paced_duel(table)
    status = await table("alice", "/game status")
    stamp = int((START + timedelta(hours=24)).timestamp())
    assert f"⏰ Deadline: <t:{stamp}:F> (<t:{stamp}:R>)" in status.text


async def test_reminders_at_half_way_and_one_hour_before_each_once(
        table: Table, service: Service, clock: ManualClock, outbox: Outbox) -> None:
    await paced_duel(table)
    assert await advance(clock, service, outbox, 11.9) == []
    first = await advance(clock, service, outbox, 0.1)  # 12 h: half-way
    assert len(first) == 1 and "@alice" in first[0] and "red is waited on" in first[0].lower()
    assert outbox.sent[-1][1].mentions == ["alice"]
    assert await advance(clock, service, outbox, 0) == []  # sent once
    assert await advance(clock, service, outbox, 10.9) == []  # 22.9 h
    second = await advance(clock, service, outbox, 0.1)  # 23 h: one hour before
    assert len(second) == 1 and "@alice" in second[0]
    passed = await advance(clock, service, outbox, 1)  # 24 h: the deadline
    assert len(passed) == 1 and "deadline passed" in passed[0]
    assert await advance(clock, service, outbox, 48) == []


async def test_reminders_survive_a_restart_and_are_sent_once(
        settings: Settings, clock: ManualClock, outbox: Outbox) -> None:
    service = await Service.open(settings, clock=clock)
    try:
        await paced_duel(Table(service))
        assert len(await advance(clock, service, outbox, 12)) == 1
    finally:
        await service.close()
    again = await Service.open(settings, clock=clock)  # a restart: nothing in memory
    try:
        assert await advance(clock, again, outbox, 0) == []
        assert len(await advance(clock, again, outbox, 11)) == 1  # 23 h
        assert len(await advance(clock, again, outbox, 1)) == 1  # the deadline
        assert await advance(clock, again, outbox, 100) == []
    finally:
        await again.close()
    assert len(outbox.sent) == 3


async def test_two_processes_send_each_reminder_once(
        settings: Settings, clock: ManualClock) -> None:
    one = await Service.open(settings, clock=clock)
    two = await Service.open(settings, clock=clock)
    outbox = Outbox()
    try:
        await paced_duel(Table(one))
        clock.advance(timedelta(hours=23))  # both reminders due (a reminder after its deadline is not sent)
        await asyncio.gather(one.pacer.tick(outbox), two.pacer.tick(outbox))
        clock.advance(timedelta(hours=1))
        await asyncio.gather(one.pacer.tick(outbox), two.pacer.tick(outbox))
        await one.pacer.tick(outbox)
        await two.pacer.tick(outbox)
    finally:
        await one.close()
        await two.close()
    kinds = sorted(reply.text.split()[0] for _, reply in outbox.sent)
    assert kinds == ["⌛", "⏰", "⏰"]  # two reminders and the deadline, once each


async def test_no_reminder_for_a_turn_part_that_moved_on(
        table: Table, service: Service, clock: ManualClock, outbox: Outbox) -> None:
    await paced_duel(table)
    assert len(await advance(clock, service, outbox, 12)) == 1
    assert not (await table("alice", "/duel wait")).error  # blue's turn-part now, due at 36 h
    assert await advance(clock, service, outbox, 11) == []  # red's 23 h reminder is void
    later = await advance(clock, service, outbox, 1)  # 24 h: half-way of blue's
    assert len(later) == 1 and "@bob" in later[0]
    game = await service.games.load(table.channel)
    assert game is not None
    due = await pstore.pending_messages(service.store, game.row.id)
    assert {m.side for m in due if m.kind == "reminder"} == {"blue"}


async def test_an_order_that_pings_carries_the_new_deadline(table: Table) -> None:
    await paced_duel(table)
    reply = await table("alice", "/duel wait")
    stamp = int((START + timedelta(hours=24)).timestamp())
    assert reply.mentions == ["bob"] and f"⏰ Deadline: <t:{stamp}:F>" in reply.text


async def test_deadline_passing_with_nothing_changes_nothing(
        table: Table, service: Service, clock: ManualClock, outbox: Outbox) -> None:
    await paced_duel(table, "then:nothing")
    game = await service.games.load(table.channel)
    assert game is not None
    head = game.row.head_seq
    posted = await advance(clock, service, outbox, 24)
    assert posted[-1].startswith("⌛ The deadline passed") and "Nothing happens" in posted[-1]
    game = await service.games.load(table.channel)
    assert game is not None and game.row.head_seq == head


async def test_deadline_passing_with_pass_gives_the_no_action_order(
        table: Table, service: Service, clock: ManualClock, outbox: Outbox) -> None:
    await paced_duel(table, "then:pass")
    posted = await advance(clock, service, outbox, 24)
    text = posted[-1]
    # D2: a side that does not act waits; the turn passes to blue, who is pinged.
    assert "Referee (red): wait" in text and "blue" in text
    assert outbox.sent[-1][1].mentions == ["bob"]
    game = await service.games.load(table.channel)
    assert game is not None and game.system.waiting_on(game.state) == ["blue"]
    step = await service.store.step(game.row.id, game.row.head_seq)
    assert step is not None and step.actor_name == "Referee (deadline)" and step.side == "red"
    # The next turn-part got its own deadline, 24 h on.
    assert "⏰ Deadline:" in text
    due = await pstore.pending_messages(service.store, game.row.id)
    assert {m.due_at for m in due if m.kind == "deadline"} == {START + timedelta(hours=48)}


async def test_away_pauses_reminders_but_not_the_deadline(
        table: Table, service: Service, clock: ManualClock, outbox: Outbox) -> None:
    await paced_duel(table)
    away = await table("alice", "/game away until:30h")
    assert not away.error and not away.ephemeral and "away until <t:" in away.text
    posted = await advance(clock, service, outbox, 24)
    assert len(posted) == 1 and posted[0].startswith("⌛")  # no reminder reached alice
    back = await table("alice", "/game away until:back")
    assert not back.error and "back" in back.text


async def test_reminders_reach_a_player_back_from_away(
        table: Table, service: Service, clock: ManualClock, outbox: Outbox) -> None:
    await paced_duel(table)
    await table("alice", "/game away until:13h")
    assert await advance(clock, service, outbox, 12) == []  # away at half-way
    posted = await advance(clock, service, outbox, 11)  # back by the last hour
    assert len(posted) == 1 and "@alice" in posted[0]


async def test_extend_moves_the_deadline_with_a_reason_and_is_audited(
        table: Table, service: Service, clock: ManualClock, outbox: Outbox) -> None:
    await paced_duel(table)
    refused = await table("alice", "/mod extend hours:12 reason:holiday")
    assert refused.error and "moderator" in refused.text.lower()
    reply = await table("mod", "/mod extend hours:12 reason:holiday", moderator=True)
    stamp = int((START + timedelta(hours=36)).timestamp())
    assert not reply.error and "Reason: holiday" in reply.text and f"<t:{stamp}:F>" in reply.text
    game = await service.games.load(table.channel)
    assert game is not None
    audit = await service.store.audit(game.row.id)
    assert audit[-1].action == "extend" and audit[-1].reason == "holiday"
    assert audit[-1].data["hours"] == 12
    # Reminders follow: half-way of 36 h is 18 h, then 35 h; the deadline at 36 h.
    assert await advance(clock, service, outbox, 17.9) == []
    assert len(await advance(clock, service, outbox, 0.1)) == 1
    assert len(await advance(clock, service, outbox, 17)) == 1
    assert (await advance(clock, service, outbox, 1))[0].startswith("⌛")


async def test_players_set_a_pace_only_when_every_seat_agrees(table: Table, service: Service) -> None:
    await table("alice", "/game new system:duel")
    await table("alice", "/game join side:red")
    await table("bob", "/game join side:blue")
    vote = await table("alice", "/game pace hours:48")
    assert not vote.error and "@bob" in vote.text and "agree" in vote.text
    assert "Deadline" not in (await table("alice", "/game status")).text
    other = await table("bob", "/game pace hours:24")  # not the same: still a vote
    assert "@alice" in other.text and "agree" in other.text
    agreed = await table("alice", "/game pace hours:24")
    assert "Every player agreed" in agreed.text and "24 h a turn-part" in agreed.text
    assert "⏰ Deadline" in (await table("bob", "/game status")).text
    stranger = await table("carol", "/game pace hours:1")
    assert stranger.error and "players" in stranger.text


async def test_a_fixed_deadline_and_bad_times_are_refused_changing_nothing(
        table: Table, service: Service, clock: ManualClock, outbox: Outbox) -> None:
    await table("alice", "/game new system:duel")
    await table("alice", "/game join side:red")
    await table("bob", "/game join side:blue")
    for bad in ("yesterday", "2020-01-01 10:00", "0h", "9999d"):
        reply = await table("mod", f'/game deadline at:"{bad}"', moderator=True)
        assert reply.error and reply.ephemeral, bad
        assert "\n" not in reply.text and len(reply.text) < 300
    assert "Deadline" not in (await table("alice", "/game status")).text
    fixed = await table("mod", '/game deadline at:"2026-11-24 18:00"', moderator=True)
    assert not fixed.error and "<t:" in fixed.text
    posted = await advance(clock, service, outbox, 29)  # 15 h half-way, 29 h
    posted += await advance(clock, service, outbox, 1)  # then 30 h
    assert [p[0] for p in posted] == ["⏰", "⏰", "⌛"]


async def test_bad_pace_options_are_refused_changing_nothing(table: Table) -> None:
    await table("alice", "/game new system:duel")
    await table("alice", "/game join side:red")
    for line in ("/game pace hours:-1", "/game pace hours:9999", "/game pace hours:x",
                 "/game pace hours:24 then:panic", "/game pace hours:24 remind:soon"):
        reply = await table("mod", line, moderator=True)
        assert reply.error and reply.ephemeral, line
    assert "Deadline" not in (await table("alice", "/game status")).text


async def test_a_reminder_whose_deadline_passed_is_not_sent(
        table: Table, service: Service, clock: ManualClock, outbox: Outbox) -> None:
    """The bot was down (or the console's clock jumped) past both reminders and the
    deadline: it posted "⏰ @alice, red is waited on … Due … (1 h ago)" and then the deadline
    notice.  A reminder after its deadline reminds of nothing; only the notice is posted."""
    await paced_duel(table)
    posted = await advance(clock, service, outbox, 25)
    assert len(posted) == 1 and "deadline passed" in posted[0], posted


async def test_a_deadline_order_refused_as_stale_is_given_again_on_the_game_as_it_is(
        table: Table, service: Service, settings: Settings, clock: ManualClock,
        outbox: Outbox) -> None:
    """Another process writes the game between the pacer's read and its commit: the guard
    refuses the stale copy (``bot.writer.Conflict``), and the pacer does what a command
    does (``Service._run``): drops its copy and acts again on the game as it now is.  Red's
    "no action" is given once, the deadline is told, and the pacer's loop goes on."""
    await paced_duel(table, "then:pass")
    other = await Service.open(settings, clock=clock)  # a second process on the database
    real = service.pipeline.ledger.commit
    wrote: list[int] = []

    async def commit(game, change, **kwargs):  # type: ignore[no-untyped-def]
        if not wrote:  # once: the other process's write lands first
            async with other.store.transaction() as db:
                db.execute("UPDATE games SET version = version + 1 WHERE id = ?", (game.row.id,))
            wrote.append(game.row.id)
        return await real(game, change, **kwargs)

    service.pipeline.ledger.commit = commit  # type: ignore[method-assign]
    try:
        posted = await advance(clock, service, outbox, 24)
    finally:
        await other.close()
    passed = [text for text in posted if "deadline passed" in text]  # the reminders aside
    assert wrote and len(passed) == 1 and passed[0].count("Referee (red): wait") == 1, posted
    game = await service.games.load(table.channel)
    assert game is not None and game.system.waiting_on(game.state) == ["blue"]
    steps = await service.store.steps(game.row.id)
    assert [s.side for s in steps if s.actor_name == "Referee (deadline)"] == ["red"]
