"""The rally phase (6.2) and what comes with it: the reinforcements' reminder (11.0),
cadre rolls (7.3.6), the AP reset and the rally rolls, in the rulebook's order.

Before the rolls, each side (the initiative first) decides: Col. Nikolas may spend an AP to
add +1 to the morale of *one* unit of his area (9.7: "to increase the morale of one unit in
his area"); Pvt. Boyes may spend an AP so a unit of his area rerolls one die of its rally,
the die and when chosen by the player (9.8).  Nothing is spent unasked.
"""

from __future__ import annotations

from rules.core.contract import Event
from rules.core.dice import Dice
from rules.core.errors import RuleError
from rules.rr.board import Board, is_combatant, is_rider
from rules.rr.rolls import dice_text, roll_2d6
from rules.rr.state import SIDE_NAMES, Side, UnitState, other


def sides_in_order(b: Board) -> list[Side]:
    """The initiative side first (6.1)."""
    return [b.s.initiative, other(b.s.initiative)]


def due_now(b: Board) -> list[Event]:
    """11.0: remind each side of the reinforcements whose turn has come."""
    events = []
    for dep in b.sc.deployments:
        if dep.turn != b.s.turn or dep.mode == "setup":
            continue
        names = [u for u in dep.units if b.s.units[u].place == "pool"
                 and b.s.units[u].side == dep.side and not is_rider(b.spec(u))]
        if not names:
            continue
        how = f"enter at {'/'.join(dep.areas)} (1 AP)" if dep.mode == "enter" else "place (no AP)"
        events.append(Event(kind="reinforcements", rule="11.0",
                            text=f"{SIDE_NAMES[dep.side]} may {how}: {', '.join(names)} (11.0)"))
    return events


def cadres(b: Board, dice: Dice) -> list[Event]:
    """7.3.6: one roll per VDV Para eliminated since; 1-4 (-1 for the 2nd and 3rd) returns it
    reduced to area 29, unless NATO controls 29 (or stacking forbids it: then it is lost)."""
    s = b.s
    events = []
    area = b.sc.cadre_area
    for uid, ordinal in sorted(s.cadres.items(), key=lambda kv: kv[1]):
        s.cadre_rolled.append(uid)  # "Roll only once for each eliminated VDV Para" (7.3.6)
        if b.controller(area) == "nato" or b.enemy_held(area, "soviet"):
            events.append(Event(kind="cadre", rule="7.3.6", text=f"{uid}: NATO holds {area}, no cadre (7.3.6)"))
            continue
        roll = dice.die(6, f"{uid} cadre, 1d6", side="soviet")  # 7.3.6: a VDV Para's
        mod = -1 if ordinal >= 2 else 0
        ok = roll + mod <= 4 and b.stack_problem(area, [uid]) is None
        text = f"🎲 {roll}{f' {mod:+d} 2nd/3rd' if mod else ''} = {roll + mod}: {uid} "
        if ok:
            unit = s.units[uid]
            unit.place, unit.area, unit.reduced, unit.status, unit.ap = "map", area, True, "ok", 0
            text += f"returns reduced in {area} (7.3.6)"
        else:
            text += "is lost (7.3.6)"
        events.append(Event(kind="cadre", rule="7.3.6", text=text, data={"roll": roll}))
    s.cadres = {}
    return events


def reset_ap(b: Board) -> list[Event]:
    """6.2 step 2: every unit not Suppressed or Recovering gets its full AP."""
    for unit in b.on_map():
        if unit.status == "ok":
            unit.ap = b.max_ap(unit.id)
    return [Event(kind="reset", rule="6.2", text="AP reset, except Suppressed/Recovering (6.2)")]


def rally(b: Board, dice: Dice) -> list[Event]:
    """6.2 step 3: 2d6 <= morale (+1 Recovering, +1 Nikolas) rallies and resets AP; a failed
    Suppressed unit turns Recovering; a failed Recovering unit loses its marker, AP not reset."""
    events = []
    for side in sides_in_order(b):
        for unit in [u for u in b.on_map(side) if u.status != "ok"]:
            target = b.morale(unit.id)
            mods = ""
            if unit.status == "recovering":
                target += 1
                mods += " +1 Rec"
            if "morale" in unit.boost:  # 9.7: Nikolas's AP, spent in the rally decisions
                unit.boost.remove("morale")
                target += 1
                mods += " +1 Nikolas 9.7"
            goal = target
            faces, note = roll_2d6(dice, f"{unit.id} rally, 2d6", unit, good=lambda t: t <= goal,
                                   high_good=False)
            ok = sum(faces) <= target
            was = unit.status
            if ok:
                unit.status, unit.ap = "ok", b.max_ap(unit.id)
                outcome = "rallies, AP reset"
            elif was == "suppressed":
                unit.status = "recovering"
                outcome = "fails, now Recovering"
            else:
                unit.status = "ok"
                outcome = "fails, marker off, AP not reset"
            events.append(Event(
                kind="rally", rule="6.2",
                text=f"{dice_text(faces)} = {sum(faces)} vs morale {b.morale(unit.id)}{mods}"
                     f"{f' = {target}' if mods else ''}: "
                     f"{unit.id} {outcome} (6.2){note}",
                data={"unit": unit.id, "dice": faces, "target": target, "rallied": ok},
            ))
    return events


def leader_with_ap(b: Board, area: str, side: str, special: str) -> UnitState | None:
    """The named leader in ``area`` if he has an AP to spend, else None."""
    for unit in b.in_area(area, side):
        if b.spec(unit.id).special == special and unit.ap >= 1:
            return unit
    return None


def _leader(b: Board, side: str, special: str) -> UnitState | None:
    """The named leader of ``side`` on the map with an AP to spend."""
    return next((u for u in b.on_map(side) if b.spec(u.id).special == special and u.ap >= 1), None)


def rallying_with(b: Board, side: str, special: str) -> list[UnitState]:
    """The units about to roll to rally in the area of ``side``'s named leader, if he has
    an AP: Nikolas's only while he has helped no unit this rally (9.7: "one unit"), Boyes's
    those without a reroll waiting (9.8)."""
    head = _leader(b, side, special)
    if head is None:
        return []
    units = [u for u in b.in_area(head.area or "", side) if u.status != "ok" and is_combatant(b.spec(u.id))]
    if special == "nikolas":
        return [] if any("morale" in u.boost for u in b.on_map(side)) else units
    return [u for u in units if not u.reroll]


def wants_help(b: Board, side: str) -> bool:
    """Whether ``side`` has a rally decision to make (and has not said "never" to them)."""
    if b.s.rally_help.get(side, "ask") != "ask" or side in b.s.rally_done:
        return False
    return bool(rallying_with(b, side, "nikolas") or rallying_with(b, side, "boyes"))


def help_rally(b: Board, side: str, uid: str, special: str) -> UnitState:
    """9.7/9.8 in the rally phase: the leader spends an AP on a unit of his area about to
    roll; returns the unit, or a RuleError naming those he may help."""
    names = {"nikolas": ("Col. Nikolas", "9.7"), "boyes": ("Pvt. Boyes", "9.8")}[special]
    allowed = rallying_with(b, side, special)
    unit = b.unit(uid, side)
    if unit not in allowed:
        which = ", ".join(u.id for u in allowed) or "none now"
        raise RuleError(f"{names[0]} may help a unit of his area about to rally: {which} ({names[1]}).")
    head = _leader(b, side, special)
    assert head is not None
    head.ap -= 1
    return unit
