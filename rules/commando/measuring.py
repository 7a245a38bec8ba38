"""The tape measure: ``measure`` tells a player, on the phone, what the table holds between a
unit and a place (distance, move cost, shot modifiers) without changing anything."""

from __future__ import annotations

from rules.commando import board
from rules.commando.actions import Measure
from rules.commando.activation import plural
from rules.commando.movement import speed
from rules.commando.scenario import TargetSpec
from rules.commando.shooting import HIT_ON, check_line, measure_shot
from rules.commando.state import RaidState
from rules.core import table
from rules.core.contract import Event
from rules.core.errors import RuleError


def measure(state: RaidState, side: str, order: Measure) -> list[Event]:
    """Measure from a unit to a place; read-only, for either side at any time."""
    unit = state.unit(order.unit)
    if not unit.alive:
        raise RuleError(f"{unit.id} has been eliminated; measure from a unit on the table.")
    where = board.place(state, order.to, unit.pos)
    gap = table.distance(unit.pos, where.point)
    lines = [f"📏 {unit.id} → {where.label}: {table.inches(gap)}"]
    target = _target_named(state, where.label) if where.kind == "named" else None
    if target is not None:
        # A target is reached when the base touches it: measure to contact, not the middle.
        gap = max(0.0, table.distance_to_shape(unit.pos, target.shape()) - board.BASE_RADIUS)
        lines = [f"📏 {unit.id} → {target.name}: {table.inches(gap)} to contact"]
    step = speed(unit)
    if step > 0:
        lines.append(f"Move: {plural(table.legs_needed(gap, step), 'action')} "
                     f"at {step:g}\" each (Movement)")
    if where.kind == "unit":
        target = state.unit(where.label)
        if target.side != unit.side:
            lines.append(_shot_line(state, unit.id, target.id))
    return [Event(kind="measure", text=line, rule="Movement",
                  data={"unit": unit.id, "to": where.label, "distance": round(gap, 2)})
            for line in lines]


def _target_named(state: RaidState, label: str) -> TargetSpec | None:
    """The demolition target a named point stands for, if it is one."""
    key = label.casefold()
    return next((t for t in state.table.targets
                 if key in (t.id.casefold(), t.name.casefold())), None)


def _shot_line(state: RaidState, shooter_id: str, target_id: str) -> str:
    """Whether the shot is possible and what it needs, e.g. ``Shoot: -1 armoured: need 5+``."""
    shooter, target = state.unit(shooter_id), state.unit(target_id)
    try:
        gap = check_line(shooter, target, "shooting")
    except RuleError as exc:
        return f"Shoot: no; {exc}"
    plan = measure_shot(state, shooter, target, gap)
    total = sum(m for m, _ in plan.modifiers)
    shown = "".join(f" {m:+d} {why}" for m, why in plan.modifiers)
    return f"Shoot:{shown or ' no modifier'}: need {HIT_ON - total}+ (Shooting)"
