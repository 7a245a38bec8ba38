"""How a mission looks to the computer player before it ends (issue 43): its chance, roughly.

The campaign's record alone is flat for a whole mission (a sapper next to the airfield and
one still at Kufra score the same), and a search over a flat score plays at random: the
raiders lost every logged campaign, played by ``normal`` and the random player alike.  This
module reads what the rules make likely from the state the computer is given (Raiders keeps
no secrets from its one player: the observation is the state; face-down markers and cards
have no type until they are turned or drawn, 19.0, 13.0):

* **the objective** (6.0, 8.0 (2)): what is done (markers destroyed, cargo delivered, the
  space held) and, for what is left, the best force's chance to do it in the Ops left
  (11.0): the operations its road moves need to get there (12.0: the slowest unit's
  movement, stopping at STOP terrain and at objective markers), the chance a face-down
  marker is the kind wanted (19.0), the demolition roll (21.1: 4+ on the stand-in table,
  Explosives +2), the garrison or camp it must beat on the way (15.0, 8.0 (1)), and, for
  cargo, the way back to a Staging Area (18.4; moving in draws no card, 13.0);
* **the forces** (15.0): the combat values standing, against what a card calls up;
* **the Ops left** (11.0, 11.3): more chances, except for a hold objective (judged at the
  end, 6.0), where every Op is one more card to survive;
* **a battle under way** (15.1): its likely winner, from the combat values on each side.

:func:`mission_value` is the mission's standing from 0 to 1 (1: the objective met);
``campaign.prospects`` puts it into the campaign.  :func:`order_prior` ranks orders for the
search (what a careful player tries first).  Pure and cheap: the search calls both
thousands of times a decision.
"""

from __future__ import annotations

from functools import lru_cache

from rules.core.actions import Action
from rules.raiders import actions as A
from rules.raiders.battle import alive
from rules.raiders.forces import Ctx, allowance, combat, force_ids, members, on_map
from rules.raiders.objectives import on_board
from rules.raiders.scenario import Scenario, load_scenario
from rules.raiders.state import Marker, Mission, RaidersState, Unit

#: How much one more operation on the way lowers a task's chance (cards to survive, 13.0).
DECAY = 0.82
#: 21.1 (stand-in table): a roll of 4+ destroys; with Explosives (+2) a 2+.
DEMOLITION = 0.5
DEMOLITION_EXPLOSIVES = 5 / 6
#: A hostile's combat value on average (the bin's: 2-5, 15.1).
HOSTILE_COMBAT = 3.2
#: What a card's battle brings on average (15.1 (1): a die of hostiles).
CARD_HOSTILES = 3.5
#: The share of Ops cards that call up hostiles (13.0 (2): 5 of the stand-in deck's 12).
CARD_BATTLE = 5 / 12
#: What each operation done costs the standing: the mission must be played on, and an Op
#: into a Staging Area draws no card (13.0), so moving between them would stall it for ever.
TEMPO = 0.02
#: What each force formed costs (10.3): splitting and joining again changes nothing.
FORMING = 0.01
#: A raider line given in the middle of a round only reorders the next one (15.1 (4)): a
#: run of them changes nothing, so one costs a little (the search fires instead).
RELINE = 0.02
#: A face-down marker's garrison when the marker type is not known yet (19.0).
UNKNOWN_GARRISON = 1.0
#: What one unspent Recruit Point is worth in combat values (9.0: a Commando, 3, costs 2).
RP_COMBAT = 1.0
#: A task within reach is worth this much of one done (it is not done yet).
AIMED = 0.95
#: Weights of the mission's standing: the objective, the forces, the Ops left.
OBJECTIVE_WEIGHT = 0.75
FORCES_WEIGHT = 0.15
OPS_WEIGHT = 0.10


@lru_cache(maxsize=8192)
def op_distances(scenario: str, start: str, steps: int, stops: frozenset[str]) -> dict[str, int]:
    """Operations (road moves of up to ``steps`` spaces, 12.0) from ``start`` to each space,
    a move halting at ``stops`` (STOP terrain, objective markers).  Callers must not change
    the dict (it is cached)."""
    network = load_scenario(scenario).network
    ops = {start: 0}
    frontier = [start]
    while frontier and steps > 0:
        later: list[str] = []
        for here in frontier:
            for there in network.reachable(here, steps, stops=stops):
                if there not in ops:
                    ops[there] = ops[here] + 1
                    later.append(there)
        frontier = later
    return ops


def stop_spaces(sc: Scenario, m: Mission) -> frozenset[str]:
    """12.0: STOP terrain and spaces with an objective marker."""
    return frozenset({s.id for s in sc.spaces if sc.stop(s.id)} | {mk.space for mk in on_board(m) if mk.space})


def ops_left(sc: Scenario, m: Mission) -> int:
    """11.0: the cards left in the draw deck, and kept cards that can gain an Op (13.1)."""
    return len(m.deck) + sum(1 for cid in m.hand if "gain_op" in sc.card[cid].keep)


def strength(sc: Scenario, m: Mission, units: list[Unit]) -> float:
    """The combat values of ``units`` (with weapons, 23.0), an elite unit a little more (15.1 (2))."""
    return sum(combat(sc, u, m) + (0.5 if sc.unit_type[u.type].elite else 0.0) for u in units)


def fighting(values: float, count: float) -> float:
    """A side's fighting power in a battle to the last unit (15.1: one roll a unit a round,
    a hit eliminates one): its hits a round times the units that can take a loss."""
    return values / 6.0 * count


def hostiles_power(count: float, values: float | None = None) -> float:
    """The fighting power of ``count`` hostiles (their combat values, else the bin's mean)."""
    return fighting(HOSTILE_COMBAT * count if values is None else values, count)


def battle_chance(mine: float, theirs: float) -> float:
    """A rough chance to win a battle (15.1) from each side's :func:`fighting` power."""
    if theirs <= 0:
        return 1.0
    return mine / (mine + theirs) if mine > 0 else 0.0


class Forces:
    """The raider forces standing (10.3), with what the tasks ask of them."""

    def __init__(self, sc: Scenario, m: Mission, scenario: str, gone: frozenset[str]) -> None:
        self.sc, self.m, self.scenario = sc, m, scenario
        self.stops = stop_spaces(sc, m)
        self.by_force: dict[str, list[Unit]] = {}
        for fid in force_ids(m):
            units = [u for u in members(m, fid) if u.id not in gone]
            if units and units[0].space is not None:
                self.by_force[fid] = units

    def space(self, fid: str) -> str:
        """Where force ``fid`` stands."""
        return self.by_force[fid][0].space or ""

    def ops_to(self, fid: str, target: str) -> int | None:
        """Operations force ``fid`` needs to end a move in ``target`` (None: it cannot)."""
        units = self.by_force[fid]
        here = self.space(fid)
        if here == target:
            return 0
        found = op_distances(self.scenario, here, allowance(self.sc, units), self.stops - {here})
        return found.get(target)

    def power(self, fid: str) -> float:
        """The force's fighting power (15.1)."""
        units = self.by_force[fid]
        return fighting(strength(self.sc, self.m, units), len(units))


def garrison_of(sc: Scenario, m: Mission, mk: Marker) -> float:
    """Hostiles a marker will put up when turned (19.0): its type's garrison once known."""
    if mk.garrison_faced:
        return 0.0
    if mk.type is None:
        return UNKNOWN_GARRISON
    value = sc.marker_type[mk.type].garrison
    return 3.5 if value == "die" else float(m.alert) if value == "alert" else float(value)


def chance_of_kind(sc: Scenario, m: Mission, mk: Marker, kind: str) -> float:
    """The chance ``mk`` is of ``kind`` (19.0: a face-down marker is drawn from the types
    not yet turned)."""
    if mk.type is not None:
        return 1.0 if sc.marker_type[mk.type].kind == kind else 0.0
    left = list(sc.mission[m.card].markers)
    for other in m.markers:
        if other.type is not None and other.type in left:
            left.remove(other.type)
    hidden = sum(1 for other in m.markers if other.type is None)
    wanted = sum(1 for t in left if sc.marker_type[t].kind == kind)
    return min(1.0, wanted / hidden) if hidden else 0.0


def wanted(sc: Scenario, m: Mission, kind: str) -> list[tuple[Marker, str, float]]:
    """The markers on the map that may be of ``kind`` (19.0), their space and that chance."""
    out: list[tuple[Marker, str, float]] = []
    for mk in on_board(m):
        chance = chance_of_kind(sc, m, mk, kind)
        if mk.space is not None and chance > 0:
            out.append((mk, mk.space, chance))
    return out


def opposition(sc: Scenario, m: Mission, space: str, garrison: float) -> float:
    """The fighting power a force meets in ``space``: a Mission card's camp standing there
    (8.0 (1)) and ``garrison`` more hostiles of the bin (19.0), in one battle."""
    camp = m.camps.get(space, [])
    values = sum(sc.hostile[h].combat for h in camp) + HOSTILE_COMBAT * garrison
    return hostiles_power(len(camp) + garrison, values)


def reach_chance(forces: Forces, fid: str, space: str, garrison: float, left: int, now: bool) -> float:
    """Force ``fid``'s chance to end a move in ``space`` and beat what stands there (a camp,
    ``garrison`` more) within ``left`` Ops (``now``: it is there, operating, this Objective
    segment)."""
    ops = 0 if now else forces.ops_to(fid, space)
    if ops is None:
        return 0.0
    if not now:
        ops = max(1, ops)  # staying put is an operation too (13.0)
    if ops > left:
        return 0.0
    # The last Op's card may call up hostiles into the same battle (13.0 (2), 15.0): the
    # chance is read as the battle will be once the force is there, or it would rather wait.
    power = forces.power(fid)
    alone = battle_chance(power, opposition(forces.sc, forces.m, space, garrison))
    joined = battle_chance(power, opposition(forces.sc, forces.m, space, garrison + CARD_HOSTILES))
    last = alone if now else (1 - CARD_BATTLE) * alone + CARD_BATTLE * joined
    return DECAY ** max(0, ops - 1) * last


def operating_here(m: Mission, fid: str, space: str) -> bool:
    """Whether ``fid`` has moved into ``space`` this operation and its Objective segment is
    still to come or under way (11.0 (3)-(5)): the marker there is dealt with this Op."""
    return m.moved and m.force == fid and m.segment != "recruit" and any(
        u.space == space for u in members(m, fid))


def demolish_progress(forces: Forces, need: int, left: int) -> float:
    """8.0 (2) demolish: targets destroyed, then the best chances of the pioneers (21.1)."""
    sc, m = forces.sc, forces.m
    done = sum(1 for mk in m.markers if mk.destroyed)
    if done >= need:
        return 1.0
    credits: list[float] = []
    for mk, space, kind in wanted(sc, m, "target"):
        best = 0.0
        for fid, units in forces.by_force.items():
            pioneers = [u for u in units if sc.unit_type[u.type].pioneer and u.id not in m.demolished_by]
            if not pioneers:
                continue
            now = operating_here(m, fid, space)
            charges = sum(1 for u in units for g in u.gear if sc.gear_type[gear_type(m, g)].effect == "explosives")
            blast = 1.0
            for i in range(len(pioneers)):
                blast *= 1 - (DEMOLITION_EXPLOSIVES if i < charges else DEMOLITION)
            best = max(best, kind * (1 - blast) * reach_chance(forces, fid, space, garrison_of(sc, m, mk),
                                                                left, now))
        credits.append(best)
    credits.sort(reverse=True)
    later = credits[: need - done]
    # A second target for the same party waits on the first: counted at a discount.
    return (done + AIMED * sum(c * (0.85 ** i) for i, c in enumerate(later))) / need


def gear_type(m: Mission, gid: str) -> str:
    """The kind of gear counter ``gid``."""
    return next(g.type for g in m.gear if g.id == gid)


def recover_progress(forces: Forces, need: int, left: int) -> float:
    """8.0 (2) recover: cargo delivered; cargo carried home (18.4); cargo to pick up."""
    sc, m = forces.sc, forces.m
    done = sum(1 for mk in m.markers if mk.delivered)
    if done >= need:
        return 1.0
    staging = [s.id for s in sc.spaces if s.staging]
    credits: list[float] = []
    for fid, units in forces.by_force.items():
        for u in units:
            if u.carrying is None:
                continue
            home = [d for d in (forces.ops_to(fid, s) for s in staging) if d is not None]
            ops = min(home, default=99)
            # The move into a Staging Area draws no card (13.0), but the mission must last till then.
            if ops <= left:
                credits.append(AIMED * DECAY ** max(0, ops - 1))
    for mk, space, kind in wanted(sc, m, "cargo"):
        best = 0.0
        for fid, units in forces.by_force.items():
            if allowance(sc, units) == 0:
                continue
            now = operating_here(m, fid, space)
            there = 0 if now else forces.ops_to(fid, space)
            if there is None:
                continue
            there = there if now else max(1, there)
            back = min((d for d in (op_distances(forces.scenario, space, allowance(sc, units),
                                                 forces.stops - {space}).get(s) for s in staging)
                        if d is not None), default=99)
            if there + back > left:
                continue
            fight = opposition(sc, m, space, garrison_of(sc, m, mk))
            # Not aboard yet: it may still be missed (a carrier falls, 18.4), so less than aboard.
            cards = there + max(0, back - 1)
            best = max(best, 0.8 * kind * DECAY ** cards * battle_chance(forces.power(fid), fight))
        credits.append(best)
    credits.sort(reverse=True)
    return (done + sum(credits[: need - done])) / need


def occupy_progress(forces: Forces, space: str, left: int) -> float:
    """8.0 (2) occupy ("Hold Gialo at the end", judged at the end, 6.0, 11.2): the space held
    by a force strong enough for the cards to come, or the best force's way in."""
    sc, m = forces.sc, forces.m
    holders = [u for units in forces.by_force.values() for u in units if u.space == space]
    if holders and not m.camps.get(space):
        power = fighting(strength(sc, m, holders), len(holders))
        # Each Op left may bring a battle to the holder if it operates; others may draw instead.
        return 0.55 + 0.45 * battle_chance(power, hostiles_power(CARD_HOSTILES) * (1 + 0.3 * left))
    best = 0.0
    for fid in forces.by_force:
        best = max(best, 0.55 * reach_chance(forces, fid, space, 0.0, left, False))
    return best


def mission_value(state: RaidersState, gone: frozenset[str] = frozenset()) -> float:
    """The mission in play from 0 to 1 (1: its objective met, 6.0), ``gone`` the units
    counted as lost (a battle's losing side)."""
    m = state.mission
    if m is None:
        return 0.0
    sc = load_scenario(state.scenario)
    if m.battle is not None:
        return battle_value(state, sc, m)
    card = sc.mission[m.card]
    goal = card.objective
    forces = Forces(sc, m, state.scenario, gone)
    left = ops_left(sc, m)
    if goal.kind == "demolish":
        progress = demolish_progress(forces, goal.count, left)
    elif goal.kind == "recover":
        progress = recover_progress(forces, goal.count, left)
    else:
        progress = occupy_progress(forces, goal.space or "", left)
    standing = [u for units in forces.by_force.values() for u in units]
    # A full command (10.2) of combat-4 units is full strength; unspent RP buy more (9.1).
    values = strength(sc, m, standing) + RP_COMBAT * m.rp
    power = min(1.0, fighting(values, max(len(standing), values / 3.0)) / fighting(4.0 * m.command, m.command))
    ops = min(1.0, left / card.ops) if goal.kind != "occupy" else power
    if progress >= 1.0 and goal.kind != "occupy":
        return 1.0
    standing_now = OBJECTIVE_WEIGHT * progress + FORCES_WEIGHT * power + OPS_WEIGHT * ops
    return max(0.0, standing_now - TEMPO * min(m.op, 30) - FORMING * min(m.next_force, 40))


def battle_value(state: RaidersState, sc: Scenario, m: Mission) -> float:
    """A battle under way (15.1): the mission won by the raiders in it, or without them."""
    b = m.battle
    assert b is not None
    raiders = alive(b, b.raider_line) or [u.id for u in on_map(m) if u.space == b.space]
    hostiles = alive(b, b.hostile_line)
    mine = fighting(strength(sc, m, [u for u in m.units if u.id in raiders]), len(raiders))
    theirs = hostiles_power(len(hostiles), sum(sc.hostile[h].combat for h in hostiles))
    chance = battle_chance(mine, theirs)
    reline = RELINE if b.lined and b.next_line is not None else 0.0
    # Won, the camp there is gone too (8.0 (1)); lost, the raiders in the battle are.
    cleared = {space: camp for space, camp in m.camps.items() if space != b.space}
    won = state.model_copy(update={"mission": m.model_copy(update={"battle": None, "camps": cleared})})
    lost = state.model_copy(update={"mission": m.model_copy(update={"battle": None})})
    return chance * mission_value(won) + (1 - chance) * mission_value(lost, frozenset(raiders)) - reline


def goal_spaces(state: RaidersState) -> set[str]:
    """Spaces a careful player heads for: markers that may be the kind wanted, the space to
    hold, or, with cargo aboard, the Staging Areas (8.0 (2), 18.4)."""
    sc = load_scenario(state.scenario)
    m = state.mission
    assert m is not None
    goal = sc.mission[m.card].objective
    aboard = goal.kind == "recover" and any(u.carrying for u in m.units)
    if goal.kind == "occupy" or aboard:
        return {goal.space or ""} if not aboard else {s.id for s in sc.spaces if s.staging}
    return {space for _, space, _ in wanted(sc, m, "target" if goal.kind == "demolish" else "cargo")}


def order_prior(state: RaidersState, side: str, action: Action) -> float:
    """What a careful player tries first (0 to 1): ending a met mission, demolition with
    Explosives, picking up cargo, moves towards the objective, strong recruits; reshuffling
    forces and gear last (they change nothing by themselves)."""
    fixed = FIXED_PRIORS.get(type(action))
    if fixed is not None:
        return fixed
    m = state.mission
    if m is None:
        return 0.5
    sc = load_scenario(state.scenario)
    if isinstance(action, A.Demolish):
        return 0.95 if action.explosives else 0.9
    if isinstance(action, A.Move):
        return move_prior(state, sc, m, action)
    if isinstance(action, A.Recruit):
        return recruit_prior(sc, m, action)
    if isinstance(action, A.BuyGear):
        return gear_prior(sc, m, action)
    if isinstance(action, A.Swap):
        card = sc.card.get(m.in_play or "")
        return 0.7 if card is not None and (card.effect.hostiles is not None or card.effect.ops < 0) else 0.3
    if isinstance(action, A.Accept):
        return 0.6 if action.supply else 0.5
    if isinstance(action, A.Fire):
        return 0.4 + 0.1 * sc.hostile[action.target].combat if action.target in sc.hostile else 0.5
    return 0.5


#: Orders the rules let the raider give without moving the mission on (no Ops card, no Op,
#: no die): 23.2 gear traded "at the start of a movement segment", 12.0 a unit left behind
#: as a force (split) and 10.3 forces formed (join) before the move, and 15.1 (4) a new line
#: (the line "repeats the procedure": only a fire moves the battle on).  A move is free
#: only into another Staging Area (:func:`free_order`).
FREE_ORDERS = frozenset({"trade", "split", "join", "line"})
#: Free orders in a row before the computer must give another (issue 43: seed 1020's M2
#: looped on gear trades): room for a few trades, a split and a join before a move.  Single
#: missions, seeds 1000-1059 (docs/computer-player.md): no cap won 29 of 59 and left 1020
#: unfinished; 4 won 30 of 60, 6 won 31, 10 won 32, every one finished (a spread within the
#: seeds' noise); 6 keeps a live channel's run of free orders short.
FREE_IN_A_ROW = 6


def free_order(state: RaidersState, side: str, action: Action) -> bool:
    """Whether ``action`` leaves the mission where it was: one of :data:`FREE_ORDERS`, or a
    move into a Staging Area other than the force's own with no cargo aboard (13.0: "When
    an operating force completes a move into a Staging Area, you do not pick an operations
    card"; cargo carried in is delivered, 18.4, which is progress)."""
    if action.name in FREE_ORDERS:
        return True
    m = state.mission
    if not isinstance(action, A.Move) or m is None:
        return False
    units = [u for u in m.units if u.force == action.force.upper() and u.space is not None]
    if not units or any(u.carrying for u in units):
        return False
    sc = load_scenario(state.scenario)
    to = sc.find_space(action.to)
    return to is not None and to != units[0].space and sc.space_by_id[to].staging


#: Orders whose prior does not depend on the state: ending a met mission and the next one
#: (11.1, 25.0), cargo (18.4), the end of set-up (7.0), reshuffling forces and gear (10.3, 23.2).
FIXED_PRIORS: dict[type[Action], float] = {
    A.EndMission: 1.0, A.NextMission: 1.0, A.Carry: 0.95, A.Begin: 0.3,
    A.Split: 0.05, A.Join: 0.05, A.Trade: 0.05, A.Abandon: 0.05, A.Drop: 0.05,
}


def recruit_prior(sc: Scenario, m: Mission, action: A.Recruit) -> float:
    """9.0: a strong unit first, a pioneer first for a demolition mission, a static one last."""
    spec = next((s for s in sc.units if s.id == action.unit), None)
    if spec is None:
        return 0.6  # a kept leader (25.0): free
    useful = spec.pioneer and sc.mission[m.card].objective.kind == "demolish"
    return min(0.9, 0.3 + 0.1 * spec.combat + (0.2 if useful else 0.0) - (0.3 if spec.movement == 0 else 0.0))


def gear_prior(sc: Scenario, m: Mission, action: A.BuyGear) -> float:
    """23.1: Explosives for a pioneer first (21.1)."""
    kind = next((g for g in sc.gear if g.id == action.item), None)
    pioneer = any(u.id == action.unit and sc.unit_type[u.type].pioneer for u in m.units)
    return 0.8 if kind is not None and kind.effect == "explosives" and pioneer else 0.4


def move_prior(state: RaidersState, sc: Scenario, m: Mission, action: A.Move) -> float:
    """A move towards the objective before one away from it; a force leaving the space it
    must hold last."""
    units = [u for u in m.units if u.force == action.force.upper() and u.space is not None]
    if not units:
        return 0.4
    targets = goal_spaces(state)
    here = units[0].space or ""
    to = sc.find_space(action.to) or action.to
    if sc.mission[m.card].objective.kind == "occupy" and here in targets and to not in targets:
        return 0.1
    if sc.space_by_id[to].staging and not any(u.carrying for u in units):
        return 0.1  # 13.0: into a Staging Area draws no card, and does nothing else either
    network = sc.network

    def distance(space: str) -> int:
        paths = [network.path(space, t) for t in targets]
        return min((len(p) - 1 for p in paths if p), default=99)

    closer = distance(here) - distance(to)
    pioneer = any(sc.unit_type[u.type].pioneer or u.carrying for u in units)
    base = 0.5 + 0.1 * max(-2, min(3, closer)) + (0.1 if pioneer and closer > 0 else 0.0)
    return max(0.05, min(0.9, base - (0.05 if action.march else 0.0) - (0.1 if action.with_force else 0.0)))


__all__ = ["FREE_IN_A_ROW", "FREE_ORDERS", "battle_value", "free_order", "goal_spaces", "mission_value", "op_distances", "order_prior"]
