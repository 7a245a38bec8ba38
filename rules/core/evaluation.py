"""Scores the computer player reads (issue 43): a game's standing as a number from 0 to 1.

Shared by every system's :meth:`~rules.core.contract.GameSystem.evaluate`: the end of a game
is a win (1), a loss (0) or a draw (0.5); before it, a lead in the system's own points is
squashed into the open interval, so that any final result outweighs any standing.
"""

from __future__ import annotations

import math

#: How far from 0 and 1 a standing stays before the end (a win always counts more).
MARGIN = 0.05


def final(winner: str | None, side: str) -> float:
    """A finished game for ``side``: 1 it won, 0 another side won, 0.5 nobody did."""
    if winner is None:
        return 0.5
    return 1.0 if winner == side else 0.0


def lead(mine: float, theirs: float, scale: float) -> float:
    """A standing from ``side``'s points and the other side's: 0.5 when even, towards 1 as
    ``mine`` leads by a few ``scale``, never reaching ``MARGIN`` of either end."""
    squashed = 1.0 / (1.0 + math.exp(-(mine - theirs) / scale))
    return MARGIN + (1.0 - 2 * MARGIN) * squashed


def share(part: float, whole: float) -> float:
    """``part`` of ``whole`` as a standing within the open interval (0 when whole is 0)."""
    fraction = part / whole if whole > 0 else 0.0
    return MARGIN + (1.0 - 2 * MARGIN) * min(1.0, max(0.0, fraction))


__all__ = ["MARGIN", "final", "lead", "share"]
