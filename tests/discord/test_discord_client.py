"""The client: one-time start-up in ``setup_hook``, command sync, clean shutdown on signals."""

from __future__ import annotations

import asyncio
import os
import signal
from typing import Any

import pytest

from bot.config import Settings
from bot.discord.client import RefereeClient, run_bot, serve
from bot.service import Service
from tests.discord.dpy_harness import APP_ID, FakeService, log_in


class SyncRecorder:
    """Stands in for the two command-sync routes of discord.py's HTTP client."""

    def __init__(self) -> None:
        self.calls: list[tuple[int | None, list[dict[str, Any]]]] = []

    def _answer(self, payload: list[dict[str, Any]], guild: int | None) -> list[dict[str, Any]]:
        return [
            {**item, "id": str(1000 + n), "application_id": str(APP_ID), "version": "1",
             **({"guild_id": str(guild)} if guild else {})}
            for n, item in enumerate(payload)
        ]

    async def bulk_upsert_guild_commands(self, app_id: int, guild_id: int, payload: Any) -> Any:
        self.calls.append((guild_id, payload))
        return self._answer(payload, guild_id)

    async def bulk_upsert_global_commands(self, app_id: int, payload: Any) -> Any:
        self.calls.append((None, payload))
        return self._answer(payload, None)


def offline_client(
    settings: Settings, service: Any, *, force_sync: bool = False
) -> tuple[RefereeClient, SyncRecorder]:
    """A client whose service opener and sync routes need no network."""

    async def opener(_: Settings) -> Any:
        return service

    client = RefereeClient(settings, opener=opener, force_sync=force_sync)
    log_in(client)
    sync = SyncRecorder()
    client.http.bulk_upsert_guild_commands = sync.bulk_upsert_guild_commands  # type: ignore[method-assign]
    client.http.bulk_upsert_global_commands = sync.bulk_upsert_global_commands  # type: ignore[method-assign]
    return client, sync


async def test_setup_hook_opens_the_service_and_syncs_to_each_test_server(tmp_path):
    settings = Settings(db=tmp_path / "r.sqlite3", guild_ids="11, 22")
    service = FakeService()
    client, sync = offline_client(settings, service)
    await client.setup_hook()
    assert client.service is service
    assert [guild for guild, _ in sync.calls] == [11, 22]
    names = [cmd["name"] for cmd in sync.calls[0][1]]
    assert names == [g.name for g in service.groups]
    await client.close()
    assert service.closed and client.service is None


async def test_without_test_servers_the_commands_sync_globally(settings):
    service = FakeService()
    client, sync = offline_client(settings, service)
    await client.setup_hook()
    assert [guild for guild, _ in sync.calls] == [None]
    assert len(sync.calls[0][1]) == len(service.groups)
    await client.close()


async def test_a_restart_with_the_same_commands_does_not_sync_again(tmp_path):
    # Discord rate-limits syncs: the fingerprint of what was sent is kept in the database.
    settings = Settings(db=tmp_path / "r.sqlite3", guild_ids="11")
    runs = []
    for force in (False, False, True):
        service = await Service.open(settings)  # a real store, reopened as after a restart
        client, sync = offline_client(settings, service, force_sync=force)
        await client.setup_hook()
        runs.append(len(sync.calls))
        await client.close()
    assert runs == [1, 0, 1]
    # Another place (here: global instead of a test server) has its own fingerprint.
    service = await Service.open(settings.model_copy(update={"guild_ids": []}))
    client, sync = offline_client(settings.model_copy(update={"guild_ids": []}), service)
    await client.setup_hook()
    assert [guild for guild, _ in sync.calls] == [None]
    await client.close()


async def test_changed_commands_are_synced(settings):
    service = FakeService()
    client, sync = offline_client(settings, service)
    await client.setup_hook()
    await client.close()
    fewer = FakeService(groups=service.groups[:-1])  # a system removed, say
    fewer.metas = dict(service.metas)
    client, sync = offline_client(settings, fewer)
    await client.setup_hook()
    assert len(sync.calls) == 1 and len(sync.calls[0][1]) == len(service.groups) - 1
    await client.close()


class SignalledClient(RefereeClient):
    """A client whose ``start`` runs the start-up and then idles, as if connected."""

    started: asyncio.Event

    async def start(self, token: str, *, reconnect: bool = True) -> None:
        self.token_seen = token
        await self._async_setup_hook()
        await self.setup_hook()
        self.started.set()
        await asyncio.Event().wait()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
async def test_sigterm_and_sigint_close_the_bot_and_the_database(settings, sig):
    service = FakeService()

    async def opener(_: Settings) -> FakeService:
        return service

    client = SignalledClient(settings, opener=opener)
    client.started = asyncio.Event()
    log_in(client)
    sync = SyncRecorder()
    client.http.bulk_upsert_global_commands = sync.bulk_upsert_global_commands  # type: ignore[method-assign]
    running = asyncio.create_task(serve(client, "secret"))
    await asyncio.wait_for(client.started.wait(), 5)
    os.kill(os.getpid(), sig)
    await asyncio.wait_for(running, 5)
    assert client.is_closed()
    assert service.closed
    assert client.token_seen == "secret"
    # The handlers are removed again: the process is back to its normal signal handling.
    assert signal.getsignal(sig) in (signal.SIG_DFL, signal.default_int_handler)


async def test_a_failed_start_is_raised_after_closing(settings):
    service = FakeService()

    class Failing(RefereeClient):
        async def start(self, token: str, *, reconnect: bool = True) -> None:
            self.service = service
            raise RuntimeError("improper token")

    client = Failing(settings)
    with pytest.raises(RuntimeError, match="improper token"):
        await serve(client, "bad")
    assert client.is_closed() and service.closed


def test_run_bot_needs_a_token(settings):
    # Whatever the environment holds, this test must never reach Discord.
    tokenless = settings.model_copy(update={"discord_token": None})
    with pytest.raises(ValueError, match="DISCORD_TOKEN"):
        run_bot(tokenless)
