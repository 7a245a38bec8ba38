"""``/<system> <order> …``: a player's order, checked, applied, committed, answered.

An order whose step holds a secret (a sealed order, or a line only its side may read,
issue 28) is answered privately, with that side's lines; the channel gets the public line
as an announcement owed by the same transaction, posted right after (``Reply.follows``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from pydantic import BaseModel

from bot import answers, record, replies, sealing
from bot.computer_ids import is_computer
from bot.standins import turn_of
from bot.models import Invocation, Reply
from bot.owed import OwedAnnouncements
from bot.pacing.digest import ping_lines
from bot.pipeline import Change, Committed, LiveGame, Outcome, Pipeline, watching_side
from rules.core.contract import Action
from rules.core.errors import RuleError


async def cmd_order(svc: Pipeline, inv: Invocation) -> Reply:
    """One order: the side it is for, the rules' step, one commit, the reply."""
    group, name = inv.command
    if svc.systems.get(group) is None:
        raise RuleError(f"There is no command group /{group[:40]}.")
    action_type = svc.systems[group].action_type(name)
    if action_type.sealed and not inv.private:
        # Given where others read it (a console line without ``secret``): refused before
        # anything is resolved, so nothing is stored and nothing is said of its options.
        raise RuleError(f"Give this order privately: `secret /{group} {action_type.path()} …` "
                        "(on Discord the command answers only you); nothing was stored.")
    if action_type.read_only:
        return await _read_only(svc, inv, group, name)
    game = await _game_of(svc, inv, group)
    if inv.expect_head is not None and inv.expect_head != game.row.head_seq:
        # A pressed answer (issue 30), checked under the channel's lock: a second tap, or a
        # press on a question another order answered first, changes nothing.
        raise RuleError(
            f"That question was answered or the game moved on (it asked at step #{inv.expect_head}, "
            f"the game is at #{game.row.head_seq}); nothing was changed. Look at the latest message."
        )
    standin = await stood_in(svc, game, inv)
    side = standin or acting_side(game, inv, action_type)
    if action_type.anytime:
        _check_standing(svc, game, side)
    run = svc.dice_run(game.row)
    outcome = svc.resolve(game, side, name, inv.options, run.take())
    run.keep(outcome.dice)
    since = ping_lines(game, outcome.step, inv.user_id)
    # Plan, answer, write: the reply is built from what is about to be stored, the pacer's
    # rows are asked for that plan, and one transaction writes all three (issue 39).
    change = Change(steps=[outcome], parent_seq=game.row.head_seq, dice=run)
    back = standin is None and not is_computer(inv.user_id) and await svc.stand_ins.level(game.row.id, side)
    if back:  # the player is back: their order hands the side back (issue 43)
        change.extra.append(functools.partial(svc.stand_ins.write, game_id=game.row.id, side=side, level=None))
    plan = await svc.ledger.plan(game, change, inv=inv)
    answer = order_reply(svc, game, inv, outcome, since, plan.done, handed_back=bool(back))
    owed = [] if answer.announced is None else [functools.partial(
        OwedAnnouncements.insert, channel_id=inv.channel_id, reply=answer.announced)]
    landed = await svc.ledger.write(plan, answer.reply, owed, paced=await svc.ledger.pacing_for(plan))
    if answer.announced is not None:
        svc.announcements.owing(inv.channel_id)
    return landed.answer


@dataclass(frozen=True)
class OrderReply:
    """An order's answer: the reply to the giver and, for an order whose step holds a
    secret, the public announcement the channel is owed by the same commit."""

    reply: Reply
    announced: Reply | None = None


def order_reply(svc: Pipeline, game: LiveGame, inv: Invocation, outcome: Outcome, since: list[str],
                done: Committed, *, handed_back: bool = False) -> OrderReply:
    """The reply to an order about to be stored as ``done`` (built before the transaction,
    stored in it): its line, its events, who acts next; the "since your last order" lines
    for whoever it pings.  The computer's order reads "played by the computer for nato"
    (issue 43); ``handed_back``: a player's order that ended the computer's stand-in."""
    action, step, side = outcome.action, outcome.step, outcome.side or ""
    assert action is not None
    seq = done.seqs[0]
    who = f"🤖 played by the computer for {side}" if is_computer(inv.user_id) else f"{inv.user_name} ({side})"
    lines = [f"#{seq} {who}: {sealing.order_words(action)}"]
    if handed_back:
        lines.insert(0, f"🤝 @{inv.user_name} is back: the computer hands {side} back.")
    lines += sealing.public_lines(game.system, side, done.actions[0])
    lines += replies.event_lines(step.events)
    own = sealing.own_lines(step.events, [side])
    foot = [svc.next_line(game, step)]

    def public(mentions: list[str]) -> Reply:
        return Reply(text="\n".join(lines + (since if mentions else []) + foot), mentions=mentions,
                     snapshot_key=f"{game.row.id}:{seq}" if step.snapshot else None,
                     offer_key=f"{game.row.id}:{done.head_seq}")

    if not (action.sealed or own):
        return OrderReply(public(done.mentions))
    # Only the giver reads its own lines; the channel reads the public ones, owed by this
    # very commit and posted right after the private answer.  The giver has just been
    # answered, so the channel's copy pings only the others waited on.
    others = [user for user in done.mentions if user != inv.user_id]
    announced = record.anchored(public(others).model_copy(update={"follows": True}), done.chain_head,
                                done.chain_count, done.added, game.row.seed)
    return OrderReply(Reply(text="\n".join(lines + own + foot), ephemeral=True), announced)


async def _game_of(svc: Pipeline, inv: Invocation, group: str) -> LiveGame:
    game = await svc.games.require(inv.channel_id)
    if game.row.system != group:
        raise RuleError(
            f"This channel's game is {game.system.title}; its orders are /{game.row.system} …."
        )
    return game


async def _read_only(svc: Pipeline, inv: Invocation, group: str, name: str) -> Reply:
    """A read-only order (``/commando measure``): anyone may ask, seated or watching
    (issue 11); it is applied to the current state and nothing is stored."""
    game = await _game_of(svc, inv, group)
    sides = game.sides_of(inv.user_id)
    waiting = game.system.waiting_on(game.state)
    side = next((s for s in sides if s in waiting), sides[0] if sides else watching_side(game))
    outcome = svc.resolve(game, side, name, inv.options, svc.dice_run(game.row).take())
    return replies.info("\n".join(replies.event_lines(outcome.step.events)) or "Nothing to show.")


def _check_standing(svc: Pipeline, game: LiveGame, side: str) -> None:
    """Standing orders may be changed, not flooded: a few in a row per side (issue 14:
    10,000 of them made a 65 MB database)."""
    limit = svc.settings.standing_orders_in_a_row
    if not game.may_stand(side, limit):
        raise RuleError(
            f"{side} has given {limit} standing orders in a row; the last one stands. "
            "Give another once the game has moved on."
        )


def offer_after(game: LiveGame, state: BaseModel, seq: int) -> answers.Offer | None:
    """The answers to offer under a reply that leaves ``state`` at step ``seq`` (issue 30),
    from the state just computed, for the sides waited on whose seats a player holds: not
    the computer's (issue 43), whose answers no one could press (a press must come from the
    side's holder) and which it gives at once itself."""
    return answers.offer_to(game.system, state, game.row.id, seq,
                            [s for s in game.system.waiting_on(state) if game.player_of(s) is not None])


async def stood_in(svc: Pipeline, game: LiveGame, inv: Invocation) -> str | None:
    """The side the computer gives this order for as a stand-in (``then:ai``, issue 43), or
    None for any other order.  Only for a side waited on that a deadline left to it."""
    side = inv.as_side
    if not is_computer(inv.user_id) or side is None or side in game.sides_of(inv.user_id):
        return None
    turn = turn_of(game.system, game.state)
    if await svc.stand_ins.level(game.row.id, side, turn) is None or side not in game.system.waiting_on(game.state):
        raise RuleError(f"The computer does not play {side} now; its player does.")
    return side


def acting_side(game: LiveGame, inv: Invocation, action_type: type[Action]) -> str:
    """The side an order is given for: the user's seat that is waited on.

    A user holding several seats (hot-seat) acts for whichever is waited on.  Out of turn,
    only ``anytime`` orders pass; the rest get a sentence naming who must act.
    """
    result = game.system.result(game.state)
    if result is not None:
        raise RuleError(f"The game is over ({result}). Reveal the dice with /game end.")
    sides = game.sides_of(inv.user_id)
    if inv.as_side is not None and inv.as_side in sides:
        # A pressed answer is given for the side it was asked of (a hot-seat player holds two).
        sides = [inv.as_side]
    if not sides:
        free = [s for s in game.system.sides if game.holder(s) is None]
        hint = f"take a free side with /game join (free: {', '.join(free)})" if free else "every side is taken"
        raise RuleError(f"You are not seated in this game; {hint}. Anyone may watch.")
    waiting = game.system.waiting_on(game.state)
    for side in sides:
        if side in waiting:
            return side
    if action_type.anytime:
        return sides[0]
    who = ", ".join(replies.seat_name(s, game.seats) for s in waiting) or "nobody"
    part = game.system.turn_part(game.state)
    raise RuleError(
        f"It is not your turn ({', '.join(sides)}): {part} waits on {who}."
    )
