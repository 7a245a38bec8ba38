"""What a side may order now, order by order: the offers of each declared order (see
:func:`rules.core.orders.order`), built with the same checks the resolvers raise on, and the
labels autocomplete shows with them (range and roll needed, AP, terrain)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from rules.core.contract import Action
from rules.rr.actions import (
    Airstrike, Assault, Boyes, Deploy, DeployDefault, Enter, Fire, Hind, Hq, Move, Nikolas,
    Place, Ready, Retreat, Route, Sniper, TakeHits,
)
from rules.rr.arrivals import deployment_of, place_areas, placeable, waiting
from rules.rr.assault import can_assault
from rules.rr.board import (
    Board, can_move, is_combatant, is_hind, is_hq, is_leader, is_mortar, is_sniper,
)
from rules.rr.combat import can_fire, reach, shot_problem, support_problem
from rules.rr.hits import enemy_targets, retreat_options, withdraw_options
from rules.rr.rally import rallying_with
from rules.rr.sequence import route_options
from rules.rr.special import BOOSTS, hq_problem
from rules.rr.state import RRState, UnitState, other



# -- setup, placement, routes (11.0, 8.0) -------------------------------------------------------


def deploy_orders(b: Board, side: str) -> list[Action]:
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
    for unit in b.on_map(side) if short else []:
        dep = deployment_of(b, unit.id)
        if dep and required in dep.areas and b.stack_problem(required, [unit.id]) is None:
            out.append(Deploy(unit=unit.id, area=required))
    return out


def place_orders(b: Board, side: str) -> list[Action]:
    """11.0 turns 5-6: each placeable reinforcement to each area it may be placed in."""
    out: list[Action] = []
    for unit in placeable(b, side):
        out += [Place(unit=unit.id, area=a) for a in place_areas(b, unit.id)]
    return out


def route_orders(b: Board, side: str) -> list[Action]:
    """8.0: each routing unit to each area it may route to."""
    out: list[Action] = []
    for unit in b.on_map(side):
        out += [Route(unit=unit.id, to=a) for a in route_options(b, unit.id)]
    return out


# -- pending decisions ------------------------------------------------------------------------


def retreat_orders(b: Board, side: str) -> list[Action]:
    """7.3.3, 7.3.5.5: the areas the unit hit may retreat to; 7.3.5.2: those a defender
    that lost an assault may retreat to."""
    pending = b.s.pending[0]
    if pending.kind == "withdraw":
        return [Retreat(to=a) for a in withdraw_options(b, pending.unit or "", pending.origin)]
    return [Retreat(to=a) for a in retreat_options(b, pending.unit or "", pending.origin, pending.source)]


def take_hits_orders(b: Board, side: str) -> list[Action]:
    """7.3.3: take the hits; 7.3.5.2: give the extra hit to a defender of the area."""
    pending = b.s.pending[0]
    if pending.kind == "spread":
        return [TakeHits(unit=u.id) for u in b.combatants_in(pending.area or "", side)]
    return [TakeHits()]


def second_shot_orders(b: Board, side: str) -> list[Action]:
    """9.5: the AGS-17's second attack, at any target in reach, for its AP (7.3.1)."""
    shooter = b.s.units[b.s.pending[0].unit or ""]
    if not can_fire(b, shooter):
        return []
    return [Fire(unit=shooter.id, target=t.id) for t in enemy_targets(b, side)
            if shot_problem(b, shooter.id, t) is None]


# -- the operations phase (7.0) -----------------------------------------------------------------


class Offers:
    """One impulse order's offers, generated one at a time: called, every offer (a list, in
    the same order as always); :meth:`any`, whether there is at least one, found without
    building the rest (7.0 asks that after every order: "Players must pass if they have no
    remaining actions to use").  Both read the one generator, so they cannot disagree."""

    def __init__(self, generate: Callable[[Board, str], Iterator[Action]]) -> None:
        self.generate = generate
        self.__doc__ = generate.__doc__
        self.__name__ = generate.__name__

    def __call__(self, b: Board, side: str) -> list[Action]:
        """Every offer of this order to ``side`` now."""
        return list(self.generate(b, side))

    def any(self, b: Board, side: str) -> bool:
        """Whether ``side`` has at least one offer of this order now."""
        return next(self.generate(b, side), None) is not None


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


@Offers
def fire_orders(b: Board, side: str) -> Iterator[Action]:
    """7.3.3: each firer at each target in reach, alone, supported, with air or the Kastet."""
    targets: list[UnitState] = []  # looked for once there is a firer: often there is none
    air = b.s.airstrike.get(side, False)
    for area, units in b.groups(side):
        firers = [u for u in units if can_fire(b, u)]
        if firers and not targets:
            targets = enemy_targets(b, side)
        for unit in firers:
            for target in targets:
                if shot_problem(b, unit.id, target) is not None:
                    continue
                yield Fire(unit=unit.id, target=target.id)
                helpers = [h.id for h in firers if h.id != unit.id and support_problem(b, h.id, target) is None]
                if helpers:
                    yield Fire(unit=unit.id, target=target.id, support=",".join(helpers))
                if air:
                    yield Fire(unit=unit.id, target=target.id, air=True)
                if b.has_kastet(unit.id) and shot_problem(b, unit.id, target, True) is None:
                    yield Fire(unit=unit.id, target=target.id, kastet=True)


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


def _mates(b: Board, unit: UnitState) -> list[UnitState]:
    return [m for m in b.in_area(unit.area or "", unit.side) if is_combatant(b.spec(m.id))]


def _leader(b: Board, side: str, special: str) -> UnitState | None:
    """The named leader of ``side`` on the map with an AP to spend."""
    return next((u for u in b.on_map(side) if b.spec(u.id).special == special and u.ap >= 1), None)


@Offers
def nikolas_orders(b: Board, side: str) -> Iterator[Action]:
    """9.7: +1 to each value of each unit in his area not already raised; in the rally
    phase, +1 morale to one unit of his area about to roll."""
    if b.s.phase == "rally":
        yield from (Nikolas(unit=u.id, value="morale") for u in rallying_with(b, side, "nikolas"))
        return
    col = _leader(b, side, "nikolas")
    for mate in _mates(b, col) if col else []:
        values = BOOSTS if is_mortar(b.spec(mate.id)) else BOOSTS[:3]
        yield from (Nikolas(unit=mate.id, value=v) for v in values if v not in mate.boost)


@Offers
def boyes_orders(b: Board, side: str) -> Iterator[Action]:
    """9.8: a reroll for each unit in his area that has none waiting (in the rally phase,
    those about to roll), each die and use the player may choose."""
    if b.s.phase == "rally":
        units = rallying_with(b, side, "boyes")
    else:
        pvt = _leader(b, side, "boyes")
        units = [m for m in (_mates(b, pvt) if pvt else []) if not m.reroll]
    yield from (Boyes(unit=u.id, die=d, use=w) for u in units  # type: ignore[arg-type]
                for d in ("worse", "lower", "higher") for w in ("failed", "any"))


@Offers
def hq_orders(b: Board, side: str) -> Iterator[Action]:
    """9.10: once a turn, +1 AP to a unit in or next to the HQ's area."""
    s = b.s
    for head in b.on_map(side):
        if not is_hq(b.spec(head.id)) or head.ap < 1 or head.status != "ok" or s.hq_turn == s.turn:
            continue
        yield from (Hq(unit=m.id) for m in b.on_map(side) if hq_problem(b, head, m) is None)


@Offers
def sniper_orders(b: Board, side: str) -> Iterator[Action]:
    """9.2: once a turn, at each enemy unit in Tannenbruck."""
    s = b.s
    sniper = next((u for u in s.units.values() if u.side == side and is_sniper(b.spec(u.id))), None)
    if sniper is None or sniper.place == "gone" or s.sniper_turn == s.turn:
        return
    yield from (Sniper(target=t.id) for t in enemy_targets(b, side)
                if not is_hind(b.spec(t.id)) and b.sc.area_by_id[t.area or ""].city)


@Offers
def airstrike_orders(b: Board, side: str) -> Iterator[Action]:
    """10.1: the airstrike alone, on each area holding enemy units."""
    if not b.s.airstrike.get(side):
        return
    areas = {t.area for t in enemy_targets(b, side)}
    yield from (Airstrike(area=a) for a in b.g.ids if a in areas)


@Offers
def hind_orders(b: Board, side: str) -> Iterator[Action]:
    """10.2: the Hind to each area with no enemy units, within stacking."""
    heli = next((u for u in b.s.units.values() if u.side == side and is_hind(b.spec(u.id))), None)
    if heli is None or heli.place != "pool" or not b.s.hind_ok:
        return
    yield from (Hind(area=a) for a in b.g.ids if not b.in_area(a, other(side))
                and b.stack_problem(a, [heli.id]) is None)


#: Every order of an impulse (7.0) but pass: a side with none of these must pass.
IMPULSE_OFFERS = (move_orders, assault_orders, enter_orders, fire_orders, nikolas_orders,
                  boyes_orders, hq_orders, sniper_orders, airstrike_orders, hind_orders)


def surely_moves(b: Board, side: str) -> bool:
    """A sure sign that :func:`move_orders` offers ``side`` something, found in one pass over
    the units: a unit that can move (7.2) next to an area with no unit of either side in it.
    Nothing refuses that move: no enemy is there (5.1), and a counter alone holds at most 6
    stacking points (:class:`~rules.rr.scenario.UnitSpec` allows no more) of one nation, and
    is never the Hind (it does not move, 10.2), so stacking allows it (5.1).  False says
    nothing: the menus decide."""
    occupied: set[str | None] = set()
    movers: list[str] = []
    for unit in b.s.units.values():
        if unit.place == "map":
            occupied.add(unit.area)
            if unit.side == side and unit.area and can_move(b, unit):
                movers.append(unit.area)
    return any(to not in occupied for area in movers for to in b.g.neighbours(area))


def has_impulse(state: RRState, side: str) -> bool:
    """7.0: whether ``side`` has any order left but pass ("Players must pass if they have no
    remaining actions to use").  Asked after every order (issue 23): first the sure sign of
    a move, then each order until one has an offer, each stopping at its first."""
    b = Board(state, frozen=True)
    return surely_moves(b, side) or any(offers.any(b, side) for offers in IMPULSE_OFFERS)


# -- labels ------------------------------------------------------------------------------------


def unit_label(b: Board, uid: str) -> str:
    """``VDV-1 (area 7, 2 AP)``."""
    unit = b.s.units[uid]
    where = f"area {unit.area}" if unit.area else unit.place
    status = f", {unit.status}" if unit.status != "ok" else ""
    return f"{uid} ({where}, {unit.ap} AP{status})"


def target_label(b: Board, shooter: UnitState, uid: str) -> str:
    """``VDV-1 in 7 (range 2, needs 9+)``: what a firer needs to pick a target."""
    from rules.rr.combat import attack_mods, defence  # noqa: PLC0415 - read-only here

    unit = b.s.units[uid]
    here, there = shooter.area or "", unit.area or ""
    dist = b.g.distance(here, there)
    bonus = sum(v for v, _ in attack_mods(b, shooter, unit, False, dist, peek=True))
    df, dmods = defence(b, unit, ranged=True, peek=True)
    needs = df + sum(v for v, _ in dmods) + 1 - bonus
    status = f", {unit.status}" if unit.status != "ok" else ""
    return f"{uid} in {there} (range {dist}, needs {max(2, needs)}+ on 2d6{status})"


def area_label(b: Board, area: str) -> str:
    """``area 12 (woods, TM +1)``."""
    spec = b.sc.area_by_id.get(area)
    if spec is None:
        return area
    return f"area {area} ({spec.terrain}, TM {spec.tm:+d})"


def label(state: RRState, field: str, value: str, partial: dict[str, Any]) -> str:
    """The autocomplete label of ``value``: a target with range and roll needed, a unit with
    its area and AP, a group with its area, an area with its terrain."""
    b = Board(state, frozen=True)
    first = value.split(",")[0]
    shooter = state.units.get(str(partial.get("unit") or ""))
    if field == "target" and shooter is not None and shooter.area and value in state.units:
        return target_label(b, shooter, value)
    if first in state.units and "," not in value:
        return unit_label(b, first)
    if first in state.units:
        return f"{value} (from area {state.units[first].area})"
    if field == "value":
        return f"+1 {value} (9.7)"
    if field in ("die", "use"):
        return {"worse": "the die that hurts this roll", "lower": "the lower die",
                "higher": "the higher die", "failed": "only if the roll fails",
                "any": "on the roll whatever it gives"}.get(value, value)
    return area_label(b, value)


__all__ = ["BOOSTS", "IMPULSE_OFFERS", "Offers", "has_impulse", "label", "reach", "surely_moves"]
