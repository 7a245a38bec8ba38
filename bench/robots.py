"""The benchmark's robot players in a process of their own (issue 23, point 4).

Choosing a random legal order (``legal_actions``, then :func:`rules.core.playout.choose`)
took ~30% of the service's event loop when the robots ran beside it, so the figures
measured the bench as much as the bot.  Here a :class:`RobotChannel` asks a worker process
for each order: it sends the head's state as the service stored it (the cached row's JSON,
so the service serialises nothing) and gets back the order's name and options, exactly
what a player types.  Each channel's random generator and last orders live in the worker,
so a channel plays the same game as a :class:`bot.autoplay.Channel` with the same seed.
"""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from bot.autoplay import Channel, order_options
from bot.models import Invocation, Reply
from rules.core import registry
from rules.core.contract import Action
from rules.core.playout import choose

#: In the worker: each channel's random generator and each side's last order.
_RNGS: dict[str, random.Random] = {}
_LAST: dict[tuple[str, str], Action] = {}


def choose_order(system_key: str, channel: str, seed: int, state_json: str,
                 side: str) -> tuple[str, dict[str, Any]]:
    """In the worker: a random legal order of ``side`` on the state, as typed options."""
    system = registry.get(system_key)
    state = system.load_state(state_json)
    rng = _RNGS.setdefault(channel, random.Random(seed))
    actions = [a for a in system.legal_actions(state, side, read_only=False) if not a.read_only]
    if not actions:
        raise RuntimeError(f"{system_key} offers no legal order to {side} in {channel}")
    action = choose(system, actions, rng, _LAST.get((channel, side)))
    _LAST[(channel, side)] = action
    return action.name, order_options(action)


def robot_pool() -> ProcessPoolExecutor:
    """One worker process for every robot of a run (it keeps their generators)."""
    return ProcessPoolExecutor(max_workers=1)


@dataclass
class RobotChannel(Channel):
    """A :class:`Channel` whose orders are chosen in the robots' process."""

    pool: ProcessPoolExecutor | None = None
    seed: int = 1
    #: The next order, being chosen in the robots' process since the last reply.
    _next: asyncio.Future[Invocation | None] | None = field(default=None, repr=False)

    async def send(self, inv: Invocation) -> Reply:
        """Hand one invocation to the service; then, while the player "reads the reply",
        the robots' process already chooses the next order (it is ready by the time it is
        due at the offered load, so the service's loop never waits for it)."""
        reply = await self.service.handle(inv)
        if self.pool is not None:
            if self._next is not None:
                self._next.cancel()  # superseded (a game opening sends several commands)
            self._next = asyncio.ensure_future(self._choose())
            # Retrieved even if never awaited (the run ended with a choice under way).
            self._next.add_done_callback(lambda f: f.cancelled() or f.exception())
        return reply

    def stop(self) -> None:
        """The run is over: drop the choice under way (before the pool shuts down)."""
        if self._next is not None:
            self._next.cancel()
            self._next = None

    async def next_order(self) -> Invocation | None:
        """A random legal order for the side waited on, chosen in the robots' process."""
        if self._next is not None:
            ahead, self._next = self._next, None
            return await ahead
        return await self._choose()

    async def _choose(self) -> Invocation | None:
        if self.pool is None:
            return await super().next_order()
        acting = await self.to_act()
        if acting is None:
            return None
        game, side = acting
        name, options = await asyncio.get_running_loop().run_in_executor(
            self.pool, choose_order, self.system_key, self.channel, self.seed, game.row.state_json, side)
        return self.invocation(self.user(side), [self.system_key, name], options)


__all__ = ["RobotChannel", "choose_order", "robot_pool"]
