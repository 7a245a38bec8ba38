"""Robot players for a league season: every open pairing's game played to its end with
random legal orders (``rules/core/playout.choose``) by the seated members, then ended by one
of its players (players may end a game once the rules have).

The robots give their orders through a front end (:data:`Send`): the console's command
lines (:func:`console_send`) or Discord interactions on the real command tree
(``tests/discord/test_discord_league.py``), so a season is played as its players play it.
They only look at the game (which side is waited on, what is legal) through the service.
"""

from __future__ import annotations

import itertools
import random
import shlex
from collections.abc import Awaitable, Callable

from bot.autoplay import order_options
from bot.console import Console
from bot.models import Invocation
from bot.service import Service
from rules.core.playout import choose

_ids = itertools.count(1)
PLAYERS = ["alice", "bob", "carol", "dan", "erin", "frank"]

#: One command through a front end, as a player gives it: ``(user id, channel, command
#: words, options)`` -> ``(refused, what the reply said)``.
Send = Callable[[str, str, list[str], dict[str, object]], Awaitable[tuple[bool, str]]]


def inv(user: str, channel: str, command: list[str], options: dict[str, object] | None = None, *,
        moderator: bool = False, guild: str | None = None) -> Invocation:
    """An invocation from ``user`` in ``channel`` (console-like: the name is the id)."""
    return Invocation(channel_id=channel, guild_id=guild, user_id=user, user_name=user, is_moderator=moderator,
                      command=command, options=dict(options or {}), interaction_id=f"lg-{next(_ids)}",
                      front="console")


def console_line(user: str, words: list[str], options: dict[str, object]) -> str:
    """``@alice /rr move unit:t1 to:0405``: a command as typed in the console (a list's
    values comma separated, as Discord's text options take them)."""
    typed = {k: ",".join(str(x) for x in v) if isinstance(v, list) else str(v) for k, v in options.items()}
    return " ".join([f"@{user}", "/" + " ".join(words), *(f"{k}:{shlex.quote(v)}" for k, v in typed.items())])


def console_send(console: Console) -> Send:
    """:data:`Send` through the console: ``/channel`` to the game's channel, then the line."""

    async def send(user: str, channel: str, words: list[str], options: dict[str, object]) -> tuple[bool, str]:
        if console.channel != channel:
            await console.run_line(f"/channel {channel}")
        reply = await console.run_line(console_line(user, words, options))
        assert reply is not None
        return reply.error, reply.text

    return send


async def play_out(service: Service, channel: str, rng: random.Random, send: Send, *,
                   concede_after: int | None = None) -> str:
    """Play the game of ``channel`` to its end by the rules (or, with ``concede_after``, that
    many orders, then the side waited on concedes), every order sent through ``send``; the
    ending reply's text."""
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
        refused, text = await send(holder.user_id, channel, [game.system.key, *action.path().split()],
                                   order_options(action))
        assert not refused, text
    game = await service.games.require(channel)
    if game.system.result(game.state) is None:
        holder = game.holder(game.system.waiting_on(game.state)[0])
        assert holder is not None
        refused, text = await send(holder.user_id, channel, ["game", "concede"], {})
        assert not refused, text
        return text
    refused, text = await send(game.seats[0].user_id, channel, ["game", "end"], {})
    assert not refused, text
    return text
