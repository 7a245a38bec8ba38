"""Hand to hand (assault) combat.

Rulebook: only commando assault units assault, against any unit but a pillbox, and the unit
must be able to move into contact.  Commandos roll two dice and keep the higher, Germans one;
the higher score eliminates the other, no saves; draws are re-rolled with one die each.

Our reading of the cost: the charge is the assault's move, in up to three straight legs (to
go round wire or a building), one action per 6" (or part) of each leg and at least one; the
6" halt does not apply to a move made to assault.  A unit may charge straight on from its
move (its move actions stay together); one that has done anything else since it moved may
only assault an enemy it already touches.  The ``assault`` order is declared here.
"""

from __future__ import annotations

from collections.abc import Iterator

from rules.commando import board
from rules.commando.actions import Assault, accepted
from rules.commando.activation import act_problem, plural, spend
from rules.commando.movement import MovePlan, carry_out, destination, faction, plan_move, speed
from rules.commando.state import RaidState, UnitState
from rules.core import table
from rules.core.errors import RuleError
from rules.core.orders import Ctx, order
from rules.core.views import Mark


def check_assault(state: RaidState, side: str, order: Assault) -> tuple[UnitState, UnitState]:
    """Validate an assault order: who may assault whom."""
    unit = state.own_unit(side, order.unit)
    if side == "germans":
        raise RuleError("German units don't engage in hand to hand combat or demolition "
                        "(Unit Activation, note); they move and shoot.")
    if unit.kind != "assault":
        assault = [u.id for u in state.alive(side) if u.kind == "assault"] or ["none"]
        raise RuleError(
            f"Only commando assault units fight hand to hand; yours: {', '.join(assault)}."
        )
    target = state.enemy_unit(side, order.target)
    if target.kind == "pillbox":
        raise RuleError(f"{target.id} is a pillbox; pillboxes cannot be assaulted (Hand to Hand).")
    problem = act_problem(unit)
    if problem is not None:
        raise RuleError(problem)
    return unit, target


def plan_assault(
    state: RaidState, side: str, order: Assault
) -> tuple[UnitState, UnitState, MovePlan | None]:
    """Validate an assault and measure the charge (None: already in contact).

    The charge is the assault's move (Movement: "units must move in a straight line for each
    action"; Hand to Hand: "A unit must be able to move into contact"): up to three straight
    legs, through ``via`` and ``via2`` and on into contact, one action per 6" or part of
    each leg; the 6" halt does not apply ("unless the movement is to assault a unit").  A
    unit that has moved may charge straight on from its move, nothing in between ("it must
    perform all its move actions together")."""
    unit, target = check_assault(state, side, order)
    gap = table.distance(unit.pos, target.pos)
    turns = [t for t in (order.via, order.via2) if t is not None and t.strip()]
    if gap <= board.CONTACT + board.TOUCH_SLACK and not turns:
        return unit, target, None
    if unit.moved and not unit.moving:
        raise RuleError(
            f"{unit.id} has moved and acted since, so it cannot charge {target.id} "
            f"({table.inches(gap)}): all its move actions go together (Movement). It may "
            "assault an enemy its base touches."
        )
    points: list[table.Point] = []
    here = unit.pos
    for text in turns:
        here, _ = destination(state, unit, text, here)
        points.append(here)
    points.append(table.toward(target.pos, here, board.CONTACT))
    plan = plan_move(state, unit, points, assault=target.id)
    if plan.stop is not None:
        legs = "" if not turns else f" by {len(turns) + 1} legs"
        raise RuleError(
            f"{unit.id} cannot reach {target.id} ({table.inches(gap)}){legs}: {plan.stop} after "
            f"{table.inches(plan.travelled)} (Hand to Hand: it must be able to move into "
            "contact). Charge round it with via: (a turning point)."
        )
    return unit, target, plan


def assault_offers(state: RaidState, side: str) -> Iterator[Assault]:
    """Every enemy a commando assault unit can charge into contact now."""
    for unit in state.alive(side):
        if unit.kind != "assault" or unit.actions < 1:
            continue
        reach = unit.actions * speed(unit) + board.CONTACT
        for enemy in state.alive():
            if enemy.side == side or table.distance(unit.pos, enemy.pos) > reach + 0.1:
                continue
            offer = Assault(unit=unit.id, target=enemy.id)
            if accepted(plan_assault, state, side, offer):
                yield offer


@order(Assault, phases="actions", offers=assault_offers)
def assault(ctx: Ctx[RaidState], action: Assault) -> None:
    """Hand to Hand: charge into contact, then fight: best of two dice against one, draws
    re-rolled."""
    state, dice = ctx.state, ctx.dice
    unit, target, plan = plan_assault(state, ctx.side, action)
    gap = table.distance(unit.pos, target.pos)
    if plan is not None:
        carry_out(state, unit, plan, kind="assault")
        cost, gap = plan.cost, plan.travelled
    else:
        spend(unit, 1, "an assault")
        state.marks.append(Mark(kind="assault", points=[unit.pos, target.pos],
                                text="contact", side=faction(unit.side), by=[unit.id]))
        cost = 1
    ctx.say("assault",
            (f"{unit.id} assaults {target.id}, {table.inches(gap)}"
             f"{f' in {len(plan.legs)} legs' if plan is not None and len(plan.legs) > 1 else ''} "
             f"({plural(cost, 'action')}, Hand to Hand)"),
            "Hand to Hand", unit=unit.id, target=target.id, distance=round(gap, 2), cost=cost)
    pair = dice.roll(2, 6, f"{unit.id} hand to hand, best of 2d6", unit.side)
    ours, theirs = max(pair), dice.die(6, f"{target.id} hand to hand, d6", target.side)
    ctx.say("melee", f"🎲 {unit.id} {pair[0]},{pair[1]} → {ours} vs {target.id} {theirs}",
            "Hand to Hand", unit=unit.id, target=target.id, pair=pair, theirs=theirs)
    while ours == theirs:
        # Draws are re-rolled with a single die for each unit.
        ours = dice.die(6, f"{unit.id} hand to hand re-roll, d6", unit.side)
        theirs = dice.die(6, f"{target.id} hand to hand re-roll, d6", target.side)
        ctx.say("melee_reroll", f"draw: re-roll 🎲 {unit.id} {ours} vs {target.id} {theirs}",
                "Hand to Hand", ours=ours, theirs=theirs)
    loser = target if ours > theirs else unit
    loser.alive = False
    loser.actions = 0
    ctx.say("melee_result", f"{loser.id} eliminated, no save (Hand to Hand)", "Hand to Hand",
            eliminated=loser.id)
