"""The orders of the troop phase (4.0-9.0, 12.0): entering, moving, carrying, fire, simultaneous
and indirect attacks, assaults and their strikes, defensive attacks, unpinning, the end of a
phase (and of the set-up), and the play that starts once the set-up is done.

Each order states its legality once (a ``*_problem`` of ``legal.py``, ``artillery.py``): the
resolver refuses with it, the offers list exactly the orders without one.
"""

from __future__ import annotations

from typing import NamedTuple

from rules.core.contract import Action
from rules.core.errors import RuleError
from rules.core.orders import Ctx, order
from rules.mak import actions as A
from rules.mak import artillery, cqc, hazards, legal, pilots, resolve
from rules.mak.air_orders import pass_flak
from rules.mak.combat import blast_area
from rules.mak.damage import expend_attack
from rules.mak.refusals import busy, refuse, stuck
from rules.mak.special import boost_ways
from rules.mak.special_orders import boost_move, drop_in, walk_note, wants_boost
from rules.mak.state import SIDE_NAMES, MakState, Mark, UnitState, other
from rules.mak.table import Table
from rules.mak.turn import begin_play, end_phase
from rules.mak.vehicles import enter_with

MakCtx = Ctx[MakState]


def enter_offers(state: MakState, side: str) -> list[Action]:
    """12.1, 12.2: each waiting unit free to act, at each hex it may enter by."""
    t = Table(state)
    return [A.Enter(unit=u.id, at=h) for u in state.units if u.side == side and u.status == "waiting"
            and busy(t, u) is None for h in legal.enter_hexes(t, u)]


@order(A.Enter, phases="act", offers=enter_offers)
def enter(ctx: MakCtx, o: A.Enter) -> None:
    """12.1: a waiting unit comes on at an entry hex (12.2: an airdrop is dropped in)."""
    t = Table(ctx.state)
    refuse(legal.enter_problem(t, ctx.side, o))
    u = ctx.state.find(o.unit)
    assert u is not None
    if u.airdrop:
        drop_in(t, ctx, u, o.at)  # 12.2
        return
    cost = legal.enter_hexes(t, u)[o.at]
    resolve.finish_moving(ctx.state)
    u.status, u.hex, u.mp_spent, u.moved = "on", o.at, cost, True
    enter_with(ctx.state, u)  # 13.1: its riders come in with it
    ctx.state.moving = u.id
    ctx.state.marks.append(Mark(kind="move", hexes=[o.at], side=u.side, text=f"{u.id} enters"))
    ctx.say("enter", f"{u.id} enters at {o.at} ({cost:g} MP) (12.1)", "12.1")
    ctx.snapshot = True
    if o.at in ctx.state.mines and not hazards.mine_attack(t, ctx, u, o.at, "as it enters"):
        return  # 19.1.3: entering from off the map is entering the hex
    resolve.arrive(t, ctx, u)
    resolve.came_next_to_enemy(t, ctx, u)  # 5.4 3: as a move into the hex would


def move_offers(state: MakState, side: str) -> list[Action]:
    """7.0: each unit's reachable hexes (only the unit that must move on first, 8.2.1), and its
    booster flights (19.5.3)."""
    t = Table(state)
    blocker = stuck(t)
    movers = [blocker] if blocker else [u for u in state.units if u.side == side]
    return ([A.Move(unit=u.id, to=h, through_mines=way.mines > 0)  # 19.1.2: said, never by chance
             for u in movers for h, way in legal.move_ways(t, u).items()]
            + [A.Move(unit=u.id, to=h, boost=True, through_mines=mines > 0) for u in movers if u.side == side
               for h, mines in sorted(boost_ways(t, u).items())])  # 19.5.3; 19.1.2 as a walk


@order(A.Move, phases="act", offers=move_offers)
def move(ctx: MakCtx, o: A.Move) -> None:
    """7.0: a unit moves to a hex in reach (19.5.3: or flies there with its booster)."""
    t = Table(ctx.state)
    u = ctx.state.find(o.unit)
    if wants_boost(t, ctx.side, u, o.to, o.boost):
        boost_move(t, ctx, u, o.to, o.through_mines)  # type: ignore[arg-type]
        return
    note = walk_note(t, u, o.to, o.boost)  # 19.5.3: boost:false honoured, and said
    problem = legal.move_problem(t, ctx.side, o)
    if problem:
        raise RuleError(problem + (f" {note}" if note and note.startswith("Its booster") else ""))
    if note:
        ctx.say("move", note, "19.5.3")
    resolve.move(t, ctx, ctx.state.unit(ctx.state.find(o.unit).id), o.to)  # type: ignore[union-attr]


def fire_offers(state: MakState, side: str) -> list[Action]:
    """5.0: each unit's direct attacks on enemy units in sight and range."""
    t = Table(state)
    if stuck(t):
        return []
    return [A.Fire(unit=u, target=e, weapon=w)
            for u, e, w in legal.fire_offers(t, side, False, t.on_map(side), t.on_map(other(side)))]


@order(A.Fire, phases="act", offers=fire_offers)
def fire(ctx: MakCtx, o: A.Fire) -> None:
    """5.0: a direct attack; the target's stack may answer (5.4 1-2)."""
    t = Table(ctx.state)
    refuse(legal.fire_problem(t, ctx.side, o.unit, o.target, o.weapon, defensive=False))
    u, e = ctx.state.find(o.unit), ctx.state.find(o.target)
    assert u is not None and e is not None
    resolve.finish_moving(ctx.state)
    weapon, _ = t.best_weapon(u, e, False, o.weapon)
    u.attacked = True
    if t.in_melee(u) and u.hex == e.hex:
        u.struck = True  # 9.3.2: close combat ends the unit's actions this phase
    # 5.4 2: the stack is taken before the attack; its other units answer even when the
    # target is destroyed (condition 1 needs the target alive, condition 2 does not)
    near = resolve.defensive_trigger(t.hex(u), t.hex(e))
    stack = t.in_hex(t.hex(e), e.side)
    resolve.fire(t, ctx, u, e, weapon, "fires at")
    if near:
        resolve.open_window(t, ctx, "attack", [u], [x for x in stack if x.on_map])  # 5.4 1-2, 5.4.1


def volley_offers(state: MakState, side: str) -> list[Action]:
    """5.3.3: the simultaneous attacks legal now."""
    t = Table(state)
    return [] if stuck(t) else list(legal.volley_offers(t, side))


@order(A.Volley, phases="act", offers=volley_offers)
def volley(ctx: MakCtx, o: A.Volley) -> None:
    """5.3.3: resolved individually, in the order named; the defensive attacks after all
    of them (5.4.2).  5.3.4: "Attacks that have been announced must be executed. Even if
    ... the target unit is destroyed with the very first attack of a simultaneous attack
    ... the attacking player must check for ammunition expenditure, energy usage, and
    accidents" (Figure 5: "the SAFS is still considered to have attacked, and an attack
    roll should be made"): every named unit rolls and has made its one attack (5.3.1)."""
    t = Table(ctx.state)
    d = _declare(t, ctx, legal.volley_units(t, ctx.side, o), o.target)
    e = d.target
    ctx.say("volley", f"Simultaneous Attack on {e.id} by {', '.join(u.id for u in d.units)} (5.3.3)", "5.3.3")
    armed = [(u, t.best_weapon(u, e, False)[0]) for u in d.units]  # chosen while the target stands
    for u, weapon in armed:
        _has_attacked(t, u, e)
        if e.on_map:
            resolve.fire(t, ctx, u, e, weapon, "fires at")
        elif weapon is not None:
            resolve.spent_attack(t, ctx, u, e, weapon)  # 5.3.4
    _answer(t, ctx, d)


class StackAttack(NamedTuple):
    """A declared attack of stacked units (5.3.3, 14.2.1): the units, their target, the
    target's stack as it stood before the attack (5.4 2) and whether the attack came from
    within 3 hexes (5.4 1-2)."""

    units: list[UnitState]
    target: UnitState
    stack: list[UnitState]
    near: bool


def _declare(t: Table, ctx: MakCtx, found: list[UnitState] | str, target: str) -> StackAttack:
    """The legal stack attack, or the refusal's sentence; the unit under way is done (7.2.5)."""
    if isinstance(found, str):
        raise RuleError(found)
    e = ctx.state.find(target)
    assert e is not None
    resolve.finish_moving(ctx.state)
    return StackAttack(units=found, target=e, stack=t.in_hex(t.hex(e), e.side),
                       near=resolve.defensive_trigger(t.hex(found[0]), t.hex(e)))


def _has_attacked(t: Table, u: UnitState, e: UnitState) -> None:
    """5.3.1: the unit has made its one attack; 9.3.2: close combat ends its actions."""
    u.attacked = True
    if t.in_melee(u) and u.hex == e.hex:
        u.struck = True


def _answer(t: Table, ctx: MakCtx, d: StackAttack) -> None:
    """5.4 1 (the target alive) or 2 (its stack-mates, even if it is destroyed), each
    defender against one unit of the stack (5.4.2)."""
    if d.near:
        resolve.open_window(t, ctx, "attack", d.units, [x for x in d.stack if x.on_map])


def combined_offers(state: MakState, side: str) -> list[Action]:
    """14.2.1: the combined infantry attacks legal now."""
    t = Table(state)
    return [] if stuck(t) else list(legal.combined_offers(t, side))


@order(A.Combined, phases="act", offers=combined_offers)
def combine(ctx: MakCtx, o: A.Combined) -> None:
    """14.2.1: stacked squads add their attack power for a single attack, one roll; each
    has made its one attack (5.3.1); the target's stack may answer them (5.4 1-2, 5.4.2)."""
    t = Table(ctx.state)
    d = _declare(t, ctx, legal.combined_units(t, ctx.side, o), o.target)
    for u in d.units:
        _has_attacked(t, u, d.target)
    resolve.combined_fire(t, ctx, d.units, d.target)
    _answer(t, ctx, d)


def indirect_offers(state: MakState, side: str) -> list[Action]:
    """5.5: indirect fire with each spotter, and off-board artillery requests (17.1)."""
    t = Table(state)
    out: list[Action] = []
    shooters = [u for u in t.on_map(side) if any(w.indirect for w in t.weapons(u, False))]
    hexes = sorted({e.hex for e in t.on_map(other(side)) if e.hex})
    spotters = t.on_map(side) + [a for a in state.units if a.side == side and a.status == "aloft"]  # 10.5
    for u in shooters:
        for h in hexes:
            for s in spotters:
                o = A.Indirect(unit=u.id, at=h, spotter=s.id)
                if legal.indirect_problem(t, side, o) is None:
                    out.append(o)
    return out + artillery.offers(state, side)  # 17.1: off-board batteries


@order(A.Indirect, phases="act", offers=indirect_offers)
def indirect(ctx: MakCtx, o: A.Indirect) -> None:
    """5.5: indirect fire at a hex a spotter sees; a battery's request (17.1)."""
    t = Table(ctx.state)
    if artillery.battery_of(ctx.state, o.unit) is not None:
        refuse(artillery.request_problem(t, ctx.side, o))  # 17.1: an artillery request
        artillery.request(t, ctx, o)
        return
    refuse(artillery.plain_indirect_problem(o) or legal.indirect_problem(t, ctx.side, o))
    u, spotter = ctx.state.find(o.unit), ctx.state.find(o.spotter)
    assert u is not None and spotter is not None
    resolve.finish_moving(ctx.state)
    _indirect(t, ctx, u, spotter, o.at)


def assault_offers(state: MakState, side: str) -> list[Action]:
    """9.1: each unit's assaults, saying when the charge crosses a minefield (19.1.2)."""
    t = Table(state)
    return [A.Assault(unit=u.id, hex=h, through_mines=bool(resolve.charge_mines(t, u, h)))  # 19.1.2: said
            for u in t.on_map(side) for h in legal.assault_hexes(t, u)]


@order(A.Assault, phases="act", offers=assault_offers)
def assault(ctx: MakCtx, o: A.Assault) -> None:
    """9.1: a unit charges into an enemy hex."""
    t = Table(ctx.state)
    refuse(legal.assault_problem(t, ctx.side, o))
    u = ctx.state.find(o.unit)
    assert u is not None
    resolve.start_assault(t, ctx, u, o.hex)


def strike_offers(state: MakState, side: str) -> list[Action]:
    """9.1: the assaulting unit's strikes, armed or unarmed (9.5)."""
    t = Table(state)
    if state.assault is None:
        return []
    u = state.unit(state.assault.unit)
    out: list[Action] = []
    for e in resolve.strike_targets(t, u):
        for unarmed in (False, True):
            o = A.Strike(target=e.id, unarmed=unarmed)
            if legal.strike_problem(t, side, o) is None:
                out.append(o)
    return out


@order(A.Strike, phases="strike", offers=strike_offers)
def strike(ctx: MakCtx, o: A.Strike) -> None:
    """9.1-9.2: the assaulting unit strikes a unit in the hex; unarmed after its answer (9.5)."""
    t = Table(ctx.state)
    refuse(legal.strike_problem(t, ctx.side, o))
    a = ctx.state.assault
    assert a is not None
    u, e = ctx.state.unit(a.unit), ctx.state.find(o.target)
    assert e is not None
    u.attacked = u.struck = True
    if o.unarmed or t.best_weapon(u, e, False)[0] is None:  # no weapon left: unarmed (9.5)
        # 9.5: "All unarmed combat is performed after resolution of attacks from opposing
        # units": the target's armed answer comes first, then the blow if both still stand
        a.stage, a.target = "unarmed", e.id
        answers = [w for w in ("armed" if t.best_weapon(e, u, True)[0] else "",
                               "unarmed" if cqc.unarmed_able(t, e) else "") if w]
        then = (f"{e.id} may answer first ({' or '.join(answers)}: unarmed blows land together)"
                if answers else f"{e.id} has no answer")
        ctx.say("strike", f"{u.id} will strike {e.id} unarmed; {then} (9.5)", "9.5")
        resolve.open_window(t, ctx, "attack", [u], [e])
        if ctx.state.window is None and ctx.state.pin is None:
            resolve.advance_assault(t, ctx)
        return
    ctx.state.assault = None
    weapon = t.best_weapon(u, e, False)[0]
    alive = resolve.fire(t, ctx, u, e, weapon, "strikes")
    if alive:
        resolve.open_window(t, ctx, "attack", [u], [e])  # 9.2.2: only the unit attacked answers


def defend_offers(state: MakState, side: str) -> list[Action]:
    """5.4: the defensive attacks of the units the open window allows."""
    t = Table(state)
    if state.window is None:
        return []
    targets = [state.unit(x) for x in state.window.targets]
    defenders = resolve.window_defenders(t)
    unarmed = [A.Defend(unit=d.id, target=state.window.targets[0], weapon="unarmed")
               for d in defenders if resolve.unarmed_answer(t, d)]  # 9.5
    return unarmed + [A.Defend(unit=u, target=e, weapon=w)
                      for u, e, w in legal.fire_offers(t, side, True, defenders, targets)]


@order(A.Defend, phases="defence", offers=defend_offers)
def defend(ctx: MakCtx, o: A.Defend) -> None:
    """5.4: a defensive attack by a unit the window allows."""
    t = Table(ctx.state)
    refuse(legal.defend_problem(t, ctx.side, o))
    u, e = ctx.state.find(o.unit), ctx.state.find(o.target)
    assert u is not None and e is not None and ctx.state.window is not None
    ctx.state.window.used.append(u.id)
    if o.weapon.strip().lower() == "unarmed" and ctx.state.assault is not None:
        ctx.state.assault.answer = u.id  # 9.5: rolled with the blow, in advance_assault
        ctx.say("defend", f"{u.id} answers {e.id} unarmed: both unarmed blows land together (9.5)", "9.5")
        resolve.close_window(t, ctx)
        return
    if ctx.state.assault is not None and ctx.state.assault.stage == "adjacent":
        ctx.state.assault.fired_adjacent.append(u.id)  # 9.2: case 1 excludes case 2
    if ctx.state.window.reason == "move":
        e.approach_fire.append(u.id)  # 9.2: its attack on this approach (``start_assault``)
    weapon, _ = t.best_weapon(u, e, True, o.weapon)
    resolve.fire(t, ctx, u, e, weapon, "fires defensively at")
    if not resolve.window_defenders(t):
        resolve.close_window(t, ctx)


def pass_offers(state: MakState, side: str) -> list[Action]:
    """5.4, 9.3.2, 10.4.1 2: a side asked to answer may always decline."""
    return [A.Pass()]


@order(A.Pass, phases=("defence", "flak", "melee"), offers=pass_offers)
def pass_(ctx: MakCtx, o: A.Pass) -> None:
    """5.4: no more defensive attacks now (9.3.2: no more blows; 10.4.1 2: no more flak)."""
    if ctx.state.exchange is not None:
        cqc.hold(Table(ctx.state), ctx, ctx.side)  # 9.3.2: the rest make no attack
        return
    if ctx.state.air.strike is not None:
        pass_flak(ctx)  # 10.4.1 2
        return
    ctx.say("pass", f"{SIDE_NAMES[ctx.side]} make no more defensive attacks now (5.4)", "5.4")
    resolve.close_window(Table(ctx.state), ctx)


def unpin_offers(state: MakState, side: str) -> list[Action]:
    """9.4.3: the candidates not yet named unpinned."""
    if state.pin is None:
        return []
    return [A.Unpin(unit=c) for c in state.pin.candidates if c not in state.pin.chosen]


@order(A.Unpin, phases="pin", offers=unpin_offers)
def unpin(ctx: MakCtx, o: A.Unpin) -> None:
    """9.4.3: the phase player names a unit that stays unpinned."""
    pin = ctx.state.pin
    assert pin is not None
    names = {c.lower(): c for c in pin.candidates if c not in pin.chosen}
    uid = names.get(o.unit.strip().lower())
    if uid is None:
        raise RuleError(f"Name one of {', '.join(names.values())} as unpinned (9.4.3).")
    pin.chosen.append(uid)
    ctx.say("unpin", f"{uid} stays unpinned (9.4.3)", "9.4.3")
    if len(pin.chosen) >= pin.need:
        if ctx.state.window is not None:
            ctx.state.window.unpinned += pin.chosen
        ctx.state.pin = None
        resolve.settle_pin(Table(ctx.state), ctx)


def carry_offers(state: MakState, side: str) -> list[Action]:
    """7.3.1: each unit picking up or dropping a unit in its hex."""
    t = Table(state)
    out: list[Action] = []
    for u in t.on_map(side):
        for load in t.in_hex(t.hex(u), side):
            for drop in (False, True):
                o = A.Carry(unit=u.id, load=load.id, drop=drop)
                if load.id != u.id and legal.carry_problem(t, side, o) is None:
                    out.append(o)
    return out


@order(A.Carry, phases="act", offers=carry_offers)
def carry(ctx: MakCtx, o: A.Carry) -> None:
    """7.3.1: a unit picks up or drops another in its hex (1 MP)."""
    t = Table(ctx.state)
    refuse(legal.carry_problem(t, ctx.side, o))
    u, load = ctx.state.find(o.unit), ctx.state.find(o.load)
    assert u is not None and load is not None
    resolve.finish_moving(ctx.state, u.id)
    ctx.state.moving = u.id
    u.mp_spent += 1.0
    u.moved = True
    u.carrying = None if o.drop else load.id
    verb = "drops" if o.drop else "picks up"
    ctx.say("carry", f"{u.id} {verb} {load.id} (1 MP) (7.3.1)", "7.3.1")


def end_offers(state: MakState, side: str) -> list[Action]:
    """4.0: the phase may end when stacking allows (8.2); the set-up always may."""
    if state.setup:
        return [A.End()]
    return [A.End()] if legal.end_problem(Table(state)) is None else []


@order(A.End, phases=("act", "setup"), offers=end_offers)
def end(ctx: MakCtx, o: A.End) -> None:
    """4.0: the phase player ends its phase (19.1, 15.0: or a side its set-up)."""
    if ctx.state.setup:
        end_setup(ctx)
        return
    t = Table(ctx.state)
    refuse(legal.end_problem(t))
    ctx.say("end", f"{SIDE_NAMES[ctx.side]} ends its phase (4.0)", "4.0")
    for label, why in legal.over_limit(t, ctx.side):  # no unit there could leave
        ctx.say("end", f"{label} stays over the stacking limit ({why}): no unit there can "
                       f"still leave (8.2)", "8.2")
    end_phase(t, ctx)
    ctx.snapshot = True


def end_setup(ctx: MakCtx) -> None:
    """A side has laid and hidden what it will (19.1, 15.0); once both have, play begins.
    Minefields not laid by then are not laid (the rest of the total is lost, our reading)."""
    s = ctx.state
    s.setup.remove(ctx.side)  # type: ignore[arg-type]
    if s.mine_points.get(ctx.side, 0) >= 5 and ctx.side not in s.laid:
        s.laid.append(ctx.side)  # type: ignore[arg-type]
    ctx.say("setup", f"{SIDE_NAMES[ctx.side]} finished its set-up (19.1, 15.0)", "19.1")
    if not s.setup:
        begin_play(ctx)
        ctx.snapshot = True


def _indirect(t: Table, ctx: MakCtx, u: UnitState, spotter: UnitState, label: str) -> None:
    """5.5: one roll against each unit's Attack Target in the hex and the six around it."""
    weapon = next(w for w in t.weapons(u, False) if w.indirect)
    centre = t.hex_of(label)
    u.attacked = True
    spotter.spotted = True
    if spotter.status == "aloft":
        t.s.air.duty[spotter.id] = "used"  # 10.5: "move the aeronautical unit to the 'Used' space"
    hit_dice = ctx.dice.roll(2, 6, f"{u.id} indirect at {label}")
    ctx.say("indirect", f"{u.id} fires {weapon.type.value} indirect at {label}, spotted by {spotter.id}; "
                        f"🎲 {hit_dice[0]}+{hit_dice[1]} (5.5.3)", "5.5")
    for h in blast_area(centre):
        for e in [x for x in t.in_hex(h) if not x.aboard]:  # 13.1.3: one target with its vehicle
            at = t.target_of(u, weapon, e, indirect=True)
            text = resolve.blast_hit(t, ctx, e, at, (hit_dice[0], hit_dice[1]), outside=h != centre)
            if e.status == "destroyed":
                pilots.credit_kill(ctx.state, u, e)  # 18.3.3
            ctx.say("indirect", text, "5.5.3")
            if not e.on_map:
                hazards.after_destroyed(t, ctx, t.label(h), weapon.type)  # 19.4.1 (1)
    expend_attack(t, ctx, u, weapon, (hit_dice[0], hit_dice[1]))
    ctx.state.marks.append(Mark(kind="blast", hexes=[label], side=u.side, text="indirect"))
    ctx.snapshot = True
