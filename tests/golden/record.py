"""Golden transcripts: one short seeded game of every system, played through the Service as
the console plays it, written as text (issue 23: "nothing changes for players").

    /work/venv/bin/python -m tests.golden.record            # every system
    /work/venv/bin/python -m tests.golden.record rr raiders # some

Each game is fixed by its seeds: the dice seed (a constant per system instead of
``secrets``), the robots' random choices (``random.Random``), the interaction ids and a
clock that only moves when the script moves it.  Every reply is written as a player sees it
(text, fields, who is pinged, ephemeral or not), then what the bot posts on its own after
the command (reminders, deadlines, digests: the console's ``deliver``), and every picture as
its file name and the SHA-256 of its PNG bytes (the PNGs themselves would bloat the repo).

The script of a game: open it, seat every side, agree a 24-hour pace, then robot orders
with a moderator's reroll and a rollback in between, ``/game status``, ``log``, ``digest``,
``map``, a deadline that passes (``then:pass``), and ``/game end``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import random
import re
import sys
import tempfile
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, AsyncIterator
from unittest import mock

from bot import gamecmds
from bot.autoplay import order_options
from bot.config import Settings
from bot.models import Invocation, Reply
from bot.pacing.clock import ManualClock
from bot.pacing.times import in_utc
from bot.service import Service
from rules.core import registry
from rules.core.dice import seed_hash
from rules.core.playout import choose

HERE = Path(__file__).resolve().parent
#: The five systems under rules/ (the test-only duel is not a player's game).
SYSTEMS = ("commando", "mak", "raiders", "rr", "skirmish")
#: Robot orders before the reroll, before the rollback, and after it.
ORDERS = (8, 8, 8)
START = datetime(2026, 11, 2, 18, 0, tzinfo=timezone.utc)
CHANNEL = "golden"


#: A chain head as replies show it (16 hex digits after the link mark, or 64 in /game end).
CHAIN_HEAD = re.compile(r"(?<=🔗 )[0-9a-f]{16,64}|(?<=--anchor )[0-9a-f]{64}")
#: An anchor line's tag (made from its head, issue 45), masked with it.
ANCHOR_TAG = re.compile(r"(?<=\) · )[0-9a-f]{8}$", re.M)


def path_of(system_key: str) -> Path:
    """Where a system's golden transcript is kept."""
    return HERE / f"{system_key}.txt"


class Recorder:
    """Plays one system's golden game and keeps every line a channel would show."""

    def __init__(self, service: Service, system_key: str, clock: ManualClock) -> None:
        self.service = service
        self.key = system_key
        self.clock = clock
        self.system = registry.get(system_key)
        self.rng = random.Random(f"golden-{system_key}")
        self.lines: list[str] = []
        self.ids = 0
        self.last: dict[str, Any] = {}

    def user(self, side: str) -> str:
        """The user holding ``side``."""
        return f"{side}-player"

    async def send(self, user: str, command: list[str], options: dict[str, Any] | None = None,
                   *, moderator: bool = False) -> Reply:
        """One command as the console sends it; its reply and what follows it recorded."""
        self.ids += 1
        inv = Invocation(channel_id=CHANNEL, guild_id="golden", user_id=user, user_name=user,
                         is_moderator=moderator, command=command, options=options or {},
                         interaction_id=f"golden-{self.ids}")
        words = " ".join(f"{k}:{v}" for k, v in sorted((options or {}).items()))
        self.lines.append(f"> @{user} /{' '.join(command)} {words}".rstrip())
        reply = await self.service.handle(inv)
        if reply.snapshot_key and not reply.error:
            reply = await self.service.attach_snapshot(reply)
        self.show(reply)
        await self.service.pacer.tick(self.posted)
        return reply

    async def posted(self, channel_id: str, reply: Reply) -> None:
        """What the bot posts on its own (the console's 📣)."""
        if reply.snapshot_key:
            reply = await self.service.attach_snapshot(reply)
        self.show(reply.model_copy(update={"text": "📣 " + reply.text}))

    def show(self, reply: Reply) -> None:
        """A reply as text: what a player reads, and a digest of every file.  The hash
        chain's head is masked: the records it seals carry the wall-clock time they were
        written (issue 29), so it differs from run to run, and so does each anchor line's tag;
        the chain has its own tests."""
        prefix = "(ephemeral) " if reply.ephemeral else ""
        text = ANCHOR_TAG.sub("⟨tag⟩", CHAIN_HEAD.sub("⟨chain head⟩", prefix + reply.text))
        self.lines += in_utc(text, self.clock.now()).splitlines()
        self.lines += [f"{f.name}: {f.value}" for f in reply.fields]
        if reply.mentions:
            self.lines.append("🔔 " + " ".join(f"@{m}" for m in reply.mentions))
        for a in reply.attachments:
            # Only pictures are compared by their bytes; an export holds timestamps.
            digest = hashlib.sha256(a.data).hexdigest() if a.filename.endswith(".png") else "-"
            self.lines.append(f"📎 {a.filename} {digest}")

    async def robot_orders(self, count: int) -> int:
        """Up to ``count`` random legal orders of whoever is waited on; returns how many."""
        for done in range(count):
            game = await self.service.games.load(CHANNEL)
            assert game is not None
            waiting = game.system.waiting_on(game.state)
            if not waiting or game.system.result(game.state) is not None:
                return done
            side = waiting[0]
            actions = [a for a in game.system.legal_actions(game.state, side, read_only=False)
                       if not a.read_only]
            action = choose(game.system, actions, self.rng, self.last.get(side))
            self.last[side] = action
            self.clock.advance(timedelta(minutes=7))
            await self.give(side, action)
        return count

    async def give(self, side: str, action: Any) -> Reply:
        """The order ``action`` of ``side``, as its player types it."""
        return await self.send(self.user(side), [self.key, action.name], order_options(action))

    async def until_dice(self, most: int) -> None:
        """Robot orders until one rolls dice (so the reroll has something to reroll)."""
        for _ in range(most):
            game = await self.service.games.load(CHANNEL)
            assert game is not None
            head = await self.service.store.step(game.row.id, game.row.head_seq)
            if head is not None and head.dice and head.kind == "order":
                return
            if await self.robot_orders(1) == 0:
                return

    async def play(self) -> list[str]:
        """The whole script (see the module's docstring)."""
        sides = list(self.system.sides)
        mod = "moderator"
        solo = len(sides) == 1
        await self.send(self.user(sides[0]) if solo else mod, ["game", "new"], {"system": self.key})
        for side in () if solo else sides:
            await self.send(self.user(side), ["game", "join"], {"side": side})
        for side in sides:
            await self.send(self.user(side), ["game", "pace"], {"hours": 24, "then": "pass"})
        await self.robot_orders(ORDERS[0])
        await self.until_dice(30)
        await self.send(mod, ["mod", "reroll"], {"reason": "golden reroll"}, moderator=True)
        await self.robot_orders(ORDERS[1])
        game = await self.service.games.load(CHANNEL)
        assert game is not None
        await self.send(mod, ["mod", "rollback"], {"to": max(1, game.row.head_seq - 4),
                                                     "reason": "golden rollback"}, moderator=True)
        await self.robot_orders(ORDERS[2])
        await self.send(self.user(sides[0]), ["game", "status"])
        await self.send(self.user(sides[0]), ["game", "log"])
        await self.send(self.user(sides[0]), ["game", "digest"], {"since": "#1"})
        await self.send(self.user(sides[0]), ["game", "map"])
        self.clock.advance(timedelta(hours=25))
        self.lines.append("(25 hours pass)")
        await self.service.pacer.tick(self.posted)
        await self.send(mod, ["game", "end"], moderator=True)
        return self.lines


@contextlib.asynccontextmanager
async def seeded_service(system_key: str, seed_name: str | None = None) -> AsyncIterator[tuple[Service, ManualClock]]:
    """A service on a fresh SQLite file whose games of ``system_key`` get the golden dice
    seed (or the seed named ``seed_name``: the corpus's, ``tests/corpus/record.py``), and the
    clock it reads (at :data:`START`, moved only by hand)."""
    seed = hashlib.sha256((seed_name or f"golden-{system_key}").encode()).digest()
    with tempfile.TemporaryDirectory(prefix="referee-golden-") as tmp, \
            mock.patch.object(gamecmds, "new_seed", lambda: (seed, seed_hash(seed))):
        clock = ManualClock(START)
        settings = Settings(db=Path(tmp) / "golden.db", snapshot_dir=Path(tmp) / "snaps",
                            html_at_end=False, rate_limits=False)
        service = await Service.open(settings, clock=clock)
        try:
            yield service, clock
        finally:
            await service.close()


async def record(system_key: str) -> list[str]:
    """The golden transcript of one system, played now on a fresh SQLite file."""
    async with seeded_service(system_key) as (service, clock):
        return await Recorder(service, system_key, clock).play()


def main(argv: list[str] | None = None) -> int:
    """Record (overwrite) the golden transcripts of the systems named, or of all five."""
    keys = (argv if argv is not None else sys.argv[1:]) or list(SYSTEMS)
    for key in keys:
        lines = asyncio.run(record(key))
        path_of(key).write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"{path_of(key).relative_to(HERE.parent.parent)}: {len(lines)} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
