"""The pacing rows a commit plans: which pace each game has, and the deadline and
reminders of a turn-part a commit's steps begin (issue 23: in the order's own transaction).

:class:`PacePlans` is made with the pipeline (``bot/pipeline.py``) and handed to its ledger
at construction, so the ledger asks it for a commit's rows (:meth:`PacePlans.rows_for`,
issue 39: no hook attached afterwards); the pacer (``bot/pacing/runner.py``) holds the same
object and keeps its paces up to date after each command and each tick.  It reads only the
store's pace rows and the clock.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Callable

from bot.games import LiveGame
from bot.ledger import Ledger, PacingPlan, Plan
from bot.pacing import store as pstore
from bot.pacing.clock import Clock, iso
from bot.pacing.store import Pace, Scheduled
from bot.pacing.times import discord_time, reminder_times
from bot.store import BaseStore, GameRow
from bot.writer import Writer
from rules.core.contract import GameSystem


def part_key_of(game: LiveGame) -> str:
    """Who is waited on, and for what: a turn-part (the same key as the pings')."""
    return part_key_in(game.system, game.state)


def part_key_in(system: GameSystem[Any], state: Any) -> str:
    """:func:`part_key_of` a state of ``system``'s (a step's, before it is committed)."""
    return Ledger.mention_key(system.waiting_on(state), system.turn_part(state))


def same_part(stored: str | None, game: LiveGame) -> bool:
    """Whether a stored ``"<seq>|<key>"`` names the game's current turn-part."""
    return names_part(stored, part_key_of(game))


def names_part(stored: str | None, key: str) -> bool:
    """Whether a stored ``"<seq>|<key>"`` names the turn-part ``key`` (:func:`part_key_in`)."""
    return stored is not None and stored.split("|", 1)[-1] == key


def plan(pace: Pace, game: LiveGame) -> list[Scheduled]:
    """The reminders (one per side waited on at each point) and the deadline notice of the
    pace's turn-part."""
    return plan_in(pace, game.system, game.state, game.row)


def plan_in(pace: Pace, system: GameSystem[Any], state: Any, row: GameRow) -> list[Scheduled]:
    """:func:`plan` for a state of ``system``'s in game ``row`` (a step's, before it is
    committed)."""
    if pace.deadline_at is None or pace.part_key is None:
        return []
    start = pace.part_started or pace.deadline_at
    data = {"deadline": iso(pace.deadline_at), "part": system.turn_part(state)}
    out = [
        Scheduled(game_id=row.id, channel_id=row.channel_id, kind="reminder",
                  part_key=pace.part_key, side=side, due_at=moment, data=data)
        for side in system.waiting_on(state)
        for moment in reminder_times(start, pace.deadline_at, pace.reminders)
    ]
    out.append(Scheduled(game_id=row.id, channel_id=row.channel_id, kind="deadline",
                         part_key=pace.part_key, due_at=pace.deadline_at, data=data))
    return out


def next_pace(pace: Pace, system: GameSystem[Any], state: Any, head_seq: int, now: datetime) -> Pace | None:
    """The pace of the turn-part ``state`` is in, step ``head_seq`` its first: a deadline
    ``pace.hours`` from ``now`` while someone is waited on and the game goes on; None when
    the pace is at that turn-part already."""
    key = part_key_in(system, state)
    if names_part(pace.part_key, key):
        return None
    deadline = None
    if pace.hours and system.waiting_on(state) and system.result(state) is None:
        deadline = now.replace(microsecond=0) + timedelta(hours=pace.hours)
    return pace.model_copy(update={"part_key": f"{head_seq}|{key}", "part_started": now,
                                   "deadline_at": deadline})


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


class PacePlans:
    """The paces of one service's games, as last read or written, and the pacing rows a
    commit plans from them."""

    def __init__(self, store: BaseStore, clock: Clock) -> None:
        self.store = store
        self.clock = clock
        self._paces: dict[int, Pace] | None = None
        #: For each game, the version of the game at which its cached pace is known to be
        #: the stored one (:meth:`committed`): a commit planned on another version (another
        #: process wrote the game, or this one was not told of a commit) reads it again first.
        self._known: dict[int, int] = {}
        #: Games a pacing command changed whose pace has not been read back since: read
        #: before any plan, paced or not as cached (:meth:`rows_for`).
        self._unread: set[int] = set()

    async def paces(self) -> dict[int, Pace]:
        """The paces of active games (read once, then kept up to date)."""
        if self._paces is None:
            self._paces = await pstore.active_paces(self.store)
        return self._paces

    async def reload(self, game_id: int) -> Pace | None:
        """Read one game's pace again (after a pacing command)."""
        async with self.store.transaction() as db:
            pace = await pstore.pace_of(db, game_id)
        self._unread.discard(game_id)
        paces = await self.paces()
        if pace is None:
            paces.pop(game_id, None)
        else:
            paces[game_id] = pace
        return pace

    async def refresh(self) -> dict[int, Pace]:
        """Read every active pace again (each tick): a pace that changed meanwhile (another
        process, or a command of this one while they were read) is read again before a
        commit plans from it."""
        before, self._paces = self._paces or {}, await pstore.active_paces(self.store)
        for game_id in set(before) | set(self._paces):
            if before.get(game_id) != self._paces.get(game_id):
                self._known.pop(game_id, None)
        return self._paces

    def unread(self, game_id: int) -> None:
        """A pacing command wrote the game's pace itself: read it back before any plan."""
        self._known.pop(game_id, None)
        self._unread.add(game_id)

    def committed(self, game: LiveGame) -> None:
        """This process's commit moved ``game`` on one version (``game`` is the game after
        it): a cached pace that was the stored one at the version before still is (the
        commit wrote it, or left it alone); any other is read again before it is planned
        from (:meth:`rows_for`)."""
        if self._known.get(game.row.id) == game.row.version - 1:
            self._known[game.row.id] = game.row.version
        else:
            self._known.pop(game.row.id, None)

    async def rows_for(self, plan: Plan) -> PacingPlan | None:
        """A commit's pacing rows (:data:`bot.ledger.PacingRows`): when the steps it plans
        take a paced game into a new turn-part, the writes that give it its deadline and
        reminders in the same transaction, the pace they set and its deadline line (issue
        23: no second transaction after an order).  Under the same condition as
        ``Pacer.sync`` (:func:`~bot.pacing.store.move_part`).  Planned from the cached pace
        only while the game is at the version it is known current at (:meth:`committed`),
        else from the pace read again; a pace moved meanwhile without the game (no version)
        keeps its own, and the next tick re-reads every pace."""
        game, step = plan.game, plan.last_step
        if step is None or plan.change.end:
            return None
        paces = await self.paces()
        if game.row.id not in paces and game.row.id not in self._unread:
            # Not paced, as last read (at start, by each tick, after each pacing command
            # here): nothing to plan and nothing read, on every order of every unpaced game.
            # A pace another process set since is followed by the next tick.
            return None
        if self._known.get(game.row.id) == game.row.version:
            pace = paces.get(game.row.id)
        else:
            # Another process's command may have moved the pace (its own commit's rows):
            # planned from an old copy, the rows' condition would skip them, the reply name
            # a deadline never stored, and the new turn-part wait for a tick.
            pace = await self.reload(game.row.id)
            self._known[game.row.id] = game.row.version
        if pace is None:
            return None
        now = self.clock.now()
        new = next_pace(pace, game.system, step.state, plan.head_seq, now)
        if new is None:
            return None
        messages = plan_in(new, game.system, step.state, game.row)
        old = pace.part_key

        def write(db: Writer) -> None:
            pstore.move_part(db, new, old, now)
            condition = pstore.still_at(game.row.id, old, new.part_key or "")
            for message in messages:
                pstore.schedule(db, message, now, condition)
        return PacingPlan(write, new, deadline_line(new))


__all__ = ["PacePlans", "deadline_line", "names_part", "next_pace", "part_key_in", "part_key_of",
           "plan", "plan_in", "same_part", "write_plan"]
