"""Setup and reinforcements (11.0).

* Setup: NATO deploys first, then the Soviets (at least one stacking point in area 7; the
  ASU-85 in 19).  ``deploy-default`` gives a ready-made legal deployment to adjust.
* "Enter" reinforcements come on in an impulse at one of their entrances and pay an AP.
* "Place" reinforcements (turn 5 US mortar, turn 6 Territorialheer) arrive at no AP cost in
  the rally phase: NATO gets a placement step then, with ``place`` or ``skip``.
* Reinforcements not brought on stay available on later turns (our reading: the text sets
  only their first turn).  An entrance or placement area holding enemy units is closed,
  except for the Territorialheer, which assaults at once (11.0 turn 6).
* ATGM teams and the Kastet ride with their company (``attached_to``) from its arrival.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from rules.core.contract import Action, Event
from rules.core.dice import Dice
from rules.core.errors import RuleError
from rules.core.orders import Ctx, order
from rules.rr.actions import Deploy, DeployDefault, Enter, Ready, split_ids
from rules.rr.assault import assault
from rules.rr.board import Board, is_leader, is_rider
from rules.rr.impulse import Offers, area_named, impulse
from rules.rr.scenario import Deployment
from rules.rr.state import SIDE_NAMES, MarkRecord, RRState, Side, UnitState, other


def deployment_of(b: Board, uid: str) -> Deployment | None:
    """The setup or reinforcement entry that brings ``uid`` in (looked up, not searched:
    the scenario's deployments never change)."""
    return b.sc.deployment_by_unit.get(uid)


def attach_riders(b: Board, uid: str) -> None:
    """9.3, 9.4: riders assigned to ``uid`` join it as it arrives."""
    for unit in b.s.units.values():
        spec = b.spec(unit.id)
        if unit.place == "pool" and is_rider(spec) and spec.attached_to == uid:
            unit.place, unit.attached_to = "attached", uid


def waiting(b: Board, side: str, modes: tuple[str, ...]) -> list[UnitState]:
    """Pool units of ``side`` whose arrival mode is one of ``modes`` and whose turn has come."""
    out = []
    for unit in b.s.units.values():
        if unit.place != "pool" or unit.side != side:
            continue
        dep = deployment_of(b, unit.id)
        if dep is not None and dep.mode in modes and dep.turn <= b.s.turn and not is_rider(b.spec(unit.id)):
            out.append(unit)
    return out


# -- setup ----------------------------------------------------------------------------------


def deploy(b: Board, side: str, uid: str, area: str) -> list[Event]:
    """11.0: put one setup unit in one of its allowed areas, within stacking (5.1)."""
    unit = b.unit(uid, side)
    dep = deployment_of(b, unit.id)
    if dep is None or dep.mode != "setup":
        raise RuleError(f"{unit.id} is not part of your setup; it arrives later (11.0).")
    if area not in dep.areas:
        raise RuleError(f"{unit.id} sets up in area {', '.join(dep.areas)} (11.0), not {area[:10]}.")
    saved = (unit.place, unit.area)
    unit.place, unit.area = "pool", None
    problem = b.stack_problem(area, [unit.id])
    if problem:
        unit.place, unit.area = saved
        raise RuleError(f"{unit.id} cannot set up there: {problem}.")
    unit.place, unit.area = "map", area
    attach_riders(b, unit.id)
    b.s.marks.append(MarkRecord(kind="place", areas=[area], side=side))
    return [Event(kind="deploy", rule="11.0", text=f"{unit.id} sets up in {area} (11.0)")]


def deploy_default(b: Board, side: str) -> list[Event]:
    """A ready-made legal deployment of every unit not yet set up: the best cover first
    (highest TM), spread round the allowed areas; for the Soviets the smallest unit holds
    area 7 (11.0); leaders join a unit."""
    events: list[Event] = []
    todo = waiting(b, side, ("setup",))
    if not todo:
        # Nothing waits: the order would be a step that changes nothing.
        raise RuleError(f"Every {SIDE_NAMES[side]} unit is already set up; move one with deploy,"
                        " or finish with ready (11.0).")
    todo.sort(key=lambda u: (is_leader(b.spec(u.id)), -b.spec(u.id).stacking))
    required = b.sc.soviet_required_area
    keeper = None
    if side == "soviet" and b.points(required, side) == 0:
        able = [u for u in todo if b.spec(u.id).stacking > 0 and required in _areas(b, u.id)]
        keeper = min(able, key=lambda u: b.spec(u.id).stacking, default=None)
    turn = 0
    for unit in todo:
        areas = sorted(_areas(b, unit.id), key=lambda a: -b.sc.area_by_id[a].tm)
        if unit is keeper:
            areas = [required]
        elif is_leader(b.spec(unit.id)):
            areas = [a for a in areas if b.combatants_in(a, side)] or areas
        else:
            areas = areas[turn % len(areas):] + areas[: turn % len(areas)]
            turn += 1
        for area in areas:
            if b.stack_problem(area, [unit.id]) is None:
                events += deploy(b, side, unit.id, area)
                break
    return events


def _areas(b: Board, uid: str) -> list[str]:
    """The setup areas of a unit (11.0)."""
    dep = deployment_of(b, uid)
    return list(dep.areas) if dep else []


# -- reinforcements -------------------------------------------------------------------------


def enter(b: Board, side: str, ids: str, to: str) -> list[Event]:
    """11.0: reinforcements enter an entrance area and pay an AP each."""
    names = split_ids(ids)
    if not names:
        raise RuleError("Name the reinforcements to enter, e.g. units:INF-1,INF-2.")
    units = [b.unit(n, side) for n in names]
    due = {u.id for u in waiting(b, side, ("enter",))}
    for unit in units:
        if unit.id not in due:
            raise RuleError(f"{unit.id} is not a reinforcement due now; due: {', '.join(sorted(due)) or 'none'}.")
        dep = deployment_of(b, unit.id)
        assert dep is not None
        entrances = dep.areas
        if to not in dep.areas:
            raise RuleError(f"{unit.id} enters at area {', '.join(dep.areas)} (11.0), not {to[:10]}.")
    if all(is_leader(b.spec(u.id)) for u in units):
        raise RuleError("A leader enters with another unit (9.7-9.9).")
    if b.enemy_held(to, side):
        raise RuleError(f"Area {to} holds enemy units, and opposing units share an area only in "
                        f"assault combat (5.1); open entrances: "
                        f"{', '.join(a for a in entrances if not b.enemy_held(a, side)) or 'none now'} (11.0).")
    problem = b.stack_problem(to, [u.id for u in units])
    if problem:
        raise RuleError(f"They cannot enter: {problem}.")
    for unit in units:
        unit.place, unit.area = "map", to
        unit.ap = b.max_ap(unit.id) - 1
        attach_riders(b, unit.id)
    b.s.marks.append(MarkRecord(kind="place", areas=[to], side=side))
    return [Event(kind="enter", rule="11.0",
                  text=f"{','.join(u.id for u in units)} enter {to}, 1 AP each (11.0)")]


def place_areas(b: Board, uid: str) -> list[str]:
    """Where a "place" reinforcement may go now (11.0 turns 5 and 6)."""
    dep = deployment_of(b, uid)
    if dep is None:
        return []
    if dep.mode == "place_us_only":
        return [a for a in b.g.ids
                if b.in_area(a) and b.nations(a) == {"us"} and not b.enemy_held(a, "nato")
                and b.stack_problem(a, [uid]) is None]
    if dep.mode == "city_east":
        return [a.id for a in b.sc.areas if a.city and a.east_of_river
                and (b.combatants_in(a.id, "soviet")
                     or (not b.enemy_held(a.id, "nato") and b.stack_problem(a.id, [uid]) is None))]
    return [a for a in dep.areas if not b.enemy_held(a, "nato") and b.stack_problem(a, [uid]) is None]


def placeable(b: Board, side: str) -> list[UnitState]:
    """"Place" reinforcements due now that have somewhere to go."""
    units = waiting(b, side, ("place", "place_us_only", "city_east"))
    return [u for u in units if place_areas(b, u.id)]


def place(b: Board, side: Side, uid: str, area: str, target: str | None, dice: Dice) -> list[Event]:
    """11.0: place a reinforcement at no AP cost; the Territorialheer assaults an enemy area."""
    unit = b.unit(uid, side)
    if unit not in placeable(b, side):
        names = ", ".join(u.id for u in placeable(b, side)) or "none"
        raise RuleError(f"{unit.id} cannot be placed now; placeable: {names}.")
    allowed = place_areas(b, unit.id)
    if area not in allowed:
        raise RuleError(f"{unit.id} may be placed in: {', '.join(allowed[:12])} (11.0).")
    unit.place, unit.area, unit.ap = "map", area, b.max_ap(unit.id)
    attach_riders(b, unit.id)
    b.s.marks.append(MarkRecord(kind="place", areas=[area], side=side))
    events = [Event(kind="place", rule="11.0", text=f"{unit.id} placed in {area} (11.0)")]
    defenders = b.combatants_in(area, other(side))
    if defenders:
        chosen = b.unit(target, other(side)) if target else defenders[0]
        unit.ap += 1  # the assault on arrival costs nothing: it is part of the placement
        events += assault(b, side, [unit], [], area, chosen, dice, air=False, origin=None)
    return events


# -- the orders of setup and entry (11.0) -----------------------------------------------------


def setup_orders(b: Board, side: str) -> list[Action]:
    """Setup: each waiting unit to each allowed area, the ready-made deployment, ready."""
    todo = waiting(b, side, ("setup",))
    out: list[Action] = []
    if todo:
        out.append(DeployDefault())
    for unit in todo:
        dep = deployment_of(b, unit.id)
        for area in dep.areas if dep else []:
            if is_leader(b.spec(unit.id)) and not b.combatants_in(area, side):
                continue
            if b.stack_problem(area, [unit.id]) is None:
                out.append(Deploy(unit=unit.id, area=area))
    if not todo:
        out += _setup_fixes(b, side)
    return out


def _setup_fixes(b: Board, side: str) -> list[Action]:
    """11.0: ready, or the deployments that fix a leader alone or an empty area 7."""
    out: list[Action] = []
    required = b.sc.soviet_required_area
    alone = [u for u in b.on_map(side)
             if is_leader(b.spec(u.id)) and not b.combatants_in(u.area or "", side)]
    short = side == "soviet" and b.points(required, side) < 1
    if not alone and not short:
        out.append(Ready())
    for leader in alone:
        dep = deployment_of(b, leader.id)
        out += [Deploy(unit=leader.id, area=a) for a in (dep.areas if dep else [])
                if b.combatants_in(a, side)]
        out += _joining(b, side, leader.area or "")
    for unit in b.on_map(side) if short else []:
        dep = deployment_of(b, unit.id)
        if dep and required in dep.areas and b.stack_problem(required, [unit.id]) is None:
            out.append(Deploy(unit=unit.id, area=required))
    return out


def _joining(b: Board, side: str, area: str) -> list[Action]:
    """9.7-9.9 with 11.0: a combatant whose set-up areas include a lone leader's area may be
    deployed again to join it (deploy moves a unit already set up), when the leader itself
    may set up nowhere else (issue 46: a set-up the offers alone could never finish)."""
    out: list[Action] = []
    for unit in b.on_map(side):
        dep = deployment_of(b, unit.id)
        if (unit.area != area and dep is not None and area in dep.areas
                and unit.id in b.facts.combatants and b.stack_problem(area, [unit.id]) is None):
            out.append(Deploy(unit=unit.id, area=area))
    return out


def setup_offers(kind: type[Action]) -> Callable[[RRState, str], list[Action]]:
    """The offers of one setup order (``kind``): those of :func:`setup_orders` of its kind."""
    def offers(state: RRState, side: str) -> list[Action]:
        return [a for a in setup_orders(Board(state, frozen=True), side) if isinstance(a, kind)]
    offers.__doc__ = f"11.0: the {kind.__name__} orders of :func:`setup_orders`."
    return offers


@order(Deploy, phases="deploy", offers=setup_offers(Deploy))
def deploy_order(ctx: Ctx[RRState], action: Deploy) -> None:
    """11.0: one unit to one of its setup areas."""
    b = Board(ctx.state)
    ctx.extend(deploy(b, ctx.side, action.unit, area_named(b, action.area)))


@order(DeployDefault, phases="deploy", offers=setup_offers(DeployDefault))
def deploy_default_order(ctx: Ctx[RRState], action: DeployDefault) -> None:
    """11.0: a ready-made legal deployment of every unit still waiting."""
    ctx.extend(deploy_default(Board(ctx.state), ctx.side))


@Offers
def enter_orders(b: Board, side: str) -> Iterator[Action]:
    """11.0: each reinforcement due at each open entrance (a leader with a companion)."""
    due = waiting(b, side, ("enter",))
    for unit in due:
        dep = deployment_of(b, unit.id)
        for to in dep.areas if dep else []:
            if b.enemy_held(to, side) or b.stack_problem(to, [unit.id]) is not None:
                continue
            if not is_leader(b.spec(unit.id)):
                yield Enter(units=unit.id, to=to)
                continue
            mates = [m for m in due if not is_leader(b.spec(m.id)) and deployment_of(b, m.id) == dep
                     and b.stack_problem(to, [m.id, unit.id]) is None]
            if mates:
                yield Enter(units=f"{mates[0].id},{unit.id}", to=to)


@order(Enter, phases="ops", offers=enter_orders)
def enter_order(ctx: Ctx[RRState], action: Enter) -> None:
    """11.0: reinforcements come on at an entrance."""
    impulse(ctx, lambda b: enter(b, ctx.side, action.units, area_named(b, action.to)))
