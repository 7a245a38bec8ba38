"""The orders of set-up and concealment (19.1, 15.0).

Set-up (``phase_of`` "setup"): before the first phase, when the scenario gives a side land
mines to lay (19.1) or the game uses concealment (15.0), both sides lay and hide at once, each
ending its set-up with ``end``; the first phase (or the air war, 4.0) begins when both have.
Laying minefields (19.1) and placing and moving concealment markers (15.4) are the orders here.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rules.core.orders import Ctx, order
from rules.mak import concealment, minefields
from rules.mak import secret_actions as SA
from rules.mak.hazards import MINE_MAX
from rules.mak.refusals import refuse
from rules.mak.state import SIDE_NAMES, MakState, other
from rules.mak.table import Table

MakCtx = Ctx[MakState]


def lay_mines_offers(state: MakState, side: str) -> Iterator[Any]:
    """A representative layout (the values are not finite): one minefield of the most
    attack the total allows, in the first hex of the map no enemy unit stands in."""
    points = state.mine_points.get(side, 0)
    if points < 5 or side in state.laid:
        return
    t = Table(state)
    enemy = {u.hex for u in state.units if u.side == other(side) and u.on_map}
    for h in t.field.layout.all_hexes():
        label = t.label(h)
        if label not in enemy and label not in state.mines:
            yield SA.LayMines(fields=f"{label}={min(MINE_MAX, points)}")
            return


@order(SA.LayMines, phases="setup", offers=lay_mines_offers)
def lay_mines(ctx: MakCtx, o: SA.LayMines) -> None:
    """19.1: the whole layout, sealed (``minefields.py``)."""
    t = Table(ctx.state)
    fields = minefields.parse_layout(t, o.fields)
    refuse(minefields.lay_problem(t, ctx.side, fields))
    minefields.lay(t, ctx, fields)


def hide_offers(state: MakState, side: str) -> list[Any]:
    """15.4.1: each unit on the map that may go under a marker."""
    t = Table(state)
    return [SA.Hide(unit=u.id) for u in t.on_map(side)
            if concealment.hide_problem(t, side, u.id, 1) is None]


@order(SA.Hide, phases=("setup", "act"), offers=hide_offers)
def hide(ctx: MakCtx, o: SA.Hide) -> None:
    """15.4.1 / 15.4.3: markers over a unit and its stack, sealed."""
    t = Table(ctx.state)
    refuse(concealment.hide_problem(t, ctx.side, o.unit, o.count))
    concealment.hide(t, ctx, o.unit, o.count)


def shift_offers(state: MakState, side: str) -> list[Any]:
    """15.4.2: each placed marker moved to each unit it may cover."""
    t = Table(state)
    c = state.concealment
    if c is None:
        return []
    placed = [m for m, u in c.markers.items() if u is not None and concealment.owner(m) == side]
    return [SA.Shift(marker=m, to=u.id) for m in placed for u in t.on_map(side)
            if concealment.shift_problem(t, side, m, u.id) is None]


@order(SA.Shift, phases=("setup", "act"), offers=shift_offers)
def shift(ctx: MakCtx, o: SA.Shift) -> None:
    """15.4.2: a marker moved between units, sealed anew."""
    t = Table(ctx.state)
    refuse(concealment.shift_problem(t, ctx.side, o.marker, o.to))
    concealment.shift(t, ctx, o.marker, o.to)


def setup_sides(state: MakState) -> list[str]:
    """The sides with something to do at set-up: land mines to lay (19.1), or units on the map
    to conceal (15.0)."""
    out = []
    for side in SIDE_NAMES:
        mines = state.mine_points.get(side, 0) >= 5
        hides = state.concealment is not None and any(u.side == side and u.on_map for u in state.units)
        if mines or hides:
            out.append(side)
    return out


def setup_line(state: MakState) -> str:
    """The public sentence opening the set-up."""
    parts = []
    for side in state.setup:
        todo = []
        if state.mine_points.get(side, 0) >= 5:
            todo.append(f"lay {state.mine_points[side]} points of minefields (mines lay, 19.1)")
        if state.concealment is not None and any(u.side == side and u.on_map for u in state.units):
            todo.append(f"hide units under {len(concealment.supply(state, side))} concealment markers "
                        f"(conceal hide, 15.4)")
        parts.append(f"{SIDE_NAMES[side]} may {' and '.join(todo)}")
    return "Set-up: " + "; ".join(parts) + ". Each side gives end when done; both sealed, unseen by the other."
