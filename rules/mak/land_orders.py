"""The orders of vehicles (13.0): ``load`` (and unload) and ``overrun`` (13.1-13.2), and the
labels of off-board artillery (17.0; its requests are ``indirect`` orders naming a battery,
``ground_orders.indirect``).  Legality lives in ``transport.py``, ``overrun.py`` and
``artillery.py`` (one ``*_problem`` each, used by both the resolver and the offers).
"""

from __future__ import annotations

from typing import Any

from rules.core.errors import RuleError
from rules.core.orders import Ctx, order
from rules.mak import artillery, concealment, transport
from rules.mak import overrun as overruns
from rules.mak import land_actions as L
from rules.mak.refusals import refuse
from rules.mak.state import MakState
from rules.mak.table import Table

MakCtx = Ctx[MakState]


def load_offers(state: MakState, side: str) -> list[Any]:
    """13.1.2: the riders that may board a vehicle here, and those that may get out."""
    return transport.load_offers(state, side) + transport.unload_offers(state, side)


@order(L.Load, phases="act", offers=load_offers)
def load(ctx: MakCtx, o: L.Load) -> None:
    """13.1.2: board a truck or hover tank, or (``way:out``) get out for half the points."""
    t = Table(ctx.state)
    if o.way == "out":
        refuse(transport.unload_problem(t, ctx.side, o))
        transport.unload(t, ctx, o)
    else:
        refuse(transport.load_problem(t, ctx.side, o))
        transport.load(t, ctx, o)


@order(L.Overrun, phases="act", offers=overruns.offers)
def overrun(ctx: MakCtx, o: L.Overrun) -> None:
    """13.2: drive through an enemy hex, attacking."""
    t = Table(ctx.state)
    found = overruns.plan(t, ctx.side, o)
    if isinstance(found, str):
        raise RuleError(found)
    overruns.start(t, ctx, o)


def label(state: MakState, action: str, field: str, value: str, partial: dict[str, Any],
          side: str | None = None) -> str | None:
    """Autocomplete labels of the new orders' fields (None: the system's own label); ``side``
    sees an enemy stack under concealment markers as its markers (15.4.3)."""
    if action == "indirect" and field == "unit":
        b = next((x for x in state.batteries if x.id == value), None)
        if b is not None:
            return f"{b.id} · Type {b.type} artillery, {artillery.rounds_left(state, b)} round(s) left ({b.code})"
    if action == "indirect" and field == "at":
        aboard = {u.id for u in state.at(value) if u.aboard}
        return f"{value} · {', '.join(x for x in concealment.seen_in(state, side, value) if x not in aboard)}"
    if action == "load" and field == "rider":
        u = state.find(value)
        if u is not None:
            return f"{u.id} {'out of ' + u.aboard if u.aboard else 'into the vehicle'} in {u.hex}"
    if action == "overrun" and field == "target":
        u = state.find(value)
        if u is not None:
            return f"{u.id} in {u.hex}"
    return None
