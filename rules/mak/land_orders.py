"""The orders of vehicles (13.0) and off-board artillery (17.0), as a mixin of the system.

``MaschinenKrieger`` inherits :class:`LandOrders`; ``collect_rules`` finds these ``@order``
methods through the MRO.  Legality lives in ``transport.py``, ``overrun.py`` and
``artillery.py`` (one ``*_problem`` each, used by both the resolver and the offers).
"""

from __future__ import annotations

from typing import Any

from rules.core.errors import RuleError
from rules.core.orders import Ctx, order
from rules.mak import artillery, concealment, overrun, transport
from rules.mak import land_actions as L
from rules.mak.state import MakState
from rules.mak.table import Table

MakCtx = Ctx[MakState]


def _raise(problem: str | None) -> None:
    if problem:
        raise RuleError(problem)


class LandOrders:
    """``load`` (and unload) and ``overrun`` (13.1-13.2); artillery requests (17.1) are
    ``indirect`` orders naming a battery (``system.indirect``)."""

    @order(L.Load, phases="act", offers=lambda system, state, side: transport.load_offers(state, side)
           + transport.unload_offers(state, side))
    def load(self, ctx: MakCtx, o: L.Load) -> None:
        """13.1.2: board a truck or hover tank, or (``way:out``) get out for half the points."""
        t = Table(ctx.state)
        if o.way == "out":
            _raise(transport.unload_problem(t, ctx.side, o))
            transport.unload(t, ctx, o)
        else:
            _raise(transport.load_problem(t, ctx.side, o))
            transport.load(t, ctx, o)

    @order(L.Overrun, phases="act", offers=lambda system, state, side: overrun.offers(state, side))
    def overrun(self, ctx: MakCtx, o: L.Overrun) -> None:
        """13.2: drive through an enemy hex, attacking."""
        t = Table(ctx.state)
        found = overrun.plan(t, ctx.side, o)
        if isinstance(found, str):
            raise RuleError(found)
        overrun.start(t, ctx, o)


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
