"""Movement: straight lines of 6" (12" for vehicles) per action, stopped by wire, water,
solid targets, enemy bases and the 6" line around enemy units and pillboxes.

Movement (rulebook): "A move costs one action and units must move in a straight line for each
action.  If a unit is moving it must perform all its move actions together."  So one ``move``
order carries all of a unit's moves (a straight line, or two with a ``via`` turning point; each
leg costs one action per 6" or part), and a unit moves once a turn.  "Units must cease movement
when within 6" of enemy units or pillboxes, unless the movement is to assault a unit or move
directly away": a move is cut short on the 6" line and the event says so.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.commando import board
from rules.commando.actions import Move
from rules.commando.activation import plural, spend
from rules.commando.state import RaidState, UnitState
from rules.core import table
from rules.core.contract import Event
from rules.core.errors import RuleError
from rules.core.views import Mark

#: Inches per move action (Movement); pillboxes and searchlights are fixed.
SPEED: dict[str, float] = {
    "assault": 6.0, "demolition": 6.0, "mortar": 6.0, "infantry": 6.0,
    "armoured_car": 12.0, "truck": 12.0, "motorcycle": 12.0, "half_track": 12.0,
    "pillbox": 0.0, "searchlight": 0.0,
}
#: Movement: units cease moving within 6" of enemy units or pillboxes.
ENEMY_ZONE = 6.0
#: How far off "directly away" (degrees) a move may head and still count as moving away.
#: Our stand-in: the text says "directly away" without a tolerance.
AWAY_TOLERANCE = 45.0
#: A stopped base is kept this far (inches) short of the line it met, so it can move off again.
BACK_OFF = 1e-3


@dataclass
class MovePlan:
    """A measured move: the points travelled, its length, the actions it costs and any stop."""

    unit: str
    path: list[table.Point]
    planned: float
    travelled: float
    cost: int
    stop: str | None = None
    legs: list[float] = field(default_factory=list)


def speed(unit: UnitState) -> float:
    """Inches per move action for this unit (Movement)."""
    return SPEED[unit.kind]


def zone_units(state: RaidState, unit: UnitState) -> list[UnitState]:
    """Enemies whose 6" line stops this unit: units and pillboxes, not searchlights.

    Searchlights are equipment the text treats only as targets, so they do not halt moves.
    """
    return [e for e in state.alive() if e.side != unit.side and e.kind != "searchlight"]


def plan_move(
    state: RaidState, unit: UnitState, waypoints: list[table.Point], assault: str | None = None
) -> MovePlan:
    """Measure a move of ``unit`` through ``waypoints``; RuleError if it cannot be made.

    ``assault`` is the id of the enemy being charged: the 6" rule does not apply to a move
    made to assault (Movement) and the target's own base is the goal, not an obstacle.
    """
    step = speed(unit)
    if step <= 0:
        raise RuleError(f"{unit.id} is a {unit.kind} and never moves (Pillboxes).")
    if unit.moved:
        raise RuleError(
            f"{unit.id} has already moved this turn; all its moves go in one order (Movement)."
        )
    if unit.actions < 1:
        raise RuleError(f"{unit.id} has no actions left this turn (Unit Activation).")
    scen = state.table
    for point in waypoints:
        if not table.on_table(point, scen.width, scen.height, board.BASE_RADIUS):
            raise RuleError(
                f"{point[0]:.1f},{point[1]:.1f} is off the {scen.width:g}\"x{scen.height:g}\" "
                "table; pick a place on it."
            )
    planned_pts = [unit.pos, *waypoints]
    legs = [table.distance(a, b) for a, b in zip(planned_pts, planned_pts[1:])]
    planned = sum(legs)
    if planned < 0.05:
        raise RuleError(f"{unit.id} is already there; give a place at least 0.1\" away.")
    cost = sum(table.legs_needed(leg, step) for leg in legs)
    if cost > unit.actions:
        reach = f"{unit.actions * step:g}\""
        how = f"{table.inches(planned)}" + (f" in {len(legs)} legs" if len(legs) > 1 else "")
        raise RuleError(
            f"{unit.id}: {how} - {plural(unit.actions, 'action')} move {reach} (Movement)."
        )
    return _walk(state, unit, waypoints, planned, legs, step, assault)


def _walk(
    state: RaidState,
    unit: UnitState,
    waypoints: list[table.Point],
    planned: float,
    legs: list[float],
    step: float,
    assault: str | None,
) -> MovePlan:
    """Follow the legs until something stops the base; refuse a move that cannot start."""
    blockers = board.obstacles(state)
    bodies: dict[str, table.Shape] = {
        e.id: table.Circle(e.pos, board.BASE_RADIUS)
        for e in state.alive() if e.side != unit.side and e.id != assault
    }
    zones = [] if assault else zone_units(state, unit)
    path = [unit.pos]
    travelled_legs: list[float] = []
    stop: str | None = None
    for goal in waypoints:
        start = path[-1]
        span = table.distance(start, goal)
        if span < table.EPS:
            continue
        best, why = 1.0, None
        hit = table.first_contact_among(start, goal, blockers, board.BASE_RADIUS)
        if hit is not None and hit.t < best:
            best, why = hit.t, f"stopped at {board.feature_name(state, hit.key)}"
        hit = table.first_contact_among(start, goal, bodies, board.BASE_RADIUS)
        if hit is not None and hit.t < best:
            best, why = hit.t, f"stopped in contact with {hit.key}"
        for enemy in zones:
            if table.distance_to_segment(enemy.pos, start, goal) >= ENEMY_ZONE:
                continue  # the path never comes within 6" of this enemy
            if table.moving_away(start, goal, enemy.pos, AWAY_TOLERANCE):
                continue
            t = table.first_contact(start, goal, table.Circle(enemy.pos, ENEMY_ZONE))
            if t is not None and t < best:
                gap = table.distance(start, enemy.pos)
                if t <= table.EPS and table.measured(gap) < ENEMY_ZONE:
                    raise RuleError(
                        f"{unit.id} is {table.inches(gap)} from {enemy.id}: within 6\" it may "
                        "only move directly away or assault (Movement)."
                    )
                best, why = t, f'stopped 6" from {enemy.id}'
        if why is None:
            path.append(goal)
            travelled_legs.append(span)
            continue
        end = table.lerp(start, goal, max(0.0, best - BACK_OFF / span))
        if table.distance(start, end) > 0.01:
            path.append(end)
            travelled_legs.append(table.distance(start, end))
        stop = why
        break
    travelled = sum(travelled_legs)
    if travelled <= 0.01:
        raise RuleError(f"{unit.id} cannot move that way: {stop} at once (Movement).")
    cost = max(1, sum(table.legs_needed(leg, step) for leg in travelled_legs))
    return MovePlan(unit.id, path, planned, travelled, cost, stop, travelled_legs)


def carry_out(state: RaidState, unit: UnitState, plan: MovePlan, kind: str = "move") -> Mark:
    """Put the unit at the end of ``plan``, spend its actions and return the measured line."""
    spend(unit, plan.cost, "that move")
    unit.x, unit.y = plan.path[-1]
    unit.moved = True
    mark = Mark(kind=kind, points=list(plan.path), text=table.inches(plan.travelled),
                side=faction(unit.side))
    state.marks.append(mark)
    return mark


def faction(side: str) -> str:
    """The view's faction key of a side."""
    return "commando" if side == "commandos" else "german"


def move(state: RaidState, side: str, order: Move) -> list[Event]:
    """Resolve a ``move`` order: measure, cut short where the rules say, and report."""
    unit = state.own_unit(side, order.unit)
    via = board.place(state, order.via, unit.pos) if order.via else None
    goal = board.place(state, order.to, via.point if via else unit.pos)
    if goal.kind == "unit" and goal.label == unit.id:
        raise RuleError(f"{unit.id} cannot move to itself; give another place.")
    plan = plan_move(state, unit, [p.point for p in (via, goal) if p is not None])
    carry_out(state, unit, plan)
    text = (
        f"{unit.id} moves {table.inches(plan.travelled)} → {goal.label} "
        f"({plural(plan.cost, 'action')}, Movement)"
    )
    events = [Event(kind="move", text=text, rule="Movement", data={
        "unit": unit.id, "distance": round(plan.travelled, 2), "cost": plan.cost,
        "to": [round(v, 2) for v in plan.path[-1]], "stop": plan.stop,
    })]
    if plan.stop:
        events.append(Event(
            kind="stop", text=f"{unit.id} {plan.stop} (Movement)", rule="Movement",
            data={"unit": unit.id},
        ))
    return events
