"""The computer at the table (issue 43): its seats, its stand-ins, and the moves it makes.

* **A seat.** ``/game join side:soviet ai:normal`` (or ``/mod seat side: ai:``, or the
  console's ``@ai /game join side:soviet``) seats the computer: the seat's user is
  ``computer:<level>:<side>`` (one id a side, so freeing one of its seats frees no other),
  named "computer (normal)".
* **A stand-in.** With ``/game pace … then:ai`` a deadline that passes lets the computer play
  the silent side's orders while that side is waited on; the player's next order of that
  side hands it back (``bot/standins.py``).
* **A move.** :class:`ComputerPlayers` finds the sides of a channel's game the computer is to
  play now, asks a worker process (``bot/thinking.py``) with the side's observation only,
  and sends the chosen order through the service's front door (:meth:`Service.handle`), as a
  player's: same checks, same log, same reply.  It never plays a side a human holds, except
  as a stand-in.  A move that takes more than :data:`THINKING_NOTE` seconds is announced
  ("thinking…") first.  The bot runs it in the background (:meth:`ComputerPlayers.run`),
  nudged after every command, and looks at every such game when it starts: a move being
  thought about when the bot stopped is thought again and made (its seed is the game's and
  the step's, so it is the same move).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot import thinking
from bot.computer_ids import computer_id, computer_name, is_computer, level_named, level_of
from bot.games import LiveGame
from bot.models import Invocation, Reply
from bot.pipeline import Pipeline
from bot.standins import StandIns, turn_of
from rules.core.computer import Decision, Level, candidates

log = logging.getLogger("referee.computer")

#: Seconds of thinking after which the channel is told the computer is thinking.
THINKING_NOTE = 3.0
#: Orders the computer gives in a row in one channel before it lets the others have a turn.
IN_A_ROW = 40
#: Other orders tried when the rules refuse the one chosen (they knew what the side did not).
FALLBACKS = 3
#: How often the background task looks at games with the computer when nothing wakes it.
LOOK_EVERY = 60.0

Sender = Callable[[str, Reply], Awaitable[None]]
Handle = Callable[[Invocation], Awaitable[Reply]]


async def to_play(stand_ins: StandIns, game: LiveGame) -> list[tuple[str, Level]]:
    """The sides waited on now that the computer plays, with its level: its own seats, and
    the sides it stands in for.  None while the game is over."""
    if game.system.result(game.state) is not None:
        return []
    out: list[tuple[str, Level]] = []
    for side in game.system.waiting_on(game.state):
        holder = game.holder(side)
        if holder is not None and is_computer(holder.user_id):
            out.append((side, level_of(holder.user_id)))
        elif (level := await stand_ins.level(game.row.id, side, turn_of(game.system, game.state))) is not None:
            out.append((side, level_named(level)))
    return out


def seed_of(game: LiveGame, side: str) -> str:
    """The search's seed for this move: the game's public seed hash, the step and the side
    (the same move again after a restart; nothing secret in it)."""
    return f"{game.row.seed_hash}:{game.row.head_seq}:{side}"


class ComputerPlayers:
    """The computer's moves in every channel of one service (see the module docstring)."""

    def __init__(self, svc: Pipeline, handle: Handle) -> None:
        self.svc = svc
        self.handle = handle
        #: Channels to look at (a command landed there); the background task wakes.
        self.due: set[str] = set()
        self.wake = asyncio.Event()

    def nudge(self, channel_id: str) -> None:
        """A command landed in ``channel_id``: the computer may have a move to make there."""
        self.due.add(channel_id)
        self.wake.set()

    async def play(self, channel_id: str, send: Sender, most: int = IN_A_ROW) -> int:
        """Make the computer's moves in ``channel_id`` while it is waited on (at most
        ``most`` in a row), posting each with ``send``; how many were made."""
        made = 0
        while made < most:
            game = await self.svc.games.load(channel_id)
            sides = await to_play(self.svc.stand_ins, game) if game is not None else []
            if game is None or not sides:
                break
            side, level = sides[0]
            reply = await self.move(game, side, level, send)
            if reply.error:
                log.warning("the computer's order for %s in %s was refused: %s", side, channel_id, reply.text)
                break
            await self._post(channel_id, reply, send)
            made += 1
        return made

    async def move(self, game: LiveGame, side: str, level: Level, send: Sender) -> Reply:
        """Think about ``side``'s order in a worker (telling the channel after a few
        seconds) and give it through the service."""
        system = game.system
        observed = system.observe(game.state, side)  # the side's own knowledge, never the state
        # Free orders given in a row (Raiders' gear trades): past the system's cap the
        # search leaves them out, so a seat never posts them without end (issue 43).
        free_run = game.free_run.get(side, 0)
        task = asyncio.ensure_future(thinking.think(game.row.system, observed.model_dump_json(), side,
                                                    seed_of(game, side), level, free_run))
        done, _ = await asyncio.wait({task}, timeout=THINKING_NOTE)
        if not done:
            await send(game.row.channel_id, Reply(
                text=f"🤔 The computer is thinking for {system.side_name(side)}…"))
        decision: Decision = await task
        log.info("computer (%s) for %s in %s: %s after %d iterations, %.2f s CPU", level, side,
                 game.row.channel_id, decision.summary, decision.iterations, decision.cpu_seconds)
        reply = await self._give(game, side, level, decision.path, dict(decision.action), 0)
        # Refused (the rules knew what the side could not: a hidden unit in the way): the
        # other orders its observation offers, in turn, until one is taken.
        others = [a for a in candidates(system, observed, side, free_run) if a.summary() != decision.summary]
        for attempt, action in enumerate(others[:FALLBACKS], start=1):
            if not reply.error:
                break
            log.info("the computer's order for %s was refused (%s); trying %s", side, reply.text, action.summary())
            reply = await self._give(game, side, level, action.path(),
                                     action.model_dump(mode="json", exclude_defaults=True), attempt)
        return reply

    async def _give(self, game: LiveGame, side: str, level: Level, path: str, options: dict[str, object],
                    attempt: int) -> Reply:
        """Send one order of the computer's through the service, as a player would."""
        sealed = game.system.action_type(path).sealed
        return await self.handle(Invocation(
            channel_id=game.row.channel_id, guild_id=game.row.guild_id, user_id=computer_id(level, side),
            user_name=computer_name(level), command=[game.row.system, *path.split()], options=options,
            interaction_id=f"computer-{game.row.id}-{game.row.head_seq}-{side}-{attempt}",
            expect_head=game.row.head_seq, as_side=side, private=sealed))

    async def _post(self, channel_id: str, reply: Reply, send: Sender) -> None:
        """Post a move: its reply, or (a sealed order, answered privately) the public line
        the channel is owed for it."""
        if not reply.ephemeral:
            await send(channel_id, reply)
            return
        for owed_id, owed in await self.svc.announcements.owed(channel_id):
            if owed.follows:
                await send(channel_id, owed)
                await self.svc.announcements.settle(owed_id)

    async def run(self, send: Sender, every: float = LOOK_EVERY) -> None:
        """The background task: every game with the computer once at the start (a move
        thought about when the bot stopped is made now), then each channel a command
        landed in, woken by :meth:`nudge` or every ``every`` seconds."""
        self.due.update(await self.svc.store.computer_channels())
        while True:
            while self.due:
                channel = self.due.pop()
                try:
                    await self.play(channel, send)
                except Exception:  # noqa: BLE001 - one channel's failure must not stop the others
                    log.exception("the computer's move in %s failed; it is tried again later", channel)
            self.wake.clear()
            try:
                await asyncio.wait_for(self.wake.wait(), timeout=every)
            except asyncio.TimeoutError:
                self.due.update(await self.svc.store.computer_channels())


__all__ = ["IN_A_ROW", "THINKING_NOTE", "ComputerPlayers", "seed_of", "to_play"]
