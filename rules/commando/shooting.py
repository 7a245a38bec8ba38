"""Shooting and the 2" mortar.

Shooting (rulebook): one die per shooting action, all of a unit's shots together; -1 if the
target is in cover, an armoured car or half-track, or a pillbox; -1 if shooting more than 6";
a modified 4+ hits and the target saves on 4+ (1-3 eliminates it).  Range 12"; a pillbox can
only be attacked from within 3".  Units shoot all round, pillboxes in a 180 degree arc.
Searchlights are shot like any other unit.  The 2" mortar: two actions, one die, 5-6
eliminates with no save.  The ``shoot`` and ``mortar`` orders are declared here.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rules.commando import board
from rules.commando.actions import Mortar, Shoot, accepted
from rules.commando.activation import act_problem, plural, spend
from rules.commando.movement import faction
from rules.commando.state import RaidState, UnitState
from rules.core import table
from rules.core.errors import RuleError
from rules.core.orders import Ctx, order
from rules.core.views import Mark

RANGE = 12.0
PILLBOX_RANGE = 3.0
CLOSE_RANGE = 6.0
PILLBOX_ARC = 180.0
HIT_ON = 4
SAVE_ON = 4
MORTAR_ACTIONS = 2
MORTAR_KILLS_ON = 5
ARMOURED = ("armoured_car", "half_track")


@dataclass
class ShotPlan:
    """A measured shot: the distance and the modifiers, each with its reason."""

    shooter: UnitState
    target: UnitState
    distance: float
    modifiers: list[tuple[int, str]]
    cover: board.Cover | None = None  # the building or cover piece that gives it


def check_reach(state: RaidState, shooter: UnitState, target: UnitState, order: str) -> float:
    """Actions, range and arc checks shared by rifles and the mortar; returns the distance."""
    if shooter.kind == "searchlight":
        raise RuleError(f"{shooter.id} is a searchlight and cannot shoot (Searchlights).")
    if shooter.shot:
        raise RuleError(
            f"{shooter.id} has already fired this turn; all its shots go in one order (Shooting)."
        )
    problem = act_problem(shooter)
    if problem is not None:
        raise RuleError(problem)
    return check_line(shooter, target, order)


def check_line(shooter: UnitState, target: UnitState, order: str) -> float:
    """Whether ``shooter`` could fire at ``target`` at all: who, range, arc; the distance."""
    if shooter.kind == "searchlight":
        raise RuleError(f"{shooter.id} is a searchlight and cannot shoot (Searchlights).")
    gap = table.distance(shooter.pos, target.pos)
    if target.kind == "pillbox" and table.beyond(gap, PILLBOX_RANGE):
        raise RuleError(
            f"{target.id} is {table.inches(gap)} away; pillboxes can only be attacked from "
            'within 3" (Pillboxes).'
        )
    if table.beyond(gap, RANGE):
        raise RuleError(
            f'{target.id} is {table.inches(gap)} away; {order} range is 12" (Shooting).'
        )
    if shooter.kind == "pillbox" and shooter.facing is not None and not table.in_arc(
        shooter.pos, shooter.facing, PILLBOX_ARC, target.pos
    ):
        raise RuleError(
            f"{target.id} is outside {shooter.id}'s 180° arc (facing "
            f"{table.compass_name(shooter.facing)}); pillboxes fire to their front (Pillboxes)."
        )
    return gap


def plan_shot(state: RaidState, side: str, order: Shoot) -> ShotPlan:
    """Validate a ``shoot`` order and measure its modifiers (every check before a die)."""
    shooter = state.own_unit(side, order.unit)
    target = state.enemy_unit(side, order.target)
    gap = check_reach(state, shooter, target, "shooting")
    count = order.shots if order.shots is not None else shooter.actions
    if count > shooter.actions:
        raise RuleError(f"{shooter.id} has {plural(shooter.actions, 'action')} left; "
                        f"{plural(count, 'shot')} need {count}.")
    return measure_shot(state, shooter, target, gap)


def check_mortar(state: RaidState, side: str, order: Mortar) -> tuple[UnitState, UnitState, float]:
    """Validate a 2" mortar order (every check before the die): team, target, reach, actions."""
    shooter = state.own_unit(side, order.unit)
    if shooter.kind != "mortar":
        teams = [u.id for u in state.alive(side) if u.kind == "mortar"] or ["none"]
        raise RuleError(f"{shooter.id} has no 2\" mortar; mortar teams: {', '.join(teams)}.")
    target = state.enemy_unit(side, order.target)
    gap = check_reach(state, shooter, target, "mortar")
    if shooter.actions < MORTAR_ACTIONS:
        raise RuleError(f"{shooter.id} has {plural(shooter.actions, 'action')} left; "
                        f"the 2\" mortar needs {MORTAR_ACTIONS}.")
    return shooter, target, gap


def measure_shot(state: RaidState, shooter: UnitState, target: UnitState, gap: float) -> ShotPlan:
    """The modifiers of a shot (Shooting): one -1 for cover, armour or a pillbox; -1 over 6"."""
    mods: list[tuple[int, str]] = []
    cover = board.in_cover(state, target)
    if target.kind == "pillbox":
        mods.append((-1, "pillbox"))
    elif target.kind in ARMOURED if target.armoured is None else target.armoured:
        mods.append((-1, "armoured"))
    elif cover is not None:
        mods.append((-1, "cover"))
    if table.beyond(gap, CLOSE_RANGE):
        mods.append((-1, 'over 6"'))
    used_cover = cover if any(why == "cover" for _, why in mods) else None
    return ShotPlan(shooter, target, gap, mods, used_cover)


def _fire_mark(state: RaidState, shooter: UnitState, target: UnitState, text: str,
               killed: bool) -> None:
    state.marks.append(Mark(
        kind="shot" if killed else "miss",
        points=[shooter.pos, target.pos],
        text=text,
        side=faction(shooter.side),
        by=[shooter.id],
    ))


def shoot_offers(state: RaidState, side: str) -> Iterator[Shoot]:
    """Every enemy each unit can shoot now (range, arc, pillboxes from 3", actions)."""
    for unit in state.alive(side):
        for enemy in state.alive():
            offer = Shoot(unit=unit.id, target=enemy.id)
            if enemy.side != side and accepted(plan_shot, state, side, offer):
                yield offer


# Pillboxes shoot without a roll, so shooting is open before the first roll too.
@order(Shoot, offers=shoot_offers)
def shoot(ctx: Ctx[RaidState], action: Shoot) -> None:
    """Shooting: all the unit's shots together, then the target's saves."""
    state, dice = ctx.state, ctx.dice
    plan = plan_shot(state, ctx.side, action)
    shooter, target = plan.shooter, plan.target
    count = action.shots if action.shots is not None else shooter.actions
    spend(shooter, count, f"{plural(count, 'shot')}")
    shooter.shot = True
    dice_rolled = [dice.die(6, f"{shooter.id} shoots {target.id}, d6", shooter.side) for _ in range(count)]
    total_mod = sum(m for m, _ in plan.modifiers)
    need = HIT_ON - total_mod
    hits = sum(1 for d in dice_rolled if d + total_mod >= HIT_ON)
    mods_text = "".join(f" {m:+d} {why}" for m, why in plan.modifiers)
    ctx.say("shoot",
            (f"{shooter.id} shoots {target.id} at {table.inches(plan.distance)}"
             + (f", {plan.cover.words()}" if plan.cover else "") + " (Shooting)"),
            "Shooting", unit=shooter.id, target=target.id, distance=round(plan.distance, 2))
    ctx.say("hits",
            (f"🎲 {' '.join(map(str, dice_rolled))}{mods_text}: need {need}+ → "
             f"{plural(hits, 'hit')}"),
            "Shooting", dice=dice_rolled, modifiers=[m for m, _ in plan.modifiers], hits=hits)
    killed = False
    if hits:
        saves = [dice.die(6, f"{target.id} save, d6", target.side) for _ in range(hits)]
        failed = sum(1 for s in saves if s < SAVE_ON)
        killed = failed > 0
        verdict = "eliminated" if killed else "all saved"
        ctx.say("save",
                (f"{target.id} saves 🎲 {' '.join(map(str, saves))}: need 4+ → "
                 f"{plural(failed, 'fail')}: {verdict}"),
                "Shooting", target=target.id, saves=saves, failed=failed, eliminated=killed)
        if killed:
            target.alive = False
            target.actions = 0
    label = f"{table.inches(plan.distance)} " + ("✖" if killed else f"{plural(hits, 'hit')}")
    _fire_mark(state, shooter, target, label, killed)


def mortar_offers(state: RaidState, side: str) -> Iterator[Mortar]:
    """Every enemy a mortar team can fire at now."""
    for unit in state.alive(side):
        if unit.kind != "mortar":
            continue
        for enemy in state.alive():
            offer = Mortar(unit=unit.id, target=enemy.id)
            if enemy.side != side and accepted(check_mortar, state, side, offer):
                yield offer


@order(Mortar, phases="actions", offers=mortar_offers)
def mortar(ctx: Ctx[RaidState], action: Mortar) -> None:
    """2" Mortar: two actions, one die, 5-6 eliminates with no save."""
    state = ctx.state
    shooter, target, gap = check_mortar(state, ctx.side, action)
    spend(shooter, MORTAR_ACTIONS, 'the 2" mortar')
    shooter.shot = True
    die = ctx.dice.die(6, f"{shooter.id} 2in mortar at {target.id}, d6")
    killed = die >= MORTAR_KILLS_ON
    if killed:
        target.alive = False
        target.actions = 0
    outcome = f"{target.id} eliminated, no save" if killed else "no effect"
    _fire_mark(state, shooter, target, f"{table.inches(gap)} mortar", killed)
    ctx.say("mortar", f'{shooter.id} mortars {target.id} at {table.inches(gap)} (2" Mortar)',
            '2" Mortar', unit=shooter.id, target=target.id, distance=round(gap, 2))
    ctx.say("mortar_result", f"🎲 {die} need 5+ → {outcome}", '2" Mortar',
            die=die, eliminated=killed)
