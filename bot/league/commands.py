"""``/league …``: a server's league — create, join, leave, standings, a player's page,
schedule a round, record a game played outside the schedule, export, close (issue 44).

Only a moderator creates, schedules or closes a league; a player joins and leaves only
themself (the commands take no user); anyone reads the standings.  Each change is one
transaction with its remembered reply.  A scheduled round's pairings are stored, and the
reply asks the front end to open one thread per pairing (:class:`bot.models.ThreadOpening`):
Discord opens a thread, the console a channel, and each starts its game there
(:func:`start_pairing`).
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

from bot.declare import CommandSet, Flag, Member as MemberOption, Pick, Text, Whole, command
from bot.gamecmds import start_game
from bot.league import history, pairing as pairs, records
from bot.league.ending import counting, seated_players
from bot.league.outcomes import ended_by
from bot.league.records import OVERALL, League
from bot.league.standings import byes_in, byes_line, picture_view, pool_words, ranked, records_lines, text_table
from bot.models import Attachment, Invocation, Reply, ThreadOpening
from bot.moderation import who_moderates
from bot.pacing.clock import parse_iso
from bot.pipeline import LiveGame, Pipeline, SeatChange, new_seed, option_user
from bot.store import GameRow
from bot.writer import Writer
from render.standings import render_standings
from rules.core import registry
from rules.core.contract import GameSystem
from rules.core.errors import RuleError

NAME = re.compile(r"^[\w][\w \-]{0,39}$")


def server_of(inv: Invocation) -> str:
    """The server a league belongs to (the console is one server of its own)."""
    return inv.guild_id or "console"


def leaguable(system: GameSystem[Any]) -> bool:
    """Whether a league can count ``system``'s games: two sides, and rules that name the
    winner (:meth:`GameSystem.outcome` of its own); the default outcome names nobody, so
    every game would count as a draw."""
    return len(system.sides) == 2 and type(system).outcome is not GameSystem.outcome


def _moderator(svc: Pipeline, inv: Invocation, what: str) -> None:
    if not inv.is_moderator:
        raise RuleError(f"Only a moderator may {what} a league ({who_moderates(inv, svc.settings.moderator_role)});"
                        " players /league join and /league leave themselves.")


async def chosen(svc: Pipeline, inv: Invocation) -> League:
    """The league an invocation means: ``league:`` by name, else the server's only open one."""
    open_ = await records.leagues(svc.store, server_of(inv))
    name = str(inv.options.get("league", "")).strip()
    if name:
        found = next((lg for lg in open_ if lg.name.casefold() == name.casefold()), None)
        if found is None:
            names = ", ".join(lg.name for lg in open_) or "none"
            raise RuleError(f"This server has no open league '{name[:40]}'; open leagues: {names}.")
        return found
    if not open_:
        raise RuleError("This server has no open league; a moderator starts one with /league new name: systems:.")
    if len(open_) > 1:
        raise RuleError(f"This server has {len(open_)} open leagues ({', '.join(lg.name for lg in open_)});"
                        " say which with league:.")
    return open_[0]


def _remember(db: Writer, inv: Invocation, reply: Reply) -> None:
    if inv.interaction_id:
        db.remember_reply(inv.interaction_id, None, reply.model_dump_json())


LEAGUE_OPTION = Text("league", "The league (default: the server's only open one)", required=False)


@command("new", "Start a league in this server (moderators)",
         Text("name", "Its name, e.g. Autumn 2026"),
         Text("systems", "The systems it plays, comma separated, e.g. rr,skirmish"),
         Flag("rated", "Rate its games (default yes)", required=False), moderator_only=True)
async def cmd_new(svc: Pipeline, inv: Invocation) -> Reply:
    """``/league new name: systems: [rated:]``."""
    _moderator(svc, inv, "start")
    name = " ".join(str(inv.options["name"]).split())
    if not NAME.match(name):
        raise RuleError("A league's name is 1 to 40 letters, digits, spaces, - or _, e.g. name:Autumn 2026.")
    wanted = [s.strip().casefold() for s in str(inv.options["systems"]).split(",") if s.strip()]
    playable = sorted(k for k, s in svc.systems.items() if leaguable(s))
    bad = [s for s in wanted if s not in playable]
    if not wanted or bad:
        raise RuleError(f"A league plays two-player systems whose rules name the winner: {', '.join(playable)}"
                        f"{f'; not {bad[0][:20]}' if bad else ''}. E.g. systems:rr,skirmish.")
    systems = list(dict.fromkeys(wanted))
    if any(lg.name.casefold() == name.casefold() for lg in await records.leagues(svc.store, server_of(inv))):
        raise RuleError(f"This server already has an open league '{name}'; close it first or choose another name.")
    rated = bool(inv.options.get("rated", True))
    reply = Reply(text=f"🏆 New league **{name}**: {', '.join(systems)}, {'rated' if rated else 'unrated'}."
                       f" Players: /league join league:{name}. A moderator pairs each round with /league schedule.")
    async with svc.store.transaction() as db:
        await records.create_league(db, server_of(inv), name, systems, rated, inv.user_id)
        _remember(db, inv, reply)
    return reply


@command("join", "Join a league of this server yourself", LEAGUE_OPTION)
async def cmd_join(svc: Pipeline, inv: Invocation) -> Reply:
    """``/league join [league:]``: you (never anyone else) join."""
    league = await chosen(svc, inv)
    present = await records.members(svc.store, league.id)
    if any(m.user_id == inv.user_id for m in present):
        raise RuleError(f"You already play in {league.name}; /league standings shows it.")
    count = len(present) + 1
    reply = Reply(text=f"🏆 @{inv.user_name} joins {league.name} ({count} player{'s' if count != 1 else ''}).")
    async with svc.store.transaction() as db:
        records.add_member(db, league, inv.user_id, inv.user_name)
        _remember(db, inv, reply)
    return reply


@command("leave", "Leave a league yourself (your games so far still count)", LEAGUE_OPTION)
async def cmd_leave(svc: Pipeline, inv: Invocation) -> Reply:
    """``/league leave [league:]``: you leave; a round already paired keeps your games."""
    league = await chosen(svc, inv)
    if not any(m.user_id == inv.user_id for m in await records.members(svc.store, league.id)):
        raise RuleError(f"You do not play in {league.name}; there is nothing to leave.")
    reply = Reply(text=f"🚪 @{inv.user_name} leaves {league.name}; their games so far still count.")
    async with svc.store.transaction() as db:
        records.remove_member(db, league.id, inv.user_id)
        _remember(db, inv, reply)
    return reply


async def table_reply(svc: Pipeline, league: League, pool: str, *, final: bool = False) -> Reply:
    """The standings as text and as a picture (drawn off the event loop)."""
    if pool != OVERALL and pool not in league.systems:
        raise RuleError(f"{league.name} plays {', '.join(league.systems)}; system: is one of them.")
    paired = await records.pairings(svc.store, league.id)
    lines = ranked(await records.members(svc.store, league.id), await records.ratings(svc.store, league.id), pool,
                   byes_in(paired, pool))
    results = [r for r in await records.results(svc.store, league.id) if pool in (OVERALL, r.system)]
    notes = [*byes_line(lines), *records_lines(results)]
    rounds = max((p.round for p in paired), default=0)
    subtitle = (f"{pool_words(league, pool)} · {'final' if final else f'after round {rounds}'} · "
                f"{len(results)} games counted")
    text = text_table(league, lines, pool, notes)
    png = await asyncio.to_thread(render_standings, picture_view(league, lines, pool, subtitle, notes))
    slug = re.sub(r"\W+", "-", league.name.casefold()).strip("-")
    name = f"league-{slug}-{'final' if final else 'standings'}{'' if pool == OVERALL else '-' + pool}.png"
    return Reply(text=text, attachments=[Attachment(filename=name, data=png, description=text[:1000])])


@command("standings", "The league's table: ratings, games, reliability",
         LEAGUE_OPTION, Text("system", "One system's ratings (default: every system)", required=False),
         cost="render", cooldown=(2, 30.0))
async def cmd_standings(svc: Pipeline, inv: Invocation) -> Reply:
    """``/league standings [league:] [system:]``: the table as a picture and as text."""
    league = await chosen(svc, inv)
    return await table_reply(svc, league, str(inv.options.get("system") or OVERALL).casefold())


@command("player", "A player's ratings, reliability and league games",
         MemberOption("user", "The player"), LEAGUE_OPTION)
async def cmd_player(svc: Pipeline, inv: Invocation) -> Reply:
    """``/league player user: [league:]``: their figures in every pool and their games."""
    league = await chosen(svc, inv)
    user = option_user(inv.options["user"])
    member = next((m for m in await records.members(svc.store, league.id, present=False) if m.user_id == user.id), None)
    if member is None:
        raise RuleError(f"@{user.name} has never played in {league.name}.")
    rows = [r for r in await records.ratings(svc.store, league.id) if r.user_id == user.id]
    lines = [f"🏆 {member.user_name} in {league.name}" + (" (left)" if member.left_at else "") + ":",
             f"Reliability: {member.reliability_words()}."]
    for r in sorted(rows, key=lambda r: (r.pool != OVERALL, r.pool)):
        lines.append(f"{'Overall' if r.pool == OVERALL else r.pool}: {r.figure.words()}, played {r.played}"
                     f" (won {r.won}, drawn {r.drawn}, lost {r.lost})")
    for res in await records.results(svc.store, league.id):
        if any(p.user_id == user.id for p in res.players):
            other = next((p.user_name for p in res.players if p.user_id != user.id), "?")
            how = "won" if res.winner_id == user.id else ("drew" if res.winner_id is None else "lost")
            lines.append(f"#{res.game_id} {res.system} v {other}: {how} ({res.outcome}, {res.steps} steps)")
    return Reply(text="\n".join(lines), ephemeral=True)


@command("schedule", "Pair the next round; each pairing gets a thread with its game (moderators)",
         LEAGUE_OPTION, Pick("how", "Swiss (default) or round robin", ["swiss", "round-robin"], required=False),
         Text("system", "The round's system (default: the league's systems in turn)", required=False),
         moderator_only=True)
async def cmd_schedule(svc: Pipeline, inv: Invocation) -> Reply:
    """``/league schedule [league:] [how:] [system:]``: the next round's pairings, once every
    game of the round before has ended."""
    _moderator(svc, inv, "schedule")
    league = await chosen(svc, inv)
    played = await records.pairings(svc.store, league.id)
    waiting = [p for p in played if p.state in ("waiting", "playing")]
    if waiting:
        raise RuleError(f"Round {waiting[0].round} is still being played ({await _unended(svc, waiting)});"
                        " the next is paired once its games have ended.")
    present = await records.members(svc.store, league.id)
    if len(present) < 2:
        raise RuleError(f"{league.name} has {len(present)} player(s); a round needs two: /league join.")
    round_no = max((p.round for p in played), default=0) + 1
    system = str(inv.options.get("system") or league.systems[(round_no - 1) % len(league.systems)]).casefold()
    if system not in league.systems:
        raise RuleError(f"{league.name} plays {', '.join(league.systems)}; system: is one of them.")
    by_id = {m.user_id: m for m in present}
    drawn = await _drawn(svc, league, present, played, round_no, swiss=inv.options.get("how") != "round-robin")
    sides = registry.get(system).sides
    openings, lines = [], [f"📋 {league.name}, round {round_no} ({system}):"]
    async with svc.store.transaction() as db:
        for first, second in drawn:
            pid = await records.add_pairing(db, league.id, round_no, system, by_id[first],
                                            by_id[second] if second else None)
            if second is None:
                lines.append(f"{by_id[first].user_name}: a bye this round.")
                continue
            lines.append(f"{by_id[first].user_name} ({sides[0]}) v {by_id[second].user_name} ({sides[1]})")
            openings.append(ThreadOpening(pairing_id=pid, name=f"{league.name} R{round_no}: "
                                          f"{by_id[first].user_name} v {by_id[second].user_name}"[:100]))
        lines.append("Each game opens in its own thread.")
        # No pings here: each thread's first message pings its two players.
        reply = Reply(text="\n".join(lines), threads=openings)
        _remember(db, inv, reply)
    return reply


async def _unended(svc: Pipeline, waiting: list[records.Pairing]) -> str:
    """``alice v bob, carol v dan (over by the rules: /game end in its thread counts it)``:
    the scheduled games not ended yet, saying which the rules have ended (a game is counted
    when it is ended, and nobody may have typed /game end yet)."""
    words = []
    for p in waiting:
        game = await svc.games.load(p.channel_id) if p.channel_id else None
        over = game is not None and game.row.id == p.game_id and game.system.result(game.state) is not None
        words.append(p.names() + (" (over by the rules: /game end in its thread counts it)" if over else ""))
    return ", ".join(words)


async def _drawn(svc: Pipeline, league: League, present: list[records.Member], played: list[records.Pairing],
                 round_no: int, *, swiss: bool) -> list[pairs.Pair]:
    """The round's pairs (user ids), the first of each taking the first side."""
    if swiss:
        # The table's own order: points (byes counted), then rating, then name.
        table = ranked(present, await records.ratings(svc.store, league.id), OVERALL, byes_in(played))
        ranked_ids = [ln.member.user_id for ln in table]
        met = {frozenset((p.first_id, p.second_id)) for p in played if p.second_id}
        drawn = pairs.swiss(ranked_ids, met, {p.first_id for p in played if p.second_id is None})
    else:
        drawn = pairs.round_robin([m.user_id for m in present], round_no)
    firsts: dict[str, int] = {}
    for p in played:
        firsts[p.first_id] = firsts.get(p.first_id, 0) + (p.second_id is not None)
    return pairs.sides_evened(drawn, firsts)


async def start_pairing(svc: Pipeline, pairing_id: int, channel_id: str, guild_id: str | None) -> Reply:
    """Start a scheduled pairing's game in ``channel_id`` (the thread the front end opened),
    both players seated; the pairing and its game are stored in one transaction."""
    found = await records.pairing(svc.store, pairing_id)
    if found is None or found.second_id is None or found.state != "waiting":
        raise RuleError("That pairing has already begun or is not a game.")
    league = await records.league(svc.store, found.league_id)
    assert league is not None
    system = registry.get(found.system)
    sides = system.sides
    seats = [SeatChange("join", found.first_id, found.first_name, sides[0]),
             SeatChange("join", found.second_id, found.second_name or "", sides[1])]
    inv = Invocation(channel_id=channel_id, guild_id=guild_id, user_id=league.created_by, user_name="referee",
                     is_moderator=True, command=["league", "schedule"])
    head = (f"🏆 {league.name}, round {found.round}: @{found.first_name} ({system.side_name(sides[0])}) v "
            f"@{found.second_name} ({system.side_name(sides[1])}).")
    reply = await start_game(svc, inv, system, {}, new_seed(), seats=seats, after=[head],
                             also=lambda db, game_id: records.open_pairing(db, pairing_id, channel_id, game_id))
    return reply.model_copy(update={"mentions": [found.first_id, found.second_id]})


async def _recordable(svc: Pipeline, inv: Invocation, league: League) -> GameRow:
    """The game ``/league record`` names, if it is one of this server's ended games of the
    league's systems, not counted yet; else the sentence why not."""
    try:
        row = await svc.store.game(int(inv.options["game"]))
    except KeyError:
        raise RuleError(f"There is no game #{inv.options['game']}.") from None
    if row.guild_id != inv.guild_id:
        raise RuleError(f"Game #{row.id} was not played in this server; only this server's games count here.")
    if row.status != "ended":
        raise RuleError(f"Game #{row.id} has not ended; it counts once it ends by the rules (/game end).")
    if row.system not in league.systems:
        raise RuleError(f"{league.name} plays {', '.join(league.systems)}; game #{row.id} is {row.system}.")
    if league.id in await records.leagues_of_game(svc.store, row.id):
        raise RuleError(f"Game #{row.id} is already counted in {league.name}.")
    return row


@command("record", "Count a finished game of this server played outside the schedule",
         Whole("game", "The game's number (its export file name says it)", minimum=1), LEAGUE_OPTION)
async def cmd_record(svc: Pipeline, inv: Invocation) -> Reply:
    """``/league record game: [league:]``: a game of this server that ended by the rules (a
    win, a draw, a concession or a deadline loss; never one a moderator ended early), its
    two players members, counted once; by one of its players or a moderator."""
    league = await chosen(svc, inv)
    row = await _recordable(svc, inv, league)
    system = registry.get(row.system)
    head = await svc.store.step(row.id, row.head_seq)
    ends = [a for a in await svc.store.audit(row.id) if a.action == "end"]
    assert head is not None
    state = system.load_state(head.state_json)
    ended = ended_by(system, state, ends[-1].data if ends else {})
    if ended is None:
        raise RuleError(f"Game #{row.id} was ended by a moderator before the rules ended it; it cannot count.")
    game = LiveGame(row, system, state, await svc.store.seats(row.id), row.head_seq + 1,
                    seat_log=await svc.store.seat_events(row.id))
    players = seated_players(game)
    present = {m.user_id for m in await records.members(svc.store, league.id)}
    humans = [p for p in players if not p.computer]
    strangers = [p.user_name for p in humans if p.user_id not in present]
    if strangers or len(players) != 2:
        raise RuleError(f"Both players of game #{row.id} must play in {league.name}"
                        f"{f'; not {strangers[0]}' if strangers else ''}.")
    if not inv.is_moderator and inv.user_id not in {p.user_id for p in humans}:
        raise RuleError(f"Only a player of game #{row.id} or a moderator may count it.")
    # Its deadlines are read as they stood when it ended.
    at = parse_iso(ends[-1].created_at) if ends else svc.clock.now()
    done = await counting(svc.store, league, game, ended, players, at, pairing_id=None, recorded_by=inv.user_id)
    reply = Reply(text="\n".join([f"📥 Game #{row.id} ({row.system}, {ended.text.rstrip('.')}):", *done.lines]))
    async with svc.store.transaction() as db:
        for write in done.writes:
            write(db)
        _remember(db, inv, reply)
    return reply


@command("export", "The league's whole history as a file, its ratings checked against the logs",
         LEAGUE_OPTION, cost="export", defer_first=True, private=True, cooldown=(1, 60.0))
async def cmd_export(svc: Pipeline, inv: Invocation) -> Reply:
    """``/league export [league:]``: every pairing, counted game and figure as JSON, with the
    ratings recomputed from the games' logs (they must equal the stored ones)."""
    league = await chosen(svc, inv)
    document = await history.export(svc.store, league)
    again = await history.recompute(svc.store, league)
    same = again.figures() == await history.stored(svc.store, league) and not again.problems
    check = ("✅ The ratings recomputed from the games' logs equal the stored ones." if same else
             "⚠️ The ratings recomputed from the logs differ: " + "; ".join(again.problems[:3] or ["figures differ"]))
    data = json.dumps(document, ensure_ascii=False, indent=1).encode()
    slug = re.sub(r"\W+", "-", league.name.casefold()).strip("-")
    return Reply(text=f"📄 {league.name}: {len(document['results'])} counted games.\n{check}",
                 attachments=[Attachment(filename=f"league-{slug}.json", data=data, description="league history")],
                 ephemeral=True)


@command("close", "End the season: the final table and its records (moderators)", LEAGUE_OPTION,
         moderator_only=True)
async def cmd_close(svc: Pipeline, inv: Invocation) -> Reply:
    """``/league close [league:]``: once every scheduled game has ended, the league closes and
    its final table is posted with the season's records."""
    _moderator(svc, inv, "close")
    league = await chosen(svc, inv)
    waiting = [p for p in await records.pairings(svc.store, league.id) if p.state in ("waiting", "playing")]
    if waiting:
        raise RuleError(f"{len(waiting)} scheduled game(s) have not ended ({await _unended(svc, waiting)});"
                        " the season closes once they have (a moderator may /game end one).")
    table = await table_reply(svc, league, OVERALL, final=True)
    reply = table.model_copy(update={"text": f"🏁 {league.name} is over: the final table.\n{table.text}"})
    async with svc.store.transaction() as db:
        records.close_league(db, league.id)
        _remember(db, inv, reply.model_copy(update={"attachments": []}))
    return reply


#: ``/league``: its commands in the order Discord shows them.
LEAGUE = CommandSet("league", "Club seasons: leagues, pairings, ratings and standings", [
    cmd_new, cmd_join, cmd_leave, cmd_standings, cmd_player, cmd_schedule, cmd_record, cmd_export, cmd_close,
])

__all__ = ["LEAGUE", "chosen", "leaguable", "server_of", "start_pairing", "table_reply"]
