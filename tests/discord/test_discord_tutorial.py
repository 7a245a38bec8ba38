"""``/game tutorial`` through the real discord.py tree (issue 40, item 10): the lessons are
added by the service, so a Discord reply carries them as the console's does."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot import tutorial
from bot.config import Settings
from bot.discord.client import RefereeClient
from bot.service import Service
from tests.discord.conftest import feed_gateway, start_client
from tests.discord.dpy_harness import RecordingAdapter, interaction_payload


@pytest.fixture
async def bot(settings: Settings, recorder: RecordingAdapter) -> AsyncIterator[RefereeClient]:
    """The real service and tree."""
    client = RefereeClient(settings)
    service = await Service.open(settings)
    await start_client(client, service, defer_after=5.0, recorder=recorder)
    yield client
    await client.close()


async def said(bot: RefereeClient, recorder: RecordingAdapter, group: str, sub: str,
               options: dict | None = None, interaction_id: int = 1) -> str:
    """Everything the bot sent for one slash command, as text."""
    start = len(recorder.sent)
    await feed_gateway(bot, interaction_payload(group, sub, options, interaction_id=interaction_id))
    return "\n".join(s.content for s in recorder.sent[start:])


async def test_the_tutorial_starts_and_explains_on_discord(bot: RefereeClient, recorder: RecordingAdapter):
    lessons = tutorial.LESSONS["rr"]
    started = await said(bot, recorder, "game", "tutorial", {"system": "rr"}, 1)
    assert "(every side)" in started and "\n".join(lessons[0].lines()) in started
    deployed = await said(bot, recorder, "rr", "deploy-default", None, 2)
    assert "#1 " in deployed and "\n".join(lessons[1].lines()) in deployed
