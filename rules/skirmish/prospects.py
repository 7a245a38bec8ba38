"""How a battle stands for a side, 0 to 1: what the computer player reads (issue 43).

The battle is won by holding the objective when the last turn ends (more teams within its
radius: ``flow.finish_on_time``, our stand-in victory) or by leaving the enemy no unit.
Counting only the teams left made a computer that never went for the objective: the
Americans, who must take it from the Germans holding it, stayed back and lost on time
(4 games of 4 against ``easy``).  So a standing counts, for each side, its teams at the
objective (more as the last turn nears), its teams left, and how far its others still have
to go; the lead in those points is squashed as every system's is (``rules/core/evaluation.py``).
"""

from __future__ import annotations

from rules.core import evaluation, table
from rules.skirmish.flow import objective
from rules.skirmish.state import SIDES, SkirmishState

#: Inches from the objective's radius within which a team counts as on its way there.
APPROACH = 24.0
#: A team at the objective, at the last turn, against a team merely alive.
HOLDING = 2.0
#: A team on its way, at the objective's edge, against one at the far end of the approach.
ON_THE_WAY = 0.5
#: The points a lead is squashed by: wide, since the stand-in scenario starts 7 American
#: teams against 11 Germans at the objective, and a narrow one left every standing at its
#: floor, where the search can tell no order from another.
SCALE = 4.0


def points(state: SkirmishState, side: str) -> float:
    """``side``'s points: teams left, teams at the objective (weighted up as the last turn
    nears), and the way its other teams have still to go."""
    point = objective(state)
    radius = state.table.victory.radius
    late = min(1.0, state.turn / max(1, state.max_turn))
    total = 0.0
    for team in state.teams(side):
        gap = table.distance((point.x, point.y), team.pos) - radius
        if gap <= 0:
            total += 1.0 + HOLDING * (0.5 + 0.5 * late)
        else:
            total += 1.0 + ON_THE_WAY * max(0.0, 1.0 - gap / APPROACH)
    return total


def prospects(state: SkirmishState, side: str) -> float:
    """The final result once the battle is over, else ``side``'s lead in :func:`points`."""
    if state.finished:
        return evaluation.final(state.winner, side)
    enemy = next(s for s in SIDES if s != side)
    return evaluation.lead(points(state, side), points(state, enemy), SCALE)


__all__ = ["APPROACH", "HOLDING", "ON_THE_WAY", "SCALE", "points", "prospects"]
