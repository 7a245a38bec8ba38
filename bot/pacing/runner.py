"""The pacing runtime: deadlines follow the game, reminders and digests go out on time.

* After every command (:meth:`Pacer.after_command`) the game's turn-part is compared with
  the one its deadline belongs to; a new turn-part gets a new deadline (the game's pace)
  and its reminders, and the old ones are dropped.  A game turn that ended gets its digest.
* :meth:`Pacer.tick` (the background task of the bot, or the console after each line and
  each ``/clock advance``) sends what is due.  Each message is claimed by one conditional
  UPDATE once its reply is built, just before it is sent, so it goes out at most once,
  across restarts and processes, and never for a game that moved on: the claim and the
  check that the turn-part is still the message's are one transaction.  Whatever fails
  before the claim leaves the message due for the next tick; a message whose posting
  failed is due again with its reply kept.  Each failure is logged once.
* A deadline that passes is told in the channel; with ``then:pass`` the bot gives the
  system's "no action" order (``GameSystem.idle_order``) for each side still waited on,
  in the same transaction that marks the deadline's message sent.

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
import sys
from datetime import datetime
from typing import Any, Awaitable, Callable

from bot import replies, sealing
from bot.limits import ChannelLocks
from bot.models import Reply
from bot.pacing import store as pstore
from bot.pacing.clock import parse_iso
from bot.pacing.plans import (
    PacePlans, deadline_line, names_part, next_pace, part_key_in, part_key_of, plan, plan_in, same_part,
    write_plan,
)
from bot.pacing.digest import digest_lines, fingerprint, span_words, turn_key, turn_name
from bot.pacing.store import Pace, Scheduled
from bot.pacing.times import discord_time
from bot.games import CHANGES_WINDOW, LiveGame
from bot.standins import STANDIN_LEVEL, turn_of
from bot.ledger import Change, Committed, DiceRun, Landed, Ledger, Outcome, landed_of
from bot.pipeline import Pipeline
from bot.store import StepRow
from bot.writer import CONFLICT_RETRIES, Conflict, Writer
from rules.core.contract import GameSystem
from rules.core.errors import RuleError

log = logging.getLogger("referee.pacing")

#: Who the log names for an order the bot gives when a deadline passed.
REFEREE_ID = "referee"
REFEREE_NAME = "Referee (deadline)"
#: How often the background task looks for due messages when nothing wakes it (seconds).
TICK_EVERY = 30.0
#: /game and /mod commands after which a game's pace is read again.
PACE_COMMANDS = {"pace", "deadline", "extend", "away"}
#: Ticks a message is posted on before, still failing, it is owed to the channel's next
#: reply instead (``bot/owed.py``); and ticks a digest is built on before, still failing,
#: it is given up (:meth:`Pacer._give_up`).
SEND_TRIES = 5
#: A whole tick, as the log names it when it fails.
TICK_WORDS = "a pacing tick"

Sender = Callable[[str, Reply], Awaitable[None]]


class Pacer:
    """Deadlines, reminders and digests of every game of one service."""

    def __init__(self, svc: Pipeline, locks: ChannelLocks, process: str | None = None) -> None:
        self.svc = svc
        self.locks = locks
        #: Names the process in ``scheduled_messages.sent_by``.
        self.process = process or f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(2)}"
        #: The paces of the games and a commit's pacing rows (``bot/pacing/plans.py``): the
        #: pipeline's own, which its ledger asks before each commit.
        self.plans: PacePlans = svc.pace_plans
        #: Set when something is due now (a digest): the background task wakes.
        self.wake = asyncio.Event()
        #: Told the channel where the computer now stands in for a silent side (``then:ai``,
        #: issue 43): the service points it at its computer players.
        self.stand_in: Callable[[str], None] = lambda _channel: None
        #: What failed on earlier ticks and how many times (logged once, :meth:`_failed`).
        self._failures: dict[str, int] = {}

    # -- reading paces ---------------------------------------------------------------------

    async def paces(self) -> dict[int, Pace]:
        """The paces of active games (read once, then kept up to date)."""
        return await self.plans.paces()

    async def pace(self, game_id: int) -> Pace | None:
        """One game's pace, if it has one."""
        return (await self.plans.paces()).get(game_id)

    async def reload(self, game_id: int) -> Pace | None:
        """Read one game's pace again (after a pacing command)."""
        return await self.plans.reload(game_id)

    # -- after each command ----------------------------------------------------------------

    async def after_command(self, channel_id: str, command: list[str] | None = None,
                            landed: Landed | None = None) -> str | None:
        """Follow a channel's game after a command, told what it committed (``landed``; the
        game is not read again): a digest for a turn its steps ended, a new deadline for a
        new turn-part.  Returns the deadline line to add to a reply that pings (None when
        nothing changed, or when the commit gave the new turn-part its deadline and the
        reply its line itself).  A command that committed nothing changes no pace, except the
        pacing commands themselves."""
        paced = bool(command and command[0] in ("game", "mod") and command[-1] in PACE_COMMANDS)
        if landed is None and not paced:
            return None
        if landed is not None and landed.ended_turn is not None:
            # The ledger scheduled the turn's digest in the commit itself; the background
            # task builds it from the steps (the order path only notes the turn).
            self.wake.set()
        if landed is not None and landed.game is not None:
            if paced:  # the command wrote the pace itself: read again below, and before
                self.plans.unread(landed.game.row.id)  # a plan if that fails
            else:
                self.plans.committed(landed.game)
        game = landed.game if landed is not None else await self.svc.games.load(channel_id)
        if game is None:
            return None
        if paced:
            await self.reload(game.row.id)
        elif landed is not None and landed.paced is not None:
            # The commit moved the pace to its new turn-part itself (``PacePlans.rows_for``), and
            # the reply that pings carries the deadline line already (stored with it).
            (await self.paces())[game.row.id] = landed.paced
            return None
        return await self.sync(game)

    async def turn_steps(self, system: GameSystem[Any], game_id: int, head_seq: int,
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
        """A paced game entered a new turn-part without a commit's own rows (a rollback, an
        undo, another process's command, seen by a tick): give it its deadline and
        reminders (one process does, by a conditional update).  Returns the deadline line
        if it did."""
        pace = await self.pace(game.row.id)
        if pace is None:
            return None
        now = self.svc.clock.now()
        new = next_pace(pace, game.system, game.state, game.row.head_seq, now)
        if new is None:
            return None
        async with self.svc.store.transaction() as db:
            won = await pstore.claim_part(db, game.row.id, pace.part_key, new.part_key or "",
                                         game.row.version)
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
        """Send every message due now; returns how many were sent.

        Nothing that fails here stops the others or the loop: a message that could not be
        built or acted on is still due (a deadline's order and its message being sent are
        one transaction), so the next tick tries it again (a digest up to :data:`SEND_TRIES`
        times), and the messages due after it are read page after page; one whose posting
        failed is kept with its reply and posted again (:meth:`_post`).  Each failure is
        logged once (:meth:`_failed`); players see none of it."""
        paces = await self.plans.refresh()
        tried = {TICK_WORDS}  # what this tick tries: other failures are forgotten after it
        for pace in list(paces.values()):
            what = f"following game {pace.game_id}"
            tried.add(what)
            try:
                game = await self.svc.games.load(pace.channel_id)
                if game is not None and game.row.id == pace.game_id:
                    await self.sync(game)
            except Exception:  # noqa: BLE001 - one game must not hold up every game's messages
                self._failed(what)
            else:
                self._went_through(what)
        sent = 0
        now = self.svc.clock.now()
        after: tuple[datetime, int] | None = None
        while True:  # page after page: messages that keep failing stay due, and must not
            # fill every page and hold up the messages due after them
            batch = await pstore.due_messages(self.svc.store, now, after=after)
            for message in batch:
                what = f"the {message.kind} message {message.id} of channel {message.channel_id}"
                tried.add(what)
                try:
                    reply = await self._deliverable(message, now)
                except Exception:  # noqa: BLE001 - still due: tried again on the next tick
                    self._failed(what)
                    if (message.kind == "digest" and "reply" not in message.data  # not built yet
                            and self._failures[what] >= SEND_TRIES):
                        await self._give_up(message, what)
                    continue
                if reply is not None and not await self._post(send, message, reply, what):
                    continue
                self._went_through(what)
                if reply is not None:
                    sent += 1
            if len(batch) < pstore.DUE_BATCH:
                break
            after = (batch[-1].due_at, batch[-1].id)
        self._failures = {what: n for what, n in self._failures.items() if what in tried}
        return sent

    async def run(self, send: Sender, every: float = TICK_EVERY) -> None:
        """The background task: tick, then sleep until woken or ``every`` seconds pass."""
        while True:
            self.wake.clear()
            try:
                await self.tick(send)
            except Exception:  # noqa: BLE001 - keep the task alive; the next tick retries
                self._failed(TICK_WORDS)
            else:
                self._went_through(TICK_WORDS)
            with contextlib.suppress(asyncio.TimeoutError):  # no wake-up: the next tick anyway
                await asyncio.wait_for(self.wake.wait(), timeout=every)

    def _failed(self, what: str) -> None:
        """Tell the operator once that ``what`` failed (called in an ``except``): the first
        time with its traceback; again on later ticks only at debug level, so a store that is
        down for an hour is one report, not one a tick."""
        count = self._failures.get(what, 0) + 1
        self._failures[what] = count
        if count == 1:
            log.exception("%s failed; it is tried again on each tick until it goes through", what)
        else:
            log.debug("%s failed again (%d times): %s", what, count, sys.exc_info()[1])

    def _went_through(self, what: str) -> None:
        """``what`` went through: if it had failed, say after how many attempts."""
        count = self._failures.pop(what, 0)
        if count:
            log.info("%s went through after %d failed attempt%s", what, count, "s" if count > 1 else "")

    async def _give_up(self, message: Scheduled, what: str) -> None:
        """A digest whose building failed on :data:`SEND_TRIES` ticks in a row is dropped,
        said once: it tells what is in ``/game log`` already, and building it again on every
        tick for ever (the turn's steps read, their views drawn) would cost more on each
        turn the fault lasts.  If the store refuses even that, the next tick tries again."""
        try:
            await self._drop(message)
        except Exception:  # noqa: BLE001 - still counted: the next failure gives up again
            return
        self._failures.pop(what, None)
        log.warning("%s could not be built in %d tries; given up (the turn is in /game log)",
                    what, SEND_TRIES)

    async def _post(self, send: Sender, message: Scheduled, reply: Reply, what: str) -> bool:
        """Post a claimed message.  If posting fails (the network, a picture that could not
        be drawn; Discord's own refusals are owed by the sender), the message is due again
        with its reply kept, and the next tick posts that reply: what it tells is already
        done (a deadline's order is stored) and must be told once, not redone.  After
        :data:`SEND_TRIES` failures it is owed to the channel's next reply instead."""
        try:
            await send(message.channel_id, reply)
            return True
        except Exception:  # noqa: BLE001 - logged once; the players' message is kept
            self._failed(what)
        tries = int(message.data.get("tries", 0)) + 1
        kept = reply.model_copy(update={"attachments": []}).model_dump_json()
        try:
            if tries < SEND_TRIES:
                async with self.svc.store.transaction() as db:
                    if await pstore.release_message(db, message.id, self.process,
                                                    {**message.data, "reply": kept, "tries": tries}):
                        return False
            else:
                log.warning("%s could not be posted in %d tries; it is owed to the channel's"
                            " next reply", what, tries)
            await self.svc.announcements.owe(message.channel_id, reply)
        except Exception:  # noqa: BLE001 - the store failed too: nothing more can be kept
            log.exception("%s could not be kept after its posting failed; it is lost", what)
        return False

    async def _deliverable(self, message: Scheduled, now: datetime) -> Reply | None:
        """Claim a due message and build what to send, or drop it (game moved on, player
        away); None when there is nothing to send.  The message is claimed last, once its
        reply is built, so a failure before that leaves it due for the next tick."""
        kept = message.data.get("reply")
        if kept is not None and message.kind != "reminder":
            # Acted on (a deadline's order is stored) or built; only posting it failed.
            return Reply.model_validate_json(kept) if await self._claim(message, None) else None
        if message.kind == "digest":  # a turn that ended: told even once the game is over
            built = await self.digest_reply(message)
            if built is None:
                await self._drop(message)
                return None
            reply, message.data["fingerprint"] = built  # kept with it: a later digest of the turn compares
            return reply if await self._claim(message, None, message.data) else None
        game = await self.svc.games.load(message.channel_id)
        if game is None or game.row.id != message.game_id or not same_part(message.part_key, game):
            await self._drop(message)  # the game ended or moved on
            return None
        if message.kind == "reminder":
            return await self._reminder(game, message, now)
        return await self._deadline_passed(message)

    async def _claim(self, message: Scheduled, game: LiveGame | None,
                     data: dict[str, Any] | None = None) -> bool:
        """One transaction: the message is still for the game's turn-part as stored, and
        nobody sent it; then it is marked sent by this process (with ``data``: its data as
        sent)."""
        async with self.svc.store.transaction() as db:
            if game is not None:
                pace = await pstore.pace_of(db, message.game_id)
                if pace is None or pace.part_key != message.part_key:
                    pstore.drop_message(db, message.id)
                    return False
            return await pstore.claim_message(db, message.id, self.process, self.svc.clock.now(), data)

    async def _drop(self, message: Scheduled) -> None:
        async with self.svc.store.transaction() as db:
            pstore.drop_message(db, message.id)

    async def _reminder(self, game: LiveGame, message: Scheduled, now: datetime) -> Reply | None:
        holder = game.holder(message.side)
        deadline = parse_iso(message.data["deadline"])
        if (holder is None or message.side not in game.system.waiting_on(game.state)
                or deadline <= now):  # late (the bot was down): the deadline's notice says it
            await self._drop(message)
            return None
        async with self.svc.store.transaction() as db:
            away = await pstore.away_players(db, game.row.id, now)
        if any(a.user_id == holder.user_id for a in away):
            await self._drop(message)  # away: reminders pause (issue 19)
            return None
        lines = [
            f"⏰ @{holder.user_name}, {game.system.side_name(message.side)} is waited on:",
            f"{message.data.get('part', '')}",
            f"Due {discord_time(deadline)}.",
        ]
        summary = game.summaries.of(message.side)
        if since := summary.text():
            lines += ["Since the start:" if summary.from_start else "Since your last order:", *since]
        if not await self._claim(message, game):
            return None
        return Reply(text="\n".join(lines), mentions=[holder.user_id])

    async def _deadline_passed(self, message: Scheduled) -> Reply | None:
        """Tell the channel a deadline passed and, with ``then:pass``, give each side still
        waited on its "no action" order, holding the channel's turn as a command does (this
        process's lock and the store's, across processes).  The orders and the message
        being sent are one transaction (:func:`bot.pacing.store.claim_with`): if anything
        fails before it commits, nothing is kept and the message is still due.

        A write conflict (a process not taking turns wrote the game first: the guarded head
        update refused this stale copy, nothing of it stored) is met as ``Service._run``
        meets it: the cached game is dropped and the sides are looked at again on the game
        as it now is, so an order its player gave meanwhile is never doubled.  Conflicts on
        every attempt leave the message due for the next tick; a conflict because the
        message itself is no longer due (a moderator's /mod extend dropped it while this
        waited for the turn) ends it quietly."""
        channel = message.channel_id
        async with self.locks.hold(channel), self.svc.store.channel_lock(channel):
            for _ in range(CONFLICT_RETRIES + 1):
                game = await self.svc.games.load(channel)
                pace = await self.reload(message.game_id)
                if (game is None or game.row.id != message.game_id or not same_part(message.part_key, game)
                        or pace is None or pace.part_key != message.part_key):
                    await self._drop(message)  # moved on while the turn was taken
                    return None
                try:
                    return await self._act(game, pace, message)
                except Conflict as exc:
                    self.svc.games.forget(channel)
                    if not await pstore.is_due(self.svc.store, message.id):
                        return None  # dropped meanwhile (a /mod extend) or sent: nothing to do
                    log.info("write conflict on %s's deadline (%s); acting again", channel, exc)
            raise Conflict(f"other commands kept changing the game in {channel} at its deadline")

    async def _act(self, game: LiveGame, pace: Pace, message: Scheduled) -> Reply | None:
        """The deadline notice and what the game's setting makes the referee do, committed;
        None if another process sent the notice first."""
        waiting = game.system.waiting_on(game.state)
        who = ", ".join(replies.seat_name(s, game.seats) for s in waiting) or "nobody"
        lines = [f"⌛ The deadline passed: {message.data.get('part', '')}", f"Waited on {who}."]
        mentions: list[str] = []
        snapshot = None
        if pace.on_deadline == "ai" and waiting:
            return await self._hand_to_computer(game, message, waiting, lines)
        if pace.on_deadline != "pass":
            lines.append("Nothing happens (this game's setting); a moderator may /mod extend.")
            entries: list[Outcome | str] = []
        else:
            entries, run = self._idle_orders(game, waiting)
        outcomes = [e for e in entries if isinstance(e, Outcome)]
        if outcomes:
            done, said = await self._commit_idle(game, message, entries, run)
            lines += said
            mentions = done.mentions
            snapshot = f"{game.row.id}:{done.seqs[-1]}" if outcomes[-1].step.snapshot else None
        else:  # nothing to store: the notice alone is claimed
            lines += [e for e in entries if isinstance(e, str)]
            if not await self._claim(message, game):
                return None
        if line := await self._follow(game.row.channel_id):
            lines.append(line)
        return Reply(text="\n".join(lines), mentions=mentions, snapshot_key=snapshot)

    async def _hand_to_computer(self, game: LiveGame, message: Scheduled, sides: list[str],
                                lines: list[str]) -> Reply:
        """``then:ai`` (issue 43): the computer stands in for each silent side, written with
        the deadline's message marked sent (one transaction), and is told to move."""
        now = self.svc.clock.now()
        turn = turn_of(game.system, game.state)

        def write(db: Writer) -> None:
            pstore.claim_with(db, message, self.process, now)
            for side in sides:
                self.svc.stand_ins.write(db, game.row.id, side, STANDIN_LEVEL, turn)

        try:
            await self.svc.ledger.commit(game, Change(extra=[write]), inv=None, reply_for=lambda _: Reply(text=""))
        except Exception:
            self.svc.stand_ins.forget(game.row.id)
            raise
        self.stand_in(game.row.channel_id)
        names = ", ".join(game.system.side_name(s) for s in sides)
        return Reply(text="\n".join([*lines, f"🤖 The computer plays {names} for the rest of this turn, "
                                            "unless its player gives an order first."]))

    def _idle_orders(self, game: LiveGame, sides: list[str]) -> tuple[list[Outcome | str], DiceRun]:
        """Each silent side's "no action" order, each applied on the state the one before
        left (pure; nothing stored): an :class:`Outcome`, or the line saying why the referee
        gives none for that side."""
        system = game.system
        state = game.state
        run = self.svc.dice_run(game.row)
        entries: list[Outcome | str] = []
        for side in sides:
            if side not in system.waiting_on(state):
                continue  # an earlier side's order ended what this one was waited on for
            name = system.side_name(side)
            action = system.idle_order(state, side)
            if action is None:
                entries.append(f"No 'no action' order is open to {name} now; nothing is done for them.")
                continue
            dice = run.take()
            try:
                step = system.apply(state, side, action, dice)
            except RuleError as exc:
                entries.append(f"The referee could not act for {name}: {exc.message}")
                continue
            run.keep(dice)
            entries.append(Outcome(step=step, dice=dice, action=action, side=side,
                                   actor=(REFEREE_ID, REFEREE_NAME)))
            state = step.state
        return entries, run

    async def _commit_idle(self, game: LiveGame, message: Scheduled, entries: list[Outcome | str],
                           run: DiceRun) -> tuple[Committed, list[str]]:
        """Store the referee's orders and the deadline's message marked sent in one
        transaction (the ledger adds the digest of a turn they ended); the committed steps
        and the notice's lines."""
        outcomes = [e for e in entries if isinstance(e, Outcome)]
        ended = Ledger.turn_ended_by(game, outcomes[-1].step)
        now = self.svc.clock.now()
        lines: list[str] = []
        done: list[Committed] = []

        def build(committed: Committed) -> Reply:
            # Before the transaction: the notice's lines (a failure here stores nothing).
            done.append(committed)
            recorded = iter(zip(committed.seqs, committed.actions))
            for entry in entries:
                if isinstance(entry, str):
                    lines.append(entry)
                    continue
                seq, action = next(recorded)
                side = entry.side or ""
                # A sealed order (issue 28) never shows its options, only its seal's public line.
                assert entry.action is not None  # an outcome is made only for an order given
                lines.append(f"#{seq} Referee ({side}): {sealing.order_words(entry.action)}")
                lines.extend(sealing.public_lines(game.system, side, action))
                lines.extend(replies.event_lines(entry.step.events))
                lines.append(self.svc.next_line(game, entry.step))
            return Reply(text="")

        def write(db: Writer) -> None:
            pstore.claim_with(db, message, self.process, now)

        change = Change(steps=outcomes, parent_seq=game.row.head_seq, dice=run, extra=[write])
        landed = landed_of(await self.svc.ledger.commit(game, change, inv=None, reply_for=build))
        if ended is not None:  # its digest was committed with the orders
            self.wake.set()
        if landed is not None and landed.game is not None:
            self.plans.committed(landed.game)
        if landed is not None and landed.paced is not None:
            # The orders took the game into a new turn-part and the commit gave it its
            # deadline (PacePlans.rows_for): the notice ends with it.
            (await self.paces())[game.row.id] = landed.paced
            if line := deadline_line(landed.paced):
                lines.append(line)
        return done[0], lines

    async def _follow(self, channel_id: str) -> str | None:
        """After a deadline: the new turn-part's deadline line, if it has one.  The notice is
        committed by now, so a failure here must not lose it: logged, and the next tick
        gives the turn-part its deadline (:meth:`tick` follows every paced game)."""
        try:
            game = await self.svc.games.load(channel_id)
            return await self.sync(game) if game is not None else None
        except Exception:  # noqa: BLE001 - see the docstring
            log.exception("the deadline after %s's could not be set; the next tick sets it", channel_id)
            return None

    async def digest_reply(self, message: Scheduled) -> tuple[Reply, str] | None:
        """The digest of a turn, from the steps it names, with the full map after them, and
        its fingerprint (:func:`bot.pacing.digest.fingerprint`); None when there is nothing
        to post.

        One digest per turn actually ended (a play-test: ``/game undo`` of the order that
        ended a turn, then the same order again, posted the turn's digest twice):

        * a digest whose last step was taken back before it went out is not posted: on the
          current line the turn did not end there (the order given again brings its own);
        * a turn whose digest was posted already is posted again only if what it says or its
          map changed (the turn was played otherwise after a take-back or a rollback), and
          then as a correction of the one before; the same account again is no news.

        Decided here, in the background, from the steps the ledger committed and the digests
        sent: the order path only notes that a turn ended (``Landed.ended_turn``)."""
        game_row = await self.svc.store.game(message.game_id)
        system = self.svc.systems[game_row.system]
        turn, word = int(message.data["turn"]), message.data.get("word")
        before, steps = await self.turn_steps(system, message.game_id, int(message.data["head"]),
                                              turn, word)
        if before is None or not steps or steps[-1].reverted_by is not None:
            return None  # nothing was played in that turn on the current line: no digest
        body = digest_lines(system, before, steps, "")[1:]
        mark = fingerprint(body, steps[-1].state_json)
        earlier = [m for m in await pstore.sent_digests(self.svc.store, message.game_id, turn)
                   if m.data.get("word", word) == word]
        if earlier and earlier[0].data.get("fingerprint") == mark:
            return None  # this turn's digest, as posted already
        last = steps[-1].seq
        name = turn_name(system, system.load_state(before.state_json), turn)
        if earlier:
            lines = [f"📰 {name} digest, corrected ({span_words(steps[0].seq, last)})",
                     f"Replaces the earlier {name} digest: steps were taken back and played again."]
        else:
            lines = [f"📰 {name} digest ({span_words(steps[0].seq, last)})"]
        return Reply(text="\n".join(lines + body), snapshot_key=f"{message.game_id}:{last}:map",
                     focus_key=f"{message.game_id}:{before.seq}:{last}"), mark


def same_turn(key: tuple[int, str] | None, turn: int, word: str | None) -> bool:
    """Whether a state's turn key is ``turn`` (and ``word``, when the digest names one: a
    message queued before words were kept names none)."""
    return key is not None and key[0] == turn and (word is None or key[1] == word)


__all__ = ["PACE_COMMANDS", "Pacer", "REFEREE_ID", "REFEREE_NAME", "SEND_TRIES", "Sender",
           "deadline_line", "names_part", "next_pace", "part_key_in", "part_key_of", "plan",
           "plan_in", "same_part", "write_plan"]
