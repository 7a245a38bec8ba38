"""How a raid looks to the computer player before it ends (issue 43): expected points.

The victory table counts destroyed targets and units lost, so the standing alone is flat for
most of a raid: a demolition party two inches from the caisson and one back on the quay
score the same 0.  This module reads what the rules make likely, from the state the computer
is given (commando keeps no secrets: the observation is the state):

* **demolitions to come** (Demolition: two actions in contact, 4+): for each demolition
  party and standing target, the chance it blows the target in the turns left, from the
  move actions it needs to reach it and the activation dice (Activation Roll: 1-2 one
  action, 3-4 two, 5+ three; +1 directed, -2 in a searchlight), and its chance to survive
  the German turns in between; each party counted for one target, the best first;
* **fire to come** (Shooting: 4+ to hit, -1 cover/armour/pillbox, -1 over 6", saves 4+;
  range 12", pillboxes from 3" and in their 180 degree arc): the losses each side's
  shooters can expect to inflict in their next turn, the side whose turn it is with the
  actions it has left, the other with the actions it may roll.

:func:`expected_points` sums them with the points already scored; ``scoring.prospects``
squashes the lead.  :func:`order_prior` ranks orders for the search (demolitions first,
good shots and moves that bring a demolition party closer next, ending a turn with actions
left last).  Pure and cheap: the search calls both thousands of times a decision.
"""

from __future__ import annotations

from functools import lru_cache

from rules.commando import board
from rules.commando.actions import (
    Assault, CutWire, Demolish, Direct, End, Mortar, Move, Roll, Shoot,
)
from rules.commando.activation import SEARCHLIGHT_RANGE, seen_by_searchlight
from rules.commando.movement import speed
from rules.commando.shooting import ARMOURED, CLOSE_RANGE, PILLBOX_ARC, PILLBOX_RANGE, RANGE
from rules.commando.state import SIDES, RaidState, UnitState, other
from rules.core import table
from rules.core.actions import Action
from rules.core.errors import RuleError

#: Activation Roll: the chance of 0..3 actions for a modifier (die + modifier: <1 none,
#: 1-2 one, 3-4 two, 5+ three).
Spread = tuple[float, float, float, float]
#: How much of the side's fire that acts after the next counts (it may move away, or die).
LATER_FIRE = 0.7
#: The chance a demolition sets its charges (Demolition: 4, 5 or 6).
BLAST = 0.5


@lru_cache(maxsize=None)
def spread(modifier: int) -> Spread:
    """The chance of 0, 1, 2 and 3 actions from one activation die with ``modifier``."""
    counts = [0, 0, 0, 0]
    for die in range(1, 7):
        score = die + modifier
        counts[0 if score < 1 else 1 if score <= 2 else 2 if score <= 4 else 3] += 1
    return (counts[0] / 6, counts[1] / 6, counts[2] / 6, counts[3] / 6)


def mean_actions(modifier: int, spent: int = 0) -> float:
    """Expected actions of a roll with ``modifier``, ``spent`` of them used otherwise."""
    return sum(p * max(0, a - spent) for a, p in enumerate(spread(modifier)))


@lru_cache(maxsize=4096)
def blow_chance(moves: int, turns: int, modifier: int, survive: float) -> float:
    """The chance a demolition party ``moves`` move actions from a target blows it within
    ``turns`` turns of its own, rolling with ``modifier`` each turn and living through each
    enemy turn in between with chance ``survive``: a turn with the moves and two more
    actions sets the charges (half the time), a shorter turn closes in (Movement: all its
    moves together, so the actions left after closing in are lost)."""
    if turns <= 0:
        return 0.0
    total = 0.0
    for actions, p in enumerate(spread(modifier)):
        if p:
            total += p * turn_outcome(moves, actions, turns, modifier, survive)
    return total


def turn_outcome(moves: int, actions: int, turns: int, modifier: int, survive: float) -> float:
    """The chance to blow the target from a turn begun ``moves`` away with ``actions``."""
    later = turns - 1
    if actions >= moves + 2:
        return BLAST + (1 - BLAST) * survive * blow_chance(0, later, modifier, survive)
    return survive * blow_chance(max(0, moves - actions), later, modifier, survive)


def moves_to(unit: UnitState, shape: table.Shape) -> int:
    """Move actions ``unit`` needs to touch ``shape``, in a straight line (Movement: 6" an
    action; terrain and the 6" halt ignored: an estimate)."""
    gap = table.distance_to_shape(unit.pos, shape) - board.BASE_RADIUS - board.TOUCH_SLACK
    return table.legs_needed(max(0.0, gap), speed(unit) or 6.0)


def commando_turns_after(state: RaidState) -> int:
    """The commandos' whole turns still to come after the present side's turn."""
    return max(0, state.max_turn - state.turn)


def party_chance(state: RaidState, unit: UnitState, shape: table.Shape, survive: float,
                 seen: dict[str, str]) -> float:
    """The chance demolition party ``unit`` blows ``shape`` before the raid ends."""
    moves = moves_to(unit, shape)
    modifier = -2 if unit.id in seen else 0
    later = commando_turns_after(state)
    if state.side != "commandos":
        return survive * blow_chance(moves, later, modifier, survive)
    if unit.directing is not None:  # an officer directing this turn does not act (Officers)
        return blow_chance(moves, later, modifier, survive) * survive
    if unit.score is None:  # still to roll this turn
        now = modifier + (1 if unit.directed_by is not None else 0)
        return sum(p * turn_outcome(moves, a, later + 1, modifier, survive)
                   for a, p in enumerate(spread(now)) if p)
    # A party that has moved moves no more this turn (Movement: all its moves in one order).
    actions = 0 if unit.moved and moves else unit.actions
    return turn_outcome(moves, actions, later + 1, modifier, survive)


def demolitions_to_come(state: RaidState, danger: dict[str, float]) -> float:
    """Expected points of the targets still standing, each party counted once (the best
    pairs of party and target first)."""
    targets = board.live_targets(state)
    parties = [u for u in state.alive("commandos") if u.kind == "demolition"]
    if not targets or not parties:
        return 0.0
    seen = seen_by_searchlight(state)
    pairs = []
    for unit in parties:
        survive = 1.0 - danger.get(unit.id, 0.0)
        for target in targets:
            chance = party_chance(state, unit, target.shape(), survive, seen)
            pairs.append((chance * target.points, unit.id, target.id))
    pairs.sort(reverse=True)
    used: set[str] = set()
    total = 0.0
    for value, unit_id, target_id in pairs:
        if unit_id in used or target_id in used:
            continue
        used |= {unit_id, target_id}
        total += value
    return total


# -- fire ------------------------------------------------------------------------------------


def hit_chance(state: RaidState, shooter: UnitState, target: UnitState, gap: float) -> float:
    """One shot's chance to hit (Shooting: 4+, -1 cover/armour/pillbox, -1 over 6"), 0 when
    it may not shoot at all (range, a pillbox from 3", the pillbox arc)."""
    if target.kind == "pillbox" and table.beyond(gap, PILLBOX_RANGE):
        return 0.0
    if table.beyond(gap, RANGE):
        return 0.0
    if shooter.kind == "pillbox" and shooter.facing is not None and not table.in_arc(
            shooter.pos, shooter.facing, PILLBOX_ARC, target.pos):
        return 0.0
    modifier = 0
    armoured = target.kind in ARMOURED if target.armoured is None else target.armoured
    if target.kind == "pillbox" or armoured or board.in_cover(state, target) is not None:
        modifier -= 1
    if table.beyond(gap, CLOSE_RANGE):
        modifier -= 1
    return max(0, 3 + modifier) / 6


def shots_of(state: RaidState, unit: UnitState, acting: bool) -> float:
    """The shots ``unit`` may still fire in its side's next turn: what it has left when its
    side is acting and it has rolled, else what a roll gives (Germans -1, Pillboxes one)."""
    if unit.kind == "searchlight" or unit.shot and acting:
        return 0.0
    if unit.kind == "pillbox":
        return float(unit.actions) if acting else 1.0
    if acting and (unit.score is not None or unit.directing is not None):
        return float(unit.actions)
    return mean_actions(-1 if unit.side == "germans" else 0)


def losses_to_come(state: RaidState, side: str, acting: bool) -> dict[str, float]:
    """The chance each enemy unit is lost to ``side``'s fire in its next turn: each shooter
    fires at the enemies in reach, its shots shared among them (it picks one)."""
    danger: dict[str, float] = {}
    enemies = [u for u in state.alive() if u.side != side]
    for shooter in state.alive(side):
        shots = shots_of(state, shooter, acting)
        if shots <= 0:
            continue
        reach = [(e, hit_chance(state, shooter, e, table.distance(shooter.pos, e.pos)))
                 for e in enemies]
        reach = [(e, p) for e, p in reach if p > 0]
        if not reach:
            continue
        best = max(p for _, p in reach)
        for enemy, p in reach:
            kill = 1.0 - (1.0 - p / 2) ** shots
            share = 1.0 if p == best else 0.5
            danger[enemy.id] = danger.get(enemy.id, 0.0) + kill * share / len(reach) ** 0.5
    return {k: min(0.9, v) for k, v in danger.items()}


def expected_points(state: RaidState, scored: dict[str, int]) -> dict[str, float]:
    """Points per side as they may stand at the end: the points ``scored`` so far, the
    demolitions to come and the losses the next turns' fire may inflict (the side acting
    counted in full, the other side's next turn a little less)."""
    score = {k: float(v) for k, v in scored.items()}
    loss = state.table.victory.loss_points
    danger = {side: losses_to_come(state, side, state.side == side) for side in score}
    for side in SIDES:
        weight = 1.0 if state.side == side else LATER_FIRE
        score[side] += weight * loss[other(side)] * sum(danger[side].values())
    score["commandos"] += demolitions_to_come(state, danger["germans"])
    return score


# -- which orders to try first ---------------------------------------------------------------


def order_prior(state: RaidState, side: str, action: Action) -> float:
    """How promising ``action`` looks before any search, 0 to 1: demolitions first, then the
    roll, good shots, assaults and moves that bring a demolition party closer to a target;
    ending the turn with something left to do last."""
    if isinstance(action, Demolish):
        return 1.0
    if isinstance(action, Roll):
        return 0.8 if action.unit is None else 0.7
    if isinstance(action, Shoot):
        return shot_prior(state, side, action)
    if isinstance(action, Mortar):
        return 0.65
    if isinstance(action, Assault):
        return 0.6
    if isinstance(action, Move):
        return move_prior(state, side, action)
    if isinstance(action, Direct):
        target = state.unit(action.unit)
        return 0.45 if target.kind == "demolition" else 0.2
    if isinstance(action, CutWire):
        return 0.3
    if isinstance(action, End):
        return 0.02 if busy(state, side) else 0.9
    return 0.3


def busy(state: RaidState, side: str) -> bool:
    """Whether ``side`` still has a unit to roll or actions to spend this turn."""
    return any(u.actions > 0 or (u.score is None and not u.static and u.directing is None)
               for u in state.alive(side))


def shot_prior(state: RaidState, side: str, action: Shoot) -> float:
    """A shot ranked by its chance to eliminate (searchlights that light a party count more)."""
    shooter, target = state.unit(action.unit), state.unit(action.target)
    gap = table.distance(shooter.pos, target.pos)
    shots = action.shots if action.shots is not None else shooter.actions
    kill = 1.0 - (1.0 - hit_chance(state, shooter, target, gap) / 2) ** max(1, shots)
    bonus = 0.1 if target.kind == "searchlight" and any(
        table.distance(target.pos, u.pos) <= SEARCHLIGHT_RANGE for u in state.alive(side)) else 0.0
    if target.kind == "demolition":
        bonus = 0.15  # the parties are what wins the raid
    return min(0.95, 0.35 + kill + bonus)


def move_prior(state: RaidState, side: str, action: Move) -> float:
    """A move ranked by where it ends: a demolition party closer to a standing target, any
    unit closer to the enemy it can then shoot."""
    unit = state.unit(action.unit)
    end = _end_of(state, action)
    if end is None:
        return 0.3
    if unit.kind == "demolition":
        targets = board.live_targets(state)
        if targets:
            before = min(table.distance_to_shape(unit.pos, t.shape()) for t in targets)
            after = min(table.distance_to_shape(end, t.shape()) for t in targets)
            if after <= board.BASE_RADIUS + board.TOUCH_SLACK:
                return 0.9
            return max(0.1, min(0.85, 0.4 + (before - after) / 30))
    enemies = [e for e in state.alive() if e.side != side and e.kind != "pillbox"]
    if not enemies:
        return 0.3
    before = min(table.distance(unit.pos, e.pos) for e in enemies)
    after = min(table.distance(end, e.pos) for e in enemies)
    return max(0.1, min(0.6, 0.3 + (before - after) / 40))


def _end_of(state: RaidState, action: Move) -> table.Point | None:
    """Where the offered move ends (its last place), or None if it cannot be read."""
    try:
        where = board.place(state, action.to, state.unit(action.unit).pos if action.via is None
                            else None)
    except RuleError:  # a place read from a turning point: no estimate
        return None
    return where.point


__all__ = ["blow_chance", "demolitions_to_come", "expected_points", "losses_to_come",
           "order_prior", "spread"]
