"""What a hit does to a unit (5.1.2, 14.3, 18.2): results put on units, the losses that go
with them (riders, carried units, the AMU, pilots), and the usage check after every attack.

Below the hazards and the resolution of orders: a minefield, a fire or an attack all end
here, so every rule module that rolls damage may import it.
"""

from __future__ import annotations

from rules.core.orders import Ctx
from rules.mak import pilots, vehicles
from rules.mak.data import WeaponStats
from rules.mak.state import SIDE_NAMES, MakState, UnitState, other
from rules.mak.table import Table
from rules.mak.weapons import expend

MakCtx = Ctx[MakState]


def on_destroyed(ctx: MakCtx, u: UnitState, label: str | None) -> None:
    """16.2.2: a NeuSpotter destroyed drops its AMU; an AMU carrier drops the one it carries."""
    if label is None:
        return
    drops = int(u.amu) + int(ctx.state.amu_rule and u.type == "NeuSpotter")
    u.amu = False
    if drops:
        ctx.state.amus[label] = ctx.state.amus.get(label, 0) + drops
        ctx.say("amu", f"An AMU lies in {label} (16.2.2)", "16.2.2")


def _lose_pilot(state: MakState, u: UnitState) -> None:
    for x in (u, state.find(u.rider) if u.rider else None):
        if x is not None and x.pilot is not None:
            p = state.crew.pilots.get(pilots.key(x.side, x.pilot))
            if p is not None and p.status == "in" and p.unit == x.id:
                p.status = "lost"


def down(ctx: MakCtx, u: UnitState) -> None:
    """An aircraft destroyed (10.2.2): a Hornisse's rider goes with it."""
    _lose_pilot(ctx.state, u)
    u.status = "destroyed"
    ctx.state.air.duty.pop(u.id, None)
    if u.rider:
        ctx.state.unit(u.rider).status = "destroyed"


def pilot_damage(t: Table, ctx: MakCtx, target: UnitState, result: str,
                 where: str | None = None) -> tuple[str | None, str]:
    """18.2 before a D, A or M is applied: a pilot on foot dies of any (18.2.2); with the
    ``escape`` option the pilot of a damaged unit rolls (18.2.1).  Returns the outcome when
    it replaces the normal one (else None) and the words of the escape roll, said in the
    attack's own line after the result (else "")."""
    s = ctx.state
    if target.type == "Pilot":
        target.status = "destroyed"
        p = s.crew.pilots.get(pilots.key(target.side, target.pilot or 0))
        if p is not None:
            p.status = "killed"
            return f"pilot {p.name} killed: {pilots.pilot_points(p)} points to {SIDE_NAMES[other(p.side)]} (18.2.2)", ""
        return "pilot killed (18.2.2)", ""
    hex_ = target.hex or where
    p = pilots.pilot_of(s, target)
    # the pilot is in the unit, or in the PKA a Hornisse carries (10.6): both go down together
    if (not s.crew.escape or p is None or p.unit not in (target.id, target.rider)
            or result not in pilots.ESCAPE_KILL or hex_ is None):
        return None, ""
    roll, killed = pilots.escape_roll(ctx.dice, result, f"{p.name} escape")
    need = pilots.ESCAPE_KILL[result]
    if killed:
        p.status = "killed"
        return None, f"pilot {p.name}: 🎲 {roll} ≥ {need}: killed (18.2.1)"
    if target.carrying:
        target.carrying = None
    target.status = "destroyed"
    s.air.duty.pop(target.id, None)
    if target.rider:
        s.unit(target.rider).status = "destroyed"
    token = pilots.bail_out(s, p, hex_)
    return (f"pilot {p.name}: 🎲 {roll} < {need}: escapes as {token.id} in {hex_}; "
            f"{target.id} is removed (18.2.1)"), ""


def apply_result(t: Table, ctx: MakCtx, target: UnitState, result: str) -> str:
    """Put a D, A or M on ``target`` (5.1.2; 14.3 for infantry); returns what it became
    (with the pilot's escape roll after it, 18.2.1)."""
    if result == "-":
        return "no effect"
    special, note = pilot_damage(t, ctx, target, result)  # 18.2: pilots on foot, escaping
    if special:
        return special
    outcome = _put_result(t, ctx, target, result)
    return f"{outcome}; {note}" if note else outcome


def _put_result(t: Table, ctx: MakCtx, target: UnitState, result: str) -> str:
    stats = t.stats(target)
    if result == "D":
        target.status = "destroyed"
        for lost in vehicles.lose_passengers(ctx.state, target):
            ctx.say("transport", f"{lost}, transported by {target.id}, is destroyed with it (13.1.3)", "13.1.3")
        on_destroyed(ctx, target, target.hex)  # 16.2.2
        if target.carrying:
            ctx.say("carry", f"{target.carrying} is dropped in {target.hex} (7.3.3)", "7.3.3")
            target.carrying = None
        return "destroyed"
    if target.carrying:
        ctx.say("carry", f"{target.carrying} is dropped in {target.hex} (7.3.3)", "7.3.3")
        target.carrying = None  # 7.3.3: destroyed or damaged, the carried unit is dropped
    if stats.infantry:
        target.morale = "broken_again" if target.morale != "ok" else "broken"  # 14.3, 14.3.2 4
        return "morale broken (14.3)"
    if result == "A":
        target.disarmed = True
        return "Arm. Disabled"
    target.immobilized = True
    if ctx.state.moving == target.id:
        target.move_done = True  # an immobilised unit's move ends (Figure 10)
    return "Immobilized"


def expend_attack(t: Table, ctx: MakCtx, attacker: UnitState, weapon: WeaponStats, dice: tuple[int, int]) -> str:
    """5.3.4 / 11.2: the usage check every executed attack ends with."""
    kind = weapon.type.value
    attacker.phase_shots[kind] = attacker.phase_shots.get(kind, 0) + 1
    spent = expend(t.stats(attacker), weapon, dice, attacker.fired.get(kind, 0))
    if spent.rounds_fired:
        attacker.fired[kind] = spent.rounds_fired
    if spent.drained_one_turn:
        attacker.drained_until = ctx.state.turn + 1
    if spent.disabled:
        attacker.weapons_out.append(kind)
        if all(w.type.value in attacker.weapons_out for w in t.stats(attacker).weapons):
            attacker.disarmed = True  # 11.2.3 / 11.2.5: "Arm. Disabled"
    return f"; {spent.why}" if spent.why else ""
