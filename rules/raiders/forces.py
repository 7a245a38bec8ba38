"""Raider units and forces: who is where, stacking, gear capacity, and the working context.

A *force* (10.3) is a group of units in one space acting together; every raider on the map
belongs to exactly one force, named F1, F2...  Several forces may share a space; stacking
(10.2) counts every raider in the space except leaders.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.core import orders, scenariofile
from rules.core.dice import Dice, ScriptedDice
from rules.core.errors import RuleError
from rules.raiders.scenario import Scenario, load_scenario
from rules.raiders.state import Gear, Mission, RaidersState, Unit


@dataclass
class Ctx(orders.Ctx[RaidersState]):
    """The kit's order context (:class:`rules.core.orders.Ctx`: a private copy of the state,
    the side, the dice, the events) with the two things every Raiders rule reads: the scenario
    data and the mission in play."""

    @classmethod
    def of(cls, base: orders.Ctx[RaidersState]) -> "Ctx":
        """The same resolution seen through Raiders' eyes: state, dice and events shared."""
        return cls(state=base.state, side=base.side, dice=base.dice, events=base.events,
                   snapshot=base.snapshot, reveals=base.reveals)

    @classmethod
    def reading(cls, state: RaidersState, dice: Dice | None = None) -> "Ctx":
        """A context for questions (offers, labels, views): no dice are rolled on it."""
        return cls(state=state, side="raiders", dice=dice if dice is not None else ScriptedDice([]))

    @property
    def sc(self) -> Scenario:
        """The scenario data."""
        return load_scenario(self.state.scenario)

    @property
    def m(self) -> Mission:
        """The mission in play (an order that needs one checks the phase first)."""
        assert self.state.mission is not None
        return self.state.mission


def unit(m: Mission, unit_id: str) -> Unit:
    """The raider counter ``unit_id`` (case-insensitive), or a RuleError."""
    for u in m.units:
        if u.id.lower() == unit_id.lower():
            return u
    raise RuleError(f"There is no raider unit '{unit_id[:30]}'; units: "
                    f"{scenariofile.one_of(u.id for u in m.units)}.")


def gear(m: Mission, gear_id: str) -> Gear:
    """The gear counter ``gear_id`` (case-insensitive), or a RuleError."""
    for g in m.gear:
        if g.id.lower() == gear_id.lower():
            return g
    raise RuleError(f"There is no gear '{gear_id[:30]}'; gear: "
                    f"{scenariofile.one_of(g.id for g in m.gear)}.")


def on_map(m: Mission) -> list[Unit]:
    """Raider units on the map."""
    return [u for u in m.units if u.space is not None]


def force_ids(m: Mission) -> list[str]:
    """Forces on the map, in creation order."""
    seen: list[str] = []
    for u in on_map(m):
        if u.force is not None and u.force not in seen:
            seen.append(u.force)
    return sorted(seen, key=lambda f: int(f[1:]))


def members(m: Mission, force_id: str) -> list[Unit]:
    """The units of a force."""
    return [u for u in on_map(m) if u.force == force_id]


def force(m: Mission, force_id: str) -> list[Unit]:
    """The units of a force on the map, or a RuleError naming the forces there are."""
    found = [u for u in on_map(m) if u.force is not None and u.force.lower() == force_id.lower()]
    if not found:
        names = ", ".join(force_ids(m)) or "none"
        raise RuleError(f"There is no force '{force_id[:20]}' on the map; forces: {names}.")
    return found


def space_of(m: Mission, force_id: str) -> str:
    """Where a force stands."""
    space = force(m, force_id)[0].space
    assert space is not None
    return space


def in_space(m: Mission, space: str) -> list[Unit]:
    """Raider units in a space."""
    return [u for u in on_map(m) if u.space == space]


def new_force(m: Mission) -> str:
    """A fresh force name."""
    name = f"F{m.next_force}"
    m.next_force += 1
    return name


def place(m: Mission, u: Unit, space: str, force_id: str | None = None) -> None:
    """Put a unit in a space, joining ``force_id`` or the first force there or a new one."""
    u.space, u.lost = space, False
    if force_id is None:
        here = [x.force for x in in_space(m, space) if x.force is not None and x.id != u.id]
        force_id = here[0] if here else new_force(m)
    u.force = force_id


def counter_to_recruit(sc: Scenario, m: Mission, unit_type: str) -> Unit | None:
    """The Recruit Box counter of ``unit_type`` a recruit takes (9.0, 9.2), or None: one never
    in play first; a counter eliminated earlier in the mission (back in the Recruit Box, 3.0)
    comes back under a number of its own, so that no name means two units in one game's log
    (issue 46: a second "Sen-1" after Sen-1 fell)."""
    free = [u for u in m.units if u.type == unit_type and u.space is None and not u.eliminated
            and u.id != m.pending_place]
    if not free:
        return None
    chosen = min(free, key=lambda u: u.lost)  # the first fresh one, in counter order
    if chosen.lost:
        spec = sc.unit_type[unit_type]
        taken = [int(tail) for u in m.units for head, _, tail in [u.id.rpartition("-")]
                 if head == spec.prefix and tail.isdigit()]
        number = max(taken, default=0) + 1
        chosen.id = f"{spec.prefix}-{number}"
        chosen.name = spec.names[number - 1] if number <= len(spec.names) else f"{spec.name} {number}"
        chosen.lost = False
    return chosen


def is_leader(sc: Scenario, u: Unit) -> bool:
    """20.0: leader counters."""
    return sc.unit_type[u.type].leader


def stack_count(sc: Scenario, m: Mission, space: str) -> int:
    """10.2: raider units counting against stacking in ``space`` (leaders do not)."""
    return sum(1 for u in in_space(m, space) if not is_leader(sc, u))


def gear_capacity(sc: Scenario, u: Unit) -> int:
    """23.2: a leader carries one item, a mobile unit two; a static unit transports none."""
    spec = sc.unit_type[u.type]
    if spec.leader:
        return 1
    return 2 if spec.movement > 0 else 0


def combat(sc: Scenario, u: Unit, m: Mission) -> int:
    """A raider's combat value with its weapon gear (our scenario's Vickers K: +1, max 6)."""
    value = sc.unit_type[u.type].combat
    for gid in u.gear:
        spec = sc.gear_type[gear(m, gid).type]
        if spec.effect == "weapon":
            value += spec.bonus
    return min(6, value)


def allowance(sc: Scenario, units: list[Unit]) -> int:
    """12.0: a force moves at the speed of its slowest unit."""
    return min(sc.unit_type[u.type].movement for u in units)


def remove_unit(ctx: Ctx, u: Unit) -> None:
    """Eliminate a raider: gear back to the pool (23.3), cargo lost (18.4), to the Recruit Box."""
    m = ctx.m
    for gid in u.gear:
        gear(m, gid).holder = None
    u.gear = []
    if u.carrying is not None:
        for mk in m.markers:
            if mk.id == u.carrying:
                mk.lost = True
                ctx.say("cargo", f"{u.id} falls: {mk.id} is lost for this mission (18.4)", "18.4")
        u.carrying = None
    u.space = None
    u.force = None
    u.lost = True
    # 20.1: a leader is not replaced within the mission; other counters may be recruited again.
    u.eliminated = is_leader(ctx.sc, u)


def label(sc: Scenario, m: Mission, force_id: str, count: int | None = None) -> str:
    """``F1 (Tobruk, 3 units)`` for lists and autocomplete (``count``: the units standing,
    when some fell in the battle under way)."""
    units = members(m, force_id)
    where = sc.space_by_id[units[0].space].name if units and units[0].space else "?"
    n = len(units) if count is None else count
    return f"{force_id} ({where}, {n} unit{'s' if n != 1 else ''})"
