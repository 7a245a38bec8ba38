"""The computer on Discord (issue 43): the real client and command tree, the real service on
a SQLite file, every request recorded.  Alice starts ``/game new system:rr``, joins NATO and
seats the computer on the Soviets with ``/game join side:soviet ai:…``; she plays NATO through
slash commands, and the computer's moves are posted in the channel (``channel.send``, as the
bot's background task posts them), each read "played by the computer for soviet", the ping
going to Alice only (the computer is no member to ping).

The default run plays the set-up and turn 1; the whole game is behind ``slow``.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import AsyncIterator

import pytest

from bot.config import Settings
from bot.discord.client import RefereeClient
from bot.discord.scheduled import poster
from bot.service import Service
from rules.core.computer import candidates
from rules.core.playout import choose
from tests.discord.conftest import feed_gateway, start_client
from tests.discord.dpy_harness import ALICE, CHANNEL_ID, RecordingAdapter, interaction_payload

CHANNEL = str(CHANNEL_ID)


@pytest.fixture
async def bot(settings: Settings, recorder: RecordingAdapter) -> AsyncIterator[RefereeClient]:
    client = RefereeClient(settings)
    service = await Service.open(settings)
    await start_client(client, service, defer_after=30.0, recorder=recorder)
    yield client
    await client.close()


async def newcomer_game(bot: RefereeClient, recorder: RecordingAdapter, level: str,
                        until_turn: int | None) -> Service:
    service = bot.service
    assert isinstance(service, Service)
    ids = itertools.count(1)
    send = poster(bot, service)
    for group, sub, options in (("game", "new", {"system": "rr"}), ("game", "join", {"side": "nato"}),
                                ("game", "join", {"side": "soviet", "ai": level})):
        await feed_gateway(bot, interaction_payload(group, sub, options, interaction_id=next(ids)))
    assert "seats the computer" in recorder.sent[-1].content
    rng = random.Random(11)
    for _ in range(2000):
        await service.computer.play(CHANNEL, send)  # what the bot's background task does
        game = await service.games.load(CHANNEL)
        assert game is not None
        if game.system.result(game.state) is not None:
            break
        if until_turn is not None and (game.system.turn(game.state).number or 0) >= until_turn:
            break
        order = choose(game.system, candidates(game.system, game.state, "nato"), rng)
        options = order.model_dump(mode="json", exclude_defaults=True)
        await feed_gateway(bot, interaction_payload("rr", order.path(), options, interaction_id=next(ids)))
        assert "⛔" not in recorder.sent[-1].content, recorder.sent[-1].content
    return service


async def test_alice_plays_nato_and_the_computer_the_soviets(bot: RefereeClient, recorder: RecordingAdapter) -> None:
    service = await newcomer_game(bot, recorder, "easy", until_turn=2)
    moves = [s for s in recorder.of_kind("channel_send") if "played by the computer for soviet" in s.content]
    assert moves, "the computer posted no move"
    assert all(s.creates for s in moves)
    assert {user for s in recorder.sent for user in s.pinged} <= {ALICE}  # nobody else is pinged
    game = await service.games.load(CHANNEL)
    assert game is not None and game.system.turn(game.state).number == 2


@pytest.mark.slow
async def test_a_whole_game_against_the_normal_computer_on_discord(bot: RefereeClient,
                                                                   recorder: RecordingAdapter) -> None:
    service = await newcomer_game(bot, recorder, "normal", until_turn=None)
    game = await service.games.load(CHANNEL)
    assert game is not None and game.system.result(game.state) is not None
    await feed_gateway(bot, interaction_payload("game", "end", interaction_id=99999))
    assert any("🏁 Game over" in s.content for s in recorder.sent)
