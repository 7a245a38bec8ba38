"""The procedures that change a game: attacks and their results, moves, windows, the turn.

Each function works on the private copy of the state held by the order's ``Ctx`` and says
what happened (events carry the rule number).  Legality is checked before these run
(``legal.py``); here the rules' consequences are applied.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.core.hexes import Hex, distance, neighbours
from rules.core.orders import Ctx
from rules.mak.air import flak_target
from rules.mak.closequarters import unpinned_choice_needed
from rules.mak import concealment, cqc, hazards, infantry, vehicles
from rules.mak.hazards import STOPPED, known_mines, step
from rules.mak.land_state import Overrun
from rules.mak.combat import UNARMED_TARGET, AttackTarget, HitRoll, defensive_trigger, roll_damage, roll_hit
from rules.mak.special import drop_endurance, drop_result
from rules.mak.damage import apply_result, expend_attack
from rules.mak.data import WeaponStats
from rules.mak.movement import Reach, entry_cost, path_to, reach
from rules.mak.pilots import credit_kill
from rules.mak.state import SIDE_NAMES, Assault, Blow, MakState, Mark, PinChoice, UnitState, Window, other
from rules.mak.table import Table, allowance, flak_modifiers
from rules.mak.weapons import can_reload

MakCtx = Ctx[MakState]


# -- results ---------------------------------------------------------------------------------


def blast_hit(t: Table, ctx: MakCtx, e: UnitState, at: AttackTarget, dice: tuple[int, int],
              outside: bool) -> str:
    """5.5.3: one unit in an indirect attack's area: the attack's single roll against its own
    Attack Target, its own endurance roll (+1 outside the target hex); the line to say."""
    hit = HitRoll(dice=dice, method=ctx.state.method, target=at.value)
    text = f"{e.id} in {e.hex}: target {at.text()}: {'hit' if hit.hit else 'miss'}"
    if hit.hit:
        damage = roll_damage(ctx.dice, t.stats(e).endurance, hit, f"{e.id} endurance", modifier=1 if outside else 0)
        text += f"; {damage.text()} → {apply_result(t, ctx, e, damage.result)}"
    return text + " (5.5.3)"


def fire(t: Table, ctx: MakCtx, attacker: UnitState, target: UnitState, weapon: WeaponStats | None,
         how: str, unarmed: bool = False) -> bool:
    """One direct attack, rolled and applied; True if the target is still on the map."""
    if unarmed or weapon is None:
        at = AttackTarget(attack=UNARMED_TARGET, defense=0)  # 9.5: an unmodified 4
        wname = "unarmed"
    else:
        at = t.target_of(attacker, weapon, target)
        if ctx.state.window is not None and ctx.state.window.reason == "boost":
            # 19.5.3: "an anti-aircraft attack" at the booster: 10.4.3, no terrain or range
            at = flak_target(weapon.attack, t.stats(target).defense, flak_modifiers(t, attacker, target))
        wname = weapon.type.value
        a = ctx.state.assault
        if a is not None and a.charge and a.unit == target.id and attacker.side != ctx.state.active:
            at.modifiers.append(("charge", infantry.CHARGE_DEFENCE_BONUS))  # 14.2.3
    armed = [] if unarmed or weapon is None else [(attacker, weapon)]
    return roll_attack(t, ctx, Shot(by=[attacker], armed=armed, target=target, at=at, wname=wname), how)


def combined_fire(t: Table, ctx: MakCtx, squads: list[UnitState], target: UnitState) -> bool:
    """14.2.1: "Stacked Infantry units may add their attack power for a single attack": one
    roll against the sum of the squads' attack powers, the first squad's weapon giving the
    range and terrain modifiers (5.1.3); each squad checks its own usage (5.3.4).  True if the
    target is still on the map."""
    armed = [(u, t.best_weapon(u, target, False)[0]) for u in squads]
    weapons = [(u, w) for u, w in armed if w is not None]
    at = t.target_of(weapons[0][0], weapons[0][1], target)
    at.attack = infantry.combined_attack([w.attack for _, w in weapons])
    wname = "+".join(w.type.value for _, w in weapons)
    return roll_attack(t, ctx, Shot(by=squads, armed=weapons, target=target, at=at, wname=wname),
                       "together fire at")


@dataclass
class Shot:
    """One direct attack to roll: who makes it, with which weapons (none: unarmed, 9.5),
    at whom, against which Attack Target."""

    by: list[UnitState]
    armed: list[tuple[UnitState, WeaponStats]]
    target: UnitState
    at: AttackTarget
    wname: str


def roll_attack(t: Table, ctx: MakCtx, shot: Shot, how: str) -> bool:
    """Roll ``shot`` (5.1.1), apply the endurance result (5.1.2), check each weapon's usage
    (5.3.4), say it and mark it; True if the target is still on the map."""
    target, at = shot.target, shot.at
    names = " + ".join(u.id for u in shot.by)
    hit = roll_hit(ctx.dice, at.value, ctx.state.method, f"{names} {how} {target.id}")
    text = f"{names} ({shot.wname}) {how} {target.id}: target {at.text()}; 🎲 {hit.text()}"
    outcome = "miss"
    where = target.hex or ""
    endurance = drop_endurance(ctx.state, target, t.stats(target).endurance)  # 12.2
    if hit.hit:
        damage = roll_damage(ctx.dice, endurance, hit, f"{target.id} endurance")
        outcome = apply_result(t, ctx, target, drop_result(ctx.state, target, damage.result))
        text += f"; {damage.text()} → {outcome}"
        if target.status == "destroyed":
            credit_kill(ctx.state, shot.by[0], target)  # 18.3.3
    if outcome in ("miss", "no effect"):
        target.spared_at = ctx.state.orders  # 14.4.3: fired upon without damage
    for u, weapon in shot.armed:
        text += expend_attack(t, ctx, u, weapon, hit.dice)
    rule = "14.2.1" if len(shot.by) > 1 else "5.1"
    ctx.say("attack", text + f" ({rule})", rule, attacker=shot.by[0].id, target=target.id, hit=hit.hit)
    kind = "fire" if hit.hit else "miss"
    ctx.state.marks.append(Mark(kind=kind, hexes=[shot.by[0].hex or "", where],
                                text=f"{outcome} (needs {at.value})", side=shot.by[0].side,
                                by=[u.id for u in shot.by]))
    ctx.snapshot = True
    if outcome == "destroyed" and shot.armed:
        hazards.after_destroyed(t, ctx, where, shot.armed[0][1].type)  # 19.4.1 (1)
    return target.on_map


def spent_attack(t: Table, ctx: MakCtx, attacker: UnitState, target: UnitState, weapon: WeaponStats) -> None:
    """5.3.4: an announced attack whose target is already destroyed is still executed: its
    attack roll is made for the weapon's usage (ammunition, energy, accidents), nothing else."""
    dice = ctx.dice.roll(2, 6, f"{attacker.id} {weapon.type.value} usage")
    a, b = dice
    text = (f"{attacker.id} ({weapon.type.value}) fires at {target.id}, already destroyed: "
            f"🎲 {a}+{b} for the weapon's usage{expend_attack(t, ctx, attacker, weapon, (a, b))} (5.3.4)")
    ctx.say("attack", text, "5.3.4", attacker=attacker.id, target=target.id, hit=False)
    ctx.snapshot = True


# -- defensive windows -----------------------------------------------------------------------


def unarmed_answer(t: Table, defender: UnitState) -> bool:
    """9.5: "All Type 1 units may perform 'unarmed' combat in close quarters combat ...
    except for opposing unarmed combat. All unarmed combat is resolved simultaneously": the
    Type I unit an assault strikes unarmed may answer unarmed, armed weapon or none."""
    a = t.s.assault
    return (a is not None and a.stage == "unarmed" and a.target == defender.id and a.answer is None
            and defender.on_map and cqc.unarmed_able(t, defender))


def _able(t: Table, defender: UnitState, targets: list[UnitState], ignore_pin: bool = False) -> bool:
    """Whether ``defender`` may make a defensive attack on one of ``targets`` now."""
    if not defender.on_map or defender.side == ctx_side(t) or defender.arson_turn == t.s.turn:
        return False  # 14.4.2: a squad trying arson makes no other attack that turn
    if unarmed_answer(t, defender):
        return True
    for target in targets:
        if not target.on_map:
            continue
        if (not ignore_pin and t.in_melee(defender) and target.hex != defender.hex
                and t.pinned(defender)):
            continue  # 9.4.4: pinned units do not attack into other hexes
        weapon, _ = t.best_weapon(defender, target, defensive=True)
        if weapon is not None:
            return True
    return False


def ctx_side(t: Table) -> str:
    """The phase player."""
    return t.s.active


def open_window(t: Table, ctx: MakCtx, reason: str, targets: list[UnitState],
                defenders: list[UnitState]) -> None:
    """Offer the anti-phase player defensive attacks on ``targets`` (5.4); first the phase
    player names unpinned units where close quarters pin some of the defenders (9.4.3)."""
    live = _single_targets(t, targets)
    if not live:
        return
    for d in defenders:
        if (t.in_melee(d) and any(x.hex != d.hex for x in live)
                and _able(t, d, live, ignore_pin=True) and _ask_pin(t, ctx, d.hex or "")):
            break
    able = [d for d in defenders if _able(t, d, live)
            or (reason == "attack" and hazards.burns_instead(t, d, ctx.state.orders))]  # 14.4.3
    if not able and ctx.state.pin is None:
        return
    ctx.state.window = Window(reason=reason, targets=[u.id for u in live], defenders=[d.id for d in defenders],
                              opened=ctx.state.orders)
    if ctx.state.pin is None:
        ctx.state.window.defenders = [d.id for d in able]
        names = ", ".join(d.id for d in able)
        ctx.say("window", f"{SIDE_NAMES[other(t.s.active)]} may make defensive attacks with {names} (5.4)", "5.4")


def _single_targets(t: Table, targets: list[UnitState]) -> list[UnitState]:
    """The units a defensive attack may answer, on the map: a rider that attacked is answered
    as its vehicle, for "the vehicle and the units it is transporting are treated as a
    single target" (13.1.3)."""
    out: list[UnitState] = []
    for u in targets:
        x = t.s.unit(u.aboard) if u.aboard else u
        if x.on_map and x not in out:
            out.append(x)
    return out


def _ask_pin(t: Table, ctx: MakCtx, label: str) -> bool:
    """Set up the 9.4.3 choice for hex ``label`` when some, not all, defenders are pinned."""
    if ctx.state.pin is not None and ctx.state.pin.hex == label:
        return False
    phasing = [p for p in t.s.at(label) if p.side == t.s.active]
    anti = [p for p in t.s.at(label) if p.side != t.s.active]
    able = [not p.immobilized and bool(t.weapons(p, False)) for p in phasing]
    need = unpinned_choice_needed(able, len(anti))
    if 0 < need < len(anti):
        ctx.state.pin = PinChoice(hex=label, candidates=[a.id for a in anti], need=need)
        ctx.say("pin", f"{label}: {len(anti) - need} of {len(anti)} pinned; {SIDE_NAMES[t.s.active]} "
                       f"names {need} unpinned (9.4.3)", "9.4.3")
        return True
    return False


def window_defenders(t: Table) -> list[UnitState]:
    """The units that may still make a defensive attack in the open window."""
    w = t.s.window
    if w is None:
        return []
    targets = [t.s.unit(x) for x in w.targets]
    return [t.s.unit(d) for d in w.defenders if d not in w.used and (
        _able(t, t.s.unit(d), targets) or (w.reason == "attack" and hazards.burns_instead(t, t.s.unit(d), w.opened)))]


def settle_pin(t: Table, ctx: MakCtx) -> None:
    """After the unpinned units are named, open the window with those who may fire."""
    w = ctx.state.window
    if w is None:
        return
    targets = [t.s.unit(x) for x in w.targets]
    able = [t.s.unit(d) for d in w.defenders if _able(t, t.s.unit(d), targets)]
    w.defenders = [d.id for d in able]
    if not able:
        close_window(t, ctx)


def close_window(t: Table, ctx: MakCtx) -> None:
    """The window closes; an assault under way goes on to its next stage (9.1)."""
    used = list(ctx.state.window.used) if ctx.state.window else []
    ctx.state.window = None
    ctx.state.pin = None
    ctx.state.drop = None  # 12.2: the anti-aircraft fire at a dropped unit is over
    if ctx.state.assault is not None:
        advance_assault(t, ctx)
    if ctx.state.overrun is not None:
        advance_overrun(t, ctx, used)


# -- movement --------------------------------------------------------------------------------


def finish_moving(state: MakState, except_id: str | None = None) -> None:
    """7.2.5: the unit under way is done once another unit acts."""
    if state.moving and state.moving != except_id:
        state.unit(state.moving).move_done = True
        state.moving = None


def reach_of(t: Table, u: UnitState) -> Reach:
    """Hexes in reach of ``u`` this phase, avoiding enemy hexes (7.2.3), by the way through the
    fewest minefields both sides know of (19.1.2, 19.1.4: none if it can)."""
    closed = t.enemy_hexes(u.side)
    return reach(t.field, t.stats(u), t.hex(u), allowance(t, u), closed, known_mines(t))


def move(t: Table, ctx: MakCtx, u: UnitState, dest_label: str) -> None:
    """Move ``u`` step by step; stop where the enemy may fire defensively (7.2.4)."""
    finish_moving(ctx.state, u.id)
    ctx.state.moving = u.id
    had_moved, u.moved = u.moved, True
    found = reach_of(t, u)
    path = path_to(found, t.hex_of(dest_label))
    start = path[0]
    for prev, here in zip(path, path[1:]):
        crossed = hazards.step(t, ctx, u, t.label(prev), t.label(here))
        if crossed == "found":
            _found_mines(t, ctx, u, path, here, had_moved)
            return
        if crossed != "go":
            _stopped_by_mines(t, ctx, u, prev, here, crossed)
            if u.on_map:  # stopped by a minefield in it, immobilised (19.1.3), or leaving
                _mark_move(t, ctx, u, start, path[: path.index(t.hex(u)) + 1])
            return
        _step_into(t, ctx, u, prev, here)
        if ctx.state.concealment is not None:  # 15.4.1: sight is checked at every hex of a move
            concealment.sweep(t, ctx, only=u)
        if _may_fire_at(t, u, here):
            _mark_move(t, ctx, u, start, path[: path.index(here) + 1])
            if _interrupt(t, ctx, u, here):
                return
    _mark_move(t, ctx, u, start, path)


def _may_fire_at(t: Table, u: UnitState, here: Hex) -> list[UnitState]:
    """7.2.4: the enemies next to ``here`` of whom one at least may fire at ``u``."""
    adjacent = [e for n in neighbours(here) for e in t.in_hex(n, other(u.side))]
    return adjacent if any(_able(t, e, [u], ignore_pin=True) for e in adjacent) else []


def came_next_to_enemy(t: Table, ctx: MakCtx, u: UnitState) -> bool:
    """5.4 3 / 5.4.3 and 7.2.4: a unit that comes into a hex next to enemy units, by a move
    or entering the map (12.1: reinforcements "have their usual movement" and spend movement
    points to enter), gives those that may fire at it their defensive window; True if the
    game now waits on it."""
    here = t.hex(u)
    return bool(_may_fire_at(t, u, here)) and _interrupt(t, ctx, u, here)


def _interrupt(t: Table, ctx: MakCtx, u: UnitState, here: Hex) -> bool:
    """7.2.4: "interrupt the movement if the anti-phase player announces a defensive attack":
    the window for the enemies next to ``here``; True if the game now waits on it."""
    open_window(t, ctx, "move", [u], _may_fire_at(t, u, here))
    return ctx.state.window is not None or ctx.state.pin is not None


def _found_mines(t: Table, ctx: MakCtx, u: UnitState, path: list[Hex], mined: Hex, had_moved: bool) -> None:
    """14.4.1 (19.5.2 the Kröte): "If a minefield is discovered, the player may cancel the
    unit's movement, and chose to move to a different hex": the move stops before the
    minefield with the points left, the unit still the one under way (7.2.5); the next order
    takes it in (``through_mines:true``, the minefield is known now) or elsewhere.  Stopped in
    the hex it started from, its movement is cancelled: it has not moved (7.2.1)."""
    here, label = t.hex(u), t.label(mined)
    if here == path[0]:
        u.moved = had_moved
    else:
        _mark_move(t, ctx, u, path[0], path[: path.index(here) + 1])
    left = allowance(t, u)
    cost = entry_cost(t.field, t.stats(u), here, mined)
    if cost is not None and cost <= left + 1e-9:
        choice = (f"another move order may take it into {label} (through_mines:true) or move it "
                  f"elsewhere")
    elif left > 1e-9:
        choice = f"too few to enter {label}; another move order may take it elsewhere"
    else:
        choice = "none to go on with this phase"
    ctx.say("mine", f"{u.id} stops in {u.hex} with {left:g} MP left: {choice} (14.4.1)", "14.4.1")


def _stopped_by_mines(t: Table, ctx: MakCtx, u: UnitState, prev: Hex, here: Hex, crossed: str) -> None:
    """A move stopped by a minefield (``hazards.step``): immobilised, it ends its move where it
    is (in ``here`` if it got in, 19.1.3); a squad whose morale broke moves on only away from
    the enemy (14.3.1 2).  (An engineer that found one: ``_found_mines``.)"""
    if crossed == "held":
        _step_into(t, ctx, u, prev, here)
    if u.immobilized:
        u.move_done = True


def _step_into(t: Table, ctx: MakCtx, u: UnitState, prev: Hex, here: Hex) -> None:
    """The unit pays for and enters ``here``, with what it carries (7.3.1) or transports
    (13.1.2)."""
    u.mp_spent += entry_cost(t.field, t.stats(u), prev, here) or 0.0
    u.hex = t.label(here)
    u.approach_fire = []  # 9.2: a new hex, a new approach
    if u.carrying:
        ctx.state.unit(u.carrying).hex = u.hex  # 7.3.1: they move together
    vehicles.carry_along(ctx.state, u)  # 13.1.2


def arrive(t: Table, ctx: MakCtx, u: UnitState) -> None:
    """Where a unit stops: it takes an empty or friendly defensive position (12.3) and
    reloads its PanzerFaust at a Depot with no enemy in the hex (11.3.1)."""
    label = u.hex or ""
    for hex_, pos in ctx.state.positions.items():  # leaving a position empties it
        if pos.holder == u.side and not any(x.side == u.side for x in ctx.state.at(hex_)):
            pos.holder = None
    pos = ctx.state.positions.get(label)
    if pos is not None and pos.holder in (None, u.side):
        if pos.holder is None:
            ctx.say("position", f"{u.id} takes the defensive position in {label} ({pos.rating}) (12.3)", "12.3")
        pos.holder = u.side
    if label in ctx.state.depots and not t.in_melee(u):
        _reload(t, ctx, u)


def _reload(t: Table, ctx: MakCtx, u: UnitState) -> None:
    for w in t.stats(u).weapons:
        kind = w.type.value
        if u.fired.get(kind) and can_reload(t.stats(u), w, True, False):
            u.fired.pop(kind, None)
            if kind in u.weapons_out:
                u.weapons_out.remove(kind)
                u.disarmed = False
            ctx.say("reload", f"{u.id} reloads its {kind} at the depot in {u.hex} (11.3.1)", "11.3.1")


def _mark_move(t: Table, ctx: MakCtx, u: UnitState, start, path) -> None:  # type: ignore[no-untyped-def]
    ctx.state.marks.append(Mark(kind="move", hexes=[t.label(h) for h in path], side=u.side,
                                text=f"{u.id} {u.mp_spent:g} MP"))
    ctx.say("move", f"{u.id} moves {t.label(start)} → {u.hex} ({u.mp_spent:g} of "
                    f"{t.stats(u).movement} MP) (7.1)", "7.1")
    ctx.snapshot = True
    arrive(t, ctx, u)


# -- close quarters --------------------------------------------------------------------------


def start_assault(t: Table, ctx: MakCtx, u: UnitState, label: str) -> None:
    """9.1 1-2: declare, then the defenders in the target hex may fire while it is adjacent."""
    finish_moving(ctx.state, u.id)
    here = t.hex(u)
    there = t.hex_of(label)
    charge = distance(here, there) == 2
    if charge and not _charge_step(t, ctx, u, label):
        return
    u.moved = True
    u.move_done = True
    # 9.2 "A unit that engages in case 1 cannot attack in case 2", and Figure 10: "the PKA may
    # make a defensive attack against the AFS when it is in either hex": a defender that
    # already fired at it as it moved into this hex has had its one attack on this approach
    shot = [d.id for d in t.in_hex(there, other(u.side)) if d.id in u.approach_fire]
    ctx.state.assault = Assault(unit=u.id, hex=label, charge=charge, fired_adjacent=shot)
    ctx.say("assault", f"{u.id} goes into close quarters in {label} (9.1)", "9.1")
    if shot:
        ctx.say("assault", f"{', '.join(shot)} fired at {u.id} as it came next to {label}: no "
                           f"second defensive attack on this approach (9.2)", "9.2")
    ctx.state.marks.append(Mark(kind="assault", hexes=[t.label(here), label], side=u.side, text=f"{u.id} assaults"))
    ctx.snapshot = True
    open_window(t, ctx, "assault_adjacent", [u],
                [d for d in t.in_hex(there, other(u.side)) if d.id not in shot])
    if ctx.state.window is None and ctx.state.pin is None:
        advance_assault(t, ctx)


def charge_steps(t: Table, u: UnitState, label: str) -> list[Hex]:
    """14.2.2: the hexes a charge may cross on its way to ``label`` (next to both, no enemy),
    the one it takes first: a hex with no minefield both sides know of (revealed, 19.1.2),
    else the known minefield with the lowest attack.  14.2.2 fixes only the distance ("can
    move two hexes"), so where two hexes lie between, the way is the player's to choose, and
    nobody chooses a known minefield by accident."""
    here, there = t.hex(u), t.hex_of(label)
    steps = [n for n in neighbours(here) if distance(n, there) == 1 and t.field.contains(n)
             and not t.in_hex(n, other(u.side))]
    known = known_mines(t)
    return sorted(steps, key=lambda n: (n in known, t.s.mines[t.label(n)].attack if n in known else 0))


def charge_mines(t: Table, u: UnitState, label: str) -> list[str]:
    """The known minefields between ``u`` and ``label`` when a charge (14.2.2) has no way
    round them: every hex between (one or two) holds one, the one it would cross first.
    Empty when the charge has a clear hex to cross, or is no charge (19.1.2, 19.1.4)."""
    if not u.on_map or distance(t.hex(u), t.hex_of(label)) != 2:
        return []
    steps, known = charge_steps(t, u, label), known_mines(t)
    return [t.label(n) for n in steps] if steps and all(n in known for n in steps) else []


def _charge_step(t: Table, ctx: MakCtx, u: UnitState, label: str) -> bool:
    """14.2.2: the charge covers two hexes whatever the terrain and stops next to the target
    hex; 19.1.4: the minefields it leaves and enters attack as on any move.  False: it never
    got next to the hex (destroyed, immobilised, or an engineer found a minefield, 14.4.1)."""
    start = u.hex or ""
    step = t.label(charge_steps(t, u, label)[0])
    crossed = hazards.step(t, ctx, u, start, step)
    if crossed == "go":
        u.hex = step
        return True
    if crossed == "held":
        u.hex = step
    u.moved, u.move_done = crossed == "held", u.immobilized
    if u.on_map:
        ctx.say("assault", f"{u.id}'s charge on {label} stops in {u.hex} (19.1)", "19.1")
        ctx.snapshot = True
        if crossed == "held" and _may_fire_at(t, u, t.hex(u)):
            _interrupt(t, ctx, u, t.hex(u))  # 7.2.4: it moved next to the enemy
    return False


def advance_assault(t: Table, ctx: MakCtx) -> None:
    """9.1 2-3 / 9.2.5: enter the hex if still able, same-hex fire, then the strike."""
    a = ctx.state.assault
    assert a is not None
    u = ctx.state.unit(a.unit)
    if not u.on_map or (a.stage == "adjacent" and u.immobilized):
        ctx.state.assault = None  # destroyed, or immobilised next to the hex (9.2.5)
        return
    if a.stage == "unarmed":
        ctx.state.assault = None
        e = ctx.state.unit(a.target or "")
        if a.answer and e.on_map and e.hex == u.hex:  # 9.5: both unarmed blows land together
            cqc.unarmed_together(t, ctx, a.hex, [Blow(unit=u.id, target=e.id, unarmed=True),
                                                 Blow(unit=e.id, target=u.id, unarmed=True)])
        elif e.on_map and e.hex == u.hex:  # 9.5: after the armed answer, if both still stand
            fire(t, ctx, u, e, None, "strikes", unarmed=True)
        return
    if a.stage == "adjacent":
        a.stage = "same"
        if hazards.step(t, ctx, u, u.hex or "", a.hex) in hazards.STOPPED:
            ctx.state.assault = None  # 14.4.1 found and stayed out, or 19.1.3/19.1.4 stopped
            return
        joining = any(f.id != u.id for f in t.in_hex(t.hex_of(a.hex), u.side))
        u.hex = a.hex
        ctx.say("assault", f"{u.id} enters {a.hex} (9.1)", "9.1")
        arrive(t, ctx, u)
        if joining:
            # 9.1.2 / 9.3.3: joining a close quarters combat: no same-hex defensive attacks;
            # it is fought out as in 9.3.2 (``engage``)
            ctx.state.assault = None
            ctx.say("assault", f"{u.id} joins the close quarters combat in {a.hex}; fight it out "
                               f"with engage (9.3.3)", "9.3.3")
            return
        fresh = [d for d in t.in_hex(t.hex_of(a.hex), other(u.side)) if d.id not in a.fired_adjacent]
        open_window(t, ctx, "assault_same", [u], fresh)
        if ctx.state.window is not None or ctx.state.pin is not None:
            return
    if a.stage == "same":
        a.stage = "strike"
    if not strike_targets(t, u):
        ctx.state.assault = None


def strike_targets(t: Table, u: UnitState) -> list[UnitState]:
    """The enemies in the assaulting unit's hex it can attack (armed, or unarmed if Type I)."""
    if not u.on_map:
        return []
    enemies = [e for e in t.in_hex(t.hex(u), other(u.side)) if not e.aboard]  # 13.1.3
    if t.stats(u).unit_class == 1 and u.morale == "ok":
        return enemies
    return [e for e in enemies if t.best_weapon(u, e, defensive=False)[0] is not None]


# -- the turn --------------------------------------------------------------------------------


# -- the overrun (13.2): its steps after each defensive window ---------------------------


def overrun_riders(t: Table, v: UnitState) -> list[UnitState]:
    """13.2.3: passengers that may join the overrun attack."""
    return [p for p in vehicles.passengers(t.s, v.id) if not p.attacked and not p.struck and t.weapons(p, False)]


def advance_overrun(t: Table, ctx: MakCtx, used: list[str]) -> None:
    """After each defensive window: enter the hex, then attack and pass through (13.2.1)."""
    o = ctx.state.overrun
    assert o is not None
    v = ctx.state.unit(o.unit)
    if not v.on_map or (o.stage == "adjacent" and v.immobilized):
        if v.on_map:
            ctx.say("overrun", f"{v.id} is immobilized before {o.hex}: the overrun ends (9.2.5)", "9.2.5")
        ctx.state.overrun = None
        return
    there = t.hex_of(o.hex)
    if o.stage == "adjacent":
        o.fired_adjacent += used
        o.stage = "same"
        if step(t, ctx, v, v.hex or "", o.hex) in STOPPED:  # 19.1.4: destroyed or stopped by a minefield
            ctx.state.overrun = None
            if v.on_map:
                ctx.say("overrun", f"{v.id} stops before {o.hex}: the overrun ends (19.1)", "19.1")
            return
        v.hex = o.hex
        vehicles.carry_along(ctx.state, v)
        ctx.say("overrun", f"{v.id} enters {o.hex} (13.2.1, 9.1)", "13.2.1")
        fresh = [d for d in t.in_hex(there, other(v.side)) if d.id not in o.fired_adjacent]
        open_window(t, ctx, "assault_same", [v], fresh)
        if ctx.state.window is not None or ctx.state.pin is not None:
            return
    _overrun_strike(t, ctx, v, o)
    ctx.state.overrun = None
    if v.on_map and not v.immobilized:
        _overrun_out(t, ctx, v, o)


def _overrun_strike(t: Table, ctx: MakCtx, v: UnitState, o: Overrun) -> None:
    """13.2 / 13.2.3: the vehicle's attack on the named unit, then the riders' (no defensive
    attacks answer them: the defenders had theirs as it came in)."""
    e = ctx.state.find(o.target)
    if e is None or not e.on_map or e.hex != o.hex:
        return
    weapon, _ = t.best_weapon(v, e, False)
    if weapon is not None:
        fire(t, ctx, v, e, weapon, "overruns")
    else:
        ctx.say("overrun", f"{v.id} has no weapon left to attack {e.id} (13.2)", "13.2")
    if not o.riders:
        return
    for p in overrun_riders(t, v):
        if not e.on_map:
            break
        w, _ = t.best_weapon(p, e, False)
        if w is not None:
            p.attacked = True  # 13.2.3: no unloading, no other attack this phase
            fire(t, ctx, p, e, w, "attacks from the overrun at")


def _overrun_out(t: Table, ctx: MakCtx, v: UnitState, o: Overrun) -> None:
    """13.2.1-13.2.2: out through the opposite hexside; it may move on with what is left."""
    out = t.hex_of(o.through)
    cost = entry_cost(t.field, t.stats(v), t.hex_of(o.hex), out)
    if cost is None or t.in_hex(out, other(v.side)) or t.stacking(v.side, o.through, [v]) is not None:
        ctx.say("overrun", f"{v.id} cannot leave into {o.through} and stays in {o.hex} (13.2.2)", "13.2.2")
        return
    crossed = step(t, ctx, v, o.hex, o.through)  # 19.1.4: out of one minefield, into another
    if crossed in STOPPED:
        if v.on_map:
            v.move_done = True
            ctx.say("overrun", f"{v.id} is stopped in {o.hex} by the minefield (19.1.3)", "19.1.3")
        return
    v.mp_spent += cost
    v.move_done = v.move_done or crossed == "held"
    ctx.state.marks.append(Mark(kind="move", hexes=[o.hex, o.through], side=v.side, text=f"{v.id} through"))
    v.hex = o.through
    vehicles.carry_along(ctx.state, v)
    ctx.state.moving = v.id
    ctx.say("overrun", f"{v.id} drives out into {o.through} ({v.mp_spent:g} of {t.stats(v).movement} MP); "
                       f"the units in {o.hex} do not fire at it again (13.2.1)", "13.2.1")
    arrive(t, ctx, v)
    # 7.2.4: other enemies next to the new hex may fire as at any move (not those overrun)
    near = [e for n in neighbours(out) if n != t.hex_of(o.hex) for e in t.in_hex(n, other(v.side))]
    if near and any(_able(t, e, [v], ignore_pin=True) for e in near):
        open_window(t, ctx, "move", [v], near)
