"""Fixtures for the Discord front end: a real client and tree, a recorder, a gateway feed."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
from discord.webhook.async_ import async_context

from bot.config import Settings
from bot.discord.client import RefereeClient
from bot.discord.tree import install_commands
from tests.discord.dpy_harness import (
    FakeService,
    RecordingAdapter,
    add_guild,
    install_recorder,
    log_in,
)

Feed = Callable[[dict[str, Any]], Awaitable[None]]


@pytest.fixture
def recorder() -> Iterator[RecordingAdapter]:
    """discord.py's webhook adapter replaced by a recorder for the whole test."""
    adapter, token = install_recorder()
    yield adapter
    async_context.reset(token)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """Settings for a test bot: a database in ``tmp_path``, no token, no test servers."""
    return Settings(db=tmp_path / "referee.sqlite3", guild_ids=[], snapshot_dir=tmp_path)


@pytest.fixture
def fake_service() -> FakeService:
    """A scripted service with the real command catalogue."""
    return FakeService()


async def start_client(client: RefereeClient, service: Any, defer_after: float,
                       recorder: RecordingAdapter | None = None) -> RefereeClient:
    """What ``setup_hook`` does, minus the sync: the service in, the commands installed.

    With a ``recorder``, the client's REST requests (``channel.send``) are recorded too.
    """
    await client._async_setup_hook()
    log_in(client)
    if recorder is not None:
        recorder.record_rest(client)
    client.service = service
    install_commands(client.tree, service, client.settings.moderator_role,
                     defer_after=defer_after, in_flight=client.in_flight)
    add_guild(client, role_name=client.settings.moderator_role)
    return client


@pytest.fixture
def defer_after() -> float:
    """How long ``handle`` may take before the bot defers.

    Long by default, so a loaded test machine never takes the slow path by accident; the
    slow-path tests parametrize it down.
    """
    return 30.0


@pytest.fixture
async def fake_bot(
    settings: Settings, fake_service: FakeService, defer_after: float, recorder: RecordingAdapter
) -> AsyncIterator[RefereeClient]:
    """A real client and tree over the fake service."""
    client = RefereeClient(settings)
    yield await start_client(client, fake_service, defer_after=defer_after, recorder=recorder)
    await client.close()


async def feed_gateway(client: discord.Client, payload: dict[str, Any]) -> None:
    """Hand ``payload`` to discord.py as an INTERACTION_CREATE event and wait for the tree."""
    before = set(asyncio.all_tasks())
    client._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
    started = [t for t in asyncio.all_tasks() - before if t.get_name() == "CommandTree-invoker"]
    assert started, "discord.py did not hand the interaction to the command tree"
    await asyncio.gather(*started)


async def feed_press(client: discord.Client, payload: dict[str, Any]) -> None:
    """Hand a component interaction (a press) to discord.py and wait for the client's
    ``on_interaction`` to answer it."""
    before = set(asyncio.all_tasks())
    client._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
    started = [t for t in asyncio.all_tasks() - before if t.get_name() == "discord.py: on_interaction"]
    assert started, "discord.py did not dispatch the press to on_interaction"
    await asyncio.gather(*started)


@pytest.fixture
def feed(fake_bot: RefereeClient) -> Feed:
    """Send an interaction payload to the fake bot through the gateway handler."""

    async def send(payload: dict[str, Any]) -> None:
        await feed_gateway(fake_bot, payload)

    return send
