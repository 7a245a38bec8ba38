"""Digests across rollbacks and rerolls (issue 25, point 11): a rollback posts no digest
(it used to post an empty, mislabelled one: "M5 Op 1 digest · Orders: none"), a turn played
again after it gets its digest once it ends, with its orders; a reroll's log line names
the moderator who rerolled, not the side as if it gave an order."""

from __future__ import annotations

import random

import pytest

from bot.autoplay import Channel
from bot.service import Service
from tests.pacing.conftest import Outbox
from tests.pacing.test_digest import first_digest


async def moderate(channel: Channel, command: str, **options: object) -> str:
    """A moderator's command, which must be accepted; its reply text."""
    reply = await channel.send(channel.invocation(channel.moderator, ["mod", command],
                                                  dict(options), moderator=True))
    assert not reply.error, reply.text
    return reply.text


@pytest.mark.parametrize("key", ["raiders", "rr"])
async def test_a_rollback_into_the_turn_before_posts_no_digest(service: Service, outbox: Outbox,
                                                                key: str) -> None:
    channel, _, _ = await first_digest(service, key)
    assert await service.pacer.tick(outbox) == 1
    first = outbox.texts()[-1]
    assert "Orders: none" not in first
    game = await service.games.load(channel.channel)
    assert game is not None
    # Back to the step before the one that ended the turn: into that turn again.
    await moderate(channel, "rollback", to=game.row.head_seq - 1, reason="misclick")
    assert await service.pacer.tick(outbox) == 0, outbox.texts()[-1]
    # Played on, the turn ends again: its digest lists its orders, named for that turn.
    for _ in range(400):
        _, reply = await channel.order()
        assert not reply.error, reply.text
        if await service.pacer.tick(outbox):
            break
    again = outbox.texts()[-1]
    assert again.splitlines()[0].split(" digest")[0] == first.splitlines()[0].split(" digest")[0]
    assert "Orders: none" not in again


async def test_a_reroll_is_logged_as_the_moderator_s(service: Service) -> None:
    channel = Channel(service, "rr", "reroll-log", rng=random.Random(4))
    await channel.open()
    for _ in range(200):
        await channel.order()
        game = await service.games.load(channel.channel)
        assert game is not None
        if await service.store.last_dice_step(game.row.id) is not None:
            break
    await moderate(channel, "reroll", reason="dice fell off the table")
    log = await channel.send(channel.invocation(channel.user("nato"), ["game", "log"]))
    line = next(t for t in log.text.splitlines() if "rerolled" in t)
    assert f"{channel.moderator} (moderator) rerolled #" in line, line
