"""Demolition and barbed wire: the two-action jobs done in contact with a piece of the table.

Demolition (rulebook): two actions, commando demolition units only, in contact with the target;
on 4-6 the target is destroyed ("Yell bang!") and the unit moves 3" away; on a failure it
stays in place.  Barbed Wire: any unit touching a section removes it with two actions.  The
``demolish`` and ``cut-wire`` orders are declared here.
"""

from __future__ import annotations

from collections.abc import Iterator

from rules.commando import board
from rules.commando.actions import CutWire, Demolish, accepted
from rules.commando.activation import act_problem, plural, spend
from rules.commando.fallback import fall_back
from rules.commando.movement import faction
from rules.commando.scenario import TargetSpec, TerrainSpec
from rules.commando.state import RaidState, UnitState
from rules.core import table
from rules.core.errors import RuleError
from rules.core.orders import Ctx, order
from rules.core.views import Mark

JOB_ACTIONS = 2
DEMOLITION_ON = 4


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
    if side == "germans":
        raise RuleError("German units don't engage in hand to hand combat or demolition "
                        "(Unit Activation, note); they move and shoot.")
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


def demolish_offers(state: RaidState, side: str) -> Iterator[Demolish]:
    """Every standing target a demolition unit touches, with two actions left."""
    for unit in state.alive(side):
        if unit.kind != "demolition":
            continue
        for target in board.live_targets(state):
            offer = Demolish(unit=unit.id, target=target.id)
            if accepted(check_demolish, state, side, offer):
                yield offer


@order(Demolish, phases="actions", offers=demolish_offers)
def demolish(ctx: Ctx[RaidState], action: Demolish) -> None:
    """Demolition: two actions in contact with the target; 4-6 destroys it and the unit
    steps 3" away, on a failure it stays put."""
    state = ctx.state
    unit, target = check_demolish(state, ctx.side, action)
    shape = target.shape()
    spend(unit, JOB_ACTIONS, "a demolition")
    die = ctx.dice.die(6, f"{unit.id} demolition of {target.id}, d6")
    ctx.say("demolition", f"{unit.id} sets charges: {target.name} (Demolition)", "Demolition",
            unit=unit.id, target=target.id, die=die, destroyed=die >= 4)
    if die < DEMOLITION_ON:
        ctx.say("demolition_result", f"🎲 {die} need 4+ → failed; {unit.id} stays put",
                "Demolition", die=die)
        return
    state.destroyed.append(target.id)
    back = fall_back(state, unit, shape)
    start, moved = back.start, back.moved
    unit.x, unit.y = back.end
    state.marks.append(Mark(kind="blast", points=[table.shape_centre(shape)],
                            text=f"BANG {target.name}", side=faction(unit.side),
                            by=[unit.id]))
    if moved > 0.01:
        state.marks.append(Mark(kind="move", points=[start, unit.pos],
                                text=table.inches(moved), side=faction(unit.side)))
    ctx.say("bang", f"🎲 {die} need 4+ → 💥 BANG! {target.name} destroyed", "Demolition",
            target=target.id, points=target.points)
    ctx.say("fall_back",
            f"{unit.id} falls back {table.inches(moved)} (Demolition)"
            + (f": {back.note}" if back.note else ""),
            "Demolition", unit=unit.id, moved=round(moved, 2), note=back.note)


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


def cut_wire_offers(state: RaidState, side: str) -> Iterator[CutWire]:
    """Every standing wire section a unit touches, with two actions left."""
    for unit in state.alive(side):
        for section in board.wire(state).values():
            offer = CutWire(unit=unit.id, wire=section.id)
            if accepted(check_cut, state, side, offer):
                yield offer


@order(CutWire, phases="actions", offers=cut_wire_offers)
def cut_wire(ctx: Ctx[RaidState], action: CutWire) -> None:
    """Barbed Wire: a unit touching a section removes it with two actions."""
    unit, section = check_cut(ctx.state, ctx.side, action)
    spend(unit, JOB_ACTIONS, "removing wire")
    ctx.state.wire_removed.append(section.id)
    ctx.say("wire", f"{unit.id} removes {section.name} (2 actions, Barbed Wire)", "Barbed Wire",
            unit=unit.id, wire=section.id)
