"""Robot players for a league season: every open pairing's game played to its end with
random legal orders (``rules/core/playout.choose``) by the seated members, then ended by one
of its players (players may end a game once the rules have)."""

from __future__ import annotations

import itertools
import random

from bot.autoplay import order_options
from bot.models import Invocation
from bot.service import Service
from rules.core.playout import choose

_ids = itertools.count(1)
PLAYERS = ["alice", "bob", "carol", "dan", "erin", "frank"]


def inv(user: str, channel: str, command: list[str], options: dict[str, object] | None = None, *,
        moderator: bool = False, guild: str | None = None) -> Invocation:
    """An invocation from ``user`` in ``channel`` (console-like: the name is the id)."""
    return Invocation(channel_id=channel, guild_id=guild, user_id=user, user_name=user, is_moderator=moderator,
                      command=command, options=dict(options or {}), interaction_id=f"lg-{next(_ids)}",
                      front="console")


async def play_out(service: Service, channel: str, rng: random.Random, *, guild: str | None = None,
                   concede_after: int | None = None) -> str:
    """Play the game of ``channel`` to its end by the rules (or, with ``concede_after``, that
    many orders, then the side waited on concedes); the ending reply's text."""
    last: dict[str, object] = {}
    for _ in range(concede_after if concede_after is not None else 10**6):
        game = await service.games.require(channel)
        if game.system.result(game.state) is not None:
            break
        side = game.system.waiting_on(game.state)[0]
        holder = game.holder(side)
        assert holder is not None
        legal = [a for a in game.system.legal_actions(game.state, side, read_only=False) if not a.read_only]
        action = choose(game.system, legal, rng, last.get(side))  # type: ignore[arg-type]
        last[side] = action
        reply = await service.handle(inv(holder.user_id, channel, [game.system.key, *action.path().split()],
                                         order_options(action), guild=guild))
        assert not reply.error, reply.text
    game = await service.games.require(channel)
    if game.system.result(game.state) is None:
        holder = game.holder(game.system.waiting_on(game.state)[0])
        assert holder is not None
        reply = await service.handle(inv(holder.user_id, channel, ["game", "concede"], guild=guild))
        assert not reply.error, reply.text
        return reply.text
    reply = await service.handle(inv(game.seats[0].user_id, channel, ["game", "end"], guild=guild))
    assert not reply.error, reply.text
    return reply.text
