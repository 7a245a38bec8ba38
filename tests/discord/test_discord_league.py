"""The same season through discord.py (issue 44): ``/league`` commands as real interactions
on the real command tree and service, each round's pairings opening a thread with its game
(the recorded thread requests), robots playing the orders, the final table's PNG posted."""

from __future__ import annotations

import itertools
import random
from collections.abc import AsyncIterator

import pytest

from bot.config import Settings
from bot.discord.client import RefereeClient
from bot.league import history, records
from bot.service import Service
from tests.discord.conftest import feed_gateway, start_client
from tests.discord.dpy_harness import (
    CHANNEL_ID, GUILD_ID, MANAGE_CHANNELS, RecordingAdapter, Sent, interaction_payload, open_png,
)
from tests.league.season import play_out

_ids = itertools.count(5000)
PLAYERS = [(700000000000000100 + k, name) for k, name in enumerate(["Alice", "Bob", "Carol", "Dan", "Erin", "Frank"])]
MOD = (700000000000000099, "Mo")


@pytest.fixture
async def bot(settings: Settings, recorder: RecordingAdapter) -> AsyncIterator[tuple[RefereeClient, Service]]:
    client = RefereeClient(settings)
    service = await Service.open(settings)
    await start_client(client, service, defer_after=30.0, recorder=recorder)
    yield client, service
    await client.close()


async def say(client: RefereeClient, recorder: RecordingAdapter, user: tuple[int, str], sub: str,
              options: dict | None = None, **kw: object) -> list[Sent]:
    start = len(recorder.sent)
    await feed_gateway(client, interaction_payload("league", sub, options, user=user,
                                                   interaction_id=next(_ids), **kw))  # type: ignore[arg-type]
    return recorder.sent[start:]


async def test_a_swiss_season_through_discord(bot: tuple[RefereeClient, Service], recorder: RecordingAdapter) -> None:
    client, service = bot
    refused = await say(client, recorder, PLAYERS[0], "new", {"name": "Spring", "systems": "rr,skirmish"})
    assert refused[0].ephemeral and "Only a moderator may start a league" in refused[0].content
    await say(client, recorder, MOD, "new", {"name": "Spring", "systems": "rr,skirmish"}, permissions=MANAGE_CHANNELS)
    for player in PLAYERS:
        await say(client, recorder, player, "join")
    league = (await records.leagues(service.store, str(GUILD_ID)))[0]
    assert len(await records.members(service.store, league.id)) == 6
    rng = random.Random(7)
    for round_no in (1, 2):
        sent = await say(client, recorder, MOD, "schedule", permissions=MANAGE_CHANNELS)
        threads = [s for s in sent if s.kind == "thread_open"]
        assert len(threads) == 3 and all(f"Spring R{round_no}:" in (s.payload or {})["name"] for s in threads)
        # Each thread got its game's first message, both players pinged, the map attached.
        firsts = [s for s in sent if s.kind == "channel_send" and "round" in s.content]
        assert len(firsts) == 3 and all(len(s.pinged) == 2 for s in firsts)
        pairings = [p for p in await records.pairings(service.store, league.id) if p.round == round_no]
        # Round 1's first game is played to the rules' end, the others conceded after a few
        # orders (tests/league/test_league_season.py plays whole seasons).
        for p, after in zip(pairings, (None, 10, 25) if round_no == 1 else (5, 10, 25)):
            assert p.state == "playing" and p.channel_id not in (None, str(CHANNEL_ID))
            await play_out(service, p.channel_id or "", rng, guild=str(GUILD_ID), concede_after=after)
    sent = await say(client, recorder, MOD, "close", permissions=MANAGE_CHANNELS)
    posted = [s for s in sent if s.files]
    assert posted and "Spring is over" in sent[0].content + "".join(s.content for s in sent)
    picture = open_png(next(iter(posted[-1].files.values())))
    assert picture.width == 760
    again = await history.recompute(service.store, league)
    assert again.problems == [] and again.figures() == await history.stored(service.store, league)
