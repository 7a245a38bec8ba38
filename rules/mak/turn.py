"""The turn (4.0): the Air Commitment phase when aircraft fly (4.0 1, 10.1), the first and the
second player's phases, the end of the turn; what happens as each phase begins and ends.

Above the resolution of orders (``resolve.py``) and the off-board artillery (17.2.1: due
fire lands as a phase begins; 17.1.3: a request dies with its observer at the turn's end).
"""

from __future__ import annotations

from rules.core.hexes import Hex, distance
from rules.core.orders import Ctx
from rules.mak import cqc, hazards, infantry
from rules.mak.artillery import end_of_turn, fire_due
from rules.mak.combat import signed
from rules.mak.data import unit_stats
from rules.mak.deployment import may_enter_on, parse_deploy
from rules.mak.special import smoke_clears
from rules.mak.state import SIDE_NAMES, SIDES, MakState, UnitState, other
from rules.mak.table import Table

MakCtx = Ctx[MakState]


def begin_air_phase(ctx: MakCtx) -> bool:
    """4.0 1: the Air Commitment phase of a new turn: aircraft due arrive in the air (their
    turn of entry), survivors come back from "Used" (10.1.3).  False if no side has any."""
    s = ctx.state
    for u in s.units:
        if not unit_stats(u.type).aeronautical:
            continue
        if u.status == "waiting" and may_enter_on(parse_deploy(u.deploy), s.turn):
            u.status = "aloft"
            s.air.arrived[u.id] = s.turn
            ctx.say("air", f"{u.id} arrives over the battlefield (12.1, 10.0)", "10.0")
        if u.status == "aloft":
            s.air.duty[u.id] = "ready"
    s.air.strike = None
    s.air.committed = [side for side in SIDES if not any(u.side == side and u.status == "aloft" for u in s.units)]
    if len(s.air.committed) == len(SIDES):
        return False
    s.phase = "air"
    waiting = [SIDE_NAMES[x] for x in SIDES if x not in s.air.committed]
    verb = "assign their aircraft" if len(waiting) > 1 else "assigns its aircraft"  # a side is one player
    ctx.say("phase", f"Air Commitment phase: {' and '.join(waiting)} {verb} (4.0, 10.1)", "10.1")
    return True


def start_phase(t: Table, ctx: MakCtx) -> None:
    """A player's phase begins: per-phase marks cleared, broken squads try to recover (14.3.2),
    the phase player's smoke thins (19.2.3), fire attacks the other side's infantry (19.4.2)."""
    for u in ctx.state.units:
        u.mp_spent = 0.0
        u.moved = u.move_done = u.attacked = u.struck = False
        u.phase_shots = {}
        u.approach_fire = []
        if u.side == ctx.state.active and u.on_map and u.morale != "ok":
            _recover(t, ctx, u)
    fire_due(t, ctx)  # 17.2.1: before any unit moves or attacks
    smoke_clears(ctx)
    hazards.burn(t, ctx)


def capable_of_attacks(t: Table, e: UnitState, here: Hex) -> bool:
    """14.3.2 (3) "An enemy unit capable of making attacks": one with a weapon that may fire,
    or a Type I unit that can fight unarmed in close quarters (9.5; an arm-disabled one "can
    still participate in close quarters combat", 5.1.2 A) where it can get to one: already in
    the squad's hex, or still able to move (an immobilised one elsewhere cannot come in)."""
    if t.weapons(e, True):
        return True
    return cqc.unarmed_able(t, e) and (t.hex(e) == here or not e.immobilized)


def _recover(t: Table, ctx: MakCtx, u: UnitState) -> None:
    """14.3.2: a broken squad rolls one die at the start of its troop phase, 1-4 recovers."""
    here = t.hex(u)
    friends = [f for f in t.in_hex(here, u.side) if f.id != u.id and f.morale == "ok"]
    near = any(distance(here, t.hex(e)) <= 3 and capable_of_attacks(t, e, here) for e in t.on_map(other(u.side)))
    held = t.s.positions.get(u.hex or "")  # 12.3: "inside a defensive position", of any rating
    named = infantry.recovery_modifiers(bool(friends), t.field.terrain.get(here),
                                        held is not None and held.holder == u.side, near,
                                        u.morale == "broken_again")
    mod = sum(v for _, v in named)
    roll = infantry.roll_recovery(ctx.dice, mod, f"{u.id} morale")
    if roll.recovered:
        u.morale = "ok"
    verdict = "recovers" if roll.recovered else "stays broken"
    # 14.3.2: "On a result of one to four, the unit's morale is recovered", each modifier named
    shown = "".join(f" {signed(v)} {name}" for name, v in named)
    total = f" = {roll.die + mod}" if named else ""
    ctx.say("morale", f"{u.id} morale: 🎲 {roll.die}{shown}{total} (1-4 recovers) → {verdict} (14.3.2)",
            "14.3.2")


def end_phase(t: Table, ctx: MakCtx) -> None:
    """4.0: the first player's phase gives way to the second's; then the turn ends."""
    s = ctx.state
    s.moving = None
    hazards.end_of_phase_arson(t, ctx)  # 14.4.2: "At the end of the troop phase"
    if s.phase == "first":
        s.phase = "second"
        s.active = other(s.first)
    else:
        s.turn += 1
        s.phase = "first"
        s.active = s.first
        for u in s.units:
            u.spotted = False
        end_of_turn(t, ctx, s.turn - 1)  # 17.1.3: a request dies with its observer
        if s.turn > s.turns:
            s.over = True
            ctx.say("end", f"Turn {s.turns} is over: the game ends (3.1)", "3.1")
            return
        ctx.say("turn", f"Turn {s.turn} of {s.turns} begins (4.0)", "4.0")
        if begin_air_phase(ctx):  # 4.0 1, 10.1
            return
    ctx.say("phase", f"{SIDE_NAMES[s.active]} phase (4.0)", "4.0")
    start_phase(t, ctx)


def begin_play(ctx: MakCtx) -> None:
    """4.0 1: the Air Commitment phase when aircraft fly, else the first player's phase; a
    game that begins in the second player's phase (issue 46) is past its Air Commitment."""
    if ctx.state.phase == "second" or not begin_air_phase(ctx):
        start_phase(Table(ctx.state), ctx)
