"""Demolition and barbed wire: the two-action jobs done in contact with a piece of the table.

Demolition (rulebook): two actions, commando demolition units only, in contact with the target;
on 4-6 the target is destroyed ("Yell bang!") and the unit moves 3" away; on a failure it
stays in place.  Barbed Wire: any unit touching a section removes it with two actions.
"""

from __future__ import annotations

from rules.commando import board
from rules.commando.actions import CutWire, Demolish
from rules.commando.activation import act_problem, plural, spend
from rules.commando.movement import faction
from rules.commando.scenario import TargetSpec, TerrainSpec
from rules.commando.state import RaidState, UnitState
from rules.core import table
from rules.core.contract import Event
from rules.core.dice import Dice
from rules.core.errors import RuleError
from rules.core.views import Mark

JOB_ACTIONS = 2
DEMOLITION_ON = 4
BLAST_STEP_BACK = 3.0


def find_target(state: RaidState, text: str) -> TargetSpec:
    """A standing demolition target by id or name; RuleError naming those left."""
    key = text.strip().casefold()
    for target in state.table.targets:
        if key in (target.id.casefold(), target.name.casefold()):
            if target.id in state.destroyed:
                raise RuleError(f"{target.name} is already destroyed.")
            return target
    left = ", ".join(t.id for t in board.live_targets(state)) or "none"
    raise RuleError(f"'{text[:30]}' is not a demolition target; targets left: {left}.")


def check_demolish(state: RaidState, side: str, order: Demolish) -> tuple[UnitState, TargetSpec]:
    """Validate a demolition (every check before the die): who, what, contact, two actions."""
    unit = state.own_unit(side, order.unit)
    if unit.kind != "demolition":
        teams = [u.id for u in state.alive(side) if u.kind == "demolition"] or ["none"]
        raise RuleError(f"Only commando demolition units demolish; yours: {', '.join(teams)}.")
    target = find_target(state, order.target)
    shape = target.shape()
    if not board.touching(unit, shape):
        gap = table.distance_to_shape(unit.pos, shape) - board.BASE_RADIUS
        raise RuleError(
            f"{unit.id} is {table.inches(max(gap, 0.0))} from {target.name}; it must be in "
            "contact (Demolition)."
        )
    _need_actions(unit, "a demolition")
    return unit, target


def _need_actions(unit: UnitState, what: str) -> None:
    problem = act_problem(unit)
    if problem is not None:
        raise RuleError(problem)
    if unit.actions < JOB_ACTIONS:
        raise RuleError(f"{unit.id} has {plural(unit.actions, 'action')} left; {what} needs "
                        f"{JOB_ACTIONS}.")


def demolish(state: RaidState, side: str, order: Demolish, dice: Dice) -> list[Event]:
    """Set charges on a target the unit touches; 4-6 destroys it and the unit steps 3" away."""
    unit, target = check_demolish(state, side, order)
    shape = target.shape()
    spend(unit, JOB_ACTIONS, "a demolition")
    die = dice.die(6, f"{unit.id} demolition of {target.id}, d6")
    attempt = Event(
        kind="demolition",
        text=f"{unit.id} sets charges: {target.name} (Demolition)",
        rule="Demolition",
        data={"unit": unit.id, "target": target.id, "die": die, "destroyed": die >= 4},
    )
    if die < DEMOLITION_ON:
        return [attempt, Event(
            kind="demolition_result",
            text=f"🎲 {die} need 4+ → failed; {unit.id} stays put",
            rule="Demolition",
            data={"die": die},
        )]
    state.destroyed.append(target.id)
    start = unit.pos
    unit.x, unit.y = _step_back(state, start, shape)
    moved = table.distance(start, unit.pos)
    state.marks.append(Mark(kind="blast", points=[table.shape_centre(shape)],
                            text=f"BANG {target.name}", side=faction(unit.side),
                            by=[unit.id]))
    if moved > 0.01:
        state.marks.append(Mark(kind="move", points=[start, unit.pos],
                                text=table.inches(moved), side=faction(unit.side)))
    return [
        attempt,
        Event(
            kind="bang",
            text=f"🎲 {die} need 4+ → 💥 BANG! {target.name} destroyed",
            rule="Demolition",
            data={"target": target.id, "points": target.points},
        ),
        Event(
            kind="fall_back",
            text=f"{unit.id} falls back {table.inches(moved)} (Demolition)",
            rule="Demolition",
            data={"unit": unit.id, "moved": round(moved, 2)},
        ),
    ]


def _step_back(state: RaidState, start: table.Point, shape: table.Shape) -> table.Point:
    """Where the unit ends after moving 3" straight away from the blown target.

    It goes directly away from the nearest point of the target, as far as the table, water,
    wire, other targets and enemy bases allow, and ends clear of friendly bases.
    """
    away = table.sub(start, table.closest_point(start, shape))
    if table.length(away) < table.EPS:
        away = table.sub(start, table.shape_centre(shape))
    if table.length(away) < table.EPS:
        away = (0.0, -1.0)
    goal = table.add(start, table.scale(away, BLAST_STEP_BACK / table.length(away)))
    scen = state.table
    goal = table.clamp_to_table(goal, scen.width, scen.height, board.BASE_RADIUS)
    shapes = {**board.obstacles(state), **board.bases(state, "germans")}
    hit = table.first_contact_among(start, goal, shapes, board.BASE_RADIUS)
    if hit is not None:
        span = table.distance(start, goal)
        goal = table.lerp(start, goal, max(0.0, hit.t - 1e-3 / max(span, table.EPS)))
    # Bases never end a move overlapping another base: stop clear of friends too.
    friends = {u.id: u.pos for u in state.alive("commandos") if u.pos != start}
    path, _ = table.clear_end([start, goal], friends, board.CONTACT - 1e-3)
    return path[-1]


def check_cut(state: RaidState, side: str, order: CutWire) -> tuple[UnitState, TerrainSpec]:
    """Validate removing wire: a unit that may act, standing wire it touches, two actions."""
    unit = state.own_unit(side, order.unit)
    if unit.static:
        raise RuleError(f"{unit.id} is a {unit.kind} and cannot leave its post to cut wire.")
    sections = board.wire(state)
    key = order.wire.strip().casefold()
    section = next(
        (w for w in sections.values() if key in (w.id.casefold(), w.name.casefold())), None
    )
    if section is None:
        left = ", ".join(sections) or "none"
        raise RuleError(f"'{order.wire[:30]}' is not standing wire; wire sections: {left}.")
    shape = section.shape()
    if not board.touching(unit, shape):
        gap = max(0.0, table.distance_to_shape(unit.pos, shape) - board.BASE_RADIUS)
        raise RuleError(
            f"{unit.id} is {table.inches(gap)} from {section.name}; it must touch it (Barbed Wire)."
        )
    _need_actions(unit, "removing wire")
    return unit, section


def cut_wire(state: RaidState, side: str, order: CutWire) -> list[Event]:
    """Remove a barbed wire section the unit touches, for two actions (Barbed Wire)."""
    unit, section = check_cut(state, side, order)
    spend(unit, JOB_ACTIONS, "removing wire")
    state.wire_removed.append(section.id)
    return [Event(
        kind="wire",
        text=f"{unit.id} removes {section.name} (2 actions, Barbed Wire)",
        rule="Barbed Wire",
        data={"unit": unit.id, "wire": section.id},
    )]
