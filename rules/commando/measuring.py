"""The tape measure: ``measure`` tells a player, on the phone, what the table holds between a
unit and a place (distance, move cost, where a move there really stops, shot modifiers)
without changing anything.  Read-only: anyone may use it, spectators included.  The
``measure`` order is declared here."""

from __future__ import annotations

from collections.abc import Iterator

from rules.commando import board
from rules.commando.actions import Measure
from rules.commando.activation import plural
from rules.commando.movement import ENEMY_ZONE, at, destination, speed, trace
from rules.commando.shooting import HIT_ON, check_line, measure_shot
from rules.commando.state import RaidState, UnitState
from rules.core import table
from rules.core.errors import RuleError
from rules.core.orders import Ctx, order


def measure_offers(state: RaidState, side: str) -> Iterator[Measure]:
    """From any unit on the table to any named point, target or other unit."""
    places = [(p.id, (p.x, p.y)) for p in state.table.points]
    places += [(t.id, table.shape_centre(t.shape())) for t in board.live_targets(state)]
    units = sorted(state.alive(), key=lambda u: (u.side != side, u.id))
    for unit in units:
        spots = places + [(u.id, u.pos) for u in units if u.id != unit.id]
        spots.sort(key=lambda spot: table.distance(unit.pos, spot[1]))  # nearest first
        for place, _ in spots:
            # Ids straight from the table: valid by construction, so skip re-validating ~900.
            yield Measure.model_construct(unit=unit.id, to=place)


@order(Measure, offers=measure_offers)
def measure(ctx: Ctx[RaidState], action: Measure) -> None:
    """The tape measure (Movement): from a unit to a place; read-only, for anyone at any time."""
    state = ctx.state
    unit = state.unit(action.unit)
    if not unit.alive:
        raise RuleError(f"{unit.id} has been eliminated; measure from a unit on the table.")
    where = board.place(state, action.to, unit.pos)
    gap = table.distance(unit.pos, where.point)
    lines = [f"📏 {unit.id} → {where.label}: {table.inches(gap)}"]
    found = board.contact_shape(state, where.label) if where.kind == "named" else None
    if found is not None:
        # A target or a wire section is reached when the base touches it (Demolition, Barbed
        # Wire): measure to contact, not the middle.
        name, shape = found
        gap = max(0.0, table.distance_to_shape(unit.pos, shape) - board.BASE_RADIUS)
        lines = [f"📏 {unit.id} → {name}: {table.inches(gap)} to contact"]
    if speed(unit) > 0:
        lines.append(move_line(state, unit, action.to, gap))
    if where.kind == "unit":
        other = state.unit(where.label)
        if other.side != unit.side:
            lines.append(_shot_line(state, unit, other))
    for line in lines:
        ctx.say("measure", line, "Movement", unit=unit.id, to=where.label,
                distance=round(gap, 2))


def move_line(state: RaidState, unit: UnitState, to: str, gap: float) -> str:
    """What a straight move there costs and where it really stops (honest moves)."""
    step = speed(unit)
    cost = f"Move: {plural(table.legs_needed(gap, step), 'action')} at {step:g}\" each"
    try:
        point, _ = destination(state, unit, to, unit.pos)
        plan = trace(state, unit, [point])
    except RuleError as exc:
        return f"{cost}; {str(exc).rstrip('.')}"
    if plan.short:
        return (f"{cost}; stops after {table.inches(plan.travelled)} at {at(plan.end)}: "
                f"{plan.stop} (Movement)")
    return f"{cost} (Movement)"


def end_note(state: RaidState, unit: UnitState, point: table.Point) -> str:
    """What holds a base at ``point``: an enemy's 6" line or the piece it touches ('' if none)."""
    for enemy in state.alive():
        if enemy.side == unit.side:
            continue
        gap = table.distance(point, enemy.pos)
        if abs(table.measured(gap) - ENEMY_ZONE) < 0.05:
            return f'6" from {enemy.id}'
    for key, shape in board.obstacles(state, unit.kind).items():
        if table.distance_to_shape(point, shape) <= board.BASE_RADIUS + board.TOUCH_SLACK:
            return f"at {board.feature_name(state, key)}"
    return ""


def _shot_line(state: RaidState, shooter: UnitState, target: UnitState) -> str:
    """Whether the shot is possible and what it needs, e.g. ``Shoot: -1 armoured: need 5+``."""
    try:
        gap = check_line(shooter, target, "shooting")
    except RuleError as exc:
        return f"Shoot: no; {exc}"
    return f"Shoot:{shot_needs(state, shooter, target, gap)} (Shooting)"


def shot_needs(state: RaidState, shooter: UnitState, target: UnitState, gap: float) -> str:
    """`` -1 cover: need 5+``: the modifiers of a shot and the score it needs."""
    plan = measure_shot(state, shooter, target, gap)
    total = sum(m for m, _ in plan.modifiers)
    shown = "".join(f" {m:+d} {why}" for m, why in plan.modifiers)
    return f"{shown or ' no modifier'}: need {HIT_ON - total}+"
