"""The transport-neutral application service: an :class:`Invocation` in, a :class:`Reply` out.

Discord and the console are thin adapters over this.  The order path is
``parse -> rules.apply -> commit -> reply``; the reply is built only after the step's
transaction committed, and a repeated interaction id is answered from the log.  Orders on one
channel are serialized by a per-channel lock; different channels run concurrently.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import secrets
import sqlite3
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable

from pydantic import BaseModel

from bot import commands as catalogue
from bot import replies
from bot.config import Settings
from bot.models import Attachment, Invocation, Reply, UserRef
from bot.owed import OwedAnnouncements
from bot.store import GameRow, SeatRow, StepRow, Store, utcnow
from bot.writer import Writer
from rules.core import registry
from rules.core.contract import Action, Choice, GameSystem, Step
from rules.core.dice import Dice, DiceExhausted, ScriptedDice, SeededDice, seed_hash
from rules.core.errors import RuleError
from rules.core.views import Change, changes_between

log = logging.getLogger("referee.service")

#: How many active games are kept parsed in memory; others are read from SQLite on demand.
GAME_CACHE_SIZE = 256
#: How many recent steps are searched for a side's last order ("what changed since").
CHANGES_WINDOW = 200
#: How many rendered snapshots are kept, by state hash.
SNAPSHOT_CACHE_SIZE = 64
MAX_CHOICES = 25


@dataclass
class LiveGame:
    """An active game as the service works with it: the row, the parsed state, the seats."""

    row: GameRow
    system: GameSystem
    state: BaseModel
    seats: list[SeatRow]
    #: The number the next step gets.  Every step of a game is written under its channel's
    #: lock, so the service can count them itself; that keeps a whole order's transaction to
    #: one hand-off to the writer (UNIQUE (game_id, seq) catches any slip).
    next_seq: int

    def sides_of(self, user_id: str) -> list[str]:
        """The sides a user holds (several in hot-seat play)."""
        return [s.side for s in self.seats if s.user_id == user_id]

    def holder(self, side: str) -> SeatRow | None:
        """Who holds a side, if anyone."""
        return next((s for s in self.seats if s.side == side), None)


class ScriptedDiceSource:
    """Console ``--dice 3,5,6``: one list consumed across steps; a refused order uses none."""

    def __init__(self, values: list[int]) -> None:
        self.values = list(values)
        self.position = 0

    def make(self, game: GameRow) -> Dice:
        """Dice for one step, starting at the first unused value."""
        return ScriptedDice(self.values[self.position:])

    def commit(self, dice: Dice) -> None:
        """The step was stored: its values are used up."""
        assert isinstance(dice, ScriptedDice)
        self.position += dice.position


@dataclass
class _Outcome:
    """A step ready to store: what the rules returned plus how it was made."""

    step: Step
    dice: Dice
    action: Action | None
    side: str | None


Handler = Callable[["Service", Invocation], Awaitable[Reply]]


class Service:
    """Everything a front end can ask of the referee."""

    def __init__(self, store: Store, settings: Settings, dice_source: ScriptedDiceSource | None = None):
        self.store = store
        self.settings = settings
        self.dice_source = dice_source
        self.systems = registry.load_all()
        self.groups = catalogue.command_groups()
        self._locks: dict[str, asyncio.Lock] = {}
        self._games: OrderedDict[str, LiveGame] = OrderedDict()
        self._snapshots: OrderedDict[str, bytes] = OrderedDict()
        self.announcements = OwedAnnouncements(store)

    # -- life cycle ------------------------------------------------------------------------

    @classmethod
    async def open(cls, settings: Settings, *, dice_source: ScriptedDiceSource | None = None) -> "Service":
        """Open the store named in the settings and return a ready service."""
        store = await Store.open(settings.db)
        return cls(store, settings, dice_source)

    async def close(self) -> None:
        """Close the database cleanly."""
        await self.store.close()

    # -- the entry points ------------------------------------------------------------------

    async def handle(self, inv: Invocation) -> Reply:
        """Run one command.  Never raises: every failure becomes an ephemeral sentence."""
        try:
            if inv.private_channel:
                raise RuleError(
                    "Referee commands work in a server channel or thread, not in direct messages."
                )
            handler = self._handler(inv.command)
            async with self._lock(inv.channel_id):
                # A system order stores its step and its reply in one unit, both UNIQUE on
                # the interaction id, so a repeated delivery cannot be applied twice: it is
                # looked up only if the order fails, sparing every order a read (issue 7).
                # Other commands may write more than once, so they look first.
                optimistic = handler is _order_handler
                if inv.interaction_id and not optimistic:
                    answered = await self.store.answered(inv.interaction_id)
                    if answered is not None:
                        return Reply.model_validate_json(answered)
                try:
                    return await handler(self, inv)
                except (RuleError, DiceExhausted, sqlite3.IntegrityError):
                    if optimistic and inv.interaction_id:
                        answered = await self.store.answered(inv.interaction_id)
                        if answered is not None:
                            return Reply.model_validate_json(answered)
                    raise
        except RuleError as exc:
            return replies.error(exc.message)
        except DiceExhausted as exc:
            return replies.error(
                f"The scripted dice ran out: {exc}. Nothing changed; "
                "restart the console with more --dice values."
            )
        except Exception:
            incident = secrets.token_hex(3)
            log.exception("incident %s while handling %s", incident, inv.command)
            return replies.error(
                f"Sorry, something went wrong on our side (incident {incident}). "
                "Nothing was changed; a moderator can quote this id."
            )

    async def autocomplete(self, inv: Invocation, focused: str) -> list[Choice]:
        """Suggestions for the option ``focused``, given what is typed so far (<= 25)."""
        try:
            return _filter(await self._suggest(inv, focused), inv.options.get(focused))
        except RuleError:
            return []
        except Exception:
            log.exception("autocomplete failed for %s.%s", inv.command, focused)
            return []

    async def attach_snapshot(self, reply: Reply) -> Reply:
        """Render the snapshot a reply asks for (off the event loop) and attach the PNG."""
        if not reply.snapshot_key:
            return reply
        try:
            name, png = await self.snapshot(reply.snapshot_key)
        except Exception:
            incident = secrets.token_hex(3)
            log.exception("incident %s rendering %s", incident, reply.snapshot_key)
            return reply.model_copy(
                update={"text": reply.text + f"\n(map unavailable, incident {incident})"}
            )
        attachment = Attachment(filename=name, data=png, description="map snapshot")
        return reply.model_copy(update={"attachments": [*reply.attachments, attachment]})

    async def snapshot(self, key: str) -> tuple[str, bytes]:
        """``(filename, PNG bytes)`` of step ``game_id:seq``: the phone-width focus picture of
        the last action, marking what changed since the pinged side's last order (issue 15);
        the whole map when the step began a new turn, and for ``game_id:seq:map``.  Cached by
        state hash, picture and changes."""
        game_id, seq, *mode = key.split(":")
        game = await self.store.game(int(game_id))
        step = await self.store.step(int(game_id), int(seq))
        if step is None:
            raise KeyError(key)
        full = bool(mode) or await self._turn_ended(game.system, step)
        changes = [] if full else await self.changes_since(game.system, step)
        ident = step.state_json + ("map" if full else repr(changes))
        digest = hashlib.sha256(ident.encode()).hexdigest()
        name = f"{game.system}-game{game_id}-step{seq}{'-map' if full else ''}.png"
        if digest in self._snapshots:
            self._snapshots.move_to_end(digest)
            return name, self._snapshots[digest]
        system = self.systems[game.system]
        view = system.view(system.load_state(step.state_json))
        if changes:
            view = view.model_copy(update={"changes": changes})
        png = await asyncio.to_thread(_render_png, view, full)
        self._snapshots[digest] = png
        while len(self._snapshots) > SNAPSHOT_CACHE_SIZE:
            self._snapshots.popitem(last=False)
        return name, png

    async def owe(self, channel_id: str, reply: Reply) -> None:
        """Keep an announcement that could not be delivered, for the channel's next reply."""
        await self.announcements.owe(channel_id, reply)

    async def owed(self, channel_id: str) -> list[tuple[int, Reply]]:
        """The announcements still owed in a channel, oldest first."""
        return await self.announcements.owed(channel_id)

    async def settle(self, owed_id: int) -> None:
        """An owed announcement was delivered."""
        await self.announcements.settle(owed_id)

    async def _turn_ended(self, system_key: str, step: StepRow) -> bool:
        """Whether ``step`` began a new turn (its picture's header shows another turn than
        the step before): then the whole map is posted, not the focus picture."""
        before = await self.store.step(step.game_id, step.parent_seq) if step.parent_seq is not None else None
        if before is None:
            return False
        system = self.systems[system_key]
        turn = getattr(getattr(system.view(system.load_state(step.state_json)), "header", None), "turn", None)
        was = getattr(getattr(system.view(system.load_state(before.state_json)), "header", None), "turn", None)
        return turn != was

    async def changes_since(self, system_key: str, step: StepRow, side: str | None = None) -> list[Change]:
        """What changed for each unit between ``side``'s last order before ``step`` and
        ``step`` (``side`` defaults to the first side ``step`` waits on): compared view to
        view by :func:`rules.core.views.changes_between`, so every system gets it."""
        system = self.systems[system_key]
        state = system.load_state(step.state_json)
        side = side or next(iter(system.waiting_on(state)), None)
        recent = await self.store.steps(step.game_id, last=CHANGES_WINDOW)
        mine = [s for s in recent if s.seq < step.seq and s.reverted_by is None
                and s.side == side and s.action is not None]
        if side is None or not mine:
            return []
        return changes_between(system.view(system.load_state(mine[-1].state_json)), system.view(state))

    async def meta(self, key: str) -> str | None:
        """A fact the bot keeps about itself between runs (e.g. the last synced commands)."""
        return await self.store.meta(key)

    async def set_meta(self, key: str, value: str) -> None:
        """Keep a fact about the bot itself."""
        async with self.store.transaction() as db:
            db.set_meta(key, value)

    # -- plumbing --------------------------------------------------------------------------

    def _lock(self, channel_id: str) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    def _handler(self, path: list[str]) -> Handler:
        if len(path) != 2:
            raise RuleError("A command is a group and an order, e.g. /game status or /rr move.")
        group, name = path
        if group in ("game", "mod"):
            spec = next(g for g in self.groups if g.name == group).command(name)
            if spec is None:
                known = ", ".join(c.name for c in next(g for g in self.groups if g.name == group).commands)
                raise RuleError(f"There is no /{group} {name[:40]}; /{group} has: {known}.")
            from bot import gamecmds, modcmds  # noqa: PLC0415 - handlers live beside us

            module = gamecmds if group == "game" else modcmds
            return getattr(module, f"cmd_{name}")
        if group in self.systems:
            return _order_handler
        known = ", ".join(["game", "mod", *sorted(self.systems)])
        raise RuleError(f"There is no command group /{group[:40]}; groups: {known}.")

    def dice_for(self, game: GameRow) -> Dice:
        """The dice the next step of ``game`` rolls with."""
        if self.dice_source is not None:
            return self.dice_source.make(game)
        return SeededDice(game.seed, game.dice_counter)

    def dice_counter_after(self, game: GameRow, dice: Dice) -> int:
        """The game's roll counter once ``dice`` were used (scripted dice leave it alone)."""
        if isinstance(dice, SeededDice):
            return dice.counter
        return game.dice_counter

    def forget(self, channel_id: str) -> None:
        """Drop a channel's cached game (after it ended or on any doubt)."""
        self._games.pop(channel_id, None)

    async def live_game(self, channel_id: str) -> LiveGame | None:
        """The active game of a channel, from memory or from SQLite."""
        cached = self._games.get(channel_id)
        if cached is not None:
            self._games.move_to_end(channel_id)
            return cached
        row = await self.store.active_game(channel_id)
        if row is None:
            return None
        system = registry.get(row.system)
        game = LiveGame(row, system, system.load_state(row.state_json),
                        await self.store.seats(row.id), await self.store.last_seq(row.id) + 1)
        self._remember(game)
        return game

    def _remember(self, game: LiveGame) -> None:
        self._games[game.row.channel_id] = game
        self._games.move_to_end(game.row.channel_id)
        while len(self._games) > GAME_CACHE_SIZE:
            self._games.popitem(last=False)

    async def require_game(self, channel_id: str) -> LiveGame:
        """The channel's game, or a RuleError saying how to start one."""
        game = await self.live_game(channel_id)
        if game is None:
            raise RuleError(
                "There is no game in this channel; start one with /game new system:"
                f" ({', '.join(sorted(self.systems))})."
            )
        return game

    async def reload(self, channel_id: str) -> LiveGame | None:
        """Re-read a channel's game from SQLite after a write (the cache follows the store)."""
        self.forget(channel_id)
        return await self.live_game(channel_id)

    # -- the order path --------------------------------------------------------------------

    def resolve(
        self, game: LiveGame, side: str, name: str, options: dict[str, Any], dice: Dice
    ) -> _Outcome:
        """Parse and apply one order on the game's current state (pure; nothing stored)."""
        action = game.system.parse(name, options)
        step = game.system.apply(game.state, side, action, dice)
        return _Outcome(step=step, dice=dice, action=action, side=side)

    async def commit_step(
        self,
        game: LiveGame,
        outcome: _Outcome,
        *,
        inv: Invocation | None,
        kind: str = "order",
        parent_seq: int | None = None,
        rerolls: int | None = None,
        before: Callable[[Writer], Awaitable[None]] | None = None,
        reply_for: Callable[[int, list[str]], Reply] | None = None,
        actor: tuple[str | None, str | None] | None = None,
    ) -> tuple[int, Reply | None]:
        """Store a step and move the game's head to it, in one transaction.

        The actor is the invoker, unless ``actor`` names another (a reroll re-applying a
        player's later order keeps that player's name).

        ``before(db)`` runs first in the same transaction (e.g. a reroll's revert);
        ``reply_for(seq, mentions)`` builds the reply, which is stored with the interaction
        id in the same transaction, so the answer to a repeated delivery is the same.
        """
        step = outcome.step
        state_json = step.state.model_dump_json()
        counter = self.dice_counter_after(game.row, outcome.dice)
        mention_key = self.mention_key(step.waiting_on, step.turn_part)
        mentions = self._mentions(game, step) if mention_key != game.row.last_mention else []
        actor_id, actor_name = actor or ((inv.user_id, inv.user_name) if inv else (None, None))
        seq = game.next_seq
        row = StepRow(
            game_id=game.row.id,
            seq=seq,
            parent_seq=game.row.head_seq if parent_seq is None else parent_seq,
            kind=kind,
            actor_id=actor_id,
            actor_name=actor_name,
            side=outcome.side,
            action=(
                {"name": outcome.action.name,
                 "options": outcome.action.model_dump(mode="json", exclude_defaults=True)}
                if outcome.action is not None else None
            ),
            dice=outcome.dice.rolls,
            events=step.events,
            state_json=state_json,
            reveals=step.reveals,
            snapshot=step.snapshot,
            turn_part=step.turn_part,
            interaction_id=inv.interaction_id if inv and kind == "order" else None,
            rerolls=rerolls,
        )
        # Everything is built before the write lock is taken: the lock is held for one
        # hand-off to the writer, not while this task waits its turn on a busy event loop.
        reply = reply_for(seq, mentions) if reply_for is not None else None
        remembered = reply.model_dump_json() if reply and inv and inv.interaction_id else None
        def write(db: Writer) -> None:
            db.insert_step(row)
            db.set_head(game.row.id, seq, state_json, dice_counter=counter, last_mention=mention_key)
            if remembered is not None and inv and inv.interaction_id:
                db.remember_reply(inv.interaction_id, game.row.id, remembered)

        try:
            if before is None:  # the common case: no reads, so it may share a commit
                unit = self.store.unit()
                write(unit)
                await self.store.commit_unit(unit)
            else:
                async with self.store.transaction() as db:
                    await before(db)
                    write(db)
        except BaseException:
            # On any doubt (a failed write, or this order cancelled while its unit may still
            # commit) the next order re-reads the game instead of trusting the cache.
            self.forget(game.row.channel_id)
            raise
        if self.dice_source is not None:
            self.dice_source.commit(outcome.dice)
        # The cache takes what was just committed instead of re-reading the game (two queries
        # and a parse of the state on every order; bench/run.py).  The state is the rules' own
        # object: tests/platform/test_state_round_trip.py holds every system to a lossless
        # JSON round trip, so it equals what a re-read of the log would give.
        cached = game.row.model_copy(update={
            "head_seq": seq, "state_json": state_json, "dice_counter": counter,
            "last_mention": mention_key,
        })
        self._remember(LiveGame(cached, game.system, step.state, game.seats, seq + 1))
        return seq, reply

    @staticmethod
    def mention_key(waiting_on: list[str], turn_part: str) -> str:
        """What identifies a turn-part for pings: who is waited on, and for what."""
        return json.dumps([sorted(waiting_on), turn_part])

    def _mentions(self, game: LiveGame, step: Step) -> list[str]:
        users: list[str] = []
        for side in step.waiting_on:
            holder = game.holder(side)
            if holder and holder.user_id not in users:
                users.append(holder.user_id)
        return users

    def next_line(self, game: LiveGame, step: Step) -> str:
        """Who must act next, for the foot of a reply."""
        if step.game_over:
            return f"🏁 {step.result} — reveal the dice with /game end."
        waiting = ", ".join(replies.seat_name(s, game.seats) for s in step.waiting_on)
        return f"➡️ {step.turn_part}: {waiting}" if step.turn_part else f"➡️ {waiting}"

    async def remember(self, inv: Invocation, game_id: int | None, reply: Reply) -> Reply:
        """Store the reply of a state-changing command that made no step (dedupe)."""
        if inv.interaction_id:
            async with self.store.transaction() as db:
                db.remember_reply(inv.interaction_id, game_id, reply.model_dump_json())
        return reply

    async def _suggest(self, inv: Invocation, focused: str) -> list[Choice]:
        group, name = (inv.command + ["", ""])[:2]
        game = await self.live_game(inv.channel_id)
        if group == "game" and name == "new":
            if focused == "scenario":
                system = self.systems.get(str(inv.options.get("system", "")))
                keys = system.scenarios if system else [s for sys in self.systems.values() for s in sys.scenarios]
                return [Choice(value=k, label=k) for k in keys]
            return []
        if group in ("game", "mod") and focused == "side" and game:
            return [
                Choice(value=s, label=replies.seat_name(s, game.seats)) for s in game.system.sides
            ]
        if group == "game" and focused == "order":
            systems = [game.system] if game else list(self.systems.values())
            return [
                Choice(value=a.name, label=f"{a.name}: {a.description()}"[:100])
                for sys in systems for a in sys.actions
            ]
        if group in self.systems and game and game.row.system == group:
            sides = game.sides_of(inv.user_id)
            waiting = game.system.waiting_on(game.state)
            side = next((s for s in sides if s in waiting), sides[0] if sides else None)
            if side is None and any(a.name == name and a.read_only for a in game.system.actions):
                side = _watching_side(game)  # anyone may watch: read-only orders need no seat
            if side is None:
                return []
            partial = {k: v for k, v in inv.options.items() if k != focused}
            return game.system.choices(game.state, side, name, focused, partial)
        return []


def _filter(choices: list[Choice], typed: Any) -> list[Choice]:
    """Keep the choices matching what is typed (prefix first, then substring), at most 25."""
    text = str(typed or "").strip().lower()
    if text:
        starts = [c for c in choices if c.value.lower().startswith(text)]
        inside = [
            c for c in choices
            if c not in starts and (text in c.value.lower() or text in c.label.lower())
        ]
        choices = starts + inside
    return [
        Choice(value=c.value[:100], label=c.label[:100]) for c in choices[:MAX_CHOICES]
    ]


def _render_png(view: BaseModel, full: bool = False) -> bytes:
    from render import focus, snapshot  # noqa: PLC0415 - Pillow is loaded only when a map is drawn

    return (snapshot if full else focus)(view).png


async def _order_handler(svc: Service, inv: Invocation) -> Reply:
    """``/<system> <order> …``: a player's order, checked, applied, committed, answered."""
    group, name = inv.command
    game = await svc.require_game(inv.channel_id)
    if game.row.system != group:
        raise RuleError(
            f"This channel's game is {game.system.title}; its orders are /{game.row.system} …."
        )
    action_type = game.system.action_type(name)
    side = _acting_side(game, inv, action_type)
    outcome = svc.resolve(game, side, name, inv.options, svc.dice_for(game.row))
    step = outcome.step
    if action_type.read_only:
        return replies.info("\n".join(replies.event_lines(step.events)) or "Nothing to show.")

    def build(seq: int, mentions: list[str]) -> Reply:
        assert outcome.action is not None
        lines = [f"#{seq} {inv.user_name} ({side}): {outcome.action.summary()}"]
        lines += replies.event_lines(step.events)
        lines.append(svc.next_line(game, step))
        return Reply(
            text="\n".join(lines),
            mentions=mentions,
            snapshot_key=f"{game.row.id}:{seq}" if step.snapshot else None,
        )

    _, reply = await svc.commit_step(game, outcome, inv=inv, reply_for=build)
    assert reply is not None
    return reply


def _acting_side(game: LiveGame, inv: Invocation, action_type: type[Action]) -> str:
    """The side an order is given for: the user's seat that is waited on.

    A user holding several seats (hot-seat) acts for whichever is waited on.  Out of turn,
    only ``anytime`` and read-only orders pass; the rest get a sentence naming who must act.
    """
    result = game.system.result(game.state)
    if result is not None and not action_type.read_only:
        raise RuleError(f"The game is over ({result}). Reveal the dice with /game end.")
    sides = game.sides_of(inv.user_id)
    if not sides and action_type.read_only:
        return _watching_side(game)  # anyone may watch: a read-only order stores nothing
    if not sides:
        free = [s for s in game.system.sides if game.holder(s) is None]
        hint = f"take a free side with /game join (free: {', '.join(free)})" if free else "every side is taken"
        raise RuleError(f"You are not seated in this game; {hint}. Anyone may watch.")
    waiting = game.system.waiting_on(game.state)
    for side in sides:
        if side in waiting:
            return side
    if action_type.anytime or action_type.read_only:
        return sides[0]
    who = ", ".join(replies.seat_name(s, game.seats) for s in waiting) or "nobody"
    part = game.system.turn_part(game.state)
    raise RuleError(
        f"It is not your turn ({', '.join(sides)}): {part} waits on {who}."
    )


def _watching_side(game: LiveGame) -> str:
    """The side a spectator's read-only order is given for: the one waited on, or the first."""
    return (game.system.waiting_on(game.state) or list(game.system.sides))[0]


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


__all__ = ["LiveGame", "ScriptedDiceSource", "Service", "new_seed", "option_user", "utcnow"]
