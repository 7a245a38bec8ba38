"""Shards in several processes (issue 20): ``referee bot --shards 0-3 --shard-count 8`` runs
that subset with ``AutoShardedClient``, and only the process running shard 0 syncs the
command tree (the commands belong to the application, not to a shard)."""

from __future__ import annotations

import pytest

from bot.cli import build_parser, shard_settings
from bot.config import Settings, parse_shard_ids
from tests.discord.dpy_harness import FakeService
from tests.discord.test_discord_client import offline_client


def test_shard_ids_take_ranges_and_lists() -> None:
    assert parse_shard_ids("0-3") == [0, 1, 2, 3]
    assert parse_shard_ids("0, 2,5-6") == [0, 2, 5, 6]
    for bad in ("a", "3-1", "1-"):
        with pytest.raises(ValueError):
            parse_shard_ids(bad)


def test_cli_shards_override_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFEREE_SHARDS", "0-1")
    monkeypatch.setenv("REFEREE_SHARD_COUNT", "4")
    assert Settings().shards == [0, 1]
    args = build_parser().parse_args(["bot", "--shards", "4-7", "--shard-count", "8"])
    settings = shard_settings(Settings(), args.shards, args.shard_count)
    assert (settings.shards, settings.shard_count) == ([4, 5, 6, 7], 8)
    with pytest.raises(SystemExit, match="not shard ids below"):
        shard_settings(Settings(), "6-9", 8)


async def test_the_client_runs_its_shards_and_only_shard_0_syncs(settings: Settings) -> None:
    synced = []
    for shards in ([0, 1, 2, 3], [4, 5, 6, 7]):
        service = FakeService()
        client, sync = offline_client(
            settings.model_copy(update={"shards": shards, "shard_count": 8}), service)
        assert (client.shard_ids, client.shard_count) == (shards, 8)
        await client.setup_hook()
        synced.append(len(sync.calls))
        await client.close()
    assert synced == [1, 0]
