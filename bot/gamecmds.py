"""``/game …``: start, join, follow, export and end the game of a channel."""

from __future__ import annotations

import asyncio
import gzip
import json
from collections.abc import Callable
from typing import Any

from bot import answers, chain, export_html, record, replaycmds, replies, scenarios, sealing, tutorial, versions
from bot.declare import CommandSet, File, Flag, OrderName, Pick, Scenario, Side, SystemPick, Text, Whole, command
from bot.games import is_standing
from bot.models import Attachment, Invocation, Reply, ReplyField
from bot.pacing.commands import GAME_PACING, status_lines
from bot.pipeline import (
    Audit, Change, Committed, LiveGame, Outcome, Pipeline, SeatChange, new_seed,
)
from bot.computer_ids import computer_id, computer_name
from bot.seats import check_seat
from bot.store import GameRow, StepRow
from bot.writer import Writer
from bot.owed import OwedAnnouncements
from rules.core import registry, scenariofile
from rules.core.computer import LEVELS
from rules.core.contract import GameSystem
from rules.core.errors import RuleError
from rules.core.views import change_lines

#: The export's format: ``referee-log/2`` (issue 45) adds the chain's scheme and record count.
EXPORT_FORMAT = "referee-log/2"
DEFAULT_LOG_LINES = 10


def read_options(svc: Pipeline, inv: Invocation) -> dict[str, Any]:
    """The options of a /game or /mod command, as the service checked and converted them
    (``bot/options.py``: the one parse path of every command)."""
    return dict(inv.options)


def status_reply(svc: Pipeline, game: LiveGame, *, public: bool = False) -> Reply:
    """Turn, phase, seats, who acts and what they can do."""
    system = game.system
    scenario = scenarios.scenario_label(game.row.scenario, game.row.scenario_text)
    lines = [f"**{system.title}** — {scenario} (step #{game.row.head_seq})"]
    lines += system.status(game.state)
    seats = ", ".join(replies.seat_name(s, game.seats) for s in system.sides)
    fields = [
        ReplyField(name="Seats", value=seats),
        ReplyField(name="Dice", value=f"seed hash {game.row.seed_hash[:16]}… (/game end reveals)"),
    ]
    return Reply(text="\n".join(lines), fields=fields, ephemeral=not public)


@command("new", "Start a game in this channel",
         SystemPick("system", "Game system"),
         Scenario("scenario", "Scenario: built-in or this server's (default: the first)", required=False),
         Text("options", "Game options, comma separated", required=False),
         File("scenario-file", "Your own scenario, .json or .yaml (docs/scenarios.md)", required=False),
         may_render=True)
async def cmd_new(svc: Pipeline, inv: Invocation) -> Reply:
    """``/game new system: [scenario:] [options:]``."""
    opts = read_options(svc, inv)
    system = registry.get(opts["system"])
    return await start_game(svc, inv, system, opts, new_seed())


async def start_game(svc: Pipeline, inv: Invocation, system: GameSystem[Any], opts: dict[str, Any],
                     seeded: tuple[bytes, str], *, every_seat: bool = False,
                     after: list[str] | None = None, seats: list[SeatChange] | None = None,
                     also: Callable[[Writer, int], None] | None = None) -> Reply:
    """Start ``system``'s game in the channel with the dice seed and its hash ``seeded``
    (``/game new``; ``/game tutorial`` gives a fixed one and ``every_seat``: the invoker
    holds every side); ``after``: lines added to the reply; ``seats``: who sits where from
    the start (a league's pairing), with ``also``'s writes (given the game's id) in the same
    transaction."""
    existing = await svc.games.load(inv.channel_id)
    if existing is not None:
        raise RuleError(
            f"This channel already has a {existing.system.title} game; a player may give it up "
            "with /game concede, a moderator end it with /game end, or start another in a thread."
        )
    cap = svc.settings.max_open_games
    if not inv.is_moderator and await svc.store.open_games_by(inv.user_id) >= cap:
        raise RuleError(
            f"You already started {cap} games that are still open (the most one player may); "
            "end one with /game end first."
        )
    chosen = await scenarios.chosen_scenario(svc, inv, system, opts)
    scenario = chosen.key
    game_options = system.parse_options(opts.get("options")).model_dump(mode="json", exclude_defaults=True)
    seed, digest = seeded
    draft = GameRow(
        id=0, channel_id=inv.channel_id, guild_id=inv.guild_id, system=system.key,
        scenario=scenario, options=game_options, status="active", seed=seed, seed_hash=digest,
        dice_counter=0, head_seq=0, state_json="{}", last_mention=None,
        created_by=inv.user_id, created_at="", scenario_text=chosen.text,
    )
    run = svc.dice_run(draft)
    dice = run.take()
    step = system.setup(scenario, game_options, dice)
    run.keep(dice)
    sides = ", ".join(system.sides)
    seating = f"Sides: {sides}. Take one with /game join side:…"
    if seats:
        seating = " ".join(f"🪑 @{s.user_name} takes {s.side}." for s in seats)
    else:
        seats = []
    if len(system.sides) == 1 or every_seat:
        # A solitaire game has one player: whoever starts it (issue 12, point 14).
        seats = [SeatChange("join", inv.user_id, inv.user_name, side) for side in system.sides]
        seating = f"🪑 @{inv.user_name} takes {', '.join(system.sides)}" + \
            (" (solitaire)." if len(system.sides) == 1 else " (every side).")

    def build(game_id: int) -> Reply:
        lines = [
            f"🎲 New game: **{system.title}** — {chosen.title}",
            f"Dice seed hash: `{digest}` (the seed is revealed at /game end).",
            *([scenarios.proof_line(chosen)] if chosen.text is not None else []),
            seating,
            *replies.event_lines(step.events),
            *(after or []),
        ]
        return Reply(text="\n".join(lines), snapshot_key=f"{game_id}:0")

    outcome = Outcome(step=step, dice=dice, action=None, side=None, kind="setup")
    return await svc.ledger.start(draft, outcome, run, inv=inv, reply_for=build, seats=seats, also=also)


@command("tutorial", "A guided first game: every side yours, each step explained",
         Pick("system", "Game system", tutorial.systems()), may_render=True)
async def cmd_tutorial(svc: Pipeline, inv: Invocation) -> Reply:
    """``/game tutorial system:``: a game of the system with fixed dice and every side held
    by the invoker, whose first replies explain what happened and what to type next
    (``bot/tutorial.py``; the lessons are added in ``Service.handle``)."""
    opts = read_options(svc, inv)
    system = registry.get(opts["system"])
    first = tutorial.lesson_for(system.key, tutorial.tutorial_seed(system.key)[0], 0)
    return await start_game(svc, inv, system, {}, tutorial.tutorial_seed(system.key),
                            every_seat=True, after=first.lines() if first else [])


@command("join", "Take a side in this channel's game", Side("side", "The side to play"),
         Pick("ai", "Seat the computer on this side instead, at this level", LEVELS, required=False))
async def cmd_join(svc: Pipeline, inv: Invocation) -> Reply:
    """``/game join side: [ai:]``: take a free side, or seat the computer on it (``ai:``,
    issue 43: a seated player or the game's starter may; the computer plays it at once).

    One user may hold several sides (hot-seat) only in a game they started; a user a
    moderator kicked may sit again only when a moderator seats them (issue 14).
    """
    opts = read_options(svc, inv)
    game = await svc.games.require(inv.channel_id)
    side = replies.side_named(game.system, opts["side"])  # "soviets" is soviet
    if opts.get("ai"):
        return await seat_computer(svc, game, inv, side, opts["ai"])
    check_seat(game, inv.user_id, inv.user_name, side, "join")
    waiting = game.system.waiting_on(game.state)
    part = game.system.turn_part(game.state)
    lines = [f"🪑 @{inv.user_name} takes {side}."]
    mentions = []
    if side in waiting:
        lines.append(f"➡️ {part}: your move, @{inv.user_name}.")
        mentions = [inv.user_id]
    free = [s for s in game.system.sides if game.holder(s) is None and s != side]
    if free:
        lines.append(f"Still free: {', '.join(free)}.")
    change = Change(
        seats=[SeatChange("join", inv.user_id, inv.user_name, side)],
        # The new player is pinged now, so the next step of this turn-part is not.
        mention_key=svc.ledger.mention_key(waiting, part) if side in waiting else None,
    )
    reply = Reply(text="\n".join(lines), mentions=mentions)
    return await svc.ledger.commit(game, change, inv=inv, reply_for=lambda _: reply) or reply


async def seat_computer(svc: Pipeline, game: LiveGame, inv: Invocation, side: str, level: str) -> Reply:
    """``/game join side: ai:``: the computer takes a free side (issue 43).  Only someone at
    the table (a seated player, or whoever started the game) may seat it; a side a player
    holds is theirs (a moderator reseats it with ``/mod seat side: ai:``)."""
    if not (game.sides_of(inv.user_id) or game.row.created_by == inv.user_id or inv.is_moderator):
        raise RuleError("Only a player of this game (or whoever started it) may seat the computer; "
                        "take a side first with /game join.")
    user_id, name = computer_id(level, side), computer_name(level)
    check_seat(game, user_id, name, side, "join")
    waiting = game.system.waiting_on(game.state)
    lines = [f"🤖 @{inv.user_name} seats the computer ({level}) as {side}; it plays by the same rules "
             "and sees only what its side may see."]
    if side in waiting:
        lines.append(f"➡️ {game.system.turn_part(game.state)}: the computer's move.")
    free = [s for s in game.system.sides if game.holder(s) is None and s != side]
    if free:
        lines.append(f"Still free: {', '.join(free)}.")
    reply = Reply(text="\n".join(lines))
    change = Change(seats=[SeatChange("join", user_id, name, side)])
    return await svc.ledger.commit(game, change, inv=inv, reply_for=lambda _: reply) or reply


@command("leave", "Give up your seat(s) in this game")
async def cmd_leave(svc: Pipeline, inv: Invocation) -> Reply:
    """``/game leave``: give up every seat you hold."""
    read_options(svc, inv)
    game = await svc.games.require(inv.channel_id)
    sides = game.sides_of(inv.user_id)
    if not sides:
        raise RuleError("You hold no seat in this game.")
    text = f"🚪 @{inv.user_name} leaves {', '.join(sides)}; anyone may /game join side:{sides[0]}."
    reply = Reply(text=text)
    change = Change(seats=[SeatChange("leave", inv.user_id, inv.user_name, s) for s in sides])
    return await svc.ledger.commit(game, change, inv=inv, reply_for=lambda _: reply) or reply


@command("status", "Turn, phase, who acts and what they can do")
async def cmd_status(svc: Pipeline, inv: Invocation) -> Reply:
    """``/game status``."""
    read_options(svc, inv)
    game = await svc.games.require(inv.channel_id)
    reply = status_reply(svc, game)
    step = await svc.store.step(game.row.id, game.row.head_seq)
    sides = game.sides_of(inv.user_id)
    # The head is your own order: nothing happened since it (changes_since compares from
    # your order before the step it is given, what a picture of that step marks).
    own = step is not None and step.kind == "order" and step.side in sides
    changes = await svc.changes_since(game.row.system, step, sides[0]) if step and sides and not own else []
    if changes:
        words = "\n".join(change_lines(changes))
        reply = reply.model_copy(update={"text": f"{reply.text}\nSince your last order:\n{words}"})
    pacing = await status_lines(svc, game)
    if pacing:
        reply = reply.model_copy(update={"text": "\n".join([reply.text, *pacing])})
    return reply


@command("act", "Give an order by choosing from menus (no typing)")
async def cmd_act(svc: Pipeline, inv: Invocation) -> Reply:
    """``/game act``: build an order by choosing (issue 30) — which order, then each of its
    values, each menu listing only legal values; the order is sent by a Send button, through
    the same path as the slash command.  Only the player waited on may build one."""
    read_options(svc, inv)
    game = await svc.games.require(inv.channel_id)
    result = game.system.result(game.state)
    if result is not None:
        raise RuleError(f"The game is over ({result}); /game end reveals the dice.")
    sides = game.sides_of(inv.user_id)
    if not sides:
        raise RuleError("You are not seated in this game; /game join takes a free side. Anyone may watch.")
    waiting = game.system.waiting_on(game.state)
    side = next((s for s in sides if s in waiting), None)
    if side is None:
        who = ", ".join(replies.seat_name(s, game.seats) for s in waiting) or "nobody"
        raise RuleError(f"It is not your turn: {game.system.turn_part(game.state)} waits on {who}. "
                        "Standing orders are typed (/game help).")
    token = answers.Token("b", game.row.id, game.row.head_seq, side)
    return answers.builder_reply(game.system, game.state, token, game.row.system,
                                 standing=game.may_stand(side, svc.settings.standing_orders_in_a_row))


@command("map", "The latest map (only you see it unless you post it)",
         Flag("post", "Post it in the channel for everyone", required=False),
         Side("side", "Your side's own view (games with secrets)", required=False),
         cost="render", may_render=True, cooldown=(2, 30.0))
async def cmd_map(svc: Pipeline, inv: Invocation) -> Reply:
    """``/game map [post:] [side:]``: the snapshot of the current state (cached by state hash).

    A spectator sees it alone unless they ask to post it; a seated player's map is posted
    (it is what the table looks at).  In a game with secrets (issue 28) a seated player's
    map is their side's own view (``GameSystem.view_for``), for them alone; ``post:true``
    posts the public one.  ``side:`` is for a player's own side only: a spectator is
    refused (a moderator without a seat has ``/mod look``).
    """
    opts = read_options(svc, inv)
    game = await svc.games.require(inv.channel_id)
    part = game.system.turn_part(game.state)
    sides = game.sides_of(inv.user_id)
    wanted = replies.side_named(game.system, opts["side"]) if opts.get("side") else None
    if wanted is not None and wanted not in sides:
        if not sides:
            raise RuleError("Only a side's own player sees its view; you see the public map "
                            "(/game map). A moderator without a seat may /mod look.")
        raise RuleError(f"You play {', '.join(sides)}: you see only your own side's view.")
    if game.system.private_info and sides and not opts.get("post"):
        waiting = game.system.waiting_on(game.state)
        side = wanted or next((s for s in sides if s in waiting), sides[0])
        told = await sealing.addressed_since(svc.store, game.row.id, game.row.head_seq, side)
        head = (f"🗺️ {part} (step #{game.row.head_seq}): {game.system.side_name(side)}'s "
                "own view, secrets included; only you see it.")
        return Reply(text="\n".join([head, *(["For you since your last order:", *told] if told else [])]),
                     snapshot_key=f"{game.row.id}:{game.row.head_seq}:map:{side}", ephemeral=True)
    public = bool(opts.get("post")) or bool(sides)
    return Reply(text=f"🗺️ {part} (step #{game.row.head_seq})",
                 snapshot_key=f"{game.row.id}:{game.row.head_seq}:map", ephemeral=not public)


#: Room for a log page in one Discord message, its header and footer included.
LOG_ROOM = 1900


@command("log", "The numbered steps with dice and rules",
         Whole("last", "How many steps a page (default 10)", required=False, minimum=1, maximum=50),
         Whole("page", "Which page back: 1 is the latest", required=False, minimum=1),
         cooldown=(5, 30.0))
async def cmd_log(svc: Pipeline, inv: Invocation) -> Reply:
    """``/game log [last:] [page:]``: numbered steps, dice and rules; reverted ones struck
    through.  It says which steps it shows, of how many, and how to see more."""
    opts = read_options(svc, inv)
    game = await svc.games.require(inv.channel_id)
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


async def export_document(svc: Pipeline, game_id: int) -> dict[str, Any]:
    """The whole log of a game as a replayable JSON document (format :data:`EXPORT_FORMAT`)."""
    game = await svc.store.game(game_id)
    steps = await svc.store.steps(game_id)
    audit = await svc.store.audit(game_id)
    # A sealed choice (10.1.1 air assignments) stays out of a running game's export until
    # its reveal: the steps of the round still secret carry no state and no private option.
    system = registry.get(game.system)
    hidden = (record.sealed_from(system, steps, game.head_seq)
              if game.status == "active" else None)
    rows = [{**record.step_fields(s, RawJSON(s.state_json)), "reverted_by": s.reverted_by,
             "prev_hash": s.prev_hash, "hash": s.hash} for s in steps]
    if game.status == "active" and system.private_info:
        # A game with secrets (issue 28): until /game end no state, no sealed item, no line
        # addressed to one side; the final export holds everything, and the seed to check it.
        rows = [sealing.public_step_fields(r) for r in rows]
        hidden = None
    return {
        "format": EXPORT_FORMAT,
        "system": game.system,
        "scenario": game.scenario,
        # A scenario from a file travels with its game (issue 27): replay needs nothing else.
        "scenario_text": game.scenario_text,
        "scenario_sha256": scenariofile.sha256(game.scenario_text) if game.scenario_text else None,
        "options": game.options,
        "seed_hash": game.seed_hash,
        # The seed stays secret while the game runs (provable dice).
        "seed": game.seed.hex() if game.status == "ended" else None,
        # How many rolls were made, announced at /game end (tools/verify_dice.py --rolls).
        "rolls": game.dice_counter if game.status == "ended" else None,
        "head_seq": game.head_seq,
        # The hash of the game's last record (bot/chain.py): what the channel was shown.
        "chain_head": game.chain_head,
        # Its scheme (referee-chain/2 binds the scenario file's whole hash) and how many
        # records it holds (each announcement shows its count, issue 45).
        "chain_format": game.chain_format,
        "chain_count": game.chain_count,
        # The release that wrote this file, today's rules version, and those its steps were
        # made under (issue 42): what `referee replay` tells a rules change from a forgery by.
        "versions": versions.export_header(system, ((s.release, s.rules_version) for s in steps)),
        # The stored JSON text of each state, spliced in by encode_export (parsing and
        # re-encoding every state was most of the time /game end took).
        "steps": [record.sealed_step(r) if hidden is not None and r["seq"] >= hidden else r
                  for r in rows],
        "audit": [record.audit_fields(a) for a in audit],
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


async def exportable_game(svc: Pipeline, channel_id: str, game_id: int | None) -> GameRow:
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
    live = await svc.games.load(channel_id)
    if live is not None:
        return live.row
    ended = await svc.store.last_ended_game(channel_id)
    if ended is None:
        raise RuleError("There is no game in this channel to export; start one with /game new.")
    return ended


@command("export", "The whole log as a replayable file (.json.gz)",
         Whole("game", "An older game of this channel, by number", required=False, minimum=1),
         cost="export", defer_first=True, private=True, cooldown=(1, 60.0))
async def cmd_export(svc: Pipeline, inv: Invocation) -> Reply:
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


def may_end(game: LiveGame, inv: Invocation) -> bool:
    """Who may end a game: a moderator always; its players once it is over; mid-way, only
    the one person who started it and has held every seat since the start (hot-seat or
    solitaire).  A player who took a seat someone else left, or a stranger who took every
    seat, may not: ending reveals the seed (issue 14)."""
    if inv.is_moderator:
        return True
    sides = set(game.sides_of(inv.user_id))
    if sides and game.system.result(game.state) is not None:
        return True
    return (sides == set(game.system.sides) and game.row.created_by == inv.user_id
            and game.ever_seated() == {inv.user_id})



def early_result(game: LiveGame) -> str:
    """What ``/game end`` says of a game ended before its last turn: who the rules say has
    won at this point (as ``/game status`` says it), or that nobody has (issue 40)."""
    now = game.system.outcome_now(game.state)
    if now is None or now.winner is None:
        return "ended before its last turn; by the rules nobody has won at this point"
    return f"ended before its last turn; {now.termination.rstrip('.')}"


@command("end", "End the game and reveal the dice seed", defer_first=True)
async def cmd_end(svc: Pipeline, inv: Invocation) -> Reply:
    """``/game end``: end the game and reveal the dice seed (see :func:`may_end`).

    The end and its audit entry are committed first, so the final export holds them.  The
    reply kept for a repeated delivery holds the text only: the file is rebuilt by
    ``/game export``, which works on the ended game.
    """
    read_options(svc, inv)
    game = await svc.games.require(inv.channel_id)
    if not may_end(game, inv):
        raise RuleError(
            "Only a moderator can end a game still in progress (players may once it is over)."
        )
    result = game.system.result(game.state) or early_result(game)
    return await finish(svc, inv, game, result, end_audit(inv, game))


def end_audit(inv: Invocation, game: LiveGame, ending: str | None = None, side: str | None = None,
              reason: str = "") -> Audit:
    """The audit entry of a game's end (``tools/verify_dice.py`` checks its roll count and
    last step); a concession or a deadline loss says so (``ending``) with the losing ``side``,
    which a league reads (``bot/league/outcomes.py``)."""
    data: dict[str, Any] = {"rolls": game.row.dice_counter, "head": game.row.head_seq}
    if ending is not None:
        data |= {"ending": ending, "side": side}
    return Audit(inv.user_id, inv.user_name, "end", reason, data)


async def finish(svc: Pipeline, inv: Invocation, game: LiveGame, result: str, audit: Audit) -> Reply:
    """End ``game`` with ``result`` (what the announcement says) and its ``audit`` entry
    (:func:`end_audit`): the seed revealed, the final log attached, a
    league's count of it in the same transaction (``bot/league/ending.py``)."""
    name = export_name(game.row, final=True)

    def build(done: Committed) -> Reply:
        # The whole chain head: with it the final log is pinned to the last byte (issue 29).
        return Reply(text="\n".join([
            f"🏁 Game over: {result.rstrip('.')}.",  # a result may end in its own full stop
            f"Dice seed: `{game.row.seed.hex()}`",
            f"Its hash `{game.row.seed_hash[:16]}…` was posted at the start.",
            rolls_line(game.row.dice_counter),
            chain.tagged(f"Chain head: {chain.ANCHOR_MARK} {done.chain_head} · {done.chain_count} (+{done.added})",
                         game.row.seed, done.chain_head, done.chain_count, done.added),
            f"The final log is {name} (again any time: /game export).",
            f"Anyone can check every roll and step: python tools/verify_dice.py {name}"
            f" --rolls {game.row.dice_counter} --anchor {done.chain_head}",
            *([f"Every map, step by step: {page_name} follows (opens in any browser, offline)."]
              if svc.settings.html_at_end else []),
        ]))

    page_name = export_html.html_name(game.row, final=True)
    change = Change(audit=audit, end=True)
    if svc.settings.html_at_end:
        # The page draws every map of the game (a minute for a long one): it is owed in the
        # end's own transaction and built at delivery, off the channel's lock, as its own
        # message; a restart meanwhile delivers it with the channel's next reply (issue 25).
        page = Reply(text=f"📖 {page_name}: the whole game, step by step (opens in any browser,"
                          " offline).", page_key=game.row.id)
        change.extra.append(lambda db: OwedAnnouncements.insert(db, game.row.channel_id, page))
    reply = await svc.ledger.commit(game, change, inv=inv, reply_for=build)
    assert reply is not None
    svc.announcements.owing(game.row.channel_id)
    document = await export_document(svc, game.row.id)
    data = await asyncio.to_thread(gzip_export, document)
    files = [Attachment(filename=name, data=data, description="final log")]
    return reply.model_copy(update={"attachments": files})


@command("concede", "Concede this game: the other side wins (the dice seed is revealed)",
         defer_first=True)
async def cmd_concede(svc: Pipeline, inv: Invocation) -> Reply:
    """``/game concede``: the player of one side gives the game up; the other side wins, the
    game ends as ``/game end`` ends it, and a league counts it as a concession (issue 44)."""
    read_options(svc, inv)
    game = await svc.games.require(inv.channel_id)
    sides = game.sides_of(inv.user_id)
    if not sides:
        raise RuleError("You hold no seat in this game; only a player may concede it.")
    if len(sides) > 1 or len(game.system.sides) != 2:
        raise RuleError("Only one of two players may concede; this game has no one to concede to"
                        " (end it with /game end).")
    if game.system.result(game.state) is not None:
        raise RuleError("The game is already over by the rules; /game end reveals the dice.")
    side = sides[0]
    winner = next(s for s in game.system.sides if s != side)
    result = f"{game.system.side_name(side)} concede; {game.system.side_name(winner)} win"
    return await finish(svc, inv, game, result, end_audit(inv, game, "concede", side))


@command("help", "What the orders do, their options and rules",
         OrderName("order", "An order, e.g. move", required=False))
async def cmd_help(svc: Pipeline, inv: Invocation) -> Reply:
    """``/game help [order:]``: generated from the action models."""
    opts = read_options(svc, inv)
    game = await svc.games.load(inv.channel_id)
    systems = [game.system] if game else [svc.systems[k] for k in sorted(svc.systems)]
    order = opts.get("order")
    if order:
        for system in systems:
            # "mines lay", "/mak mines lay", "Mines  Lay": an order's path; "mines": its group
            wanted = " ".join(order.strip().lstrip("/").casefold().split())
            wanted = wanted.removeprefix(f"{system.key} ")
            found = next((a for a in system.actions if a.path() == wanted), None) or \
                next((a for a in system.actions if a.name == wanted), None)  # "commit": air commit
            if found is not None:
                return replies.info(replies.help_text(system, found.path()))
            if any(a.group == wanted for a in system.actions):
                return replies.info(replies.group_help(system, wanted))
        raise RuleError(f"There is no order '{order[:40]}'; /game help lists them.")
    intro = command_list()
    if game is None:
        # No game: what there is to play and how to start, not every system's orders.
        return replies.info("\n\n".join([replies.systems_help(systems), intro]))
    return replies.info("\n\n".join([intro, replies.help_text(game.system, None)]))


def command_list() -> str:
    """The ``/game`` commands as ``/game help`` lists them, read from the declarations
    (:data:`GAME`), so none can be left out (issue 40): the game's own in the order a new
    player meets them (:data:`READING_ORDER`; one declared later and not placed there comes
    after them), then the pacing ones."""
    pacing = set(GAME_PACING)
    own = [c for c in GAME.commands if c not in pacing]
    ranked = sorted(own, key=lambda c: READING_ORDER.index(c.name) if c.name in READING_ORDER
                    else len(READING_ORDER))
    return (f"/game {' · '.join(c.name for c in ranked)}\n"
            f"Pacing: /game {' · '.join(c.name for c in GAME_PACING)}")


def rolls_line(count: int) -> str:
    """How many rolls the game made, as /game end announces them (a game without a roll
    read "numbered 0 to -1")."""
    if count == 0:
        return "Rolls made: none."
    return f"Rolls made: {count} (numbered 0 to {count - 1})." if count > 1 else "Rolls made: 1 (numbered 0)."


@command("undo", "Take back your last step if it revealed nothing new", may_render=True)
async def cmd_undo(svc: Pipeline, inv: Invocation) -> Reply:
    """``/game undo``: take back your own last step while it revealed nothing new.

    Undo is refused once dice were rolled, a card drawn or anything hidden shown, once
    anyone else made a move since, or once you no longer hold the step's seat (kicked,
    replaced, left): it must never become a free reroll.  Standing orders the other side
    gave since are kept: they are applied again on the state before your step (issue 14).
    """
    read_options(svc, inv)
    game = await svc.games.require(inv.channel_id)
    limit = svc.settings.undos_in_a_row
    if await undos_in_a_row(svc, game, inv.user_id) >= limit:
        raise RuleError(f"You have taken back {limit} steps in a row; the last one stands until"
                        " someone else acts (a moderator can /mod rollback).")
    target = await svc.store.step(game.row.id, game.row.head_seq)
    assert target is not None
    kept: list[StepRow] = []
    while (target.actor_id != inv.user_id and is_standing(game.system, target)
           and target.parent_seq is not None):
        kept.insert(0, target)
        parent = await svc.store.step(game.row.id, target.parent_seq)
        assert parent is not None
        target = parent
    if target.kind == "setup":
        # Whoever typed /game new is its actor: "#0 is alice's; you can undo only your own"
        # told alice the opposite of the reason.
        raise RuleError(f"The last step (#{target.seq}) is the game's set-up, not an order; there is"
                        " nothing of yours to undo yet (a moderator can /mod reroll a set-up).")
    if target.kind != "order" or target.actor_id != inv.user_id:
        who = target.actor_name or "the referee"
        raise RuleError(f"The last step (#{target.seq}) is {who}'s; you can undo only your own last step.")
    if target.side not in game.sides_of(inv.user_id):
        raise RuleError(
            f"You no longer hold {target.side}, so step #{target.seq} is not yours to undo; "
            "a moderator can /mod rollback."
        )
    for step in [target, *kept]:
        if step.dice:
            raise RuleError(f"Step #{step.seq} rolled dice; a rolled step cannot be undone (a moderator can /mod reroll).")
        if step.reveals:
            raise RuleError(f"Step #{step.seq} may have revealed new information; it cannot be undone.")
    parent = await svc.store.step(game.row.id, target.parent_seq or 0)
    assert parent is not None
    run = svc.dice_run(game.row)
    state = game.system.load_state(parent.state_json)
    again: list[Outcome] = []
    for step in kept:
        try:
            outcome = svc.reapply(game, step, state, run.take())
        except RuleError as exc:
            raise RuleError(
                f"Undoing #{target.seq} would drop #{step.seq} ({exc.message}); a moderator can /mod rollback."
            ) from None
        if outcome.dice.rolls:
            raise RuleError(f"Step #{step.seq} would roll dice again; a moderator can /mod rollback.")
        again.append(outcome)
        state = outcome.step.state
    part = game.system.turn_part(state)

    def build(done: Committed) -> Reply:
        text = f"↩️ @{inv.user_name} took back #{target.seq} ({replies.step_action_text(target)})."
        if kept:
            text += "\n" + "\n".join(
                f"Kept #{old.seq} as #{new}: {replies.step_action_text(old)}"
                for old, new in zip(kept, done.seqs))
        # The answers of the position gone back to, for the side now waited on (issue 40):
        # the undone step's own answers are stale, and "1" must pick from these.
        return Reply(text=text + "\n" + f"➡️ {part}",
                     mentions=done.mentions, snapshot_key=f"{game.row.id}:{done.head_seq}",
                     offer_key=f"{game.row.id}:{done.head_seq}")

    # The game is back on a turn-part that was announced before the undone step: it is the
    # last one pinged now, so giving the step again hands over with a new ping (the undone
    # step's ping must not count as already given).  Kept steps bring their own.
    back = game.system.make_step(state)
    change = Change(
        steps=again, parent_seq=parent.seq, head=None if again else parent, dice=run,
        audit=Audit(inv.user_id, inv.user_name, "undo", "", {"seq": target.seq}),
        revert_after=parent.seq, mention_key=svc.ledger.mention_key(back.waiting_on, back.turn_part),
    )
    reply = await svc.ledger.commit(game, change, inv=inv, reply_for=build)
    assert reply is not None
    return reply


async def undos_in_a_row(svc: Pipeline, game: LiveGame, user_id: str) -> int:
    """How many undos ``user_id`` made since anyone else last gave an order: each stores a
    whole state, so a standing order and its undo, repeated, grew the database by ~27 kB a
    pair (issue 29); with the standing orders' own limit, the churn is bounded."""
    audit = await svc.store.audit(game.row.id)
    mine = []
    for entry in reversed(audit):
        if entry.action != "undo" or entry.actor_id != user_id:
            break
        mine.append(entry.created_at)
    if not mine:
        return 0
    others = [s.created_at for s in await svc.store.steps(game.row.id, last=50)
              if s.kind == "order" and s.actor_id != user_id]
    since = max(others, default="")
    return sum(1 for at in mine if at > since)


@command("replay", "The maps of a span of steps as an animated picture",
         Whole("from", "First step (default #0)", required=False, minimum=0),
         Whole("to", "Last step (default the newest)", required=False, minimum=0),
         cost="replay", defer_first=True, cooldown=(1, 60.0))
async def cmd_replay(svc: Pipeline, inv: Invocation) -> Reply:
    """``/game replay [from:] [to:]``: the maps of those steps of this channel's game (or the
    one that ended last) as one animated GIF (``bot/replaycmds.py``)."""
    opts = read_options(svc, inv)
    row = await exportable_game(svc, inv.channel_id, None)
    return await replaycmds.replay_reply(svc, row, opts.get("from", 0), opts.get("to"))


#: The order ``/game help`` lists the game's commands in: choose, sit down, play, look
#: back, end (Discord's order, :data:`GAME`, is kept as it was recorded).
READING_ORDER = ("new", "tutorial", "scenarios", "join", "leave", "status", "act", "map", "log", "undo",
                 "replay", "export", "help", "concede", "end")

#: ``/game``: its commands in the order Discord shows them, the pacing ones last.
GAME = CommandSet("game", "Start, join and follow the game in this channel", [
    cmd_new, cmd_join, cmd_leave, cmd_status, cmd_act, cmd_map, cmd_log, cmd_export, cmd_end,
    cmd_help, cmd_undo, cmd_replay, scenarios.cmd_scenarios, cmd_tutorial, cmd_concede, *GAME_PACING,
])


__all__ = ["EXPORT_FORMAT", "GAME", "end_audit", "export_document", "finish", "may_end", "read_options"]
