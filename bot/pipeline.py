"""The step pipeline: where a step is made and re-made from the record.

A command resolves its order on the cached game (:meth:`Pipeline.resolve`, the rules are
pure), or re-applies a recorded one (:func:`apply_recorded`: a reroll, an undo that keeps the
other side's standing orders, ``referee replay``), then hands the :class:`Change` to the
ledger (``bot/ledger.py``), which commits it in one transaction.  The pipeline holds its
parts: the game cache (``self.games``, ``bot/games.py``) and the ledger (``self.ledger``).

The command handlers (``bot/gamecmds.py``, ``bot/modcmds.py``, ``bot/pacing/commands.py``,
``bot/scenarios.py``) and the order path (``bot/orders.py``) are given the
:class:`Pipeline` and ask its cache for a channel's game (``svc.games.load``/``require``).
``bot/service.py`` holds one (``Service.pipeline``) and dispatches to them; the pipeline
knows nothing of the service, so no module imports one that imports it back.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any, Callable

from pydantic import BaseModel

from bot import replies
from bot.config import Settings
from bot.games import CHANGES_WINDOW, LOG_WINDOWS, GameCache, LiveGame
from bot.ledger import (
    Audit, Change, Committed, DiceRun, Landed, Ledger, Outcome, ScriptedDiceSource, SeatChange,
)
from bot.league.ending import LeagueEnds
from bot.models import UserRef
from bot.owed import OwedAnnouncements
from bot.seen import SeenSteps
from bot.standins import StandIns
from bot.pacing.clock import Clock, SystemClock
from bot.pacing.plans import PacePlans
from bot.store import BaseStore, GameRow, StepRow
from rules.core import registry
from rules.core.contract import Action, GameSystem, Step
from rules.core.dice import Dice, seed_hash
from rules.core.errors import RuleError
from rules.core.views import Change as ViewChange
from rules.core.views import changes_seen_over


def apply_recorded(
    system: GameSystem[Any], scenario: str, options: dict[str, Any], state: BaseModel | None,
    action: dict[str, Any] | None, side: str | None, dice: Dice,
) -> tuple[Step, Action | None]:
    """Apply a recorded step again: its setup, or its order on ``state``, with ``dice``.

    The one re-application shared by ``/mod reroll``, ``/game undo`` (standing orders kept)
    and ``referee replay``.
    """
    if action is None:
        return system.setup(scenario, options, dice), None
    if state is None or side is None:
        raise RuleError("a recorded order needs the state it followed and its side")
    parsed = system.parse(str(action.get("name", "")), dict(action.get("options", {})))
    return system.apply(state, side, parsed, dice), parsed


def option_user(value: Any) -> UserRef:
    """A ``user`` option as a :class:`UserRef` (Discord passes one; the console a name)."""
    if isinstance(value, UserRef):
        return value
    if isinstance(value, dict):
        return UserRef.model_validate(value)
    text = str(value).strip().lstrip("@")
    if not text or len(text) > 64:
        raise RuleError("Name a user, e.g. user:@alice.")
    return UserRef(id=text, name=text)


def new_seed() -> tuple[bytes, str]:
    """A fresh secret dice seed and its public hash (provable dice)."""
    seed = secrets.token_bytes(32)
    return seed, seed_hash(seed)


def watching_side(game: LiveGame) -> str:
    """The side a spectator's read-only order is given for: the one waited on, or the first."""
    return (game.system.waiting_on(game.state) or list(game.system.sides))[0]


def state_digest(state_json: str) -> str:
    """The key renders are cached and shared under."""
    return hashlib.sha256(state_json.encode()).hexdigest()


def _last_index(rows: list[StepRow], wanted: Callable[[StepRow], bool]) -> int | None:
    """The index of the last of ``rows`` that is ``wanted``, searched from the end."""
    for index in range(len(rows) - 1, -1, -1):
        if wanted(rows[index]):
            return index
    return None


class Pipeline:
    """Games in memory and the one way they change: resolve, re-apply, commit."""

    def __init__(self, store: BaseStore, settings: Settings, dice_source: ScriptedDiceSource | None = None,
                 clock: Clock | None = None):
        self.store = store
        self.settings = settings
        self.dice_source = dice_source
        #: What deadlines and reminders read the time from (a test moves it; issue 19).
        self.clock: Clock = clock or SystemClock()
        self.systems = registry.load_all()
        #: The games in memory (bot/games.py).
        self.games = GameCache(store, settings, self.systems)
        #: Announcements owed to channels (a reply that could not be delivered, the page of
        #: an ended game still to build).
        self.announcements = OwedAnnouncements(store)
        #: The paces of the games and the pacing rows of a commit (bot/pacing/plans.py),
        #: which the ledger asks before each commit (issue 39: given, not attached later).
        self.pace_plans = PacePlans(store, self.clock)
        #: The one way a game changes (bot/ledger.py).
        self.ledger = Ledger(store, self.games, self.systems, self.clock, self.pace_plans.rows_for,
                             LeagueEnds(store, self.clock).rows_for)
        #: What recent steps' views showed, for "what changed" (issue 23: one view a picture).
        self.seen = SeenSteps()
        #: The sides the computer stands in for (issue 43, ``then:ai``).
        self.stand_ins = StandIns(store)

    # -- making steps ----------------------------------------------------------------------

    def dice_run(self, game: GameRow) -> DiceRun:
        """The dice of the next command on ``game``."""
        return DiceRun(game, self.dice_source)

    def resolve(self, game: LiveGame, side: str, name: str, options: dict[str, Any], dice: Dice) -> Outcome:
        """Parse and apply one order on the game's current state (pure; nothing stored)."""
        action = game.system.parse(name, options)
        step = game.system.apply(game.state, side, action, dice)
        return Outcome(step=step, dice=dice, action=action, side=side)

    def reapply(self, game: LiveGame, old: StepRow, state: BaseModel | None, dice: Dice) -> Outcome:
        """Re-apply the recorded step ``old`` on ``state`` with ``dice``; recorded for its
        original actor."""
        step, action = apply_recorded(game.system, game.row.scenario, game.row.options, state,
                                      old.action, old.side, dice)
        return Outcome(step=step, dice=dice, action=action, side=old.side,
                       actor=(old.actor_id, old.actor_name))

    async def changes_since(self, system_key: str, step: StepRow, side: str | None = None,
                            view: BaseModel | None = None, state: BaseModel | None = None,
                            game: LiveGame | None = None) -> list[ViewChange]:
        """What changed for each unit between ``side``'s last order before ``step`` and
        ``step`` (``side`` defaults to the first side ``step`` waits on): compared view to
        view by :func:`rules.core.views.changes_between`, so every system gets it.  The
        earlier views' facts are kept (``self.seen``, bot/seen.py): a picture builds only
        its own step's view, the window is read without states, and of the steps in between
        only who fired is read (``GameSystem.fired``; issue 23).  ``view`` and ``state`` are the
        step's own, when the caller has them; ``game``, the game whose head ``step`` is,
        keeps the window of the log read (:attr:`LiveGame.recent`, issue 39)."""
        system = self.systems[system_key]
        if state is None:  # ``state``: the step's, when the caller has it parsed
            state = system.load_state(step.state_json)
        side = side or next(iter(system.waiting_on(state)), None)
        if side is None:
            return []

        def ordered(row: StepRow) -> bool:  # one of the side's own orders before ``step``
            return row.seq < step.seq and row.reverted_by is None and row.side == side and row.action is not None

        recent = await self._recent(step, game, lambda rows: _last_index(rows, ordered) is not None)
        # From the newest back: the side's last order is usually a few steps ago, and the
        # window holds up to 200 (three passes over all of it were ~0.3 ms a picture).
        last = _last_index(recent, ordered)
        if last is None:
            return []
        mine = recent[last]
        # Who fired in between: the marks of every step since that order (each view shows
        # only its own action's marks).
        since = [s for s in recent[last + 1:] if s.seq < step.seq and s.reverted_by is None]
        made = game.made if game is not None and game.row.id == step.game_id else None
        before = await self.seen.of(self.store, system, mine, made)
        between = await self.seen.fired(self.store, system, since, made)
        return changes_seen_over(before, between, view if view is not None else system.view(state))

    async def _recent(self, step: StepRow, game: LiveGame | None,
                      enough: Callable[[list[StepRow]], bool]) -> list[StepRow]:
        """The last steps of the log up to ``step``, as many as reach what is looked for
        (``enough`` of them: the side's last order), at most :data:`CHANGES_WINDOW`: the
        window ``game`` keeps when ``step`` is its head, else read in growing windows (and
        kept from then on).  Any window holding that order gives what the whole one would:
        the order and every step since are in it.  (A game read back into the cache read
        all 200 steps, with their dice and events, for its first picture: issue 41; it
        reads them bare now, :meth:`~bot.store.BaseStore.log_steps`.)"""
        head = game is not None and game.row.id == step.game_id and game.row.head_seq == step.seq
        kept = game.recent if head and game is not None else None
        # A kept window serves when it is whole (all 200, or from the game's first step,
        # numbered 0) or holds what is looked for; else it is read again.
        if kept and kept[-1].seq == step.seq and (len(kept) >= CHANGES_WINDOW or kept[0].seq == 0 or enough(kept)):
            return kept
        for size in LOG_WINDOWS:
            recent = await self.store.log_steps(step.game_id, last=size, upto=step.seq, bare=True)
            if len(recent) < size or enough(recent):
                break
        if head and game is not None:
            game.recent = recent
        return recent

    async def state_at(self, game: LiveGame, seq: int) -> BaseModel:
        """The state recorded after step ``seq``."""
        step = await self.store.step(game.row.id, seq)
        if step is None:
            raise RuleError(f"There is no step #{seq}.")
        state: BaseModel = game.system.load_state(step.state_json)
        return state

    # -- the one commit --------------------------------------------------------------------

    #: What identifies a turn-part for pings (the ledger's; bot/pacing reads it here).
    mention_key = staticmethod(Ledger.mention_key)

    def next_line(self, game: LiveGame, step: Step) -> str:
        """Who must act next, for the foot of a reply.  At the end, the result once: a game
        whose last event already says it gets ``🏁 Game over`` (not the same line twice)."""
        if step.game_over:
            said = any(event.text == step.result for event in step.events)
            return f"🏁 {'Game over' if said else step.result} — reveal the dice with /game end."
        waiting = ", ".join(replies.seat_name(s, game.seats) for s in step.waiting_on)
        return f"➡️ {step.turn_part}: {waiting}" if step.turn_part else f"➡️ {waiting}"


__all__ = [
    "Audit", "Change", "Committed", "DiceRun", "Landed", "LiveGame", "Outcome", "Pipeline",
    "ScriptedDiceSource", "SeatChange", "apply_recorded", "new_seed",
    "option_user", "state_digest", "watching_side",
]
