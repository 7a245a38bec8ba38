"""Overrun attacks (13.2): a vehicle drives through an enemy hex, attacking on the way.

13.2 "A vehicle unit cannot engage in close quarters combat. ... If the vehicle is still armed
it can make an overrun attack, even if it is transporting units at the time (this is a
variation of close quarters combat)."  13.2.1 "defensive fire is resolved with the same
procedure as close quarters combat, as the vehicle unit approaches the hex of the enemy unit
(See [9.1]).  After the vehicle unit finishes its attack, it passes through the hex side
opposite the side it entered.  If units in the target hex have survived, they do not make any
additional defensive attacks because of this movement."  13.2.2 "The vehicle unit does not
have to spend any extra movement points to make an overrun attack, however it must be able to
move into the hex opposite of its approach.  If the unit still has movement points remaining,
it may continue to move and even make additional overrun attacks."  13.2.3 "Units being
transported may make attacks during the overrun attack, however any units that participate in
the overrun attack may not unload in that phase, or make any other attacks."

The sequence: ``overrun`` (the vehicle pays to enter the hex) → the defenders there may fire
while it is adjacent (9.2 case 1) → it enters → those who did not fire may (case 2) → the
vehicle (and, with ``riders``, its passengers) attack the named unit → it leaves through the
opposite hex (paying to enter it).  Immobilised next to the hex it stays out (9.2.5);
immobilised inside, it still attacks (Figure 10) and stays, in close quarters where it "can
only receive attacks".
"""

from __future__ import annotations

from rules.core.hexes import Hex, distance, neighbours
from rules.core.orders import Ctx
from rules.mak import land_actions as L
from rules.mak.refusals import busy, own
from rules.mak.movement import entry_cost
from rules.mak.resolve import advance_overrun, finish_moving, open_window, overrun_riders
from rules.mak.state import MakState, Mark, UnitState, other
from rules.mak.land_state import Overrun
from rules.mak.table import Table, allowance
from rules.mak.vehicles import beyond


def _overrunner_problem(t: Table, v: UnitState) -> str | None:
    """Why ``v`` may not overrun now, whatever the target (13.2; 5.1.2, 7.2.5, 13.1.2)."""
    if not t.stats(v).vehicle or not v.on_map:
        return f"{v.id} is not a vehicle on the map: only vehicles overrun (13.2)."
    if v.immobilized or v.aboard or v.attacked or v.struck or v.spotted or v.move_done \
            or v.loaded_turn == t.s.turn:
        return f"{v.id} cannot move on now (5.1.2, 7.2.5, 13.1.2)."
    if not t.weapons(v, False):
        return f"{v.id} is not armed: only an armed vehicle overruns (13.2)."
    if t.in_melee(v) or t.s.assault is not None or t.s.overrun is not None:
        return f"{v.id} is in close quarters or another assault is under way (13.2)."
    return None


def plan(t: Table, side: str, order: L.Overrun) -> tuple[Hex, Hex, float, float] | str:
    """The hex overrun, the hex beyond, and the two entry costs; or why it is refused."""
    v = own(t, side, order.unit)
    if isinstance(v, str):
        return v
    problem = _overrunner_problem(t, v)
    if problem:
        return problem
    stats = t.stats(v)
    e = t.s.find(order.target)
    if e is None or not e.on_map or e.side == side or e.aboard:
        return f"'{order.target[:20]}' is not an enemy unit on the map."
    here, there = t.hex(v), t.hex(e)
    if distance(here, there) != 1:
        return f"{e.id} is not in the next hex to {v.id} (13.2.1)."
    out = beyond(here, there)
    if not t.field.contains(out):
        return f"The hex beyond {e.hex} is off the map: {v.id} must be able to move into it (13.2.2)."
    label = t.label(out)
    first = entry_cost(t.field, stats, here, there)
    second = entry_cost(t.field, stats, there, out)
    if first is None or second is None or first + second > allowance(t, v):
        return (f"{v.id} cannot drive through {e.hex} into {label} with {allowance(t, v):g} MP left "
                f"(13.2.2).")
    if t.in_hex(out, other(side)):
        return f"{label}, beyond {e.hex}, holds enemy units (13.2.2)."
    if t.stacking(side, label, [v]) is not None:
        return f"{label}, beyond {e.hex}, has no room for {v.id} (8.2)."
    if order.riders and not overrun_riders(t, v):
        return f"{v.id} transports no unit able to attack (13.2.3)."
    waiting = busy(t, v)
    return waiting if waiting else (there, out, first, second)


def offers(state: MakState, side: str) -> list[L.Overrun]:
    """Every legal overrun (with and without riders)."""
    t = Table(state)
    out: list[L.Overrun] = []
    for v in t.on_map(side):
        if not t.stats(v).vehicle:
            continue
        here = t.hex(v) if v.hex else None
        for n in neighbours(here) if here else []:
            for e in t.in_hex(n, other(side)):
                for riders in (False, True):
                    o = L.Overrun(unit=v.id, target=e.id, riders=riders)
                    if not isinstance(plan(t, side, o), str):
                        out.append(o)
    return out


def start(t: Table, ctx: Ctx[MakState], order: L.Overrun) -> None:
    """13.2.1: declare; the defenders in the hex may fire while the vehicle is adjacent."""
    found = plan(t, ctx.side, order)
    assert not isinstance(found, str)
    there, out, first, _ = found
    v, e = ctx.state.find(order.unit), ctx.state.find(order.target)
    assert v is not None and e is not None
    finish_moving(ctx.state, v.id)
    ctx.state.moving = v.id
    v.moved = True
    v.mp_spent += first
    ctx.state.overrun = Overrun(unit=v.id, hex=t.label(there), through=t.label(out), target=e.id,
                                riders=order.riders)
    ctx.say("overrun", f"{v.id} overruns {t.label(there)}, attacking {e.id}, out through "
                       f"{t.label(out)} (13.2)", "13.2")
    ctx.state.marks.append(Mark(kind="assault", hexes=[v.hex or "", t.label(there), t.label(out)],
                                side=v.side, text=f"{v.id} overruns"))
    ctx.snapshot = True
    open_window(t, ctx, "assault_adjacent", [v], t.in_hex(there, other(v.side)))
    if ctx.state.window is None and ctx.state.pin is None:
        advance_overrun(t, ctx, [])


