"""Reminders, deadlines and digests on Discord (issue 19): the real client and tree, the
real service on a SQLite file, a clock the test moves, every request recorded.

They answer no interaction, so each goes out with ``channel.send``: the ping allowed for
the player waited on only, the map attached to a digest, and what Discord refuses owed
to the channel's next reply.
"""

from __future__ import annotations

import asyncio
import contextlib
from datetime import datetime, timedelta, timezone

import discord
import pytest

from bot.autoplay import Channel
from bot.config import Settings
from bot.discord.client import RefereeClient
from bot.discord.scheduled import poster, start_pacing
from bot.models import Invocation
from bot.pacing import store as pstore
from bot.pacing.clock import ManualClock
from bot.service import Service
import tests.platform.conftest  # noqa: F401 - registers the test system Duel
from tests.discord.conftest import start_client
from tests.discord.dpy_harness import FAILURES, RecordingAdapter, open_png
from tests.discord.test_discord_failure_matrix import KINDS

CHANNEL = "424242424242424242"
ALICE, BOB, MOD = "111111111111111111", "222222222222222222", "333333333333333333"


async def run(service: Service, user: str, line: list[str], **options: object) -> None:
    reply = await service.handle(Invocation(
        channel_id=CHANNEL, guild_id="1", user_id=user, user_name=f"u{user[:3]}",
        is_moderator=user == MOD, command=line, options=dict(options)))
    assert not reply.error, reply.text


async def paced_game(service: Service) -> None:
    await run(service, ALICE, ["game", "new"], system="duel")
    await run(service, ALICE, ["game", "join"], side="red")
    await run(service, BOB, ["game", "join"], side="blue")
    await run(service, MOD, ["game", "pace"], hours=24)


async def test_reminder_and_deadline_are_posted_with_the_right_ping(
        settings: Settings, recorder: RecordingAdapter) -> None:
    clock = ManualClock(datetime(2026, 11, 23, 12, tzinfo=timezone.utc))
    service = await Service.open(settings, clock=clock)
    client = await start_client(RefereeClient(settings), service, 30.0, recorder)
    try:
        await paced_game(service)
        send = poster(client, service)
        clock.advance(timedelta(hours=12))
        assert await service.pacer.tick(send) == 1
        (reminder,) = recorder.of_kind("channel_send")
        assert reminder.creates
        assert reminder.pinged == [int(ALICE)]
        assert "Due <t:" in reminder.content and ":F> (<t:" in reminder.content
        # Discord refuses the last hour's reminder: it is owed to the channel's next reply.
        recorder.fail("channel_send", FAILURES["50013 missing permissions"]())
        clock.advance(timedelta(hours=11))
        await service.pacer.tick(send)
        owed = await service.owed(CHANNEL)
        assert len(owed) == 1 and owed[0][1].mentions == [ALICE]
        clock.advance(timedelta(hours=1))
        assert await service.pacer.tick(send) == 1
        assert recorder.of_kind("channel_send")[-1].content.startswith("⌛ The deadline passed")
    finally:
        await client.close()


async def test_a_digest_is_posted_with_the_turn_map(settings: Settings,
                                                    recorder: RecordingAdapter) -> None:
    service = await Service.open(settings)
    client = await start_client(RefereeClient(settings), service, 30.0, recorder)
    try:
        channel = Channel(service, "commando", CHANNEL)
        await channel.open()
        posted = 0
        for _ in range(300):
            await channel.order()
            posted += await service.pacer.tick(poster(client, service))
            if posted:
                break
        assert posted == 1
        (digest,) = recorder.of_kind("channel_send")
        assert digest.content.startswith("📰 Turn 1 digest")
        png, *focus = digest.files.values()
        assert open_png(png).width >= 400
        # Issue 40: the focus of what changed beside it, when anything on the map did.
        assert len(focus) <= 1 and all(open_png(f).width <= open_png(png).width for f in focus)
    finally:
        await client.close()


async def test_the_background_task_runs_and_stops(settings: Settings) -> None:
    service = await Service.open(settings)
    client = RefereeClient(settings)
    try:
        task = start_pacing(client, service)
        assert task is not None
        await asyncio.sleep(0.05)
        assert not task.done()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        assert start_pacing(client, object()) is None  # a test double has no pacing
    finally:
        await service.close()
        await discord.Client.close(client)


async def digest_due(service: Service) -> Channel:
    """A commando game played until its first turn's digest is due (not yet posted)."""
    channel = Channel(service, "commando", CHANNEL)
    await channel.open()
    for _ in range(300):
        await channel.order()
        if any(m.kind == "digest" for m in await pstore.due_messages(service.store, service.clock.now())):
            return channel
    raise AssertionError("no digest became due in 300 orders")


@pytest.mark.parametrize("times", [1, 2], ids=["lost once", "lost twice"])
@pytest.mark.parametrize("kind", ["timeout", "client os error", "connection reset"])
async def test_a_digest_lost_on_the_wire_is_posted_once_or_owed_with_its_map(
        settings: Settings, recorder: RecordingAdapter, kind: str, times: int) -> None:
    """Issue 40: a turn digest whose ``channel.send`` times out or is reset was neither
    posted nor owed.  Lost once, it is sent again with its nonce (posted once, its map with
    it); lost on the retry too, it is owed to the channel's next reply, with its map's key."""
    service = await Service.open(settings)
    client = await start_client(RefereeClient(settings), service, 30.0, recorder)
    try:
        await digest_due(service)
        recorder.fail("channel_send", KINDS[kind](), times=times)
        await service.pacer.tick(poster(client, service))
        posted = [s for s in recorder.of_kind("channel_send") if s.delivered]
        owed = await service.owed(CHANNEL)
        if times == 1:
            (digest,) = posted
            assert digest.content.startswith("📰 Turn 1 digest") and list(digest.files)
            assert owed == []
        else:
            assert posted == []
            ((_, late),) = owed
            assert late.text.startswith("📰 Turn 1 digest") and late.snapshot_key
        # Nothing is due any more: the digest is not posted again by a later tick.
        await service.pacer.tick(poster(client, service))
        assert len([s for s in recorder.of_kind("channel_send") if s.delivered]) == len(posted)
    finally:
        await client.close()
