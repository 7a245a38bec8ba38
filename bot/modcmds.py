"""``/mod …``: rollback, reroll, seat and kick.  Every use is announced with its reason.

Nothing is ever deleted: rollback and reroll mark steps reverted (pointing at the audit row
that did it), so a rollback can itself be rolled forward, and both rolls of a reroll stay in
the record.
"""

from __future__ import annotations

from bot import replies
from bot.gamecmds import read_options
from bot.models import Invocation, Reply
from bot.service import LiveGame, Service, _Outcome, option_user
from bot.store import StepRow
from rules.core.errors import RuleError


def _require_moderator(svc: Service, inv: Invocation) -> None:
    if not inv.is_moderator:
        raise RuleError(
            f"Only moderators can use /mod {inv.command[1]} (Manage Channels, Manage Server or "
            f"the '{svc.settings.moderator_role}' role)."
        )


def _ancestors(lineage: dict[int, tuple[int | None, bool]], seq: int) -> list[int]:
    """``seq`` and every step it was applied on top of, newest first, as far back as
    ``lineage`` reaches (it may hold only the recent part of the log)."""
    chain = []
    current: int | None = seq
    while current is not None and current in lineage:
        chain.append(current)
        current = lineage[current][0]
    return chain


async def cmd_rollback(svc: Service, inv: Invocation) -> Reply:
    """``/mod rollback to: reason:``: move the game back to an earlier step, or forward again.

    Back: every later active step is marked reverted (kept).  Forward: the reverted steps
    between the current step and ``to`` become active again, if ``to`` was built on the
    current step (a branch abandoned by a new order must first be rolled back to).
    """
    _require_moderator(svc, inv)
    opts = read_options(svc, inv)
    game = await svc.require_game(inv.channel_id)
    target, head = opts["to"], game.row.head_seq
    step = await svc.store.step(game.row.id, target)
    if step is None:
        last = await svc.store.last_seq(game.row.id)
        raise RuleError(f"There is no step #{target}; this game has steps #0 to #{last}.")
    if target == head:
        raise RuleError(f"The game is already at step #{target}.")
    # Only the steps between the two are read: the walk never goes below the lower one.
    lineage = await svc.store.lineage(game.row.id, since=min(target, head))
    back = _ancestors(lineage, head)
    forward = _ancestors(lineage, target)
    if target in back:
        direction, moved = "back", [s for s in back if s > target]
    elif head in forward:
        direction, moved = "forward", [s for s in forward if s > head]
    else:
        everything = await svc.store.lineage(game.row.id)
        common = max(set(_ancestors(everything, head)) & set(_ancestors(everything, target)), default=0)
        raise RuleError(
            f"Step #{target} is on another branch; roll back to #{common} first, then forward to #{target}."
        )
    async with svc.store.transaction() as db:
        audit_id = await db.add_audit(
            game.row.id, inv.user_id, inv.user_name, "rollback", opts["reason"],
            {"from": head, "to": target, "direction": direction, "steps": sorted(moved)},
        )
        if direction == "back":
            db.revert_after(game.row.id, target, audit_id)
        else:
            db.unrevert(game.row.id, moved)
        db.set_head(game.row.id, target, step.state_json, last_mention="")
    game = await svc.reload(inv.channel_id)
    assert game is not None
    span = f"#{min(moved)}–#{max(moved)}" if len(moved) > 1 else f"#{moved[0]}"
    if direction == "back":
        detail = f"Steps {span} are kept, struck through; /mod rollback to:{head} restores them."
    else:
        detail = f"Steps {span} are active again."
    return await svc.remember(inv, game.row.id, _announce(svc, game, inv, [
        f"⏪ Moderator @{inv.user_name} rolled the game {direction} to step #{target}.",
        f"Reason: {opts['reason']}",
        detail,
    ], target))


async def cmd_reroll(svc: Service, inv: Invocation) -> Reply:
    """``/mod reroll reason:``: re-resolve the last step that rolled dice, with fresh dice.

    That step and the steps after it are reverted (kept); the step is applied again with
    new dice, then the later orders are re-applied in order while they remain legal.  Both
    rolls are posted and stay in the record.
    """
    _require_moderator(svc, inv)
    opts = read_options(svc, inv)
    game = await svc.require_game(inv.channel_id)
    old = await svc.store.last_dice_step(game.row.id)
    if old is None:
        raise RuleError("No step of this game has rolled dice yet; there is nothing to reroll.")
    later = await svc.store.active_steps_after(game.row.id, old.seq)
    outcome = await _re_resolve(svc, game, old)

    async def revert(db) -> None:
        audit_id = await db.add_audit(
            game.row.id, inv.user_id, inv.user_name, "reroll", opts["reason"],
            {"step": old.seq, "later": [s.seq for s in later]},
        )
        db.revert_after(game.row.id, old.seq - 1, audit_id)

    seq, _ = await svc.commit_step(
        game, outcome, inv=inv, kind="reroll", parent_seq=old.parent_seq, rerolls=old.seq,
        before=revert,
    )
    lines = [
        f"🎲 Moderator @{inv.user_name} rerolled step #{old.seq} ({replies.step_action_text(old)}).",
        f"Reason: {opts['reason']}",
        "Before (kept in the log):",
        *[f"~~{line}~~" for line in replies.event_lines(old.events)],
        f"Now (#{seq}):",
        *replies.event_lines(outcome.step.events),
    ]
    game = await svc.require_game(inv.channel_id)
    for step in later:
        try:
            again = await _re_resolve(svc, game, step, on_head=True)
        except RuleError as exc:
            lines.append(f"Step #{step.seq} ({replies.step_action_text(step)}) no longer applies: {exc}")
            break
        seq, _ = await svc.commit_step(
            game, again, inv=None, actor=(step.actor_id, step.actor_name)
        )
        game = await svc.require_game(inv.channel_id)
        lines.append(f"Re-applied #{step.seq} as #{seq}: {replies.step_action_text(step)}")
    return await svc.remember(inv, game.row.id, _announce(svc, game, inv, lines, seq))


async def _re_resolve(
    svc: Service, game: LiveGame, old: StepRow, *, on_head: bool = False
) -> _Outcome:
    """Apply ``old``'s order again with fresh dice: on the state it was first applied to,
    or (``on_head``, for the orders that followed a rerolled step) on the current state."""
    dice = svc.dice_for(game.row)
    if old.kind == "setup" or old.action is None:
        step = game.system.setup(game.row.scenario, game.row.options, dice)
        return _Outcome(step=step, dice=dice, action=None, side=None)
    assert old.side is not None
    if on_head:
        state = game.state
    else:
        parent = await svc.store.step(game.row.id, old.parent_seq or 0)
        assert parent is not None
        state = game.system.load_state(parent.state_json)
    action = game.system.parse(old.action["name"], old.action.get("options", {}))
    step = game.system.apply(state, old.side, action, dice)
    return _Outcome(step=step, dice=dice, action=action, side=old.side)


def _announce(svc: Service, game: LiveGame, inv: Invocation, lines: list[str], seq: int) -> Reply:
    waiting = game.system.waiting_on(game.state)
    mentions = [h.user_id for s in waiting if (h := game.holder(s)) is not None]
    lines = [*lines, f"➡️ {game.system.turn_part(game.state)}: "
             + ", ".join(replies.seat_name(s, game.seats) for s in waiting)]
    return Reply(text="\n".join(lines), mentions=list(dict.fromkeys(mentions)),
                 snapshot_key=f"{game.row.id}:{seq}")


async def cmd_seat(svc: Service, inv: Invocation) -> Reply:
    """``/mod seat side: user:``: put a substitute (or anyone) in a side's seat."""
    _require_moderator(svc, inv)
    opts = read_options(svc, inv)
    game = await svc.require_game(inv.channel_id)
    side = opts["side"].lower()
    if side not in game.system.sides:
        raise RuleError(f"{game.system.title} has no side '{side[:40]}'; sides: {', '.join(game.system.sides)}.")
    user = option_user(opts["user"])
    before = game.holder(side)
    async with svc.store.transaction() as db:
        await db.add_audit(game.row.id, inv.user_id, inv.user_name, "seat", "",
                           {"side": side, "user": user.id,
                            "replaced": before.user_id if before else None})
        db.set_seat(game.row.id, side, user.id, user.name)
    await svc.reload(inv.channel_id)
    was = f" (replacing @{before.user_name})" if before else ""
    text = f"🪑 Moderator @{inv.user_name} seats @{user.name} as {side}{was}."
    return await svc.remember(inv, game.row.id, Reply(text=text, mentions=[user.id]))


async def cmd_kick(svc: Service, inv: Invocation) -> Reply:
    """``/mod kick user: [reason:]``: free every seat a user holds in this game."""
    _require_moderator(svc, inv)
    opts = read_options(svc, inv)
    game = await svc.require_game(inv.channel_id)
    user = option_user(opts["user"])
    sides = game.sides_of(user.id)
    if not sides:
        raise RuleError(f"@{user.name} holds no seat in this game.")
    reason = opts.get("reason", "")
    async with svc.store.transaction() as db:
        await db.add_audit(game.row.id, inv.user_id, inv.user_name, "kick", reason,
                           {"user": user.id, "sides": sides})
        db.remove_seats(game.row.id, user.id)
    await svc.reload(inv.channel_id)
    because = f" Reason: {reason}" if reason else ""
    text = (f"🚪 Moderator @{inv.user_name} removed @{user.name} from {', '.join(sides)}.{because}"
            f" /game join side:{sides[0]} to take over.")
    return await svc.remember(inv, game.row.id, Reply(text=text))
