"""Ranged combat (7.3.1-7.3.4), mortars (9.1), the AGS-17 (9.5), the T-12 and Kastet (9.4,
9.6), the Luchs (9.11), airstrikes (10.1) and the defender's retreat decision (7.3.3).

Readings of the text, stated once:

* 7.3.3: supporters are other units of the firer's area that each have the target in their
  own normal range ("in range": not the extended range of 7.3.4) and LOS; each spends one
  AP and adds +1.
* 9.1: a mortar fires at every attackable unit of the target's area, one roll each; its
  range is 2 (Col. Nikolas may make it 3), never extended; any friendly unit's LOS will do.
  An airstrike with a mortar adds +2 to the roll against the named target only.
* 9.5: against a vehicle the AGS-17's RCM counts as 0 (the roll says ``RCM 0 (9.5)``); its
  range is unchanged.  Doubles allow a second attack, which costs an AP as every attack does
  (7.3.1: "may only attack once per impulse (Exception: See Rule 9.5 AGS-17)" lifts the
  limit, not "Conducting a ranged attack costs one action point").
* 9.11: an enemy of the Luchs in an area adjacent to the Luchs's loses
  ``scenario.luchs_df_penalty`` DF (a stand-in figure) against ranged attacks.
* 10.1 alone: an airstrike attacks every enemy unit of an area, 2d6 +2 each, one roll per
  unit (our reading of "attack any area containing enemy units", as a mortar does, 9.1).
"""

from __future__ import annotations

from collections.abc import Iterator

from pydantic import BaseModel, ConfigDict

from rules.core.contract import Action, Event
from rules.core.dice import Dice
from rules.core.errors import RuleError
from rules.core.orders import Ctx, order
from rules.rr.actions import Airstrike, Fire, Retreat, TakeHits, split_ids
from rules.rr.assault import after_lead, spread_hit, withdraw_chosen
from rules.rr.board import (
    MORTAR_RANGE, Board, airstrike_problem, is_ags, is_hind, is_leader, is_luchs, is_mortar, is_rider, is_t12, reach,
    ready_problem,
)
from rules.rr.hits import (
    HIT_WORDS, attackable, enemy_targets, no_retreat, retreat_checks, retreat_one, retreat_options,
    safest, take_hits, target_problem, withdraw_options,
)
from rules.rr.impulse import Offers, impulse
from rules.rr.rolls import Mods, contest
from rules.rr.special import hind_problem
from rules.rr.state import MarkRecord, Pending, RRState, UnitState, as_side, other



def firer_problem(b: Board, unit: UnitState) -> str | None:
    """Why ``unit`` cannot make (or support) a ranged attack now, the first condition that
    fails, or None: a ranged attacker (not a leader or an ATGM), on the map, neither
    Suppressed nor Recovering (6.2.1), with an AP ("Conducting a ranged attack costs one
    action point", 7.3.1)."""
    spec = b.spec(unit.id)
    if is_leader(spec) or is_rider(spec):
        return "it makes no ranged attack of its own (9.3, 9.7-9.9)"
    if is_hind(spec) and unit.place != "map":
        return hind_problem(b, unit) or "it is not over the map yet: bring it in with hind area: (10.2)"
    return ready_problem(unit, "7.3.1")


def can_fire(b: Board, unit: UnitState) -> bool:
    """A unit on the map, unsuppressed, with AP, that has a ranged attack: :func:`firer_problem`
    is None (a Hind off the map fails :func:`ready_problem` too), its counter check read once
    per scenario."""
    return unit.id in b.facts.shooters and ready_problem(unit, "7.3.1") is None


def shot_problem(b: Board, uid: str, target: UnitState, kastet: bool = False) -> str | None:
    """Why ``uid`` cannot fire at ``target`` now, or None: range, LOS, 9.6 vehicles only."""
    unit = b.s.units[uid]
    spec, tspec = b.spec(uid), b.spec(target.id)
    here, there = unit.area or "", target.area or ""
    if is_t12(spec) and not tspec.vehicle:
        return f"the T-12 fires only at vehicles (9.6); {target.id} is not one"
    if here == there and not (is_hind(spec) or is_hind(tspec)):
        return f"{target.id} is in {uid}'s own area; that is an assault (7.3.5)"
    dist = b.g.distance(here, there)
    limit = reach(b, uid, kastet)
    if is_mortar(spec):
        if dist > limit:
            return mortar_range_problem(b, unit, there, dist, limit)
        if not any(b.sees(f.area or "", there) for f in b.on_map(unit.side)):
            return f"no unit of yours sees area {there} (9.1)"
        return None
    if dist > limit + 1:
        return f"area {there} is {dist} away; {uid} reaches {limit}, or {limit + 1} at -1 (7.3.4)"
    if not b.sees(here, there):
        blockers = b.g.blockers(here, there)
        word = "areas" if len(blockers) > 1 else "area"
        return f"line of sight from {here} to {there} is blocked by {word} {b.area_list(blockers)} (7.3.2)"
    return None


def mortar_range_problem(b: Board, unit: UnitState, there: str, dist: int, limit: int) -> str:
    """9.1 "Mortars have a range of two areas ... cannot attack at extended range", with 9.7
    Col. Nikolas's "add one to any value of a unit in his area, including a mortar's range":
    the refusal says the +1 when it is given, or offers it when he is there with an AP."""
    if "range" in unit.boost:
        return f"area {there} is {dist} away; mortars reach 2, {limit} with Col. Nikolas's +1, and never further (9.1, 9.7)"
    said = f"area {there} is {dist} away; mortars reach {limit} and never further (9.1)"
    col = next((u for u in b.in_area(unit.area or "", unit.side)
                if b.spec(u.id).special == "nikolas" and u.ap >= 1), None)
    if col is not None and dist == limit + 1 and not b.s.nikolas_spent:
        said += f"; Col. Nikolas in its area can add 1 to its range first: /rr nikolas unit:{unit.id} value:range (9.7)"
    return said


def supporter_problem(b: Board, firer: UnitState, helper: UnitState) -> str | None:
    """7.3.3: "one for any additional in range supporting units from the same area": why
    ``helper`` cannot support ``firer``'s attack (not itself, not from another area, and able
    to fire), or None.  The target is :func:`support_problem`'s."""
    if helper.id == firer.id:
        return f"a unit cannot support its own attack; name other units of area {firer.area} (7.3.3)"
    if helper.place == "map" and helper.area != firer.area:
        return f"it is in area {helper.area}; supporters fire from the firer's area {firer.area} (7.3.3)"
    return firer_problem(b, helper)


def support_problem(b: Board, uid: str, target: UnitState) -> str | None:
    """7.3.3: a supporter must have the target "in range" (its normal range, not the
    extended one of 7.3.4) and a clear LOS; None when it may support."""
    why = shot_problem(b, uid, target)
    if why is None and not is_mortar(b.spec(uid)):
        dist = b.g.distance(b.s.units[uid].area or "", target.area or "")
        if dist > reach(b, uid):
            return f"area {target.area} is beyond its range of {reach(b, uid)} (7.3.3)"
    return why


def luchs_penalty(b: Board, target: UnitState) -> int:
    """9.11: the Luchs lowers the DF of its enemies in adjacent areas (stand-in figure)."""
    for unit in b.on_map(other(target.side)):
        if is_luchs(b.spec(unit.id)) and unit.area and target.area in b.g.adjacent(unit.area):
            return b.sc.luchs_df_penalty
    return 0


def defence(b: Board, target: UnitState, ranged: bool, peek: bool = False) -> tuple[int, Mods]:
    """DF and its modifiers: TM (5.2; none for the Hind, 10.2), Luchs (9.11), Nikolas (9.7).
    Nikolas's +1 DF is used up unless ``peek`` (a label working out the roll needed)."""
    mods: Mods = []
    if not is_hind(b.spec(target.id)):
        mods.append((b.sc.area_by_id[target.area or ""].tm, "TM"))
    if ranged:
        mods.append((-luchs_penalty(b, target), "Luchs"))
    if "df" in target.boost:
        if not peek:
            target.boost.remove("df")
        mods.append((1, "Nikolas"))
    return b.values(target.id).df, mods


def attack_mods(b: Board, unit: UnitState, target: UnitState, kastet: bool, dist: int,
                peek: bool = False) -> Mods:
    """The attacker's modifiers, itemised: RCM, ATGM (9.3), Kastet (9.4), Nikolas (9.7) and
    extended range (7.3.4); 9.5: none of the RCM for the AGS-17 against a vehicle."""
    mods: Mods = []
    riders = sum(1 for r in b.riders(unit.id) if b.spec(r.id).special != "kastet")
    boosted = "rcm" in unit.boost
    if is_ags(b.spec(unit.id)) and b.spec(target.id).vehicle:
        mods.append((0, "RCM 0 (9.5)"))
    else:
        mods += [(b.values(unit.id).rcm, "RCM"), (riders, "ATGM"), (1 if kastet else 0, "Kastet"),
                 (1 if boosted else 0, "Nikolas")]
    if not is_mortar(b.spec(unit.id)) and dist > reach(b, unit.id, kastet):
        mods.append((-1, "ext 7.3.4"))
    if boosted and not peek:
        unit.boost.remove("rcm")
    return mods


class Shot(BaseModel):
    """A ranged attack checked and ready to resolve (7.3.3): the firer, its named target,
    its supporters and the range between them."""

    model_config = ConfigDict(frozen=True)

    unit: UnitState
    target: UnitState
    support: list[UnitState]
    dist: int


def checked_shot(b: Board, side: str, order: Fire, bonus_shot: bool) -> Shot:
    """Every check of a ranged attack, in the order a player reads them: the firer (7.3.1),
    the target, the Kastet (9.4), range and LOS (7.3.2, 7.3.4), the supporters (7.3.3, and
    none for the AGS-17's second attack, 9.5), the airstrike (10.1).  Changes nothing."""
    unit = b.unit(order.unit, side)
    target = b.unit(order.target, other(side))
    why = firer_problem(b, unit)
    if why:
        raise RuleError(f"{unit.id} cannot fire: {why}.")
    why = target_problem(b, target)
    if why:
        raise RuleError(f"{target.id} cannot be fired on: {why}.")
    if order.kastet and not b.has_kastet(unit.id):
        raise RuleError(f"{unit.id} carries no Kastet; only the T-12 fires it, once (9.4).")
    problem = shot_problem(b, unit.id, target, order.kastet)
    if problem:
        raise RuleError(f"{unit.id} cannot fire: {problem}.")
    support = [b.unit(u, side) for u in split_ids(order.support)]
    if bonus_shot and support:
        raise RuleError("The AGS-17's second attack gets no support (9.5).")
    for helper in support:
        why = supporter_problem(b, unit, helper) or support_problem(b, helper.id, target)
        if why:
            raise RuleError(f"{helper.id} cannot support: {why}.")
    why = airstrike_problem(b.s, side) if order.air else None
    if why:
        raise RuleError(f"No airstrike for this attack: {why}.")
    return Shot(unit=unit, target=target, support=support,
                dist=b.g.distance(unit.area or "", target.area or ""))


def pay_for_shot(b: Board, shot: Shot, kastet: bool) -> Mods:
    """7.3.1: 1 AP for the firer and each supporter (the AGS-17's second attack too: 9.5
    lifts only "once per impulse"); the roll's modifiers, with +1 a supporter (7.3.3), and
    the Nikolas boosts (9.7) they use up."""
    unit = shot.unit
    unit.ap -= 1
    for helper in shot.support:
        helper.ap -= 1
    mods = attack_mods(b, unit, shot.target, kastet, shot.dist)
    mods.append((len(shot.support), "support"))
    for helper in shot.support:
        if "rcm" in helper.boost:
            helper.boost.remove("rcm")
    if "range" in unit.boost and is_mortar(b.spec(unit.id)):
        unit.boost.remove("range")
    return mods


def spend_extras(b: Board, side: str, unit: UnitState, order: Fire) -> list[Event]:
    """9.4: the Kastet is fired and spent; 10.1: the airstrike is used for the turn."""
    events: list[Event] = []
    if order.kastet:
        kastet = next(r for r in b.riders(unit.id) if b.spec(r.id).special == "kastet")
        kastet.place, kastet.attached_to = "gone", None
        events.append(Event(kind="kastet", text="Kastet fired and spent (9.4)", rule="9.4"))
    if order.air:
        b.s.airstrike[side] = False
    return events


def victims_of(b: Board, unit: UnitState, target: UnitState) -> list[UnitState]:
    """Who the attack rolls against: the target; 9.1: for a mortar every attackable unit of
    the target's area, the named target first."""
    if not is_mortar(b.spec(unit.id)):
        return [target]
    victims = [u for u in b.in_area(target.area or "", target.side) if attackable(b, u)]
    victims.sort(key=lambda u: u.id != target.id)
    return victims


def fire(b: Board, side: str, order: Fire, dice: Dice, bonus_shot: bool = False) -> list[Event]:
    """7.3.3: one ranged attack (a mortar's is one roll per unit in the area, 9.1), 1 AP for
    the firer and each supporter (7.3.1); ``bonus_shot``: the AGS-17's second attack on
    doubles, without support (9.5)."""
    shot = checked_shot(b, side, order, bonus_shot)
    unit, target = shot.unit, shot.target
    mods = pay_for_shot(b, shot, order.kastet)
    mortar = is_mortar(b.spec(unit.id))
    aim = f"area {target.area}" if mortar else f"{target.id} in {target.area}"
    # 9.7: a mortar's range raised by Col. Nikolas is said where it is used (pay_for_shot spent it).
    lent = ", Col. Nikolas's +1 range 9.7" if mortar and shot.dist > MORTAR_RANGE else ""
    events = [Event(kind="fire", text=f"{unit.id} fires on {aim} (range {shot.dist}{lent})", rule="7.3.3")]
    events += spend_extras(b, side, unit, order)
    doubles = False
    results: list[str] = []
    start, end = unit.area or "", target.area or ""
    for victim in victims_of(b, unit, target):
        # 10.1: with a mortar the airstrike adds two "to a single die roll": the named target's.
        extra: Mods = [(2, "air 10.1")] if order.air and victim.id == target.id else []
        faces, more = resolve_roll(b, side, unit, victim, mods + extra, dice)
        doubles = doubles or faces[0] == faces[1]
        results.append(HIT_WORDS[more[0].data["hits"]])
        events += more
    b.s.marks.append(MarkRecord(kind="fire", areas=[start, end], text=", ".join(results), side=side,
                                units=[unit.id]))
    if is_ags(b.spec(unit.id)) and doubles and not bonus_shot:
        events.append(second_shot(b, side, unit))
    return events


def second_shot(b: Board, side: str, unit: UnitState) -> Event:
    """9.5: doubles let the AGS-17 "attack a second time" (an exception to "only attack once
    per impulse", 7.3.1): offered when it has an AP left to pay for it (7.3.1)."""
    if unit.ap < 1:
        return Event(kind="ags", rule="9.5",
                     text=f"Doubles, but {unit.id} has no AP left for a second attack (7.3.1, 9.5)")
    b.s.pending.append(Pending(kind="ags", side=as_side(side), unit=unit.id))
    return Event(kind="ags", rule="9.5", text=f"Doubles: {unit.id} may fire again for 1 AP (9.5, 7.3.1)")


def resolve_roll(
    b: Board, side: str, unit: UnitState, victim: UnitState, mods: Mods, dice: Dice,
) -> tuple[list[int], list[Event]]:
    """One 2d6 against one unit: the line, the hits, and the defender's retreat decision."""
    df, dmods = defence(b, victim, ranged=True)
    done = contest(dice, f"{unit.id} fires at {victim.id}, 2d6", mods, df, dmods, "7.3.3", unit,
                   {"target": victim.id})
    event = done.event
    if is_mortar(b.spec(unit.id)):
        # 9.1: one roll per unit of the area; each line names the unit it is against.
        event = event.model_copy(update={"text": f"{victim.id}: {event.text}"})
    out = [event]
    hits, faces = done.hits, done.faces
    out += deliver(b, victim, hits, unit.area, side)
    return faces, out


def deliver(b: Board, victim: UnitState, hits: int, origin: str | None, side: str) -> list[Event]:
    """7.3.3: the defender may retreat one area to negate one hit; it decides, or its
    standing choice does.  No legal retreat: the hits land at once."""
    if hits <= 0:
        return []
    options = retreat_options(b, victim.id, origin)
    choice = b.s.standing.get(victim.side, "ask")
    if choice == "never":
        return take_hits(b, victim.id, hits, "7.3.3")
    if not options:
        told = no_retreat(b, victim.id, origin, None, "7.3.3")
        return ([told] if told else []) + take_hits(b, victim.id, hits, "7.3.3")
    if choice == "always":
        return retreat_and_hit(b, victim.id, safest(b, victim.id, options), hits)
    pending = Pending(kind="retreat", side=victim.side, unit=victim.id, hits=hits, origin=origin)
    b.s.pending.append(pending)
    return [retreat_prompt(b, pending)]


def retreat_prompt(b: Board, pending: Pending) -> Event:
    """7.3.3: the question put to the owner of a unit hit by fire: the unit, its hits, the
    areas it may retreat to."""
    uid, hits = pending.unit or "", pending.hits
    options = retreat_options(b, uid, pending.origin, pending.source, assault=pending.assault)
    return Event(kind="ask", rule="7.3.3", data={"options": options, "hits": hits},
                 text=f"{uid}, {HIT_WORDS[hits]}: retreat to {b.area_list(options)} to negate one, "
                      f"or take-hits? (7.3.3)")


def next_prompt(b: Board) -> list[Event]:
    """After a retreat decision is answered: the next unit hit by the same fire (a mortar's
    or an airstrike's other units, 9.1, 10.1) is asked again with its areas as they are now;
    one left with no retreat (the first took the room) takes its hits, told why."""
    events: list[Event] = []
    while b.s.pending and b.s.pending[0].kind == "retreat" and not b.s.pending[0].assault:
        pending = b.s.pending[0]
        uid = pending.unit or ""
        if retreat_options(b, uid, pending.origin, pending.source):
            return events + [retreat_prompt(b, pending)]
        b.s.pending.pop(0)
        told = no_retreat(b, uid, pending.origin, pending.source, "7.3.3")
        events += ([told] if told else []) + take_hits(b, uid, pending.hits, "7.3.3")
    return events


def retreat_and_hit(b: Board, uid: str, to: str, hits: int) -> list[Event]:
    """7.3.3: retreat one area, all AP spent, one hit negated; the rest land."""
    return [retreat_one(b, uid, to, "7.3.3")] + take_hits(b, uid, hits - 1, "7.3.3")


def airstrike_alone(b: Board, side: str, area: str, dice: Dice) -> list[Event]:
    """10.1: "Airstrikes may also be used separately to attack any area containing enemy
    units": 2d6 +2 against each attackable enemy unit of the area, one roll each (as a
    mortar attacks all units in its target area, 9.1); each line names its unit."""
    why = airstrike_problem(b.s, side)
    if why:
        raise RuleError(f"No airstrike: {why}.")
    if area not in b.g:
        raise RuleError(f"There is no area '{area[:10]}'; areas are 1-{len(b.g)}.")
    victims = [u for u in b.in_area(area, other(side)) if attackable(b, u)]
    if not victims:
        raise RuleError(f"Area {area} holds no enemy unit to strike (10.1).")
    b.s.airstrike[side] = False
    events = [Event(kind="airstrike", text=f"Airstrike on area {area}: {', '.join(u.id for u in victims)}",
                    rule="10.1")]
    results = []
    for victim in victims:
        df, dmods = defence(b, victim, ranged=True)
        done = contest(dice, f"airstrike on {victim.id}, 2d6", [(2, "air")], df, dmods, "10.1",
                       data={"target": victim.id})
        results.append(HIT_WORDS[done.hits])
        events.append(done.event.model_copy(update={"text": f"{victim.id}: {done.event.text}"}))
        events += deliver(b, victim, done.hits, None, side)
    b.s.marks.append(MarkRecord(kind="blast", areas=[area], text=", ".join(results), side=side))
    return events


# -- the orders of fire (7.3.3, 9.5, 10.1) --------------------------------------------------------


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


def second_shot_orders(state: RRState, side: str) -> list[Action]:
    """9.5: the AGS-17's second attack, at any target in reach, for its AP (7.3.1)."""
    b = Board(state, frozen=True)
    shooter = state.units[state.pending[0].unit or ""]
    if not can_fire(b, shooter):
        return []
    return [Fire(unit=shooter.id, target=t.id) for t in enemy_targets(b, side)
            if shot_problem(b, shooter.id, t) is None]


def fire_offers(state: RRState, side: str) -> list[Action]:
    """7.3.3 in an impulse; 9.5 the AGS-17's second shot when it is owed."""
    return second_shot_orders(state, side) if state.pending else fire_orders(state, side)


@order(Fire, phases=("ops", "pending-ags"), offers=fire_offers)
def fire_order(ctx: Ctx[RRState], action: Fire) -> None:
    """7.3.3: a ranged attack; or 9.5: the AGS-17's second one, without support."""
    s = ctx.state
    if not s.pending:
        impulse(ctx, lambda b: fire(b, ctx.side, action, ctx.dice))
        return
    if action.unit.lower() != (s.pending[0].unit or "").lower():
        raise RuleError(f"{s.pending[0].unit} rolled doubles: fire it again, no support (9.5), or skip.")
    s.pending.pop(0)
    ctx.extend(fire(Board(s), ctx.side, action, ctx.dice, bonus_shot=True))


@Offers
def airstrike_orders(b: Board, side: str) -> Iterator[Action]:
    """10.1: the airstrike alone, on each area holding enemy units."""
    if not b.s.airstrike.get(side):
        return
    areas = {t.area for t in enemy_targets(b, side)}
    yield from (Airstrike(area=a) for a in b.g.ids if a in areas)


@order(Airstrike, phases="ops", offers=airstrike_orders)
def airstrike_order(ctx: Ctx[RRState], action: Airstrike) -> None:
    """10.1: the airstrike on its own."""
    impulse(ctx, lambda b: airstrike_alone(b, ctx.side, action.area, ctx.dice))


# -- the decisions owed after a hit (7.3.3, 7.3.5.2, 7.3.5.5) ---------------------------------------


def retreat_orders(state: RRState, side: str) -> list[Action]:
    """7.3.3, 7.3.5.5: the areas the unit hit may retreat to; 7.3.5.2: those a defender
    that lost an assault may retreat to."""
    b = Board(state, frozen=True)
    pending = state.pending[0]
    if pending.kind == "withdraw":
        return [Retreat(to=a) for a in withdraw_options(b, pending.unit or "", pending.origin)]
    return [Retreat(to=a) for a in retreat_options(b, pending.unit or "", pending.origin, pending.source,
                                                   assault=pending.assault)]


@order(Retreat, phases=("pending-retreat", "pending-withdraw"), offers=retreat_orders)
def retreat_order(ctx: Ctx[RRState], action: Retreat) -> None:
    """7.3.3, 7.3.5.5: the unit hit retreats one area to negate one hit; 7.3.5.2: where a
    defender that lost an assault retreats to."""
    b = Board(ctx.state)
    pending = ctx.state.pending[0]
    if pending.kind == "withdraw":
        ctx.extend(withdraw_chosen(b, action.to))
        return
    checks = retreat_checks(b, pending.unit or "", pending.origin, pending.source,
                            assault=pending.assault)
    allowed = b.area_list([a for a, why in checks.items() if why is None]) or "none"
    if action.to not in checks:
        raise RuleError(f"{pending.unit} retreats one area, to an adjacent one (7.3.3); "
                        f"it may retreat to: {allowed}, or take-hits.")
    why = checks[action.to]
    if why is not None:
        raise RuleError(f"{pending.unit} cannot retreat to {action.to}: {why}. "
                        f"It may retreat to: {allowed}, or take-hits.")
    settle_retreat(ctx, action.to)


def take_hits_orders(state: RRState, side: str) -> list[Action]:
    """7.3.3: take the hits; 7.3.5.2: give the extra hit to a defender of the area."""
    pending = state.pending[0]
    if pending.kind == "spread":
        return [TakeHits(unit=u.id) for u in Board(state, frozen=True).combatants_in(pending.area or "", side)]
    return [TakeHits()]


@order(TakeHits, phases=("pending-retreat", "pending-spread"), offers=take_hits_orders)
def take_hits_order(ctx: Ctx[RRState], action: TakeHits) -> None:
    """7.3.3: no retreat, every hit lands; 7.3.5.2: one extra assault hit to a defender."""
    pending = ctx.state.pending[0]
    if pending.kind == "spread":
        if not action.unit:
            raise RuleError(f"Give the extra hit with take-hits unit:<a unit in area {pending.area}> (7.3.5.2).")
        ctx.extend(spread_hit(Board(ctx.state), action.unit))
        return
    if action.unit and action.unit.lower() != (pending.unit or "").lower():
        raise RuleError(f"The hits are {pending.unit}'s to take: send take-hits without a unit, "
                        f"or retreat (7.3.3).")
    settle_retreat(ctx, None)


def settle_retreat(ctx: Ctx[RRState], to: str | None) -> None:
    """The retreat decision answered: the hits land (and an assault goes on, 7.3.5.2)."""
    b = Board(ctx.state)
    pending = ctx.state.pending.pop(0)
    uid = pending.unit or ""
    if pending.assault:
        ctx.extend(after_lead(b, other(pending.side), pending.area or "", pending.source, uid, pending.hits, to))
    elif to is None:
        ctx.extend(take_hits(b, uid, pending.hits, "7.3.3"))
    else:
        ctx.extend(retreat_and_hit(b, uid, to, pending.hits))
    ctx.extend(next_prompt(b))
