"""Autocomplete and the legal-order list: what a side can pick now, measured.

Choices carry the distance in the label (``Pump house (8.2")``) so a player on a phone sees
what is in reach without a tape measure; the list of legal orders feeds random-legal drivers
and is built from the same checks ``apply`` makes (no dice are rolled to build it).
"""

from __future__ import annotations

from typing import Any, Callable

from rules.commando import board
from rules.commando.actions import (
    Assault, CutWire, Demolish, Direct, End, Move, Mortar, Roll, Shoot,
)
from rules.commando.activation import OFFICER_RANGE, check_direct, plural
from rules.commando.melee import plan_assault
from rules.commando.movement import plan_move, speed
from rules.commando.shooting import MORTAR_ACTIONS, check_reach
from rules.commando.state import RaidState, UnitState
from rules.core import table
from rules.core.contract import Action, Choice
from rules.core.errors import RuleError

LIMIT = 25
#: Headings (compass bearings) the legal-order list offers for free moves.
HEADINGS = (0, 45, 90, 135, 180, 225, 270, 315)


def _label(text: str, gap: float) -> str:
    return f"{text} ({table.inches(gap)})"[:100]


def _can(unit: UnitState, order: str) -> bool:
    """Whether ``unit`` could still give ``order`` this turn, ignoring distances."""
    if not unit.alive or unit.actions < 1:
        return False
    if order == "move":
        return not unit.moved and speed(unit) > 0
    if order == "shoot":
        return not unit.shot and unit.kind != "searchlight"
    if order == "mortar":
        return unit.kind == "mortar" and not unit.shot and unit.actions >= MORTAR_ACTIONS
    if order == "assault":
        return unit.kind == "assault"
    if order == "demolish":
        return unit.kind == "demolition" and unit.actions >= 2
    if order == "cut-wire":
        return not unit.static and unit.actions >= 2
    return False


def unit_choices(state: RaidState, side: str, order: str) -> list[Choice]:
    """The side's units that can still give ``order``."""
    if order == "direct":
        found = [u for u in state.alive(side)
                 if u.officer and u.directing is None and u.directed_by is None]
    else:
        found = [u for u in state.alive(side) if _can(u, order)]
    return [
        Choice(value=u.id, label=f"{u.id} {u.name} · {plural(u.actions, 'action')}"[:100])
        for u in found
    ][:LIMIT]


def _unit_of(state: RaidState, side: str, partial: dict[str, Any], key: str = "unit") -> (
    UnitState | None
):
    try:
        return state.own_unit(side, str(partial.get(key) or ""))
    except RuleError:
        return None


def place_choices(state: RaidState, unit: UnitState | None, limit: bool = True) -> list[Choice]:
    """Named points and units, nearest first, within the unit's reach when one is chosen
    (and ``limit`` is set: the tape measure lists everything, nearest first)."""
    origin = unit.pos if unit else None
    reach = unit.actions * speed(unit) if unit and unit.actions and limit else None
    seen: set[table.Point] = set()
    options: list[tuple[float, Choice]] = []
    named = [(p.id, p.name, (p.x, p.y)) for p in state.table.points]
    named += [(t.id, t.name, table.shape_centre(t.shape())) for t in board.live_targets(state)]
    named += [(u.id, f"{u.id} {u.name}", u.pos) for u in state.alive()
              if unit is None or u.id != unit.id]
    for value, name, where in named:
        if where in seen:
            continue
        seen.add(where)
        gap = table.distance(origin, where) if origin else 0.0
        if reach is not None and gap > reach + 2 * board.BASE_RADIUS:
            continue
        label = _label(name, gap) if origin else name
        options.append((gap, Choice(value=value, label=label)))
    options.sort(key=lambda pair: pair[0])
    found = [c for _, c in options][:LIMIT]
    if unit is not None and reach:
        found += _heading_choices(state, unit, reach)[: LIMIT - len(found)]
    return found


def _heading_choices(state: RaidState, unit: UnitState, reach: float) -> list[Choice]:
    """``N:12``-style places at the unit's full reach that stay on the table."""
    scen = state.table
    out = []
    for name in ("N", "NE", "E", "SE", "S", "SW", "W", "NW"):
        angle = table.heading_to_angle(table.COMPASS[name])
        end = table.add(unit.pos, table.scale(table.unit_vector(angle), reach))
        if table.on_table(end, scen.width, scen.height, board.BASE_RADIUS):
            out.append(Choice(value=f"{name}:{reach:g}",
                              label=f"{name}:{reach:g} ({table.inches(reach)} {name})"))
    return out


def target_choices(state: RaidState, side: str, order: str, unit: UnitState | None) -> (
    list[Choice]
):
    """Enemy units (or demolition targets) the chosen unit can reach, nearest first."""
    if order == "demolish":
        items = [(t.id, t.name, t.shape()) for t in board.live_targets(state)]
        ranked = sorted(
            (table.distance_to_shape(unit.pos, s) - board.BASE_RADIUS if unit else 0.0, i, n)
            for i, n, s in items
        )
        return [Choice(value=i, label=_label(n, max(g, 0.0)) if unit else n)
                for g, i, n in ranked][:LIMIT]
    enemies = [e for e in state.alive() if e.side != side]
    if order == "assault":
        enemies = [e for e in enemies if e.kind != "pillbox"]
    ranked_units: list[tuple[float, UnitState]] = []
    for enemy in enemies:
        gap = table.distance(unit.pos, enemy.pos) if unit else 0.0
        if unit is not None:
            if order == "assault":
                if table.beyond(gap, unit.actions * speed(unit) + board.CONTACT):
                    continue
            elif not _valid(lambda e=enemy: check_reach(state, unit, e, order)):
                continue  # out of range, behind a pillbox's arc, or already fired
        ranked_units.append((gap, enemy))
    ranked_units.sort(key=lambda pair: pair[0])
    return [
        Choice(value=e.id, label=_label(f"{e.id} {e.name}", g) if unit else f"{e.id} {e.name}")
        for g, e in ranked_units
    ][:LIMIT]


def wire_choices(state: RaidState, unit: UnitState | None) -> list[Choice]:
    """Standing wire sections, nearest first."""
    sections = list(board.wire(state).values())
    ranked = sorted(
        (max(0.0, table.distance_to_shape(unit.pos, w.shape()) - board.BASE_RADIUS)
         if unit else 0.0, w.id, w.name)
        for w in sections
    )
    return [Choice(value=i, label=_label(n, g) if unit else n) for g, i, n in ranked][:LIMIT]


def directed_choices(state: RaidState, side: str, officer: UnitState | None) -> list[Choice]:
    """Friendly units an officer can direct: not itself, within 6", nearest first."""
    mates = [u for u in state.alive(side) if not u.static and u.directing is None]
    if officer is None:
        return [Choice(value=u.id, label=f"{u.id} {u.name}") for u in mates][:LIMIT]
    ranked = sorted(
        (table.distance(u.pos, officer.pos), u.id, u.name) for u in mates if u.id != officer.id
    )
    return [
        Choice(value=i, label=_label(f"{i} {n}", gap))
        for gap, i, n in ranked if not table.beyond(gap, OFFICER_RANGE)
    ][:LIMIT]


def choices(state: RaidState, side: str, order: str, field: str, partial: dict[str, Any]) -> (
    list[Choice]
):
    """Autocomplete for ``field`` of ``order``."""
    if order == "direct" and field == "officer":
        return unit_choices(state, side, "direct")
    if order == "direct" and field == "unit":
        return directed_choices(state, side, _unit_of(state, side, partial, "officer"))
    if order == "measure":
        return _measure_choices(state, side, field, partial)
    unit = _unit_of(state, side, partial)
    if field == "unit":
        return unit_choices(state, side, order)
    if field in ("to", "via"):
        return place_choices(state, unit)
    if field == "target":
        return target_choices(state, side, order, unit)
    if field == "wire":
        return wire_choices(state, unit)
    return []


def _measure_choices(state: RaidState, side: str, field: str, partial: dict[str, Any]) -> (
    list[Choice]
):
    """The tape measure: from any unit on the table (yours first) to any place."""
    if field == "unit":
        units = sorted(state.alive(), key=lambda u: (u.side != side, u.id))
        return [Choice(value=u.id, label=f"{u.id} {u.name}") for u in units][:LIMIT]
    try:
        unit = state.unit(str(partial.get("unit") or ""))
    except RuleError:
        unit = None
    return place_choices(state, unit if unit and unit.alive else None, limit=False)


def _valid(check: Callable[[], object]) -> bool:
    try:
        check()
    except RuleError:
        return False
    return True


def legal_actions(state: RaidState, side: str) -> list[Action]:
    """Orders ``side`` may give now, each checked by the rules' own measuring (no dice)."""
    if state.finished or side != state.side:
        return []
    if state.phase == "command":
        out: list[Action] = []
        for officer in state.alive(side):
            for mate in state.alive(side) if officer.officer else []:
                order = Direct(officer=officer.id, unit=mate.id)
                if _valid(lambda o=order: check_direct(state, side, o)):
                    out.append(order)
        return [*out, Roll()]
    out = [End()]
    for unit in state.alive(side):
        if unit.actions < 1:
            continue
        out.extend(_unit_orders(state, side, unit))
    return out


def _dog_legs(state: RaidState, unit: UnitState) -> list[Action]:
    """Two-leg moves (a turn at a ``via`` point), one action per leg."""
    step = speed(unit)
    out: list[Action] = []
    for first, second in (("N", "E"), ("S", "W")):
        via, to = f"{first}:{step:g}", f"{second}:{step:g}"
        try:
            turn = table.parse_place(via, unit.pos, {}, {}).point
            plan_move(state, unit, [turn, table.parse_place(to, turn, {}, {}).point])
        except RuleError:
            continue
        out.append(Move(unit=unit.id, to=to, via=via))
    return out


def _unit_orders(state: RaidState, side: str, unit: UnitState) -> list[Action]:
    """Representative legal orders for one unit."""
    out: list[Action] = []
    if _can(unit, "move"):
        reach = unit.actions * speed(unit)
        goals = [f"{h}:{reach:g}" for h in HEADINGS]
        if unit.kind == "demolition":
            goals += [t.id for t in board.live_targets(state)]
        for goal in goals:
            try:
                where = board.place(state, goal, unit.pos).point if ":" not in goal else (
                    table.parse_place(goal, unit.pos, {}, {}).point)
                plan_move(state, unit, [where])
            except RuleError:
                continue
            out.append(Move(unit=unit.id, to=goal))
        if unit.actions >= 2:
            out.extend(_dog_legs(state, unit))
    for enemy in state.alive():
        if enemy.side == side:
            continue
        if _can(unit, "shoot") and _valid(lambda e=enemy: check_reach(state, unit, e, "shots")):
            out.append(Shoot(unit=unit.id, target=enemy.id))
        if _can(unit, "mortar") and _valid(lambda e=enemy: check_reach(state, unit, e, "mortar")):
            out.append(Mortar(unit=unit.id, target=enemy.id))
        if _can(unit, "assault"):
            charge = Assault(unit=unit.id, target=enemy.id)
            reach = unit.actions * speed(unit) + board.CONTACT
            if table.distance(unit.pos, enemy.pos) <= reach and _valid(
                lambda o=charge: plan_assault(state, side, o)
            ):
                out.append(charge)
    if _can(unit, "demolish"):
        out.extend(Demolish(unit=unit.id, target=t.id) for t in board.live_targets(state)
                   if board.touching(unit, t.shape()))
    if _can(unit, "cut-wire"):
        out.extend(CutWire(unit=unit.id, wire=w.id) for w in board.wire(state).values()
                   if board.touching(unit, w.shape()))
    return out
