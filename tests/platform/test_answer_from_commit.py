"""An order's own reply is answered from what its commit left (issue 39, part 4): the
picture and the offer come from the ``Landed`` the reply carries, with no read of the game,
or its log once the game's log window is in hand (only the stored states of earlier steps
never drawn, for what they showed), and they are the same as the ones read back from the
store (``Service.snapshot``: ``/game map``, an owed or repeated reply).  Real SQLite file
and PostgreSQL (the ``settings`` fixture); Raid and Riposte, seeded robot orders."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Awaitable, Callable

import pytest

from bot.autoplay import order_options
from bot.ledger import landed_of
from bot.models import Reply
from bot.service import Service
from rules.core.playout import choose
from tests.platform.conftest import Table

#: What a reader of the store may be asked for a picture or an offer.
READS = ("game", "step", "steps", "log_steps", "states", "active_game", "game_version", "seats",
         "last_seq", "seat_events", "answered")


def count_reads(service: Service, monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """Every read of the service's store from now on, by method."""
    reads: Counter[str] = Counter()

    def counted(name: str, read: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def wrapper(*args: Any, **kwargs: Any) -> Any:
            reads[name] += 1
            return await read(*args, **kwargs)
        return wrapper

    for name in READS:
        monkeypatch.setattr(service.store, name, counted(name, getattr(service.store, name)))
    return reads


async def robot_order(table: Table, rng: random.Random) -> Reply:
    """One seeded random legal order of the side waited on, given by its player."""
    game = await table.service.games.load(table.channel)
    assert game is not None
    side = game.system.waiting_on(game.state)[0]
    actions = [a for a in game.system.legal_actions(game.state, side, read_only=False)
               if not (a.read_only or a.anytime)]  # standing orders are capped in a row
    action = choose(game.system, actions, rng, None)
    inv = table.invocation(side, f"/rr {action.name}").model_copy(
        update={"options": order_options(action)})
    return await table.service.handle(inv)


async def test_an_orders_picture_and_offer_read_nothing_and_match_the_stored_ones(
        table: Table, service: Service, monkeypatch: pytest.MonkeyPatch) -> None:
    await table("mod", "/game new system:rr")
    await table("nato", "/game join side:nato")
    await table("soviet", "/game join side:soviet")
    rng = random.Random("answer-from-commit")
    reads = count_reads(service, monkeypatch)
    pictures = 0
    for number in range(30):
        reply = await robot_order(table, rng)
        assert not reply.error, reply.text
        assert landed_of(reply) is not None  # the order's own reply carries its commit
        reads.clear()
        offered = await service.attach_offer(reply, table.channel)
        drawn = await service.attach_snapshot(offered)
        # The first picture after the game was loaded reads its log window once.  Left: the
        # facts of earlier steps never drawn (no picture of their own) are read from their
        # stored states: who fired in between (``SeenSteps.fired``, one query) and what the
        # side's last order showed (``SeenSteps.of``).
        reads.pop("states", None)
        reads.pop("step", None)
        if pictures:
            assert not reads, (number, dict(reads))
        if reply.snapshot_key:
            pictures += 1
            # The same picture as the store gives (a restart, a repeated delivery).
            assert drawn.attachments[0].data == (await service.snapshot(reply.snapshot_key))[1]
        from_record = Reply.model_validate_json(reply.model_dump_json())
        assert landed_of(from_record) is None  # never stored
        again = await service.attach_offer(from_record, table.channel)
        assert (again.buttons, again.menu, again.text) == (offered.buttons, offered.menu, offered.text)
    assert pictures >= 5


async def test_an_offer_once_the_game_moved_on_is_not_made(table: Table, service: Service) -> None:
    """The Landed's game answers only while nothing was committed since (the cache still
    holds it): a later order's commit makes the earlier reply's offer stale."""
    await table("mod", "/game new system:rr")
    await table("nato", "/game join side:nato")
    await table("soviet", "/game join side:soviet")
    rng = random.Random("moved-on")
    first = await robot_order(table, rng)
    assert not first.error and first.offer_key
    assert not (await robot_order(table, rng)).error
    late = await service.attach_offer(first, table.channel)
    assert not late.buttons and late.menu is None
