"""Assault combat (7.3.5): attackers move into an enemy area and fight it out at once.

* AV = 2d6 + the lead's ACM + 1 per supporting unit moving in + 1 Koval (9.9) + 2 air (10.1).
* TDF = the designated defender's DF + TM (none for tanks, 7.3.5.3) -2 Suppressed / -1
  Recovering (7.3.5.4) + 1 per supporting defender that is neither; + 1 when Commissar
  Koval is among the defenders (our reading of "any assault in which she participates").
* AV <= TDF: the attackers go back, AP 0 (7.3.5.1).  Otherwise the lead defender takes the
  hits until eliminated; extra hits are spread by the defender's owner (``take-hits unit:``)
  when more than one unit could take them.  Then stacking points decide who retreats
  (7.3.5.2), AP 0.  Doubles with an airstrike give the lead attacker a hit it cannot negate.
* 7.3.5.5: the lead defender may retreat one area to negate one hit (its owner decides, or
  its standing choice); it then takes the rest it can absorb where it went.
* Our reading: a Territorialheer that loses its assault on arrival (11.0 turn 6) has no area
  to go back to and is eliminated.
"""

from __future__ import annotations

from rules.core.contract import Event
from rules.core.dice import Dice
from rules.core.errors import RuleError
from rules.rr.board import Board, airstrike_problem, can_move, is_hind, is_leader, is_tank, move_problem
from rules.rr.hits import (
    HIT_WORDS, alive, capacity, eliminate, gone_since, no_retreat, retreat_one, retreat_options, safest,
    take_hits, withdraw_options, withdraw_to,
)
from rules.rr.rolls import Mods, contest
from rules.rr.state import MarkRecord, Pending, UnitState, other


def assault_problem(b: Board, unit: UnitState) -> str | None:
    """Why ``unit`` cannot assault now, or None: free to move (:func:`move_problem`: 9.6,
    10.2, on the map, unsuppressed, an AP) and with an ACM ("Units with an asterisk in the
    ACM location cannot initiate or support Assault Combat", 7.3.5 note)."""
    why = move_problem(b, unit)
    if why is None and b.values(unit.id).acm is None:
        return "it has no ACM (*), so it cannot initiate or support an assault (7.3.5)"
    return why


def can_assault(b: Board, unit: UnitState) -> bool:
    """7.3.5: on the map, unsuppressed, 1 AP, an ACM (no asterisk), and free to move (9.6):
    :func:`assault_problem` is None."""
    return can_move(b, unit) and b.values(unit.id).acm is not None


#: Who "cannot be attacked directly", with the rule that says so.
NOT_ATTACKED = {"nikolas": "Col. Nikolas cannot be attacked directly (9.7)",
                "boyes": "Pvt. Boyes cannot be attacked directly (9.8)",
                "koval": "Commissar Koval cannot be attacked directly (9.9)"}


def defender_problem(b: Board, side: str, target: UnitState, area: str) -> str | None:
    """7.3.5 "The DF of the defending unit (as designated by the attacker)": why ``target``
    cannot be designated in ``area``, with the rule and the units that can, or None."""
    spec = b.spec(target.id)
    if target.area == area and target.side != side and not is_leader(spec) and not is_hind(spec):
        return None
    if target.side == side:
        why = f"{target.id} is your own unit"
    elif target.area != area:
        why = f"{target.id} is not in area {area}"
    elif is_hind(spec):
        why = f"{target.id} is attacked only by ranged fire (10.2)"
    else:
        why = NOT_ATTACKED.get(spec.special or "", f"{target.id} is a leader: it cannot be attacked directly (9.7-9.9)")
    allowed = [u.id for u in b.s.in_area(area, other(side))
               if not is_leader(b.spec(u.id)) and not is_hind(b.spec(u.id))]
    return (f"{why}; the defenders you can designate in area {area}: {', '.join(allowed) or 'none'} "
            f"(7.3.5).")


def assault(
    b: Board, side: str, attackers: list[UnitState], leaders: list[UnitState], area: str,
    target: UnitState, dice: Dice, air: bool, origin: str | None,
) -> list[Event]:
    """Resolve an assault by ``attackers`` (lead first) from ``origin`` into ``area``."""
    lead = attackers[0]
    why = defender_problem(b, side, target, area)
    if why:
        raise RuleError(why)
    air_why = airstrike_problem(b.s, side) if air else None
    if air_why:
        raise RuleError(f"No airstrike for this assault: {air_why}.")
    for unit in attackers + leaders:
        unit.area = area
        unit.ap = max(0, unit.ap - 1) if unit in attackers else unit.ap
    if air:
        b.s.airstrike[side] = False
    koval = any(b.spec(u.id).special == "koval" for u in leaders)
    mods: Mods = [(b.values(lead.id).acm or 0, "ACM"), (len(attackers) - 1, "support"),
                  (1 if koval else 0, "Koval 9.9"), (2 if air else 0, "air 10.1")]
    if "acm" in lead.boost:
        lead.boost.remove("acm")
        mods.append((1, "Nikolas"))
    df, dmods = total_defence(b, target, area)
    done = contest(dice, f"{lead.id} assaults {target.id}, 2d6", mods, df, dmods, "7.3.5", lead)
    faces, hits = done.faces, done.hits
    events = [Event(kind="assault", text=f"{lead.id} leads an assault into area {area}", rule="7.3.5"),
              done.event]
    b.s.marks.append(MarkRecord(kind="assault", areas=[origin or area, area], text=HIT_WORDS[hits], side=side,
                                units=[u.id for u in attackers]))
    if air and faces[0] == faces[1]:
        events.append(Event(kind="air", text=f"Doubles with an airstrike: {lead.id} takes a hit (10.1)", rule="10.1"))
        events += take_hits(b, lead.id, 1, "10.1")
    if hits == 0:
        events += send_back(b, side, area, origin, "7.3.5.1")
        return events
    return events + lead_hits(b, side, area, origin, target, hits)


def lead_hits(
    b: Board, side: str, area: str, origin: str | None, target: UnitState, hits: int
) -> list[Event]:
    """7.3.5.5: the lead defender may retreat to negate one hit: its owner decides (or its
    standing choice does); then the hits land (:func:`after_lead`)."""
    options = retreat_options(b, target.id, area, exclude=origin, assault=True)
    choice = b.s.standing.get(target.side, "ask")
    if options and choice == "ask":
        b.s.pending.append(Pending(kind="retreat", side=target.side, unit=target.id, hits=hits,
                                   origin=area, area=area, assault=True, source=origin))
        return [Event(kind="ask", rule="7.3.5.5", data={"options": options, "hits": hits},
                      text=f"{target.id}, {HIT_WORDS[hits]}: retreat to {b.area_list(options)} "
                           f"to negate one, or take-hits? (7.3.5.5)")]
    to = safest(b, target.id, options) if options and choice == "always" else None
    told = no_retreat(b, target.id, area, origin, "7.3.5.5") if not options and choice != "never" else None
    return ([told] if told else []) + after_lead(b, side, area, origin, target.id, hits, to)


def after_lead(
    b: Board, side: str, area: str, origin: str | None, uid: str, hits: int, retreat_to: str | None
) -> list[Event]:
    """7.3.5.2: the lead defender takes the hits until it can absorb no more (less one if it
    retreated); the owner spreads the rest among the area's defenders; then stacking decides."""
    events: list[Event] = []
    if retreat_to is not None:
        events.append(retreat_one(b, uid, retreat_to, "7.3.5.5"))
        hits -= 1
    absorbed = min(hits, capacity(b, uid))
    events += take_hits(b, uid, absorbed, "7.3.5.2")
    left = hits - absorbed
    defending = other(side)
    others = b.combatants_in(area, defending)
    if left and len(others) > 1:
        b.s.pending.append(Pending(kind="spread", side=defending, hits=left, origin=origin, area=area))
        events.append(Event(kind="ask", text=f"{left} more hit(s): assign them with take-hits (7.3.5.2)", rule="7.3.5.2"))
        return events
    if left and others:
        events += take_hits(b, others[0].id, left, "7.3.5.2")
    return events + settle(b, side, area, origin)


def total_defence(b: Board, target: UnitState, area: str) -> tuple[int, Mods]:
    """7.3.5: the designated defender's DF and the TDF modifiers (its supporting units...)."""
    mods: Mods = []
    if not is_tank(b.spec(target.id)):
        mods.append((b.sc.area_by_id[area].tm, "TM"))
    if target.status == "suppressed":
        mods.append((-2, "supp 7.3.5.4"))
    elif target.status == "recovering":
        mods.append((-1, "recov 7.3.5.4"))
    # 7.3.5.4: no Suppressed or Recovering supporter; 7.3.5 note: "Units with an asterisk in
    # the ACM location cannot initiate or support Assault Combat" (a mortar, the T-12...).
    helpers = [u for u in b.combatants_in(area, target.side)
               if u.id != target.id and u.status == "ok" and b.values(u.id).acm is not None]
    mods.append((len(helpers), "support"))
    if any(b.spec(u.id).special == "koval" for u in b.leaders_in(area, target.side)):
        mods.append((1, "Koval 9.9"))  # she adds one to any assault she takes part in
    if "df" in target.boost:
        target.boost.remove("df")
        mods.append((1, "Nikolas"))
    return b.values(target.id).df, mods


def spread_hit(b: Board, uid: str) -> list[Event]:
    """7.3.5.2: the defender's owner gives one extra assault hit to a unit of the area."""
    pending = b.s.pending[0]
    unit = b.unit(uid, pending.side)
    if unit.area != pending.area or unit not in b.combatants_in(pending.area or "", pending.side):
        names = ", ".join(u.id for u in b.combatants_in(pending.area or "", pending.side))
        raise RuleError(f"Give the hit to a defender in area {pending.area}: {names}.")
    events = take_hits(b, unit.id, 1, "7.3.5.2")
    pending.hits -= 1
    left = b.combatants_in(pending.area or "", pending.side)
    if pending.hits > 0 and len(left) > 1:
        return events
    if pending.hits > 0 and left:
        events += take_hits(b, left[0].id, pending.hits, "7.3.5.2")
    b.s.pending.pop(0)
    return events + settle(b, other(pending.side), pending.area or "", pending.origin)


def settle(b: Board, side: str, area: str, origin: str | None) -> list[Event]:
    """7.3.5.2: more attacking stacking points than defending ones: the defenders retreat;
    otherwise the attackers go back where they came from.  The retreating units' AP go to 0."""
    attack = b.points(area, side)
    defend = b.points(area, other(side))
    if not b.combatants_in(area, other(side)):
        before = alive(b)
        for leader in b.leaders_in(area, other(side)):
            eliminate(b, leader.id)
        return gone_since(b, before)
    if attack > defend:
        line = Event(kind="retreat", rule="7.3.5.2",
                     text=f"{attack} vs {defend} SP: the defenders must leave area {area} (7.3.5.2)")
        return [line] + withdraw_next(b, side, area, origin)
    return send_back(b, side, area, origin, "7.3.5.2")


def withdraw_next(b: Board, side: str, area: str, origin: str | None) -> list[Event]:
    """7.3.5.2: each defender retreats to an adjacent area: its owner chooses where when
    there is a choice (unless a standing answer says never/always: the best area then);
    a defender with nowhere to go is eliminated; leaders left behind are removed."""
    defending = other(side)
    events: list[Event] = []
    before = alive(b)
    said: set[str] = set()
    for unit in b.combatants_in(area, defending):
        options = withdraw_options(b, unit.id, origin)
        if len(options) > 1 and b.s.standing.get(defending, "ask") == "ask":
            b.s.pending.append(Pending(kind="withdraw", side=defending, unit=unit.id, area=area, origin=origin))
            events.append(Event(kind="ask", rule="7.3.5.2", data={"options": options},
                                text=f"{unit.id} must retreat: to {b.area_list(options)}? (7.3.5.2)"))
            return events + gone_since(b, before, said)
        said.add(unit.id)
        events.append(withdraw_to(b, unit.id, options[0] if options else None))
    for leader in b.leaders_in(area, defending):
        eliminate(b, leader.id)
    return events + gone_since(b, before, said)


def withdraw_chosen(b: Board, to: str) -> list[Event]:
    """7.3.5.2: the owner's answer to a ``withdraw`` decision; then the next defender."""
    pending = b.s.pending[0]
    uid = pending.unit or ""
    options = withdraw_options(b, uid, pending.origin)
    if to not in options:
        here = b.s.units[uid].area or ""
        why = (f"it is not adjacent to {here}" if to not in b.g.adjacent(here)
               else "enemy in it (5.1)" if b.enemy_held(to, b.s.units[uid].side)
               else b.stack_problem(to, [uid]) or "not allowed")
        raise RuleError(f"{uid} cannot retreat to {to[:10]}: {why}. The defender must retreat "
                        f"to an adjacent area: {b.area_list(options)} (7.3.5.2).")
    b.s.pending.pop(0)
    before = alive(b)
    events = [withdraw_to(b, uid, to)] + gone_since(b, before, {uid})
    return events + withdraw_next(b, other(pending.side), pending.area or "", pending.origin)


def send_back(b: Board, side: str, area: str, origin: str | None, rule: str) -> list[Event]:
    """The attackers return to the area they came from with AP 0 (7.3.5.1, 7.3.5.2)."""
    back = [u for u in b.in_area(area, side) if not is_hind(b.spec(u.id))]
    if not back:
        return []
    before = alive(b)
    for unit in back:
        if origin is None:
            eliminate(b, unit.id)
        else:
            unit.area, unit.ap = origin, 0
    where = f"back to {origin}" if origin else "with nowhere to go: eliminated"
    names = ",".join(u.id for u in back)
    return [Event(kind="back", text=f"{names} {where}, AP 0 ({rule})", rule=rule)] + gone_since(
        b, before, skip={u.id for u in back})
