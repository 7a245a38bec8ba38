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
from datetime import datetime, timedelta, timezone

import pytest

from bot.config import Settings
from bot.discord.client import RefereeClient
from bot.discord.scheduled import poster
from bot.pacing.clock import ManualClock
from bot.service import Service
from rules.core.computer import candidates
from rules.core.playout import choose
from tests.discord.conftest import feed_gateway, start_client
from tests.discord.dpy_harness import ALICE, BOB, CHANNEL_ID, RecordingAdapter, components_of, interaction_payload

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
    # No answers to tap under a move that leaves the computer to act (no one could press them);
    # the move that hands the turn to Alice pings her with her answers under it (issue 30).
    for move in moves:
        handed = move.pinged == [ALICE]
        assert bool(components_of(move)) == handed, move.content
        assert ("NATO may answer" in move.content or "NATO: /game act" in move.content) == handed
    assert any(move.pinged == [ALICE] for move in moves)
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


async def test_a_deadline_paced_then_ai_hands_bobs_turn_to_the_computer_and_back(
        settings: Settings, recorder: RecordingAdapter) -> None:
    """Alice and Bob agree on ``/game pace hours:1 then:ai``; Bob is silent past the set-up's
    deadline: the computer sets his units up, posted in the channel; in turn 1 Bob's own
    order hands the Soviets back to him."""
    clock = ManualClock(datetime(2026, 12, 2, 9, tzinfo=timezone.utc))
    service = await Service.open(settings, clock=clock)
    client = await start_client(RefereeClient(settings), service, 30.0, recorder)
    ids = itertools.count(1)
    alice, bob = (ALICE, "Alice"), (BOB, "Bob")

    async def slash(user: tuple[int, str], group: str, sub: str, **options: object) -> str:
        """Run one slash command; what the bot sent for it (its reply, then any picture)."""
        before = len(recorder.sent)
        await feed_gateway(client, interaction_payload(group, sub, dict(options), user=user,
                                                       interaction_id=next(ids)))
        said = "\n".join(s.content for s in recorder.sent[before:])
        assert "⛔" not in said, said
        return said

    try:
        await slash(alice, "game", "new", system="rr")
        await slash(alice, "game", "join", side="nato")
        await slash(bob, "game", "join", side="soviet")
        await slash(alice, "game", "pace", hours=1, then="ai")
        assert "the computer plays the silent side's turn" in await slash(bob, "game", "pace", hours=1, then="ai")
        await slash(alice, "rr", "deploy-default")
        await slash(alice, "rr", "ready")
        clock.advance(timedelta(hours=2))
        send = poster(client, service)
        assert await service.pacer.tick(send) >= 1
        assert any("🤖 The computer plays Soviets for the rest of this turn" in s.content for s in recorder.sent)
        await service.computer.play(CHANNEL, send)  # what the bot's background task does
        moves = [s for s in recorder.of_kind("channel_send") if "played by the computer for soviet: deploy" in s.content]
        assert moves and all(s.creates for s in moves)
        game = await service.games.load(CHANNEL)
        assert game is not None and game.system.turn(game.state).number == 1  # the set-up is done
        rng = random.Random(3)
        while game.system.waiting_on(game.state) != ["soviet"]:
            order = choose(game.system, candidates(game.system, game.state, "nato"), rng)
            await slash(alice, "rr", order.path(), **order.model_dump(mode="json", exclude_defaults=True))
            game = await service.games.load(CHANNEL)
            assert game is not None
        assert await service.computer.play(CHANNEL, send) == 0  # the stand-in was the set-up's only
        order = choose(game.system, candidates(game.system, game.state, "soviet"), rng)
        said = await slash(bob, "rr", order.path(), **order.model_dump(mode="json", exclude_defaults=True))
        assert "is back: the computer hands soviet back." in said
        assert await service.pipeline.stand_ins.level(game.row.id, "soviet") is None
    finally:
        await client.close()
