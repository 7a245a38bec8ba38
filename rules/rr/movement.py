"""Movement (7.2) and the assault order's checks (7.3.5): a group from one area, 1 AP each.

Leaders (9.7-9.9) move free with the group they are named in, and follow the last unit out
of their area on their own; the T-12 never moves (9.6); the Hind only fires (10.2).
"""

from __future__ import annotations

from collections.abc import Iterator

from rules.core.contract import Action, Event
from rules.core.dice import Dice
from rules.core.errors import RuleError
from rules.core.orders import Ctx, order
from rules.rr.actions import Assault, Move, split_ids
from rules.rr.assault import assault, assault_problem, can_assault
from rules.rr.board import Board, can_move, is_hind, is_leader, is_sniper, move_problem
from rules.rr.hits import move_unit
from rules.rr.impulse import Offers, area_named, impulse
from rules.rr.state import MarkRecord, RRState, UnitState, other


def group(b: Board, side: str, ids: str, to: str) -> tuple[list[UnitState], list[UnitState], str]:
    """Split an order's units into movers and leaders, all from one area adjacent to ``to``."""
    names = split_ids(ids)
    if not names:
        raise RuleError("Name the units, e.g. units:VDV-1,VDV-2.")
    units = [b.unit(n, side) for n in names]
    off = next((u for u in units if u.place != "map"), None)
    if off is not None:
        raise RuleError(f"{off.id} cannot move: {off_map_problem(b, off)}.")
    origin = units[0].area or ""
    if any(u.area != origin for u in units):
        raise RuleError("One impulse activates one area: name units from the same area (7.0).")
    if to not in b.g:
        raise RuleError(f"There is no area '{to[:10]}'; areas are numbered 1-{len(b.g)}.")
    near = ", ".join(b.g.neighbours(origin))
    if to == origin:
        who = f"{units[0].id} is" if len(units) == 1 else "They are"
        raise RuleError(f"{who} already in area {to}; move to an adjacent area: {near} (7.2).")
    if to not in b.g.adjacent(origin):
        raise RuleError(f"Area {to} is not adjacent to {origin}; adjacent: {near} (7.2).")
    leaders = [u for u in units if is_leader(b.spec(u.id))]
    movers = [u for u in units if u not in leaders]
    if not movers:
        raise RuleError("A leader always moves with another unit (9.7-9.9).")
    return movers, leaders, origin


def off_map_problem(b: Board, unit: UnitState) -> str:
    """Why ``unit``, which is not on the map, cannot move: the cause that holds for it (the
    Hind, the sniper, an ATGM team, a unit out of play, a reinforcement still to come)."""
    spec = b.spec(unit.id)
    if is_hind(spec):
        return "the Hind never moves; it comes in over an area with hind area: and only fires (10.2)"
    if is_sniper(spec):
        return "the sniper is never on the map; it shoots with sniper target: (9.2)"
    if unit.place == "gone":
        return "it is out of play"
    if unit.place == "attached":
        return "an ATGM team moves with its company (9.3, 9.4)"
    return "it is not on the map yet; a reinforcement comes in with enter or place (11.0)"


def open_areas(b: Board, side: str, origin: str) -> str:
    """The areas next to ``origin`` a plain move may enter (no enemy in them, 5.1), or
    "none"."""
    return b.area_list([a for a in b.g.neighbours(origin) if not b.enemy_held(a, side)]) or "none"


def move(b: Board, side: str, ids: str, to: str) -> list[Event]:
    """7.2: each unit pays 1 AP to enter an adjacent area with no enemy, within stacking."""
    checks = b.reading()  # the checks change nothing: one who-is-where index serves them all
    movers, leaders, origin = group(checks, side, ids, to)
    for unit in movers:
        why = move_problem(checks, unit)
        if why:
            raise RuleError(f"{unit.id} cannot move: {why}.")
    enemy_there = checks.enemy_held(to, side)
    if enemy_there and not checks.combatants_in(to, other(side)) and checks.hind_over(to, side):
        raise RuleError(f"The Hind is in area {to}: opposing units share an area only in assault "
                        f"combat (5.1), and the Hind is attacked only by ranged combat (10.2). "
                        f"Fire at it, or move elsewhere: {open_areas(checks, side, origin)}.")
    if enemy_there:
        raise RuleError(f"Area {to} holds enemy units: use assault to go in (7.3.5).")
    problem = checks.stack_problem(to, [u.id for u in movers + leaders])
    if problem:
        raise RuleError(f"They cannot go: {problem}.")
    for unit in movers:
        unit.ap -= 1
        move_unit(b, unit.id, to)
    for leader in leaders:
        leader.area = to
    b.s.marks.append(MarkRecord(kind="move", areas=[origin, to], side=side))
    names = ",".join(u.id for u in movers)
    riders = f" with {','.join(u.id for u in leaders)}" if leaders else ""
    cost = "1 AP each" if len(movers) > 1 else "1 AP"
    return [Event(kind="move", rule="7.2", text=f"{names}{riders} {origin}→{to}, {cost} (7.2)")]


def assault_move(b: Board, side: str, ids: str, to: str, target: str, air: bool, dice: Dice) -> list[Event]:
    """7.3.5: check the attackers (lead first, each with an ACM and 1 AP) and resolve."""
    movers, leaders, origin = group(b, side, ids, to)
    for unit in movers:
        why = assault_problem(b, unit)
        if why:
            raise RuleError(f"{unit.id} cannot assault: {why}.")
    if not b.combatants_in(to, other(side)):
        if b.hind_over(to, side):
            raise RuleError(f"Area {to} holds only the Hind, and the Hind is attacked only by "
                            f"ranged combat (10.2): fire at it instead.")
        raise RuleError(f"Area {to} holds no enemy to assault; use move (7.2).")
    problem = b.stack_problem(to, [u.id for u in movers + leaders])
    if problem:
        raise RuleError(f"They cannot go in: {problem}.")
    defender = b.unit(target, other(side))
    left_behind = [u for u in b.combatants_in(origin, side) if u not in movers]
    if not left_behind:
        leaders = leaders + [u for u in b.leaders_in(origin, side) if u not in leaders]
    return assault(b, side, movers, leaders, to, defender, dice, air, origin)


# -- the orders ---------------------------------------------------------------------------------


@Offers
def move_orders(b: Board, side: str) -> Iterator[Action]:
    """7.2: each unit, and the whole group of an area, to each adjacent area open to it."""
    for area, units in b.groups(side):
        movers = [u for u in units if can_move(b, u)]
        for to in b.g.neighbours(area) if movers else []:
            if b.enemy_held(to, side):
                continue
            for u in movers:
                if b.stack_problem(to, [u.id]) is None:
                    yield Move(units=u.id, to=to)
            if len(movers) > 1 and b.stack_problem(to, [u.id for u in movers]) is None:
                yield Move(units=",".join(u.id for u in movers), to=to)


@order(Move, phases="ops", offers=move_orders)
def move_order(ctx: Ctx[RRState], action: Move) -> None:
    """7.2: a group from one area to an adjacent one."""
    impulse(ctx, lambda b: move(b, ctx.side, action.units, area_named(b, action.to)))


@Offers
def assault_orders(b: Board, side: str) -> Iterator[Action]:
    """7.3.5: the attackers of an area, all or the first alone, on each designable defender."""
    for area, units in b.groups(side):
        attackers = [u for u in units if can_assault(b, u)]
        for to in b.g.neighbours(area) if attackers else []:
            if not b.combatants_in(to, other(side)) or b.stack_problem(to, [u.id for u in attackers]):
                continue
            for target in b.combatants_in(to, other(side)):
                yield Assault(units=",".join(u.id for u in attackers), to=to, target=target.id)
                if len(attackers) > 1:
                    yield Assault(units=attackers[0].id, to=to, target=target.id)


@order(Assault, phases="ops", offers=assault_orders)
def assault_order(ctx: Ctx[RRState], action: Assault) -> None:
    """7.3.5: move in and fight."""
    impulse(ctx, lambda b: assault_move(
        b, ctx.side, action.units, area_named(b, action.to), action.target, action.air, ctx.dice))
