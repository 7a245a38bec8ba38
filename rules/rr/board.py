"""What the rules ask of the map and the counters: scenario and graph lookup, unit kinds,
current values, stacking (5.1) and control (12.0).

A state names its scenario by key.  Tests may :func:`register_scenario` a hand-built
:class:`Scenario` under a key of its own; everything else comes from ``data/<key>.json``.
"""

from __future__ import annotations

from collections.abc import Iterable

from rules.core import scenariofile
from rules.core.areas import AreaGraph, AreaShape
from rules.core.errors import RuleError
from rules.rr.scenario import Scenario, UnitSpec, UnitValues, load_scenario
from rules.rr.state import SIDE_NAMES, RRState, Side, UnitState, other, says

STACK_LIMIT = 6  # 5.1

SCENARIO_KEYS = ("tannenbruck",)
_CUSTOM: dict[str, Scenario] = {}
_GRAPHS: dict[str, AreaGraph] = {}


def register_scenario(scenario: Scenario) -> None:
    """Make a hand-built scenario loadable by its key (tests, variants)."""
    _CUSTOM[scenario.key] = scenario
    _GRAPHS.pop(scenario.key, None)
    _FACTS.pop(scenario.key, None)


def is_scenario(scenario: str) -> bool:
    """Whether ``scenario`` names a shipped scenario or one registered with :func:`register_scenario`."""
    return scenario in _CUSTOM or scenario in SCENARIO_KEYS or scenariofile.registered("rr", scenario) is not None


def scenario_of(key: str) -> Scenario:
    """The scenario called ``key``, or a RuleError naming the ones there are."""
    if key in _CUSTOM:
        return _CUSTOM[key]
    try:
        return load_scenario(key)
    except FileNotFoundError:
        raise RuleError(f"There is no Raid and Riposte scenario '{key[:40]}'; try tannenbruck.")


def graph_of(scenario: Scenario) -> AreaGraph:
    """The area graph of a scenario (7.2 adjacency, 7.3.1 range, 7.3.2 LOS), built once."""
    graph = _GRAPHS.get(scenario.key)
    if graph is None:
        graph = getattr(scenario, "graph", None)
        if not isinstance(graph, AreaGraph):
            graph = AreaGraph(
                AreaShape.of(a.id, a.polygon, a.centre, a.blocks_los) for a in scenario.areas
            )
        _GRAPHS[scenario.key] = graph
    return graph


# -- kinds of counters -------------------------------------------------------------------------

LEADERS = frozenset({"nikolas", "boyes", "koval"})
RIDERS = frozenset({"sagger", "tow", "kastet"})


def is_leader(spec: UnitSpec) -> bool:
    """9.7-9.9: leaders move with a unit and cannot be attacked directly."""
    return spec.kind == "leader" or spec.special in LEADERS


def is_rider(spec: UnitSpec) -> bool:
    """9.3, 9.4: ATGM teams and the Kastet stay with their company."""
    return spec.kind == "atgm" or spec.special in RIDERS


def is_mortar(spec: UnitSpec) -> bool:
    """9.1: mortar batteries."""
    return spec.kind == "mortar" or spec.special == "mortar"


def is_hind(spec: UnitSpec) -> bool:
    """10.2: the Hind helicopter."""
    return spec.kind == "hind" or spec.special == "hind"


def is_sniper(spec: UnitSpec) -> bool:
    """9.2: the NATO sniper, never on the map."""
    return spec.kind == "sniper" or spec.special == "sniper"


def is_t12(spec: UnitSpec) -> bool:
    """9.6: the T-12 anti-tank battery."""
    return spec.special == "t12" or spec.kind == "at_gun"


def is_ags(spec: UnitSpec) -> bool:
    """9.5: the AGS-17 section."""
    return spec.kind == "ags17" or spec.special in ("ags17", "ags")


def is_tank(spec: UnitSpec) -> bool:
    """7.3.5.3: tanks get no TM in assault."""
    return spec.kind == "tank"


def is_hq(spec: UnitSpec) -> bool:
    """9.10: the German HQ."""
    return spec.kind == "hq" or spec.special == "hq"


def is_luchs(spec: UnitSpec) -> bool:
    """9.11: the Luchs recon platoon."""
    return spec.special == "luchs"


def is_vdv(spec: UnitSpec) -> bool:
    """7.3.6: VDV Para companies may come back as cadres."""
    return spec.special == "vdv"


def ready_problem(unit: UnitState, ap_rule: str) -> str | None:
    """Why ``unit`` cannot spend an AP on an order now, the first condition that fails, or
    None: it must be on the map, not Suppressed (6.2.1: "Suppressed units lose all action
    points"), with an AP (``ap_rule``: what the order costs).  A Recovering unit acts with
    the AP it has: it has none unless the German HQ gave it one (6.2 step 2: "Suppressed /
    Recovering units are not reset"; 9.10)."""
    if unit.place != "map":
        return "it is not on the map"
    if unit.status == "suppressed":
        return "it is Suppressed (6.2.1), with no AP until it rallies (6.2)"
    if unit.ap < 1 and unit.status == "recovering":
        return ("it is Recovering and has no AP: Recovering units are not reset (6.2); "
                "the German HQ can give a unit in or next to its area one (9.10)")
    if unit.ap < 1:
        return f"it has no AP left this turn ({ap_rule})"
    return None


def airstrike_problem(s: RRState, side: str) -> str | None:
    """10.1: why ``side`` cannot call an airstrike now, or None.  "If the NATO player rolls
    equal to or less than the turn number then the NATO Player receives Airstrike.  If the
    Soviet player rolls equal to or greater than the turn number then Soviet player receives
    an Airstrike.  Airstrikes may be used once per turn": received and already used, or not
    received on this turn's initiative roll."""
    if s.airstrike.get(side):
        return None
    roll = s.init_rolls.get(side)
    received = roll is not None and (roll <= s.turn if side == "nato" else roll >= s.turn)
    if received:
        return f"{says(side, 'has', 'have')} used this turn's airstrike already; it may be used once per turn (10.1)"
    need = f"{s.turn} or less" if side == "nato" else f"{s.turn} or more"
    rolled = f"the roll was {roll}" if roll is not None else "there was no roll yet"
    return (f"{says(side, 'has', 'have')} no airstrike this turn: it comes with an initiative roll "
            f"of {need} on turn {s.turn}; {rolled} (10.1)")


def move_problem(b: Board, unit: UnitState) -> str | None:
    """Why ``unit`` cannot move now, the first condition that fails, or None: the T-12
    "cannot move from its initial placement area" (9.6), the Hind "may only use its action
    points to conduct ranged combat" (10.2), a leader moves with another unit (9.7-9.9), an
    ATGM with its company (9.3); then on the map, unsuppressed, with an AP (7.2)."""
    spec = b.spec(unit.id)
    if is_t12(spec):
        return "the T-12 cannot move from its initial placement area; it can only fire (9.6)"
    if is_hind(spec):
        return "the Hind only uses its AP to fire (10.2)"
    if is_leader(spec):
        return "a leader moves only with another unit of his area (9.7-9.9)"
    if is_rider(spec):
        return "an ATGM team moves with its company (9.3, 9.4)"
    return ready_problem(unit, "7.2")


def can_move(b: Board, unit: UnitState) -> bool:
    """On the map, unsuppressed, with an AP, and able to move at all: :func:`move_problem`
    is None, its counter checks (9.3, 9.6, 9.7-9.9, 10.2) read once per scenario."""
    return unit.id in b.facts.walkers and ready_problem(unit, "7.2") is None


MORTAR_RANGE = 2  # 9.1


def reach(b: Board, uid: str, kastet: bool = False) -> int:
    """How far a unit fires at normal range: RCM (9.3 ATGM, 9.4 Kastet, 9.7 boost) or the
    mortar's 2 (9.1; Nikolas's +1 range)."""
    unit = b.s.units[uid]
    if is_mortar(b.spec(uid)):
        return MORTAR_RANGE + (1 if "range" in unit.boost else 0)
    return b.rcm(uid) + (1 if kastet else 0) + (1 if "rcm" in unit.boost else 0)


def fire_reaches(b: Board, uid: str, area: str, victim: str) -> bool:
    """Whether ``uid``'s fire could reach ``victim`` in ``area`` at all: its normal range,
    or one area further (7.3.4: "all units can fire one area further than their RCM";
    mortars never, 9.1); never a leader's, an ATGM team's (their company fires, 9.3) or the
    T-12's at a unit that is not a vehicle (9.6).  Line of sight is not asked: a mortar needs
    none of its own (9.1)."""
    spec = b.spec(uid)
    if is_leader(spec) or is_rider(spec) or is_sniper(spec):
        return False
    if is_t12(spec) and not b.spec(victim).vehicle:
        return False
    unit = b.s.units[uid]
    limit = reach(b, uid) + (0 if is_mortar(spec) else 1)
    return b.g.distance(unit.area or "", area) <= limit


def is_combatant(spec: UnitSpec) -> bool:
    """A unit that can be attacked and holds ground: not a leader, rider, sniper or the Hind."""
    return not (is_leader(spec) or is_rider(spec) or is_sniper(spec) or is_hind(spec))


class Facts:
    """What the rules look up about one scenario's counters and map on every order, read
    once: the counters and the map are static scenario data (a state only says where the
    counters are and how they fare)."""

    def __init__(self, scenario: Scenario) -> None:
        self.scenario = scenario
        #: 10.2: the Hind, in the air: it holds no ground (12.0) and has no nation (5.1).
        self.hinds = frozenset(u.id for u in scenario.units if is_hind(u))
        #: Units that can be attacked and hold ground (:func:`is_combatant`).
        self.combatants = frozenset(u.id for u in scenario.units if is_combatant(u))
        #: Units whose counter lets them move on their own: all but the T-12 (9.6), the
        #: Hind (10.2), leaders (9.7-9.9) and ATGM teams (9.3): the counter checks of
        #: :func:`move_problem`.
        self.walkers = frozenset(u.id for u in scenario.units
                                 if not (is_t12(u) or is_hind(u) or is_leader(u) or is_rider(u)))
        #: Units with a ranged attack of their own: not leaders or riders (9.3, 9.7-9.9).
        self.shooters = frozenset(u.id for u in scenario.units if not (is_leader(u) or is_rider(u)))
        #: Each area's place in the map's (numeric) order.
        self.order = {area: i for i, area in enumerate(graph_of(scenario).ids)}


_FACTS: dict[str, Facts] = {}


def facts_of(scenario: Scenario) -> Facts:
    """The :class:`Facts` of ``scenario``, built once for that scenario object."""
    facts = _FACTS.get(scenario.key)
    if facts is None or facts.scenario is not scenario:
        facts = _FACTS[scenario.key] = Facts(scenario)
    return facts


def _by_area(b: Board, units: list[UnitState]) -> list[tuple[str, list[UnitState]]]:
    """``units`` grouped by area, areas in map order, each group in the order given."""
    by_area: dict[str, list[UnitState]] = {}
    for unit in units:
        if unit.area:
            by_area.setdefault(unit.area, []).append(unit)
    return [(area, by_area[area]) for area in b.in_map_order(by_area)]


class _Index:
    """Who is where in one state that nobody changes while it is read, each table built on
    its first question in one pass over the units, in their order (so every list is the one
    the scans of :class:`RRState` give): units on the map by area, and by side (``None``:
    either), riders by the unit they ride with."""

    def __init__(self, state: RRState) -> None:
        self.state = state
        self._areas: dict[str, list[UnitState]] | None = None
        self._sides: dict[str | None, list[UnitState]] = {}
        self._riders: dict[str, list[UnitState]] | None = None
        self._groups: dict[str, list[tuple[str, list[UnitState]]]] = {}

    def groups(self, side: str, board: Board) -> list[tuple[str, list[UnitState]]]:
        """:meth:`Board.groups` of ``side``, worked out on the first question."""
        groups = self._groups.get(side)
        if groups is None:
            groups = self._groups[side] = _by_area(board, self.on_map(side))
        return groups

    def in_area(self, area: str, side: str | None) -> list[UnitState]:
        """A fresh list of the units on the map in ``area`` (of ``side``, or either)."""
        if self._areas is None:
            self._areas = {}
            for unit in self.state.units.values():
                if unit.place == "map" and unit.area is not None:
                    self._areas.setdefault(unit.area, []).append(unit)
        here = self._areas.get(area, ())
        return [u for u in here if u.side == side] if side is not None else list(here)

    def on_map(self, side: str | None) -> list[UnitState]:
        """A fresh list of the units on the map (of ``side``, or either)."""
        units = self._sides.get(side)
        if units is None:
            units = self._sides[side] = self.state.on_map(side)
        return list(units)

    def riders(self, uid: str) -> list[UnitState]:
        """A fresh list of the counters riding with ``uid``."""
        if self._riders is None:
            self._riders = {}
            for unit in self.state.units.values():
                if unit.place == "attached" and unit.attached_to is not None:
                    self._riders.setdefault(unit.attached_to, []).append(unit)
        return list(self._riders.get(uid, ()))


class Board:
    """A state with its scenario and graph at hand; the questions every rule asks."""

    def __init__(self, state: RRState, frozen: bool = False) -> None:
        """``frozen``: the caller only reads, so who-is-where is indexed once, on the first
        question (the menus and "any order left?" ask dozens: issue 23)."""
        self.s = state
        self.sc = scenario_of(state.scenario)
        self.g = graph_of(self.sc)
        self.specs = self.sc.unit_by_id
        self.facts = facts_of(self.sc)
        self.frozen = frozen
        self._index: _Index | None = None

    def _where(self) -> _Index:
        """The frozen state's who-is-where tables."""
        if self._index is None:
            self._index = _Index(self.s)
        return self._index

    def reading(self) -> Board:
        """This board for a question that changes nothing (a retreat's or a route's
        choices): frozen, so the question's many who-is-where lookups read one index.  A
        board in the middle of an order scans the units afresh at each lookup instead."""
        return self if self.frozen else Board(self.s, frozen=True)

    def in_area(self, area: str, side: str | None = None) -> list[UnitState]:
        """Units on the map in ``area``, optionally of one side."""
        if not self.frozen:
            return self.s.in_area(area, side)
        return self._where().in_area(area, side)

    def on_map(self, side: str | None = None) -> list[UnitState]:
        """Units on the map, optionally of one side, in the scenario's order."""
        if not self.frozen:
            return self.s.on_map(side)
        return self._where().on_map(side)

    def groups(self, side: str) -> list[tuple[str, list[UnitState]]]:
        """The side's units on the map by area, areas in map order, each group in the
        state's order: what :meth:`in_area` gives for each area the side holds (one impulse
        activates one area, 7.0), read in one pass (once, on a frozen board: callers only
        read the lists)."""
        if self.frozen:
            return self._where().groups(side, self)
        return _by_area(self, self.on_map(side))

    def riders(self, uid: str) -> list[UnitState]:
        """Counters riding with ``uid`` (ATGM teams, the Kastet: 9.3, 9.4)."""
        if not self.frozen:
            return self.s.riders(uid)
        return self._where().riders(uid)

    def in_map_order(self, areas: Iterable[str]) -> list[str]:
        """``areas`` sorted in map (numeric) order."""
        return sorted(areas, key=self.facts.order.__getitem__)

    # -- counters ---------------------------------------------------------------------------

    def spec(self, uid: str) -> UnitSpec:
        """The printed counter of ``uid``."""
        return self.specs[uid]

    def unit(self, uid: str, side: str | None = None) -> UnitState:
        """A unit by id (case-insensitive), or a RuleError naming the side's units."""
        key = self.find_id(uid)
        if key is None or (side is not None and self.s.units[key].side != side):
            if side is not None:
                raise RuleError(f"There is no {SIDE_NAMES[side]} unit '{uid[:30]}'; {self.ids_known(side)}.")
            known = "; ".join(f"{SIDE_NAMES[x]} {self.ids_on_map(x)}" for x in SIDE_NAMES)
            raise RuleError(f"There is no unit '{uid[:30]}' of either side; on the map: {known}.")
        return self.s.units[key]

    def ids_on_map(self, side: str, most: int = 8) -> str:
        """``M48-1, M48-2, LUCHS (+5 more)``: the side's units on the map, or ``none``."""
        ids = [u.id for u in self.on_map(side)]
        more = f" (+{len(ids) - most} more)" if len(ids) > most else ""
        return (", ".join(ids[:most]) or "none") + more

    def ids_known(self, side: str, most: int = 8) -> str:
        """The side's units a player can name: ``on the map: M48-1, …``, or during set-up
        (none on the map yet, 11.0) ``in the pool: M48-1, …``."""
        on_map = self.ids_on_map(side, most)
        if on_map != "none":
            return f"on the map: {on_map}"
        ids = [u.id for u in self.s.units.values() if u.side == side]
        more = f" (+{len(ids) - most} more)" if len(ids) > most else ""
        return f"none on the map yet; in the pool: {', '.join(ids[:most]) or 'none'}{more}"

    def area_list(self, areas: Iterable[str]) -> str:
        """Areas in map (numeric) order, comma-separated: ``2, 3, 6, 11, 12``."""
        return ", ".join(self.in_map_order(areas))

    def find_id(self, uid: str) -> str | None:
        """The id as the scenario spells it, or None."""
        if uid in self.s.units:
            return uid
        low = uid.strip().lower()
        return next((k for k in self.s.units if k.lower() == low), None)

    def values(self, uid: str) -> UnitValues:
        """The values of the side of the counter now face up (2.0)."""
        spec = self.specs[uid]
        unit = self.s.units[uid]
        return spec.reduced if unit.reduced and spec.reduced is not None else spec.full

    def max_ap(self, uid: str) -> int:
        """The AP dots of the counter's face-up side (7.1)."""
        return self.values(uid).ap

    def morale(self, uid: str) -> int:
        """Morale; 9.10: units in the German HQ's area use the HQ's morale."""
        unit = self.s.units[uid]
        base = self.values(uid).morale
        if unit.place != "map":
            return base
        for other_unit in self.in_area(unit.area or "", unit.side):
            if other_unit.id != uid and is_hq(self.specs[other_unit.id]):
                return self.values(other_unit.id).morale
        return base

    def rcm(self, uid: str) -> int:
        """RCM with ATGM teams riding along (9.3) and the unfired Kastet (9.4) added."""
        value = self.values(uid).rcm
        for rider in self.riders(uid):
            if self.specs[rider.id].special != "kastet":
                value += 1
        return value

    def has_kastet(self, uid: str) -> bool:
        """9.4: the T-12 still carries its one Kastet shot."""
        return any(self.specs[r.id].special == "kastet" for r in self.riders(uid))

    def sees(self, a: str, c: str) -> bool:
        """7.3.2 line of sight from ``a``'s dot to ``c``'s.  Adjacent areas (and an area
        itself) always see each other: the off-centre dots of two neighbours may draw a line
        across a third area, which the rules never meant to block (see README)."""
        return a == c or self.g.is_adjacent(a, c) or self.g.los(a, c)

    def leaders_in(self, area: str, side: str) -> list[UnitState]:
        """Leaders in an area."""
        return [u for u in self.in_area(area, side) if is_leader(self.specs[u.id])]

    def combatants_in(self, area: str, side: str | None = None) -> list[UnitState]:
        """Units in an area that can be attacked and hold ground."""
        return [u for u in self.in_area(area, side) if u.id in self.facts.combatants]

    # -- stacking (5.1) -----------------------------------------------------------------------

    def points(self, area: str, side: str) -> int:
        """Stacking points of ``side`` in ``area`` (counters with none shown count 0)."""
        return sum(self.specs[u.id].stacking for u in self.in_area(area, side))

    def nations(self, area: str) -> set[str]:
        """The nations present in an area."""
        return {self.specs[u.id].nation for u in self.in_area(area) if u.id not in self.facts.hinds}

    def stack_problem(self, area: str, movers: list[str]) -> str | None:
        """Why ``movers`` may not join ``area`` (5.1), or None when they may."""
        side = self.s.units[movers[0]].side
        here = [u.id for u in self.in_area(area, side) if u.id not in movers]
        total = sum(self.specs[u].stacking for u in here + movers)
        if total > STACK_LIMIT:
            return f"area {area} would hold {total} stacking points; 6 is the limit (5.1)"
        nations = {self.specs[u].nation for u in here + movers if u not in self.facts.hinds}
        if {"de", "us"} <= nations:
            return f"German and American units may not share area {area} (5.1)"
        return None

    def enemy_held(self, area: str, side: str) -> bool:
        """Whether enemy units are in ``area``: the Hind too.  10.2 places it "in any
        non-enemy occupied area", and 5.1: "Units from opposing sides (NATO and Soviet) may
        only occupy the same area during assault combat": no move, retreat, route or entry
        goes into the Hind's area (it controls nothing, 12.0: see :meth:`occupant`)."""
        return bool(self.in_area(area, other(side)))

    def hind_over(self, area: str, side: str) -> bool:
        """Whether the enemy of ``side``'s Hind is in ``area`` (10.2)."""
        return any(u.id in self.facts.hinds for u in self.in_area(area, other(side)))

    def enemy_areas(self, side: str) -> set[str]:
        """Areas holding enemy units (any counter of theirs on the map)."""
        return {u.area for u in self.on_map(other(side)) if u.area is not None}

    # -- control (12.0) -----------------------------------------------------------------------

    def occupant(self, area: str) -> Side | None:
        """The sole occupant of ``area`` (the Hind, in the air, holds nothing), or None."""
        sides = {u.side for u in self.in_area(area) if u.id not in self.facts.hinds}
        return next(iter(sides)) if len(sides) == 1 else None

    def update_control(self) -> None:
        """12.0: an area is controlled by its sole occupant, or by the last one it had."""
        hinds = self.facts.hinds
        sides: dict[str, set[Side]] = {}
        for unit in self.s.units.values():
            if unit.place == "map" and unit.area is not None and unit.id not in hinds:
                sides.setdefault(unit.area, set()).add(unit.side)
        for area, present in sides.items():
            if len(present) == 1:
                self.s.control[area] = next(iter(present))

    def controller(self, area: str) -> Side | None:
        """Who controls ``area`` now (12.0)."""
        return self.s.control.get(area)

    def ring(self) -> list[str]:
        """12.0: area 19 and every area adjacent to it, in map order."""
        main = self.sc.main_objective
        return [main] + self.g.neighbours(main)
