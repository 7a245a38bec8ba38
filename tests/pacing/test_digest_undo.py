"""One turn digest per turn actually ended (issue 19 item 4; a play-test of issue 23).

A player ended a game turn, the digest was posted; they took the order back with
``/game undo`` and gave it again: a second digest of the same turn was posted.  Players
expect one account of each turn: the same turn ended the same way again is not news.  If
the turn is played otherwise after the take-back, the digest that went out is wrong, and
a corrected one is posted, saying so.  Through the service, on a real SQLite file and on
PostgreSQL; Commando's and MaK's turn ends with an ``end`` that rolls no dice, so it may be
taken back (undo refuses a rolled step).
"""

from __future__ import annotations

import pytest

from bot.autoplay import Channel, order_options
from bot.models import Invocation
from bot.pacing import store as pstore
from bot.service import Service
from tests.pacing.conftest import Outbox
from tests.pacing.test_digest import first_digest


async def due_digests(service: Service, channel: Channel) -> list[pstore.Scheduled]:
    game = await service.games.load(channel.channel)
    assert game is not None
    return [m for m in await pstore.pending_messages(service.store, game.row.id) if m.kind == "digest"]


async def take_back_and_give_again(channel: Channel, inv: Invocation) -> None:
    """``/game undo`` by the player who ended the turn, then the same order again."""
    undo = await channel.send(channel.invocation(inv.user_id, ["game", "undo"]))
    assert not undo.error and undo.text.startswith("↩️"), undo.text
    again = await channel.send(inv.model_copy(update={"interaction_id": f"{inv.interaction_id}-again"}))
    assert not again.error, again.text


def digests(outbox: Outbox) -> list[str]:
    return [text for text in outbox.texts() if text.startswith("📰")]


@pytest.mark.parametrize("key", ["commando", "mak"])
async def test_an_order_taken_back_and_given_again_posts_no_second_digest(
        service: Service, outbox: Outbox, key: str) -> None:
    channel, _, inv = await first_digest(service, key)
    assert await service.pacer.tick(outbox) == 1
    (first,) = digests(outbox)
    await take_back_and_give_again(channel, inv)
    assert await service.pacer.tick(outbox) == 0, outbox.texts()[-1]
    assert digests(outbox) == [first]
    assert await due_digests(service, channel) == []


@pytest.mark.parametrize("key", ["commando", "mak"])
async def test_an_order_taken_back_before_its_digest_went_out_posts_one_digest(
        service: Service, outbox: Outbox, key: str) -> None:
    """The bot was slow (or the console had not ticked): the digest of the order taken back
    is not posted; the order given again posts the turn's one digest, up to its step."""
    channel, _, inv = await first_digest(service, key)
    await take_back_and_give_again(channel, inv)
    assert await service.pacer.tick(outbox) == 1
    (posted,) = digests(outbox)
    game = await service.games.load(channel.channel)
    assert game is not None
    assert posted.splitlines()[0].endswith(f"–#{game.row.head_seq})"), posted
    assert "corrected" not in posted


async def test_a_turn_played_otherwise_after_a_take_back_gets_a_corrected_digest(
        service: Service, outbox: Outbox) -> None:
    """MaK (4.0): Strahl ends its phase, the turn's digest goes out; Strahl takes the end
    back, gives another order first, then ends: the turn's digest is posted again, marked
    as a correction of the one before, once."""
    channel, _, inv = await first_digest(service, "mak")
    assert await service.pacer.tick(outbox) == 1
    undo = await channel.send(channel.invocation(inv.user_id, ["game", "undo"]))
    assert not undo.error, undo.text
    game = await service.games.load(channel.channel)
    assert game is not None
    side = game.system.waiting_on(game.state)[0]
    other = next(a for a in game.system.legal_actions(game.state, side, read_only=False)
                 if not a.read_only and a.path() != "end")
    moved = await channel.send(channel.invocation(inv.user_id, ["mak", *other.path().split()],
                                                  order_options(other)))
    assert not moved.error, moved.text
    again = await channel.send(inv.model_copy(update={"interaction_id": f"{inv.interaction_id}-again"}))
    assert not again.error, again.text
    assert await service.pacer.tick(outbox) == 1
    first, corrected = digests(outbox)
    name = first.split(" digest")[0]
    assert corrected.startswith(f"{name} digest, corrected (steps #"), corrected
    assert corrected.splitlines()[1].startswith(f"Replaces the earlier {name[2:]} digest")
    assert await service.pacer.tick(outbox) == 0
