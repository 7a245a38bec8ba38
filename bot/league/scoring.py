"""Counting one game (pure): the rating rows it moves and the figures its result keeps.

The one function :func:`count` is used where a game's end is committed
(``bot/league/ending.py``), by ``/league record`` and by the recomputation from the logs
(``bot/league/history.py``), so a stored figure and a recomputed one come from the same
arithmetic, in the same order.
"""

from __future__ import annotations

from pydantic import BaseModel

from bot.league import ratings
from bot.league.outcomes import Ended
from bot.league.records import OVERALL, Player, Rating


class Counted(BaseModel):
    """What counting a game gives: the rating rows after it, the figures before and after by
    pool and player, and the winner's chance before the game."""

    after: list[Rating]
    figures: dict[str, dict[str, dict[str, ratings.Figure]]]
    expected: float | None


def count(ended: Ended, players: list[Player], before: dict[tuple[str, str], Rating], system: str,
          rated: bool) -> Counted:
    """The rows of every human player in the system's pool and overall after ``ended``.

    ``before`` holds each ``(pool, user_id)`` row as read.  A game with a computer seat, or
    of an unrated league, moves no figure (played, won, drawn and lost still count); a draw
    ties the ranks; a concession and a deadline loss rate as the loser's loss.
    """
    humans = [p for p in players if not p.computer]
    rated = rated and len(humans) == 2 == len(players)
    winner = next((p.user_id for p in players if p.side == ended.winner), None)
    after: list[Rating] = []
    figures: dict[str, dict[str, dict[str, ratings.Figure]]] = {}
    expected: float | None = None
    for pool in (system, OVERALL):
        rows = [before[(pool, p.user_id)] for p in humans]
        moved = [r.figure for r in rows]
        if rated:
            first, second = rows
            at = None if winner is None else (0 if winner == first.user_id else 1)
            moved = list(ratings.rate(first.figure, second.figure, at))
            if pool == system and at is not None:
                expected = ratings.win_chance(rows[at].figure, rows[1 - at].figure)
            figures[pool] = {r.user_id: {"before": r.figure, "after": m} for r, m in zip(rows, moved)}
        for row, figure in zip(rows, moved):
            after.append(row.model_copy(update={
                "figure": figure, "played": row.played + 1,
                "won": row.won + (winner == row.user_id),
                "drawn": row.drawn + (winner is None),
                "lost": row.lost + (winner is not None and winner != row.user_id),
            }))
    return Counted(after=after, figures=figures, expected=expected)


__all__ = ["Counted", "count"]
