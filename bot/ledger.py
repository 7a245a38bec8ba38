"""The ledger: the one place a command's change is written, in one transaction.

Every command that changes a game hands the ledger a :class:`Change`: the new steps (each
applied on the one before), an audit entry and the revert marks it makes, a head moved to a
stored step, seat changes, more writes and the reply.  All of it is one transaction, so a
command is either wholly in the log or not at all (issue 14).  A commit is two stages
(issue 39): :meth:`Ledger.plan` works out everything it writes (the step rows, built by
:meth:`Ledger.step_row`, the one place a step row is made, and sealed in the hash chain; the
head, the pings, the summaries, the turn it ends) and writes nothing; the handler builds its
reply from that :class:`Plan`, the pacer's rows are asked for it (:data:`PacingRows`, given
at construction), and :meth:`Ledger.write` writes them all, puts the game it just committed
back in the cache (``bot/games.py``) and returns a :class:`Landed`, which the reply carries
to the pacer, the offer and the picture: none of them reads the game again (issues 23, 39).
:meth:`Ledger.commit` is the three in one call.
"""
from __future__ import annotations

import functools
import json
import logging
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Sequence

import orjson
from pydantic import BaseModel

from bot import chain, record, sealing, seedkey, versions
from bot.games import CHANGES_WINDOW, GameCache, LiveGame, player_seat
from bot.seen import Made, MadeStep
from bot.models import Invocation, Reply
from bot.pacing import store as pstore
from bot.pacing.clock import Clock, SystemClock
from bot.store import AuditRow, BaseStore, GameRow, SeatRow, StepRow
from bot.summaries import Summaries, fresh
from bot.versions import StepVersions
from bot.writer import Writer
from rules.core import dumps, finite
from rules.core.computer import free_run_after
from rules.core.contract import Action, GameSystem, Step
from rules.core.errors import RuleError
from rules.core.dice import Dice, ScriptedDice, SeededDice
from rules.core.secrets import game_key


class ScriptedDiceSource:
    """Console ``--dice 3,5,6``: one list consumed across steps; a refused order uses none."""

    def __init__(self, values: list[int]) -> None:
        self.values = list(values)
        self.position = 0


class DiceRun:
    """The dice of one command's steps, one after the other (a reroll makes several).

    :meth:`take` gives dice starting after every roll kept so far; :meth:`keep` counts a
    step's rolls as used (a re-applied order that no longer applies keeps none).
    """

    def __init__(self, game: GameRow, scripted: ScriptedDiceSource | None) -> None:
        self.seed = game.seed
        self.counter = game.dice_counter
        self.scripted = scripted
        self.used = 0  # scripted values kept by this run

    def take(self) -> Dice:
        """Fresh dice for the next step."""
        if self.scripted is not None:
            return ScriptedDice(self.scripted.values[self.scripted.position + self.used:])
        if not self.seed:  # the seed key is missing or another (bot/seedkey.py)
            raise RuleError(seedkey.NO_SEED)
        return SeededDice(self.seed, self.counter)

    def keep(self, dice: Dice) -> None:
        """The step rolled with ``dice`` is stored: its rolls are used up."""
        if isinstance(dice, ScriptedDice):
            self.used += dice.position
        elif isinstance(dice, SeededDice):
            self.counter = dice.counter

    def committed(self) -> None:
        """The command was stored: scripted values it used are gone for good."""
        if self.scripted is not None:
            self.scripted.position += self.used
            self.used = 0


@dataclass
class Outcome:
    """A step ready to store: what the rules returned plus how it was made."""

    step: Step
    dice: Dice
    action: Action | None
    side: str | None
    kind: str = "order"
    #: Who the step is recorded for; the invoker unless set (a reroll re-applying a
    #: player's later order keeps that player's name).
    actor: tuple[str | None, str | None] | None = None
    rerolls: int | None = None
    #: Its seals committed and its reveals recorded (issue 28, ``bot/sealing.py``): filled
    #: by :meth:`Ledger.commit`, kept in the step's ``action`` record.
    sealed: dict[str, Any] = field(default_factory=dict)


@dataclass
class Audit:
    """An audit entry (who did what and why); revert marks point at it."""

    actor_id: str
    actor_name: str
    action: str
    reason: str = ""
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class SeatChange:
    """One seat change: ``join``/``seat`` give ``side`` to the user, ``leave``/``kick``/
    ``unseat`` free every seat the user holds (``side`` is what they held, for the record)."""

    event: str
    user_id: str
    user_name: str
    side: str | None = None


@dataclass
class Change:
    """Everything one command writes, committed in one transaction.

    ``steps`` are appended in order, the first on ``parent_seq`` (``None``: a new root, a
    rerolled setup) and each later one on the one before; the head moves to the last.  With
    no steps, ``head`` (a stored step) becomes the head.  ``revert_after`` marks every active
    step numbered above it reverted by the audit entry; ``unrevert`` makes steps active again.
    """

    steps: list[Outcome] = field(default_factory=list)
    parent_seq: int | None = None
    head: StepRow | None = None
    audit: Audit | None = None
    revert_after: int | None = None
    unrevert: list[int] = field(default_factory=list)
    seats: list[SeatChange] = field(default_factory=list)
    dice: DiceRun | None = None
    reset_mention: bool = False
    #: With no steps: the turn-part just announced with a ping (a player who joins the
    #: side waited on is pinged by the join, so the next step of that turn-part is not).
    mention_key: str | None = None
    end: bool = False
    #: More writes of the same transaction (pacing rows, issue 19); they read nothing.
    extra: list[Callable[[Writer], None]] = field(default_factory=list)


@dataclass
class Committed:
    """What a change leaves, for the reply: the new step numbers and who is pinged."""

    seqs: list[int]
    head_seq: int
    mentions: list[str]
    #: The game's chain head after the change (``bot/chain.py``): public replies show it.
    chain_head: str = ""
    #: The ``action`` record of each new step (seals and reveals included, issue 28).
    actions: list[dict[str, Any] | None] = field(default_factory=list)
    #: How many records the chain holds after the change, and how many it wrote (issue 45:
    #: the anchor line shows both).
    chain_count: int = 0
    added: int = 0


@dataclass(frozen=True)
class Plan:
    """Everything one commit writes, worked out before its transaction
    (:meth:`Ledger.plan`): the sealed step rows and audit entry, the new head, its chain
    head, who is pinged, the summaries, and the turn its steps ended.  The reply is built
    from it (:attr:`done`) before anything is written."""

    game: LiveGame
    change: Change
    #: The command it is for (None: the referee's own, a deadline's orders).
    inv: Invocation | None
    rows: list[StepRow]
    audit: AuditRow | None
    chain_head: str
    #: How many records the chain holds once the plan is written (issue 45).
    chain_count: int
    head_seq: int
    head_state: str
    mention_key: str | None
    mentions: list[str]
    dice_counter: int
    summaries: Summaries | None
    #: The turn the steps ended (its digest is scheduled by the commit), if any.
    ended_turn: tuple[int, str] | None
    #: Whether the last step began another turn than the step before it (the picture is
    #: then the whole map); None when the step before is not in hand (a re-based change).
    new_turn: bool | None

    @property
    def last_step(self) -> Step | None:
        """The rules' last new step, if the change adds any."""
        return self.change.steps[-1].step if self.change.steps else None

    @property
    def added(self) -> int:
        """How many records the plan writes to the chain: its audit entry and its steps."""
        return len(self.rows) + (self.audit is not None)

    @property
    def done(self) -> Committed:
        """What the reply is built from."""
        return Committed([r.seq for r in self.rows], self.head_seq, self.mentions, self.chain_head,
                         [r.action for r in self.rows], self.chain_count, self.added)


@dataclass
class PacingPlan:
    """The pacer's part of a commit (:data:`PacingRows`): its writes for the same
    transaction, what it planned (told back in :attr:`Landed.paced`) and the line a reply
    that pings ends with (the new deadline), stored with the reply."""

    write: Callable[[Writer], None]
    told: pstore.Pace | None = None
    line: str | None = None


@dataclass
class EndPlan:
    """What else a commit that ends a game writes (:data:`EndRows`): a league's count of it
    (issue 44), in the end's own transaction, and the lines its reply ends with."""

    writes: list[Callable[[Writer], None]] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)


#: Asked between the plan and the write of a commit that ends a game (``bot/league/
#: ending.py``, given to the ledger at construction): the rows that count it, or None.
EndRows = Callable[[Plan], Awaitable["EndPlan | None"]]


#: Asked between a commit's plan and its write (``bot/pacing/plans.py``, given to the
#: ledger at construction): the pacer's rows when the planned steps move a paced game to a
#: new turn-part (its deadline and reminders), else None (issue 23: pacing rows go in the
#: order's own transaction).
PacingRows = Callable[[Plan], Awaitable["PacingPlan | None"]]


@dataclass(frozen=True)
class Landed:
    """What a commit left (:meth:`Ledger.write`), carried by its reply (:func:`carrying`) to
    the pacer, the offer and the picture, which never read the game again (issues 23, 39)."""

    #: The game after the commit (None once the game ended).
    game: LiveGame | None
    #: The turn its played steps ended, if any (its digest was scheduled with it).
    ended_turn: tuple[int, str] | None = None
    #: What the pacer's own rows in the commit planned (:data:`PacingRows`).
    paced: pstore.Pace | None = None
    #: The last new step as stored, and the rules' state after it (None: no new step).
    step: StepRow | None = None
    state: BaseModel | None = None
    #: :attr:`Plan.new_turn` of the last new step.
    new_turn: bool | None = None
    #: The reply as stored with the commit (anchored, with the deadline line).
    reply: Reply | None = None

    @property
    def answer(self) -> Reply:
        """The reply to send, carrying this (:func:`carrying`)."""
        if self.reply is None:
            raise ValueError("this commit stored no reply")
        return carrying(self.reply, self)


def carrying(reply: Reply, landed: Landed | None) -> Reply:
    """``reply`` (a copy) carrying what its commit left (``Reply._landed``, never stored)."""
    out = reply.model_copy()
    out._landed = landed
    return out


def landed_of(reply: Reply) -> Landed | None:
    """What the commit of ``reply`` left, when the reply came from that commit (not from the
    record)."""
    landed = reply._landed
    return landed if isinstance(landed, Landed) else None


log = logging.getLogger("referee.ledger")


@functools.lru_cache(maxsize=4096)
def _mention_key(waiting_on: tuple[str, ...], turn_part: str) -> str:
    """:meth:`Ledger.mention_key`, kept: an order asks for it twice (its ping and its
    digest) and a game has few turn-parts (issue 23).  The text is stored
    (``games.last_mention``) and compared with, so it stays ``json.dumps``'s."""
    return json.dumps([sorted(waiting_on), turn_part])


class Ledger:
    """Commits a game's changes: step rows, audit, seats, head and reply in one transaction."""

    def __init__(self, store: BaseStore, games: GameCache, systems: dict[str, GameSystem[Any]],
                 clock: Clock | None = None, pacing: PacingRows | None = None,
                 ending: EndRows | None = None) -> None:
        self.store = store
        self.games = games
        self.systems = systems
        #: When a turn's digest is due (now, as the commit that ended the turn is made).
        self.clock: Clock = clock or SystemClock()
        #: The pacer's rows for a commit (``bot/pacing/plans.py``), given at construction.
        self.pacing = pacing
        #: The rows a league writes when a game ends (``bot/league/ending.py``).
        self.ending = ending

    @staticmethod
    def mention_key(waiting_on: list[str], turn_part: str) -> str:
        """What identifies a turn-part for pings: who is waited on, and for what."""
        return _mention_key(tuple(waiting_on), turn_part)

    @staticmethod
    def step_row(game_id: int, seq: int, parent: int | None, outcome: Outcome,
                 inv: Invocation | None, interaction: bool,
                 made: StepVersions | None = None) -> tuple[StepRow, bytes | None]:
        """The log row of ``outcome`` as step ``seq`` on ``parent`` (the one place a step row
        is built), and the canonical bytes of its state for the seal (None: the seal parses
        the stored text instead).

        The state is dumped once (issue 23): its stored text and its canonical bytes are
        both encoded from that dump, which also stays with the state for the next order's
        copy (``rules/core/dumps.py``).  ``made``: the release and rules version it is
        resolved under (issue 42; None only for a row that is never stored).  The text keeps the model's field and key order (a
        state read back iterates its dicts as the rules built them)."""
        step = outcome.step
        actor_id, actor_name = outcome.actor or ((inv.user_id, inv.user_name) if inv else (None, None))
        if outcome.action is None and outcome.sealed:
            raise ValueError("a set-up step cannot seal: secrets are sealed by orders (Ctx.seal)")
        state_json, canonical = Ledger.state_text(step.state)
        finite.require_finite(step.events, "events")  # written as JSON too (its data)
        row = StepRow(
            game_id=game_id, seq=seq, parent_seq=parent, kind=outcome.kind,
            actor_id=actor_id, actor_name=actor_name, side=outcome.side,
            action=(Ledger.action_record(outcome.action) | outcome.sealed
                    if outcome.action is not None else None),
            dice=outcome.dice.rolls, events=step.events, state_json=state_json,
            reveals=step.reveals, snapshot=step.snapshot or outcome.kind == "setup",
            turn_part=step.turn_part,
            interaction_id=inv.interaction_id if inv and interaction else None,
            rerolls=outcome.rerolls,
        )
        if made is not None:
            row.release, row.rules_version = made.release, made.rules  # a fresh row: nobody else holds it
        return row, canonical

    @staticmethod
    def state_text(state: BaseModel) -> tuple[str, bytes | None]:
        """A state's stored text and its canonical bytes (``bot/chain.py``), both from one
        JSON-mode dump; the canonical bytes are None where orjson cannot be sure of them,
        and the text is pydantic's own where orjson cannot write the dump (a string that
        is not valid UTF-8, an integer beyond 64 bits): the seal then parses it.  The text
        stays with the state for the next order's copy (``rules/core/dumps.py``).

        A state holding a float NaN or infinity is refused first
        (:class:`~rules.core.finite.NonFiniteNumber`, naming the field): JSON has none, and
        orjson and pydantic would write ``null``, a state other than the one computed."""
        finite.require_finite(state)  # JSON has no NaN: refused, never stored as null
        data = state.model_dump(mode="json")
        try:
            text, canonical = (orjson.dumps(data).decode("utf-8"),
                               chain.canonical_fast(data, finite=True))
        except (TypeError, orjson.JSONEncodeError):
            text, canonical = state.model_dump_json(), None
        dumps.remember(state, text)
        return text, canonical

    @staticmethod
    def action_record(action: Action) -> dict[str, Any]:
        """An order as its step records it: its path and options; which options public text
        must not show (a sealed choice, issue 29); a sealed order (issue 28) says so."""
        options = action.model_dump(mode="json", exclude_defaults=True)
        private = list(options) if action.sealed else list(action.private)
        return {"name": action.path(), "options": options,
                **({"private": private} if private else {}),
                **({"sealed": True} if action.sealed else {})}

    def _mentions(self, game: LiveGame, waiting_on: list[str], seats: list[SeatRow]) -> list[str]:
        """The players a step waiting on ``waiting_on`` pings: the holders of those seats,
        never the computer (issue 43): its move follows by the service's nudge, and a ping
        of it would reach no one, put the "since your last order" lines and the answers to
        tap under a reply no player can act on."""
        users: list[str] = []
        for side in waiting_on:
            holder = player_seat(seats, side)
            if holder is not None and holder.user_id not in users:
                users.append(holder.user_id)
        return users

    async def commit(
        self, game: LiveGame, change: Change, *, inv: Invocation | None,
        reply_for: Callable[[Committed], Reply],
    ) -> Reply:
        """Store ``change`` and its reply in one transaction; update the cache.  The three
        stages of :meth:`plan`, :meth:`pacing_for` and :meth:`write` in one call, for the
        commands that need nothing between them; returns the reply carrying what landed."""
        plan = await self.plan(game, change, inv=inv)
        reply = reply_for(plan.done)
        ending = await self.ending(plan) if self.ending is not None and change.end else None
        if ending is not None and ending.lines:
            reply = reply.model_copy(update={"text": "\n".join([reply.text, *ending.lines])})
        landed = await self.write(plan, reply, ending.writes if ending is not None else (),
                                  paced=await self.pacing_for(plan))
        return landed.answer

    async def plan(self, game: LiveGame, change: Change, *, inv: Invocation | None) -> Plan:
        """What ``change`` writes, nothing written yet: its rows sealed in the hash chain,
        the new head, who is pinged, the summaries and the turn it ends.  Reads the store
        only for a change that seals or reveals (the earlier seals, issue 28) or that moves
        the head off the current one (the summaries there); an order on the head reads
        nothing."""
        if any(o.step.seals or o.step.unseals for o in change.steps):
            if not game.row.seed:  # the seals' key is the seed's (bot/seedkey.py)
                raise RuleError(seedkey.NO_SEED)
            # Seals committed with the game's key, reveals checked against them (issue 28).
            found = await sealing.sealed_records(self.store, game_key(game.row.seed), game.row.id,
                                                 change.parent_seq, [o.step for o in change.steps])
            for outcome, sealed in zip(change.steps, found):
                outcome.sealed = sealed
        rows, canonicals = self._rows(game, change, inv)
        # The hash chain (issue 29): the audit entry first, then the steps, each sealed after
        # the record before it; the last one's hash is the new head.
        audit, chain_head = self._sealed_audit(game, change.audit)
        rows, chain_head = record.seal_steps(rows, chain_head, canonicals)
        if rows:
            head_seq, head_state = rows[-1].seq, rows[-1].state_json
        elif change.head is not None:
            head_seq, head_state = change.head.seq, change.head.state_json
        else:
            head_seq, head_state = game.row.head_seq, game.row.state_json
        mention_key, mentions = self._pings(game, change)
        last = change.steps[-1].step if change.steps else None
        return Plan(
            game=game, change=change, inv=inv, rows=rows, audit=audit, chain_head=chain_head,
            chain_count=game.row.chain_count + len(rows) + (audit is not None),
            head_seq=head_seq, head_state=head_state, mention_key=mention_key, mentions=mentions,
            dice_counter=change.dice.counter if change.dice is not None else game.row.dice_counter,
            summaries=await self._summaries_after(game, change, rows),
            ended_turn=self.turn_ended_by(game, last), new_turn=self._new_turn(game, change),
        )

    async def pacing_for(self, plan: Plan) -> PacingPlan | None:
        """The pacer's rows for ``plan`` (:data:`PacingRows`), or None.  A failure to plan
        them is logged and costs nothing: the pacer follows the game after the commit."""
        if self.pacing is None or plan.last_step is None or plan.change.end:
            return None
        try:
            return await self.pacing(plan)
        except Exception:  # noqa: BLE001 - pacing never costs a player the order
            log.exception("the pacing rows of game %s could not be planned; the pacer"
                          " follows the game after the commit (Pacer.sync)", plan.game.row.id)
            return None

    async def write(self, plan: Plan, reply: Reply | None, extra: Sequence[Callable[[Writer], None]] = (),
                    *, paced: PacingPlan | None = None) -> Landed:
        """Write ``plan``, ``reply``, the handler's ``extra`` writes (made with the reply: an
        announcement it owes) and the pacer's rows ``paced`` in one transaction; put
        the game after it in the cache; return what landed (:attr:`Landed.answer`: the reply
        to send).

        The reply was built before the transaction (from the plan) and is kept with the
        interaction id in it, so a repeated delivery gets the same answer and a crash leaves
        either the whole command or none of it."""
        game, change, inv = plan.game, plan.change, plan.inv
        if reply is not None:
            reply = versions.with_rules_news(reply, game.system, game.row.head_rules_version,
                                             plan.rows[0].seq if plan.rows and plan.change.parent_seq == game.row.head_seq
                                             else None)
            reply = record.anchored(reply, plan.chain_head, plan.chain_count, plan.added, game.row.seed)
            if reply.mentions and paced is not None and paced.line:
                # The ping says by when: stored with the reply, so a retried interaction is
                # answered with the same text.
                reply = reply.model_copy(update={"text": f"{reply.text}\n{paced.line}"})
        remembered = reply.model_dump_json() if reply is not None and inv and inv.interaction_id else None
        write = self._writes(plan, [*plan.change.extra, *extra, *([paced.write] if paced else [])], remembered)
        try:
            if plan.audit is None:  # the common case: no reads, so it may share a commit
                unit = self.store.unit()
                write(unit, None)
                await self.store.commit_unit(unit)
            else:
                async with self.store.transaction() as db:
                    a = plan.audit
                    audit_id = await db.add_audit(game.row.id, a.actor_id, a.actor_name, a.action,
                                                  a.reason, a.data, created_at=a.created_at,
                                                  prev_hash=a.prev_hash, hash=a.hash)
                    write(db, audit_id)
        except BaseException:
            # On any doubt (a failed write, or this command cancelled while its unit may
            # still commit) the next command re-reads the game instead of trusting the cache.
            self.games.forget(game.row.channel_id)
            raise
        if change.dice is not None:
            change.dice.committed()
        if game.row.channel_id in self.games.held:  # this commit moved the version on, once
            self.games.held[game.row.channel_id] = (game.row.id, game.row.version + 1)
        return Landed(await self._game_after(plan), plan.ended_turn, paced.told if paced is not None else None,
                      plan.rows[-1] if plan.rows else None, plan.last_step.state if plan.last_step else None,
                      plan.new_turn, reply)

    def _rows(self, game: LiveGame, change: Change,
              inv: Invocation | None) -> tuple[list[StepRow], list[bytes | None]]:
        """The new step rows, each on the one before, and their states' canonical bytes."""
        rows: list[StepRow] = []
        canonicals: list[bytes | None] = []
        parent, seq = change.parent_seq, game.next_seq
        made = versions.made_now(game.system)
        for outcome in change.steps:
            # Only a player's own order carries the interaction id (UNIQUE: the optimistic
            # dedupe of the order path); a command's reply carries it otherwise.
            own = outcome.kind == "order" and outcome.actor is None and len(change.steps) == 1
            row, canonical = self.step_row(game.row.id, seq, parent, outcome, inv, own, made)
            rows.append(row)
            canonicals.append(canonical)
            parent, seq = seq, seq + 1
        return rows, canonicals

    @staticmethod
    def _sealed_audit(game: LiveGame, a: Audit | None) -> tuple[AuditRow | None, str]:
        """The change's audit entry sealed after the chain head, and the chain head after it."""
        if a is None:
            return None, game.row.chain_head
        sealed = record.seal_audit(AuditRow(
            id=0, game_id=game.row.id, actor_id=a.actor_id, actor_name=a.actor_name,
            action=a.action, reason=a.reason, data=a.data, created_at=""), game.row.chain_head)
        return sealed, sealed.hash or game.row.chain_head

    def _pings(self, game: LiveGame, change: Change) -> tuple[str | None, list[str]]:
        """The turn-part last announced with a ping once ``change`` is stored, and who its
        reply pings: whoever the last new step waits on, when that is a new turn-part."""
        last = change.steps[-1].step if change.steps else None
        if last is not None:
            key = self.mention_key(last.waiting_on, last.turn_part)
            if key != game.row.last_mention or change.reset_mention:
                seats = self._seats_after(game.seats, change.seats)
                return key, self._mentions(game, last.waiting_on, seats)
            return key, []
        if change.reset_mention:
            return "", []
        if change.mention_key is not None:
            return change.mention_key, []
        return game.row.last_mention, []

    @staticmethod
    def _new_turn(game: LiveGame, change: Change) -> bool | None:
        """:attr:`Plan.new_turn`: known when the steps follow the head (the state before the
        last one is in hand), from the contract's ``turn``."""
        if not change.steps or change.parent_seq != game.row.head_seq:
            return None
        before = change.steps[-2].step.state if len(change.steps) > 1 else game.state
        system = game.system
        return bool(system.turn(change.steps[-1].step.state).key != system.turn(before).key)

    def _writes(self, plan: Plan, extra: list[Callable[[Writer], None]],
                remembered: str | None) -> Callable[[Writer, int | None], None]:
        """Every write of ``plan``'s transaction, given the audit entry's id (``extra``: the
        change's own, the handler's and the pacer's, in that order)."""
        game, change, inv = plan.game, plan.change, plan.inv

        def write(db: Writer, audit_id: int | None) -> None:
            # First, guarded by the version this command was resolved against: a stale copy
            # (another process wrote the game) stops here, before anything is written.
            db.set_head(game.row.id, plan.head_seq, dice_counter=plan.dice_counter,
                        last_mention=plan.mention_key, version=game.row.version, chain_head=plan.chain_head,
                        chain_count=plan.chain_count,
                        summaries=plan.summaries.model_dump_json() if plan.summaries is not None else None)
            if change.revert_after is not None:
                assert audit_id is not None, "revert marks point at the audit entry that made them"
                db.revert_after(game.row.id, change.revert_after, audit_id)
            if change.unrevert:
                db.unrevert(game.row.id, change.unrevert)
            for seat in change.seats:
                self._write_seat(db, game.row.id, seat, audit_id)
            for row in plan.rows:
                db.insert_step(row)
            if change.end:
                db.end_game(game.row.id, seed=game.row.seed)
            for more in extra:
                more(db)
            if plan.ended_turn is not None:
                # The turn's digest is scheduled by the commit that ended it (issue 23: no
                # second transaction after the order); the pacer builds it in the background.
                now = self.clock.now()
                pstore.schedule(db, pstore.digest_message(game.row.id, game.row.channel_id, plan.ended_turn,
                                                          plan.head_seq, now), now)
            if remembered is not None and inv is not None and inv.interaction_id:
                db.remember_reply(inv.interaction_id, game.row.id, remembered)
        return write

    async def _game_after(self, plan: Plan) -> LiveGame | None:
        """The game once ``plan`` is stored, put in the cache: what was just committed, for an
        order on the head; read again after any other change; None once it ended."""
        game, change = plan.game, plan.change
        if change.end:
            self.games.forget(game.row.channel_id)
            return None
        last = plan.last_step
        if last is None or change.seats or change.audit is not None or change.parent_seq != game.row.head_seq:
            return await self.games.reload(game.row.channel_id)
        # The cache takes what was just committed instead of re-reading the game (two
        # queries and a parse of the state on every order; bench/run.py).  The state is
        # the rules' own object: tests/platform/test_state_round_trip.py holds every
        # system to a lossless JSON round trip, so it equals a re-read of the log.
        cached = game.row.model_copy(update={
            "head_seq": plan.head_seq, "state_json": plan.head_state, "dice_counter": plan.dice_counter,
            "last_mention": plan.mention_key, "version": game.row.version + 1,
            "chain_head": plan.chain_head, "chain_count": plan.chain_count,
            "head_rules_version": game.system.rules_version,
        })
        assert plan.summaries is not None
        live = LiveGame(cached, game.system, last.state, game.seats, game.next_seq + len(plan.rows),
                        game.seat_log, self._standing_after(game, change.steps), plan.summaries,
                        self._recent_after(game, plan.rows), self._made_after(game, plan),
                        self._free_after(game, change.steps))
        self.games.remember(live)
        return live

    @staticmethod
    def turn_ended_by(game: LiveGame, last: Step | None) -> tuple[int, str] | None:
        """The turn that a commit's played steps ended (its digest is due), read from the
        contract (``GameSystem.turn``), not from a picture: the turn of the head before the
        commit, when the new head is in another turn or the game just ended.  A command
        that only moves the head (a rollback) ends no turn (issue 25: it posted empty,
        mislabelled digests)."""
        if last is None:
            return None
        system = game.system
        was = system.turn(game.state).key
        if was is None:
            return None
        now = system.turn(last.state).key
        if now != was or (last.game_over and system.result(game.state) is None):
            return was
        return None

    async def _summaries_after(self, game: LiveGame, change: Change,
                               rows: list[StepRow]) -> Summaries | None:
        """Every side's summary once ``change`` is stored (None: unchanged).  New steps on
        the head (an order) carry the cached summaries on; a change that moves the head
        elsewhere (rollback, reroll, undo) rebuilds them at its new base first."""
        if rows and change.parent_seq == game.row.head_seq:
            return game.summaries.after(rows)
        if rows:
            base = await self.games.summaries_at(game, change.parent_seq) if change.parent_seq is not None \
                else fresh(game.system.sides)
            return base.after(rows)
        if change.head is not None:
            return await self.games.summaries_at(game, change.head.seq)
        return None

    @staticmethod
    def _recent_after(game: LiveGame, rows: list[StepRow]) -> list[StepRow] | None:
        """:attr:`LiveGame.recent` once ``rows`` follow the head: the window carried on, the
        new rows without their states (as the log reads them)."""
        if game.recent is None:
            return None
        return [*game.recent, *(r.model_copy(update={"state_json": ""}) for r in rows)][-CHANGES_WINDOW:]

    @staticmethod
    def _made_after(game: LiveGame, plan: Plan) -> Made:
        """:attr:`LiveGame.made` once ``plan``'s steps follow the head: asked of the states
        just computed (issue 41), not read back."""
        return game.made.after(game.system, [
            MadeStep(row.seq, row.side, row.action is not None, outcome.step.state, row.state_json,
                     outcome.step.snapshot)
            for row, outcome in zip(plan.rows, plan.change.steps, strict=True)])

    @staticmethod
    def _free_after(game: LiveGame, outcomes: list[Outcome]) -> dict[str, int]:
        """:attr:`LiveGame.free_run` once ``outcomes`` follow the head: each order judged
        free or not in the state it was given in (the head's, then each step's before it)."""
        runs = dict(game.free_run)
        state = game.state
        for outcome in outcomes:
            if outcome.action is not None and outcome.side is not None:
                runs[outcome.side] = free_run_after(game.system, state, outcome.side, outcome.action,
                                                    runs.get(outcome.side, 0))
            state = outcome.step.state
        return runs

    def _standing_after(self, game: LiveGame, outcomes: list[Outcome]) -> dict[str, int]:
        counts = dict(game.standing)
        for outcome in outcomes:
            action = outcome.action
            if action is not None and action.anytime and outcome.side is not None:
                counts[outcome.side] = counts.get(outcome.side, 0) + 1
            else:
                counts = {}
        return counts

    @staticmethod
    def _seats_after(seats: list[SeatRow], changes: list[SeatChange]) -> list[SeatRow]:
        out = list(seats)
        for c in changes:
            if c.event in ("join", "seat"):
                out = [s for s in out if s.side != c.side]
                out.append(SeatRow(side=c.side or "", user_id=c.user_id, user_name=c.user_name))
            elif c.event in ("leave", "kick"):
                out = [s for s in out if s.user_id != c.user_id]
        return out

    @staticmethod
    def _write_seat(db: Writer, game_id: int, seat: SeatChange, audit_id: int | None) -> None:
        # "unseat" only records who was replaced: the "seat" that follows takes the side.
        if seat.event in ("join", "seat"):
            assert seat.side is not None
            db.set_seat(game_id, seat.side, seat.user_id, seat.user_name)
        elif seat.event in ("leave", "kick"):
            db.remove_seats(game_id, seat.user_id)
        db.add_seat_event(game_id, seat.side, seat.user_id, seat.user_name, seat.event, audit_id)

    async def start(
        self, draft: GameRow, outcome: Outcome, run: DiceRun, *, inv: Invocation,
        reply_for: Callable[[int], Reply], seats: list[SeatChange] | None = None,
        also: Callable[[Writer, int], None] | None = None,
    ) -> Reply:
        """Create a game with its setup step (#0, a root), its first seats (a solitaire
        game's one player, a league pairing's two) and its reply, in one transaction;
        ``also``: more writes of it, given the new game's id (a league's pairing)."""
        async with self.store.transaction() as db:
            game_id = await db.create_game(
                channel_id=draft.channel_id, guild_id=draft.guild_id, system=draft.system,
                scenario=draft.scenario, options=draft.options,
                seed=seedkey.wrap(self.store.seed_key, draft.seed, draft.seed_hash),
                seed_hash=draft.seed_hash, created_by=draft.created_by or inv.user_id,
                scenario_text=draft.scenario_text, chain_format=chain.CHAIN_FORMAT_2,
            )
            row, canonical = self.step_row(game_id, 0, None, outcome, inv, False,
                                           versions.made_now(self.systems[draft.system]))
            row = record.seal_step(row, record.genesis_of(draft.model_copy(
                update={"chain_format": chain.CHAIN_FORMAT_2})), canonical)
            db.insert_step(row)
            step = outcome.step
            mention = self.mention_key(step.waiting_on, step.turn_part) if seats else None
            db.set_head(game_id, 0, dice_counter=run.counter, last_mention=mention,
                        summaries=fresh(self.systems[draft.system].sides).model_dump_json(),
                        chain_head=row.hash, chain_count=1)
            for seat in seats or []:
                self._write_seat(db, game_id, seat, None)
            if also is not None:
                also(db, game_id)
            reply = record.anchored(reply_for(game_id), row.hash or "", 1, 1, draft.seed)
            if inv.interaction_id:
                db.remember_reply(inv.interaction_id, game_id, reply.model_dump_json())
        run.committed()
        await self.games.reload(draft.channel_id)
        return reply

    async def remember(self, inv: Invocation, game_id: int | None, reply: Reply) -> Reply:
        """Store the reply of a command that changed nothing else (dedupe)."""
        if inv.interaction_id:
            async with self.store.transaction() as db:
                db.remember_reply(inv.interaction_id, game_id, reply.model_dump_json())
        return reply


__all__ = [
    "Audit", "Change", "Committed", "DiceRun", "EndPlan", "EndRows", "Landed", "Ledger", "Outcome", "PacingPlan", "PacingRows",
    "Plan", "ScriptedDiceSource", "SeatChange", "carrying", "landed_of",
]
