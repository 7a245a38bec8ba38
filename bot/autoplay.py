"""Robot players: real games through the real :class:`~bot.service.Service`, one legal order
at a time, in one channel or in many at once.

The benchmark and the reliability tests both drive games this way: the acting side's seat
holder sends one of ``system.legal_actions(state, side)``, picked as the conformance kit's
random player picks (:func:`rules.core.playout.choose`), as an :class:`Invocation` whose
options are ``action.model_dump(mode="json", exclude_defaults=True)``: exactly what a player
types.  It lives here, not under ``bench/`` or ``tests/``, so that neither imports the other.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import time
from dataclasses import dataclass, field
from typing import Any

from bot.models import Invocation, Reply
from bot.service import Service
from rules.core import registry
from rules.core.contract import Action, GameSystem
from rules.core.playout import choose

PREFERRED_SYSTEM = "rr"


def pick_system(prefer: str = PREFERRED_SYSTEM) -> tuple[str, str]:
    """``(key, note)`` of the system the robots play (a RuleError if it is not registered)."""
    system = registry.get(prefer)
    return prefer, f"{system.title} (`{prefer}`)"


_interaction_ids = itertools.count(1)


@dataclass
class Channel:
    """One channel's game: who holds which side, and how to send orders as them."""

    service: Service
    system_key: str
    channel: str
    rng: random.Random = field(default_factory=lambda: random.Random(1))
    scenario: str | None = None
    #: Each side's previous order (a standing choice is not repeated in a row).
    last: dict[str, Action] = field(default_factory=dict)
    #: Replies of orders that were acknowledged (not errors), with the interaction ids.
    acknowledged: list[tuple[str, Reply]] = field(default_factory=list)

    @property
    def system(self) -> GameSystem[Any]:
        """The game system played here."""
        return registry.get(self.system_key)

    def user(self, side: str) -> str:
        """The user id that holds ``side`` in this channel."""
        return f"{self.channel}-{side}"

    @property
    def moderator(self) -> str:
        """The moderator's user id for this channel."""
        return f"{self.channel}-mod"

    def invocation(
        self, user: str, command: list[str], options: dict[str, Any] | None = None,
        *, moderator: bool = False, interaction_id: str | None = None,
    ) -> Invocation:
        """An invocation from ``user`` in this channel with a fresh interaction id."""
        return Invocation(
            channel_id=self.channel, guild_id="bench", user_id=user, user_name=user,
            is_moderator=moderator, command=command, options=options or {},
            interaction_id=interaction_id or f"{self.channel}-i{next(_interaction_ids)}",
        )

    async def send(self, inv: Invocation) -> Reply:
        """Hand one invocation to the service."""
        return await self.service.handle(inv)

    async def open(self) -> None:
        """``/game new`` and one ``/game join`` per side; any refusal is a failure."""
        options = {"system": self.system_key}
        if self.scenario:
            options["scenario"] = self.scenario
        # A solitaire game seats whoever starts it: its player opens it.
        solo = len(self.system.sides) == 1
        opener = self.user(self.system.sides[0]) if solo else self.moderator
        replies = [await self.send(self.invocation(opener, ["game", "new"], options))]
        for side in () if solo else self.system.sides:
            replies.append(await self.send(
                self.invocation(self.user(side), ["game", "join"], {"side": side})))
        refused = [r.text for r in replies if r.error]
        if refused:
            raise RuntimeError(f"opening a game in {self.channel} was refused: {refused}")

    async def to_act(self) -> tuple[Any, str] | None:
        """``(live game, side)`` of the side the game waits on, or None when it is over."""
        game = await self.service.games.load(self.channel)
        if game is None:
            return None
        waiting = game.system.waiting_on(game.state)
        if not waiting or game.system.result(game.state) is not None:
            return None
        return game, waiting[0]

    async def next_order(self) -> Invocation | None:
        """A random legal order for the side the game waits on, or None when it is over."""
        acting = await self.to_act()
        if acting is None:
            return None
        game, side = acting
        actions = [a for a in game.system.legal_actions(game.state, side, read_only=False) if not a.read_only]
        if not actions:
            raise RuntimeError(f"{self.system_key} offers no legal order to {side} in {self.channel}")
        action = choose(game.system, actions, self.rng, self.last.get(side))
        self.last[side] = action
        # A sealed order is given privately, as its player would (issue 28).
        inv = self.invocation(self.user(side), [self.system_key, *action.path().split()],
                              order_options(action))
        return inv.model_copy(update={"private": type(action).sealed})

    async def restart(self) -> None:
        """``/game end`` by the moderator, then a new game with the same seats."""
        reply = await self.send(self.invocation(self.moderator, ["game", "end"], moderator=True))
        if reply.error:
            raise RuntimeError(f"ending the game in {self.channel} was refused: {reply.text}")
        await self.open()

    async def order(self) -> tuple[Invocation, Reply]:
        """Send one legal order (starting a new game first if this one is over)."""
        inv = await self.next_order()
        if inv is None:
            await self.restart()
            inv = await self.next_order()
            if inv is None:
                raise RuntimeError(f"a fresh {self.system_key} game waits on nobody")
        reply = await self.send(inv)
        if not reply.error:
            assert inv.interaction_id is not None
            self.acknowledged.append((inv.interaction_id, reply))
        return inv, reply


def order_options(action: Action) -> dict[str, Any]:
    """The options a player would type for ``action`` (defaults left out)."""
    return action.model_dump(mode="json", exclude_defaults=True)


async def play(channel: Channel, arrivals: list[float], latencies: list[float], t0: float,
               driver: list[float] | None = None) -> None:
    """Send one legal order at each of ``arrivals`` (seconds after ``t0``; all 0 for
    saturation), timing each ``handle``.

    A player reads the reply before the next order, so an order due while the previous one
    is still out waits for it.  ``driver`` collects the seconds spent choosing orders
    (``legal_actions``): the benchmark's own work, done on the service's event loop.
    """
    for due in arrivals:
        delay = t0 + due - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        chose = time.perf_counter()
        inv = await channel.next_order()
        while inv is None:  # the game ended: a new one (not timed, not counted)
            await channel.restart()
            inv = await channel.next_order()
        start = time.perf_counter()
        if driver is not None:
            driver.append(start - chose)
        reply = await channel.send(inv)
        latencies.append(time.perf_counter() - start)
        if reply.error:
            raise RuntimeError(f"{channel.channel}: a legal order was refused: {reply.text}")
        assert inv.interaction_id is not None
        channel.acknowledged.append((inv.interaction_id, reply))


def schedule(channels: int, orders: int, rate: float | None, seed: int = 7) -> list[list[float]]:
    """Each channel's order times: one Poisson stream of ``rate`` orders/s dealt round-robin
    (``rate`` None: every order due at once, i.e. saturation)."""
    rng = random.Random(seed)
    out: list[list[float]] = [[] for _ in range(channels)]
    now = 0.0
    for k in range(channels * orders):
        if rate is not None:
            now += rng.expovariate(rate)
        out[k % channels].append(now)
    return out
