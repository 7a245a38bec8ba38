"""Whole St Nazaire raids played with purposeful orders: every target can be reached and
destroyed under the rules as we read them (the 6" stop ends a move, a later activation closes
in; wire is cut; pillboxes still stand), and the commandos can win the raid on its objectives.

The players here choose among the system's own legal orders (``legal_actions``): the
demolition parties go for their targets (the move that brings them closest, cutting wire when
it holds them up), the others shoot what they can; the Germans roll and shoot.
"""

from __future__ import annotations

from typing import Any

from rules.commando import SYSTEM, board
from rules.commando.actions import CutWire, Demolish, Move, Roll, Shoot
from rules.commando.movement import plan_order
from rules.commando.state import RaidState, UnitState
from rules.core import table
from rules.core.contract import Action
from rules.core.dice import Dice, SeededDice
from tests.commando.checks import check_invariants

#: Which demolition party goes for which targets, in order (our plan of the raid).
PLAN = {
    "D1": ["caisson", "gun-east"],
    "D2": ["pumphouse", "gun-east"],
    "D3": ["winding", "caisson"],
    "O2": ["gun-west", "winding"],
}


class Sixes(Dice):
    """Every die a 6: the raid's geometry alone decides what can be reached."""

    def _draw(self, sides: int, reason: str) -> tuple[int, int | None]:
        return sides, None


def _target(state: RaidState, unit: UnitState) -> Any:
    live = {t.id: t for t in board.live_targets(state)}
    for key in PLAN.get(unit.id, []):
        if key in live:
            return live[key]
    return min(live.values(), key=lambda t: table.distance_to_shape(unit.pos, t.shape()),
               default=None)


def _gap(point: table.Point, target: Any) -> float:
    return table.distance_to_shape(point, target.shape()) - board.BASE_RADIUS


def _legal(state: RaidState, side: str, unit: str, kind: type[Action]) -> list[Any]:
    rule = SYSTEM.rule_of(kind)
    if rule not in SYSTEM.orders_open(state, side):
        return []
    return [a for a in SYSTEM.offers_of(rule, state, side) if getattr(a, "unit", None) == unit]


def _demolition_order(state: RaidState, unit: UnitState) -> Action | None:
    """Demolish if touching; else the move that brings the party closest to its target; cut
    the wire that holds it up when no move gains an inch."""
    target = _target(state, unit)
    if target is None:
        return None
    blow = [a for a in _legal(state, "commandos", unit.id, Demolish) if a.target == target.id]
    if blow:
        return blow[0]
    here = _gap(unit.pos, target)
    moves = [(_gap(plan_order(state, "commandos", m).end, target), m)
             for m in _legal(state, "commandos", unit.id, Move)]
    best = min(moves, key=lambda pair: pair[0], default=None)
    if best is not None and best[0] < here - 0.5:
        return best[1]
    cuts = _legal(state, "commandos", unit.id, CutWire)
    return cuts[0] if cuts else None


def _shot(state: RaidState, side: str, unit: UnitState) -> Action | None:
    """A shot at a pillbox if one is in reach, else at the nearest enemy in range."""
    shots = _legal(state, side, unit.id, Shoot)
    shots.sort(key=lambda a: (state.unit(a.target).kind != "pillbox",
                              table.distance(unit.pos, state.unit(a.target).pos)))
    return shots[0] if shots else None


def _unit_orders(state: RaidState, side: str, unit: UnitState, fire: str) -> Action | None:
    if unit.kind == "demolition" and side == "commandos":
        return _demolition_order(state, unit)
    if fire == "none" or (fire == "pillboxes" and unit.kind != "pillbox"):
        return None
    return _shot(state, side, unit)


def _play_side(state: RaidState, side: str, dice: Dice, fire: str = "all") -> RaidState:
    """One side's turn: each unit rolls in turn and acts until it has nothing useful left."""
    for unit_id in [u.id for u in state.alive(side)]:
        if SYSTEM.result(state) is not None:
            return state
        if _legal(state, side, unit_id, Roll):
            state = _apply(state, side, Roll(unit=unit_id), dice)
        for _ in range(3):
            unit = state.unit(unit_id)
            action = _unit_orders(state, side, unit, fire) if unit.alive else None
            if action is None or SYSTEM.result(state) is not None:
                break
            state = _apply(state, side, action, dice)
    if SYSTEM.result(state) is None:
        state = _apply(state, side, SYSTEM.parse("end", {}), dice)
    return state


def _apply(state: RaidState, side: str, action: Action, dice: Dice) -> RaidState:
    step = SYSTEM.apply(state, side, action, dice)
    new = step.state
    assert isinstance(new, RaidState)
    check_invariants(new)
    return new


def play_raid(dice: Dice, germans: str) -> RaidState:
    """A whole St Nazaire raid; the Germans shoot with ``all`` their units, only with their
    ``pillboxes``, or pass their turns (``none``)."""
    state = SYSTEM.setup("st_nazaire", {}, dice).state
    assert isinstance(state, RaidState)
    while SYSTEM.result(state) is None:
        state = _play_side(state, "commandos", dice)
        if SYSTEM.result(state) is not None:
            break
        state = _play_side(state, "germans", dice, fire=germans)
    return state


def test_every_st_nazaire_target_can_be_reached_and_destroyed() -> None:
    """Movement, Pillboxes, Barbed Wire, Demolition: with the pillboxes standing, the
    demolition parties reach every target (stopping on each 6" line, closing in on the next
    activation, cutting wire) and blow all five within the raid's eight turns."""
    state = play_raid(Sixes(), germans="none")
    assert sorted(state.destroyed) == sorted(t.id for t in state.table.targets)
    assert state.turn <= state.max_turn
    assert all(u.alive for u in state.units if u.kind == "pillbox")
    assert (SYSTEM.result(state) or "").startswith("Commandos win")


def test_a_whole_raid_won_on_its_objectives() -> None:
    """Turns, Demolition, Victory: a whole St Nazaire raid with provable seeded dice (the
    activation rolls, the demolitions' 4+): the commandos blow all five targets, which ends
    the raid, and win on its objectives."""
    state = play_raid(SeededDice(b"raid-2"), germans="none")
    assert sorted(state.destroyed) == sorted(t.id for t in state.table.targets)
    assert SYSTEM.result(state) == (
        "Commandos win 14-0: 5 targets destroyed, 0 commando and 3 German units lost.")


def test_a_raid_under_pillbox_fire_still_reaches_its_targets() -> None:
    """Pillboxes: each fires its one shot every German turn in its 180 degree arc; the raid
    still reaches and blows most of its targets and the commandos win."""
    state = play_raid(SeededDice(b"raid-0"), germans="pillboxes")
    assert len(state.destroyed) >= 4 and state.lost("commandos")
    assert (SYSTEM.result(state) or "").startswith("Commandos win")
