"""Which air-war and pilot orders are legal now: one ``*_problem`` per order (10.0, 18.0).

As in ``legal.py``, the resolvers raise these sentences and the offers list exactly the
orders without one.
"""

from __future__ import annotations

from rules.core.hexes import Hex, distance, neighbours
from rules.mak import air_actions as AA
from rules.mak import pilots
from rules.mak.air import MAX_OVER_HEX, may_withdraw
from rules.mak.refusals import busy, own
from rules.mak.state import SIDE_NAMES, UnitState, other
from rules.mak.table import Table


def aircraft(t: Table, side: str, duty: str | None = None) -> list[UnitState]:
    """The side's aircraft in the air (on the duty chart), in a given space if named."""
    return [u for u in t.s.units if u.side == side and u.status == "aloft"
            and (duty is None or t.s.air.duty.get(u.id) == duty)]


def _aloft(t: Table, side: str, uid: str) -> UnitState | str:
    u = own(t, side, uid)
    if isinstance(u, str):
        return u
    if u.status != "aloft":
        return f"{u.id} is not an aircraft in the air."
    return u


def ground_duty_problem(t: Table, u: UnitState, rule: str) -> str | None:
    """10.1.2: an aircraft assigned to ground combat does one of its three missions (attack,
    spot, land); one that has done it is in the "Used" space (10.1.3, 10.5)."""
    duty = t.s.air.duty.get(u.id)
    if duty == "used":
        return (f"{u.id} has already flown its ground mission this turn (it is in the Used space): "
                f"an aircraft attacks, spots or lands once a turn (10.1.2, 10.1.3).")
    if duty != "ground":
        return f"{u.id} is not on a Ground Combat Mission now ({rule})."
    return None


# -- the Air Commitment phase (10.1) -----------------------------------------------------------


def commit_problem(t: Table, side: str, o: AA.Commit) -> str | None:
    """10.1.1 / 10.1.4: a side still committing assigns one of its aircraft."""
    if side in t.s.air.committed:
        return f"{SIDE_NAMES[side]} has already committed its aircraft this turn (10.1.1)."
    if o.done:
        return "Name a unit and a mission, or give 'air commit' alone when you are done (10.1.1)." \
            if o.mission else None
    u = _aloft(t, side, o.unit or "")
    if isinstance(u, str):
        return u
    if o.mission is None:
        return f"Give {u.id} a mission: air, ground, none or withdraw (10.1.1)."
    if o.mission == "withdraw" and not may_withdraw(t.s.air.arrived.get(u.id, t.s.turn), t.s.turn):
        return f"{u.id} may not be withdrawn before the first turn or in the turn it arrived (10.1.4)."
    return None


def commit_offers(t: Table, side: str) -> list[AA.Commit]:
    """Every assignment that changes an aircraft's space, and ``commit`` alone (done)."""
    if side in t.s.air.committed:
        return []
    now = {"ready": "none", "air": "air", "ground": "ground", "withdrawn": "withdraw"}
    out = [AA.Commit()]
    for u in aircraft(t, side):
        for mission in ("air", "ground", "none", "withdraw"):
            o = AA.Commit(unit=u.id, mission=mission)  # type: ignore[arg-type]
            if now.get(t.s.air.duty.get(u.id, "ready")) != mission and commit_problem(t, side, o) is None:
                out.append(o)
    return out


# -- air-to-ground (10.4) ----------------------------------------------------------------------


def _hex(t: Table, label: str) -> Hex | str:
    try:
        return t.hex_of(label.strip())
    except Exception:  # noqa: BLE001 - the parser's RuleError, said plainly
        return f"'{label[:12]}' is not a hex of this map (e.g. 5:0607)."


def strike_units(t: Table, side: str, o: AA.Airstrike) -> list[UnitState] | str:
    """10.4.1 1: up to four ground-mission aircraft able to attack, over one enemy hex."""
    names = _names(o.units)
    if not names:
        return "Name one to four of your ground-mission aircraft, e.g. units:M-Falke1 (10.4.1)."
    if len(names) > MAX_OVER_HEX:
        return f"At most {MAX_OVER_HEX} aircraft over one hex at once (10.4.1 1)."
    found: list[UnitState] = []
    for name in names:
        u = _aloft(t, side, name)
        if isinstance(u, str):
            return u
        if u in found:
            return f"{u.id} is named twice."
        why = ground_duty_problem(t, u, "10.1.2, 10.1.3")
        if why:
            return why
        if not t.weapons(u, False):
            return f"{u.id} has no weapon able to attack (10.4.6)."
        found.append(u)
    h = _hex(t, o.hex)
    if isinstance(h, str):
        return h
    if not t.in_hex(h, other(side)):
        return f"{t.label(h)} holds no enemy unit to attack (10.4)."
    if t.in_hex(h, side):
        return f"{t.label(h)} holds your own units: no attack into it (5.1.4)."
    return busy(t, found[0]) or found


def strike_offers(t: Table, side: str) -> list[AA.Airstrike]:
    """Each able aircraft alone over each enemy hex, and all of them together (10.4.1)."""
    able = [u for u in aircraft(t, side, "ground") if t.weapons(u, False)]
    if not able or busy(t, able[0]):
        return []
    hexes = sorted({e.hex for e in t.on_map(other(side)) if e.hex})
    hexes = [h for h in hexes if not any(x.side == side for x in t.s.at(h))]  # 5.1.4
    groups = [[u] for u in able] + ([able[:MAX_OVER_HEX]] if len(able) > 1 else [])
    return [AA.Airstrike(units=",".join(u.id for u in g), hex=h) for g in groups for h in hexes]


def flak_defenders(t: Table) -> list[UnitState]:
    """10.4.1 2: the anti-phase units in the hex that may still fire at the aircraft."""
    st = t.s.air.strike
    if st is None or st.stage != "flak":
        return []
    return [d for d in t.s.at(st.hex) if d.side != t.s.active and d.id not in st.flak
            and t.weapons(d, True)]


def flak_problem(t: Table, side: str, o: AA.Flak) -> str | None:
    """10.4.1 2: "each unit can only fire once, and only on a single aeronautical unit"."""
    st = t.s.air.strike
    if st is None or st.stage != "flak":
        return "No anti-aircraft attack is due now."
    able = {d.id.lower(): d for d in flak_defenders(t)}
    d = able.get(o.unit.strip().lower())
    if d is None:
        return f"Units that may fire at the aircraft: {', '.join(x.id for x in able.values()) or 'none'} (10.4.1)."
    targets = {a.lower(): a for a in st.aircraft if t.s.unit(a).status in ("aloft", "on")}
    if o.target.strip().lower() not in targets:
        return (f"{o.target.strip()[:20] or 'That'} is not over {st.hex}; {d.id} may fire at "
                f"{', '.join(targets.values())} (10.4.1 2).")
    return None


def strafe_attackers(t: Table) -> list[UnitState]:
    """10.4.1 3: the aircraft over the hex that survived, can attack, and have no target yet."""
    st = t.s.air.strike
    if st is None or st.stage != "strafe":
        return []
    return [t.s.unit(a) for a in st.aircraft if a not in st.strafe and t.s.unit(a).status == "aloft"
            and t.weapons(t.s.unit(a), False)]


def strafe_problem(t: Table, side: str, o: AA.Strafe) -> str | None:
    """10.4.1 3: each surviving aircraft names one unit in the target hex."""
    st = t.s.air.strike
    if st is None or st.stage != "strafe":
        return "No air-to-ground attack is due now."
    able = {a.id.lower(): a for a in strafe_attackers(t)}
    if o.unit.strip().lower() not in able:
        return f"Aircraft still to name a target: {', '.join(a.id for a in able.values()) or 'none'} (10.4.1)."
    targets = {e.id.lower(): e for e in t.s.at(st.hex) if e.side != side}
    if o.target.strip().lower() not in targets:
        return f"Units in {st.hex}: {', '.join(e.id for e in targets.values())} (10.4.1)."
    return None


# -- spotting (10.5) ---------------------------------------------------------------------------


def air_spot_problem(t: Table, spotter: UnitState, there: Hex) -> str | None:
    """10.5: "A single aeronautical unit assigned to ground combat may provide support for a
    single indirect attack, as a spotter" (from the air it sees the hex; our reading)."""
    why = ground_duty_problem(t, spotter, "10.5")
    if why:
        return why
    if not t.in_hex(there, other(spotter.side)):
        return f"{spotter.id} sees no enemy in {t.label(there)} (10.5)."
    return None


# -- landing and launching (10.6) --------------------------------------------------------------


def _names(text: str | None) -> list[str]:
    """``a,b`` -> ``["a", "b"]`` (blanks dropped)."""
    return [n.strip() for n in (text or "").split(",") if n.strip()]


def _lander(t: Table, side: str, uid: str) -> UnitState | str:
    """10.6: a Hornisse in the air on a Ground Combat Mission."""
    u = _aloft(t, side, uid)
    if isinstance(u, str):
        return u
    if u.rider is None:
        return f"{u.id} is not a Hornisse: only a PK41 carrying a PKA lands (10.6)."
    return ground_duty_problem(t, u, "10.6") or u


def landings(t: Table, side: str, o: AA.Land) -> list[tuple[UnitState, str]] | str:
    """10.6 / 10.6.1 / 10.6.5: each Hornisse named with its landing hex (one hex for all, or one
    per unit in order).  "When stacked in flight, they can land in adjacent hexes" (10.6): the
    Hornisse named together fly as a stack, and each lands in the first hex named or one
    adjacent to it."""
    names = _names(o.unit)
    hexes = _names(o.at)
    if o.rider:
        return f"{o.unit.strip()[:30]} is flying: a rider boards only on the ground, with way up (10.6.2)."
    if not names:
        return "Name your Hornisse (PK41), e.g. unit:S-PK411 or unit:S-PK411,S-PK412 (10.6)."
    if not hexes:
        return f"Name the hex {', '.join(names)} lands in, e.g. at:5:1016 (10.6.1)."
    if len(hexes) not in (1, len(names)):
        return (f"Name one hex for all, or one hex for each Hornisse in order: {len(names)} units, "
                f"{len(hexes)} hexes (10.6).")
    plan: list[tuple[UnitState, str]] = []
    for name, label in zip(names, hexes * len(names) if len(hexes) == 1 else hexes):
        u = _lander(t, side, name)
        if isinstance(u, str):
            return u
        if any(u is x for x, _ in plan):
            return f"{u.id} is named twice."
        h = _hex(t, label)
        if isinstance(h, str):
            return h
        plan.append((u, t.label(h)))
    return _landing_problem(t, side, plan) or plan


def _landing_problem(t: Table, side: str, plan: list[tuple[UnitState, str]]) -> str | None:
    """10.6: adjacent hexes; 10.6.1: a hex the rider can enter; 10.6.5: stacking with both
    units of every Hornisse landing there."""
    centre = t.hex_of(plan[0][1])
    for u, label in plan:
        h = t.hex_of(label)
        if distance(h, centre) > 1:
            return (f"{u.id} cannot land in {label}: Hornisse stacked in flight land in adjacent hexes, "
                    f"{plan[0][1]} or next to it (10.6).")
        rider = t.s.unit(u.rider or "")
        if t.field.base_costs(t.stats(rider).move_form, t.stats(rider).unit_class).get(h) is None:
            return f"{u.id} cannot land in {label}: its {rider.type} cannot enter it (10.6.1)."
        group = [x for v, there in plan if there == label for x in (v, t.s.unit(v.rider or ""))]
        problem = t.stacking(side, label, group)
        if problem:
            return f"{u.id} cannot land in {label}: {problem} (10.6.5)."
    return None


def land_problem(t: Table, side: str, o: AA.Land) -> str | None:
    """10.6 / 10.6.1: Hornisse on a ground mission land in hexes their riders can enter,
    within the stacking limit with both units (10.6.5), adjacent when several land together."""
    plan = landings(t, side, o)
    if isinstance(plan, str):
        return plan
    return busy(t, plan[0][0])


def land_offers(t: Table, side: str) -> list[AA.Land]:
    """A sample of landing hexes: each hex with or next to an enemy unit, and each friendly
    hex (the resolver accepts any hex the rider can enter); with several Hornisse, all of them
    together around each such hex (10.6)."""
    flying = [u for u in aircraft(t, side, "ground") if u.rider is not None]
    near = {t.hex(e) for e in t.on_map()}
    near |= {n for e in t.on_map(other(side)) for n in neighbours(t.hex(e))}
    centres = [t.label(h) for h in sorted(near) if t.field.contains(h)]
    out = [AA.Land(unit=u.id, at=c) for u in flying for c in centres]
    if len(flying) > 1:
        out += [o for c in centres if (o := _stack_landing(t, side, flying, c)) is not None]
    return [o for o in out if land_problem(t, side, o) is None]


def _stack_landing(t: Table, side: str, flying: list[UnitState], centre: str) -> AA.Land | None:
    """10.6: the stack comes down around ``centre``: the first in it, each other in the first
    free adjacent hex its rider can enter (None when they do not all find one)."""
    spots = [centre] + [t.label(n) for n in neighbours(t.hex_of(centre)) if t.field.contains(n)]
    chosen: list[str] = []
    for _ in flying:
        for spot in spots:
            o = AA.Land(unit=",".join(x.id for x in flying[:len(chosen) + 1]), at=",".join(chosen + [spot]))
            if spot not in chosen and land_problem(t, side, o) is None:
                chosen.append(spot)
                break
        else:
            return None
    return AA.Land(unit=",".join(u.id for u in flying), at=",".join(chosen))


def launch_problem(t: Table, side: str, o: AA.Land) -> str | None:
    """10.6.2 (``land way:up``): "if the PK41 and PKA are stacked at the beginning of the
    turn, they may unit and launch": neither moved nor attacked this phase, and not landed
    this turn."""
    u = own(t, side, o.unit)
    if isinstance(u, str):
        return u
    if not u.on_map or not t.stats(u).rider:
        return f"{u.id} is not a PK41 on the ground (10.6.2)."
    if o.at:
        return f"{u.id} takes off from its own hex: leave out at (10.6.2)."
    if not (o.rider or "").strip():
        return f"Name the rider that boards {u.id}: a {', '.join(t.stats(u).rider)} in its hex (10.6.2)."
    r = own(t, side, o.rider or "")
    if isinstance(r, str):
        return r
    if r.type not in t.stats(u).rider or r.hex != u.hex or not r.on_map:
        return f"{r.id} is not a {', '.join(t.stats(u).rider)} stacked with {u.id} (10.6.2)."
    if t.s.air.landed.get(r.id) == t.s.turn:
        return f"{r.id} landed this turn; they were not stacked when the turn began (10.6.2)."
    if r.moved or r.attacked or r.struck or r.spotted or u.immobilized or r.immobilized:
        return f"{r.id} moved, attacked or is immobilised; it may not board this turn (10.6.2)."
    return busy(t, u)


def launch_offers(t: Table, side: str) -> list[AA.Land]:
    """Every PK41 on the ground with a rider able to board."""
    out = []
    for u in t.on_map(side):
        for r in t.in_hex(t.hex(u), side):
            o = AA.Land(unit=u.id, way="up", rider=r.id)
            if r.id != u.id and t.stats(u).rider and launch_problem(t, side, o) is None:
                out.append(o)
    return out


# -- pilot creation (18.3) ---------------------------------------------------------------------


def recruit_problem(t: Table, side: str, o: AA.Recruit) -> str | None:
    """18.3.1 (option ``creation``): on the first turn, a unit of yours without a pilot."""
    if not t.s.crew.creation:
        return "Pilot creation is a game option (options:creation=true) (18.3)."
    u = own(t, side, o.unit)
    if isinstance(u, str):
        return u
    if t.s.turn != 1:
        return "New pilots are recruited on the first turn (18.3.1; our reading)."
    if u.status == "destroyed" or u.pilot is not None or t.stats(u).infantry or u.type == "Pilot":
        return f"{u.id} already has a pilot, or takes none (18.3.1)."
    return None


def train_problem(t: Table, side: str, o: AA.Train) -> str | None:
    """18.3.3 (option ``creation``): a pilot with five more non-infantry kills raises one
    ability below 4."""
    if not t.s.crew.creation:
        return "Raising abilities is part of the creation option (options:creation=true) (18.3.3)."
    u = own(t, side, o.unit)
    if isinstance(u, str):
        return u
    p = pilots.pilot_of(t.s, u)
    if p is None:
        return f"{u.id} has no pilot (18.3.3)."
    if pilots.raises_due(p) <= 0:
        return f"{p.name} has {p.kills} kills; a raise comes with every {pilots.KILLS_PER_RAISE} (18.3.3)."
    if getattr(p, o.ability) >= pilots.ABILITY_CAP:
        return f"{p.name}'s {o.ability} is already {pilots.ABILITY_CAP}, the most (18.3.3)."
    return None
