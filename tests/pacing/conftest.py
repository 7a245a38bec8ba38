"""Fixtures for pacing: a real SQLite file, a clock the test moves, a channel of Duel."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from bot.config import Settings
from bot.models import Reply
from bot.pacing.clock import ManualClock
from bot.service import Service
from tests.platform.conftest import settings, table  # noqa: F401 - the same fixtures

START = datetime(2026, 11, 23, 12, 0, tzinfo=timezone.utc)


class Outbox:
    """What the bot posted on its own, by channel, in order."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, Reply]] = []

    async def __call__(self, channel_id: str, reply: Reply) -> None:
        self.sent.append((channel_id, reply))

    def texts(self) -> list[str]:
        """The posted texts, oldest first."""
        return [reply.text for _, reply in self.sent]


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(START)


@pytest.fixture
async def service(settings: Settings, clock: ManualClock):
    svc = await Service.open(settings, clock=clock)
    yield svc
    await svc.close()


@pytest.fixture
def outbox() -> Outbox:
    return Outbox()
