"""Which orders are legal now: one ``*_problem`` per order, and the offers built from them.

The system's resolvers raise the problem sentence; the offers (``legal_actions``, autocomplete)
list exactly the orders with no problem, so a suggestion is always accepted.
"""

from __future__ import annotations

from itertools import combinations

from rules.core.errors import RuleError
from rules.core.hexes import Hex, distance, neighbours
from rules.mak import actions as A
from rules.mak.air_legal import air_spot_problem
from rules.mak.battlefield import Battlefield
from rules.mak.combat import blast_area
from rules.mak.data import Movement, UnitStats, charts
from rules.mak.deployment import entry_hexes, may_enter_on, parse_deploy
from rules.mak.movement import CARRY_COST, Way, entry_cost, path_to
from rules.mak.pilots import commanded, manned
from rules.mak.refusals import absent, busy, just_landed, leavers, mover_problem, own, steps_away
from rules.mak.hazards import known_mines
from rules.mak.resolve import allowance, charge_mines, charge_steps, reach_of, strike_targets, unarmed_answer, window_defenders
from rules.mak.special import airdrop_hexes
from rules.mak.state import UnitState, other
from rules.mak.table import Table
from rules.mak.unmanned import may_spot


def over_limit(t: Table, side: str) -> list[tuple[str, str]]:
    """``(hex, problem)`` for every hex where ``side``'s units break the stacking limit now
    (8.2, 8.2.3): every unit counts, those set up so by the scenario too."""
    seen: dict[str, str] = {}
    for u in t.s.units:
        if u.side == side and u.on_map and u.hex and u.hex not in seen:
            seen[u.hex] = t.stacking(side, u.hex) or ""
    return [(h, why) for h, why in seen.items() if why]


# -- enter and move --------------------------------------------------------------------------


def enter_hexes(t: Table, u: UnitState) -> dict[str, float]:
    """12.1: entry hexes of a waiting unit and what entering costs (no enemy there)."""
    spec = parse_deploy(u.deploy)
    if u.airdrop:
        return {h: 0.0 for h in airdrop_hexes(t, u)}  # 12.2: dropped into any hex it could enter
    if spec.setup or not may_enter_on(spec, t.s.turn) or u.aboard:
        return {}  # 13.1: a transported unit enters with its vehicle
    stats = t.stats(u)
    enemy = t.enemy_hexes(u.side)
    out: dict[str, float] = {}
    for h in entry_hexes(t.field.layout, spec):
        cost = _arrival_cost(t.field, stats, h)
        if h in enemy or cost is None or cost > stats.movement:
            continue
        label = t.label(h)
        # 8.2.1: entering is movement; a full hex is put right before the phase ends
        if t.stacking(u.side, label, [u]) is None or _may_stop_over(t, u, h, cost):
            out[label] = cost
    return out


def _arrival_cost(field: Battlefield, stats: UnitStats, h: Hex) -> float | None:
    """12.1: the entry hex's cost; along a road that runs off the map, the road's cost."""
    terrain = field.terrain_at(h)
    if terrain.key == "building" and h in field.partial and stats.unit_class == 2:
        terrain = charts().terrain_of("clear")  # 7.1.7
    cost = terrain.cost.get(stats.move_form)
    if cost is None:
        return None
    if stats.move_form == Movement.FOOT:
        return 1.0  # 14.1
    return charts().road_cost if h in field.roads else cost


def enter_problem(t: Table, side: str, order: A.Enter) -> str | None:
    """Why the reinforcement may not enter there, or None."""
    u = own(t, side, order.unit)
    if isinstance(u, str):
        return u
    if u.status != "waiting":
        return f"{u.id} is not waiting to enter."
    spec = parse_deploy(u.deploy)
    if not may_enter_on(spec, t.s.turn):
        return f"{u.id} enters on turn {spec.turn} at the earliest (12.1)."
    hexes = enter_hexes(t, u)
    if order.at not in hexes:
        some = some_of(list(hexes), 6) if hexes else "none now"
        how = "is dropped by air into a hex it could move into (12.2)" if u.airdrop else spec.text()
        return f"{u.id} may not enter at {order.at[:12]}: it {how} (entry hexes: {some}) (12.1)."
    return busy(t, u)


def move_targets(t: Table, u: UnitState) -> dict[str, float]:
    """Hexes ``u`` may move to now, with the cost (7.0, 8.2, 14.3.1 2)."""
    return {label: way.cost for label, way in move_ways(t, u).items()}


def move_ways(t: Table, u: UnitState) -> dict[str, Way]:
    """Hexes ``u`` may move to now, each with its best way (the fewest minefields its side
    knows of, then the cheapest: 19.1.2; ``Way.mines`` > 0 only if no other way is in reach)."""
    if not u.on_map or u.move_done or u.attacked or u.immobilized or u.struck or t.s.turn in u.boosts:
        return {}  # 19.5.3: a booster move is the unit's move
    if u.aboard or u.loaded_turn == t.s.turn:
        return {}  # 13.1.2: riders unload first; a vehicle may not move on the turn it loads
    found = reach_of(t, u)
    here = t.hex(u)
    enemies = [t.hex(e) for e in t.on_map(other(u.side))]
    friends = {f.hex for f in t.on_map(u.side) if f.id != u.id}
    out: dict[str, Way] = {}
    for h, way in found.items():
        if h == here:
            continue
        if u.morale != "ok" and not steps_away(h, here, enemies):
            continue  # 14.3.1 2: only away from enemy units
        label = t.label(h)
        # 8.2.1: "At any other time, such as during movement, it does not matter how many
        # units are stacked": a full hex is passed through or entered, as long as the stack
        # can still be put right before the phase ends
        if label not in friends or t.stacking(u.side, label, [u]) is None \
                or _may_stop_over(t, u, h, way.cost):
            out[label] = way
    return out


def mines_on_way(t: Table, u: UnitState, to: str) -> list[str]:
    """The minefields both sides know of (revealed, 19.1.1) that ``u``'s move to ``to`` must
    enter (the hex ``to`` itself included): none when another way is in reach (19.1.2)."""
    if not u.on_map or hex_problem(t, to):
        return []
    found, dest = reach_of(t, u), t.hex_of(to.strip())
    if dest not in found or not found[dest].mines:
        return []
    known = known_mines(t)
    return [t.label(h) for h in path_to(found, dest)[1:] if h in known]


def mines_problem(t: Table, u: UnitState, to: str, crossed: list[str], every: str = "",
                  rules: str = "19.1.4") -> str:
    """19.1.2-19.1.4: a move that can only go through known minefields says so and waits for
    the player's word (``through_mines:true``).  ``every`` names the ways tried ("Every way to
    5:1118 with 2 MP", the default; a booster flight says its own, 19.5.3)."""
    def about(label: str) -> str:
        return f"(attack {t.s.mines[label].attack})"

    if crossed == [to]:
        what = f"{to} is a known minefield {about(to)}: {u.id} is attacked entering it (19.1.3)"
    else:
        every = every or f"Every way to {to} with {allowance(t, u):g} MP"
        what = (f"{every} goes through the minefield"
                f"{'s' if len(crossed) > 1 else ''} {', '.join(f'{m} {about(m)}' for m in crossed)}: "
                f"{u.id} is attacked entering and leaving {'each' if len(crossed) > 1 else 'it'} ({rules})")
    return f"{what}. To go anyway, add through_mines:true; or move elsewhere."


def _may_stop_over(t: Table, u: UnitState, h: Hex, cost: float) -> bool:
    """Whether ``u`` may end a move in ``h`` where it takes the stack over the limit: it can
    move on from there with the points left, or another unit there can still leave (8.2.1)."""
    if leavers(t, t.label(h), u.side, but=u):
        return True
    left = allowance(t, u) - cost
    stats, enemies = t.stats(u), t.enemy_hexes(u.side)
    return any((c := entry_cost(t.field, stats, h, n)) is not None and c <= left + 1e-9
               and n not in enemies for n in neighbours(h))


def move_problem(t: Table, side: str, order: A.Move) -> str | None:
    """Why the move is refused, or None."""
    u = own(t, side, order.unit)
    if isinstance(u, str):
        return u
    problem = mover_problem(t, u)
    if problem:
        return problem
    targets = move_targets(t, u)
    if order.to not in targets:
        return _destination_problem(t, u, order.to, targets)
    crossed = mines_on_way(t, u, order.to)
    if crossed and not order.through_mines:
        return mines_problem(t, u, order.to, crossed)
    return busy(t, u, moving=True)


def hex_problem(t: Table, label: str) -> str | None:
    """Why ``label`` is not a hex on this map, with how hexes are written, or None."""
    how = "write the board and the four-digit hex number, e.g. 5:1801"
    text = label.strip()
    try:
        h = t.hex_of(text)
    except RuleError as e:
        why = str(e).rstrip(".")
        detail = "" if "e.g." in why else f": {why[0].lower()}{why[1:]}"
        return f"'{text[:12]}' is not a hex on this map{detail}; {how}."
    return None if t.field.contains(h) else f"'{text[:12]}' is not a hex on this map; {how}."


def some_of(labels: list[str], most: int = 5) -> str:
    """``a, b, c, d, e and 7 more`` (or ``nothing``): a list cut short says so."""
    shown = ", ".join(labels[:most]) or "nothing"
    return shown + (f" and {len(labels) - most} more" if len(labels) > most else "")


_FORMS = {Movement.WALK: "walking (W)", Movement.CRAWLER: "crawler (C)", Movement.HOVER: "hover (H)",
          Movement.WHEEL: "wheeled (T)", Movement.FOOT: "infantry (I)"}


def _destination_problem(t: Table, u: UnitState, to: str, targets: dict[str, float]) -> str:
    """Why ``u`` may not move to ``to``, by the rule that forbids it: not a hex of the map, an
    enemy hex (7.2.3), terrain its movement form never enters (7.1.8, the chart), only away
    from the enemy with broken morale (14.3.1 2), over the stacking limit there (8.2.1), one
    hex for infantry (14.1), or out of reach with the movement points left (7.1.3)."""
    where = hex_problem(t, to)
    if where:
        return where
    h = t.hex_of(to.strip())
    label = t.label(h)
    reach = some_of(list(targets))
    stats = t.stats(u)
    if h in t.enemy_hexes(u.side):
        return (f"{label} holds enemy units: a move never enters it; go into close quarters with "
                f"assault unit:{u.id} hex:{label} (7.2.3, 9.1).")
    if t.field.base_costs(stats.move_form, stats.unit_class).get(h) is None:
        terrain = t.field.terrain_at(h)
        rule = "7.1.8" if terrain.key == "water" and stats.move_form in (Movement.WALK, Movement.CRAWLER) \
            else "7.1.3, Terrain Effects Chart"
        form = _FORMS.get(stats.move_form, stats.move_form.value)
        return (f"{u.id} cannot enter {label}: {terrain.name} is closed to {form} units ({rule}); "
                f"in reach: {reach}.")
    if u.morale != "ok" and h in reach_of(t, u):
        return (f"{u.id}'s morale is broken: it can only move away from enemy units, never next to "
                f"one (14.3.1 2); away: {reach}.")
    over = t.stacking(u.side, label, [u])
    if over and t.hex_of(label) in reach_of(t, u):
        return (f"{u.id} cannot stop in {label}: {over}, and neither it nor a unit there could "
                f"still leave before the phase ends (8.2.1); in reach: {reach}.")
    if stats.move_form == Movement.FOOT:
        return f"{u.id} is infantry and moves one hex a phase (14.1); in reach: {reach}."
    return f"{u.id} cannot move to {label} with {allowance(t, u):g} MP left (7.1.3); in reach: {reach}."


# -- attacks ---------------------------------------------------------------------------------


def fire_problem(t: Table, side: str, unit: str, target: str, weapon: str, defensive: bool) -> str | None:
    """Why the direct attack is refused, or None (5.2-5.4, 7.2.1, 9.4.4)."""
    u = own(t, side, unit)
    if isinstance(u, str):
        return u
    e = t.s.find(target)
    if e is None or not e.on_map or e.side == side:
        return f"'{target[:20]}' is not an enemy unit on the map."
    if not u.on_map:
        return absent(u)
    if not defensive:
        if e.hex == u.hex:
            return f"{u.id} and {e.id} are in close quarters: fight it out with engage (9.3.2)."
        if u.moved or u.attacked or u.struck:
            return just_landed(t, u) or f"{u.id} has moved or attacked this phase (5.3, 7.2.1)."
        if u.spotted:
            return f"{u.id} is spotting this turn and may not attack (5.5.1)."
        waiting = busy(t, u)
        if waiting:
            return waiting
    elif t.in_melee(u) and e.hex != u.hex and t.pinned(u):
        return f"{u.id} is pinned in close quarters (9.4.4)."
    w, why = t.best_weapon(u, e, defensive, weapon)
    return None if w is not None else why + "."


def fire_offers(t: Table, side: str, defensive: bool, shooters: list[UnitState],
                targets: list[UnitState]) -> list[tuple[str, str, str]]:
    """``(unit, target, weapon)`` of every legal direct attack."""
    out = []
    for u in shooters:
        for e in targets:
            for w in t.weapons(u, defensive):
                if fire_problem(t, side, u.id, e.id, w.type.value, defensive) is None:
                    out.append((u.id, e.id, w.type.value))
    return out


def _own_stack(t: Table, side: str) -> list[str]:
    """The ids of the first two of ``side``'s units on the map that share a hex (a volley's
    example), or none."""
    by_hex: dict[str, list[str]] = {}
    for u in t.s.units:
        if u.side == side and u.on_map and u.hex:
            by_hex.setdefault(u.hex, []).append(u.id)
    return next((ids[:2] for ids in by_hex.values() if len(ids) >= 2), [])


def volley_units(t: Table, side: str, order: A.Volley) -> list[UnitState] | str:
    """5.3.3: the named units, or why the Simultaneous Attack is refused: two or more
    different units of ``side``, all stacked in one hex, each able to attack the target."""
    names = [n.strip() for n in order.units.split(",") if n.strip()]
    found: list[UnitState] = []
    for name in names:
        u = own(t, side, name)
        if isinstance(u, str):
            return u
        if u in found:
            return f"{u.id} is named twice; name each unit of the stack once (5.3.3)."
        found.append(u)
    if len(found) < 2:
        # The example names the side's own units, never the other side's (a fixed Mercenary
        # example read, under concealment, as if it named the units under a marker).
        stacked = _own_stack(t, side)
        example = f", e.g. units:{','.join(stacked)}" if stacked else ""
        return f"A Simultaneous Attack needs two or more of your units stacked in one hex{example} (5.3.3)."
    if len({u.hex for u in found}) > 1:
        return "Units that are not stacked cannot conduct a Simultaneous Attack (5.3.3)."
    for u in found:
        problem = fire_problem(t, side, u.id, order.target, "", defensive=False)
        if problem:
            return problem
    return found


def combined_units(t: Table, side: str, order: A.Combined) -> list[UnitState] | str:
    """14.2.1: the named squads, or why the combined attack is refused: the units of a
    Simultaneous Attack (5.3.3), every one of them Infantry."""
    found = volley_units(t, side, A.Volley(units=order.units, target=order.target))
    if isinstance(found, str):
        return found.replace("A Simultaneous Attack", "A combined attack").replace(
            "conduct a Simultaneous Attack", "make a combined attack").replace("(5.3.3)", "(14.2.1)")
    other_kind = next((u for u in found if not t.stats(u).infantry), None)
    if other_kind is not None:
        return (f"{other_kind.id} is not an Infantry unit: only stacked Infantry add their attack "
                f"power (14.2.1); other stacked units make a Simultaneous Attack (volley, 5.3.3).")
    return found


def combined_offers(t: Table, side: str) -> list[A.Combined]:
    """Every legal combined attack: the Simultaneous Attacks whose units are all Infantry."""
    return [A.Combined(units=v.units, target=v.target) for v in volley_offers(t, side)
            if all(t.stats(t.s.unit(n)).infantry for n in v.units.split(","))]


def volley_offers(t: Table, side: str) -> list[A.Volley]:
    """Every legal Simultaneous Attack: each set of two or more stacked units that may all
    attack one target (a stack holds at most four units, 8.2, so the sets are few)."""
    out: list[A.Volley] = []
    for e in t.on_map(other(side)):
        able: dict[str, list[str]] = {}
        for u in t.on_map(side):
            if fire_problem(t, side, u.id, e.id, "", defensive=False) is None:
                able.setdefault(u.hex or "", []).append(u.id)
        for ids in able.values():
            for n in range(2, len(ids) + 1):
                out += [A.Volley(units=",".join(c), target=e.id) for c in combinations(ids, n)]
    return out


def indirect_problem(t: Table, side: str, order: A.Indirect) -> str | None:
    """5.5: an indirect weapon, a spotter seeing the hex, no friendly unit in the blast."""
    u = own(t, side, order.unit)
    if isinstance(u, str):
        return u
    weapon = next((w for w in t.weapons(u, False) if w.indirect), None)
    if weapon is None or not u.on_map:
        return f"{u.id} has no indirect weapon able to fire (5.5)."
    if u.moved or u.attacked or u.spotted:
        return f"{u.id} has moved or attacked this phase (5.3, 7.2.1)."
    try:
        there = t.hex_of(order.at)
    except Exception:  # noqa: BLE001 - RuleError from the parser: say it plainly
        return f"'{order.at[:12]}' is not a hex of this map (e.g. 5:0607)."
    n = distance(t.hex(u), there)
    if n > weapon.range:
        return f"{order.at} is {n} hexes away; the rockets reach {weapon.range} (5.5, 11.1)."
    if any(x.side == side for h in blast_area(there) for x in t.in_hex(h)):
        return "Your own units are in or next to that hex (5.5.4)."
    spotter = own(t, side, order.spotter)
    if isinstance(spotter, str):
        return spotter
    return _spotter_problem(t, u, spotter, there) or busy(t, u)


def _spotter_problem(t: Table, u: UnitState, spotter: UnitState, there) -> str | None:  # type: ignore[no-untyped-def]
    if spotter.status == "aloft":
        return air_spot_problem(t, spotter, there)  # 10.5
    if spotter.id == u.id or not spotter.on_map or t.stats(spotter).noncombatant:  # 19.5.1
        return "The spotter is a third unit on the map (5.5)."
    if spotter.attacked or spotter.mp_spent > t.stats(spotter).movement / 2 or spotter.morale != "ok":
        return f"{spotter.id} moved more than half or attacked; it cannot spot (5.5.1, 14.3.1)."
    if not may_spot(t.stats(spotter), commanded(t.s, u.side) or manned(t.s, spotter)):  # 16.1, notes b
        return f"{spotter.id} is unmanned and has no command unit (16.1)."
    enemies = t.in_hex(there, other(u.side))
    if not enemies or not any(t.sees(spotter, e) for e in enemies):
        return f"{spotter.id} sees no enemy in {t.label(there)} (5.5, 6.0)."
    return None


def assault_hexes(t: Table, u: UnitState) -> list[str]:
    """Enemy hexes ``u`` may go into (9.1; 14.2.2 infantry charge from two hexes)."""
    stats = t.stats(u)
    if (not u.on_map or u.attacked or u.struck or u.immobilized or u.morale != "ok"
            or stats.vehicle or stats.noncombatant or t.s.assault is not None or t.s.exchange is not None
            or u.aboard or t.s.turn in u.boosts):  # 19.5.3: "When using the booster, ... no close quarters combat"
        return []
    if busy(t, u) is not None:
        return []
    here = t.hex(u)
    out = []
    for h in t.enemy_hexes(u.side):
        n = distance(here, h)
        label = t.label(h)
        if n == 1:
            cost = entry_cost(t.field, stats, here, h)
            ok = cost is not None and (stats.infantry or cost <= t.stats(u).movement - u.mp_spent)
        elif n == 2 and stats.infantry and not u.moved:
            ok = bool(charge_steps(t, u, label))
        else:
            ok = False
        if ok and t.stacking(u.side, label, [u]) is None:
            out.append(label)
    return sorted(out)


def assault_problem(t: Table, side: str, order: A.Assault) -> str | None:
    """Why the close-quarters assault is refused, or None."""
    u = own(t, side, order.unit)
    if isinstance(u, str):
        return u
    hexes = assault_hexes(t, u)
    if order.hex not in hexes:
        why = _unit_cannot_assault(t, u) or _hex_cannot_be_assaulted(t, u, order.hex)
        return f"{why}; possible now: {', '.join(hexes) or 'none'}."
    between = charge_mines(t, u, order.hex)
    if between and not order.through_mines:
        return _charge_mines_problem(t, u, order.hex, between)
    return None


def _charge_mines_problem(t: Table, u: UnitState, to: str, between: list[str]) -> str:
    """19.1.2-19.1.4 for a charge (14.2.2): every hex between holds a known minefield; the
    charge goes through the first of them only when the player says so (``through_mines``)."""
    named = [f"{m} (attack {t.s.mines[m].attack})" for m in between]
    if len(named) == 1:
        what = f"The hex between {u.id} and {to} is a known minefield, {named[0]}: the charge is"
    else:
        what = (f"Both hexes between {u.id} and {to} are known minefields, {' and '.join(named)}: "
                f"the charge crosses {between[0]} and is")
    return (f"{what} attacked entering and leaving it (14.2.2, 19.1.4). To go anyway, add "
            f"through_mines:true; or assault elsewhere.")


def _unit_cannot_assault(t: Table, u: UnitState) -> str | None:
    """Why ``u`` cannot go into close quarters at all now, by the rule, or None."""
    stats = t.stats(u)
    checks = [
        (not u.on_map, absent(u).rstrip(".")),
        (u.attacked or u.struck, f"{u.id} attacked this phase and may not move (7.2.1)"),
        (u.immobilized, f"{u.id} is immobilized (5.1.2)"),
        (u.morale != "ok", f"{u.id}'s morale is broken: it cannot attack (14.3.1 1)"),
        (stats.vehicle, f"{u.id} is a vehicle: in close quarters it only receives attacks; it "
                        f"attacks a hex with overrun (13.2)"),
        (stats.noncombatant, f"{u.id} cannot make any attacks (19.5.1)"),
        (t.s.assault is not None, "An assault is under way: its strike comes first (9.1)"),
        (t.s.exchange is not None, "Close quarters are being fought out: engage or pass (9.3.2)"),
        (bool(u.aboard), f"{u.id} rides in {u.aboard}: unload it first (13.1.2)"),
        (t.s.turn in u.boosts, f"{u.id} used its booster this turn: \"the unit may not engage in "
                               f"close quarters combat\" (19.5.3)"),
    ]
    return next((why for bad, why in checks if bad), None) or busy(t, u)


def _hex_cannot_be_assaulted(t: Table, u: UnitState, text: str) -> str:
    """Why ``u`` cannot go into close quarters in hex ``text``, by the rule."""
    where = hex_problem(t, text)
    if where:
        return where.rstrip(".")
    h, stats = t.hex_of(text.strip()), t.stats(u)
    label, n = t.label(h), distance(t.hex(u), h)
    if h not in t.enemy_hexes(u.side):
        return f"{label} holds no enemy unit: close quarters are fought in an enemy's hex (9.1); move there instead"
    if n == 2 and stats.infantry:
        if u.moved:
            return f"{u.id} has moved this phase: an infantry charge from two hexes starts unmoved (14.2.2)"
        return f"{u.id} has no way to charge into {label} through the hex between (14.2.2)"
    if n != 1:
        return (f"{label} is {n} hexes away: close quarters from the next hex (9.1), or two hexes for "
                f"an infantry charge (14.2.2)")
    cost = entry_cost(t.field, stats, t.hex(u), h)
    if cost is None:
        return f"{u.id} cannot enter {label}: its terrain or hexside is closed to it (7.1.3, 7.1.8)"
    if not stats.infantry and cost > stats.movement - u.mp_spent:
        return f"{u.id} needs {cost:g} MP to enter {label} and has {stats.movement - u.mp_spent:g} left (7.1.3, 9.1)"
    return (f"{u.id} cannot join {label}: {t.stacking(u.side, label, [u])}; in close quarters the "
            f"limit holds for each side (8.2.2)")


def strike_problem(t: Table, side: str, order: A.Strike) -> str | None:
    """9.1 3 / 9.5: the assaulting unit attacks an enemy in its hex."""
    a = t.s.assault
    if a is None or a.stage != "strike":
        return "No close quarters attack is due now."
    u = t.s.unit(a.unit)
    targets = strike_targets(t, u)
    e = t.s.find(order.target)
    if e is None or e not in targets:
        return f"{u.id} may strike: {', '.join(x.id for x in targets) or 'nobody'} (9.1)."
    if order.unarmed and t.stats(u).unit_class != 1:
        return "Only Type I units fight unarmed (9.5)."
    if not order.unarmed and t.best_weapon(u, e, False)[0] is None and t.stats(u).unit_class != 1:
        return f"{u.id} has no weapon for {e.id} (9.5)."  # a Type I unit then strikes unarmed
    return None


def defend_problem(t: Table, side: str, order: A.Defend) -> str | None:
    """5.4: a unit of the open window fires at one of its targets."""
    w = t.s.window
    if w is None:
        return "No defensive attack is open now."
    able = {d.id for d in window_defenders(t)}
    u = t.s.find(order.unit)
    if u is None or u.id not in able:
        return f"Units that may fire now: {', '.join(sorted(able)) or 'none'} (5.4)."
    if order.target.strip().lower() not in {x.lower() for x in w.targets}:
        return f"The defensive attack is at {', '.join(w.targets)} (5.4)."
    if order.weapon.strip().lower() == "unarmed":
        return None if unarmed_answer(t, u) else (
            "Only a Type I unit struck unarmed in an assault answers unarmed (9.5).")
    return fire_problem(t, side, order.unit, order.target, order.weapon, defensive=True)


def carry_problem(t: Table, side: str, order: A.Carry) -> str | None:
    """7.3 / 7.3.1: a mobile Type I unit picks up or drops an immobilised Type I friend in its
    hex, for 1 movement point, in the phase it may still move."""
    u = own(t, side, order.unit)
    if isinstance(u, str):
        return u
    load = t.s.find(order.load)
    if load is None or load.side != side or not load.on_map:
        return f"'{order.load[:20]}' is not one of your units on the map."
    if order.drop:
        if u.carrying != load.id:
            return f"{u.id} is not carrying {load.id}."
    else:
        if u.carrying is not None or any(x.carrying == load.id for x in t.s.units):
            return f"{u.id} already carries a unit, or {load.id} is already carried (7.3)."
        if load.hex != u.hex or not load.immobilized or t.stats(load).unit_class != 1:
            return f"{u.id} may carry an immobilised Type I unit in its own hex (7.3)."
    if t.stats(u).unit_class != 1 or u.immobilized or u.aboard or load.aboard:
        return f"{u.id} is not a mobile Type I unit (7.3)."
    if u.move_done or u.attacked or u.struck or allowance(t, u) < CARRY_COST:
        return f"{u.id} has not the 1 movement point left this phase (7.3.1)."
    return busy(t, u)


def raze_problem(t: Table, side: str, uid: str) -> str | None:
    """11.3.3 (``lay what:raze``): "unopposed in the hex of a Depot of the enemy ... (1) one
    movement point is spent, and (2) the unit attacks within the hex, and must be able to do
    so"."""
    u = own(t, side, uid)
    if isinstance(u, str):
        return u
    if not u.on_map or t.s.depots.get(u.hex or "") != other(side):
        return f"{u.id} is not in a hex with an enemy Depot (11.3.3)."
    if t.in_hex(t.hex(u), other(side)):
        return f"{u.id} is not unopposed: enemy units are in {u.hex} (11.3.3)."
    if u.attacked or u.struck or u.spotted:
        return f"{u.id} has attacked or spotted this phase; destroying a Depot is its attack (11.3.3)."
    if u.immobilized or u.aboard or allowance(t, u) < 1:
        return f"{u.id} has no movement point left to spend (11.3.3)."
    if not t.weapons(u, False):
        return f"{u.id} has no weapon able to attack (11.3.3)."
    return busy(t, u)


def end_problem(t: Table) -> str | None:
    """4.0 / 8.2: a phase ends when no hex of the phase player is over the stacking limit that
    a unit could still put right ("the stacking limit must be applied at the end of the
    phase", 8.2.1; every unit counts, two NeuSpotters set up together too, 8.2.3)."""
    for label, why in over_limit(t, t.s.active):
        out = leavers(t, label, t.s.active)
        if out:
            names = " or ".join(x.id for x in out[:4])
            return (f"{label} is over the stacking limit when the phase ends: {why}. "
                    f"Move {names} out first (8.2.1).")
    return None
