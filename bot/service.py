"""The transport-neutral application service: an :class:`Invocation` in, a :class:`Reply` out.

Discord and the console are thin adapters over this.  The service holds a
:class:`~bot.pipeline.Pipeline` (game cache, ledger, resolve) and hands it, never itself,
to the command handlers.  Every command takes the same path: ``dispatch -> check options
(bot/options.py) -> handler(pipeline) -> one commit (bot/ledger.py) -> tell the pacer what
landed -> reply``; the reply is built before, and stored in, the command's one transaction,
and a repeated interaction id is answered from the log.  Commands on one channel are
serialized by a per-channel lock; different channels run concurrently.  Floods get "slow
down" (per user and per channel, orders and renders).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import secrets
import sqlite3
import time
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any, Awaitable, Callable

from pydantic import BaseModel

from bot import alttext, answers, export_html, incidents, longdraw, renderpool
from bot import commands as catalogue
from bot import orders, replies, seedkey, storage, tutorial
from bot.computer import ComputerPlayers
from bot.config import Settings
from bot.declare import Asked, Declared
from bot.games import GameCache
from bot.ledger import landed_of
from bot.limits import ChannelLocks, RateLimiter, limits_of
from bot.league import commands as league_commands
from bot.models import Attachment, Invocation, Reply, ThreadOpening
from bot.options import check_options
from bot.pacing.clock import Clock
from bot.pacing.runner import Pacer
from bot.pipeline import (
    LiveGame, Pipeline, ScriptedDiceSource, new_seed, option_user, state_digest, watching_side,
)
from bot.renderpool import RenderBusy
from bot.renderworker import DrawRequest
from bot.store import BaseStore, StepRow
from bot.writer import utcnow
from bot.stores import open_store
from bot.writer import CONFLICT_RETRIES, Conflict
from rules.core.contract import Choice, GameSystem
from rules.core.dice import DiceExhausted
from rules.core.errors import RuleError
from rules.core.orders import matching
from rules.core.views import changes_along, focused_on

log = logging.getLogger("referee.service")

#: How many rendered snapshots are kept, by state hash.
SNAPSHOT_CACHE_SIZE = 64
MAX_CHOICES = 25
#: How often old interactions are pruned (seconds).
PRUNE_EVERY = 3600.0

Handler = Callable[[Pipeline, Invocation], Awaitable[Reply]]
#: The handlers of the declared groups (``bot/declare.py``), by group and command name:
#: read from the declarations, never written out here.
HANDLERS: dict[str, dict[str, Handler]] = {s.name: s.handlers() for s in catalogue.DECLARED}
GAME_HANDLERS = HANDLERS["game"]
MOD_HANDLERS = HANDLERS["mod"]


class SlowDown(RuleError):
    """A user or channel sent more than its share; nothing was done."""


class Service:
    """Everything a front end can ask of the referee.

    The service HOLDS its :class:`~bot.pipeline.Pipeline` (``self.pipeline``: the game
    cache, the ledger, resolve and re-apply; issue 23) rather than being one.  It adds
    what belongs to the front door only: dispatch, the per-channel locks, rate limits, the
    rendered-picture cache and the pacer.  The command handlers are given the pipeline,
    never the service, so nothing below the service can reach back up to it.

    Its public surface is its methods plus five read-only properties, the pipeline's parts
    a front end, the benchmark or a test legitimately reads: :attr:`store`,
    :attr:`settings`, :attr:`systems`, :attr:`clock` and :attr:`games` (the cache of the
    channels' games: ``service.games.load(channel)``).  Anything else of the pipeline (its
    ledger, ``changes_since``, scripted dice) is reached as ``service.pipeline.…``.
    """

    def __init__(self, store: BaseStore, settings: Settings, dice_source: ScriptedDiceSource | None = None,
                 clock: Clock | None = None):
        #: Games in memory and the one way they change (bot/pipeline.py).
        self.pipeline = Pipeline(store, settings, dice_source, clock)
        self.groups = catalogue.command_groups()
        self._locks = ChannelLocks()
        self._limits = RateLimiter()
        self._snapshots: OrderedDict[str, bytes] = OrderedDict()
        #: Pictures being drawn, by digest: the PNG to come and whether it queued.
        self._rendering: dict[str, tuple[asyncio.Future[bytes], bool]] = {}
        #: The render workers (issue 41), one pool per process and render settings.
        self.pictures = renderpool.shared(settings)
        self._pruned_at = time.monotonic()
        #: Deadlines, reminders and digests (issue 19); its background task runs in the bot.
        #: It is given the pipeline and the channels' locks, and told what each command
        #: committed (:meth:`_paced`).
        self.pacer = Pacer(self.pipeline, self._locks)
        #: The computer's moves (issue 43): sent through :meth:`handle` like a player's; its
        #: background task runs in the bot, the console plays them after each line.
        self.computer = ComputerPlayers(self.pipeline, self.handle)
        self.pacer.stand_in = self.computer.nudge

    # -- what a front end reads of the pipeline -----------------------------------------------

    @property
    def store(self) -> BaseStore:
        """The database every game is kept in."""
        return self.pipeline.store

    @property
    def settings(self) -> Settings:
        """The settings the service was opened with."""
        return self.pipeline.settings

    @property
    def systems(self) -> dict[str, GameSystem[Any]]:
        """Every registered game system, by key."""
        return self.pipeline.systems

    @property
    def clock(self) -> Clock:
        """What deadlines and reminders read the time from."""
        return self.pipeline.clock

    @property
    def games(self) -> GameCache:
        """The channels' games in memory (``bot/games.py``: load, require, forget, reload)."""
        return self.pipeline.games

    # -- life cycle ------------------------------------------------------------------------

    @classmethod
    async def open(cls, settings: Settings, *, dice_source: ScriptedDiceSource | None = None,
                   clock: Clock | None = None) -> "Service":
        """Open the store named in the settings and return a ready service (``clock``: what
        deadlines read the time from; the system's unless a test or the console sets one)."""
        store = await open_store(settings.db)
        try:
            # After the store: a database refused (a newer schema, a read-only file) leaves
            # no new key file behind.
            store.seed_key = seedkey.load_key(
                settings.seed_key.get_secret_value() if settings.seed_key else None, settings.seed_key_file)
        except BaseException:
            await store.close()
            raise
        service = cls(store, settings, dice_source, clock)
        await service.hold_damaged_games()
        await service.prune_interactions()
        await service.pictures.ready()  # warm workers before the first player's picture
        return service

    async def hold_damaged_games(self) -> None:
        """Check every running game's stored records against their hash chain and the marks
        they make (``bot/chaincheck.py``); each that fails is named in the log and refused
        from then on (issue 45: ``referee bot`` played on a database ``referee health`` called
        damaged).  The other games play on."""
        from bot.chaincheck import damaged_games  # noqa: PLC0415 - a check of its own

        damaged = await damaged_games(self.store, await self.store.active_game_ids())
        self.games.damaged = {game_id: found[0] for game_id, found in damaged.items()}
        for game_id, found in damaged.items():
            log.error("game %s is on hold, refused to every command: its stored records fail the chain check"
                      " (%s); restore the last backup, then run referee health", game_id, "; ".join(found))

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
            handler, inv = self._dispatch(inv)
            self._throttle(inv)
            async with self._locks.hold(inv.channel_id), \
                    self.store.channel_lock(inv.channel_id) as held, self._holding(inv.channel_id, held):
                # A system order stores its step and its reply in one unit, both UNIQUE on
                # the interaction id, so a repeated delivery cannot be applied twice: it is
                # looked up only if the order fails, sparing every order a read (issue 7).
                # Other commands look first.
                optimistic = handler is orders.cmd_order
                if inv.interaction_id and not optimistic:
                    answered = await self.store.answered(inv.interaction_id)
                    if answered is not None:
                        return Reply.model_validate_json(answered)
                reply = await self._run(handler, inv, optimistic)
                reply = await self._paced(inv, reply)
                if not reply.error:
                    self.computer.nudge(inv.channel_id)  # its move may be next
                reply = self._tutored(inv, reply)
                if not optimistic and (reply.mentions or inv.command == ["game", "new"]):
                    reply = self._offered(inv.channel_id, reply)
            if time.monotonic() - self._pruned_at > PRUNE_EVERY:
                await self.prune_interactions()
            return reply
        except RuleError as exc:
            return replies.error(exc.message)
        except DiceExhausted as exc:
            return replies.error(
                f"The scripted dice ran out: {exc}. Nothing changed; "
                "restart the console with more --dice values."
            )
        except Exception as exc:
            said = storage.for_player(exc)
            if said is not None:  # a full disk, a read-only or damaged database (issue 29)
                log.error("%s (while handling %s)", storage.for_operator(exc, self.settings.db), inv.command)
                return replies.error(said)
            return replies.error(incidents.report(log, "incident %s while handling %s", inv.command,
                                                  nothing_changed=True))

    async def open_pairing(self, opening: ThreadOpening, channel_id: str, guild_id: str | None) -> Reply:
        """Start a league pairing's game in the thread (Discord) or channel (console) the
        front end opened for ``opening`` (issue 44), holding that channel's turn as a command
        does.  Never raises: a refusal is a sentence."""
        try:
            async with self._locks.hold(channel_id), self.store.channel_lock(channel_id):
                reply = await league_commands.start_pairing(self.pipeline, opening.pairing_id, channel_id, guild_id)
            return self._offered(channel_id, reply)
        except RuleError as exc:
            return replies.error(exc.message)
        except (Conflict, sqlite3.IntegrityError):
            return replies.error("That pairing's game was started meanwhile (or this thread already has a"
                                 " game); nothing was changed.")
        except Exception:
            return replies.error(incidents.report(log, "incident %s while opening pairing %s",
                                                  opening.pairing_id, nothing_changed=True))

    def _tutored(self, inv: Invocation, reply: Reply) -> Reply:
        """An order's reply in a tutorial game (``bot/tutorial.py``) with its lesson: what
        happened and what to type next (issue 40).  Only a public reply that moved the game."""
        if reply.error or reply.ephemeral or inv.command[0] not in self.systems:
            return reply
        game = self.games.cached(inv.channel_id)
        if game is None:
            return reply
        lesson = tutorial.lesson_for(game.system.key, game.row.seed, game.row.head_seq)
        if lesson is None:
            return reply
        return reply.model_copy(update={"text": "\n".join([reply.text, *lesson.lines()])})

    def _holding(self, channel_id: str, held: tuple[int, int] | None) -> "_Holding":
        """While a command holds the channel's turn: the game's version read with it."""
        return _Holding(self.games.held, channel_id, held)

    async def _run(self, handler: Handler, inv: Invocation, optimistic: bool) -> Reply:
        """Run ``handler``; a repeated delivery is answered from the record.

        A write conflict (another process sharing the store wrote this game first, issue 20)
        or a constraint's refusal drops the cached game; unless the interaction turns out
        to be answered already (a repeat that reached another process), the command runs
        again on the game as it now is, where it may be refused with the usual sentence.
        Only after :data:`CONFLICT_RETRIES` conflicts in a row is it refused as such.
        """
        for attempt in range(CONFLICT_RETRIES + 1):
            try:
                return await handler(self.pipeline, inv)
            except (Conflict, sqlite3.IntegrityError) as exc:
                self.games.forget(inv.channel_id)
                answered = await self.store.answered(inv.interaction_id) if inv.interaction_id else None
                if answered is not None:
                    return Reply.model_validate_json(answered)
                if attempt == CONFLICT_RETRIES:
                    if isinstance(exc, Conflict):
                        raise RuleError(
                            "Other commands kept changing this game while yours was applied, so"
                            " it was not stored. Check /game status and send it again."
                        ) from exc
                    raise
                log.info("write conflict on %s (%s); retrying", inv.channel_id, exc)
            except (RuleError, DiceExhausted):
                if optimistic and inv.interaction_id:
                    answered = await self.store.answered(inv.interaction_id)
                    if answered is not None:
                        return Reply.model_validate_json(answered)
                raise
        raise AssertionError("unreachable: the last attempt returns or raises")

    def _offered(self, channel_id: str, reply: Reply) -> Reply:
        """A reply to a ``/game`` or ``/mod`` command that pings whoever must act (a join that
        seats the side to act, a rollback) or starts a game offers their answers to tap, as an
        order's reply does (issue 30)."""
        game = self.games.cached(channel_id)
        if reply.error or reply.ephemeral or reply.offer_key or game is None:
            return reply
        waiting = game.system.waiting_on(game.state)
        if reply.mentions and not any(side in waiting for user in reply.mentions for side in game.sides_of(user)):
            # /mod seat pings the player seated, whatever the turn: the answers of the side
            # to act do not belong under that ping.
            return reply
        return reply.model_copy(update={"offer_key": f"{game.row.id}:{game.row.head_seq}"})

    async def attach_offer(self, reply: Reply, channel_id: str) -> Reply:
        """Add the answers a reply offers (``reply.offer_key``, issue 30): the buttons or menu
        of the side(s) now waited on, and their numbered lines.  Called by the front end
        before it sends the reply, after the commit — like the map, so an order's transaction
        does not pay for them.  None when the game has moved on since (the question would
        be stale before it is shown) or the game is not in hand."""
        if not reply.offer_key or reply.buttons or reply.menu:
            return reply
        game = await self._game_answered(reply, channel_id)
        if game is None or f"{game.row.id}:{game.row.head_seq}" != reply.offer_key:
            return reply
        try:
            found = orders.offer_after(game, game.state, game.row.head_seq)
        except Exception:  # noqa: BLE001 - answers are a convenience; the reply goes out without
            log.exception("offering answers for %s failed", reply.offer_key)
            return reply
        return answers.with_offer(reply, found)

    async def _game_answered(self, reply: Reply, channel_id: str) -> LiveGame | None:
        """The game a reply is about, as its own commit left it while nothing was committed
        in the channel since (issue 39: no read), else as the cache or the store has it."""
        landed = landed_of(reply)
        if landed is not None and landed.game is not None and self.games.cached(channel_id) is landed.game:
            return landed.game
        return await self.games.load(channel_id)

    async def _paced(self, inv: Invocation, reply: Reply) -> Reply:
        """Let pacing follow the game after a command (a new turn-part's deadline, a turn's
        digest); a reply that pings whoever must act carries the new deadline.  A failure
        here is logged, never the player's problem: the command is already committed."""
        if reply.error:
            return reply
        try:
            line = await self.pacer.after_command(inv.channel_id, inv.command, landed_of(reply))
        except Exception:  # noqa: BLE001
            log.exception("pacing after %s failed", inv.command)
            return reply
        if line and reply.mentions:
            return reply.model_copy(update={"text": f"{reply.text}\n{line}"})
        return reply

    async def autocomplete(self, inv: Invocation, focused: str) -> list[Choice]:
        """Suggestions for the option ``focused``, given what is typed so far (<= 25)."""
        try:
            return _filter(await self._suggest(inv, focused), inv.options.get(focused))
        except RuleError:
            return []
        except Exception:
            log.exception("autocomplete failed for %s.%s", inv.command, focused)
            return []

    async def press(self, inv: Invocation, token: str, value: str | None = None) -> Reply:
        """A button pressed or a menu entry chosen (issue 30).  Never raises.

        ``token`` is the component's custom id, ``value`` the menu entry chosen.  The press
        is checked against the game as it is now (the same game, the head still at the step
        that asked, the presser holding the side asked), the order it stands for is derived
        again from that state, and it is then sent through :meth:`handle` exactly as the
        slash command would be: same checks, same log line, same reply.  Menus of an order
        being built answer with the next question, privately.
        """
        try:
            return await self._press(inv, token, value)
        except RuleError as exc:
            return replies.error(exc.message)
        except Exception:
            return replies.error(incidents.report(log, "incident %s while handling a press of %s", token[:100],
                                                  nothing_changed=True))

    async def _press(self, inv: Invocation, token_text: str, value: str | None) -> Reply:
        token = answers.Token.decode(token_text)
        if value is not None:
            token = token.with_choice(value)
        game = await self.games.load(inv.channel_id)
        if game is None or game.row.id != token.game_id:
            raise RuleError("That question belongs to a game that is over; nothing was changed.")
        holder = game.holder(token.side)
        if holder is None or holder.user_id != inv.user_id:
            who = replies.seat_name(token.side, game.seats)
            raise RuleError(f"That question is for {who}; only they may answer it. "
                            "Anyone may watch; /game status shows whose turn it is.")
        if game.row.head_seq != token.seq:
            # A redelivered press that was applied: the answer it got, from the record.
            answered = await self.store.answered(inv.interaction_id) if inv.interaction_id else None
            if answered is not None:
                return Reply.model_validate_json(answered)
            raise RuleError(
                f"That question was answered or the game moved on (it asked at step #{token.seq}, "
                f"the game is at #{game.row.head_seq}); nothing was changed. Look at the latest message."
            )
        standing = game.may_stand(token.side, self.settings.standing_orders_in_a_row)
        if token.kind == "b":
            return answers.builder_reply(game.system, game.state, token, game.row.system, standing=standing)
        if token.kind == "a" and not token.path:
            raise RuleError("Choose one of the orders in the menu.")
        answer = answers.chosen_answer(game.system, game.state, token, standing=standing)
        order = inv.model_copy(update={
            "command": [game.row.system, answer.order], "options": dict(answer.options),
            "expect_head": token.seq, "as_side": token.side,
        })
        reply = await self.handle(order)
        if reply.error:
            return reply
        return reply.model_copy(update={"chosen": f"{inv.user_name} chose: {answer.label}"})

    async def attach_page(self, reply: Reply) -> Reply:
        """Build the HTML page a reply carries (``reply.page_key``: an ended game's every map,
        issue 25) and attach it.  Called at delivery, off the channel's lock: drawing every
        map of a long game takes a while, and the channel need not wait for it."""
        if reply.page_key is None or reply.attachments:
            return reply
        name, page = await export_html.export_html(self.store, reply.page_key, longdraw.shared(self.settings))
        return reply.model_copy(update={"attachments": [
            Attachment(filename=name, data=page, description="the game, step by step")]})

    async def attach_snapshot(self, reply: Reply) -> Reply:
        """Draw the picture a reply asks for (in a render worker, ``bot/renderpool.py``) and
        attach the PNG with its description (``bot/alttext.py``).

        A picture a free worker starts is waited for.  One queued behind others' pictures
        is waited for at most ``render_wait`` seconds; then the reply goes without it,
        saying so, and carries the picture to follow (:func:`bot.models.later_of`: the reply
        with it attached).  With the queue full the reply goes at once, saying ``/game map``
        draws it.  A picture that fails is an incident line; the reply always goes."""
        if not reply.snapshot_key:
            return reply
        try:
            picture = await self._picture_of(reply, reply.snapshot_key)
        except RenderBusy as busy:
            log.info("no picture for %s: %s", reply.snapshot_key, busy)
            return _noted(reply, replies.BUSY_LINE)
        except Exception:
            return _noted(reply, _unavailable(reply.snapshot_key))
        if picture.queued and not await _within(picture.png, self.settings.render_wait):
            out = _noted(reply, replies.FOLLOWS_LINE)
            out._later = asyncio.ensure_future(self._with_picture(reply, picture))
            return out
        return await self._with_picture(reply, picture)

    async def _with_picture(self, reply: Reply, picture: "Picture") -> Reply:
        """``reply`` with ``picture`` attached once drawn (and a digest's turn focus), or
        with the incident line when it could not be drawn."""
        try:
            png = await asyncio.shield(picture.png)
        except Exception:
            return _noted(reply, _unavailable(reply.snapshot_key))
        attachment = Attachment(filename=picture.name, data=png, description=picture.description)
        reply = reply.model_copy(update={"attachments": [*reply.attachments, attachment]})
        return await self.attach_turn_focus(reply)

    async def attach_turn_focus(self, reply: Reply) -> Reply:
        """Add a digest's focus picture (``reply.focus_key``, issue 40) beside its whole map:
        what changed over the turn, at a width a phone shows.  Nothing changed: no picture.
        A failure is logged; the digest keeps its map."""
        if not reply.focus_key:
            return reply
        try:
            found = await self.turn_focus(reply.focus_key)
        except Exception:  # noqa: BLE001 - the second picture is a convenience
            log.exception("drawing the turn focus %s failed", reply.focus_key)
            return reply
        if found is None:
            return reply
        name, png, description = found
        attachment = Attachment(filename=name, data=png, description=description)
        return reply.model_copy(update={"attachments": [*reply.attachments, attachment]})

    async def turn_focus(self, key: str) -> tuple[str, bytes, str] | None:
        """``(filename, PNG, description)``: the focus picture of what changed from step
        ``before`` to step ``last`` (``game_id:before:last``), or None when nothing on the
        map did."""
        game_id, before_seq, last_seq = (int(part) for part in key.split(":"))
        game = await self.store.game(game_id)
        before = await self.store.step(game_id, before_seq)
        last = await self.store.step(game_id, last_seq)
        if before is None or last is None:
            raise KeyError(key)
        system = self.systems[game.system]
        views = [system.view(system.load_state(s.state_json)) for s in (before, last)]
        changes = changes_along(views)
        if not changes:
            return None
        drawn = focused_on(views[1], changes)
        png = await asyncio.wrap_future(self.pictures.offer(DrawRequest(view=drawn)).future)
        return (f"{game.system}-game{game_id}-turn{before_seq}-{last_seq}-focus.png", png,
                alttext.describe_turn(drawn, changes, before_seq, last_seq))

    async def snapshot(self, key: str) -> tuple[str, bytes]:
        """``(filename, PNG bytes)`` of step ``game_id:seq`` (see :meth:`_stored_picture`),
        waited for however long the queue is: for callers that need the bytes."""
        picture = await self._stored_picture(key)
        return picture.name, await asyncio.shield(picture.png)

    async def _stored_picture(self, key: str) -> "Picture":
        """The picture of step ``game_id:seq`` read from the store: the phone-width focus
        picture of the last action, marking what changed since the pinged side's last order
        (issue 15); the whole map when the step began a new turn, and for
        ``game_id:seq:map``."""
        game_id, seq, *mode = key.split(":")
        game = await self.store.game(int(game_id))
        step = await self.store.step(int(game_id), int(seq))
        if step is None:
            raise KeyError(key)
        system = self.systems[game.system]
        state = system.load_state(step.state_json)
        full = bool(mode) or await self._turn_ended(system, step, state)
        # ``…:map:<side>``: that side's own view (issue 28), only ever in a private reply;
        # every other picture (posted, pinged) is the public view.
        side = mode[1] if len(mode) > 1 and mode[1] in system.sides else None
        return await self._draw(game.system, step, state, full, side)

    async def _picture_of(self, reply: Reply, key: str) -> "Picture":
        """The picture ``key`` of ``reply``: drawn from what the reply's own commit left (an
        order's reply names its new step: the step, its state and whether it began a turn
        are in hand, issue 39), else read from the store (:meth:`_stored_picture`:
        ``/game map``, an owed announcement, a reply told again from the record)."""
        landed = landed_of(reply)
        if landed is None or landed.game is None or landed.step is None or landed.state is None \
                or landed.new_turn is None or key != f"{landed.step.game_id}:{landed.step.seq}":
            return await self._stored_picture(key)
        return await self._draw(landed.game.row.system, landed.step, landed.state, landed.new_turn, None,
                                landed.game)

    async def _draw(self, system_key: str, step: StepRow, state: BaseModel, full: bool,
                    side: str | None, game: LiveGame | None = None) -> "Picture":
        """The picture of ``step`` (its ``state`` parsed): the whole map when ``full``,
        ``side``'s own view when given; ``game``, the game whose head it is, when in hand.
        Cached by state hash, picture and changes, and one render shared by every request
        for a picture being drawn (issue 14)."""
        system = self.systems[system_key]
        # One view of the step, drawn and compared (issue 23: it was built three times).
        view = system.view_for(state, side) if side else system.view(state)
        if side is None:  # a later picture compares with it; a side's own view is never kept
            self.pipeline.seen.keep(step.game_id, step.seq, view)
        changes = [] if full else await self.pipeline.changes_since(system_key, step, view=view, state=state,
                                                                        game=game)
        # The side is in the cache key: a side's picture is never served as the public one.
        digest = state_digest(step.state_json + ("map" if full else repr(changes)) + (f":{side}" if side else ""))
        name = (f"{system_key}-game{step.game_id}-step{step.seq}{'-map' if full else ''}"
                f"{f'-{side}' if side else ''}.png")
        description = alttext.describe(view, whole=full, side=side, events=step.events, action=step.action,
                                       actor=step.actor_name, changes=changes)
        kept = self._snapshots.get(digest)
        if kept is not None:
            self._snapshots.move_to_end(digest)
            done: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
            done.set_result(kept)
            return Picture(name, description, done, queued=False)
        drawing = self._rendering.get(digest)
        if drawing is None:
            drawn = view.model_copy(update={"changes": changes}) if changes else view
            ticket = self.pictures.offer(DrawRequest(view=drawn, whole=full))
            drawing = (asyncio.wrap_future(ticket.future), ticket.queued)
            self._rendering[digest] = drawing
            drawing[0].add_done_callback(functools.partial(self._drawn, digest))
        return Picture(name, description, *drawing)

    def _drawn(self, digest: str, png: "asyncio.Future[bytes]") -> None:
        """A picture finished: no longer shared as in progress; kept by its digest if drawn."""
        self._rendering.pop(digest, None)
        if png.cancelled() or png.exception() is not None:
            return
        self._snapshots[digest] = png.result()
        while len(self._snapshots) > SNAPSHOT_CACHE_SIZE:
            self._snapshots.popitem(last=False)

    async def owe(self, channel_id: str, reply: Reply) -> None:
        """Keep an announcement that could not be delivered, for the channel's next reply."""
        await self.pipeline.announcements.owe(channel_id, reply)

    async def owed(self, channel_id: str) -> list[tuple[int, Reply]]:
        """The announcements still owed in a channel, oldest first."""
        return await self.pipeline.announcements.owed(channel_id)

    async def settle(self, owed_id: int) -> None:
        """An owed announcement was delivered."""
        await self.pipeline.announcements.settle(owed_id)

    async def _turn_ended(self, system: GameSystem[Any], step: StepRow, state: BaseModel) -> bool:
        """Whether ``step`` began a new turn (the contract's ``turn`` differs from the step
        before's): then the whole map is posted, not the focus picture."""
        before = await self.store.step(step.game_id, step.parent_seq) if step.parent_seq is not None else None
        if before is None:
            return False
        return system.turn(state).key != system.turn(system.load_state(before.state_json)).key

    async def meta(self, key: str) -> str | None:
        """A fact the bot keeps about itself between runs (e.g. the last synced commands)."""
        return await self.store.meta(key)

    async def set_meta(self, key: str, value: str) -> None:
        """Keep a fact about the bot itself."""
        async with self.store.transaction() as db:
            db.set_meta(key, value)

    async def prune_interactions(self, now: datetime | None = None) -> None:
        """Forget stored replies older than the retention period (issue 14: the table was
        never pruned).  A repeated delivery arrives within seconds; days are plenty."""
        now = now or datetime.now(timezone.utc)
        cutoff = now - timedelta(hours=self.settings.interaction_retention_hours)
        self._pruned_at = time.monotonic()
        async with self.store.lease("prune-interactions") as held:
            if not held:
                return  # another process sharing the store is pruning right now
            async with self.store.transaction() as db:
                db.prune_interactions(cutoff.isoformat(timespec="milliseconds"))

    # -- plumbing --------------------------------------------------------------------------

    def _dispatch(self, inv: Invocation) -> tuple[Handler, Invocation]:
        """The handler of a command and the invocation with its options checked: the one
        parse path of ``/game``, ``/mod`` and every system's orders."""
        path = inv.command
        if len(path) == 3 and path[0] in self.systems:
            # An order in a subcommand group (issue 28): ``/mak air commit`` is the order
            # ``air commit`` of ``/mak``; the handlers see ``["mak", "air commit"]``.
            path = [path[0], f"{path[1]} {path[2]}"]
            inv = inv.model_copy(update={"command": path})
        if len(path) != 2:
            raise RuleError("A command is a group and an order, e.g. /game status or /rr move.")
        group, name = path
        spec_group = next((g for g in self.groups if g.name == group), None)
        if spec_group is None:
            known = ", ".join(g.name for g in self.groups)
            raise RuleError(f"There is no command group /{group[:40]}; groups: {known}.")
        spec = spec_group.command(name)
        if spec is None:
            if spec_group.system is not None:
                self.systems[group].action_type(name)  # raises, listing the orders
            known = ", ".join(c.path for c in spec_group.commands)
            raise RuleError(f"There is no /{group} {name[:40]}; /{group} has: {known}.")
        handler = HANDLERS[group][name] if group in HANDLERS else orders.cmd_order
        parsers = handler.parsers() if isinstance(handler, Declared) else None
        checked = check_options(group, spec, inv.options, parse=parsers)
        return handler, inv.model_copy(update={"options": checked})

    def _throttle(self, inv: Invocation) -> None:
        """Token buckets per user and per channel for orders, renders, replays, exports and
        digests (``bot/limits.py``, issues 14 and 29)."""
        costs = limits_of(self.settings, inv, self._cost(inv)) if self.settings.limits_on else None
        if costs is None:
            return
        kind, buckets = costs
        wait = self._limits.allow(buckets)
        if wait > 0:
            raise SlowDown(
                f"Slow down: too many {kind}s at once here; try again in {max(1, round(wait))} s."
            )

    def _cost(self, inv: Invocation) -> str | None:
        """The cost class its spec declares for a dispatched command (``bot/limits.py``)."""
        group = next((g for g in self.groups if g.name == inv.command[0]), None)
        spec = group.command(inv.command[1]) if group else None
        return spec.cost if spec else None

    async def _suggest(self, inv: Invocation, focused: str) -> list[Choice]:
        """What the focused option suggests: a declared command's option object
        (``bot/declare.py``), or the system for an order's option."""
        group, name = inv.command[0] if inv.command else "", " ".join(inv.command[1:])
        game = await self.games.load(inv.channel_id)
        if group in self.systems:
            return self._order_choices(inv, game, group, name, focused)
        option = catalogue.option_of(group, name, focused)
        return await option.suggest(Asked(inv, game, self.systems)) if option else []

    def _order_choices(self, inv: Invocation, game: LiveGame | None, group: str, name: str,
                       focused: str) -> list[Choice]:
        """The system's suggestions for an option of the order ``/group name``, for the side
        the user acts for (or watches, for a read-only order)."""
        if game is None or game.row.system != group:
            return []
        sides = game.sides_of(inv.user_id)
        waiting = game.system.waiting_on(game.state)
        side = next((s for s in sides if s in waiting), sides[0] if sides else None)
        if side is None and any(a.path() == name and a.read_only for a in game.system.actions):
            side = watching_side(game)  # anyone may watch: read-only orders need no seat
        if side is None:
            return []
        # What is typed in the focused option goes in too: the system filters by it
        # before it cuts at 25 (issue 25), so every legal value can be reached.
        return game.system.choices(game.state, side, name, focused, dict(inv.options))


def _filter(choices: list[Choice], typed: Any) -> list[Choice]:
    """Keep the choices matching what is typed (see :func:`rules.core.orders.matching`), at
    most 25, clipped to Discord's 100 characters."""
    notes = [c for c in choices if c.info]  # "Not your turn: …" informs whatever is typed
    by_value = {c.value: c for c in choices if not c.info}
    found = matching(list(by_value), str(typed or ""), lambda v: by_value[v].label, MAX_CHOICES)
    kept = notes + [by_value[v] for v in found]
    return [c.model_copy(update={"value": c.value[:100], "label": c.label[:100]})
            for c in kept[:MAX_CHOICES]]


@dataclass
class Picture:
    """A picture on its way: its file name, its description (alt text), the PNG to come,
    and whether it queued behind other pictures (False: drawn at once, or cached)."""

    name: str
    description: str
    png: "asyncio.Future[bytes]"
    queued: bool


def _noted(reply: Reply, line: str) -> Reply:
    """``reply`` with ``line`` added under its text."""
    return reply.model_copy(update={"text": f"{reply.text}\n{line}"})


def _unavailable(key: str | None) -> str:
    """The incident line of a picture that could not be drawn (logged with its incident id)."""
    incident = secrets.token_hex(3)
    log.exception("incident %s rendering %s", incident, key)
    return f"(map unavailable, incident {incident})"


async def _within(png: "asyncio.Future[bytes]", seconds: float) -> bool:
    """Whether ``png`` is drawn within ``seconds`` (it goes on either way)."""
    done, _ = await asyncio.wait({png}, timeout=seconds)
    return bool(done)


class _Holding:
    """:meth:`Service._holding`, written out: entered on every command, and a class costs a
    third of a generator-based context manager (issue 23)."""

    __slots__ = ("held", "channel_id", "version")

    def __init__(self, held: dict[str, tuple[int, int]], channel_id: str,
                 version: tuple[int, int] | None) -> None:
        self.held, self.channel_id, self.version = held, channel_id, version

    async def __aenter__(self) -> None:
        if self.version is not None:
            self.held[self.channel_id] = self.version

    async def __aexit__(self, *exc_info: object) -> None:
        self.held.pop(self.channel_id, None)


__all__ = ["LiveGame", "ScriptedDiceSource", "Service", "SlowDown", "new_seed", "option_user",
           "utcnow"]
