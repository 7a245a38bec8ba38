"""The legal orders of a raid, each built with the checks its resolver raises on, and the
labels autocomplete shows for them.

Every ``*_offers(system, state, side)`` yields complete orders that the rules accept now: it
runs the very function the resolver runs before any die (``plan_order``, ``plan_shot``,
``check_mortar``, ``plan_assault``, ``check_demolish``, ``check_cut``, ``check_direct``) and
keeps the orders that pass.  A move is offered only as it will really end: a move that would
be cut short (the 6" line, wire, water, a base) is offered as its stopping point, so filling
an order from autocomplete never sends a move the rules refuse or cut short.  Labels carry
what a player on a phone needs: the distance, the actions a move costs and where it stops,
what a shot needs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from rules.commando import board
from rules.commando.actions import (
    Assault, CutWire, Demolish, Direct, End, Measure, Mortar, Move, Roll, Shoot,
)
from rules.commando.activation import check_direct, plural, rollable
from rules.commando.demolition import check_cut, check_demolish
from rules.commando.measuring import end_note, shot_needs
from rules.commando.melee import plan_assault
from rules.commando.movement import MovePlan, at, move_problem, plan_order, speed
from rules.commando.shooting import check_mortar, plan_shot
from rules.commando.state import RaidState, UnitState
from rules.core import table
from rules.core.errors import RuleError

#: Compass points offered as free moves (at one action and at the unit's full reach).
HEADINGS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
#: Turning patterns offered as multi-leg moves, one action per leg.
DOG_LEGS = (("N", "E"), ("S", "W"), ("E", "N", "E"), ("W", "S", "W"))


def _ok(check: Callable[[], object]) -> bool:
    """Whether the resolver's own check passes."""
    try:
        check()
    except RuleError:
        return False
    return True


# -- offers: the legal orders now -------------------------------------------------------------


def direct_offers(system: Any, state: RaidState, side: str) -> Iterator[Direct]:
    """Officers who have not activated, each with the friends within 6" they may direct."""
    officers = [u for u in state.alive(side) if u.officer]
    for officer in officers:
        for mate in state.alive(side):
            order = Direct(officer=officer.id, unit=mate.id)
            if _ok(lambda o=order: check_direct(state, side, o)):
                yield order


def roll_offers(system: Any, state: RaidState, side: str) -> Iterator[Roll]:
    """Every unit that may still roll, one at a time, and all of them at once."""
    units = rollable(state, side)
    if units:
        yield Roll()
    yield from (Roll(unit=u.id) for u in units)


def move_offers(system: Any, state: RaidState, side: str) -> Iterator[Move]:
    """Moves to the named points, the targets, the compass at one action and at full reach,
    and a few turning moves: each as it really ends."""
    table_key = _table_key(state)
    for unit in state.alive(side):
        if move_problem(unit) is None:
            yield from _unit_moves(state, side, unit, table_key)


#: Offers of one unit's moves by what they depend on (a pure function of that key): a random
#: playout or an autocomplete asks again after orders that moved nobody.
_MOVES: dict[tuple[Any, ...], tuple[Move, ...]] = {}
_MOVES_KEPT = 4096


def _table_key(state: RaidState) -> tuple[Any, ...]:
    """Everything on the table a move depends on, but the mover's own actions."""
    bases = tuple((u.id, u.side, u.x, u.y) for u in state.alive())
    return (state.scenario, bases, tuple(state.destroyed), tuple(state.wire_removed))


def _unit_moves(state: RaidState, side: str, unit: UnitState, table_key: tuple[Any, ...]) -> (
    tuple[Move, ...]
):
    key = (table_key, side, unit.id, unit.actions)
    found = _MOVES.get(key)
    if found is None:
        found = tuple(_build_moves(state, side, unit))
        if len(_MOVES) >= _MOVES_KEPT:
            _MOVES.clear()
        _MOVES[key] = found
    return found


def _build_moves(state: RaidState, side: str, unit: UnitState) -> Iterator[Move]:
    seen: set[str] = set()  # one offer per place the unit really ends
    for goal in _goals(state, unit):
        found = honest(state, side, Move(unit=unit.id, to=goal))
        if found is not None and at(found[1]) not in seen:
            seen.add(at(found[1]))
            yield found[0]
    yield from _dog_legs(state, side, unit)


def _goals(state: RaidState, unit: UnitState) -> list[str]:
    step = speed(unit)
    reach = step * unit.actions
    goals = [p.id for p in state.table.points] + [t.id for t in board.live_targets(state)]
    goals += [f"{h}:{reach:g}" for h in HEADINGS]
    if reach > step:
        goals += [f"{h}:{step:g}" for h in HEADINGS[::2]]
    return goals


def honest(state: RaidState, side: str, order: Move) -> tuple[Move, table.Point] | None:
    """``order`` and where it ends if the rules accept it as given; a move to its stopping
    point if it would be cut short (checked again, so the point sent is accepted); None if it
    is not legal."""
    try:
        plan = plan_order(state, side, order)
    except RuleError:
        return None
    if plan.needed > state.unit(order.unit).actions:
        return None  # a goal beyond the unit's actions: offered as the places it can reach
    if not plan.short:
        return order, plan.end
    if order.via or order.via2:
        return None
    offer = Move(unit=order.unit, to=at(plan.end))
    try:
        again = plan_order(state, side, offer)
    except RuleError:
        return None
    return None if again.short else (offer, again.end)


def _dog_legs(state: RaidState, side: str, unit: UnitState) -> Iterator[Move]:
    """Turning moves of one action per leg (Movement: a straight line for each action)."""
    step = f"{speed(unit):g}"
    for legs in DOG_LEGS:
        if len(legs) > unit.actions:
            continue
        places = [f"{h}:{step}" for h in legs]
        order = Move(unit=unit.id, via=places[0], via2=places[1] if len(places) > 2 else None,
                     to=places[-1])
        if honest(state, side, order) is not None:
            yield order


def shoot_offers(system: Any, state: RaidState, side: str) -> Iterator[Shoot]:
    """Every enemy each unit can shoot now (range, arc, pillboxes from 3", actions)."""
    for unit in state.alive(side):
        for enemy in state.alive():
            order = Shoot(unit=unit.id, target=enemy.id)
            if enemy.side != side and _ok(lambda o=order: plan_shot(state, side, o)):
                yield order


def mortar_offers(system: Any, state: RaidState, side: str) -> Iterator[Mortar]:
    """Every enemy a mortar team can fire at now."""
    for unit in state.alive(side):
        if unit.kind != "mortar":
            continue
        for enemy in state.alive():
            order = Mortar(unit=unit.id, target=enemy.id)
            if enemy.side != side and _ok(lambda o=order: check_mortar(state, side, o)):
                yield order


def assault_offers(system: Any, state: RaidState, side: str) -> Iterator[Assault]:
    """Every enemy a commando assault unit can charge into contact now."""
    for unit in state.alive(side):
        if unit.kind != "assault" or unit.actions < 1:
            continue
        reach = unit.actions * speed(unit) + board.CONTACT
        for enemy in state.alive():
            if enemy.side == side or table.distance(unit.pos, enemy.pos) > reach + 0.1:
                continue
            order = Assault(unit=unit.id, target=enemy.id)
            if _ok(lambda o=order: plan_assault(state, side, o)):
                yield order


def demolish_offers(system: Any, state: RaidState, side: str) -> Iterator[Demolish]:
    """Every standing target a demolition unit touches, with two actions left."""
    for unit in state.alive(side):
        if unit.kind != "demolition":
            continue
        for target in board.live_targets(state):
            order = Demolish(unit=unit.id, target=target.id)
            if _ok(lambda o=order: check_demolish(state, side, o)):
                yield order


def cut_wire_offers(system: Any, state: RaidState, side: str) -> Iterator[CutWire]:
    """Every standing wire section a unit touches, with two actions left."""
    for unit in state.alive(side):
        for section in board.wire(state).values():
            order = CutWire(unit=unit.id, wire=section.id)
            if _ok(lambda o=order: check_cut(state, side, o)):
                yield order


def end_offers(system: Any, state: RaidState, side: str) -> Iterator[End]:
    """The side may always end its turn."""
    yield End()


def measure_offers(system: Any, state: RaidState, side: str) -> Iterator[Measure]:
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


# -- labels: what a player needs to choose ------------------------------------------------------


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
