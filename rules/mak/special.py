"""Special rules (19.2, 19.3, 19.5), airdrop (12.2) and intelligence (16.2) in play.

* 19.2: smoke screens laid by the units of the Smoke Screen Equipment Chart (ours: not in the
  text), within its range and per-turn count, at any time of the owner's troop phase; the
  marker shows 2, turns to 1 at the owner's next phase and goes at the one after (19.2.3);
  smoke blocks sight through the hex (``sight.py``, 19.2.5) and an attack into or out of it
  takes -1 (laser, missile) or -4 (other direct fire) (19.2.6).
* 19.3: at night manned units take the darkness penalty of the Fire Modifiers Chart (not in
  the text: our stand-in, -2).
* 19.5.1: Eddy Amzel moves one hex and does nothing else; 19.5.2: the Kröte Pioneer finds
  mines (``hazards.py``); 19.5.3: the SAFS Mk. II's booster (12 hexes, terrain ignored, two
  turns a scenario, no close quarters, anti-aircraft fire from the enemies it comes in range of).
* 12.2: an airdropped unit is placed in any hex it could occupy; in an enemy hex it takes
  anti-aircraft fire first (endurance C, M destroys it) and then neither moves nor attacks.
* 16.2: a destroyed NeuSpotter drops its AMU; Strahl infantry or Type I units collect it and
  score by leaving the map with it; Mercenary units entering its hex destroy it.
"""

from __future__ import annotations

from rules.core.hexes import Hex, distance, line, neighbours
from rules.core.orders import Ctx
from rules.mak.hazards import STOPPED, known_mines, step
from rules.mak.deployment import AIRDROP_ENDURANCE, airdrop_result, parse_deploy
from rules.mak.movement import Reach, entry_cost, reach
from rules.mak.refusals import leavers
from rules.mak.state import SIDE_NAMES, MakState, Mark, UnitState, other
from rules.mak.table import Table
from rules.mak.unmanned import AMU_POINTS, may_collect_amu, may_destroy_amu

MakCtx = Ctx[MakState]

SMOKE_TURNS = 2  # 19.2.3
BOOSTER_TURNS = 2  # 19.5.3: "may be used in two turns in any single scenario"


# -- smoke -----------------------------------------------------------------------------------


def smoke_hexes(t: Table, u: UnitState) -> list[str]:
    """19.2.1-19.2.2 / 19.2.4: hexes ``u`` may lay a smoke screen in now."""
    gear = t.stats(u).smoke
    if gear is None or not u.on_map or u.morale != "ok" or u.side != t.s.active:
        return []
    if gear.uses is not None and sum(u.smoke_laid.values()) >= gear.uses:
        return []
    if u.smoke_laid.get(t.s.turn, 0) >= gear.per_turn:
        return []
    reach = 0 if gear.uses is None else gear.range  # 19.2.4: the engine's smoke hides the unit itself
    here = t.hex(u)
    return sorted(t.label(h) for h in t.field.layout.all_hexes() if distance(here, h) <= reach
                  and t.label(h) not in t.s.smoke) if reach > 0 else (
        [u.hex or ""] if u.hex not in t.s.smoke else [])


def lay_smoke(t: Table, ctx: MakCtx, u: UnitState, label: str) -> None:
    """A marker showing 2 (19.2.3)."""
    u.smoke_laid[ctx.state.turn] = u.smoke_laid.get(ctx.state.turn, 0) + 1
    ctx.state.smoke[label] = SMOKE_TURNS
    ctx.state.smoke_owner[label] = u.side
    ctx.state.marks.append(Mark(kind="place", hexes=[label], side=u.side, text="smoke"))
    ctx.snapshot = True
    ctx.say("smoke", f"{u.id} lays a smoke screen in {label} (19.2)", "19.2")


def smoke_clears(ctx: MakCtx) -> None:
    """19.2.3: at the start of the owner's phase the marker turns from 2 to 1, then goes."""
    for label in list(ctx.state.smoke):
        if ctx.state.smoke_owner.get(label, ctx.state.active) != ctx.state.active:
            continue
        ctx.state.smoke[label] -= 1
        if ctx.state.smoke[label] <= 0:
            del ctx.state.smoke[label]
            ctx.state.smoke_owner.pop(label, None)
            ctx.say("smoke", f"The smoke in {label} clears (19.2.3)", "19.2.3")


# -- the SAFS Mk. II booster (19.5.3) ---------------------------------------------------------


def boosting(state: MakState, u: UnitState) -> bool:
    """Whether ``u`` is in the middle of a booster move (interrupted by anti-aircraft fire)."""
    return state.moving == u.id and state.turn in u.boosts and not u.move_done


def boost_targets(t: Table, u: UnitState) -> list[str]:
    """Hexes the booster reaches: 1 hex per point, terrain ignored, never an enemy hex."""
    return sorted(boost_ways(t, u))


def boost_ways(t: Table, u: UnitState) -> dict[str, int]:
    """Hexes the booster reaches now, each with the number of minefields both sides know of
    that its flight there must enter (0 when a way round is in reach, 19.1.2)."""
    stats = t.stats(u)
    if (stats.booster is None or not u.on_map or u.attacked or u.struck or u.immobilized
            or u.morale != "ok" or t.in_melee(u)):
        return {}
    if u.moved and not boosting(t.s, u):
        return {}
    if t.s.turn not in u.boosts and len(u.boosts) >= BOOSTER_TURNS:
        return {}
    here = t.hex(u)
    # 8.2.1: a flight may end in a full hex that another unit can still leave this phase
    return {t.label(h): way.mines for h, way in _flights(t, u, hexes_left(t, u)).items() if h != here
            and (t.stacking(u.side, t.label(h), [u]) is None or leavers(t, t.label(h), u.side, but=u))}


def hexes_left(t: Table, u: UnitState) -> int:
    """The booster's hexes left this phase: 12 to start, the rest of them flying on."""
    booster = t.stats(u).booster or 0
    return booster - int(u.mp_spent) if boosting(t.s, u) else booster


def _flights(t: Table, u: UnitState, left: int) -> Reach:
    """Every hex the booster reaches in ``left`` hexes over the map, never through an enemy
    hex (terrain ignored: one hex a point, 19.5.3), each by the way through the fewest
    minefields both sides know of (19.1.2), then the fewest hexes."""
    field = t.field
    return reach(field, t.stats(u), t.hex(u), float(left), t.enemy_hexes(u.side), known_mines(t),
                 cost=lambda a, b: 1.0 if field.contains(b) else None)


def flight_path(t: Table, u: UnitState, label: str) -> list[Hex]:
    """The hexes flown to ``label`` (the start first): the straight line when it stays on the
    map and off enemy hexes and enters no more known minefields than any other way in reach
    (19.1.2); else the way through the fewest of them, then the fewest hexes.  Empty when the
    booster does not reach ``label``."""
    straight, crossed = _straight(t, u, label)
    if straight and not crossed:
        return straight  # no way enters fewer known minefields than none: no search
    found, to = _flights(t, u, hexes_left(t, u)), t.hex_of(label)
    if to not in found:
        return []
    return straight if straight and len(crossed) <= found[to].mines else found.path(to)


def _straight(t: Table, u: UnitState, label: str) -> tuple[list[Hex], list[Hex]]:
    """The straight line to ``label`` and the known minefields on it (``label`` included);
    no line when it leaves the map, meets an enemy hex or is longer than the hexes left."""
    line_ = line(t.hex(u), t.hex_of(label))
    enemy = t.enemy_hexes(u.side)
    if len(line_) - 1 > hexes_left(t, u) or not all(t.field.contains(h) and h not in enemy for h in line_):
        return [], []
    known = known_mines(t)
    return line_, [h for h in line_[1:] if h in known]


def flight_mines(t: Table, u: UnitState, label: str) -> list[str]:
    """The minefields both sides know of that the flight to ``label`` must enter (``label``
    itself included): none when a way round is in reach (19.1.2, 19.1.4, 19.5.3)."""
    known = known_mines(t)
    return [t.label(h) for h in flight_path(t, u, label)[1:] if h in known] if known else []


def _aa_able(t: Table, u: UnitState) -> set[str]:
    """The enemies that could fire defensively at ``u`` where it is now."""
    return {e.id for e in t.on_map(other(u.side)) if t.best_weapon(e, u, defensive=True)[0] is not None}


def boost(t: Table, ctx: MakCtx, u: UnitState, label: str) -> list[UnitState]:
    """Fly to ``label`` by :func:`flight_path`, hex by hex; where the unit comes into the defensive
    range of enemies it was not in range of, it stops and they may fire anti-aircraft
    (returned: the window is the caller's); the unit may fly on with the hexes left."""
    start = u.hex or ""
    if ctx.state.turn not in u.boosts:
        u.boosts.append(ctx.state.turn)
    ctx.state.moving = u.id
    u.moved = True
    path = flight_path(t, u, label)
    before = _aa_able(t, u)
    flown = [path[0]]
    new: set[str] = set()
    for h in path[1:]:
        if step(t, ctx, u, u.hex or "", t.label(h)) in STOPPED:
            break  # 19.1.4 destroyed or immobilised leaving; 19.5.2 / 14.4.1: found before entering
        u.hex = t.label(h)
        u.mp_spent += 1.0
        flown.append(h)
        now = _aa_able(t, u)
        new = now - before
        if new or u.immobilized:
            break
        before = now
    if not u.on_map:
        return []
    u.move_done = u.hex == label or u.immobilized
    ctx.say("boost", f"{u.id} uses its booster ({len(u.boosts)}/{BOOSTER_TURNS}): {start} → {u.hex}, "
                     f"{int(u.mp_spent)} of {t.stats(u).booster} hexes (19.5.3)", "19.5.3")
    ctx.state.marks.append(Mark(kind="move", hexes=[t.label(h) for h in flown], side=u.side, text=f"{u.id} booster"))
    ctx.snapshot = True
    return [ctx.state.unit(e) for e in sorted(new)]


# -- airdrop (12.2) --------------------------------------------------------------------------


def airdrop_hexes(t: Table, u: UnitState) -> list[str]:
    """Hexes a waiting airdropped unit may be placed in: any it could occupy by its movement
    form on its boards, within the stacking limit (12.2)."""
    if not u.airdrop or u.status != "waiting":
        return []
    spec = parse_deploy(u.deploy)
    if spec.turn is not None and t.s.turn < spec.turn:
        return []
    stats = t.stats(u)
    out = []
    for h in t.field.layout.all_hexes():
        number = t.field.layout.number_of(h)
        if number is None or number.board not in spec.boards:
            continue
        if not any(entry_cost(t.field, stats, n, h) is not None for n in neighbours(h) if t.field.contains(n)):
            continue
        label = t.label(h)
        if t.stacking(u.side, label, [u]) is None:
            out.append(label)
    return out


def drop_endurance(state: MakState, target: UnitState, endurance: str) -> str:
    """12.2: "The dropped unit has a durability rating of 'C' for the attack"."""
    return AIRDROP_ENDURANCE if state.drop == target.id else endurance


def drop_result(state: MakState, target: UnitState, result: str) -> str:
    """12.2: "a result of 'M' (Immobilized) results in destruction of the dropped unit"."""
    return airdrop_result(result) if state.drop == target.id else result


# -- intelligence (16.2) ---------------------------------------------------------------------


def collect_problem(t: Table, side: str, u: UnitState) -> str | None:
    """16.2.3: a Strahl infantry or Type I unit in an AMU's hex ends its move and takes it."""
    if not u.on_map or not t.s.amus.get(u.hex or ""):
        return f"There is no AMU in {u.id}'s hex (16.2.3)."
    if not may_collect_amu(t.stats(u), side) or t.stats(u).noncombatant:
        return "Only Strahl infantry or Type I units collect an AMU (16.2.3)."
    if u.amu:
        return f"{u.id} already carries an AMU."
    if u.immobilized or u.morale != "ok":
        return f"{u.id} cannot pick it up now (immobilized or broken)."
    return None


def scrap_problem(t: Table, side: str, u: UnitState) -> str | None:
    """16.2.4: a Mercenary unit in an AMU's hex declares it destroyed."""
    if not may_destroy_amu(side):
        return "Only the Mercenary player destroys AMUs (16.2.4)."
    if not u.on_map or not t.s.amus.get(u.hex or "") or t.stats(u).noncombatant:
        return f"There is no AMU in {u.id}'s hex (16.2.4)."
    return None


def take_amu(ctx: MakCtx, label: str) -> None:
    """One AMU leaves the hex."""
    ctx.state.amus[label] -= 1
    if ctx.state.amus[label] <= 0:
        del ctx.state.amus[label]


def edge_hex(t: Table, u: UnitState) -> bool:
    """Whether ``u`` stands on the outer edge of the map."""
    return any(not t.field.contains(n) for n in neighbours(t.hex(u)))


def withdraw_problem(t: Table, side: str, u: UnitState) -> str | None:
    """16.2.3: "When the carrier unit moves off of the map board with the AMU, collection is a
    success": a carrier on the map's edge with a movement point left moves off."""
    if not u.amu or not u.on_map:
        return f"{u.id} carries no AMU (16.2.3)."
    if not edge_hex(t, u):
        return f"{u.id} is not on the edge of the map."
    if u.immobilized or u.move_done or u.attacked or u.struck or t.in_melee(u):
        return f"{u.id} cannot move off the map now."
    return None


def withdraw(ctx: MakCtx, u: UnitState) -> None:
    """The carrier leaves the map; the Strahl player scores the AMU."""
    ctx.say("amu", f"{u.id} leaves the map from {u.hex} with an AMU: {SIDE_NAMES['strahl']} +{AMU_POINTS} "
                   "victory point (16.2.3)", "16.2.3")
    u.status, u.amu = "withdrawn", False
    ctx.state.amu_points += AMU_POINTS
    ctx.snapshot = True


def map_status(state: MakState) -> list[str]:
    """What lies on the map, for ``/game status``: minefields known to both (19.1.1: the
    others stay secret), fires, smoke with its turns left, AMUs, and night."""
    out = []
    known = [f"{h} ({m.attack}, {SIDE_NAMES[m.owner]})" for h, m in sorted(state.mines.items()) if m.revealed]
    if known:
        out.append("Minefields found: " + ", ".join(known) + ".")
    if state.fire:
        out.append("Burning: " + ", ".join(sorted(state.fire)) + ".")
    if state.smoke:
        out.append("Smoke: " + ", ".join(f"{h} ({n})" for h, n in sorted(state.smoke.items())) + ".")
    if state.amus:
        out.append("AMUs: " + ", ".join(sorted(state.amus)) + ".")
    if state.night:
        out.append("Night: manned units −2 to hit (19.3).")
    return out
