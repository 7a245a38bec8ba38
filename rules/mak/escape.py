"""Leaving the map to escape (18.2.3, 18.2.4): where a pilot gets away, on foot or transported.

* 18.2.3 "It is possible to retreat the pilot unit off the map board ... (If the player's units
  or reinforcements enter from a specific location, the pilot unit must retreat through the
  same area.  Pilots can also escape in the direction of that player's artillery.  Leaving the
  board any other direction, the pilot gets lost and is captured, giving their victory point
  value to the enemy!)": the safe edges are the side's entry hexes (any edge when the side set
  everything up on the map) and the board edge of each of its off-board batteries (17.0: the
  battery's ``board`` and ``edge``, where that edge is the map's outer edge).
* 18.2.4 "A pilot may escape the board while being transported by a vehicle (see [13.1])": a
  vehicle transporting a pilot may drive off the map from an edge hex its pilot could escape
  by, as its move (a movement point left); its pilots escape, the vehicle and any other riders
  leave the battle (not destroyed).  Vehicles leave the map by no other edge and for no other
  reason.
* 19.1.4 "resolved when a unit enters a minefield hex and when it exits": leaving the map from
  a minefield hex, the unit is attacked as it leaves; destroyed or immobilised, it stays.
"""

from __future__ import annotations

from rules.core.hexes import Hex, from_offset, neighbours, to_offset
from rules.core.orders import Ctx
from rules.mak import air_actions as AA
from rules.mak import hazards, pilots
from rules.mak.deployment import entry_hexes, parse_deploy
from rules.mak.refusals import busy, mover_problem, own
from rules.mak.resolve import allowance, finish_moving
from rules.mak.state import SIDE_NAMES, MakState, Mark, UnitState, other
from rules.mak.table import Table
from rules.mak.vehicles import PILOT, passengers

MakCtx = Ctx[MakState]

#: 17.0 a battery's edge: one step off the board that way, in (column, row) offsets
OUTWARD = {"N": (0, -1), "S": (0, 1), "E": (1, 0), "W": (-1, 0)}


def entry_area(t: Table, side: str) -> set[Hex]:
    """18.2.3: the edge hexes the side's units or reinforcements enter by (empty when every
    unit of the side was set up on the map)."""
    out: set[Hex] = set()
    for u in t.s.units:
        if u.side != side or u.type == PILOT:
            continue
        spec = parse_deploy(u.deploy)
        if not spec.setup:
            out |= set(entry_hexes(t.field.layout, spec))
    return out


def artillery_area(t: Table, side: str) -> set[Hex]:
    """18.2.3 "in the direction of that player's artillery": the hexes along the board edge of
    each of the side's batteries (17.0 ``⑤S−60``: south of board 5) that open off the map."""
    out: set[Hex] = set()
    for b in t.s.batteries:
        if b.side != side or b.board not in t.s.boards:
            continue
        dc, dr = OUTWARD[b.edge]
        for h in t.field.layout.edge(b.board, b.edge):
            col, row = to_offset(h)
            if not t.field.contains(from_offset(col + dc, row + dr)):
                out.add(h)
    return out


def way_out(t: Table, side: str, h: Hex) -> str | None:
    """How a pilot of ``side`` leaving the map from ``h`` escapes (18.2.3), or None: it gets
    lost and is captured."""
    entry = entry_area(t, side)
    if not entry:
        return "its side set up on the map: any edge"
    if h in entry:
        return "through the area its side entered by"
    if h in artillery_area(t, side):
        return "towards its artillery"
    return None


def on_edge(t: Table, h: Hex) -> bool:
    """Whether ``h`` is on the edge of the map (a neighbour off it)."""
    return any(not t.field.contains(n) for n in neighbours(h))


def carried_pilots(t: Table, v: UnitState) -> list[UnitState]:
    """18.2.4: the pilot tokens a vehicle transports (13.1.1)."""
    return [p for p in passengers(t.s, v.id) if p.type == PILOT]


# -- legality --------------------------------------------------------------------------------


def escape_problem(t: Table, side: str, o: AA.Escape) -> str | None:
    """18.2.3 / 18.2.4: a pilot on foot, or a vehicle transporting one, leaves the map."""
    u = own(t, side, o.unit)
    if isinstance(u, str):
        return u
    if u.on_map and t.stats(u).vehicle and carried_pilots(t, u):
        return _vehicle_problem(t, u)
    if u.type != PILOT or not u.on_map:
        return f"{u.id} is not a pilot on foot nor a vehicle transporting one (18.2.2, 18.2.4)."
    if u.aboard:
        return f"{u.id} rides in {u.aboard}: it leaves with the vehicle, pilot escape unit:{u.aboard} (18.2.4)."
    if not on_edge(t, t.hex(u)):
        return f"{u.id} is not on an edge hex of the map (18.2.3)."
    if u.moved or u.attacked or u.move_done:
        return f"{u.id} has moved this phase; it leaves next phase (18.2.3)."
    return busy(t, u)


def _vehicle_problem(t: Table, v: UnitState) -> str | None:
    """18.2.4: the vehicle drives off from an edge hex its pilots escape by, as its move."""
    allowed = (f"{v.id} may leave the map only to carry its pilot away: from an edge hex of the "
               f"area its side entered by or of the board edge towards its artillery (18.2.3, 18.2.4)")
    if not on_edge(t, t.hex(v)) or way_out(t, v.side, t.hex(v)) is None:
        return f"{allowed}; {v.hex} is not one."
    problem = mover_problem(t, v)
    if problem:
        return problem
    if t.in_melee(v):
        return f"{v.id} is in close quarters and cannot drive off (13.2)."
    if allowance(t, v) <= 0:
        return f"{v.id} has no movement point left to leave the map (7.1)."
    return busy(t, v)


# -- leaving ---------------------------------------------------------------------------------


def leave(t: Table, ctx: MakCtx, u: UnitState) -> None:
    """The pilot, or the vehicle with its riders, leaves the map (the order is legal)."""
    finish_moving(ctx.state)
    where = u.hex or ""
    if where in ctx.state.mines and not _clear_of_mines(t, ctx, u, where):
        return
    route = way_out(t, u.side, t.hex(u))
    ctx.state.marks.append(Mark(kind="move", hexes=[where], side=u.side, text=f"{u.id} leaves"))
    ctx.snapshot = True
    if u.type == PILOT:
        _pilot_leaves(ctx, u, where, route)
        return
    riders = passengers(ctx.state, u.id)
    for r in [u, *riders]:
        r.status, r.hex, r.move_done = "withdrawn", None, True
    for p in [r for r in riders if r.type == PILOT]:
        _pilot_leaves(ctx, p, where, route)
    others = ", ".join(r.id for r in riders if r.type != PILOT)
    ctx.say("escape", f"{u.id} drives off the map at {where}{' with ' + others if others else ''}: it leaves "
                      f"the battle, not destroyed (18.2.4)", "18.2.4")


def _clear_of_mines(t: Table, ctx: MakCtx, u: UnitState, where: str) -> bool:
    """19.1.4: attacked as it exits the minefield hex; False if it no longer can leave."""
    hazards.leave_hex(t, ctx, u, where)
    if u.on_map and u.immobilized:
        u.move_done = True
        ctx.say("escape", f"{u.id} is immobilized in {where} and stays on the map (19.1.3)", "19.1.3")
    return u.on_map and not u.immobilized


def _pilot_leaves(ctx: MakCtx, u: UnitState, where: str, route: str | None) -> None:
    """18.2.3: escaped by a safe way, else lost and captured (its points to the enemy)."""
    p = ctx.state.crew.pilots.get(pilots.key(u.side, u.pilot or 0))
    u.status, u.hex = "withdrawn", None
    name = p.name if p is not None else u.id
    if p is not None:
        p.status = "escaped" if route else "captured"
    if route:
        ctx.say("escape", f"{name} leaves the map at {where} ({route}) and escapes (18.2.3)", "18.2.3")
        return
    points = pilots.pilot_points(p) if p is not None else 0
    ctx.say("escape", f"{name} leaves the map at {where}, away from where the side entered and from its "
                      f"artillery: lost and captured, {points} points to {SIDE_NAMES[other(u.side)]} (18.2.3)",
            "18.2.3")
