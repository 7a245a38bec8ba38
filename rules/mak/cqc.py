"""Continuing close quarters combat (9.3) and the order of unarmed combat (9.5).

* 9.3: units of both sides left in one hex at the end of a phase are in a "continuing close
  quarters combat".  9.3.1: at the start of his phase the phasing player fights it as is
  (``engage``, then ``pass``), reinforces it (``assault`` into the hex, 9.3.3), retreats (``move`` out, 9.3.4)
  or leaves it (9.3.5, nothing to do).
* 9.3.2: "the phasing player chooses a target for each of his units, and then resolves all
  attacks in order. After that, the non-phasing player declares and resolves his fire in the
  same way. This combat is resolved simultaneously": every result is held back and lands
  together at the end, so a unit the phasing player destroys still fires back.
* 9.5: "All unarmed combat is performed after resolution of attacks from opposing units,
  except for opposing unarmed combat. All unarmed combat is resolved simultaneously": the
  armed attacks of both sides land first; only the unarmed attackers still on the map then
  strike, all together.
"""

from __future__ import annotations

from rules.core.orders import Ctx
from rules.mak.combat import UNARMED_TARGET, AttackTarget, roll_damage, roll_hit
from rules.mak.damage import apply_result, expend_attack
from rules.mak.data import Weapon
from rules.mak.hazards import after_destroyed
from rules.mak.pilots import credit_kill
from rules.mak.state import SIDE_NAMES, Blow, Exchange, MakState, Mark, UnitState, other
from rules.mak.table import Table

MakCtx = Ctx[MakState]


def may_fight(t: Table, u: UnitState, enemies: list[UnitState]) -> bool:
    """Whether ``u`` may attack in the exchange: armed at one of ``enemies``, or unarmed as a
    Type I unit in good order (9.5); a phasing unit that already fought this phase may not."""
    if not u.on_map or (u.side == t.s.active and (u.struck or u.attacked)):
        return False
    if unarmed_able(t, u):
        return True
    return any(t.best_weapon(u, e, defensive=u.side != t.s.active)[0] is not None for e in enemies)


def unarmed_able(t: Table, u: UnitState) -> bool:
    """9.5: "All Type 1 units may perform 'unarmed' combat" (a broken squad is no Type I)."""
    return t.stats(u).unit_class == 1 and u.morale == "ok" and not t.stats(u).noncombatant


def melee_hexes(t: Table, side: str) -> list[str]:
    """Hexes where ``side`` (the phasing player) may fight a close quarters combat out now."""
    if t.s.exchange is not None or t.s.assault is not None or t.s.window is not None or t.s.pin is not None:
        return []
    out = set()
    for u in t.on_map(side):
        if t.in_melee(u):
            enemies = t.in_hex(t.hex(u), other(side))
            if may_fight(t, u, enemies):
                out.add(u.hex or "")
    return sorted(out)


def fighters(t: Table, ex: Exchange, side: str) -> list[UnitState]:
    """The units of ``side`` in the exchange still to declare a target (9.3.2)."""
    done = {b.unit for b in ex.blows} | set(ex.held)
    enemies = [e for e in t.s.at(ex.hex) if e.side != side]
    return [u for u in t.s.at(ex.hex) if u.side == side and u.id not in done and may_fight(t, u, enemies)]


def stage_side(state: MakState) -> str:
    """Whose declarations the exchange waits on."""
    assert state.exchange is not None
    return state.active if state.exchange.stage == "phasing" else other(state.active)


def blow_problem(t: Table, side: str, blow: Blow) -> str | None:
    """Why the declared close combat attack is refused, or None (9.3.2, 9.5)."""
    ex = t.s.exchange
    if ex is None:
        return "No close quarters combat is being fought now (9.3.2)."
    able = fighters(t, ex, side)
    u = t.s.find(blow.unit)
    if u is None or u not in able:
        return f"Units of yours still to attack in {ex.hex}: {', '.join(x.id for x in able) or 'none'} (9.3.2)."
    e = t.s.find(blow.target)
    if e is None or e.side == side or not e.on_map or e.hex != ex.hex:
        names = ", ".join(x.id for x in t.s.at(ex.hex) if x.side != side)
        return f"{u.id} attacks an enemy in {ex.hex}: {names} (9.3.2)."
    if blow.unarmed:
        return None if unarmed_able(t, u) else "Only Type I units fight unarmed (9.5)."
    if t.best_weapon(u, e, defensive=side != t.s.active)[0] is None and not unarmed_able(t, u):
        return f"{u.id} has no weapon able to fire at {e.id}; fight unarmed if it is Type I (9.5)."
    return None


def blow_offers(t: Table, side: str) -> list[Blow]:
    """Every legal declaration for the side whose turn it is in the exchange."""
    ex = t.s.exchange
    if ex is None:
        return []
    out = []
    for u in fighters(t, ex, side):
        for e in t.s.at(ex.hex):
            for unarmed in (False, True):
                b = Blow(unit=u.id, target=e.id, unarmed=unarmed)
                if e.side != side and blow_problem(t, side, b) is None:
                    out.append(b)
    return out


def open_exchange(t: Table, ctx: MakCtx, label: str) -> None:
    """9.3.1 1: the phasing player fights the combat in ``label`` as is."""
    ctx.state.exchange = Exchange(hex=label)
    ctx.say("melee", f"{SIDE_NAMES[ctx.state.active]} fight the close quarters combat in {label}: "
                     "a target for each unit, pass for the rest (9.3.1, 9.3.2)", "9.3.2")
    _settle(t, ctx)


def declare(t: Table, ctx: MakCtx, blow: Blow) -> None:
    """Record one declaration; resolve the side's attacks once every unit has one."""
    ex = ctx.state.exchange
    assert ex is not None
    u, e = ctx.state.unit(blow.unit), ctx.state.unit(blow.target)
    if not blow.unarmed and t.best_weapon(u, e, defensive=u.side != ctx.state.active)[0] is None:
        blow = Blow(unit=blow.unit, target=blow.target, unarmed=True)  # no weapon left: unarmed (9.5)
    ex.blows.append(blow)
    how = "unarmed " if blow.unarmed else ""
    ctx.say("melee", f"{blow.unit} will attack {blow.target} {how}in close quarters (9.3.2)", "9.3.2")
    _settle(t, ctx)


def hold(t: Table, ctx: MakCtx, side: str) -> None:
    """The side's remaining units in the hex make no attack."""
    ex = ctx.state.exchange
    assert ex is not None
    rest = fighters(t, ex, side)
    ex.held += [u.id for u in rest]
    verb = "makes" if len(rest) == 1 else "make"
    ctx.say("melee", f"{', '.join(u.id for u in rest) or 'No unit'} {verb} no attack (9.3.2)", "9.3.2")
    _settle(t, ctx)


def _settle(t: Table, ctx: MakCtx) -> None:
    """Move the exchange on while the side it waits on has nobody left to declare."""
    ex = ctx.state.exchange
    while ex is not None and not fighters(t, ex, stage_side(ctx.state)):
        side = stage_side(ctx.state)
        for b in [b for b in ex.blows if not b.unarmed and ctx.state.unit(b.unit).side == side]:
            _strike(t, ctx, b, armed=True)
        if ex.stage == "phasing":
            ex.stage = "anti"
            if fighters(t, ex, other(ctx.state.active)):
                ctx.say("melee", f"{SIDE_NAMES[other(ctx.state.active)]} now name targets in {ex.hex} (engage, or pass); "
                                 "the results above land after their attacks (9.3.2)", "9.3.2")
                return
            continue
        _finish(t, ctx)
        return


def unarmed_together(t: Table, ctx: MakCtx, label: str, blows: list[Blow]) -> None:
    """9.5 "All unarmed combat is resolved simultaneously": an assault's unarmed blow and the
    target's unarmed answer are both rolled, then both results land (neither spares the
    other)."""
    ctx.state.exchange = Exchange(hex=label, blows=blows)
    for b in blows:
        _strike(t, ctx, b, armed=False, rule="9.5")
    _land(t, ctx, "unarmed combat, simultaneous", "9.5")
    ctx.state.exchange = None


def _strike(t: Table, ctx: MakCtx, b: Blow, armed: bool, rule: str = "9.3.2") -> None:
    """Roll one attack; its result is held back (9.3.2 simultaneous)."""
    u, e = ctx.state.unit(b.unit), ctx.state.unit(b.target)
    weapon = None
    if armed:
        weapon, _ = t.best_weapon(u, e, defensive=u.side != ctx.state.active)
        if weapon is None:
            ctx.say("melee", f"{u.id} can no longer fire at {e.id} (9.3.2)", "9.3.2")
            return
        at = t.target_of(u, weapon, e)
    else:
        at = AttackTarget(attack=UNARMED_TARGET, defense=0)  # 9.5: an unmodified 4
    hit = roll_hit(ctx.dice, at.value, ctx.state.method, f"{u.id} close combat {e.id}")
    name = weapon.type.value if weapon is not None else "unarmed"
    text = f"{u.id} ({name}) attacks {e.id} in close quarters: target {at.text()}; 🎲 {hit.text()}"
    result = "-"
    if hit.hit:
        damage = roll_damage(ctx.dice, t.stats(e).endurance, hit, f"{e.id} endurance")
        result = damage.result
        text += f"; {damage.text()}"
    if weapon is not None:
        text += expend_attack(t, ctx, u, weapon, hit.dice)
    if hit.hit and result != "-":
        kind = weapon.type.value if weapon is not None else ""
        ctx.state.exchange.pending.append((e.id, result, kind, u.id))  # type: ignore[union-attr]
    ctx.say("melee", text + f" ({rule})", rule, attacker=u.id, target=e.id, hit=hit.hit)


def _land(t: Table, ctx: MakCtx, why: str, rule: str) -> None:
    ex = ctx.state.exchange
    assert ex is not None
    for uid, result, kind, by in ex.pending:
        u = ctx.state.unit(uid)
        if u.on_map:
            ctx.say("melee", f"{uid}: {result} → {apply_result(t, ctx, u, result)} ({why})", rule)
            if u.status == "destroyed":
                credit_kill(ctx.state, ctx.state.unit(by), u)  # 18.3.3
                if kind:
                    after_destroyed(t, ctx, ex.hex, Weapon(kind))  # 19.4.1 (1)
    ex.pending = []


def _finish(t: Table, ctx: MakCtx) -> None:
    """Apply the armed results together, then the unarmed attacks of the survivors (9.5)."""
    ex = ctx.state.exchange
    assert ex is not None
    _land(t, ctx, "close quarters results land together", "9.3.2")
    for b in ex.blows:
        if b.unarmed and ctx.state.unit(b.unit).on_map and ctx.state.unit(b.target).on_map:
            _strike(t, ctx, b, armed=False)
    _land(t, ctx, "unarmed combat, simultaneous", "9.5")
    for b in ex.blows:
        u = ctx.state.unit(b.unit)
        if u.side == ctx.state.active:
            u.attacked = u.struck = True  # 9.3.2: "may not perform any other action this turn"
    ctx.state.marks.append(Mark(kind="assault", hexes=[ex.hex], side=ctx.state.active, text="close quarters"))
    ctx.state.exchange = None
    ctx.snapshot = True
