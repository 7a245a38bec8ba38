"""The league's rows of a game's end, written in the transaction that ends it (issue 44).

The ledger asks :meth:`LeagueEnds.rows_for` (given at construction, like the pacer's rows)
for every commit that ends a game: a game scheduled by a league is counted there and then
(its result, both players' figures in the system's pool and overall, their reliability,
the pairing done), so a standings table never shows a game as ended and uncounted.  A
league game a moderator ended before the rules did is not counted: its pairing is marked
abandoned, against the players who left it, else those it waited on.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from bot.games import LiveGame
from bot.league import records
from bot.league.deadlines import kept_deadlines
from bot.league.outcomes import Ended, ended_by
from bot.league.records import OVERALL, Pairing, Player, Rating, Result
from bot.league.scoring import count
from bot.ledger import EndPlan, Plan
from bot.pacing.clock import Clock
from bot.store import BaseStore, SeatEvent, SeatRow
from bot.writer import Writer

#: How the user id of a seat the computer holds begins (issue 43's computer player seats
#: ``computer:<level>:<side>``; a Discord or console user id never begins so).
COMPUTER_PREFIX = "computer:"


def computer_user(user_id: str) -> bool:
    """Whether a seat's user is the computer: a game it played a side of is never rated."""
    return user_id.startswith(COMPUTER_PREFIX)


def computer_seat(seat: SeatRow) -> bool:
    """Whether the computer holds a seat."""
    return computer_user(seat.user_id)


def computer_sides(seats: list[SeatRow], seat_log: list[SeatEvent]) -> set[str]:
    """The sides the computer held at any time in a game (its seat now, or in its seat
    history): a game the computer played a side of, even for a while, is never rated."""
    now = {s.side for s in seats if computer_seat(s)}
    return now | {e.side for e in seat_log if e.side and e.event in ("join", "seat") and computer_user(e.user_id)}


def seated_players(game: LiveGame) -> list[Player]:
    """Who holds each side of ``game`` now, in the system's order of sides."""
    out = []
    for side in game.system.sides:
        seat = game.holder(side)
        if seat is not None:
            out.append(Player(side=side, user_id=seat.user_id, user_name=seat.user_name,
                              computer=computer_seat(seat)))
    return out


def paired_players(game: LiveGame, pairing: Pairing) -> list[Player]:
    """The pairing's two members on the sides they were given (a substitute who finished a
    game for one of them plays for them: the league rates its members); a side the computer
    holds at the end is the computer's."""
    sides = game.system.sides

    def robot(side: str) -> bool:
        seat = game.holder(side)
        return seat is not None and computer_seat(seat)

    return [Player(side=sides[0], user_id=pairing.first_id, user_name=pairing.first_name, computer=robot(sides[0])),
            Player(side=sides[1], user_id=pairing.second_id or "", user_name=pairing.second_name or "",
                   computer=robot(sides[1]))]


@dataclass
class Counting:
    """A game counted for a league: the writes and the lines the end's reply ends with."""

    writes: list[Callable[[Writer], None]] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)


async def counting(store: BaseStore, league: records.League, game: LiveGame, ended: Ended,
                   players: list[Player], now: datetime, *, pairing_id: int | None, recorded_by: str) -> Counting:
    """Count ``game`` (ended as ``ended``, at ``now``: the deadlines it set are read as of
    then) for ``league``: the rows to write, read at the figures' current versions, and the
    reply's lines."""
    system = game.system.key
    rows = {(r.pool, r.user_id): r for r in await records.ratings(store, league.id)
            if r.pool in (system, OVERALL)}
    humans = [p for p in players if not p.computer]
    before = {(pool, p.user_id): rows.get((pool, p.user_id)) or Rating(pool=pool, user_id=p.user_id)
              for pool in (system, OVERALL) for p in humans}
    # Unrated when the computer played a side, now or for a while (its seat history).
    counted = count(ended, players, before, system, league.rated and not computer_sides(game.seats, game.seat_log))
    kept = await kept_deadlines(store, game.row.id, now, by_the_rules=ended.kind in ("win", "draw"))
    state = game.state
    turn = game.system.turn(state).number
    result = Result(league_id=league.id, game_id=game.row.id, pairing_id=pairing_id, system=system,
                    outcome=ended.kind, winner_id=next((p.user_id for p in players if p.side == ended.winner), None),
                    players=players, rated=bool(counted.figures), steps=game.row.head_seq, turns=turn,
                    expected=counted.expected, ratings=counted.figures, recorded_by=recorded_by)

    def write(db: Writer) -> None:
        for row in counted.after:
            if (row.pool, row.user_id) in rows:
                records.save_rating(db, league.id, row)
        for p in humans:
            records.count_games(db, league.id, p.user_id, kept=kept.get(p.side),
                                deadline_loss=ended.kind == "deadline" and p.side != ended.winner)
        records.add_result(db, result)
        if pairing_id is not None:
            records.set_pairing_state(db, pairing_id, "done")

    return Counting([write], result_lines(league, result, ended))


def result_lines(league: records.League, result: Result, ended: Ended) -> list[str]:
    """``🏆 League Autumn: counted (win) · alice 25.0 → 27.6 ± 8.1 · bob …``."""
    kind = {"win": "a win", "draw": "a draw", "concession": "a concession", "deadline": "a deadline loss"}[ended.kind]
    head = f"🏆 League {league.name}: counted as {kind}"
    figures = result.ratings.get(result.system, {})
    if not figures:
        why = "unrated league" if not league.rated else "a computer seat: unrated"
        return [f"{head} ({why})."]
    moved = [f"{p.user_name} {figures[p.user_id]['before'].mu:.1f} → {figures[p.user_id]['after'].words()}"
             for p in result.players if p.user_id in figures]
    return [f"{head}; {result.system} ratings: " + " · ".join(moved)]


def blamed(game: LiveGame, players: list[Player]) -> list[str]:
    """Who abandoned a league game a moderator ended unfinished: the players who left it or
    were removed, else those it was waiting on."""
    ids = {p.user_id for p in players}
    gone = [e.user_id for e in game.seat_log if e.event in ("leave", "kick") and e.user_id in ids]
    if gone:
        return list(dict.fromkeys(gone))
    waiting = set(game.system.waiting_on(game.state))
    return [p.user_id for p in players if p.side in waiting]


async def abandoning(store: BaseStore, league: records.League, game: LiveGame, pairing: Pairing,
                     now: datetime) -> Counting:
    """The rows of a league game ended before the rules ended it: not counted, the pairing
    abandoned, the abandonment counted against :func:`blamed` (the deadlines it set so far
    count as met or missed)."""
    players = paired_players(game, pairing)
    against = blamed(game, players)
    kept = await kept_deadlines(store, game.row.id, now, by_the_rules=False)

    def write(db: Writer) -> None:
        for p in players:
            records.count_games(db, league.id, p.user_id, abandoned=p.user_id in against, kept=kept.get(p.side))
        records.set_pairing_state(db, pairing.id, "abandoned")

    names = ", ".join(p.user_name for p in players if p.user_id in against) or "nobody"
    return Counting([write], [f"🏆 League {league.name}: not counted (ended before the rules ended it);"
                              f" abandoned by {names}."])


class LeagueEnds:
    """The league's part of a commit that ends a game (:data:`bot.ledger.EndRows`)."""

    def __init__(self, store: BaseStore, clock: Clock) -> None:
        self.store = store
        self.clock = clock

    async def rows_for(self, plan: Plan) -> EndPlan | None:
        """The rows counting the game ``plan`` ends, when a league scheduled it."""
        if not plan.change.end:
            return None
        game = plan.game
        pairing = await records.pairing_of_game(self.store, game.row.id)
        if pairing is None or pairing.state != "playing":
            return None
        league = await records.league(self.store, pairing.league_id)
        if league is None or league.status != "open":
            return None
        audit = plan.change.audit
        ended = ended_by(game.system, game.state, audit.data if audit else {})
        if ended is None:
            done = await abandoning(self.store, league, game, pairing, self.clock.now())
        else:
            done = await counting(self.store, league, game, ended, paired_players(game, pairing), self.clock.now(),
                                  pairing_id=pairing.id, recorded_by="referee")
        return EndPlan(writes=done.writes, lines=done.lines)


__all__ = ["COMPUTER_PREFIX", "Counting", "LeagueEnds", "abandoning", "blamed", "computer_seat", "computer_sides",
           "computer_user", "counting", "paired_players", "result_lines", "seated_players"]
