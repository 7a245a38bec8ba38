"""Fixtures for the platform tests: a real SQLite file in a temporary folder, and a real
PostgreSQL database on the session's server (``tests/conftest.py``)."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest

from bot.config import Settings
from bot.models import Invocation, Reply
from bot.service import ScriptedDiceSource, Service
from rules.core import registry
from tests.platform.duel import DUEL

registry.register(DUEL)
_ids = itertools.count(1)


class Table:
    """A channel with a service: ``await table("alice", "/game join side:red")``."""

    def __init__(self, service: Service, channel: str = "chan-1") -> None:
        self.service = service
        self.channel = channel

    def invocation(self, user: str, line: str, *, moderator: bool = False,
                   interaction: str | None = "auto", private: bool = False, **extra: Any) -> Invocation:
        from bot.console import parse_line

        _, path, options = parse_line(line)
        options.update(extra)
        return Invocation(
            channel_id=self.channel, guild_id="g", user_id=user, user_name=user,
            is_moderator=moderator, command=path, options=options,
            interaction_id=f"i{next(_ids)}" if interaction == "auto" else interaction,
            private=private,  # given privately (a sealed order, issue 28)
        )

    async def __call__(self, user: str, line: str, **kw: Any) -> Reply:
        return await self.service.handle(self.invocation(user, line, **kw))


@pytest.fixture
def settings(tmp_path: Path, store_url: Path | str) -> Settings:
    """The service's settings: once on a SQLite file, once on a PostgreSQL database."""
    return Settings(db=store_url, snapshot_dir=tmp_path / "snaps")


@pytest.fixture
async def service(settings: Settings):
    svc = await Service.open(settings)
    yield svc
    await svc.close()


@pytest.fixture
def table(service: Service) -> Table:
    return Table(service)


@pytest.fixture
async def scripted(settings: Settings):
    """A service whose dice are scripted: set ``svc.pipeline.dice_source.values`` in the test."""
    svc = await Service.open(settings, dice_source=ScriptedDiceSource([]))
    yield svc
    await svc.close()
