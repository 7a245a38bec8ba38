"""Movement: up to three straight legs of 6" (12" for vehicles) per action, stopped by wire,
water, solid targets, enemy bases and the 6" line around enemy units.

Movement (rulebook): "A move costs one action and units must move in a straight line for each
action.  If a unit is moving it must perform all its move actions together."  So one ``move``
order carries all of a unit's moves (up to three straight legs: ``via``, ``via2``, ``to``; each
leg costs one action per 6" or part), and a unit moves once a turn.  "Units must cease movement
when within 6" of enemy units or pillboxes, unless the movement is to assault a unit or move
directly away": the move that comes within 6" of an enemy ends on that line; a unit already
within 6" of an enemy when its move starts is not halted by that enemy again (a later
activation may close in, as a pillbox can only be attacked from within 3").

Honest moves: a move that would be cut short (the 6" line, wire, water, a target, a base) is
refused with the point where it would stop, unless the order says ``confirm:yes``; ``measure``
and the move's autocomplete show the same stopping point.  Bases never end a move overlapping
another base: friends are passed through, but the move ends clear of them.

The ``move`` order is declared here, with its offers: each move offered as it really ends (a
move that would be cut short is offered as its stopping point), so filling an order from
autocomplete never sends a move the rules refuse or cut short.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from rules.commando import board
from rules.commando.actions import Move
from rules.commando.activation import act_problem, plural, spend
from rules.commando.state import RaidState, UnitState, other
from rules.core import table
from rules.core.errors import RuleError
from rules.core.orders import Ctx, order
from rules.core.views import Mark

#: Inches per move action (Movement); pillboxes and searchlights are fixed.
SPEED: dict[str, float] = {
    "assault": 6.0, "demolition": 6.0, "mortar": 6.0, "infantry": 6.0,
    "armoured_car": 12.0, "truck": 12.0, "motorcycle": 12.0, "half_track": 12.0,
    "pillbox": 0.0, "searchlight": 0.0,
}
#: Movement: units cease moving within 6" of enemy units or pillboxes.
ENEMY_ZONE = 6.0
#: A stopped base is kept this far (inches) short of the line it met, so it can move off again.
BACK_OFF = 1e-3
#: A move ending more than this (inches) short of where it was sent is "cut short".
SHORT_BY = 0.05
#: Compass points offered as free moves (at one action and at the unit's full reach).
HEADINGS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
#: Turning patterns offered as multi-leg moves, one action per leg.
DOG_LEGS = (("N", "E"), ("S", "W"), ("E", "N", "E"), ("W", "S", "W"))


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
    #: The actions the whole route as sent would cost (more than ``cost`` when it is halted
    #: early: a route longer than the unit's actions is accepted only if halted within them).
    needed: int = 0

    @property
    def short(self) -> bool:
        """Whether the move ends short of where it was sent (honest moves)."""
        return self.stop is not None and self.planned - self.travelled > SHORT_BY

    @property
    def end(self) -> table.Point:
        """Where the unit stops."""
        return self.path[-1]


def speed(unit: UnitState) -> float:
    """Inches per move action for this unit (Movement): the scenario's own, else its kind's."""
    return SPEED[unit.kind] if unit.move is None else unit.move


def zone_units(state: RaidState, unit: UnitState) -> list[UnitState]:
    """Enemies whose 6" line stops this unit: every enemy unit, pillboxes and searchlights
    included ("Searchlights can be eliminated just like any other unit": they are units)."""
    return [e for e in state.alive() if e.side != unit.side]


def move_problem(unit: UnitState) -> str | None:
    """Why ``unit`` cannot move now at all, or None (Movement, Unit Activation)."""
    if speed(unit) <= 0:
        return f"{unit.id} is a {unit.kind} and never moves (Pillboxes)."
    if unit.moved:
        return f"{unit.id} has already moved this turn; all its moves go in one order (Movement)."
    return act_problem(unit)


def destination(state: RaidState, unit: UnitState, text: str, origin: table.Point) -> (
    tuple[table.Point, str]
):
    """Where a typed place sends ``unit`` from ``origin``, and its label.

    A unit or a demolition target named as the place means "into contact with it": the base
    stops touching it (beside a friend, against a target or a wire section), which is the
    move's goal, not a cut short move.
    """
    where = board.place(state, text, origin)
    if where.kind == "unit":
        if where.label.casefold() == unit.id.casefold():
            raise RuleError(f"{unit.id} cannot move to itself; give another place.")
        return table.toward(where.point, origin, board.CONTACT), where.label
    found = board.contact_shape(state, where.label) if where.kind == "named" else None
    if found is not None:
        name, shape = found
        t = table.first_contact(origin, where.point, shape, board.BASE_RADIUS)
        return (where.point if t is None else table.lerp(origin, where.point, t)), name
    return where.point, where.label


def waypoints(state: RaidState, unit: UnitState, order: Move) -> tuple[list[table.Point], str]:
    """The turning points and end of a ``move`` order, each place read from the one before."""
    points: list[table.Point] = []
    here, label = unit.pos, ""
    for text in (order.via, order.via2, order.to):
        if text is None or not text.strip():
            continue
        here, label = destination(state, unit, text, here)
        points.append(here)
    return points, label


def plan_move(
    state: RaidState, unit: UnitState, points: list[table.Point], assault: str | None = None
) -> MovePlan:
    """Measure a move of ``unit`` through ``points``; RuleError if it cannot be made.

    ``assault`` is the id of the enemy being charged: the 6" rule does not apply to a move
    made to assault (Movement) and the target's own base is the goal, not an obstacle.
    """
    # A charge (``assault``) checks its own mover (melee.check_assault): it may follow on
    # from the unit's move.
    problem = move_problem(unit) if assault is None else act_problem(unit)
    if problem is not None:
        raise RuleError(problem)
    scen = state.table
    for point in points:
        if not table.on_table(point, scen.width, scen.height, board.BASE_RADIUS):
            raise RuleError(
                f"{point[0]:.1f},{point[1]:.1f} is off the {scen.width:g}\"x{scen.height:g}\" "
                "table; pick a place on it."
            )
    planned_pts = [unit.pos, *points]
    legs = [table.distance(a, b) for a, b in zip(planned_pts, planned_pts[1:])]
    planned = sum(legs)
    if planned < 0.05:
        raise RuleError(f"{unit.id} is already there; give a place at least 0.1\" away.")
    cost = sum(table.legs_needed(leg, speed(unit)) for leg in legs)
    plan = trace(state, unit, points, assault)
    if cost > unit.actions and not (plan.short and plan.cost <= unit.actions):
        # A route longer than the actions is still a move when what stops it (the 6" line,
        # wire, a base) halts it within them: it is then a move cut short (honest moves).
        raise RuleError(too_far(unit, legs, cost))
    plan.needed = cost
    return plan


def too_far(unit: UnitState, legs: list[float], cost: int) -> str:
    """The refusal of a move that needs more actions than ``unit`` has (Movement: "A move
    costs one action and units must move in a straight line for each action"), e.g.
    ``G4 can move at most 6" with 1 action (Movement); that is 11.0".``"""
    step, left = speed(unit), plural(unit.actions, "action")
    if len(legs) == 1:
        return (f"{unit.id} can move at most {unit.actions * step:g}\" with {left} "
                f"(Movement); that is {table.inches(legs[0])}.")
    return (f"{unit.id} has {left}; {table.inches(sum(legs))} in {len(legs)} legs needs {cost} "
            f"(one per {step:g}\" or part of each straight leg, Movement).")


def trace(
    state: RaidState, unit: UnitState, points: list[table.Point], assault: str | None = None
) -> MovePlan:
    """Follow the legs until something stops the base (no check of actions: the tape measure
    uses it too); RuleError for a move that cannot start at all."""
    path = [unit.pos]
    stop: str | None = None
    for goal in points:
        start = path[-1]
        span = table.distance(start, goal)
        if span < table.EPS:
            continue
        best, why = _first_stop(state, unit, start, goal, assault)
        if why is None:
            path.append(goal)
            continue
        end = table.lerp(start, goal, max(0.0, best - BACK_OFF / span))
        if table.distance(start, end) > 0.01:
            path.append(end)
        stop = why
        break
    friends = {u.id: u.pos for u in state.alive(unit.side) if u.id != unit.id}
    path, blocker = table.clear_end(path, friends, board.CONTACT - 1e-3)
    if blocker is not None:  # what stopped it first stays said: a 6" stop on a friend's base
        backed = f"backed off {blocker}'s base (bases never overlap)"
        stop = f"{stop}; {backed}" if stop else f"stopped short of {blocker}'s base (bases never overlap)"
    legs = [table.distance(a, b) for a, b in zip(path, path[1:])]
    travelled = sum(legs)
    if travelled <= 0.01:
        why = stop or "its base would end where it stands"
        raise RuleError(f"{unit.id} cannot move that way: {why} at once (Movement); "
                        "give a place in another direction.")
    planned = table.path_length([unit.pos, *points])
    cost = max(1, sum(table.legs_needed(leg, speed(unit)) for leg in legs))
    return MovePlan(unit.id, path, planned, travelled, cost, stop, legs)


def _first_stop(
    state: RaidState, unit: UnitState, start: table.Point, goal: table.Point, assault: str | None
) -> tuple[float, str | None]:
    """How far along ``start -> goal`` (0..1) the base is first stopped, and why."""
    best, why = contact_stop(state, unit, start, goal, leave_out=assault)
    for enemy in [] if assault else zone_units(state, unit):
        if not table.beyond(table.distance(start, enemy.pos), ENEMY_ZONE):
            continue  # already within 6": this enemy halted an earlier move, it may close in
        if table.distance_to_segment(enemy.pos, start, goal) >= ENEMY_ZONE:
            continue  # the leg never comes within 6" of this enemy
        t = table.first_contact(start, goal, table.Circle(enemy.pos, ENEMY_ZONE))
        if t is not None and t < best:
            best, why = t, f'stopped 6" from {enemy.id}'
    return best, why


def contact_stop(
    state: RaidState, unit: UnitState, start: table.Point, goal: table.Point,
    leave_out: str | None = None,
) -> tuple[float, str | None]:
    """How far along ``start -> goal`` (0..1) the base first touches what no base may cross,
    and why: water, wire, a standing target (Barbed Wire; our reading for water and targets),
    a building for a vehicle (:func:`board.obstacles`) or an enemy base (``leave_out``, the enemy being charged, excepted).  Friends are passed
    through ("Units may pass through friendly units without penalty")."""
    best, why = 1.0, None
    hit = table.first_contact_among(start, goal, board.obstacles(state, unit.kind),
                                   board.BASE_RADIUS)
    if hit is not None and hit.t < best:
        best, why = hit.t, f"stopped at {board.feature_name(state, hit.key)}"
    bodies = board.bases(state, other(unit.side), leave_out=leave_out)
    hit = table.first_contact_among(start, goal, bodies, board.BASE_RADIUS)
    if hit is not None and hit.t < best:
        best, why = hit.t, f"stopped in contact with {hit.key}"
    return best, why


def plan_order(state: RaidState, side: str, order: Move) -> MovePlan:
    """Measure a ``move`` order as the resolver will carry it out (no confirmation check)."""
    unit = state.own_unit(side, order.unit)
    points, _ = waypoints(state, unit, order)
    if not points:
        raise RuleError("A move needs a place to go: to:<place>.")
    return plan_move(state, unit, points)


def at(point: table.Point) -> str:
    """A stopping point as a player can send it back: ``41.2,30.1``."""
    return f"{point[0]:.1f},{point[1]:.1f}"


def cut_short(plan: MovePlan) -> str:
    """The refusal of a move that would be cut short, with where it would stop."""
    # "units must move in a straight line for each action": each leg begun costs its action,
    # a few tenths of an inch past a turning point too, so the cost is said before confirming.
    return (
        f"{plan.unit} would stop after {table.inches(plan.travelled)} at {at(plan.end)}, "
        f"{plural(plan.cost, 'action')}: {plan.stop} (Movement). Send to:{at(plan.end)}, "
        "or add confirm:yes."
    )


def carry_out(state: RaidState, unit: UnitState, plan: MovePlan, kind: str = "move") -> Mark:
    """Put the unit at the end of ``plan``, spend its actions and return the measured line."""
    spend(unit, plan.cost, "that move")
    unit.x, unit.y = plan.end
    unit.moved = True
    unit.moving = kind == "move"
    mark = Mark(kind=kind, points=list(plan.path), text=table.inches(plan.travelled),
                side=faction(unit.side))
    state.marks.append(mark)
    return mark


def faction(side: str) -> str:
    """The view's faction key of a side."""
    return "commando" if side == "commandos" else "german"


# -- the offers: every move as it really ends ------------------------------------------------


def move_offers(state: RaidState, side: str) -> Iterator[Move]:
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
        route = Move(unit=unit.id, via=places[0], via2=places[1] if len(places) > 2 else None,
                     to=places[-1])
        if honest(state, side, route) is not None:
            yield route


@order(Move, phases="actions", offers=move_offers)
def move(ctx: Ctx[RaidState], action: Move) -> None:
    """Movement: up to three straight legs, refused if cut short unless confirmed (honest
    moves), then reported with the measured line."""
    state = ctx.state
    plan = plan_order(state, ctx.side, action)
    if plan.short and not action.confirm:
        raise RuleError(cut_short(plan))
    unit = state.unit(action.unit)
    _, label = waypoints(state, unit, action)
    carry_out(state, unit, plan)
    text = (
        f"{unit.id} moves {table.inches(plan.travelled)} → {at(plan.end) if plan.short else label} "
        f"({plural(plan.cost, 'action')}, Movement)"
    )
    ctx.say("move", text, "Movement", unit=unit.id, distance=round(plan.travelled, 2),
            cost=plan.cost, to=[round(v, 2) for v in plan.end],
            stop=plan.stop if plan.short else None)
    if plan.short:
        ctx.say("stop", f"{unit.id} {plan.stop} (Movement)", "Movement", unit=unit.id)
