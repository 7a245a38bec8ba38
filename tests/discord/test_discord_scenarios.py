"""A club's scenario file through the real discord.py tree and the real service (issue 27):
``/game new system: scenario-file:<attachment>``, ``/mod scenario add:``, ``/game scenarios``.

The attachment arrives as Discord sends it (an option of type 11 resolved to an attachment);
its bytes come from discord.py's CDN fetch, answered here from memory (no network), so the
test also sees that a file over 1 MB is refused without being fetched."""

from __future__ import annotations

import itertools
import random
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot import autoplay
from bot.config import Settings
from bot.discord.client import RefereeClient
from bot.service import Service
from rules.core import scenariofile
from tests.discord.conftest import feed_gateway, start_client
from tests.discord.dpy_harness import ALICE, MANAGE_CHANNELS, RecordingAdapter, interaction_payload, open_png
from tests.scenarios.helpers import as_json, as_yaml, data

_ids = itertools.count(700)
ATTACHMENT = 11


class Cdn:
    """discord.py's ``HTTPClient.get_from_cdn``, answered from files by URL."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}
        self.fetched: list[str] = []

    async def __call__(self, url: str) -> bytes:
        self.fetched.append(url)
        return self.files[url]


@pytest.fixture
async def bot(settings: Settings, recorder: RecordingAdapter) -> AsyncIterator[tuple[RefereeClient, Cdn, Service]]:
    client = RefereeClient(settings)
    service = await Service.open(settings)
    await start_client(client, service, defer_after=30.0, recorder=recorder)
    cdn = Cdn()
    client.http.get_from_cdn = cdn  # type: ignore[method-assign]
    yield client, cdn, service
    await client.close()


async def send(bot, recorder: RecordingAdapter, group: str, sub: str, options: dict[str, Any] | None = None,
               files: dict[str, tuple[str, bytes, int | None]] | None = None, **kw) -> list:
    """``/group sub`` with ``files``: option name -> (file name, bytes, announced size)."""
    client, cdn, _ = bot
    start = len(recorder.sent)
    interaction_id = next(_ids)
    payload = interaction_payload(group, sub, options, interaction_id=interaction_id, **kw)
    sub_options = payload["data"]["options"][0]["options"]
    for n, (option, (name, raw, size)) in enumerate((files or {}).items()):
        attachment_id = str(900_000_000_000_000_000 + interaction_id * 10 + n)
        url = f"https://cdn.discordapp.com/attachments/1/{attachment_id}/{name}"
        cdn.files[url] = raw
        sub_options.append({"type": ATTACHMENT, "name": option, "value": attachment_id})
        payload["data"].setdefault("resolved", {}).setdefault("attachments", {})[attachment_id] = {
            "id": attachment_id, "filename": name, "size": len(raw) if size is None else size,
            "url": url, "proxy_url": url, "content_type": "application/json"}
    await feed_gateway(client, payload)
    return recorder.sent[start:]


def club(system: str = "mak", **changes: Any) -> dict[str, Any]:
    value = {"system": system, **data(system)}  # a file names its game (issue 46)
    value.update({"key": "club-night", "title": "Club night at the ridge", **changes})
    return value


async def test_a_new_game_on_an_attached_yaml_file_posts_both_hashes_and_its_map(bot, recorder):
    raw = as_yaml(club())
    sent = await send(bot, recorder, "game", "new", {"system": "mak"},
                      files={"scenario-file": ("club.yaml", raw, None)})
    first = sent[0]
    assert not first.ephemeral, first.content
    assert "Club night at the ridge" in first.content and "Dice seed hash" in first.content
    assert scenariofile.sha256(raw.decode()) in first.content
    (png,) = sent[-1].files.values()
    open_png(png)
    rows = await bot[2].store._fetchall("SELECT scenario_text FROM games")
    assert [r[0] for r in rows] == [raw.decode()]


async def test_a_broken_attachment_is_refused_privately_with_its_line_and_nothing_stored(bot, recorder):
    value = club()
    value["positions"] = {"5:2099": -1}
    sent = await send(bot, recorder, "game", "new", {"system": "mak"},
                      files={"scenario-file": ("club.json", as_json(value), None)})
    (reply,) = [s for s in sent if s.content]
    assert reply.ephemeral
    assert "positions.5:2099 (line" in reply.content and "not a hex of board 5" in reply.content
    assert await bot[2].store._fetchall("SELECT id FROM games") == []


async def test_an_attachment_over_1_mb_is_refused_without_being_fetched(bot, recorder):
    sent = await send(bot, recorder, "game", "new", {"system": "rr"},
                      files={"scenario-file": ("huge.json", b"{}", 3_000_000)})
    (reply,) = [s for s in sent if s.content]
    assert reply.ephemeral and "3,000,000 bytes" in reply.content and "1 MB" in reply.content
    assert bot[1].fetched == []


async def test_a_moderator_keeps_a_file_and_everyone_sees_who_added_it(bot, recorder):
    raw = as_json(club("skirmish"))
    refused = await send(bot, recorder, "mod", "scenario", files={"add": ("hill.json", raw, None)})
    assert all(s.ephemeral for s in refused if s.content)
    added = await send(bot, recorder, "mod", "scenario", {"name": "hill"},
                       files={"add": ("hill.json", raw, None)}, permissions=MANAGE_CHANNELS)
    assert any("`hill`" in s.content and not s.ephemeral for s in added)
    listed = await send(bot, recorder, "game", "scenarios", {"system": "skirmish"})
    (reply,) = [s for s in listed if s.content]
    assert reply.ephemeral and "`hill` — Club night at the ridge, added by @Alice" in reply.content
    started = await send(bot, recorder, "game", "new", {"system": "skirmish", "scenario": "hill"})
    assert "Club night at the ridge" in started[0].content and not started[0].ephemeral


async def test_a_club_scenario_plays_to_the_end_through_the_tree(bot, recorder):
    """Alice holds both sides (as one person may) and gives a random legal order each time."""
    raw = as_yaml(club("commando", turns=1, title="One-turn raid"))
    sent = await send(bot, recorder, "game", "new", {"system": "commando"},
                      files={"scenario-file": ("raid.yaml", raw, None)})
    assert "One-turn raid" in sent[0].content
    for side in ("commandos", "germans"):
        await send(bot, recorder, "game", "join", {"side": side})
    service, rng, last = bot[2], random.Random(5), {}
    channel = (await service.store._fetchall("SELECT channel_id FROM games"))[0][0]
    for _ in range(400):
        game = await service.games.load(channel)
        waiting = game.system.waiting_on(game.state)
        if not waiting:
            break
        actions = [a for a in game.system.legal_actions(game.state, waiting[0], read_only=False)
                   if not a.read_only]
        action = autoplay.choose(game.system, actions, rng, last.get(waiting[0]))
        last[waiting[0]] = action
        replies = await send(bot, recorder, "commando", action.path(), autoplay.order_options(action))
        assert not any(s.ephemeral for s in replies if s.content), [s.content for s in replies]
    game = await service.games.load(channel)
    assert game.system.result(game.state) is not None
    assert game.row.scenario_text == raw.decode()
