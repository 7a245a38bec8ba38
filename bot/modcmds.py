"""``/mod …``: rollback, reroll, seat and kick.  Every use is announced with its reason.

Nothing is ever deleted: rollback and reroll mark steps reverted (pointing at the audit row
that did it), so a rollback can itself be rolled forward, and both rolls of a reroll stay in
the record.  Each command is one transaction (``Ledger.commit``): its audit entry, revert
marks, new steps, seats and reply are stored together or not at all.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass

from pydantic import BaseModel

from bot import record, replies, scenarios, versions
from bot.gamecmds import end_audit, finish, read_options
from bot.computer_ids import computer_id, computer_name, is_computer
from bot.declare import CommandSet, Member, Pick, Side, Text, Whole, command
from bot.models import Invocation, Reply, UserRef
from bot.pacing.commands import cmd_extend, current_pace
from bot.pacing.plans import same_part
from bot.pacing.times import discord_time
from bot.moderation import require_moderator
from bot.owed import OwedAnnouncements
from bot.pipeline import Audit, Change, Committed, DiceRun, LiveGame, Outcome, Pipeline, SeatChange, option_user
from bot.seats import check_seat
from bot.store import SeatRow, StepRow
from rules.core.computer import LEVELS
from rules.core.dice import DiceExhausted, ReusedDice
from rules.core.errors import RuleError


def _require_moderator(svc: Pipeline, inv: Invocation) -> None:
    require_moderator(inv, svc.settings.moderator_role, inv.command[1])


def _ancestors(lineage: dict[int, tuple[int | None, bool]], seq: int) -> list[int]:
    """``seq`` and every step it was applied on top of, newest first, as far back as
    ``lineage`` reaches (it may hold only the recent part of the log)."""
    chain = []
    current: int | None = seq
    while current is not None and current in lineage:
        chain.append(current)
        current = lineage[current][0]
    return chain


@command("rollback", "Roll the game back (or forward again) to a step",
         Whole("to", "Step number from /game log", minimum=0), Text("reason", "Why (announced in the channel)"),
         may_render=True, moderator_only=True)
async def cmd_rollback(svc: Pipeline, inv: Invocation) -> Reply:
    """``/mod rollback to: reason:``: move the game back to an earlier step, or forward again.

    Back: every later active step is marked reverted (kept).  Forward: the reverted steps
    between the current step and ``to`` become active again, if ``to`` was built on the
    current step.  To a step on another branch (one abandoned by a new order, or the line
    as played before ``/mod rules-adopt``): back to the last step the two share, then
    forward along the other, in one change.
    """
    _require_moderator(svc, inv)
    opts = read_options(svc, inv)
    game = await svc.games.require(inv.channel_id)
    target, head = opts["to"], game.row.head_seq
    step = await svc.store.step(game.row.id, target)
    if step is None:
        last = await svc.store.last_seq(game.row.id)
        raise RuleError(f"There is no step #{target}; this game has steps #0 to #{last}.")
    if target == head:
        raise RuleError(f"The game is already at step #{target}.")
    path = await _rollback_path(svc, game, target)
    direction, moved = path.direction, sorted({*path.back, *path.forward})
    data = {"from": head, "to": target, "direction": direction, "steps": moved}
    if direction == "across":
        # The step the two lines share: the verifier and the health check replay the revert
        # marks from it (those above it on the old line struck, those of the new line active).
        data["base"] = path.base
    audit = Audit(inv.user_id, inv.user_name, "rollback", replies.user_text(opts["reason"]), data)
    change = Change(head=step, audit=audit, reset_mention=True, revert_after=path.base,
                    unrevert=path.forward)
    state = game.system.load_state(step.state_json)
    lines = [
        f"⏪ Moderator @{inv.user_name} rolled the game {path.words()} to step #{target}.",
        f"Reason: {replies.user_text(opts['reason'])}",
        *path.details(head),
        *([dice_kept_line(game.row.dice_counter)]
          if path.back and await _rolled_after(svc, game, path.base or 0) else []),
    ]
    reply = await svc.ledger.commit(game, change, inv=inv,
                             reply_for=lambda done: _announce(game, state, lines, target))
    assert reply is not None
    return reply


@dataclass(frozen=True)
class RollbackPath:
    """How a rollback moves the head: the active steps it strikes through (``back``, all
    numbered above ``base``) and the reverted ones it makes active again (``forward``).  To
    a step on another branch it does both: back to the last step the two lines share, then
    forward along the other (issue 42: undoing ``/mod rules-adopt`` in one command)."""

    direction: str
    base: int | None
    back: list[int]
    forward: list[int]

    def words(self) -> str:
        """How the head moved: ``back``, ``forward``, or back and along another line."""
        if self.direction == "across":
            return f"back to step #{self.base} and forward along another line"
        return self.direction

    def details(self, head: int) -> list[str]:
        """The announcement's lines on what was struck and what is active again."""
        lines = []
        if self.back:
            steps, are, them = _steps_words(self.back)
            lines.append(f"{steps} {are} kept, struck through; /mod rollback to:{head} restores {them}.")
        if self.forward:
            steps, are, _ = _steps_words(self.forward)
            lines.append(f"{steps} {are} active again.")
        return lines


def _steps_words(seqs: list[int]) -> tuple[str, str, str]:
    """``Steps #4–#7``, ``are``, ``them`` (one step: ``Step #7``, ``is``, ``it``)."""
    if len(seqs) > 1:
        return f"Steps #{min(seqs)}–#{max(seqs)}", "are", "them"
    return f"Step #{seqs[0]}", "is", "it"


async def _rollback_path(svc: Pipeline, game: LiveGame, target: int) -> RollbackPath:
    """The path from the head to ``target``; a sentence when there is none (a rerolled
    setup started another tree)."""
    head = game.row.head_seq
    # Only the steps between the two are read: the walk never goes below the lower one.
    lineage = await svc.store.lineage(game.row.id, since=min(target, head))
    back = _ancestors(lineage, head)
    forward = _ancestors(lineage, target)
    if target in back:
        return RollbackPath("back", target, sorted(s for s in back if s > target), [])
    if head in forward:
        return RollbackPath("forward", None, [], sorted(s for s in forward if s > head))
    everything = await svc.store.lineage(game.row.id)
    shared = set(_ancestors(everything, head)) & set(_ancestors(everything, target))
    if not shared:
        # A rerolled setup starts a new tree: the old one cannot be reached from it.
        root = _ancestors(everything, head)[-1]
        raise RuleError(f"Step #{target} belongs to a setup that was rerolled (now #{root}); "
                        "it cannot be returned to.")
    base = max(shared)
    return RollbackPath("across", base, sorted(s for s in _ancestors(everything, head) if s > base),
                        sorted(s for s in _ancestors(everything, target) if s > base))


async def _rolled_after(svc: Pipeline, game: LiveGame, seq: int) -> bool:
    """Whether a step a rollback to ``seq`` strikes through rolled dice."""
    return any(s.dice for s in await svc.store.active_steps_after(game.row.id, seq))


def dice_kept_line(counter: int) -> str:
    """What a rollback does to the dice (issue 40): the roll counter is not wound back, so
    the same order given again draws the next rolls of the seeded sequence, not the same."""
    return (f"🎲 The dice are not rolled back: the next roll is roll {counter} of this game's seeded"
            " sequence, so an order given again rolls afresh, and the struck rolls stay in the log"
            " (to re-resolve a roll on purpose, /mod reroll).")


@command("reroll", "Re-resolve the last step that rolled dice", Text("reason", "Why (announced in the channel)"),
         may_render=True, moderator_only=True)
async def cmd_reroll(svc: Pipeline, inv: Invocation) -> Reply:
    """``/mod reroll reason:``: re-resolve the last step that rolled dice, with fresh dice.

    That step and the steps after it are reverted (kept); the step is applied again with
    new dice on the state it was first applied to (a rerolled setup becomes a new root),
    then the later orders are re-applied in order while they remain legal.  Both rolls are
    posted and stay in the record.  All of it is one transaction (issue 14).
    """
    _require_moderator(svc, inv)
    opts = read_options(svc, inv)
    game = await svc.games.require(inv.channel_id)
    old = await svc.store.last_dice_step(game.row.id)
    if old is None:
        raise RuleError("No step of this game has rolled dice yet; there is nothing to reroll.")
    later = await svc.store.active_steps_after(game.row.id, old.seq)
    run = svc.dice_run(game.row)
    before = None if old.action is None else await svc.state_at(game, old.parent_seq or 0)
    first = svc.reapply(game, old, before, run.take())
    first.kind, first.rerolls, first.actor = "reroll", old.seq, (inv.user_id, inv.user_name)
    run.keep(first.dice)
    outcomes: list[Outcome] = [first]
    notes: list[str] = []
    state = first.step.state
    for step in later:
        try:
            again = svc.reapply(game, step, state, run.take())
        except RuleError as exc:
            notes.append(f"Step #{step.seq} ({replies.step_action_text(step)}) no longer applies: {exc.message}")
            break
        run.keep(again.dice)
        outcomes.append(again)
        state = again.step.state

    def build(done: Committed) -> Reply:
        lines = [
            f"🎲 Moderator @{inv.user_name} rerolled step #{old.seq} ({replies.step_action_text(old)}).",
            f"Reason: {replies.user_text(opts['reason'])}",
            "Before (kept in the log):",
            *[f"~~{line}~~" for line in replies.event_lines(old.events)],
            f"Now (#{done.seqs[0]}):",
            *replies.event_lines(first.step.events),
        ]
        for step, seq in zip(later, done.seqs[1:]):
            lines.append(f"Re-applied #{step.seq} as #{seq}: {replies.step_action_text(step)}")
        lines += notes
        return _announce(game, state, lines, done.head_seq)

    change = Change(
        steps=outcomes, parent_seq=old.parent_seq, dice=run,
        audit=Audit(inv.user_id, inv.user_name, "reroll", replies.user_text(opts["reason"]),
                    {"step": old.seq, "later": [s.seq for s in later]}),
        revert_after=old.seq - 1,
    )
    reply = await svc.ledger.commit(game, change, inv=inv, reply_for=build)
    assert reply is not None
    return reply


@command("rules-adopt", "Re-derive the game from a step under today's rules (dice as recorded)",
         Whole("from", "The first step to re-derive (from /game log)", minimum=1),
         Text("reason", "Why (announced in the channel)"), may_render=True, moderator_only=True)
async def cmd_rules_adopt(svc: Pipeline, inv: Invocation) -> Reply:
    """``/mod rules-adopt from: reason:``: re-derive the game from step ``from`` under the
    rulings of this release (issue 42).

    By default a game plays on from its stored head when the rules change: the steps before
    stand as played.  This applies the recorded orders of ``from`` to the head again, in
    order, on the state before ``from``, with the dice they recorded (a ruling that now asks
    for more rolls gets fresh ones), while they remain legal.  Like a reroll the old steps
    are kept, struck through, and both lines of history stay in the record; a rollback to
    the old head restores the line as played.  One transaction.
    """
    _require_moderator(svc, inv)
    opts = read_options(svc, inv)
    game = await svc.games.require(inv.channel_id)
    first = await _adopt_start(svc, game, opts["from"])
    line = [first, *await svc.store.active_steps_after(game.row.id, first.seq)]
    run = svc.dice_run(game.row)
    outcomes, notes = _rederived(svc, game, line, await svc.state_at(game, first.parent_seq or 0), run)
    changed = [(old, new) for old, new in zip(line, outcomes) if not _same_outcome(old, new)]
    if not changed and len(outcomes) == len(line):
        raise RuleError(f"Under today's rules ({versions.today(game.system)}) steps #{first.seq}–#{line[-1].seq}"
                        " resolve exactly as played: there is nothing to adopt, and nothing was changed.")
    head, today = game.row.head_seq, versions.today(game.system)

    def build(done: Committed) -> Reply:
        lines = [
            f"📜 Moderator @{inv.user_name} re-derived the game from step #{first.seq} under today's"
            f" rules ({today}), with the dice as recorded.",
            f"Reason: {replies.user_text(opts['reason'])}",
            f"Steps #{first.seq}–#{head} are kept, struck through, as played; now #{done.seqs[0]}–#{done.seqs[-1]}."
            f" /mod rollback to:{head} restores the line as played.",
            *[f"#{old.seq} → #{seq}: {_outcome_line(new)}"
              for (old, new), seq in zip(zip(line, outcomes), done.seqs) if (old, new) in changed][:6],
            *notes,
        ]
        return _announce(game, outcomes[-1].step.state, lines, done.head_seq)

    change = Change(
        steps=outcomes, parent_seq=first.parent_seq, dice=run,
        audit=Audit(inv.user_id, inv.user_name, "rules-adopt", replies.user_text(opts["reason"]),
                    {"from": first.seq, "head": head, "rules": today, "steps": [s.seq for s in line]}),
        revert_after=first.parent_seq,
    )
    return await svc.ledger.commit(game, change, inv=inv, reply_for=build)


async def _adopt_start(svc: Pipeline, game: LiveGame, seq: int) -> StepRow:
    """The step ``/mod rules-adopt from:`` names: an order on the game's current line."""
    step = await svc.store.step(game.row.id, seq)
    if step is None or seq > game.row.head_seq:
        raise RuleError(f"There is no step #{seq} on this game's line; it is at #{game.row.head_seq}"
                        " (/game log shows its steps).")
    if step.reverted_by is not None:
        raise RuleError(f"Step #{seq} is struck through (reverted); give a step of the current line"
                        " (/game log).")
    if step.parent_seq is None:
        raise RuleError("The setup cannot be re-derived; give the first step to re-derive after it (from:1 or later).")
    return step


def _rederived(svc: Pipeline, game: LiveGame, line: list[StepRow], state: BaseModel,
               run: DiceRun) -> tuple[list[Outcome], list[str]]:
    """Each step of ``line`` applied again on the one before, under today's rules, with its
    recorded dice; stops at the first that no longer applies (said in ``notes``)."""
    outcomes: list[Outcome] = []
    notes: list[str] = []
    for old in line:
        dice = ReusedDice(old.dice, run.take())
        try:
            again = svc.reapply(game, old, state, dice)
        except (RuleError, DiceExhausted) as exc:
            notes.append(f"Step #{old.seq} ({replies.step_action_text(old)}) no longer applies under"
                         f" today's rules: {getattr(exc, 'message', str(exc))}; the game stands before it.")
            break
        run.keep(dice.fresh)
        again.rerolls = old.seq  # an order re-derived: it names the step it stands for
        outcomes.append(again)
        state = again.step.state
    if not outcomes:
        raise RuleError(notes[0] + " Nothing was changed.")
    return outcomes, notes


def _same_outcome(old: StepRow, new: Outcome) -> bool:
    """Whether a re-derived step gives what the step it re-derives recorded."""
    return ([e.record() for e in new.step.events] == [e.record() for e in old.events]
            and json.loads(new.step.state.model_dump_json()) == json.loads(old.state_json))


def _outcome_line(outcome: Outcome) -> str:
    """A re-derived step's public events, one line."""
    return " · ".join(replies.event_lines(outcome.step.events)) or "no events"


def _announce(game: LiveGame, state: object, lines: list[str], seq: int,
              seats: list[SeatRow] | None = None) -> Reply:
    """A moderator's announcement: what was done, then who must act (pinged)."""
    seats = game.seats if seats is None else seats
    waiting = game.system.waiting_on(state)
    mentions = [h.user_id for s in waiting
                if (h := next((x for x in seats if x.side == s), None)) is not None]
    lines = [*lines, f"➡️ {game.system.turn_part(state)}: "
             + ", ".join(replies.seat_name(s, seats) for s in waiting)]
    return Reply(text="\n".join(lines), mentions=list(dict.fromkeys(mentions)),
                 snapshot_key=f"{game.row.id}:{seq}")


@command("seat", "Put a user (or the computer) in a side's seat (a substitute)",
         Side("side", "The side"), Member("user", "The player", required=False),
         Pick("ai", "Seat the computer instead, at this level", LEVELS, required=False), moderator_only=True)
async def cmd_seat(svc: Pipeline, inv: Invocation) -> Reply:
    """``/mod seat side: user:``: put a substitute (or anyone, a kicked player too) in a seat;
    ``/mod seat side: ai:`` puts the computer there at that level (issue 43)."""
    _require_moderator(svc, inv)
    opts = read_options(svc, inv)
    game = await svc.games.require(inv.channel_id)
    side = replies.side_named(game.system, opts["side"])  # "soviets" is soviet
    if bool(opts.get("user")) == bool(opts.get("ai")):
        raise RuleError("Name who takes the seat: user:@someone, or ai:easy, ai:normal or ai:hard for the computer.")
    user = option_user(opts["user"]) if opts.get("user") else UserRef(
        id=computer_id(opts["ai"], side), name=computer_name(opts["ai"]))
    check_seat(game, user.id, user.name, side, "seat")
    before = game.holder(side)
    seats = []
    if before is not None:
        seats.append(SeatChange("unseat", before.user_id, before.user_name, side))
    seats.append(SeatChange("seat", user.id, user.name, side))
    audit = Audit(inv.user_id, inv.user_name, "seat", "",
                  {"side": side, "user": user.id, "replaced": before.user_id if before else None})
    was = f" (replacing @{before.user_name})" if before else ""
    who = user.name if is_computer(user.id) else f"@{user.name}"
    reply = Reply(text=f"🪑 Moderator @{inv.user_name} seats {who} as {side}{was}.",
                  mentions=[] if is_computer(user.id) else [user.id])
    return await svc.ledger.commit(game, Change(seats=seats, audit=audit), inv=inv,
                            reply_for=lambda _: reply) or reply


@command("kick", "Remove a user from every seat of this game",
         Member("user", "The player"), Text("reason", "Why (announced in the channel)", required=False),
         moderator_only=True)
async def cmd_kick(svc: Pipeline, inv: Invocation) -> Reply:
    """``/mod kick user: [reason:]``: free every seat a user holds in this game; they may
    sit again only when a moderator seats them (``/mod seat``)."""
    _require_moderator(svc, inv)
    opts = read_options(svc, inv)
    game = await svc.games.require(inv.channel_id)
    user = option_user(opts["user"])
    sides = game.sides_of(user.id)
    if not sides:
        raise RuleError(f"@{user.name} holds no seat in this game.")
    reason = replies.user_text(opts.get("reason", ""))
    audit = Audit(inv.user_id, inv.user_name, "kick", reason, {"user": user.id, "sides": sides})
    because = f" Reason: {reason}" if reason else ""
    text = (f"🚪 Moderator @{inv.user_name} removed @{user.name} from {', '.join(sides)}.{because}"
            f" Another player may take {sides[0]} with /game join; @{user.name} may sit again"
            " only if a moderator seats them.")
    reply = Reply(text=text)
    change = Change(seats=[SeatChange("kick", user.id, user.name, s) for s in sides], audit=audit)
    return await svc.ledger.commit(game, change, inv=inv, reply_for=lambda _: reply) or reply


@command("look", "A side's own view of a game with secrets (no seat; audited)",
         Side("side", "The side whose view to see"), moderator_only=True, may_render=True, private=True)
async def cmd_look(svc: Pipeline, inv: Invocation) -> Reply:
    """``/mod look side:``: a side's own view of a game with secrets (issue 28), for a
    moderator who holds no seat (a seated one sees their own side only), privately; each
    look is an audit entry, so the players can see who looked at what and when."""
    _require_moderator(svc, inv)
    opts = read_options(svc, inv)
    game = await svc.games.require(inv.channel_id)
    side = replies.side_named(game.system, str(opts["side"]))
    if game.sides_of(inv.user_id):
        raise RuleError("You hold a seat in this game, so you see your own side only "
                        "(/game map); a moderator without a seat may look.")
    seq = game.row.head_seq
    # A system without secrets shows every side the public map: the look is still allowed
    # and kept (a moderator need not know which systems hide things), and says so.
    secrets = ("secrets included" if game.system.private_info
               else f"the public map: {game.system.title} keeps no secrets")

    plan = await svc.ledger.plan(game, Change(audit=Audit(inv.user_id, inv.user_name, "look", "",
                                                       {"side": side, "seq": seq})), inv=inv)
    reply = Reply(text=f"👁️ {game.system.side_name(side)}'s own view at step #{seq}, {secrets}; "
                       "only you see it. The channel is told that you looked (the audit log keeps it).",
                  snapshot_key=f"{game.row.id}:{seq}:map:{side}", ephemeral=True)
    # The look is a record of the chain: the channel is told, so every record is one an
    # announcement wrote (issue 45: the verifier requires it of the records between two).
    told = record.anchored(Reply(text=f"👁️ Moderator @{inv.user_name} looked at "
                                      f"{game.system.side_name(side)}'s own view at step #{seq}.",
                                 follows=True), plan.chain_head, plan.chain_count, plan.added,
                           game.row.seed)
    landed = await svc.ledger.write(plan, reply, [functools.partial(
        OwedAnnouncements.insert, channel_id=inv.channel_id, reply=told)])
    svc.announcements.owing(inv.channel_id)
    return landed.answer


@command("forfeit", "A side lost on its passed deadline: end the game, the other side wins",
         Side("side", "The side whose deadline passed"), Text("reason", "Why (announced in the channel)"),
         moderator_only=True, defer_first=True)
async def cmd_forfeit(svc: Pipeline, inv: Invocation) -> Reply:
    """``/mod forfeit side: reason:``: rule that ``side`` lost on its deadline (issue 44): only
    once the deadline of the turn-part in play has passed and the game still waits on that
    side.  The game ends as ``/game end`` ends it and a league counts a deadline loss."""
    _require_moderator(svc, inv)
    opts = read_options(svc, inv)
    game = await svc.games.require(inv.channel_id)
    side = replies.side_named(game.system, str(opts["side"]))
    if len(game.system.sides) != 2 or game.system.result(game.state) is not None:
        raise RuleError("A forfeit is for a two-sided game still in play; end this one with /game end.")
    pace = await current_pace(svc, game.row.id)
    deadline = pace.deadline_at if pace is not None and same_part(pace.part_key, game) else None
    if deadline is None:
        raise RuleError("This turn-part has no deadline (/game pace sets one); a forfeit is only for a"
                        " deadline passed.")
    if deadline > svc.clock.now():
        raise RuleError(f"The deadline has not passed yet: {discord_time(deadline)}.")
    if side not in game.system.waiting_on(game.state):
        raise RuleError(f"The game is not waiting on {game.system.side_name(side)}; only the side the"
                        " passed deadline waits on can lose on it.")
    winner = next(s for s in game.system.sides if s != side)
    reason = replies.user_text(opts["reason"])
    result = (f"{game.system.side_name(side)} lose on the deadline ({reason}); "
              f"{game.system.side_name(winner)} win")
    return await finish(svc, inv, game, result, end_audit(inv, game, "forfeit", side, reason))


#: ``/mod``: moderator tools, in the order Discord shows them.
MOD = CommandSet("mod", "Moderator tools: rollback, reroll, seats", [
    cmd_rollback, cmd_reroll, cmd_rules_adopt, cmd_seat, cmd_extend, cmd_kick, cmd_look,
    scenarios.cmd_mod_scenario, cmd_forfeit,
])

__all__ = ["MOD"]
