"""The air war and the pilots in play (10.0, 18.0): their orders and the rules they run.

* The Air Commitment phase (4.0 1, 10.1) opens each turn in which a side has aircraft in the
  air: each side ``commit``s its aircraft (air, ground, none, withdraw), then ``commit`` alone;
  the assignments are shown only once both are done.  Then the dog-fight (10.2), the
  breakthrough (10.3), and the air combat units go to "Used".
* In its phase a side uses its ground-mission aircraft: ``airstrike`` (10.4; the enemy then
  ``flak``s or ``pass``es, then each aircraft ``strafe``s a unit of the hex), spotting for
  ``indirect`` (10.5, the aircraft named as spotter), ``land`` (10.6; ``way:up`` takes off again, 10.6.2).
* Pilots (18.0): modifiers in every Attack Target (``table.py``), ``recruit`` and ``train``
  (18.3, option ``creation``), escaping (18.2, option ``escape``) when a piloted unit is hit.
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator

from rules.core import secrets
from rules.core.errors import RuleError
from rules.core.hexes import distance, within
from rules.core.orders import Ctx, order
from rules.mak import air_actions as AA
from rules.mak import air_legal as AL
from rules.mak import concealment, pilots
from rules.mak import escape as escapes
from rules.mak.resolve import arrive, finish_moving
from rules.mak.reveals import DUTY_WORDS
from rules.mak.air import (
    EMERGENCY_RANGE,
    LANDING_ENDURANCE,
    breakers,
    breakthrough,
    breakthrough_count,
    dogfight,
    flak_target,
    flying_result,
)
from rules.mak.air_view import SPACES
from rules.mak.aircrew import AirStrike
from rules.mak.hidden_state import tell
from rules.mak.combat import AttackTarget, attack_target, roll_damage, roll_hit
from rules.mak.damage import apply_result, down, expend_attack, pilot_damage
from rules.mak.data import ScenarioSpec, WeaponStats, unit_stats
from rules.mak.state import SIDE_NAMES, SIDES, MakState, Mark, UnitState, other
from rules.mak.refusals import refuse
from rules.mak.table import Table, darkness, flak_modifiers
from rules.mak.turn import start_phase

MakCtx = Ctx[MakState]


def _keep(problem: Any, t: Table, side: str, candidates: Iterable[Any]) -> list[Any]:
    """The candidate orders ``problem`` finds nothing wrong with (offers = legality)."""
    return [o for o in candidates if problem(t, side, o) is None]


# -- setting up --------------------------------------------------------------------------------


def setup_crews(state: MakState, spec: ScenarioSpec, escape: bool, creation: bool) -> None:
    """Riders aboard their Hornisse (10.6) and pilots seated by the crew codes (18.1.3)."""
    state.crew.escape, state.crew.creation = escape, creation
    state.attacker = spec.attacker
    for side in spec.sides:
        letter = side.key[0].upper()
        counts: dict[str, int] = {}
        for line in side.forces:
            ids = []
            for _ in range(line.count):
                counts[line.unit] = counts.get(line.unit, 0) + 1
                ids.append(f"{letter}-{line.unit}{counts[line.unit]}")
            if line.rider:
                for uid in ids:
                    rider = UnitState(id=f"{uid}-{line.rider}", type=line.rider, side=side.key,
                                      deploy=line.deploy, status="aboard")
                    state.units.append(rider)
                    state.unit(uid).rider = rider.id
            pilots.crew_line(state, side.key, [state.unit(u).rider or u for u in ids], line.crew)


def air_phase(state: MakState) -> str | None:
    """The phase of the air war the game is in, if any."""
    if state.phase == "air":
        return "air"
    st = state.air.strike
    if st is not None:
        return "flak" if st.stage == "flak" else "strafe"
    return None


# -- losses ------------------------------------------------------------------------------------


# -- the air war (10.2, 10.3) ------------------------------------------------------------------


def _ratings(state: MakState, group: list[UnitState]) -> list[tuple[str, int]]:
    return [(u.id, pilots.air_rating(state, u, unit_stats(u.type))) for u in group]


def _rating_words(state: MakState, side: str, group: list[UnitState]) -> str:
    """``Mercenary M-Falke1 4 +2 Conan = 6``: each unit's dog-fight rating with the pilot
    who modifies it (18.1.1; 18.1.3: "show which pilot is involved")."""
    parts = []
    for u in group:
        p = pilots.pilot_of(state, u)
        mod = f" {p.dogfight:+d} {p.name.split()[-1]}" if p is not None and p.dogfight else ""
        parts.append(f"{u.id} {unit_stats(u.type).dogfight or 0}{mod}")
    total = sum(r for _, r in _ratings(state, group))
    return f"{SIDE_NAMES[side]} {', '.join(parts)} = {total}"


def fight_air_war(t: Table, ctx: MakCtx) -> None:
    """10.1.1: both sides committed: reveal, dog-fight, breakthrough, then the first phase."""
    s = ctx.state
    ctx.reveals = True
    for key in s.air.sealed:  # 10.1.1: "the assignments are compared"
        ctx.unseal(key, 0, "both sides have assigned their aircraft (10.1.1)")
    s.air.sealed = []
    s.marks = []  # the air war is fought off the map: the picture that follows is the whole map
    for side in SIDES:
        spaces = {d: [u.id for u in AL.aircraft(t, side, d)] for d in ("air", "ground", "ready", "withdrawn")}
        gone = f"; withdrawn {', '.join(spaces['withdrawn'])} (10.1.4)" if spaces["withdrawn"] else ""
        listed = {d: ", ".join(ids) or "none" for d, ids in spaces.items()}
        ctx.say("commit", f"{SIDE_NAMES[side]}: Air Combat {listed['air']}; Ground Combat "
                          f"{listed['ground']}; not flying {listed['ready']}{gone} (10.1.1)", "10.1.1")
        for u in AL.aircraft(t, side, "withdrawn"):
            u.status = "withdrawn"  # 10.1.4: it leaves the battle
    fighters = _dogfight(ctx, {side: AL.aircraft(t, side, "air") for side in SIDES})
    for side in SIDES:
        _break_through(t, ctx, side, fighters)
    for side in SIDES:
        for u in AL.aircraft(t, side, "air"):
            s.air.duty[u.id] = "used"  # 10.1.3: their duty is done
    s.phase = "first"
    s.active = s.first
    ctx.say("phase", f"{SIDE_NAMES[s.active]} phase (4.0)", "4.0")
    start_phase(t, ctx)
    ctx.snapshot = True


def _dogfight(ctx: MakCtx, fighters: dict[str, list[UnitState]]) -> dict[str, list[UnitState]]:
    """10.2: when both sides fly Air Combat missions, one dog-fight; the losses are destroyed
    (10.2.2).  The fighters still in the air after it."""
    s = ctx.state
    if not all(fighters.values()):
        return fighters
    ctx.say("dogfight", "Dog-fight ratings: " + "; ".join(_rating_words(s, side, fighters[side]) for side in SIDES)
            + " (10.2.1, 18.1.1)", "10.2.1")
    die = ctx.dice.die(6, "dog-fight")
    df = dogfight({side: _ratings(s, fighters[side]) for side in SIDES}, s.attacker or s.first, die)
    ctx.say("dogfight", f"Dog-fight: {df.text()} (10.2.1); lost units are destroyed (10.2.2)", "10.2.1")
    for side in SIDES:
        for uid in df.lost[side]:
            down(ctx, s.unit(uid))
    return {side: [u for u in fighters[side] if u.status == "aloft"] for side in SIDES}


def _break_through(t: Table, ctx: MakCtx, side: str, fighters: dict[str, list[UnitState]]) -> None:
    """10.3: ``side``'s fighters beyond the enemy's break through to its ground-mission aircraft."""
    s = ctx.state
    k = breakthrough_count(len(fighters[side]), len(fighters[other(side)]))
    targets = AL.aircraft(t, other(side), "ground")
    if not k:
        return
    if not targets:
        ctx.say("breakthrough", f"{SIDE_NAMES[side]} could break through with {k}, but no enemy aircraft "
                                f"is on a ground mission (10.3)", "10.3")
        return
    through = breakers(_ratings(s, fighters[side]), k)
    ctx.say("breakthrough", f"Breakthrough ratings: {_rating_words(s, side, [s.unit(u) for u, _ in through])}; "
                            f"the defence 0 (10.3.1, 18.1.1)", "10.3.1")
    die = ctx.dice.die(6, "breakthrough")
    bt = breakthrough(side, through, _ratings(s, targets), die)
    ctx.say("breakthrough", f"{SIDE_NAMES[side]} break through with {', '.join(u for u, _ in through)}: "
                            f"{bt.text()}; damage at once (10.3.1, 10.3.2)", "10.3")
    for group in bt.lost.values():
        for uid in group:
            down(ctx, s.unit(uid))



# -- air-to-ground (10.4) ----------------------------------------------------------------------


def _open_strike(t: Table, ctx: MakCtx, st: AirStrike) -> None:
    ctx.state.air.strike = st
    if AL.flak_defenders(t):
        names = ", ".join(d.id for d in AL.flak_defenders(t))
        ctx.say("flak", f"{SIDE_NAMES[other(ctx.state.active)]} may fire at the aircraft with {names}: "
                        f"air flak for each that fires, pass to fire no more (10.4.1 2)", "10.4.1")
        return
    _after_flak(t, ctx)


def flak_attack(t: Table, d: UnitState, a: UnitState) -> tuple[WeaponStats, AttackTarget]:
    """10.4.3: the defender's strongest weapon able to fire defensively against the aircraft's
    defence, with the pilots' modifiers and darkness (19.3) and nothing else (``d`` must have
    a weapon)."""
    weapon = max(t.weapons(d, True), key=lambda w: w.attack)
    return weapon, flak_target(weapon.attack, t.stats(a).defense, flak_modifiers(t, d, a))


def strafe_attack(t: Table, a: UnitState, e: UnitState) -> tuple[WeaponStats, AttackTarget] | None:
    """10.4.2: the aircraft's best weapon against ``e``: terrain (and position, and an
    immobilised target's +2) count, range does not; the pilots' modifiers (18.1.2) and, at
    night, darkness (19.3: the aircraft is a manned unit fighting)."""
    best = None
    for w in t.weapons(a, False):
        at = attack_target(t.field, attack=w.attack, weapon=w.type, source=None, target_hex=t.hex(e),
                           target=t.stats(e), immobilized=e.immobilized, position=t.position_of(e),
                           use_range=False)
        at.modifiers += pilots.modifiers(t.s, a, e) + darkness(t, a)
        if best is None or at.value > best[1].value:
            best = (w, at)
    return best


MISSIONS = {"air": "air · Air Combat Mission (dog-fight, 10.2)",
            "ground": "ground · Ground Combat Mission (attack, spot or land, 10.1.2)",
            "none": "none · does not fly this turn",
            "withdraw": "withdraw · leaves the battle for good (10.1.4)"}


def air_label(t: Table, action: str, field: str, value: str, partial: dict[str, Any],
              side: str | None = None) -> str | None:
    """Autocomplete labels of the air orders: aircraft with their duty (during the secret
    assignment only to their own side), the missions, the roll needed by flak and strafing,
    the units in a hex to attack; None where the usual label serves."""
    fixed = _joined_label(action, field, value)
    if fixed is not None:
        return fixed
    u = t.s.find(value) if field in ("unit", "units", "target", "rider", "spotter") else None
    if u is not None:
        return _aircraft_target_label(t, action, field, u, partial) or _aloft_label(t, u, side)
    return _hex_label(t, action, field, value, side)


def _joined_label(action: str, field: str, value: str) -> str | None:
    """The words for a mission (10.1.2) and for aircraft flying together (10.4.1, 10.6)."""
    if field == "mission" and action == "air commit":
        return MISSIONS.get(value)
    if field == "units" and action == "air strike" and "," in value:
        return f"{value.replace(',', ' + ')} together (10.4.1)"
    if action == "air land" and field in ("unit", "at") and "," in value:
        return f"{value.replace(',', ' + ')} · together, in adjacent hexes (10.6)"
    return None


def _aircraft_target_label(t: Table, action: str, field: str, u: UnitState,
                           partial: dict[str, Any]) -> str | None:
    """A target of anti-aircraft fire (10.4.3) or strafing (10.4.2) with the roll it needs."""
    shooter = t.s.find(str(partial.get("unit") or ""))
    if field != "target" or shooter is None or action not in ("air flak", "air strafe"):
        return None
    if action == "air flak" and t.weapons(shooter, True):
        return f"{u.id} ({unit_stats(u.type).name}) · needs {flak_attack(t, shooter, u)[1].value} ({t.s.method})"
    best = strafe_attack(t, shooter, u) if action == "air strafe" and u.on_map else None
    if best is None:
        return None
    return f"{u.id} ({unit_stats(u.type).name}) {u.hex} · needs {best[1].value} ({t.s.method})"


def _aloft_label(t: Table, u: UnitState, side: str | None) -> str | None:
    """An aircraft in the air with its duty, which is secret from the enemy during the air
    commitment (10.1.1)."""
    if u.status != "aloft":
        return None
    hidden = t.s.phase == "air" and u.side != side
    space = SPACES.get(t.s.air.duty.get(u.id, "ready"), "withdrawn")
    duty = "" if hidden else f" · {space}"
    return f"{u.id} ({unit_stats(u.type).name}) in the air{duty}"


def _hex_label(t: Table, action: str, field: str, value: str, side: str | None) -> str | None:
    """A hex to strike with the units seen there (10.4.1), or to land in (10.6.3)."""
    if action == "air strike" and field == "hex":
        return f"{value} · {', '.join(concealment.seen_in(t.s, side, value)) or 'empty'}"
    if action == "air land" and field == "at" and t.s.at(value):
        enemy = any(x.side != t.s.active for x in t.s.at(value))
        return f"{value} · {'enemy there: anti-aircraft fire (10.6.3)' if enemy else 'with your units'}"
    return None


def _resolve_flak(t: Table, ctx: MakCtx) -> None:
    """10.4.1 2: the declared anti-aircraft attacks, resolved "in the same manner as direct
    fire", "not modified by terrain or range" (10.4.3); ammunition limits (10.4.6)."""
    s = ctx.state
    st = s.air.strike
    assert st is not None
    special = st.purpose != "attack"
    for did, aid in st.flak.items():
        d, a = s.unit(did), s.unit(aid)
        weapons = t.weapons(d, True)
        if a.status == "destroyed" or not weapons or not d.on_map:
            ctx.say("flak", f"{did} does not fire: {aid} is down or it cannot fire now (10.4.1)", "10.4.1")
            continue
        weapon, at = flak_attack(t, d, a)
        hit = roll_hit(ctx.dice, at.value, s.method, f"{did} anti-aircraft at {aid}")
        text = f"{did} ({weapon.type.value}) fires at {aid}: target {at.text()}; 🎲 {hit.text()}"
        if hit.hit:
            endurance = LANDING_ENDURANCE if special else t.stats(a).endurance
            damage = roll_damage(ctx.dice, endurance, hit, f"{aid} endurance")
            if damage.result == "M" and a.rider and not special:
                text += f"; {damage.text()} → {_emergency_landing(t, ctx, a, st.hex)}"
            else:
                result = flying_result(damage.result, special)
                text += f"; {damage.text()} → {_hit_aircraft(t, ctx, a, result, st.hex)}"
        text += expend_attack(t, ctx, d, weapon, hit.dice)
        rule = "10.6.3" if special else "10.4.3"
        ctx.say("flak", text + f" ({rule})", rule, attacker=did, target=aid, hit=hit.hit)
        s.marks.append(Mark(kind="fire" if hit.hit else "miss", hexes=[st.hex], side=d.side, text=f"flak at {aid}"))
    _after_flak(t, ctx)


def emergency_hex(t: Table, a: UnitState, over: str) -> str | None:
    """5.1.2: "the Hornisse has the ability to land within 5 hexes": of the hex it was over,
    a hex its rider can enter, free of enemy units and within the stacking limit; the one
    farthest from the nearest enemy, then the nearest to ``over``, then the first by number
    (our choice for the player: the book says only "within 5 hexes")."""
    rider = t.s.unit(a.rider or "")
    centre = t.hex_of(over)
    enemies = [t.hex(e) for e in t.on_map(other(a.side))]
    costs = t.field.base_costs(t.stats(rider).move_form, t.stats(rider).unit_class)
    best: tuple[int, int, str] | None = None
    for h in within(centre, EMERGENCY_RANGE):
        label = t.label(h) if t.field.contains(h) else None
        if label is None or costs.get(h) is None or t.in_hex(h, other(a.side)):
            continue
        if t.stacking(a.side, label, [a, rider]) is not None:
            continue
        away = min((distance(h, e) for e in enemies), default=99)
        key = (-away, distance(h, centre), label)
        if best is None or key < best:
            best = key
    return best[2] if best else None


def _emergency_landing(t: Table, ctx: MakCtx, a: UnitState, over: str) -> str:
    """5.1.2: an immobilised Hornisse lands within 5 hexes and separates; the PK41 stays
    immobilised on the ground.  With no such hex it is destroyed."""
    label = emergency_hex(t, a, over)
    if label is None:
        down(ctx, a)
        return "Immobilized: no hex to land in within 5, destroyed (5.1.2)"
    rider = a.rider
    _land_now(t, ctx, a, label, keep_strike=True)
    a.immobilized = True
    return f"Immobilized: lands in {label} and separates from {rider} (5.1.2, 10.6.1)"


def _hit_aircraft(t: Table, ctx: MakCtx, a: UnitState, result: str, where: str) -> str:
    """5.1.2 for a flying unit: D (and M) destroy it, A disarms it."""
    if result == "-":
        return "no effect"
    special, note = pilot_damage(t, ctx, a, result, where)
    if special:
        return special
    if result == "D":
        down(ctx, a)
        return "destroyed (5.1.2)" + (f"; {note}" if note else "")
    a.disarmed = True
    return "Arm. Disabled" + (f"; {note}" if note else "")


def _after_flak(t: Table, ctx: MakCtx) -> None:
    s = ctx.state
    st = s.air.strike
    assert st is not None
    if st.purpose == "land":
        _land_now(t, ctx, s.unit(st.aircraft[0]), st.hex)
        _next_landing(t, ctx)
        return
    if st.purpose == "launch":
        _take_off(ctx, s.unit(st.aircraft[0]))
        return
    st.stage = "strafe"
    if not AL.strafe_attackers(t) or not [e for e in s.at(st.hex) if e.side != s.active]:
        _finish_strike(ctx)
        return
    ids = ", ".join(a.id for a in AL.strafe_attackers(t))
    ctx.say("strafe", f"{ids} over {st.hex}: air strafe each at a unit there (10.4.1 3)", "10.4.1")


def _resolve_strafe(t: Table, ctx: MakCtx) -> None:
    """10.4.1 3: "After declaring which units are attacking which targets, all attacks are
    resolved"; modified by terrain, not by range (10.4.2); ammunition limits (10.4.6)."""
    s = ctx.state
    st = s.air.strike
    assert st is not None
    for aid, eid in st.strafe.items():
        a, e = s.unit(aid), s.unit(eid)
        if not e.on_map or e.hex != st.hex:
            ctx.say("strafe", f"{aid}: {eid} is no longer in {st.hex}; the attack is lost (10.4.1)", "10.4.1")
            continue
        best = strafe_attack(t, a, e)
        if best is None:
            continue
        weapon, at = best
        hit = roll_hit(ctx.dice, at.value, s.method, f"{aid} attacks {eid}")
        text = f"{aid} ({weapon.type.value}) attacks {eid} from the air: target {at.text()}; 🎲 {hit.text()}"
        if hit.hit:
            damage = roll_damage(ctx.dice, t.stats(e).endurance, hit, f"{eid} endurance")
            outcome = apply_result(t, ctx, e, damage.result)
            text += f"; {damage.text()} → {outcome}"
            if e.status == "destroyed":
                pilots.credit_kill(s, a, e)
        text += expend_attack(t, ctx, a, weapon, hit.dice)
        ctx.say("strafe", text + " (10.4.2)", "10.4.2", attacker=aid, target=eid, hit=hit.hit)
        s.marks.append(Mark(kind="fire" if hit.hit else "miss", hexes=[st.hex], side=a.side, text=f"{aid} at {eid}"))
    _finish_strike(ctx)


def _finish_strike(ctx: MakCtx) -> None:
    """10.4.1 4: "Once its attack is complete, the aeronautical unit is placed in the 'Used'
    space on the duty chart"."""
    s = ctx.state
    st = s.air.strike
    assert st is not None
    for aid in st.aircraft:
        if s.unit(aid).status == "aloft":
            s.air.duty[aid] = "used"
    s.air.strike = None
    ctx.say("strike", f"The air strike on {st.hex} is over; the aircraft go to Used (10.4.1 4)", "10.4.1")
    ctx.snapshot = True


# -- landing and launching (10.6) --------------------------------------------------------------


def _land_now(t: Table, ctx: MakCtx, u: UnitState, hex_: str, keep_strike: bool = False) -> None:
    """10.6.1: "When it lands, it immediately separates ... The detached PKA cannot move or
    attack in the current phase"."""
    s = ctx.state
    if not keep_strike:
        s.air.strike = None
    if u.status != "aloft" or u.rider is None:
        ctx.snapshot = True
        return
    rider = s.unit(u.rider)
    u.status, u.hex, u.rider = "on", hex_, None
    rider.status, rider.hex = "on", hex_
    rider.moved = rider.move_done = rider.attacked = True
    u.moved = u.move_done = u.attacked = True
    s.air.duty.pop(u.id, None)
    s.air.landed[rider.id] = s.turn
    ctx.say("land", f"{u.id} lands in {hex_} and separates: {rider.id} cannot move or attack this phase (10.6.1)",
            "10.6.1")
    if any(e.side != u.side for e in s.at(hex_)):
        ctx.say("land", f"{hex_}: close quarters from the next phase (10.6.3)", "10.6.3")
    s.marks.append(Mark(kind="move", hexes=[hex_], side=u.side, text=f"{u.id} lands"))
    arrive(t, ctx, rider)
    ctx.snapshot = True


def _next_landing(t: Table, ctx: MakCtx) -> None:
    """10.6: the Hornisse still to land, in the order named; 10.6.3: one coming down into an
    enemy hex first takes the anti-aircraft fire of the units there (the rest wait for it)."""
    s = ctx.state
    while s.air.landings:
        uid, label = s.air.landings.pop(0)
        u = s.unit(uid)
        if any(e.side != u.side for e in s.at(label)):
            ctx.say("land", f"{u.id} comes in to land in the enemy hex {label} (10.6.3)", "10.6.3")
            _open_strike(t, ctx, AirStrike(hex=label, aircraft=[u.id], purpose="land"))
            if s.air.strike is not None:
                return
            continue
        _land_now(t, ctx, u, label)


def _take_off(ctx: MakCtx, u: UnitState) -> None:
    """10.6.2: "The launching Hornisse is placed in the 'Used' space of the duty chart"."""
    s = ctx.state
    s.air.strike = None
    if u.status != "on" or u.rider is None:
        ctx.snapshot = True
        return
    rider = s.unit(u.rider)
    here = u.hex
    u.status, u.hex = "aloft", None
    rider.status, rider.hex = "aboard", None
    s.air.duty[u.id] = "used"
    ctx.say("launch", f"{u.id} takes off from {here} with {rider.id} aboard; to Used (10.6.2)", "10.6.2")
    ctx.snapshot = True


# -- status lines ------------------------------------------------------------------------------


def air_status(state: MakState) -> list[str]:
    """The duty chart (only the spaces both sides may see) and the pilots, for /game status."""
    out = []
    hidden = state.phase == "air"
    for side in SIDES:
        flying = [u for u in state.units if u.side == side and u.status == "aloft"]
        if flying:
            if hidden:
                out.append(f"{SIDE_NAMES[side]} aircraft: {', '.join(u.id for u in flying)} (being assigned)")
            else:
                out.append(f"{SIDE_NAMES[side]} duty chart: " + ", ".join(  # the panel's words
                    f"{u.id} {SPACES.get(state.air.duty.get(u.id, 'ready'), 'not flying')}" for u in flying))
        if pilots.without_command(state, side):
            out.append(f"{SIDE_NAMES[side]} is without a command unit (scenario notes b).")
    for p in state.crew.pilots.values():
        out.append(f"{SIDE_NAMES[p.side]} pilot {p.number} {p.name} ({p.rank}) "
                   f"{p.attack:+d}/{p.defence:+d}/{p.dogfight:+d}: {p.status} {p.unit or ''}".rstrip())
    return out


# -- the orders --------------------------------------------------------------------------------


def commit_offers(state: MakState, side: str) -> Iterator[Any]:
    """10.1.1: each aircraft's missions, and done."""
    yield from AL.commit_offers(Table(state), side)


@order(AA.Commit, phases="air", offers=commit_offers)
def commit(ctx: MakCtx, o: AA.Commit) -> None:
    """10.1.1: the aircraft is put in a space of the duty chart (not shown until both
    sides are ready); ``commit`` alone: "Once both players are finished assigning their
    units, the assignments are compared"."""
    t = Table(ctx.state)
    refuse(AL.commit_problem(t, ctx.side, o))
    if o.done:
        ctx.state.air.committed.append(ctx.side)
        ctx.say("commit", f"{SIDE_NAMES[ctx.side]} has assigned its aircraft (10.1.1)", "10.1.1")
        if len(ctx.state.air.committed) == len(SIDES):
            fight_air_war(t, ctx)
        return
    u = ctx.state.find(o.unit or "")
    assert u is not None
    # 10.1.4: a withdrawal is part of the secret assignment (4.0 1): it takes effect,
    # and is said, when both sides are ready (fight_air_war).
    mission = o.mission or "none"
    ctx.state.air.duty[u.id] = {"none": "ready", "air": "air", "ground": "ground",  # type: ignore[assignment]
                                "withdraw": "withdrawn"}[mission]
    ctx.state.seals += 1
    key = f"air:{ctx.state.turn}:{ctx.side}:{ctx.state.seals}"
    ctx.state.air.sealed.append(key)
    ctx.seal(key, ctx.side, "assigned an aircraft on the duty chart (10.1.1)",
             [secrets.item(mission=mission, unit=u.id)])
    space = DUTY_WORDS[mission]
    tell(ctx, ctx.side, "commit", f"{u.id}: {space}; shown to your opponent when both are ready (10.1.1)",
         "10.1.1")


def airstrike_offers(state: MakState, side: str) -> list[Any]:
    """10.4.1: the air strikes the ground-mission aircraft may fly now."""
    return list(AL.strike_offers(Table(state), side))


@order(AA.Airstrike, phases="act", offers=airstrike_offers)
def airstrike(ctx: MakCtx, o: AA.Airstrike) -> None:
    """10.4.1 1: the aircraft are placed over the hex; the anti-aircraft fire comes first."""
    t = Table(ctx.state)
    found = AL.strike_units(t, ctx.side, o)
    if isinstance(found, str):
        raise RuleError(found)
    finish_moving(ctx.state)
    label = t.label(t.hex_of(o.hex.strip()))
    ctx.say("strike", f"{', '.join(u.id for u in found)} attack {label} from the air (10.4.1)", "10.4.1")
    if ctx.state.concealment is not None:  # 15.4.1: the aircraft over the hex see what is there
        concealment.lift(ctx, other(ctx.side), label, f"seen by {found[0].id} over the hex (10.4.1, 15.4.1)")
    ctx.state.marks.append(Mark(kind="blast", hexes=[label], side=ctx.side, text="air strike"))
    ctx.snapshot = True
    _open_strike(t, ctx, AirStrike(hex=label, aircraft=[u.id for u in found]))


def flak_offers(state: MakState, side: str) -> list[Any]:
    """10.4.1 2: each anti-aircraft defender's shots at the aircraft over the hex."""
    t = Table(state)
    st = state.air.strike
    if st is None:
        return []
    return _keep(AL.flak_problem, t, side,
                 (AA.Flak(unit=d.id, target=a) for d in AL.flak_defenders(t) for a in st.aircraft))


@order(AA.Flak, phases="flak", offers=flak_offers)
def flak(ctx: MakCtx, o: AA.Flak) -> None:
    """10.4.1 2: declared now, resolved together once every unit has declared (or pass)."""
    t = Table(ctx.state)
    refuse(AL.flak_problem(t, ctx.side, o))
    st = ctx.state.air.strike
    assert st is not None
    d = ctx.state.find(o.unit)
    a = next(x for x in st.aircraft if x.lower() == o.target.strip().lower())
    assert d is not None
    st.flak[d.id] = a
    ctx.say("flak", f"{d.id} will fire at {a} (10.4.1 2)", "10.4.1")
    if not AL.flak_defenders(t):
        _resolve_flak(t, ctx)


def strafe_offers(state: MakState, side: str) -> list[Any]:
    """10.4.1 3: each surviving aircraft's targets in the hex."""
    t = Table(state)
    st = state.air.strike
    if st is None:
        return []
    return [AA.Strafe(unit=a.id, target=e.id) for a in AL.strafe_attackers(t)
            for e in state.at(st.hex) if e.side != side]


@order(AA.Strafe, phases="strafe", offers=strafe_offers)
def strafe(ctx: MakCtx, o: AA.Strafe) -> None:
    """10.4.1 3: each surviving aircraft names its target; then all are resolved."""
    t = Table(ctx.state)
    refuse(AL.strafe_problem(t, ctx.side, o))
    st = ctx.state.air.strike
    assert st is not None
    a, e = ctx.state.find(o.unit), ctx.state.find(o.target)
    assert a is not None and e is not None
    st.strafe[a.id] = e.id
    ctx.say("strafe", f"{a.id} will attack {e.id} (10.4.1 3)", "10.4.1")
    if not AL.strafe_attackers(t):
        _resolve_strafe(t, ctx)


def land_offers(state: MakState, side: str) -> list[Any]:
    """10.6: the landings and take-offs legal now."""
    t = Table(state)
    return list(AL.land_offers(t, side)) + list(AL.launch_offers(t, side))


@order(AA.Land, phases="act", offers=land_offers)
def land(ctx: MakCtx, o: AA.Land) -> None:
    """10.6: lands and separates; in an enemy hex the enemy fires first (10.6.3).  With
    way up, they join and take off (10.6.2); an enemy in the hex fires first (10.6.4)."""
    if o.way == "up":
        launch(ctx, o)
        return
    t = Table(ctx.state)
    refuse(AL.land_problem(t, ctx.side, o))
    plan = AL.landings(t, ctx.side, o)
    assert not isinstance(plan, str)
    finish_moving(ctx.state)
    if len(plan) > 1:
        ctx.say("land", f"{', '.join(u.id for u, _ in plan)} come down together in adjacent hexes (10.6)", "10.6")
    ctx.state.air.landings = [(u.id, label) for u, label in plan]
    _next_landing(t, ctx)


def launch(ctx: MakCtx, o: AA.Land) -> None:
    """10.6.2: they join and take off; with an enemy in the hex it fires first (10.6.4)."""
    t = Table(ctx.state)
    refuse(AL.launch_problem(t, ctx.side, o))
    u, r = ctx.state.find(o.unit), ctx.state.find(o.rider or "")
    assert u is not None and r is not None and u.hex is not None
    finish_moving(ctx.state)
    u.rider = r.id
    if any(e.side != ctx.side for e in ctx.state.at(u.hex)):
        ctx.say("launch", f"{u.id} and {r.id} take off under enemy fire (10.6.4)", "10.6.4")
        _open_strike(t, ctx, AirStrike(hex=u.hex, aircraft=[u.id], purpose="launch"))
        return
    _take_off(ctx, u)


def recruit_offers(state: MakState, side: str) -> list[Any]:
    """18.3.1: with option creation, each unit's recruit, by the ability favoured."""
    t = Table(state)
    if not state.crew.creation:
        return []
    return _keep(AL.recruit_problem, t, side, (AA.Recruit(unit=u.id, favour=f)  # type: ignore[arg-type]
                                               for u in state.units if u.side == side
                                               for f in ("attack", "defence", "even")))


@order(AA.Recruit, phases="act", offers=recruit_offers)
def recruit(ctx: MakCtx, o: AA.Recruit) -> None:
    """18.3.1: "Roll a single die twice. The first determines the ground combat ability.
    The second determines the dog-fighting modifier"."""
    t = Table(ctx.state)
    refuse(AL.recruit_problem(t, ctx.side, o))
    u = ctx.state.find(o.unit)
    assert u is not None
    g_die = ctx.dice.die(6, f"{u.id} recruit ground")
    d_die = ctx.dice.die(6, f"{u.id} recruit dog-fight")
    ground, dog = pilots.recruit_values(g_die, d_die)
    attack, defence = pilots.divide(ground, o.favour)
    number = 100 + sum(1 for p in ctx.state.crew.pilots.values() if p.side == ctx.side and p.recruited) + 1
    p = pilots.PilotState(side=ctx.side, number=number, name=f"Recruit {number - 100}", rank="Private",  # type: ignore[arg-type]
                          rank_points=1, attack=attack, defence=defence, dogfight=dog, unit=u.id, recruited=True)
    ctx.state.crew.pilots[pilots.key(ctx.side, number)] = p
    u.pilot = number
    ctx.say("recruit", f"{p.name} joins {u.id}: 🎲 {g_die} ground {ground:+d} ({attack:+d}/{defence:+d}), "
                       f"🎲 {d_die} dog-fight {dog:+d} (18.3.1)", "18.3.1")


def train_offers(state: MakState, side: str) -> list[Any]:
    """18.3.3: with option creation, each pilot's abilities to raise."""
    t = Table(state)
    if not state.crew.creation:
        return []
    return _keep(AL.train_problem, t, side, (AA.Train(unit=u.id, ability=a)  # type: ignore[arg-type]
                                             for u in state.units if u.side == side and u.pilot is not None
                                             for a in ("attack", "defence", "dogfight")))


@order(AA.Train, phases="act", offers=train_offers)
def train(ctx: MakCtx, o: AA.Train) -> None:
    """18.3.3: roll on the ability's column with one added to the die."""
    t = Table(ctx.state)
    refuse(AL.train_problem(t, ctx.side, o))
    u = ctx.state.find(o.unit)
    assert u is not None
    p = pilots.pilot_of(ctx.state, u)
    assert p is not None
    die = ctx.dice.die(6, f"{p.name} raise {o.ability}")
    amount = pilots.raise_amount(die, o.ability)
    before = getattr(p, o.ability)
    setattr(p, o.ability, pilots.raised(before, amount))
    p.raises += 1
    ctx.say("train", f"{p.name} raises {o.ability}: 🎲 {die}+1 → +{amount}: {before:+d} → "
                     f"{getattr(p, o.ability):+d} (18.3.3)", "18.3.3")


def escape_offers(state: MakState, side: str) -> list[Any]:
    """18.2.3-18.2.4: the pilots (on foot or carried) that may leave the map now."""
    t = Table(state)
    return _keep(escapes.escape_problem, t, side,
                 (AA.Escape(unit=u.id) for u in t.on_map(side)
                  if u.type == "Pilot" or escapes.carried_pilots(t, u)))


@order(AA.Escape, phases="act", offers=escape_offers)
def escape(ctx: MakCtx, o: AA.Escape) -> None:
    """18.2.3: through the area its side entered by, or towards its artillery, the pilot
    survives; "Leaving the board any other direction, the pilot gets lost and is captured".
    18.2.4: a vehicle transporting a pilot drives it off by such an edge."""
    t = Table(ctx.state)
    refuse(escapes.escape_problem(t, ctx.side, o))
    u = ctx.state.find(o.unit)
    assert u is not None and u.hex is not None
    escapes.leave(t, ctx, u)


def pass_flak(ctx: MakCtx) -> None:
    """``pass`` in the anti-aircraft stage: the declared attacks are resolved."""
    ctx.say("pass", f"{SIDE_NAMES[ctx.side]} declare no more anti-aircraft attacks (10.4.1 2)", "10.4.1")
    _resolve_flak(Table(ctx.state), ctx)
