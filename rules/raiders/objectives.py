"""Objective markers (19.0), demolition (21.1), transport (18.4), scouting (27.0), success (6.0).

Markers lie face down; what a marker *is* is drawn (recorded) from the mission's remaining
marker types at the moment it is turned, so no hidden placement is stored.
"""

from __future__ import annotations

from rules.core import scenariofile
from rules.core.errors import RuleError
from rules.raiders.cards import alert_change
from rules.raiders.forces import Ctx, gear, members, remove_unit, unit
from rules.raiders.state import Marker, Mission


def on_board(m: Mission) -> list[Marker]:
    """Markers still standing in a space (not destroyed, carried, delivered or lost)."""
    return [mk for mk in m.markers if mk.space is not None and not mk.destroyed]


def marker(m: Mission, marker_id: str) -> Marker:
    """The marker ``marker_id`` (case-insensitive), or a RuleError."""
    for mk in m.markers:
        if mk.id.lower() == marker_id.lower():
            return mk
    names = ", ".join(mk.id for mk in on_board(m)) or "none"
    raise RuleError(f"There is no objective marker '{marker_id[:20]}'; on the map: {names}.")


def reveal(ctx: Ctx, mk: Marker, how: str) -> None:
    """19.0: turn a marker face up; its type is drawn from the types not yet turned."""
    m, sc = ctx.m, ctx.sc
    left = list(sc.mission[m.card].markers)
    for other in m.markers:
        if other.type is not None:
            left.remove(other.type)
    mk.type = ctx.dice.pick(left, f"objective marker {mk.id} turned (19.0)")
    mk.revealed = True
    ctx.reveals = True
    spec = sc.marker_type[mk.type]
    where = sc.space_by_id[mk.space].name if mk.space else "?"
    ctx.say("marker", f"{mk.id} {where}: {spec.name} ({how})", "19.0", marker=mk.id, type=mk.type)


def scout(ctx: Ctx, force_id: str, target: str) -> None:
    """27.0: a force with a scout, next to a face-down marker, reveals it on an even roll."""
    m, sc = ctx.m, ctx.sc
    units = members(m, force_id)
    if not any(sc.unit_type[u.type].scout for u in units):
        scouts = [u.name for u in sc.units if u.scout]
        raise RuleError(f"{force_id} has no scouting unit; scouts: "
                        f"{scenariofile.one_of(scouts)} (27.0).")
    here = units[0].space
    assert here is not None
    target = sc.find_space(target) or target
    hidden = [mk for mk in on_board(m) if mk.space == target and not mk.revealed]
    if target not in sc.space_by_id or not sc.network.adjacent(here, target) or not hidden:
        options = [
            s for s in sc.network.neighbours(here)
            if any(mk.space == s and not mk.revealed for mk in on_board(m))
        ]
        raise RuleError(
            f"Scouting needs a space next to {force_id} with a face-down marker; "
            f"candidates: {', '.join(options) or 'none'} (27.0)."
        )
    roll = ctx.dice.die(6, f"{force_id} scouts {target} (27.0)")
    if roll % 2 == 0:
        ctx.say("scout", f"🎲 {roll} even → the marker is revealed (27.0)", "27.0", die=roll)
        reveal(ctx, hidden[0], "27.0")
    else:
        ctx.say("scout", f"🎲 {roll} odd → nothing seen (27.0)", "27.0", die=roll)


def demolish(ctx: Ctx, pioneer_id: str, marker_id: str, explosives: bool) -> None:
    """21.1: one pioneer of the operating force rolls on the Demolition Table."""
    m, sc = ctx.m, ctx.sc
    pioneer = unit(m, pioneer_id)
    mk = marker(m, marker_id)
    if m.segment != "objective" or m.force is None:
        raise RuleError("Demolition is done in the Objective segment of an operation (21.1).")
    pioneers = [u.id for u in members(m, m.force) if sc.unit_type[u.type].pioneer]
    allowed = f"{m.force}'s pioneers: {', '.join(pioneers)}" if pioneers else f"{m.force} has no pioneer"
    if not sc.unit_type[pioneer.type].pioneer:
        raise RuleError(f"{pioneer.id} is not a pioneer; {allowed} (21.1).")
    if pioneer.force != m.force:
        raise RuleError(f"{pioneer.id} is not in the operating force {m.force}; {allowed} (21.1).")
    if pioneer.id in m.demolished_by:
        raise RuleError(f"{pioneer.id} has already tried this segment; one roll per pioneer (21.1).")
    if mk.space != pioneer.space:
        raise RuleError(f"{mk.id} is not in {pioneer.id}'s space (21.1).")
    if mk.destroyed:
        raise RuleError(f"{mk.id} is already destroyed (21.1).")
    if not mk.revealed or mk.type is None:
        raise RuleError(f"{mk.id} is face down: a marker is demolished once turned up (11.0 (5), 21.1).")
    if sc.marker_type[mk.type].kind != "target":
        raise RuleError(f"{mk.id} ({sc.marker_type[mk.type].name}) is not a demolition target (19.0, 21.1).")
    bonus = 0
    if explosives:
        held = [
            gid for u in members(m, m.force) for gid in u.gear
            if sc.gear_type[gear(m, gid).type].effect == "explosives"
        ]
        if not held:
            raise RuleError(f"{m.force} carries no Explosives gear (23.4).")
        g = gear(m, held[0])
        bonus = sc.gear_type[g.type].bonus
        holder = unit(m, g.holder or "")
        holder.gear.remove(g.id)
        g.holder = None
        ctx.say("gear", f"{g.id} expended on the charge (23.4)", "23.4")
    m.demolished_by.append(pioneer.id)
    roll = ctx.dice.die(6, f"{pioneer.id} demolition of {mk.id} (21.1)")
    row = sc.demolition_row(roll + bonus)
    total = f"{roll} +{bonus} explosives = {roll + bonus}" if bonus else f"{roll}"
    ctx.say("demolition", f"🎲 {total}: {row.text} (21.1)", "21.1", die=roll, destroyed=row.destroyed)
    if row.destroyed:
        mk.destroyed = True
    if row.alert:
        alert_change(ctx, row.alert, "demolition")
    if row.pioneer_lost:
        remove_unit(ctx, pioneer)


def carry(ctx: Ctx, unit_id: str, marker_id: str) -> None:
    """18.4: a mobile unit of the operating force picks up a revealed cargo marker."""
    m, sc = ctx.m, ctx.sc
    u = unit(m, unit_id)
    mk = marker(m, marker_id)
    if m.force is None or u.force != m.force:
        raise RuleError(f"{u.id} is not in the operating force; only it may pick up cargo (18.4).")
    if sc.unit_type[u.type].movement == 0 or u.carrying is not None:
        raise RuleError(f"{u.id} cannot transport: it is static or already carrying (18.4).")
    if mk.space != u.space or mk.type is None or sc.marker_type[mk.type].kind != "cargo":
        raise RuleError(f"{mk.id} is not revealed cargo in {u.id}'s space (18.4).")
    u.carrying = mk.id
    mk.space = None
    ctx.say("cargo", f"{u.id} picks up {mk.id} ({sc.marker_type[mk.type].name}) (18.4)", "18.4")


def drop(ctx: Ctx, unit_id: str) -> None:
    """18.4: debark a transported marker in the carrier's space at the end of a move."""
    m = ctx.m
    u = unit(m, unit_id)
    if u.carrying is None or u.space is None:
        raise RuleError(f"{u.id} carries nothing to set down (18.4).")
    between_ops = m.segment == "recruit" and not m.moved
    if not between_ops and (m.segment != "objective" or u.force != m.force):
        raise RuleError(f"{u.id} sets cargo down after its own move or before the next one (18.4).")
    mk = marker(m, u.carrying)
    mk.space = u.space
    u.carrying = None
    ctx.say("cargo", f"{u.id} sets down {mk.id} (18.4)", "18.4")


def deliver(ctx: Ctx) -> None:
    """18.4 / 8.0: cargo carried into a Staging Area is delivered (debarked there)."""
    m, sc = ctx.m, ctx.sc
    for u in m.units:
        if u.carrying and u.space and sc.space_by_id[u.space].staging:
            mk = marker(m, u.carrying)
            mk.delivered = True
            u.carrying = None
            ctx.say("cargo", f"{mk.id} delivered to {sc.space_by_id[u.space].name} (18.4)", "18.4")


def objective_met(ctx: Ctx) -> bool:
    """6.0: whether the Mission card's objective is fulfilled now."""
    m, sc = ctx.m, ctx.sc
    goal = sc.mission[m.card].objective
    if goal.kind == "demolish":
        return sum(1 for mk in m.markers if mk.destroyed) >= goal.count
    if goal.kind == "recover":
        return sum(1 for mk in m.markers if mk.delivered) >= goal.count
    return held(m, goal.space or "")


def held(m: Mission, space: str) -> bool:
    """An "occupy" objective: a raider stands in ``space`` and no hostile does (a camp's
    survivors, 8.0 (1), or a battle still going on there): a contested space is not held."""
    contested = bool(m.camps.get(space)) or (m.battle is not None and m.battle.space == space)
    return not contested and any(u.space == space for u in m.units)


def ends_early(ctx: Ctx) -> bool:
    """11.1: "You do not have to use your full number of operations for a mission if you
    win before then" — a hold objective ("Hold Gialo at the end") is won only at the end
    (6.0: "by the end of the game"; 11.2), so it never ends the mission early."""
    goal = ctx.sc.mission[ctx.m.card].objective
    return goal.kind != "occupy" and objective_met(ctx)


def progress(ctx: Ctx) -> str:
    """A short line of how far the objective is, e.g. ``1/2 destroyed``."""
    m, sc = ctx.m, ctx.sc
    goal = sc.mission[m.card].objective
    if goal.kind == "demolish":
        return f"{sum(1 for mk in m.markers if mk.destroyed)}/{goal.count} destroyed"
    if goal.kind == "recover":
        return f"{sum(1 for mk in m.markers if mk.delivered)}/{goal.count} delivered"
    name = sc.space_by_id[goal.space or ''].name
    return f"{name} {'held' if held(m, goal.space or '') else 'not held'} (at the end, 11.2)"
