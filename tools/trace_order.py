#!/usr/bin/env python3
"""Which modules of ``bot/``, ``rules/`` and ``render/`` one ``/rr fire`` enters on the
main thread before its reply (issue 39: "a reviewer following one ``/rr fire`` crosses at
most 12 module boundaries").

Usage:  python -m tools.trace_order [--delivery] [--list]

A seeded Red Ranger game is played through the :class:`~bot.service.Service` as the
golden transcript plays it (``tests/golden/record.py``: every side seated, a pace agreed,
robot orders) until the side waited on may fire; then that one ``/rr fire`` is traced with
:func:`sys.setprofile` (the main thread only: a picture drawn in ``asyncio.to_thread`` is
not counted) from ``Service.handle`` until it returns the reply.  With ``--delivery`` the
front end's work after it is traced too, as the console does it: the offer
(``Service.attach_offer``) and the picture (``Service.attach_snapshot``).

Prints the number of distinct modules entered, and with ``--list`` each of them with the
number of times a call entered it from another module (a boundary crossed); and the deepest
path: the longest chain of module boundaries on one call stack, the files a reviewer reads
one inside the other to follow the order down to its deepest call.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections import Counter
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

from bot.autoplay import order_options
from bot.models import Invocation, Reply
from bot.service import Service
from tests.golden.record import CHANNEL, Recorder, seeded_service

#: The packages whose modules are counted.
PACKAGES = ("bot", "rules", "render")
#: Robot orders played at most before giving up on a legal fire.
MOST_ORDERS = 60


@dataclass
class Trace:
    """The modules of :data:`PACKAGES` entered, and how often a call crossed into each."""

    crossings: Counter[str] = field(default_factory=Counter)
    #: The longest run of module boundaries on one call stack (outermost first): how many
    #: files deep a reviewer following the order from ``Service.handle`` has to read.
    deepest: list[str] = field(default_factory=list)

    @property
    def modules(self) -> list[str]:
        """Every module entered, by name."""
        return sorted(self.crossings)

    def profile(self, frame: FrameType, event: str, arg: Any) -> None:
        """The :func:`sys.setprofile` hook: a call into a counted module from elsewhere."""
        if event != "call":
            return
        name = str(frame.f_globals.get("__name__", ""))
        if name.split(".")[0] not in PACKAGES:
            return
        caller = frame.f_back
        if caller is None or caller.f_globals.get("__name__") != name:
            self.crossings[name] += 1
            chain = stack_chain(frame)
            if len(chain) > len(self.deepest):
                self.deepest = chain


def stack_chain(frame: FrameType | None) -> list[str]:
    """The counted modules on ``frame``'s stack, outermost first, a run of calls inside one
    module counted once: each step of the list is a module boundary crossed."""
    chain: list[str] = []
    while frame is not None:
        name = str(frame.f_globals.get("__name__", ""))
        if name.split(".")[0] in PACKAGES and (not chain or chain[-1] != name):
            chain.append(name)
        frame = frame.f_back
    return chain[::-1]


def _fire(service: Service, game_state: Any, side: str) -> dict[str, Any] | None:
    """The options of a legal fire of ``side``, if it has one."""
    game = service.games.cached(CHANNEL)
    assert game is not None
    fires = [a for a in game.system.legal_actions(game_state, side, read_only=False) if a.name == "fire"]
    return order_options(fires[0]) if fires else None


async def _until_fire(recorder: Recorder, service: Service) -> Invocation:
    """Robot orders until the side waited on may fire; that fire's invocation."""
    for _ in range(MOST_ORDERS):
        game = await service.games.load(CHANNEL)
        assert game is not None
        waiting = game.system.waiting_on(game.state)
        if waiting:
            options = _fire(service, game.state, waiting[0])
            if options is not None:
                return Invocation(channel_id=CHANNEL, guild_id="golden", user_id=recorder.user(waiting[0]),
                                  user_name=recorder.user(waiting[0]), command=["rr", "fire"],
                                  options=options, interaction_id="trace-fire", front="console")
        if await recorder.robot_orders(1) == 0:
            break
    raise SystemExit("no legal fire came up in the seeded game")


async def trace(delivery: bool) -> tuple[Trace, Reply]:
    """Play the seeded game up to a fire and trace that one order."""
    async with seeded_service("rr") as (service, clock):
        recorder = Recorder(service, "rr", clock)
        await recorder.send("moderator", ["game", "new"], {"system": "rr"})
        for side in recorder.system.sides:
            await recorder.send(recorder.user(side), ["game", "join"], {"side": side})
            await recorder.send(recorder.user(side), ["game", "pace"], {"hours": 24, "then": "pass"})
        inv = await _until_fire(recorder, service)
        found = Trace()
        sys.setprofile(found.profile)
        try:
            reply = await service.handle(inv)
            if delivery:
                reply = await service.attach_offer(reply, CHANNEL)
                reply = await service.attach_snapshot(reply)
        finally:
            sys.setprofile(None)
        return found, reply


def main(argv: list[str] | None = None) -> int:
    """Print the count (and with ``--list`` the modules) of one traced ``/rr fire``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--delivery", action="store_true", help="trace the offer and the picture too")
    parser.add_argument("--list", action="store_true", help="list the modules entered")
    args = parser.parse_args(argv)
    found, reply = asyncio.run(trace(args.delivery))
    if reply.error:
        print(f"the fire was refused: {reply.text}", file=sys.stderr)
        return 1
    if args.list:
        for name in found.modules:
            print(f"{found.crossings[name]:6d}  {name}")
    print(f"{len(found.modules)} modules of {', '.join(PACKAGES)} entered on the main thread"
          f" ({sum(found.crossings.values())} calls across a module boundary)")
    print(f"deepest path: {len(found.deepest) - 1} module boundaries on one stack: "
          + " → ".join(found.deepest))
    return 0


if __name__ == "__main__":
    sys.exit(main())
