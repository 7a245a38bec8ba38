"""The pacing runtime: deadlines follow the game, reminders and digests go out on time.

* After every command (:meth:`Pacer.after_command`) the game's turn-part is compared with
  the one its deadline belongs to; a new turn-part gets a new deadline (the game's pace)
  and its reminders, and the old ones are dropped.  A game turn that ended gets its digest.
* :meth:`Pacer.tick` (the background task of the bot, or the console after each line and
  each ``/clock advance``) sends what is due.  Each message is claimed by one conditional
  UPDATE before it is sent, so it goes out at most once, across restarts and processes, and
  never for a game that moved on: the claim and the check that the turn-part is still the
  message's are one transaction.
* A deadline that passes is told in the channel; with ``then:pass`` the bot gives the
  system's "no action" order (``GameSystem.idle_order``) for each side still waited on.

The clock comes from the service (``Pipeline.clock``), so tests and ``referee console
--clock`` move time by hand.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
from datetime import datetime, timedelta
from typing import Awaitable, Callable

from bot import replies, sealing
from bot.limits import ChannelLocks
from bot.models import Reply
from bot.pacing import store as pstore
from bot.pacing.clock import iso, parse_iso
from bot.pacing.digest import digest_lines, span_words, turn_key, turn_name
from bot.pacing.store import Pace, Scheduled
from bot.pacing.times import discord_time, reminder_times
from bot.games import CHANGES_WINDOW, LiveGame
from bot.ledger import Change, Committed, Landed, Ledger, Outcome
from bot.pipeline import Pipeline
from bot.store import StepRow
from bot.writer import CONFLICT_RETRIES, Conflict, Writer
from rules.core.contract import Action, GameSystem
from rules.core.errors import RuleError

log = logging.getLogger("referee.pacing")

#: Who the log names for an order the bot gives when a deadline passed.
REFEREE_ID = "referee"
REFEREE_NAME = "Referee (deadline)"
#: How often the background task looks for due messages when nothing wakes it (seconds).
TICK_EVERY = 30.0
#: /game and /mod commands after which a game's pace is read again.
PACE_COMMANDS = {"pace", "deadline", "extend", "away"}

Sender = Callable[[str, Reply], Awaitable[None]]


def part_key_of(game: LiveGame) -> str:
    """Who is waited on, and for what: a turn-part (the same key as the pings')."""
    state = game.state
    return Ledger.mention_key(game.system.waiting_on(state), game.system.turn_part(state))  # type: ignore[arg-type]


def same_part(stored: str | None, game: LiveGame) -> bool:
    """Whether a stored ``"<seq>|<key>"`` names the game's current turn-part."""
    return stored is not None and stored.split("|", 1)[-1] == part_key_of(game)


def plan(pace: Pace, game: LiveGame) -> list[Scheduled]:
    """The reminders (one per side waited on at each point) and the deadline notice of the
    pace's turn-part."""
    if pace.deadline_at is None or pace.part_key is None:
        return []
    start = pace.part_started or pace.deadline_at
    label = game.system.turn_part(game.state)  # type: ignore[arg-type]
    data = {"deadline": iso(pace.deadline_at), "part": label}
    out = [
        Scheduled(game_id=game.row.id, channel_id=game.row.channel_id, kind="reminder",
                  part_key=pace.part_key, side=side, due_at=moment, data=data)
        for side in game.system.waiting_on(game.state)  # type: ignore[arg-type]
        for moment in reminder_times(start, pace.deadline_at, pace.reminders)
    ]
    out.append(Scheduled(game_id=game.row.id, channel_id=game.row.channel_id, kind="deadline",
                         part_key=pace.part_key, due_at=pace.deadline_at, data=data))
    return out


def write_plan(pace: Pace, game: LiveGame, now: datetime) -> Callable[[Writer], None]:
    """The writes that store ``pace`` and replace the turn-part's messages (for
    ``Change.extra``: one transaction with the command that set it)."""
    messages = plan(pace, game)

    def write(db: Writer) -> None:
        pstore.save_pace(db, pace, now)
        pstore.drop_part(db, pace.game_id)
        for message in messages:
            pstore.schedule(db, message, now)
    return write


def deadline_line(pace: Pace | None) -> str | None:
    """``⏰ Deadline: <t:…:F> (<t:…:R>)``, or None without a deadline."""
    if pace is None or pace.deadline_at is None:
        return None
    return f"⏰ Deadline: {discord_time(pace.deadline_at)}"


class Pacer:
    """Deadlines, reminders and digests of every game of one service."""

    def __init__(self, svc: Pipeline, locks: ChannelLocks, process: str | None = None) -> None:
        self.svc = svc
        self.locks = locks
        #: Names the process in ``scheduled_messages.sent_by``.
        self.process = process or f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(2)}"
        self._paces: dict[int, Pace] | None = None
        #: Set when something is due now (a digest): the background task wakes.
        self.wake = asyncio.Event()

    # -- reading paces ---------------------------------------------------------------------

    async def paces(self) -> dict[int, Pace]:
        """The paces of active games (read once, then kept up to date)."""
        if self._paces is None:
            self._paces = await pstore.active_paces(self.svc.store)
        return self._paces

    async def pace(self, game_id: int) -> Pace | None:
        """One game's pace, if it has one."""
        return (await self.paces()).get(game_id)

    async def reload(self, game_id: int) -> Pace | None:
        """Read one game's pace again (after a pacing command)."""
        async with self.svc.store.transaction() as db:
            pace = await pstore.pace_of(db, game_id)
        paces = await self.paces()
        if pace is None:
            paces.pop(game_id, None)
        else:
            paces[game_id] = pace
        return pace

    # -- after each command ----------------------------------------------------------------

    async def after_command(self, channel_id: str, command: list[str] | None = None,
                            landed: Landed | None = None) -> str | None:
        """Follow a channel's game after a command, told what it committed (``landed``; the
        game is not read again): a digest for a turn its steps ended, a new deadline for a
        new turn-part.  Returns the deadline line to add to a reply that pings (None when
        nothing changed).  A command that committed nothing changes no pace, except the
        pacing commands themselves."""
        paced = bool(command and command[0] in ("game", "mod") and command[-1] in PACE_COMMANDS)
        if landed is None and not paced:
            return None
        game = landed.game if landed is not None else await self.svc.games.load(channel_id)
        if game is None:
            return None
        if paced:
            await self.reload(game.row.id)
        if landed is not None and landed.ended_turn is not None:
            await self._queue_digest(game, landed.ended_turn)
        return await self.sync(game)

    async def _queue_digest(self, game: LiveGame, key: tuple[int, str]) -> None:
        """Schedule the digest of ``turn`` (now over), once per game turn and head step; the
        background task reads its steps (the order path only notes the turn)."""
        now = self.svc.clock.now()
        message = Scheduled(
            game_id=game.row.id, channel_id=game.row.channel_id, kind="digest",
            part_key=f"turn:{key[0]}:{game.row.head_seq}", due_at=now,
            data={"turn": key[0], "word": key[1], "head": game.row.head_seq},
        )
        async with self.svc.store.transaction() as db:
            pstore.schedule(db, message, now)
        self.wake.set()

    async def turn_steps(self, system: GameSystem, game_id: int, head_seq: int,
                         turn: int, word: str | None = None) -> tuple[StepRow | None, list[StepRow]]:
        """The steps of ``turn``, which step ``head_seq`` ended: back along its parents while
        the state is still in that turn.  Returns the step before them and them."""
        recent = {s.seq: s for s in await self.svc.store.steps(game_id, last=CHANGES_WINDOW)
                  if s.seq <= head_seq}
        head = recent.get(head_seq)
        if head is None:
            return None, []
        chain = [head]
        current = recent.get(head.parent_seq) if head.parent_seq is not None else None
        while current is not None and same_turn(turn_key(system, system.load_state(current.state_json)),
                                                turn, word):
            chain.insert(0, current)
            current = recent.get(current.parent_seq) if current.parent_seq is not None else None
        # chain[0] began this turn: it ended the turn before (whose digest listed it), or it
        # is the setup.  The digest is what came after it, up to the head that ended this one.
        before, chain = chain[0], chain[1:]
        return before, chain

    async def sync(self, game: LiveGame) -> str | None:
        """A paced game entered a new turn-part: give it its deadline and reminders (one
        process does, by a conditional update).  Returns the deadline line if it did."""
        pace = await self.pace(game.row.id)
        if pace is None or same_part(pace.part_key, game):
            return None
        now = self.svc.clock.now()
        waiting = game.system.waiting_on(game.state)  # type: ignore[arg-type]
        over = game.system.result(game.state) is not None  # type: ignore[arg-type]
        deadline = None
        if pace.hours and waiting and not over:
            deadline = now.replace(microsecond=0) + timedelta(hours=pace.hours)
        new = pace.model_copy(update={
            "part_key": f"{game.row.head_seq}|{part_key_of(game)}", "part_started": now,
            "deadline_at": deadline,
        })
        async with self.svc.store.transaction() as db:
            won = await pstore.claim_part(db, game.row.id, pace.part_key, new.part_key or "")
            if won:
                pstore.save_pace(db, new, now)
                pstore.drop_other_parts(db, game.row.id, new.part_key or "")
                for message in plan(new, game):
                    pstore.schedule(db, message, now)
        if not won:
            await self.reload(game.row.id)
            return None
        (await self.paces())[game.row.id] = new
        return deadline_line(new)

    # -- sending what is due ---------------------------------------------------------------

    async def tick(self, send: Sender) -> int:
        """Send every message due now; returns how many were sent."""
        self._paces = await pstore.active_paces(self.svc.store)  # other processes' changes
        for pace in list(self._paces.values()):
            game = await self.svc.games.load(pace.channel_id)
            if game is not None and game.row.id == pace.game_id:
                await self.sync(game)
        sent = 0
        now = self.svc.clock.now()
        for message in await pstore.due_messages(self.svc.store, now):
            try:
                reply = await self._deliverable(message, now)
            except Exception:  # noqa: BLE001 - one bad message must not stop the others
                log.exception("scheduled message %s failed", message.id)
                continue
            if reply is None:
                continue
            try:
                await send(message.channel_id, reply)
            except Exception:  # noqa: BLE001 - claimed: at most once, so it is not retried
                log.exception("sending scheduled message %s to %s failed", message.id,
                              message.channel_id)
                continue
            sent += 1
        return sent

    async def run(self, send: Sender, every: float = TICK_EVERY) -> None:
        """The background task: tick, then sleep until woken or ``every`` seconds pass."""
        while True:
            self.wake.clear()
            try:
                await self.tick(send)
            except Exception:  # noqa: BLE001 - keep the task alive; the next tick retries
                log.exception("pacing tick failed")
            with contextlib.suppress(asyncio.TimeoutError):  # no wake-up: the next tick anyway
                await asyncio.wait_for(self.wake.wait(), timeout=every)

    async def _deliverable(self, message: Scheduled, now: datetime) -> Reply | None:
        """Claim a due message and build what to send, or drop it (game moved on, player
        away); None when there is nothing to send."""
        if message.kind == "digest":  # a turn that ended: told even once the game is over
            if not await self._claim(message, None):
                return None
            return await self.digest_reply(message)
        game = await self.svc.games.load(message.channel_id)
        if game is None or game.row.id != message.game_id or not same_part(message.part_key, game):
            await self._drop(message)  # the game ended or moved on
            return None
        if message.kind == "reminder":
            return await self._reminder(game, message, now)
        if not await self._claim(message, game):
            return None
        return await self._deadline_passed(game, message)

    async def _claim(self, message: Scheduled, game: LiveGame | None) -> bool:
        """One transaction: the message is still for the game's turn-part as stored, and
        nobody sent it; then it is marked sent by this process."""
        async with self.svc.store.transaction() as db:
            if game is not None:
                pace = await pstore.pace_of(db, message.game_id)
                if pace is None or pace.part_key != message.part_key:
                    pstore.drop_message(db, message.id)
                    return False
            return await pstore.claim_message(db, message.id, self.process, self.svc.clock.now())

    async def _drop(self, message: Scheduled) -> None:
        async with self.svc.store.transaction() as db:
            pstore.drop_message(db, message.id)

    async def _reminder(self, game: LiveGame, message: Scheduled, now: datetime) -> Reply | None:
        holder = game.holder(message.side)
        deadline = parse_iso(message.data["deadline"])
        if (holder is None or message.side not in game.system.waiting_on(game.state)  # type: ignore[arg-type]
                or deadline <= now):  # late (the bot was down): the deadline's notice says it
            await self._drop(message)
            return None
        async with self.svc.store.transaction() as db:
            away = await pstore.away_players(db, game.row.id, now)
        if any(a.user_id == holder.user_id for a in away):
            await self._drop(message)  # away: reminders pause (issue 19)
            return None
        if not await self._claim(message, game):
            return None
        lines = [
            f"⏰ @{holder.user_name}, {game.system.side_name(message.side)} is waited on:",
            f"{message.data.get('part', '')}",
            f"Due {discord_time(deadline)}.",
        ]
        summary = game.summaries.of(message.side)
        if since := summary.text():
            lines += ["Since the start:" if summary.from_start else "Since your last order:", *since]
        return Reply(text="\n".join(lines), mentions=[holder.user_id])

    async def _deadline_passed(self, game: LiveGame, message: Scheduled) -> Reply:
        pace = await self.pace(game.row.id)
        waiting = game.system.waiting_on(game.state)  # type: ignore[arg-type]
        who = ", ".join(replies.seat_name(s, game.seats) for s in waiting) or "nobody"
        lines = [f"⌛ The deadline passed: {message.data.get('part', '')}",
                 f"Waited on {who}."]
        mentions: list[str] = []
        snapshot = None
        if pace is not None and pace.on_deadline == "pass":
            acted, mentions, snapshot = await self.act_for(game.row.channel_id, waiting)
            lines += acted
        else:
            lines.append("Nothing happens (this game's setting); a moderator may /mod extend.")
        now_game = await self.svc.games.load(game.row.channel_id)
        line = await self.sync(now_game) if now_game is not None else None
        if line:
            lines.append(line)
        return Reply(text="\n".join(lines), mentions=mentions, snapshot_key=snapshot)

    async def act_for(self, channel_id: str, sides: list[str]) -> tuple[list[str], list[str], str | None]:
        """Give each silent side its system's "no action" order, holding the channel's turn
        as a command does (this process's lock and the store's, across processes).  Returns
        the lines, who to ping next and the snapshot of the last step.

        A write conflict (a process not taking turns wrote the game first: the guarded head
        update refused this stale copy, nothing of it stored) is met as ``Service._run``
        meets it: the cached game is dropped and the side is looked at again on the game as
        it now is, so an order its player gave meanwhile is never doubled."""
        lines: list[str] = []
        mentions: list[str] = []
        snapshot = None
        async with self.locks.hold(channel_id), self.svc.store.channel_lock(channel_id):
            for side in sides:
                for attempt in range(CONFLICT_RETRIES + 1):
                    game = await self.svc.games.load(channel_id)
                    if game is None or side not in game.system.waiting_on(game.state):  # type: ignore[arg-type]
                        break
                    action = game.system.idle_order(game.state, side)  # type: ignore[arg-type]
                    name = game.system.side_name(side)
                    if action is None:
                        lines.append(f"{name} has no 'no action' order now; nothing is done for them.")
                        break
                    try:
                        text, mentions, snapshot = await self._idle_step(game, side, action)
                    except RuleError as exc:
                        lines.append(f"The referee could not act for {name}: {exc.message}")
                        break
                    except Conflict as exc:
                        self.svc.games.forget(channel_id)
                        if attempt == CONFLICT_RETRIES:
                            lines.append(f"The referee could not act for {name}: other commands kept"
                                         " changing the game; a moderator may /mod extend.")
                        else:
                            log.info("write conflict on %s's deadline (%s); acting again", channel_id, exc)
                        continue
                    lines += text
                    break
        return lines, mentions, snapshot

    async def _idle_step(self, game: LiveGame, side: str,
                         action: Action) -> tuple[list[str], list[str], str | None]:
        run = self.svc.dice_run(game.row)
        dice = run.take()
        step = game.system.apply(game.state, side, action, dice)
        run.keep(dice)
        outcome = Outcome(step=step, dice=dice, action=action, side=side,
                          actor=(REFEREE_ID, REFEREE_NAME))
        done: list[Committed] = []

        def build(committed: Committed) -> Reply:
            done.append(committed)
            return Reply(text="")

        await self.svc.ledger.commit(game, Change(steps=[outcome], parent_seq=game.row.head_seq, dice=run),
                              inv=None, reply_for=build)
        landed = self.svc.ledger.landed.pop(game.row.channel_id, None)
        if landed is not None and landed.ended_turn is not None and landed.game is not None:
            await self._queue_digest(landed.game, landed.ended_turn)
        seq = done[0].seqs[0]
        # A sealed order (issue 28) never shows its options, only its seal's public line.
        lines = [f"#{seq} Referee ({side}): {sealing.order_words(action)}"]
        lines += sealing.public_lines(game.system, side, done[0].actions[0])
        lines += replies.event_lines(step.events)
        lines.append(self.svc.next_line(game, step))
        return lines, done[0].mentions, f"{game.row.id}:{seq}" if step.snapshot else None

    async def digest_reply(self, message: Scheduled) -> Reply | None:
        """The digest of a turn, from the steps it names, with the full map after them."""
        game_row = await self.svc.store.game(message.game_id)
        system = self.svc.systems[game_row.system]
        before, steps = await self.turn_steps(system, message.game_id, int(message.data["head"]),
                                              int(message.data["turn"]), message.data.get("word"))
        if before is None or not steps:
            return None  # nothing was played in that turn on the current line: no digest
        last = steps[-1].seq if steps else before.seq
        name = turn_name(system, system.load_state(before.state_json), int(message.data["turn"]))
        title = f"📰 {name} digest" + (f" ({span_words(steps[0].seq, last)})" if steps else "")
        lines = digest_lines(system, before, steps, title)
        return Reply(text="\n".join(lines), snapshot_key=f"{message.game_id}:{last}:map")


def same_turn(key: tuple[int, str] | None, turn: int, word: str | None) -> bool:
    """Whether a state's turn key is ``turn`` (and ``word``, when the digest names one: a
    message queued before words were kept names none)."""
    return key is not None and key[0] == turn and (word is None or key[1] == word)


__all__ = ["PACE_COMMANDS", "Pacer", "REFEREE_ID", "REFEREE_NAME", "Sender", "deadline_line",
           "part_key_of", "plan", "same_part", "write_plan"]
