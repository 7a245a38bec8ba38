"""How far a force moves by road or track (12.0, 24.0 (1)): the spaces that halt a move and
the spaces within reach.

Asked by the move itself (:mod:`rules.raiders.operations`) and by the questions its offers are
built from (:mod:`rules.raiders.hints`), so both read one reach.
"""

from __future__ import annotations

from rules.raiders.forces import Ctx, allowance, members
from rules.raiders.objectives import on_board


def stops(ctx: Ctx) -> set[str]:
    """12.0: spaces that end a move: STOP terrain and spaces holding an objective marker."""
    sc = ctx.sc
    return {s.id for s in sc.spaces if sc.stop(s.id)} | {mk.space for mk in on_board(ctx.m) if mk.space}


def reach(ctx: Ctx, force_id: str, extra: int = 0) -> dict[str, int]:
    """Spaces a force can end its move in by road/track, with the distance (12.0, 24.0 (1))."""
    units = members(ctx.m, force_id)
    start = units[0].space
    assert start is not None
    return ctx.sc.network.reachable(start, steps(ctx, force_id, extra), stops=stops(ctx))


def steps(ctx: Ctx, force_id: str, extra: int = 0) -> int:
    """12.0: the slowest unit's movement, + 1 on a forced march (24.0 (1)).

    4.0: a static unit (movement 0) never moves, forced march or not.
    """
    base = allowance(ctx.sc, members(ctx.m, force_id))
    return base + extra if base > 0 else 0
