"""The labels autocomplete shows for the values of a raid's orders: what a player on a phone
needs to choose.

The distance (to contact for demolition targets and wire), the actions a move costs and
where it really stops (the resolver's own ``plan_order``), what a shot needs.  The values
themselves come from the offers declared beside each order (``activation``, ``movement``,
``shooting``, ``melee``, ``demolition``, ``measuring``, ``turns``).
"""

from __future__ import annotations

from typing import Any

from rules.commando import board
from rules.commando.actions import Move
from rules.commando.activation import plural
from rules.commando.measuring import end_note, shot_needs
from rules.commando.movement import MovePlan, at, plan_order
from rules.commando.state import RaidState, UnitState
from rules.core import table
from rules.core.errors import RuleError


def label(state: RaidState, side: str, action: str, field: str, value: str,
          partial: dict[str, Any]) -> str:
    """The autocomplete label of ``value`` for ``field`` of ``action``."""
    if action == "direct" and field == "unit":
        officer = _unit_of(state, partial.get("officer"))
        mate = _unit_of(state, value)
        if officer is not None and mate is not None:
            return f"{value} {mate.name} · {table.inches(table.distance(officer.pos, mate.pos))}"
    if field in ("unit", "officer") and action != "measure":
        return _unit_label(state, value)
    mover = _unit_of(state, partial.get("unit"))
    if action == "move" and field == "to" and mover is not None:
        return _move_label(state, side, mover, partial, value)
    if field in ("to", "via", "via2", "target", "wire") and mover is not None:
        return _place_label(state, side, action, mover, value)
    if field == "unit":
        unit = _unit_of(state, value)
        return f"{value} {unit.name}" if unit else value
    return value


def _unit_of(state: RaidState, unit_id: Any) -> UnitState | None:
    try:
        unit = state.unit(str(unit_id or ""))
    except RuleError:
        return None
    return unit if unit.alive else None


def _unit_label(state: RaidState, value: str) -> str:
    unit = _unit_of(state, value)
    if unit is None:
        return value
    left = plural(unit.actions, "action") if unit.score is not None or unit.static else "to roll"
    return f"{unit.id} {unit.name} · {left}"


def _move_label(state: RaidState, side: str, unit: UnitState, partial: dict[str, Any],
                value: str) -> str:
    order = Move(unit=unit.id, to=value, via=partial.get("via") or None,
                 via2=partial.get("via2") or None)
    try:
        plan: MovePlan = plan_order(state, side, order)
    except RuleError as exc:
        return f"{value}: {exc}"
    where = _name_of(state, value)
    note = end_note(state, unit, plan.end)
    text = f"{where} · {table.inches(plan.travelled)}, {plural(plan.cost, 'action')}"
    if plan.short:
        text += f", stops at {at(plan.end)}: {plan.stop}"
    elif note and where == value:  # a bare point: say what holds the base there
        text += f", ends {note}"
    return text


def _name_of(state: RaidState, value: str) -> str:
    for point in state.table.points:
        if point.id == value:
            return point.name
    target = board.target_named(state, value)
    if target is not None:
        return target.name
    unit = _unit_of(state, value)
    return f"{value} {unit.name}" if unit else value


def _place_label(state: RaidState, side: str, action: str, unit: UnitState, value: str) -> str:
    """Distance (to contact for targets and wire) and, for a shot, what it needs."""
    other = _unit_of(state, value)
    if other is not None:
        gap = table.distance(unit.pos, other.pos)
        text = f"{value} {other.name} · {table.inches(gap)}"
        if action == "shoot" and other.side != unit.side:
            text += f",{shot_needs(state, unit, other, gap)}"
        return text
    shape = _shape_of(state, value)
    if shape is not None:
        gap = max(0.0, table.distance_to_shape(unit.pos, shape) - board.BASE_RADIUS)
        return f"{_name_of(state, value)} · {table.inches(gap)}"
    try:
        where = board.place(state, value, unit.pos)
    except RuleError:
        return value
    return f"{_name_of(state, value)} · {table.inches(table.distance(unit.pos, where.point))}"


def _shape_of(state: RaidState, value: str) -> table.Shape | None:
    target = board.target_named(state, value)
    if target is not None:
        return target.shape()
    section = board.wire(state).get(value)
    return section.shape() if section is not None else None
