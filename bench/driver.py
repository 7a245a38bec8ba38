"""Play a real game through the real :class:`~bot.service.Service`, one legal order at a time.

The benchmark and the reliability tests both drive games this way: the acting side's seat
holder sends one of ``system.legal_actions(state, side)`` as an :class:`Invocation` whose
options are ``action.model_dump(mode="json", exclude_defaults=True)`` — exactly what a player
types.  Raid and Riposte (``rr``) is used when it is registered; until then the platform's
``duel`` test system stands in, and every caller says which one ran.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field
from typing import Any

from bot.models import Invocation, Reply
from bot.service import Service
from rules.core import registry
from rules.core.contract import Action, GameSystem

PREFERRED_SYSTEM = "rr"
FALLBACK_SYSTEM = "duel"


def pick_system(prefer: str = PREFERRED_SYSTEM) -> tuple[str, str]:
    """``(key, note)``: ``prefer`` when registered, else the ``duel`` test system.

    Must run before a :class:`Service` is built: the service reads the registry once.
    """
    systems = registry.load_all()
    if prefer in systems:
        return prefer, f"{systems[prefer].title} (`{prefer}`)"
    from tests.platform.duel import DUEL  # noqa: PLC0415 - only when the real system is absent

    registry.register(DUEL)
    return FALLBACK_SYSTEM, f"the `duel` test system (`{prefer}` not registered yet)"


_interaction_ids = itertools.count(1)


@dataclass
class Channel:
    """One channel's game: who holds which side, and how to send orders as them."""

    service: Service
    system_key: str
    channel: str
    rng: random.Random = field(default_factory=lambda: random.Random(1))
    scenario: str | None = None
    #: Replies of orders that were acknowledged (not errors), with the interaction ids.
    acknowledged: list[tuple[str, Reply]] = field(default_factory=list)

    @property
    def system(self) -> GameSystem:
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
        replies = [await self.send(self.invocation(self.moderator, ["game", "new"], options))]
        for side in self.system.sides:
            replies.append(await self.send(
                self.invocation(self.user(side), ["game", "join"], {"side": side})))
        refused = [r.text for r in replies if r.error]
        if refused:
            raise RuntimeError(f"opening a game in {self.channel} was refused: {refused}")

    async def next_order(self) -> Invocation | None:
        """A random legal order for the side the game waits on, or None when it is over."""
        game = await self.service.live_game(self.channel)
        if game is None:
            return None
        waiting = game.system.waiting_on(game.state)
        if not waiting or game.system.result(game.state) is not None:
            return None
        side = waiting[0]
        actions = [a for a in game.system.legal_actions(game.state, side) if not a.read_only]
        if not actions:
            raise RuntimeError(f"{self.system_key} offers no legal order to {side} in {self.channel}")
        action = self.rng.choice(actions)
        return self.invocation(self.user(side), [self.system_key, action.name], order_options(action))

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
