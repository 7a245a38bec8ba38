"""Transporting with a vehicle unit (13.1): loading and unloading, as orders.

13.1.2 "The units being transported are stacked under the vehicle unit, to indicate that they
are loaded.  The vehicle unit may not move on the turn that is loads.  On the next turn, the
vehicle may move its regular allowance.  When a unit unloads from the vehicle unit, it must
spend half of its movement points (engaging in close quarters combat is possible)."
13.1.4 "Units being transported may fire.  However, they cannot fire and unload in the same
phase."  14.1 "An Infantry unit cannot make any additional movement when loading or
unloading from a vehicle."
"""

from __future__ import annotations

from rules.core.errors import RuleError
from rules.core.orders import Ctx
from rules.mak import land_actions as L
from rules.mak.data import unit_stats
from rules.mak.refusals import busy, own
from rules.mak.resolve import arrive, finish_moving
from rules.mak.state import MakState, Mark, UnitState
from rules.mak.table import Table
from rules.mak.vehicles import capacity, load_used, passengers, ride_problem


def _points(t: Table) -> dict[str, int]:
    return {u.type: t.stats(u).points for u in t.s.units}


def load_problem(t: Table, side: str, order: L.Load) -> str | None:
    """13.1: why ``order.rider`` may not board ``order.unit`` now, or None."""
    v = own(t, side, order.unit)
    if isinstance(v, str):
        return v
    r = own(t, side, order.rider)
    if isinstance(r, str):
        return r
    if not v.on_map or not r.on_map or v.hex != r.hex or v.id == r.id:
        return f"{r.id} must be in {v.id}'s hex to board it (13.1.2)."
    why = ride_problem(t.stats(v), t.stats(r))
    if why:
        return why + "."
    if v.aboard or r.aboard or r.carrying or any(x.carrying == r.id for x in t.s.units):
        return f"{r.id} or {v.id} is already transported or carrying (7.3, 13.1)."
    room = capacity(t.stats(v)) - load_used(t.s, v.id, _points(t))
    if t.stats(r).points > room:
        return f"{v.id} has {room} of {capacity(t.stats(v))} stack points free; {r.id} needs {t.stats(r).points} (13.1.5)."
    if v.moved or v.mp_spent:
        return f"{v.id} has moved this phase; a vehicle may not move on the turn it loads (13.1.2)."
    if r.attacked or r.struck or r.move_done:
        return f"{r.id} has attacked or finished its move this phase (7.2.1, 7.2.5)."
    if t.in_melee(v):
        return f"{v.id} is in close quarters (13.2)."
    return busy(t, r)


def load_offers(state: MakState, side: str) -> list[L.Load]:
    """Every legal boarding."""
    t = Table(state)
    out = []
    for v in t.on_map(side):
        if not capacity(t.stats(v)):
            continue
        for r in t.in_hex(t.hex(v), side):
            o = L.Load(unit=v.id, rider=r.id)
            if r.id != v.id and load_problem(t, side, o) is None:
                out.append(o)
    return out


def load(t: Table, ctx: Ctx[MakState], order: L.Load) -> None:
    """13.1.2: the rider goes under the vehicle; the vehicle stays put this turn."""
    v, r = ctx.state.find(order.unit), ctx.state.find(order.rider)
    assert v is not None and r is not None
    finish_moving(ctx.state)
    r.aboard = v.id
    r.loaded_turn = ctx.state.turn
    r.moved = r.move_done = True  # 14.1: no further movement (a loaded unit's move is over)
    v.loaded_turn = ctx.state.turn
    ctx.say("load", f"{r.id} boards {v.id} in {v.hex}; {v.id} may not move this turn (13.1.2)", "13.1.2")
    ctx.snapshot = True


def unload_problem(t: Table, side: str, order: L.Load) -> str | None:
    """13.1.2 / 13.1.4: why the rider may not get out now, or None."""
    r = own(t, side, order.rider)
    if isinstance(r, str):
        return r
    v = t.s.find(order.unit)
    if not r.aboard or not r.on_map or v is None or r.aboard != v.id:
        return f"{r.id} is not transported by {order.unit[:20]}."
    if r.attacked or r.struck:
        return f"{r.id} fired this phase and may not unload (13.1.4, 13.2.3)."
    if r.loaded_turn == t.s.turn:
        return f"{r.id} boarded this turn (13.1.2)."
    if t.in_melee(v):
        return f"{v.id} is in close quarters; {r.id} stays in (13.2)."
    if t.stacking(side, r.hex or "", [r]) is not None:
        return f"{r.hex} has no room for {r.id} (8.2)."
    return busy(t, r)


def unload_offers(state: MakState, side: str) -> list[L.Load]:
    """Every legal unloading."""
    t = Table(state)
    offers = [L.Load(unit=u.aboard, rider=u.id, way="out") for u in t.on_map(side) if u.aboard]
    return [o for o in offers if unload_problem(t, side, o) is None]


def unload(t: Table, ctx: Ctx[MakState], order: L.Load) -> None:
    """13.1.2: out in the vehicle's hex for half its movement points (infantry: all, 14.1)."""
    r = ctx.state.find(order.rider)
    assert r is not None and r.aboard is not None
    finish_moving(ctx.state)
    stats = t.stats(r)
    r.aboard = None
    r.moved = True
    r.mp_spent = max(r.mp_spent, stats.movement / 2)
    if stats.infantry or r.immobilized:
        r.move_done = True  # 14.1: no additional movement (close quarters still possible)
    else:
        ctx.state.moving = r.id
    ctx.say("unload", f"{r.id} unloads in {r.hex} ({stats.movement / 2:g} MP) (13.1.2)", "13.1.2")
    ctx.state.marks.append(Mark(kind="move", hexes=[r.hex or ""], side=r.side, text=f"{r.id} unloads"))
    ctx.snapshot = True
    arrive(t, ctx, r)


def board_at_setup(made: list[UnitState], rider: UnitState, vehicle_type: str) -> None:
    """A scenario's unit that starts transported (``"aboard": "Truck"``): it rides the first
    vehicle of that type of its side with room, set up or entering with it."""
    for v in made:
        if v.side != rider.side or v.type.rsplit("/", 1)[-1] != vehicle_type:
            continue
        used = sum(unit_stats(p.type).points for p in made if p.aboard == v.id)
        if ride_problem(unit_stats(v.type), unit_stats(rider.type)) is None and \
                used + unit_stats(rider.type).points <= capacity(unit_stats(v.type)):
            rider.aboard, rider.hex, rider.status, rider.deploy = v.id, v.hex, v.status, v.deploy
            return
    # A scenario's set-up the rules cannot place: the author's file is refused in a sentence.
    raise RuleError(f"{rider.id} has no {vehicle_type} with room to ride in (13.1.5)")


def riders(state: MakState, vehicle: UnitState) -> list[UnitState]:
    """The units ``vehicle`` transports (for the snapshot and the overrun)."""
    return passengers(state, vehicle.id)
