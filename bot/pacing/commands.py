"""``/game pace``, ``/game deadline``, ``/game away``, ``/game sub``, ``/game accept``,
``/game digest`` and ``/mod extend`` (issue 19).

A pace or a deadline is set by a moderator, or by the players when every seated player
has asked for the same (agreement of all seats): until then each request is a vote, and
the channel is told who still has to agree.  Each command is one transaction
(``Ledger.commit`` with the pacing rows in ``Change.extra``); a moderator's setting and
``/mod extend`` are audited like every moderator act.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

from bot import replies
from bot.models import Invocation, Reply
from bot.computer_ids import is_computer
from bot.declare import Member, Pick, Side, Text, Whole, command
from bot.moderation import require_moderator
from bot.pacing import store as pstore
from bot.pacing.clock import parse_iso
from bot.pacing.digest import digest_lines, parse_since, span_words
from bot.pacing.runner import deadline_line, part_key_of, same_part, write_plan
from bot.pacing.store import Pace, SubOffer
from bot.pacing.times import discord_time, hours_text, parse_reminders, parse_time
from bot.pipeline import Audit, Change, LiveGame, Pipeline, SeatChange, option_user
from bot.seats import check_seat
from rules.core.errors import RuleError


async def current_pace(svc: Pipeline, game_id: int) -> Pace | None:
    """A game's pace as stored."""
    async with svc.store.transaction() as db:
        return await pstore.pace_of(db, game_id)


def _seated(game: LiveGame, inv: Invocation) -> None:
    if not inv.is_moderator and not game.sides_of(inv.user_id):
        raise RuleError("Only the game's players (all of them agreeing) or a moderator can "
                        "set its pace and deadlines.")


async def _agreed(svc: Pipeline, game: LiveGame, inv: Invocation, setting: str,
                  value: dict[str, Any]) -> list[str]:
    """Record the invoker's vote; the players who have not asked for the same yet (empty:
    every seat agrees).  A moderator needs nobody's agreement."""
    if inv.is_moderator:
        return []
    text = json.dumps(value, sort_keys=True)
    now = svc.clock.now()
    async with svc.store.transaction() as db:
        pstore.propose(db, game.row.id, setting, inv.user_id, text, now)
        votes = await pstore.proposals(db, game.row.id, setting)
    holders = {s.user_id: s.user_name for s in game.seats if not is_computer(s.user_id)}  # it has no vote
    return [name for uid, name in holders.items() if votes.get(uid) != text]


def _vote_reply(inv: Invocation, what: str, missing: list[str], again: str) -> Reply:
    who = ", ".join(f"@{name}" for name in missing)
    return Reply(text=f"🗳️ @{inv.user_name} asks for {what}.\n"
                      f"It takes effect when {who} agree{'s' if len(missing) == 1 else ''}"
                      f" ({again}).")


def _pace_words(pace: Pace) -> list[str]:
    points = [("half-way" if p == "half" else f"{p} before") for p in pace.reminders]
    lines = [f"⏱️ Pace: {hours_text(pace.hours)} a turn-part." if pace.hours
             else "⏱️ No pace: only deadlines set with /game deadline."]
    lines.append("Reminders: " + (", ".join(points) if points else "none") + ".")
    lines.append("When a deadline passes: " + {
        "pass": "the referee gives the silent side's 'no action' order (a pass).",
        "ai": "the computer plays the silent side's turn, unless its player gives an order first.",
    }.get(pace.on_deadline, "the channel is told; nothing else happens."))
    return lines


@command("pace", "Time each turn-part may take (all players agree, or a moderator)",
         Whole("hours", "Hours a turn-part (0: no pace)", minimum=0, maximum=720),
         Pick("then", "When a deadline passes: nothing, pass for the side, or the computer plays it",
              ["nothing", "pass", "ai"], required=False),
         Text("remind", "When to remind, e.g. half,1h (or none)", required=False))
async def cmd_pace(svc: Pipeline, inv: Invocation) -> Reply:
    """``/game pace hours: [then:] [remind:]``: how long each turn-part may take (0: no
    pace), what happens when a deadline passes, and when the player is reminded."""
    opts = dict(inv.options)
    game = await svc.games.require(inv.channel_id)
    _seated(game, inv)
    old = await current_pace(svc, game.row.id) or Pace(game_id=game.row.id)
    hours = opts["hours"]
    reminders = parse_reminders(opts["remind"]) if "remind" in opts else old.reminders
    then = opts.get("then", old.on_deadline)
    value = {"hours": hours, "then": then, "remind": reminders}
    missing = await _agreed(svc, game, inv, "pace", value)
    if missing:
        again = f"/game pace hours:{hours} then:{then} remind:{','.join(reminders) or 'none'}"
        return await svc.ledger.remember(inv, game.row.id,
                                  _vote_reply(inv, f"a pace of {hours_text(hours)}" if hours else "no pace",
                                              missing, again))
    now = svc.clock.now()
    waiting = game.system.waiting_on(game.state)
    live = bool(waiting) and game.system.result(game.state) is None
    deadline = now.replace(microsecond=0) + timedelta(hours=hours) if hours and live else (
        None if hours else old.deadline_at)
    pace = old.model_copy(update={
        "hours": float(hours) if hours else None, "on_deadline": then, "reminders": reminders,
        "part_key": f"{game.row.head_seq}|{part_key_of(game)}",
        "part_started": now if hours or not same_part(old.part_key, game) else old.part_started,
        "deadline_at": deadline,
    })
    # A line of its own, so it says what it sets ("Moderator @mo sets" stood alone).
    by = f"Moderator @{inv.user_name} sets the pace:" if inv.is_moderator else "Every player agreed:"
    lines = [by, *_pace_words(pace)]
    if line := deadline_line(pace):
        lines.append(line)
    return await _settle(svc, game, inv, "pace", value, pace, lines)


async def _settle(svc: Pipeline, game: LiveGame, inv: Invocation, setting: str,
                  value: dict[str, Any], pace: Pace, lines: list[str]) -> Reply:
    """Store an agreed (or a moderator's) pace or deadline with its reminders, spend the
    votes, audit a moderator's act: one transaction."""
    audit = Audit(inv.user_id, inv.user_name, setting, "", value) if inv.is_moderator else None

    def clear(db: Any) -> None:
        pstore.clear_proposals(db, game.row.id, setting)
        if setting == "pace":
            pstore.save_then(db, game.row.id, pace.on_deadline)

    reply = Reply(text="\n".join(lines))
    change = Change(audit=audit, extra=[write_plan(pace, game, svc.clock.now()), clear])
    return await svc.ledger.commit(game, change, inv=inv, reply_for=lambda _: reply) or reply


@command("deadline", "A fixed deadline for the turn-part in play",
         Text("at", "UTC date and time, e.g. 2026-11-30 18:00, or 36h"))
async def cmd_deadline(svc: Pipeline, inv: Invocation) -> Reply:
    """``/game deadline at:``: a fixed deadline for the turn-part in play now."""
    opts = dict(inv.options)
    game = await svc.games.require(inv.channel_id)
    _seated(game, inv)
    if not game.system.waiting_on(game.state) or game.system.result(game.state):
        raise RuleError("The game is over; there is nothing to set a deadline for.")
    now = svc.clock.now()
    moment = parse_time(opts["at"], now).replace(microsecond=0)
    value = {"at": int(moment.timestamp())}
    missing = await _agreed(svc, game, inv, "deadline", value)
    if missing:
        again = f"/game deadline at:<t:{int(moment.timestamp())}>"
        return await svc.ledger.remember(inv, game.row.id,
                                  _vote_reply(inv, f"the deadline {discord_time(moment)}",
                                              missing, again))
    old = await current_pace(svc, game.row.id) or Pace(game_id=game.row.id)
    same = same_part(old.part_key, game)
    pace = old.model_copy(update={
        "part_key": old.part_key if same else f"{game.row.head_seq}|{part_key_of(game)}",
        "part_started": old.part_started if same and old.part_started else now,
        "deadline_at": moment,
    })
    part = game.system.turn_part(game.state)
    by = f"Moderator @{inv.user_name} sets" if inv.is_moderator else "Every player agreed on"
    lines = [f"{by} a deadline for {part}:", f"⏰ {discord_time(moment)}"]
    return await _settle(svc, game, inv, "deadline", value, pace, lines)


@command("extend", "Move this turn-part's deadline later",
         Whole("hours", "Hours to add", minimum=1, maximum=720),
         Text("reason", "Why (announced in the channel)"), moderator_only=True)
async def cmd_extend(svc: Pipeline, inv: Invocation) -> Reply:
    """``/mod extend hours: reason:``: move the deadline of the turn-part in play later."""
    require_moderator(inv, svc.settings.moderator_role, "extend")
    opts = dict(inv.options)
    game = await svc.games.require(inv.channel_id)
    pace = await current_pace(svc, game.row.id)
    if pace is None or pace.deadline_at is None or not same_part(pace.part_key, game):
        raise RuleError("This turn-part has no deadline to extend; set one with /game deadline "
                        "at: or a pace with /game pace hours:.")
    now = svc.clock.now()
    hours = opts["hours"]
    moment = max(pace.deadline_at, now.replace(microsecond=0)) + timedelta(hours=hours)
    new = pace.model_copy(update={"deadline_at": moment})
    reason = replies.user_text(opts["reason"])  # issue 45: it reached the channel unescaped
    audit = Audit(inv.user_id, inv.user_name, "extend", reason,
                  {"hours": hours, "from": pace.deadline_at.isoformat(), "to": moment.isoformat()})
    lines = [f"⏳ Moderator @{inv.user_name} extends the deadline by {hours_text(hours)}.",
             f"Reason: {reason}", f"⏰ Deadline: {discord_time(moment)}"]
    reply = Reply(text="\n".join(lines))
    return await svc.ledger.commit(game, Change(audit=audit, extra=[write_plan(new, game, now)]), inv=inv,
                            reply_for=lambda _: reply) or reply


@command("away", "Pause your reminders until a time (until:back ends it)",
         Text("until", "UTC date and time, or a span such as 3d, or back"))
async def cmd_away(svc: Pipeline, inv: Invocation) -> Reply:
    """``/game away until:``: no reminders reach you until then (``until:back`` ends it)."""
    opts = dict(inv.options)
    game = await svc.games.require(inv.channel_id)
    sides = game.sides_of(inv.user_id)
    if not sides:
        raise RuleError("You hold no seat in this game, so there is nothing to be away from.")
    now = svc.clock.now()
    if opts["until"].strip().lower() in ("back", "now", "none"):
        def back(db: Any) -> None:
            pstore.clear_away(db, game.row.id, inv.user_id)
        reply = Reply(text=f"👋 @{inv.user_name} is back; reminders reach them again.")
        return await svc.ledger.commit(game, Change(extra=[back]), inv=inv, reply_for=lambda _: reply) or reply
    until = parse_time(opts["until"], now, what="until").replace(microsecond=0)

    def away(db: Any) -> None:
        pstore.set_away(db, game.row.id, inv.user_id, inv.user_name, until)

    text = (f"🏖️ @{inv.user_name} ({', '.join(sides)}) is away until {discord_time(until)}.\n"
            "Reminders to them pause. Deadlines stand: a moderator may /mod extend or "
            f"/mod seat a substitute, or @{inv.user_name} may offer the seat (/game sub).")
    reply = Reply(text=text)
    return await svc.ledger.commit(game, Change(extra=[away]), inv=inv, reply_for=lambda _: reply) or reply


@command("sub", "Offer your side to a substitute, who accepts",
         Member("user", "The substitute"), Side("side", "Your side (if you hold several)", required=False))
async def cmd_sub(svc: Pipeline, inv: Invocation) -> Reply:
    """``/game sub user: [side:]``: offer your side to a substitute, who takes it with
    ``/game accept``."""
    opts = dict(inv.options)
    game = await svc.games.require(inv.channel_id)
    sides = game.sides_of(inv.user_id)
    if not sides:
        raise RuleError("You hold no seat in this game; only a side's player can offer it.")
    side = str(opts.get("side") or "").lower() or None
    if side is None:
        if len(sides) > 1:
            raise RuleError(f"You hold {', '.join(sides)}; say which with side:.")
        side = sides[0]
    if side not in sides:
        raise RuleError(f"You do not hold '{side[:20]}'; you hold {', '.join(sides)}.")
    user = option_user(opts["user"])
    if user.id == inv.user_id:
        raise RuleError("Name someone else as your substitute.")
    check_seat(game, user.id, user.name, side, "offer")
    offer = SubOffer(to_user_id=user.id, to_user_name=user.name, side=side,
                     from_user_id=inv.user_id)
    now = svc.clock.now()

    def write(db: Any) -> None:
        pstore.offer_sub(db, game.row.id, offer, now)

    reply = Reply(text=f"🔁 @{inv.user_name} offers {side} to @{user.name} as a substitute.\n"
                       f"@{user.name}: take it with /game accept.", mentions=[user.id])
    return await svc.ledger.commit(game, Change(extra=[write]), inv=inv, reply_for=lambda _: reply) or reply


@command("accept", "Take the side a player offered you")
async def cmd_accept(svc: Pipeline, inv: Invocation) -> Reply:
    """``/game accept``: take the side a player offered you (``/game sub``)."""
    game = await svc.games.require(inv.channel_id)
    async with svc.store.transaction() as db:
        offer = await pstore.sub_offer(db, game.row.id, inv.user_id)
    if offer is None:
        raise RuleError("Nobody has offered you a seat in this game; a player offers one with "
                        "/game sub user:@you.")
    holder = game.holder(offer.side)
    if holder is None or holder.user_id != offer.from_user_id:
        raise RuleError(f"That offer lapsed: {offer.side} has changed hands since. Ask its "
                        "player to offer it again.")
    # Checked again now, not only at the offer: the substitute may have sat elsewhere since.
    check_seat(game, inv.user_id, inv.user_name, offer.side, "accept")
    seats = [SeatChange("unseat", holder.user_id, holder.user_name, offer.side),
             SeatChange("seat", inv.user_id, inv.user_name, offer.side)]
    audit = Audit(inv.user_id, inv.user_name, "sub", "",
                  {"side": offer.side, "from": holder.user_id, "to": inv.user_id})

    def clear(db: Any) -> None:
        pstore.clear_sub_offers(db, game.row.id, offer.side)

    lines = [f"🪑 @{inv.user_name} takes {offer.side} from @{holder.user_name} (substitute)."]
    mentions = [holder.user_id]
    if offer.side in game.system.waiting_on(game.state):
        lines.append(f"➡️ {game.system.turn_part(game.state)}: your move, @{inv.user_name}.")
    reply = Reply(text="\n".join(lines), mentions=mentions)
    return await svc.ledger.commit(game, Change(seats=seats, audit=audit, extra=[clear]), inv=inv,
                     reply_for=lambda _: reply) or reply


@command("digest", "What happened since a step or a time, with the map",
         Text("since", "A step (#40), a span back (24h) or a date"),
         cost="digest", may_render=True, cooldown=(2, 30.0))
async def cmd_digest(svc: Pipeline, inv: Invocation) -> Reply:
    """``/game digest since:``: the digest of the steps since a step number, a span back
    (``24h``) or a date, with the map now (only you see it)."""
    opts = dict(inv.options)
    game = await svc.games.require(inv.channel_id)
    kind, value = parse_since(opts["since"], svc.clock.now(), game.row.head_seq)
    steps = await svc.store.active_steps_after(game.row.id, -1)
    if kind == "step":
        assert isinstance(value, int)
        before = next((s for s in steps if s.seq == value), None)
        if before is None:
            raise RuleError(f"since: step #{value} was rolled back; give an active step number "
                            "(/game log).")
    else:
        assert isinstance(value, datetime)
        after = [s for s in steps if parse_iso(s.created_at) >= value]
        before = steps[0] if not after or after[0].parent_seq is None else \
            next((s for s in steps if s.seq == after[0].parent_seq), steps[0])
    span = [s for s in steps if s.seq > before.seq and s.seq <= game.row.head_seq]
    head = f"📰 Since #{before.seq}" + (f" ({span_words(span[0].seq, span[-1].seq)})" if span else ": nothing yet")
    lines = digest_lines(game.system, before, span, head)
    return Reply(text="\n".join(lines), snapshot_key=f"{game.row.id}:{game.row.head_seq}:map",
                 ephemeral=True)


async def status_lines(svc: Pipeline, game: LiveGame) -> list[str]:
    """The deadline (and who is away) for ``/game status``."""
    now = svc.clock.now()
    async with svc.store.transaction() as db:
        pace = await pstore.pace_of(db, game.row.id)
        away = await pstore.away_players(db, game.row.id, now)
    lines = []
    if pace is not None and pace.deadline_at is not None and same_part(pace.part_key, game):
        lines.append(deadline_line(pace) or "")
        if pace.hours:
            lines.append(f"Pace: {hours_text(pace.hours)} a turn-part.")
    lines += [f"🏖️ @{a.user_name} is away until {discord_time(a.until)}" for a in away]
    return lines


#: The pacing commands of ``/game`` (``/mod extend``, :func:`cmd_extend`, sits in ``/mod``).
GAME_PACING = (cmd_pace, cmd_deadline, cmd_away, cmd_sub, cmd_accept, cmd_digest)

__all__ = ["GAME_PACING", "cmd_extend", "current_pace", "status_lines"]
