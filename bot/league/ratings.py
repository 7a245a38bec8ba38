"""Ratings: OpenSkill's Weng-Lin Bayesian rating, Plackett-Luce model (``openskill``).

Why OpenSkill and not a hand-written Elo or a Glicko-2 package: it is maintained (6.x,
typed, MIT), pure Python with no dependency, deterministic (the same results in the same
order give the same figures, which the recomputation from the logs relies on), and gives
each player a mean and an uncertainty that shrinks as they play, so a new member's first
games move them a lot and a veteran's little; a draw is a tie of ranks.  The Glicko-2
packages on PyPI are unmaintained single-author ports.

A figure is ``mu`` (the skill estimate, 25 to start) and ``sigma`` (its uncertainty, 25/3
to start); a table shows ``mu ± sigma`` and ranks by the conservative ``mu - 3 sigma``.
"""

from __future__ import annotations

from openskill.models import PlackettLuce, PlackettLuceRating
from pydantic import BaseModel

#: The model every figure of every league is computed with (its defaults: mu 25, sigma 25/3).
MODEL = PlackettLuce()


class Figure(BaseModel):
    """One player's rating in one pool (a system, or every system)."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma

    @property
    def ordinal(self) -> float:
        """The conservative estimate a table ranks by: ``mu - 3 sigma``."""
        return self.mu - 3 * self.sigma

    def words(self) -> str:
        """``27.6 ± 8.1``, as a table and a screen reader read it."""
        return f"{self.mu:.1f} ± {self.sigma:.1f}"

    def _model(self) -> PlackettLuceRating:
        return MODEL.rating(mu=self.mu, sigma=self.sigma)


def rate(first: Figure, second: Figure, winner: int | None) -> tuple[Figure, Figure]:
    """Both figures after one game between them: ``winner`` is 0 (the first won), 1 (the
    second won) or None (a draw: tied ranks)."""
    ranks = [1.0, 1.0] if winner is None else ([1.0, 2.0] if winner == 0 else [2.0, 1.0])
    [[a], [b]] = MODEL.rate([[first._model()], [second._model()]], ranks=ranks)
    return Figure(mu=a.mu, sigma=a.sigma), Figure(mu=b.mu, sigma=b.sigma)


def win_chance(player: Figure, opponent: Figure) -> float:
    """The chance the model gave ``player`` of beating ``opponent`` before their game (the
    lower a winner's, the bigger the upset)."""
    chances = MODEL.predict_win([[player._model()], [opponent._model()]])
    return float(chances[0])


__all__ = ["MODEL", "Figure", "rate", "win_chance"]
