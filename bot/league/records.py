"""A league's rows (migration 0013) and every SQL statement that reads or writes them.

Reads take a transaction of their own (as ``bot/scenarios.py`` and the pacing store do), so
what they read is consistent; writes are functions on a :class:`~bot.writer.Writer`, so a
command's league rows go in its one transaction.  A rating row is updated only if its
``version`` is still the one read (:func:`save_rating`): a game ending elsewhere meanwhile
makes the commit a :class:`~bot.writer.Conflict`, and the command is run again on the new
figures.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, Field

from bot.league.deadlines import Kept
from bot.league.outcomes import Kind
from bot.league.ratings import Figure
from bot.store import BaseStore
from bot.writer import Writer, utcnow

#: The pool of a rating over every system.
OVERALL = "*"


class League(BaseModel):
    """A league of a server."""

    id: int
    guild_id: str
    name: str
    systems: list[str]
    rated: bool
    status: str
    created_by: str
    created_at: str
    closed_at: str | None = None


class Member(BaseModel):
    """A player of a league, with what their reliability is read from: their ended league
    games, those lost on a deadline and those abandoned, and the deadlines those games set
    them, met and missed (``bot/league/deadlines.py``)."""

    user_id: str
    user_name: str
    joined_at: str = ""
    left_at: str | None = None
    games: int = 0
    deadline_losses: int = 0
    abandoned: int = 0
    deadlines_met: int = 0
    deadlines_missed: int = 0

    @property
    def deadlines(self) -> int:
        """How many deadlines their league games set them."""
        return self.deadlines_met + self.deadlines_missed

    def deadlines_short(self) -> str:
        """``12/13`` (deadlines met of those set), ``–`` before the first."""
        return f"{self.deadlines_met}/{self.deadlines}" if self.deadlines else "–"

    def reliability_words(self) -> str:
        """``met 12 of 13 deadlines, abandoned 0 of 4 games`` (``no deadline yet`` without
        any), with a deadline loss said too."""
        deadlines = (f"met {self.deadlines_met} of {self.deadlines} deadline{'s' if self.deadlines != 1 else ''}"
                     if self.deadlines else "no deadline yet")
        games = f"abandoned {self.abandoned} of {self.games} game{'s' if self.games != 1 else ''}"
        lost = f", {self.deadline_losses} lost on a deadline" if self.deadline_losses else ""
        return f"{deadlines}, {games}{lost}"


class Pairing(BaseModel):
    """One game of a round: the first player takes the system's first side."""

    id: int
    league_id: int
    round: int
    system: str
    first_id: str
    first_name: str
    second_id: str | None = None
    second_name: str | None = None
    channel_id: str | None = None
    game_id: int | None = None
    state: str = "waiting"

    def names(self) -> str:
        """``alice v bob`` (``alice: bye``)."""
        return f"{self.first_name} v {self.second_name}" if self.second_id else f"{self.first_name}: bye"


class Rating(BaseModel):
    """A player's figure and record in one pool, with the version its update is guarded by."""

    pool: str
    user_id: str
    figure: Figure = Field(default_factory=Figure)
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    version: int = 0

    @property
    def points(self) -> float:
        """League points: 1 a win, ½ a draw."""
        return self.won + self.drawn / 2


class Player(BaseModel):
    """Who played a side of a counted game (``computer``: a seat the computer held)."""

    side: str
    user_id: str
    user_name: str
    computer: bool = False


class Result(BaseModel):
    """A counted game: its outcome, its players and the figures it moved."""

    id: int = 0
    league_id: int
    game_id: int
    pairing_id: int | None = None
    system: str
    outcome: Kind
    winner_id: str | None
    players: list[Player]
    rated: bool
    steps: int
    turns: int | None = None
    expected: float | None = None
    #: Each player's figures before and after, by pool then user: ``{"rr": {"alice":
    #: {"before": {...}, "after": {...}}}}``.
    ratings: dict[str, dict[str, dict[str, Figure]]] = Field(default_factory=dict)
    recorded_by: str = "referee"
    created_at: str = ""


# -- reads -------------------------------------------------------------------------------

_LEAGUE = "SELECT id, guild_id, name, systems, rated, status, created_by, created_at, closed_at FROM leagues"


def _league(row: Any) -> League:
    return League(id=row[0], guild_id=row[1], name=row[2], systems=row[3].split(","), rated=bool(row[4]),
                  status=row[5], created_by=row[6], created_at=row[7], closed_at=row[8])


async def _all(store: BaseStore, sql: str, args: tuple[Any, ...] = ()) -> list[Any]:
    async with store.transaction() as db:
        return await db.fetchall(sql, args)


async def leagues(store: BaseStore, guild_id: str, *, status: str | None = "open") -> list[League]:
    """A server's leagues (``status`` None: closed ones too), oldest first."""
    if status is None:
        rows = await _all(store, f"{_LEAGUE} WHERE guild_id = ? ORDER BY id", (guild_id,))
    else:
        rows = await _all(store, f"{_LEAGUE} WHERE guild_id = ? AND status = ? ORDER BY id", (guild_id, status))
    return [_league(r) for r in rows]


async def league(store: BaseStore, league_id: int) -> League | None:
    """A league by id."""
    rows = await _all(store, f"{_LEAGUE} WHERE id = ?", (league_id,))
    return _league(rows[0]) if rows else None


_MEMBER = ("SELECT user_id, user_name, joined_at, left_at, games, deadline_losses, abandoned, deadlines_met,"
           " deadlines_missed FROM league_members")


def _member(row: Any) -> Member:
    return Member(user_id=row[0], user_name=row[1], joined_at=row[2], left_at=row[3], games=row[4],
                  deadline_losses=row[5], abandoned=row[6], deadlines_met=row[7], deadlines_missed=row[8])


async def members(store: BaseStore, league_id: int, *, present: bool = True) -> list[Member]:
    """A league's players in the order they joined (``present``: only those still in it)."""
    where = " AND left_at IS NULL" if present else ""
    rows = await _all(store, f"{_MEMBER} WHERE league_id = ?{where} ORDER BY joined_at, user_id", (league_id,))
    return [_member(r) for r in rows]


_PAIRING = ("SELECT id, league_id, round, system, first_id, first_name, second_id, second_name, channel_id,"
            " game_id, state FROM league_pairings")


def _pairing(row: Any) -> Pairing:
    keys = ("id", "league_id", "round", "system", "first_id", "first_name", "second_id", "second_name",
            "channel_id", "game_id", "state")
    return Pairing(**{k: row[i] for i, k in enumerate(keys)})


async def pairings(store: BaseStore, league_id: int) -> list[Pairing]:
    """Every pairing of a league, round by round."""
    rows = await _all(store, f"{_PAIRING} WHERE league_id = ? ORDER BY round, id", (league_id,))
    return [_pairing(r) for r in rows]


async def pairing(store: BaseStore, pairing_id: int) -> Pairing | None:
    """One pairing by id."""
    rows = await _all(store, f"{_PAIRING} WHERE id = ?", (pairing_id,))
    return _pairing(rows[0]) if rows else None


async def pairing_of_game(store: BaseStore, game_id: int) -> Pairing | None:
    """The pairing a game was scheduled for, if any."""
    rows = await _all(store, f"{_PAIRING} WHERE game_id = ?", (game_id,))
    return _pairing(rows[0]) if rows else None


_RATING = "SELECT pool, user_id, mu, sigma, played, won, drawn, lost, version FROM league_ratings"


def _rating(row: Any) -> Rating:
    return Rating(pool=row[0], user_id=row[1], figure=Figure(mu=row[2], sigma=row[3]), played=row[4],
                  won=row[5], drawn=row[6], lost=row[7], version=row[8])


async def ratings(store: BaseStore, league_id: int, pool: str | None = None) -> list[Rating]:
    """A league's rating rows (of one pool, or all)."""
    if pool is None:
        rows = await _all(store, f"{_RATING} WHERE league_id = ? ORDER BY pool, user_id", (league_id,))
    else:
        rows = await _all(store, f"{_RATING} WHERE league_id = ? AND pool = ? ORDER BY user_id", (league_id, pool))
    return [_rating(r) for r in rows]


_RESULT = ("SELECT id, league_id, game_id, pairing_id, system, outcome, winner_id, players, rated, steps, turns,"
           " expected, ratings, recorded_by, created_at FROM league_results")


def _result(row: Any) -> Result:
    return Result(id=row[0], league_id=row[1], game_id=row[2], pairing_id=row[3], system=row[4], outcome=row[5],
                  winner_id=row[6], players=json.loads(row[7]), rated=bool(row[8]), steps=row[9], turns=row[10],
                  expected=row[11], ratings=json.loads(row[12]), recorded_by=row[13], created_at=row[14])


async def results(store: BaseStore, league_id: int) -> list[Result]:
    """A league's counted games in the order they were counted (the order ratings moved)."""
    rows = await _all(store, f"{_RESULT} WHERE league_id = ? ORDER BY id", (league_id,))
    return [_result(r) for r in rows]


async def leagues_of_game(store: BaseStore, game_id: int) -> list[int]:
    """The leagues that already counted a game."""
    rows = await _all(store, "SELECT league_id FROM league_results WHERE game_id = ?", (game_id,))
    return [int(r[0]) for r in rows]


# -- writes ------------------------------------------------------------------------------

async def create_league(db: Writer, guild_id: str, name: str, systems: list[str], rated: bool,
                        created_by: str) -> int:
    """A new open league; its id."""
    row = await db.fetchone(
        "INSERT INTO leagues (guild_id, name, systems, rated, created_by, created_at) VALUES (?,?,?,?,?,?)"
        " RETURNING id", (guild_id, name, ",".join(systems), int(rated), created_by, utcnow()))
    assert row is not None
    return int(row[0])


def add_member(db: Writer, league: League, user_id: str, user_name: str) -> None:
    """Put a player in a league (again, if they had left), with a fresh rating in every pool
    they have none in yet (a player who comes back keeps their figures)."""
    db.execute(
        "INSERT INTO league_members (league_id, user_id, user_name, joined_at) VALUES (?,?,?,?)"
        " ON CONFLICT (league_id, user_id) DO UPDATE SET left_at = NULL, user_name = excluded.user_name",
        (league.id, user_id, user_name, utcnow()))
    fresh = Figure()
    db.executemany(
        "INSERT INTO league_ratings (league_id, pool, user_id, mu, sigma) VALUES (?,?,?,?,?)"
        " ON CONFLICT (league_id, pool, user_id) DO NOTHING",
        [(league.id, pool, user_id, fresh.mu, fresh.sigma) for pool in [OVERALL, *league.systems]])


def remove_member(db: Writer, league_id: int, user_id: str) -> None:
    """A player leaves a league (their rows stay)."""
    db.execute("UPDATE league_members SET left_at = ? WHERE league_id = ? AND user_id = ?",
               (utcnow(), league_id, user_id))


async def add_pairing(db: Writer, league_id: int, round_no: int, system: str, first: Member,
                      second: Member | None) -> int:
    """A pairing of a round (``second`` None: a bye); its id."""
    row = await db.fetchone(
        "INSERT INTO league_pairings (league_id, round, system, first_id, first_name, second_id, second_name,"
        " state, created_at) VALUES (?,?,?,?,?,?,?,?,?) RETURNING id",
        (league_id, round_no, system, first.user_id, first.user_name, second.user_id if second else None,
         second.user_name if second else None, "waiting" if second else "bye", utcnow()))
    assert row is not None
    return int(row[0])


def open_pairing(db: Writer, pairing_id: int, channel_id: str, game_id: int) -> None:
    """A pairing's game is under way in ``channel_id`` (guarded: opened once)."""
    db.execute_guarded(
        "UPDATE league_pairings SET channel_id = ?, game_id = ?, state = 'playing' WHERE id = ? AND state = 'waiting'",
        (channel_id, game_id, pairing_id))


def set_pairing_state(db: Writer, pairing_id: int, state: str) -> None:
    """A pairing's game ended: ``done`` (counted) or ``abandoned`` (ended before its end)."""
    db.execute("UPDATE league_pairings SET state = ? WHERE id = ?", (state, pairing_id))


def save_rating(db: Writer, league_id: int, rating: Rating) -> None:
    """Store a rating row moved on from the version it was read at (else a Conflict)."""
    db.execute_guarded(
        "UPDATE league_ratings SET mu = ?, sigma = ?, played = ?, won = ?, drawn = ?, lost = ?,"
        " version = version + 1 WHERE league_id = ? AND pool = ? AND user_id = ? AND version = ?",
        (rating.figure.mu, rating.figure.sigma, rating.played, rating.won, rating.drawn, rating.lost,
         league_id, rating.pool, rating.user_id, rating.version))


def count_games(db: Writer, league_id: int, user_id: str, *, deadline_loss: bool = False,
                abandoned: bool = False, kept: Kept | None = None) -> None:
    """One more ended league game for a player's reliability, with the deadlines it set them
    (``kept``: met and missed)."""
    kept = kept or Kept()
    db.execute(
        "UPDATE league_members SET games = games + 1, deadline_losses = deadline_losses + ?,"
        " abandoned = abandoned + ?, deadlines_met = deadlines_met + ?, deadlines_missed = deadlines_missed + ?"
        " WHERE league_id = ? AND user_id = ?",
        (int(deadline_loss), int(abandoned), kept.met, kept.missed, league_id, user_id))


def add_result(db: Writer, result: Result) -> None:
    """Keep a counted game (once per league: the UNIQUE pair refuses a second count)."""
    db.execute(
        "INSERT INTO league_results (league_id, game_id, pairing_id, system, outcome, winner_id, players, rated,"
        " steps, turns, expected, ratings, recorded_by, created_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        (result.league_id, result.game_id, result.pairing_id, result.system, result.outcome, result.winner_id,
         json.dumps([p.model_dump() for p in result.players]), int(result.rated), result.steps, result.turns,
         result.expected, json.dumps({pool: {u: {k: f.model_dump() for k, f in v.items()} for u, v in by.items()}
                                      for pool, by in result.ratings.items()}),
         result.recorded_by, utcnow()))


def close_league(db: Writer, league_id: int) -> None:
    """End a league's season (guarded: closed once)."""
    db.execute_guarded("UPDATE leagues SET status = 'closed', closed_at = ? WHERE id = ? AND status = 'open'",
                       (utcnow(), league_id))


__all__ = [
    "OVERALL", "League", "Member", "Pairing", "Player", "Rating", "Result", "add_member", "add_pairing",
    "add_result", "close_league", "count_games", "create_league", "league", "leagues", "leagues_of_game",
    "members", "open_pairing", "pairing", "pairing_of_game", "pairings", "ratings", "remove_member",
    "results", "save_rating", "set_pairing_state",
]
