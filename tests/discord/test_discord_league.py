"""The same season through discord.py (issue 44): ``/league`` commands and every order as
real interactions on the real command tree and service, each round's pairings opening a
thread with its game (the recorded thread requests), robots giving the orders in those
threads, the final table's PNG posted and opened."""

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
from tests.league.season import Send, play_out
from tests.discord.test_discord_delivery import typed_options

_ids = itertools.count(5000)
PLAYERS = [(700000000000000100 + k, name) for k, name in enumerate(["Alice", "Bob", "Carol", "Dan", "Erin", "Frank"])]
MOD = (700000000000000099, "Mo")


@pytest.fixture
async def bot(settings: Settings, recorder: RecordingAdapter) -> AsyncIterator[tuple[RefereeClient, Service]]:
    # No whole-game HTML page at each end (every map of the game drawn: a minute a long game).
    settings = settings.model_copy(update={"html_at_end": False})
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


def discord_send(client: RefereeClient, recorder: RecordingAdapter) -> Send:
    """Orders (and ``/game end``, ``/game concede``) as interactions from the game's thread,
    by the member holding the side; refused when the answer is an ephemeral sentence."""
    names = dict((str(uid), name) for uid, name in PLAYERS)

    async def send(user: str, channel: str, words: list[str], options: dict[str, object]) -> tuple[bool, str]:
        group, sub = words[0], " ".join(words[1:])
        typed = options if group == "game" else typed_options(group, sub, options)
        start = len(recorder.sent)
        await feed_gateway(client, interaction_payload(group, sub, typed, user=(int(user), names[user]),
                                                       channel_id=int(channel), interaction_id=next(_ids)))
        sent = [s for s in recorder.sent[start:] if s.kind in ("callback", "followup", "edit_original")]
        refused = any(s.ephemeral and s.content for s in sent)
        return refused, "\n".join(s.content for s in sent)

    return send


@pytest.mark.parametrize("concede_after", [
    pytest.param(((5, 10, 25), (None, 10, 25)), id="quick"),
    pytest.param(((None,) * 3, (None,) * 3), id="every-game-to-its-end", marks=pytest.mark.slow),
])
async def test_a_swiss_season_through_discord(bot: tuple[RefereeClient, Service], recorder: RecordingAdapter,
                                              concede_after: tuple[tuple[int | None, ...], ...]) -> None:
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
        # Round 2's first game (the skirmish, a fifth of Raid and Riposte's 420 orders) is
        # played to the rules' end, the others conceded after a few orders (the slow run
        # plays every game to its end).
        for p, after in zip(pairings, concede_after[round_no - 1]):
            assert p.state == "playing" and p.channel_id not in (None, str(CHANNEL_ID))
            said = await play_out(service, p.channel_id or "", rng, discord_send(client, recorder),
                                  concede_after=after)
            assert "League Spring: counted as" in said
        assert {p.system for p in pairings} == {("rr", "skirmish")[round_no - 1]}
    assert all(p.state == "done" for p in await records.pairings(service.store, league.id))
    met = [frozenset((p.first_id, p.second_id)) for p in await records.pairings(service.store, league.id)]
    assert len(set(met)) == 6  # Swiss: no rematch in two rounds
    sent = await say(client, recorder, MOD, "close", permissions=MANAGE_CHANNELS)
    posted = [s for s in sent if s.files]
    assert posted and "Spring is over" in sent[0].content + "".join(s.content for s in sent)
    [(name, data)] = posted[-1].files.items()
    picture = open_png(data)
    assert name == "league-spring-final.png" and picture.width == 760 and picture.height > 400  # six rows, records
    table = "\n".join(s.content for s in sent)
    assert all(f"{n}. " in table for n in range(1, 7)) and "Longest game:" in table  # the same table as text
    assert all(name in table for _, name in PLAYERS)
    again = await history.recompute(service.store, league)
    assert again.problems == [] and again.figures() == await history.stored(service.store, league)
