"""Hits and their effects (7.3.3, 7.3.5.5), elimination, leaders left alone (9.7-9.9), retreats.

A unit's damage is a ladder: a hit suppresses an unsuppressed unit (a Recovering one too,
6.2.1), reduces a Suppressed full-strength unit, and eliminates a Suppressed reduced or
one-step unit.  So two hits on a fresh unit leave it "Suppressed and reduced" (7.3.3 note),
and three eliminate it.
"""

from __future__ import annotations

import re

from rules.core.contract import Event
from rules.rr.board import (
    Board, fire_reaches, is_hind, is_leader, is_rider, is_sniper, is_t12, is_vdv,
)
from rules.rr.state import MarkRecord, UnitState, other

LINE_ROOM = 120  # characters of reasons on one event line (events stay within 160)
HIT_WORDS = {0: "no effect", 1: "one hit", 2: "two hits", 3: "three hits"}


def hits_for(margin: int) -> int:
    """7.3.3: by how much the attack beat the defence: 1-2 one hit, 3-4 two, 5+ three."""
    if margin <= 0:
        return 0
    return 1 if margin <= 2 else 2 if margin <= 4 else 3


def capacity(b: Board, uid: str) -> int:
    """How many hits a unit absorbs before it is eliminated (the last one eliminates it)."""
    unit = b.s.units[uid]
    steps = 0 if unit.status == "suppressed" else 1
    if b.spec(uid).reduced is not None and not unit.reduced:
        steps += 1
    return steps + 1


def eliminate(b: Board, uid: str) -> list[str]:
    """Take a unit out of the game with its riders (9.3); count VDV losses (7.3.6)."""
    unit = b.s.units[uid]
    area = unit.area
    unit.place, unit.area, unit.status, unit.ap = "gone", None, "ok", 0
    unit.boost, unit.reroll = [], False
    gone = [uid]
    for rider in b.riders(uid):
        rider.place, rider.attached_to = "gone", None
        gone.append(rider.id)
    # 7.3.6: one cadre roll per VDV Para, ever: a cadre eliminated again is lost for good
    # and is not counted again as the 2nd or 3rd company.
    if is_vdv(b.spec(uid)) and uid not in b.s.cadre_rolled and uid not in b.s.cadres:
        b.s.vdv_lost += 1
        b.s.cadres[uid] = b.s.vdv_lost
    if area is not None:
        # Drawn where they fell: a unit and its riders eliminated (the snapshot's "X" tags).
        b.s.marks += [MarkRecord(kind="eliminated", areas=[area], text=g, side=unit.side) for g in gone]
        gone += sweep_leaders(b, area, unit.side)
    return gone


def sweep_leaders(b: Board, area: str, side: str) -> list[str]:
    """9.7-9.9: leaders whose area holds no other unit of theirs are removed from play."""
    if b.combatants_in(area, side):
        return []
    out = []
    for leader in b.leaders_in(area, side):
        leader.place, leader.area, leader.ap, leader.status = "gone", None, 0, "ok"
        out.append(leader.id)
        b.s.marks.append(MarkRecord(kind="eliminated", areas=[area], text=leader.id, side=side))
    return out


def take_hit(b: Board, uid: str) -> str:
    """Apply one hit; returns what it did: "suppressed", "reduced" or "eliminated"."""
    unit = b.s.units[uid]
    if unit.place != "map":
        return "eliminated"
    if unit.status != "suppressed":
        unit.status, unit.ap = "suppressed", 0
        return "suppressed"
    if b.spec(uid).reduced is not None and not unit.reduced:
        unit.reduced = True
        return "reduced"
    eliminate(b, uid)
    return "eliminated"


def take_hits(b: Board, uid: str, hits: int, rule: str) -> list[Event]:
    """Apply ``hits`` to a unit and say what happened, e.g. "VDV-2 suppressed and reduced".

    10.2: a Suppressed Hind leaves the map until next turn; a reduced one is gone for good.
    """
    if hits <= 0:
        return []
    before = alive(b)
    effects: list[str] = []
    for _ in range(hits):
        effect = take_hit(b, uid)
        effects.append(effect)
        if effect == "eliminated":
            break
    extra = hind_leaves(b, uid)
    said = effects[0] if len(effects) == 1 else ", ".join(effects[:-1]) + " and " + effects[-1]
    text = f"{uid} {said}{extra} ({rule}{', 10.2' if extra else ''})"
    event = Event(kind="hits", text=text, rule=rule, data={"unit": uid, "effects": effects})
    return [event] + gone_since(b, before, skip={uid})


def hind_leaves(b: Board, uid: str) -> str:
    """10.2: "Remove the Hind from the game map if it is Suppressed.  It will return normally
    the following turn.  Permanently remove the Hind from play if it is reduced."  Applies it
    to the Hind still on the map after its hits; returns the words for the hits line ("" for
    any other unit)."""
    unit = b.s.units[uid]
    if not is_hind(b.spec(uid)) or unit.place != "map":
        return ""
    if unit.reduced:
        eliminate(b, uid)
        return ": shot down for good"
    unit.place, unit.area, unit.status, unit.ap = "pool", None, "ok", 0
    return ": off the map until next turn"


def retreat_options(b: Board, uid: str, origin: str | None, exclude: str | None = None, *,
                    assault: bool = False) -> list[str]:
    """7.3.3 / 7.3.5.5: where a unit hit from ``origin`` may retreat to negate a hit.

    After ranged fire (7.3.3: "The target may choose to retreat one area to negate the
    affects of one hit") the area must be adjacent (7.2), hold no enemy and keep stacking
    (5.1: "Stacking applies at all times").  After an assault (``assault``) 7.3.5.5 adds its
    own limits: the area must be farther from the attacker and not decrease "the range to
    another enemy unit".  Range is how far a unit fires (7.3.1, 7.3.4): an enemy unit counts
    when its fire reaches the area retreated to (:func:`fire_reaches`) and that area is nearer
    to it than the unit's own; an enemy that could not fire there (a T-12 six areas away) has
    no range to decrease (see README).  The T-12 never moves (9.6) and the Hind does not
    retreat (10.2: it only fires).  ``exclude``: in an assault, the area the attackers came
    from, where they may yet go back (7.3.5.2).
    """
    return [a for a, why in retreat_checks(b, uid, origin, exclude, assault=assault).items()
            if why is None]


def retreat_checks(b: Board, uid: str, origin: str | None, exclude: str | None = None, *,
                   assault: bool = False) -> dict[str, str | None]:
    """Each adjacent area with why a retreat there is refused (the first rule that forbids
    it), or None when it is allowed; empty for a unit that never retreats.  See
    :func:`retreat_options`."""
    b = b.reading()
    unit = b.s.units[uid]
    spec = b.spec(uid)
    if unit.place != "map" or unit.area is None or is_t12(spec) or is_hind(spec):
        return {}
    here = unit.area
    out: dict[str, str | None] = {}
    for area in b.g.neighbours(here):
        if area == exclude:
            out[area] = "the attackers may go back there (7.3.5.2)"
        elif b.enemy_held(area, unit.side):
            out[area] = "enemy in it (5.1)"
        else:
            out[area] = (assault_limit(b, uid, here, area, origin) if assault else None) \
                or b.stack_problem(area, [uid])
    return out


def assault_limit(b: Board, uid: str, here: str, area: str, origin: str | None) -> str | None:
    """Why 7.3.5.5 forbids a lead defender's retreat from ``here`` to ``area`` ("Retreats must
    increase the range from the target to the attacker, and cannot decrease the range to
    another enemy unit"), or None."""
    if origin is not None and b.g.distance(area, origin) <= b.g.distance(here, origin):
        return f"not farther from the attacker in {origin} (7.3.5.5)"
    side = b.s.units[uid].side
    closer = next((e for e in b.on_map(other(side))
                   if e.area is not None and e.area != origin
                   and b.g.distance(area, e.area) < b.g.distance(here, e.area)
                   and fire_reaches(b, e.id, area, uid)), None)
    return f"nearer to {closer.id} in {closer.area}, in its range (7.3.5.5)" if closer else None


def no_retreat(b: Board, uid: str, origin: str | None, exclude: str | None, rule: str) -> Event | None:
    """The line telling the owner that ``uid`` has no legal retreat and why, area by area
    (the first rule that forbids each), so its hits do not land unexplained; None when it
    has one.  The Hind never retreats: 10.2 "It may only use its action points to conduct
    ranged combat", and a retreat "use[s] all of the retreating unit's action points" (7.3.3)."""
    spec = b.spec(uid)
    if is_hind(spec):
        why = "the Hind uses its action points only to fire (10.2), and a retreat uses them all (7.3.3)"
    elif is_t12(spec):
        why = "the T-12 cannot move from its area, even to retreat (9.6)"
    else:
        checks = retreat_checks(b, uid, origin, exclude, assault=rule == "7.3.5.5")
        if not checks or any(v is None for v in checks.values()):
            return None
        grouped: dict[str, list[str]] = {}
        for area, reason in checks.items():
            grouped.setdefault(reason or "", []).append(area)
        why = "; ".join(f"{b.area_list(areas)}: {reason}" for reason, areas in grouped.items())
        if len(why) > LINE_ROOM:  # a phone line: the rules alone
            rules = sorted({r for reason in grouped for r in re.findall(r"\(([\d.]+)\)", reason)})
            why = f"no adjacent area is allowed ({', '.join(rules)})"
    return Event(kind="no-retreat", rule=rule, text=f"{uid} cannot retreat to negate a hit: {why}")


def retreat_one(b: Board, uid: str, to: str, rule: str) -> Event:
    """7.3.3 / 7.3.5.5: retreat one area to negate one hit; it uses all the unit's AP."""
    unit = b.s.units[uid]
    start = unit.area or ""
    company = along(b, uid, move_unit(b, uid, to))
    unit.ap = 0
    b.s.marks.append(MarkRecord(kind="retreat", areas=[start, to], side=unit.side))
    return Event(kind="retreat", text=f"{uid} retreats {start}→{to}{company}, one hit negated ({rule})", rule=rule)


def safest(b: Board, uid: str, options: list[str]) -> str:
    """Of the areas a unit may retreat to, the one farthest from any enemy (a standing
    "always" answer); ties go to map order."""
    enemies = b.enemy_areas(b.s.units[uid].side)
    return max(options, key=lambda a: (min((b.g.distance(a, e) for e in enemies), default=99),
                                       -options.index(a)))


def move_unit(b: Board, uid: str, to: str) -> list[str]:
    """Put a unit in ``to``; leaders left alone in its old area go with it (9.7-9.9: each
    "must remain in an area, and always move, with at least one other unit").  The leaders
    that went along."""
    unit = b.s.units[uid]
    old = unit.area
    unit.area = to
    went: list[str] = []
    if old is not None and not is_leader(b.spec(uid)) and not b.combatants_in(old, unit.side):
        for leader in b.leaders_in(old, unit.side):
            leader.area = to
            went.append(leader.id)
    return went


def along(b: Board, uid: str, leaders: list[str]) -> str:
    """Who went with a unit that retreated or routed, so that no counter moves unsaid:
    `` with NIKOLAS (9.7-9.9: a leader is never left without a unit) and SAGGER (riding
    with it, 9.3, 9.4)``."""
    parts = [f"{', '.join(leaders)} (9.7-9.9: a leader is never left without a unit)"] if leaders else []
    riders = [r.id for r in b.riders(uid)]
    if riders:
        parts.append(f"{', '.join(riders)} (riding with it, 9.3, 9.4)")
    return " with " + " and ".join(parts) if parts else ""


def withdraw_options(b: Board, uid: str, avoid: str | None = None) -> list[str]:
    """7.3.5.2: "the defender must retreat to an adjacent area": the adjacent areas with no
    enemy, within stacking; none for the immovable T-12 (9.6).  Best first for a standing
    answer: not the area the attackers came from (``avoid``) when another will do, then the
    farthest from any other enemy, then map order."""
    b = b.reading()
    unit = b.s.units[uid]
    here = unit.area or ""
    if is_t12(b.spec(uid)):
        return []
    enemies = b.enemy_areas(unit.side) - {here}
    legal = [a for a in b.g.neighbours(here)
             if not b.enemy_held(a, unit.side) and b.stack_problem(a, [uid]) is None]
    return sorted(legal, key=lambda a: (a == avoid, -min((b.g.distance(a, e) for e in enemies), default=99),
                                        legal.index(a)))


def withdraw_to(b: Board, uid: str, to: str | None) -> Event:
    """7.3.5.2: the unit retreats to ``to`` with AP 0, or, with nowhere to go, is eliminated."""
    if to is None:
        eliminate(b, uid)
        return Event(kind="retreat", text=f"{uid} cannot retreat: eliminated (7.3.5.2)", rule="7.3.5.2")
    b.s.units[uid].ap = 0
    start = b.s.units[uid].area or ""
    company = along(b, uid, move_unit(b, uid, to))
    b.s.marks.append(MarkRecord(kind="retreat", areas=[start, to], side=b.s.units[uid].side))
    return Event(kind="retreat", text=f"{uid} retreats {start}→{to}{company}, AP 0 (7.3.5.2)", rule="7.3.5.2")


def alive(b: Board) -> set[str]:
    """The units still in play (for announcing who left it during an order)."""
    return {u.id for u in b.s.units.values() if u.place != "gone"}


def gone_since(b: Board, before: set[str], skip: frozenset[str] | set[str] = frozenset()) -> list[Event]:
    """One line for each unit that left play since ``before`` (but those of ``skip``, already
    announced): leaders left alone (9.7-9.9), ATGM teams with their company (9.3, 9.4)."""
    out = []
    for uid in sorted(before - alive(b) - set(skip), key=list(b.s.units).index):
        spec = b.spec(uid)
        if is_leader(spec):
            text, rule = f"{uid} removed from play: no unit of his side left with him (9.7-9.9)", "9.7"
        elif spec.attached_to or spec.kind == "atgm":
            text, rule = f"{uid} removed with its company (9.3, 9.4)", "9.3"
        else:
            text, rule = f"{uid} eliminated", "7.3.3"
        out.append(Event(kind="gone", text=text, rule=rule, data={"unit": uid}))
    return out


def attackable(b: Board, unit: UnitState) -> bool:
    """Units that can be attacked: not leaders (9.7-9.9), riders or the sniper; the Hind can."""
    return target_problem(b, unit) is None


def target_problem(b: Board, unit: UnitState) -> str | None:
    """Why ``unit`` cannot be attacked, with the rule that says so, or None (see
    :func:`attackable`)."""
    spec = b.spec(unit.id)
    if is_sniper(spec):
        return "the sniper is never on the map to be attacked; it only shoots (9.2)"
    if is_leader(spec):
        return "a leader cannot be attacked directly; attack the units of his area (9.7-9.9)"
    if is_rider(spec):
        return "an ATGM team stays with its company; attack the company (9.3, 9.4)"
    if unit.place != "map":
        return "the Hind is off the map until its next flight (10.2)" if is_hind(spec) else "it is not on the map"
    return None


def enemy_targets(b: Board, side: str) -> list[UnitState]:
    """The enemy units on the map that may be attacked."""
    return [u for u in b.on_map(other(side)) if attackable(b, u)]
