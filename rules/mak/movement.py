"""Movement (7.0) and stacking (8.0): what entering a hex costs, where a unit can go, the limit.

* 7.1.3: the cost of the hex entered by terrain and movement form; too few points left, no entry.
* 7.1.5: a ridge or wall crossed adds its (+) cost (a hover unit into desert over a ridge: 3+2).
* 7.1.6: along a road from a road hex, only the road's cost (1/2 MP).
* 7.1.7: in a partial building hex a Type I unit is among the buildings, a Type II unit outside.
* 7.1.8: W and C units never enter water.  7.2.3: an enemy hex is entered only to fight (9.0).
* 7.2.6: a stack moves at the lowest allowance.  7.3.1: picking up or dropping costs 1 MP.
* 14.1: infantry move one hex (terrain costs do not matter, prohibitions do).
* 8.1 / 8.2: stack points (Type I 1, Type II 2) and the limit of 4 per side and hex at the end
  of a phase or in close quarters; 8.2.3: two NeuSpotters only with a Type II unit.
"""

from __future__ import annotations

import heapq
from typing import Callable, Iterable, NamedTuple

from rules.core.hexes import Hex
from rules.mak.battlefield import Battlefield
from rules.mak.data import Movement, UnitStats, charts

CARRY_COST = 1.0  # 7.3.1
STACK_LIMIT = 4  # 8.2


def entry_cost(field: Battlefield, unit: UnitStats, a: Hex, b: Hex) -> float | None:
    """Movement points to step from ``a`` into adjacent ``b``; None if it may not (7.1)."""
    form = unit.move_form
    if field.hexes:
        base = field.base_costs(form, unit.unit_class).get(b)  # off the map: None
    elif not field.contains(b):
        return None
    else:
        terrain = field.terrain_at(b)
        if terrain.key == "building" and b in field.partial and unit.unit_class == 2:
            terrain = charts().terrain_of("clear")  # 7.1.7: outside the buildings
        base = terrain.cost.get(form)
    if base is None:
        return None  # 7.1.8 and the chart's prohibited entries
    if a in field.roads and b in field.roads:
        base = charts().road_cost  # 7.1.6
    feature = field.feature(a, b)
    if feature is not None:
        extra = charts().hexside_of(feature).cost.get(form)
        if extra is None:
            return None
        base += extra
    if form == Movement.FOOT:
        return 1.0  # 14.1: one hex, whatever the terrain
    return base


def _stepper(field: Battlefield, unit: UnitStats):  # type: ignore[no-untyped-def]
    """``step(a, b)``: :func:`entry_cost` with its tables looked up once (the hot path)."""
    if not field.hexes:
        return lambda a, b: entry_cost(field, unit, a, b)
    form = unit.move_form
    base = field.base_costs(form, unit.unit_class)
    roads, features = field.roads, field.hexsides
    road = charts().road_cost
    extra = {row.key: row.cost.get(form) for row in charts().hexsides}
    foot = form == Movement.FOOT

    def step(a: Hex, b: Hex) -> float | None:
        cost = base.get(b)
        if cost is None:
            return None
        if a in roads and b in roads:
            cost = road
        kind = features.get((a, b) if a <= b else (b, a))
        if kind is not None:
            add = extra[kind]
            if add is None:
                return None
            cost += add
        return 1.0 if foot else cost

    return step


class Way(NamedTuple):
    """The best way found to a hex: its movement cost, the hex before it on that way, and how
    many hexes to avoid (known minefields, 19.1.2) it enters on the way (the hex itself too)."""

    cost: float
    prev: Hex | None
    mines: int = 0


class Reach(dict[Hex, Way]):
    """:func:`reach`'s answer: the best way to each hex in reach; :meth:`path` walks it."""

    def __init__(self, ways: dict[Hex, Way], states: dict[tuple[Hex, int], tuple[float, tuple[Hex, int] | None]]) -> None:
        super().__init__(ways)
        self._states = states

    def path(self, dest: Hex) -> list[Hex]:
        """The hexes from the start to ``dest`` (start included), by ``dest``'s best way."""
        key: tuple[Hex, int] | None = (dest, self[dest].mines)
        out: list[Hex] = []
        while key is not None:
            out.append(key[0])
            key = self._states[key][1]
        return out[::-1]


def reach(field: Battlefield, unit: UnitStats, start: Hex, points: float,
          closed: Iterable[Hex] = (), avoid: Iterable[Hex] = (),
          cost: Callable[[Hex, Hex], float | None] | None = None) -> Reach:
    """Every hex the unit can reach with ``points``, with the best way there.

    ``closed`` hexes (enemy-occupied) are never entered by a move (7.2.3).  ``avoid`` hexes
    (the minefields both sides know of, 19.1.2) may be entered, but the best way to a
    hex is the one entering the fewest of them, then the cheapest: Dijkstra over (hex, hexes
    avoided entered so far), a state dropped when another reaches its hex through fewer of
    them for no more points (so a hex only a minefield leads to within ``points`` is still in
    reach, marked by ``Way.mines``).  With nothing to avoid it is plain Dijkstra.  ``cost``
    replaces the terrain's costs (the booster's one point a hex, 19.5.3).
    """
    blocked = set(closed)
    risky = set(avoid)
    step = cost or _stepper(field, unit)
    around = field.around
    states: dict[tuple[Hex, int], tuple[float, tuple[Hex, int] | None]] = {(start, 0): (0.0, None)}
    queue: list[tuple[float, int, Hex, int]] = [(0.0, 0, start, 0)]
    tick = 0
    limit = points + 1e-9

    def beaten(h: Hex, k: int, total: float) -> bool:  # a way with fewer mines, no dearer
        return any((got := states.get((h, j))) is not None and got[0] <= total + 1e-9 for j in range(k))

    while queue:
        cost, _, here, k = heapq.heappop(queue)
        if cost > states[(here, k)][0] or (k and beaten(here, k, cost)):
            continue
        for nxt in around(here):
            if nxt in blocked:
                continue
            add = step(here, nxt)
            if add is None or cost + add > limit:
                continue
            total = cost + add
            kk = k + 1 if nxt in risky else k
            key = (nxt, kk)
            if (key not in states or total < states[key][0] - 1e-9) and not (kk and beaten(nxt, kk, total)):
                states[key] = (total, (here, k))
                tick += 1
                heapq.heappush(queue, (total, tick, nxt, kk))
    ways: dict[Hex, Way] = {}
    for (h, k), (cost, prev) in states.items():
        if h not in ways or k < ways[h].mines:
            ways[h] = Way(cost, prev[0] if prev else None, k)
    return Reach(ways, states)


def path_to(found: Reach, dest: Hex) -> list[Hex]:
    """The hexes from the start to ``dest`` (start included) out of :func:`reach`."""
    return found.path(dest)


def stack_allowance(units: Iterable[UnitStats]) -> int:
    """7.2.6: a stack moves at its lowest allowance."""
    return min(u.movement for u in units)


def stack_points(units: Iterable[UnitStats]) -> int:
    """8.1: the stack points of one side's units in a hex."""
    return sum(u.points for u in units)


def stacking_problem(units: list[UnitStats]) -> str | None:
    """8.2 / 8.2.3: why one side's units may not end a phase together, or None."""
    points = stack_points(units)
    if points > STACK_LIMIT:
        return f"{points} stack points is over the limit of {STACK_LIMIT} (8.2)"
    spotters = sum(1 for u in units if u.key == "NeuSpotter")
    if spotters >= 2 and not any(u.unit_class == 2 for u in units):
        return "two NeuSpotters may share a hex only with a Type II unit (8.2.3)"
    return None
