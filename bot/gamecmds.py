"""``/game …``: start, join, follow, export and end the game of a channel."""

from __future__ import annotations

import asyncio
import gzip
import json
from typing import Any

from bot import replies
from bot.models import Attachment, Invocation, Reply, ReplyField
from bot.service import LiveGame, Service, new_seed
from bot.store import GameRow, StepRow
from rules.core import registry
from rules.core.contract import MAX_OPTION_LENGTH, MAX_TEXT_LENGTH, OptionSpec
from rules.core.errors import RuleError
from rules.core.views import change_lines

EXPORT_FORMAT = "referee-log/1"
DEFAULT_LOG_LINES = 10


def read_options(svc: Service, inv: Invocation) -> dict[str, Any]:
    """Check and convert the options of a /game or /mod command against its spec."""
    group, name = inv.command
    spec = next(g for g in svc.groups if g.name == group).command(name)
    assert spec is not None
    known = {o.name: o for o in spec.options}
    for key in inv.options:
        if key not in known:
            allowed = ", ".join(known) or "no options"
            raise RuleError(f"/{group} {name} has no option '{str(key)[:40]}'; it takes: {allowed}.")
    out: dict[str, Any] = {}
    for option in spec.options:
        value = inv.options.get(option.name)
        if value is None or value == "":
            if option.required:
                raise RuleError(f"/{group} {name} needs {option.name}: ({option.description}).")
            continue
        out[option.name] = _convert(option, value)
    return out


def _convert(option: OptionSpec, value: Any) -> Any:
    if option.kind == "user":
        return value
    if option.kind == "int":
        try:
            number = int(str(value).strip())
        except ValueError:
            raise RuleError(f"{option.name} must be a whole number, not '{str(value)[:40]}'.") from None
        if option.minimum is not None and number < option.minimum:
            raise RuleError(f"{option.name} must be at least {option.minimum}.")
        if option.maximum is not None and number > option.maximum:
            raise RuleError(f"{option.name} must be at most {option.maximum}.")
        return number
    text = str(value).strip()
    limit = MAX_TEXT_LENGTH if option.kind == "text" else MAX_OPTION_LENGTH
    if len(text) > limit:
        raise RuleError(f"{option.name} is {len(text)} characters long; at most {limit} are accepted.")
    if option.kind == "enum" and text not in option.choices:
        raise RuleError(f"{option.name} must be one of {', '.join(option.choices)}, not '{text[:40]}'.")
    return text


def status_reply(svc: Service, game: LiveGame, *, public: bool = False) -> Reply:
    """Turn, phase, seats, who acts and what they can do."""
    system = game.system
    lines = [f"**{system.title}** — {game.row.scenario} (step #{game.row.head_seq})"]
    lines += system.status(game.state)
    seats = ", ".join(replies.seat_name(s, game.seats) for s in system.sides)
    fields = [
        ReplyField(name="Seats", value=seats),
        ReplyField(name="Dice", value=f"seed hash {game.row.seed_hash[:16]}… (/game end reveals)"),
    ]
    return Reply(text="\n".join(lines), fields=fields, ephemeral=not public)


async def cmd_new(svc: Service, inv: Invocation) -> Reply:
    """``/game new system: [scenario:] [options:]``."""
    opts = read_options(svc, inv)
    existing = await svc.live_game(inv.channel_id)
    if existing is not None:
        raise RuleError(
            f"This channel already has a {existing.system.title} game; a moderator or its "
            "players end it with /game end, or start another in a thread."
        )
    system = registry.get(opts["system"])
    scenario = opts.get("scenario") or system.scenarios[0]
    if scenario not in system.scenarios:
        raise RuleError(
            f"{system.title} has no scenario '{scenario[:40]}'; scenarios: {', '.join(system.scenarios)}."
        )
    game_options = system.parse_options(opts.get("options")).model_dump(mode="json", exclude_defaults=True)
    seed, digest = new_seed()
    draft = GameRow(
        id=0, channel_id=inv.channel_id, guild_id=inv.guild_id, system=system.key,
        scenario=scenario, options=game_options, status="active", seed=seed, seed_hash=digest,
        dice_counter=0, head_seq=0, state_json="{}", last_mention=None,
        created_by=inv.user_id, created_at="",
    )
    dice = svc.dice_for(draft)
    step = system.setup(scenario, game_options, dice)
    state_json = step.state.model_dump_json()
    async with svc.store.transaction() as db:
        game_id = await db.create_game(
            channel_id=inv.channel_id, guild_id=inv.guild_id, system=system.key,
            scenario=scenario, options=game_options, seed=seed, seed_hash=digest,
            state_json=state_json, created_by=inv.user_id,
        )
        db.insert_step(
            StepRow(
                game_id=game_id, seq=0, parent_seq=None, kind="setup", actor_id=inv.user_id,
                actor_name=inv.user_name, dice=dice.rolls, events=step.events,
                state_json=state_json, reveals=step.reveals, snapshot=True,
                turn_part=step.turn_part,
            )
        )
        db.set_head(game_id, 0, state_json, dice_counter=svc.dice_counter_after(draft, dice))
        sides = ", ".join(system.sides)
        seating = f"Sides: {sides}. Take one with /game join side:…"
        if len(system.sides) == 1:
            # A solitaire game has one player: whoever starts it (issue 12, point 14).
            db.set_seat(game_id, system.sides[0], inv.user_id, inv.user_name)
            db.set_last_mention(game_id, svc.mention_key(step.waiting_on, step.turn_part))
            seating = f"🪑 @{inv.user_name} takes {system.sides[0]} (solitaire)."
        lines = [
            f"🎲 New game: **{system.title}** — {scenario}",
            f"Dice seed hash: `{digest}` (the seed is revealed at /game end).",
            seating,
            *replies.event_lines(step.events),
        ]
        reply = Reply(text="\n".join(lines), snapshot_key=f"{game_id}:0")
        if inv.interaction_id:
            db.remember_reply(inv.interaction_id, game_id, reply.model_dump_json())
    if svc.dice_source is not None:
        svc.dice_source.commit(dice)
    await svc.reload(inv.channel_id)
    return reply


async def cmd_join(svc: Service, inv: Invocation) -> Reply:
    """``/game join side:``: take a free side (one user may hold every side: hot-seat)."""
    opts = read_options(svc, inv)
    game = await svc.require_game(inv.channel_id)
    side = opts["side"].lower()
    if side not in game.system.sides:
        raise RuleError(f"{game.system.title} has no side '{side[:40]}'; sides: {', '.join(game.system.sides)}.")
    holder = game.holder(side)
    if holder is not None:
        if holder.user_id == inv.user_id:
            raise RuleError(f"You already hold {side}.")
        raise RuleError(f"{side} is held by @{holder.user_name}; a moderator can reseat it with /mod seat.")
    waiting = game.system.waiting_on(game.state)
    part = game.system.turn_part(game.state)
    async with svc.store.transaction() as db:
        db.set_seat(game.row.id, side, inv.user_id, inv.user_name)
        if side in waiting:
            # The new player is pinged now, so the next step of this turn-part is not.
            db.set_last_mention(game.row.id, svc.mention_key(waiting, part))
    game = await svc.reload(inv.channel_id)
    assert game is not None
    lines = [f"🪑 @{inv.user_name} takes {side}."]
    mentions = []
    if side in waiting:
        lines.append(f"➡️ {part}: your move, @{inv.user_name}.")
        mentions = [inv.user_id]
    free = [s for s in game.system.sides if game.holder(s) is None]
    if free:
        lines.append(f"Still free: {', '.join(free)}.")
    return await svc.remember(inv, game.row.id, Reply(text="\n".join(lines), mentions=mentions))


async def cmd_leave(svc: Service, inv: Invocation) -> Reply:
    """``/game leave``: give up every seat you hold."""
    read_options(svc, inv)
    game = await svc.require_game(inv.channel_id)
    sides = game.sides_of(inv.user_id)
    if not sides:
        raise RuleError("You hold no seat in this game.")
    async with svc.store.transaction() as db:
        db.remove_seats(game.row.id, inv.user_id)
    await svc.reload(inv.channel_id)
    text = f"🚪 @{inv.user_name} leaves {', '.join(sides)}; anyone may /game join side:{sides[0]}."
    return await svc.remember(inv, game.row.id, Reply(text=text))


async def cmd_status(svc: Service, inv: Invocation) -> Reply:
    """``/game status``."""
    read_options(svc, inv)
    game = await svc.require_game(inv.channel_id)
    reply = status_reply(svc, game)
    step = await svc.store.step(game.row.id, game.row.head_seq)
    sides = game.sides_of(inv.user_id)
    changes = await svc.changes_since(game.row.system, step, sides[0]) if step and sides else []
    if changes:
        words = "\n".join(change_lines(changes))
        reply = reply.model_copy(update={"text": f"{reply.text}\nSince your last order:\n{words}"})
    return reply


async def cmd_map(svc: Service, inv: Invocation) -> Reply:
    """``/game map [post:]``: the snapshot of the current state (cached by state hash).

    A spectator sees it alone unless they ask to post it; a seated player's map is posted
    (it is what the table looks at).
    """
    opts = read_options(svc, inv)
    game = await svc.require_game(inv.channel_id)
    part = game.system.turn_part(game.state)
    public = bool(opts.get("post")) or bool(game.sides_of(inv.user_id))
    return Reply(text=f"🗺️ {part} (step #{game.row.head_seq})",
                 snapshot_key=f"{game.row.id}:{game.row.head_seq}:map", ephemeral=not public)


#: Room for a log page in one Discord message, its header and footer included.
LOG_ROOM = 1900


async def cmd_log(svc: Service, inv: Invocation) -> Reply:
    """``/game log [last:] [page:]``: numbered steps, dice and rules; reverted ones struck
    through.  It says which steps it shows, of how many, and how to see more."""
    opts = read_options(svc, inv)
    game = await svc.require_game(inv.channel_id)
    per_page = opts.get("last", DEFAULT_LOG_LINES)
    page = opts.get("page", 1)
    total = await svc.store.last_seq(game.row.id) + 1
    pages = -(-total // per_page)
    if page > pages:
        raise RuleError(f"The log has {pages} page(s) of {per_page} steps; ask for page:1 to {pages}.")
    steps = await svc.store.steps(game.row.id, last=per_page, skip=(page - 1) * per_page)
    lines = [replies.log_line(s) for s in steps]
    # Discord takes 2,000 characters a message: keep the newest lines that fit.
    while len("\n".join(lines)) > LOG_ROOM - 200 and len(lines) > 1:
        lines.pop(0)
    shown = steps[len(steps) - len(lines):]
    head = (f"📜 Steps #{shown[0].seq}–#{shown[-1].seq} of {total} "
            f"({len(lines)} lines, page {page} of {pages}):")
    foot = []
    if len(lines) < len(steps):
        foot.append(f"({len(steps) - len(lines)} older steps of this page did not fit; "
                    f"ask for fewer, e.g. last:{max(1, len(lines))}.)")
    if page < pages:
        foot.append(f"Older: /game log page:{page + 1}" + (f" last:{per_page}" if "last" in opts else "")
                    + " · everything: /game export")
    else:
        foot.append("This is the start of the game · everything: /game export")
    return replies.info("\n".join([head, *lines, *foot]))


async def export_document(svc: Service, game_id: int) -> dict[str, Any]:
    """The whole log of a game as a replayable JSON document (format ``referee-log/1``)."""
    game = await svc.store.game(game_id)
    steps = await svc.store.steps(game_id)
    audit = await svc.store.audit(game_id)
    return {
        "format": EXPORT_FORMAT,
        "system": game.system,
        "scenario": game.scenario,
        "options": game.options,
        "seed_hash": game.seed_hash,
        # The seed stays secret while the game runs (provable dice).
        "seed": game.seed.hex() if game.status == "ended" else None,
        "head_seq": game.head_seq,
        "steps": [
            {
                "seq": s.seq, "parent_seq": s.parent_seq, "kind": s.kind, "actor": s.actor_name,
                "side": s.side, "action": s.action,
                "dice": [r.model_dump() for r in s.dice],
                "events": [e.model_dump(mode="json") for e in s.events],
                "reverted_by": s.reverted_by, "rerolls": s.rerolls, "created_at": s.created_at,
                # The stored JSON text, spliced in by encode_export (parsing and re-encoding
                # every state was most of the time /game end took).
                "state": RawJSON(s.state_json),
            }
            for s in steps
        ],
        "audit": [a.model_dump() for a in audit],
    }


class RawJSON(str):
    """JSON text already encoded (a step's stored state), written into an export as is."""


def encode_export(document: dict[str, Any]) -> bytes:
    """The export as UTF-8 JSON, one step (and one audit entry) per line.

    Why not ``indent=``: it makes ``json`` fall back to its pure-Python encoder, which took
    ~100 ms of the event loop for a 20-step game and stalled every other channel meanwhile.
    One line per step is still readable in a pager and diffable.
    """
    def dump(value: Any) -> str:
        raw = {k: v for k, v in value.items() if isinstance(v, RawJSON)} if isinstance(value, dict) else {}
        if not raw:
            return json.dumps(value, ensure_ascii=False)
        text = json.dumps({k: v for k, v in value.items() if k not in raw}, ensure_ascii=False)
        spliced = "".join(f", {json.dumps(k)}: {v}" for k, v in raw.items())
        return (text[:-1] + spliced + "}") if text != "{}" else "{" + spliced[2:] + "}"

    head = {k: v for k, v in document.items() if k not in ("steps", "audit")}
    parts = [dump(head)[:-1] + ","]
    for key in ("steps", "audit"):
        items = ",\n".join(dump(item) for item in document[key])
        parts.append(f"{dump(key)}: [\n{items}\n]" + ("," if key == "steps" else ""))
    return ("\n".join(parts) + "}\n").encode()


def gzip_export(document: dict[str, Any]) -> bytes:
    """The export encoded and gzipped (a long log shrinks ~48x); fixed mtime, same bytes."""
    return gzip.compress(encode_export(document), compresslevel=6, mtime=0)


def export_name(game: GameRow, *, final: bool = False) -> str:
    """``rr-game12.json.gz`` (``-final`` once ended)."""
    return f"{game.system}-game{game.id}{'-final' if final else ''}.json.gz"


async def exportable_game(svc: Service, channel_id: str, game_id: int | None) -> GameRow:
    """The game ``/game export`` means: a numbered game of this channel, else the active
    one, else the one that ended last (it stays exportable after ``/game end``)."""
    if game_id is not None:
        try:
            row = await svc.store.game(game_id)
        except KeyError:
            row = None
        if row is None or row.channel_id != channel_id:
            raise RuleError(f"There is no game #{game_id} in this channel; its games' numbers "
                            "are in their export file names.")
        return row
    live = await svc.live_game(channel_id)
    if live is not None:
        return live.row
    ended = await svc.store.last_ended_game(channel_id)
    if ended is None:
        raise RuleError("There is no game in this channel to export; start one with /game new.")
    return ended


async def cmd_export(svc: Service, inv: Invocation) -> Reply:
    """``/game export [game:]``: the log as a gzipped JSON file that ``referee replay`` and
    ``tools/verify_dice.py`` read.  An ended game's file holds its seed."""
    opts = read_options(svc, inv)
    row = await exportable_game(svc, inv.channel_id, opts.get("game"))
    document = await export_document(svc, row.id)
    data = await asyncio.to_thread(gzip_export, document)
    name = export_name(row, final=row.status == "ended")
    return Reply(
        text=f"📄 The whole log of game #{row.id} ({len(document['steps'])} steps). "
             f"Check it with `referee replay {name}`.",
        attachments=[Attachment(filename=name, data=data, description="game log")],
        ephemeral=True,
    )


async def cmd_end(svc: Service, inv: Invocation) -> Reply:
    """``/game end``: end the game and reveal the dice seed.

    Moderators may always end a game; players may when it is over, or when they hold every
    seat (a solitaire or hot-seat game).  The reply kept for a repeated delivery holds the
    text only: the file is rebuilt by ``/game export``, which works on the ended game.
    """
    read_options(svc, inv)
    game = await svc.require_game(inv.channel_id)
    sides = set(game.sides_of(inv.user_id))
    over = game.system.result(game.state) is not None
    if not (inv.is_moderator or (sides and over) or sides == set(game.system.sides)):
        raise RuleError(
            "Only a moderator can end a game still in progress (players may once it is over)."
        )
    document = await export_document(svc, game.row.id)
    async with svc.store.transaction() as db:
        db.end_game(game.row.id)
        await db.add_audit(game.row.id, inv.user_id, inv.user_name, "end", "", {})
    svc.forget(inv.channel_id)
    document["seed"] = game.row.seed.hex()
    result = game.system.result(game.state) or "ended before its last turn"
    name = export_name(game.row, final=True)
    text = "\n".join([
        f"🏁 Game over: {result}.",
        f"Dice seed: `{game.row.seed.hex()}`",
        f"Its hash `{game.row.seed_hash[:16]}…` was posted at the start.",
        f"The final log is {name} (again any time: /game export).",
        f"Anyone can recompute every roll: python tools/verify_dice.py {name}",
    ])
    reply = await svc.remember(inv, game.row.id, Reply(text=text))
    data = await asyncio.to_thread(gzip_export, document)
    return reply.model_copy(update={
        "attachments": [Attachment(filename=name, data=data, description="final log")]
    })


async def cmd_help(svc: Service, inv: Invocation) -> Reply:
    """``/game help [order:]``: generated from the action models."""
    opts = read_options(svc, inv)
    game = await svc.live_game(inv.channel_id)
    systems = [game.system] if game else [svc.systems[k] for k in sorted(svc.systems)]
    order = opts.get("order")
    if order:
        for system in systems:
            if any(a.name == order for a in system.actions):
                return replies.info(replies.help_text(system, order))
        raise RuleError(f"There is no order '{order[:40]}'; /game help lists them.")
    intro = "/game new · join · status · map · log · undo · export · end"
    return replies.info("\n\n".join([intro] + [replies.help_text(s, None) for s in systems]))


async def cmd_undo(svc: Service, inv: Invocation) -> Reply:
    """``/game undo``: take back your own last step while it revealed nothing new.

    Undo is refused once dice were rolled, a card drawn or anything hidden shown, or once
    anyone else acted since: it must never become a free reroll.
    """
    read_options(svc, inv)
    game = await svc.require_game(inv.channel_id)
    head = await svc.store.step(game.row.id, game.row.head_seq)
    assert head is not None
    if head.kind == "setup" or head.actor_id != inv.user_id:
        who = head.actor_name or "the referee"
        raise RuleError(f"The last step (#{head.seq}) is {who}'s; you can undo only your own last step.")
    if head.dice:
        raise RuleError(f"Step #{head.seq} rolled dice; a rolled step cannot be undone (a moderator can /mod reroll).")
    if head.reveals:
        raise RuleError(f"Step #{head.seq} revealed new information; it cannot be undone.")
    parent = await svc.store.step(game.row.id, head.parent_seq or 0)
    assert parent is not None
    async with svc.store.transaction() as db:
        audit_id = await db.add_audit(game.row.id, inv.user_id, inv.user_name, "undo", "",
                                      {"seq": head.seq})
        db.revert_after(game.row.id, parent.seq, audit_id)
        db.set_head(game.row.id, parent.seq, parent.state_json)
    game = await svc.reload(inv.channel_id)
    assert game is not None
    text = f"↩️ @{inv.user_name} took back #{head.seq} ({replies.step_action_text(head)})."
    reply = Reply(text=text + "\n" + f"➡️ {game.system.turn_part(game.state)}",
                  snapshot_key=f"{game.row.id}:{parent.seq}")
    return await svc.remember(inv, game.row.id, reply)


__all__ = ["EXPORT_FORMAT", "export_document", "read_options"]
