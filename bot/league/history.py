"""A league's history: its export (one JSON document) and its ratings recomputed from the
games' own logs (issue 44).

:func:`recompute` reads nothing a league wrote about a game's outcome: for each counted
game, in the order it was counted, it reads the game's head state, its ``end`` audit entry
and its seat history (a side the computer played leaves it unrated) from the log, derives
the outcome as the end did (``bot/league/outcomes.py``), checks it against what the league
stored, and counts it with the one arithmetic (``bot/league/scoring.py``) from fresh
figures.  Stored and recomputed figures must be equal.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from bot.league import records
from bot.league.ending import computer_sides
from bot.league.outcomes import ended_by
from bot.league.records import OVERALL, Rating
from bot.league.scoring import count
from bot.store import BaseStore
from rules.core import registry

EXPORT_FORMAT = "referee-league/1"


class Recomputed(BaseModel):
    """The rating rows recomputed from the logs, and any disagreement with what is stored."""

    ratings: dict[str, Rating] = Field(default_factory=dict)
    problems: list[str] = Field(default_factory=list)

    def figures(self) -> dict[str, tuple[float, float, int, int, int, int]]:
        """Each row's figures, keyed ``pool/user``, for comparison."""
        return {k: (r.figure.mu, r.figure.sigma, r.played, r.won, r.drawn, r.lost) for k, r in self.ratings.items()}


def key(rating: Rating) -> str:
    """``pool/user``."""
    return f"{rating.pool}/{rating.user_id}"


async def recompute(store: BaseStore, league: records.League) -> Recomputed:
    """Every member's figures, recomputed from fresh by replaying the counted games' logs."""
    out = Recomputed()
    for member in await records.members(store, league.id, present=False):
        for pool in (OVERALL, *league.systems):
            fresh = Rating(pool=pool, user_id=member.user_id)
            out.ratings[key(fresh)] = fresh
    for result in await records.results(store, league.id):
        game = await store.game(result.game_id)
        system = registry.get(game.system)
        head = await store.step(game.id, game.head_seq)
        ends = [a for a in await store.audit(game.id) if a.action == "end"]
        if head is None or not ends or game.status != "ended":
            out.problems.append(f"game #{game.id}: its log has no end")
            continue
        ended = ended_by(system, system.load_state(head.state_json), ends[-1].data)
        winner = next((p.user_id for p in result.players if ended and p.side == ended.winner), None)
        if ended is None or ended.kind != result.outcome or winner != result.winner_id:
            out.problems.append(f"game #{game.id}: its log says {ended.kind if ended else 'unfinished'}"
                                f" won by {winner}; the league stored {result.outcome} won by {result.winner_id}")
            continue
        before = {(r.pool, r.user_id): r for r in out.ratings.values()}
        robots = computer_sides(await store.seats(game.id), await store.seat_events(game.id))
        for row in count(ended, result.players, before, game.system, league.rated and not robots).after:
            out.ratings[key(row)] = row
    return out


async def stored(store: BaseStore, league: records.League) -> dict[str, tuple[float, float, int, int, int, int]]:
    """The stored rating rows' figures, keyed as :meth:`Recomputed.figures`."""
    return {key(r): (r.figure.mu, r.figure.sigma, r.played, r.won, r.drawn, r.lost)
            for r in await records.ratings(store, league.id)}


async def export(store: BaseStore, league: records.League) -> dict[str, Any]:
    """The league's whole history as one JSON-ready document: the league, its players, its
    pairings, its counted games with the figures each moved, and its ratings."""
    return {
        "format": EXPORT_FORMAT,
        "league": league.model_dump(mode="json"),
        "members": [m.model_dump(mode="json") for m in await records.members(store, league.id, present=False)],
        "pairings": [p.model_dump(mode="json") for p in await records.pairings(store, league.id)],
        "results": [r.model_dump(mode="json") for r in await records.results(store, league.id)],
        "ratings": [r.model_dump(mode="json") for r in await records.ratings(store, league.id)],
    }


__all__ = ["EXPORT_FORMAT", "Recomputed", "export", "recompute", "stored"]
