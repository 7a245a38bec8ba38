"""The games in memory: the cache of active games, read from the store only on a miss.

:class:`GameCache` holds each channel's :class:`LiveGame` (the row, the parsed state, the
seats, the standing orders, every side's summary), least recently used dropped first.  The
order path loads from it (``docs/architecture.md``, "The order path"); the ledger
(``bot/ledger.py``) puts back what it just committed, or tells it to forget.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel

from bot.computer_ids import is_computer
from bot.config import Settings
from bot.seen import Made
from bot.store import BaseStore, GameRow, SeatEvent, SeatRow, StepRow
from bot.summaries import Summaries, fresh, load, reaches_every_side, rebuild
from rules.core import dumps, registry
from rules.core.contract import GameSystem
from rules.core.errors import RuleError

#: How many active games are kept parsed in memory; others are read from the store on demand.
GAME_CACHE_SIZE = 256
#: How many recent steps are searched for a side's last order ("what changed since").
CHANGES_WINDOW = 200
#: The windows of the log read back for a side's last order, smallest first: it is mostly a
#: few steps back, so the first window mostly ends the search.
LOG_WINDOWS = (16, 64, CHANGES_WINDOW)


@dataclass
class LiveGame:
    """An active game as the service works with it: the row, the parsed state, the seats."""

    row: GameRow
    system: GameSystem[Any]
    state: BaseModel
    seats: list[SeatRow]
    #: The number the next step gets.  Every step of a game is written under its channel's
    #: lock, so the service can count them itself; that keeps a whole order's transaction to
    #: one hand-off to the writer (UNIQUE (game_id, seq) catches any slip).
    next_seq: int
    #: Who ever sat, who was kicked: the seat history (migration 0004).
    seat_log: list[SeatEvent] = field(default_factory=list)
    #: Standing (``anytime``) orders each side gave since the last other step (issue 14).
    standing: dict[str, int] = field(default_factory=dict)
    #: Every side's "since your last order" at the head (issue 23; bot/summaries.py).
    summaries: Summaries = field(default_factory=Summaries)
    #: The last :data:`CHANGES_WINDOW` steps of the log up to the head, without their states
    #: (and, as read from the store, without their dice and events: ``bare``), as "what
    #: changed" reads them (``Pipeline.changes_since``): read once for the head,
    #: then carried on by each order on the head (issue 39: a picture reads nothing); None
    #: until read, and again after any other change (the cache re-reads the game).
    recent: list[StepRow] | None = None
    #: What this process's commits on the head left for "what changed" (who fired, the JSON
    #: of each side's last two orders' states: bot/seen.Made), so a picture reads no stored
    #: state for them.
    made: Made = field(default_factory=Made)
    #: Each side's free orders in a row at the head (``GameSystem.free_order``: a Raiders gear
    #: trade, 23.2), carried on by each order committed on the head, so the computer's seat
    #: leaves free orders out past ``SearchHints.free_in_a_row`` (issue 43) without reading
    #: the log.  A game read from the store (a restart, a cache miss, a rollback) starts at
    #: 0: the run is then at most twice the cap, still bounded.
    free_run: dict[str, int] = field(default_factory=dict)

    def sides_of(self, user_id: str) -> list[str]:
        """The sides a user holds (several in hot-seat play)."""
        return [s.side for s in self.seats if s.user_id == user_id]

    def holder(self, side: str) -> SeatRow | None:
        """Who holds a side, if anyone."""
        return next((s for s in self.seats if s.side == side), None)

    def player_of(self, side: str) -> SeatRow | None:
        """The seat of ``side`` when a player holds it (:func:`player_seat`)."""
        return player_seat(self.seats, side)

    def kicked(self, user_id: str) -> bool:
        """A moderator kicked this user and has not seated them again since."""
        marks = [e.event for e in self.seat_log if e.user_id == user_id and e.event in ("kick", "seat")]
        return bool(marks) and marks[-1] == "kick"

    def may_stand(self, side: str, limit: int) -> bool:
        """Whether ``side`` may give another standing order now: fewer than ``limit`` in a
        row at the head (issue 14).  The order path refuses one past it, so the answers
        offered to a press leave them out too."""
        return self.standing.get(side, 0) < limit

    def ever_seated(self) -> set[str]:
        """Everyone who has held a seat of this game at any time."""
        return {e.user_id for e in self.seat_log if e.event in ("join", "seat")}


def player_seat(seats: list[SeatRow], side: str) -> SeatRow | None:
    """The seat of ``side`` among ``seats`` when a player holds it; None when it is free or
    the computer's (issue 43: the computer is never pinged, nor offered answers to tap)."""
    seat = next((s for s in seats if s.side == side), None)
    return seat if seat is not None and not is_computer(seat.user_id) else None


def damaged_sentence(game_id: int, problem: str) -> str:
    """What a player is told of a game the record check found damaged: nothing is played on
    it until the operator restores the database (the check names what is wrong)."""
    return (f"Game #{game_id} in this channel is on hold: its stored record fails the bot's check"
            f" ({problem[:120]}), so it could have been changed outside the game. Nothing was"
            " changed; the bot's operator restores the last backup (referee health lists the damage).")


def is_standing(system: GameSystem[Any], step: StepRow) -> bool:
    """A stored step is a standing (``anytime``) order."""
    if step.kind != "order" or not step.action:
        return False
    action = next((a for a in system.actions if a.path() == step.action.get("name")), None)
    return bool(action and action.anytime and not action.read_only)


class GameCache:
    """Each channel's active game, parsed once and kept while it is used (LRU)."""

    def __init__(self, store: BaseStore, settings: Settings, systems: dict[str, GameSystem[Any]]) -> None:
        self.store = store
        self.settings = settings
        self.systems = systems
        self._games: OrderedDict[str, LiveGame] = OrderedDict()
        #: ``(game id, version)`` of each channel whose turn a command holds, read with the
        #: lock (PostgreSQL): no second round trip to check a cached game.
        self.held: dict[str, tuple[int, int]] = {}
        #: Running games whose stored records failed the check when the service opened
        #: (``bot/chaincheck.py``), with the first problem: refused, never played on
        #: (issue 45: the bot resumed a game an operator had edited).
        self.damaged: dict[int, str] = {}

    def __len__(self) -> int:
        return len(self._games)

    def cached(self, channel_id: str) -> LiveGame | None:
        """The channel's game if it is in memory (no read, no freshness check)."""
        return self._games.get(channel_id)

    def forget(self, channel_id: str) -> None:
        """Drop a channel's cached game (after it ended or on any doubt)."""
        self._games.pop(channel_id, None)
        self.held.pop(channel_id, None)  # its version read with the lock may be stale too

    async def load(self, channel_id: str) -> LiveGame | None:
        """The active game of a channel, from memory or from the store."""
        cached = self._games.get(channel_id)
        if cached is not None and self.store.shared and \
                await self._stored_version(channel_id, cached.row.id) != cached.row.version:
            # Another process sharing the store wrote this game (or ended it): re-read.
            self.forget(channel_id)
            cached = None
        if cached is not None:
            self._games.move_to_end(channel_id)
            return cached
        row = await self.store.active_game(channel_id)
        if row is None:
            return None
        if row.id in self.damaged:
            raise RuleError(damaged_sentence(row.id, self.damaged[row.id]))
        system = registry.get(row.system)
        state = system.load_state(row.state_json)
        # The stored text is this state's JSON: the next order's copy validates from it
        # (``rules/core/dumps.py``) instead of dumping the state first (issue 41: a game
        # read back cost its first order 1.5x a cached game's).
        dumps.remember(state, row.state_json)
        game = LiveGame(row, system, state,
                        await self.store.seats(row.id), await self.store.last_seq(row.id) + 1,
                        await self.store.seat_events(row.id))
        game.standing = await self._standing_run(game)
        game.summaries = load(row.summaries_json) or await self.summaries_at(game, row.head_seq)
        self.remember(game)
        return game

    async def require(self, channel_id: str) -> LiveGame:
        """The channel's game, or a RuleError saying how to start one."""
        game = await self.load(channel_id)
        if game is None:
            raise RuleError(
                "There is no game in this channel; start one with /game new system:"
                f" ({', '.join(sorted(self.systems))})."
            )
        return game

    async def reload(self, channel_id: str) -> LiveGame | None:
        """Re-read a channel's game from the store after a write (the cache follows the store)."""
        self.forget(channel_id)
        return await self.load(channel_id)

    def remember(self, game: LiveGame) -> None:
        """Keep ``game`` as its channel's (the most recently used)."""
        self._games[game.row.channel_id] = game
        self._games.move_to_end(game.row.channel_id)
        while len(self._games) > GAME_CACHE_SIZE:
            self._games.popitem(last=False)

    async def summaries_at(self, game: LiveGame, head: int | None) -> Summaries:
        """Every side's summary at step ``head``, rebuilt from the log (a game stored before
        migration 0008, or a command that moved the head off the line it was on)."""
        if head is None:
            return fresh(game.system.sides)
        # A few steps back usually reach every side's last order; read more only if not.
        for size in LOG_WINDOWS:
            window = await self.store.log_steps(game.row.id, last=size, upto=head)
            if len(window) < size or reaches_every_side(game.system.sides, window, head):
                break
        return rebuild(game.system.sides, window, head)

    async def _stored_version(self, channel_id: str, game_id: int) -> int | None:
        """The stored version of a channel's game: as read when the command took the
        channel's turn (``store.channel_lock``), else one query."""
        held = self.held.get(channel_id)
        if held is not None:
            return held[1] if held[0] == game_id else None
        return await self.store.game_version(game_id)

    async def _standing_run(self, game: LiveGame) -> dict[str, int]:
        """How many standing orders each side gave in a row at the head (read back along
        the head's ancestry, at most the limit deep)."""
        counts: dict[str, int] = {}
        seq: int | None = game.row.head_seq
        limit = self.settings.standing_orders_in_a_row
        for _ in range(limit * max(1, len(game.system.sides))):
            step = await self._step_without_state(game.row.id, seq) if seq is not None else None
            if step is None or not is_standing(game.system, step) or step.side is None:
                break
            counts[step.side] = counts.get(step.side, 0) + 1
            seq = step.parent_seq
        return counts

    async def _step_without_state(self, game_id: int, seq: int) -> StepRow | None:
        """Step ``seq`` of a game without its state (what :func:`is_standing` reads): the
        head's state is parsed once, from the game row, not a second time from its step."""
        found = await self.store.log_steps(game_id, last=1, upto=seq)
        return found[0] if found and found[0].seq == seq else None


__all__ = ["CHANGES_WINDOW", "GAME_CACHE_SIZE", "LOG_WINDOWS", "GameCache", "LiveGame", "is_standing"]
