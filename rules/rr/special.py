"""Special units' orders (9.2 sniper, 9.7 Nikolas, 9.8 Boyes, 9.10 HQ) and the Hind (10.2).

Each is the whole of an impulse, but for Col. Nikolas's help: it activates no area (7.0), so the
impulse goes on (his and Boyes's rally help are rally decisions).
Readings: Nikolas's +1 waits on the unit until it next uses that value this turn (or the turn
ends); Boyes arms a reroll of the die the player names on the unit's next 2d6 roll this turn,
if it fails or on any roll as the player says (see README); the HQ may not give a unit more AP than its counter shows,
nor give AP to a Suppressed unit ("Suppressed units lose all action points", 6.2.1); a
Recovering unit may take it (9.10: "any unit in its, or an adjacent area").
"""

from __future__ import annotations

from collections.abc import Iterator

from rules.core.contract import Action, Event
from rules.core.dice import Dice
from rules.core.errors import RuleError
from rules.core.orders import Ctx, order
from rules.rr.actions import Boyes, Hind, Hq, Nikolas, Sniper
from rules.rr.board import Board, is_combatant, is_hind, is_hq, is_mortar, is_sniper, ready_problem
from rules.rr.hits import enemy_targets, target_problem
from rules.rr.impulse import Offers, area_named, impulse
from rules.rr.rally import help_rally, rallying_with
from rules.rr.sequence import rally_helped
from rules.rr.state import MarkRecord, RRState, UnitState, other

#: 9.7: the values Col. Nikolas can raise in an impulse (a mortar's range only for mortars).
BOOSTS = ("rcm", "acm", "df", "range")
SNIPER_AFTER_FIRST = 2  # 9.2: +2 to the die from the second use


def leader(b: Board, side: str, special: str, label: str, rule: str) -> UnitState:
    """The named leader of ``side`` on the map with an AP, or a RuleError."""
    for unit in b.on_map(side):
        if b.spec(unit.id).special == special:
            if unit.ap < 1:
                raise RuleError(f"{label} has no AP left this turn ({rule}).")
            return unit
    raise RuleError(f"{label} is not on the map ({rule}).")


def nikolas(b: Board, side: str, uid: str, value: str) -> list[Event]:
    """9.7: Col. Nikolas spends 1 AP: +1 to one value of a unit in his area.  It activates no
    area to move or fire (7.0), so the impulse stays with his side (the unit he helped may act
    in it); 7.1 "no more than one AP in an impulse" allows one such help an impulse."""
    col = leader(b, side, "nikolas", "Col. Nikolas", "9.7")
    if b.s.nikolas_spent:
        raise RuleError("Col. Nikolas has spent his AP in this impulse: a unit spends no more than "
                        "one AP in an impulse (7.1); give the impulse's order.")
    unit = b.unit(uid, side)
    if unit.area != col.area or not is_combatant(b.spec(unit.id)):
        raise RuleError(f"Col. Nikolas helps a unit in his area {col.area} (9.7).")
    if value == "morale":
        raise RuleError("Col. Nikolas raises morale in the rally phase, before the rolls (9.7).")
    if value not in BOOSTS:
        raise RuleError(f"Col. Nikolas raises rcm, acm, df or a mortar's range, not '{value[:20]}' (9.7).")
    if value == "range" and not is_mortar(b.spec(unit.id)):
        raise RuleError("Only a mortar's range differs from its RCM; raise rcm instead (9.7).")
    if value in unit.boost:
        raise RuleError(f"{unit.id} already has Nikolas's +1 {value} waiting (9.7).")
    col.ap -= 1
    unit.boost.append(value)
    b.s.nikolas_spent = True
    return [Event(kind="nikolas", rule="9.7", text=f"Col. Nikolas: {unit.id} +1 {value.upper()} for its next use "
                                                   f"(9.7); the impulse goes on: your order (7.0, 7.1)")]


def boyes(b: Board, side: str, uid: str, die: str = "worse", use: str = "failed") -> list[Event]:
    """9.8: Pvt. Boyes spends 1 AP so a unit in his area may reroll one die of its next 2d6
    roll: the die the player names, on a failed roll or on any (the bot rolls inside the
    order, so the player says beforehand)."""
    pvt = leader(b, side, "boyes", "Pvt. Boyes", "9.8")
    unit = b.unit(uid, side)
    if unit.area != pvt.area or not is_combatant(b.spec(unit.id)):
        raise RuleError(f"Pvt. Boyes helps a unit in his area {pvt.area} (9.8).")
    if unit.reroll:
        raise RuleError(f"{unit.id} already has a reroll waiting (9.8).")
    pvt.ap -= 1
    return [arm_reroll(unit, die, use)]


def arm_reroll(unit: UnitState, die: str, use: str) -> Event:
    """9.8: the reroll waits on ``unit`` for its next 2d6 roll."""
    unit.reroll = True
    unit.reroll_die = die  # type: ignore[assignment]
    unit.reroll_use = use  # type: ignore[assignment]
    which = {"worse": "the worse die", "lower": "the lower die", "higher": "the higher die"}[die]
    when = "if it fails" if use == "failed" else "whatever it gives"
    return Event(kind="boyes", rule="9.8", text=f"Pvt. Boyes: {unit.id} rerolls {which} of its next roll {when} (9.8)")


def nikolas_rally(b: Board, side: str, uid: str, value: str) -> list[Event]:
    """9.7: in the rally phase, Col. Nikolas's AP: +1 morale to one unit of his area."""
    if value != "morale":
        raise RuleError("In the rally phase Col. Nikolas raises morale: value:morale (9.7).")
    unit = help_rally(b, side, uid, "nikolas")
    unit.boost.append("morale")
    return [Event(kind="nikolas", rule="9.7", text=f"Col. Nikolas: {unit.id} +1 morale for its rally (9.7)")]


def boyes_rally(b: Board, side: str, uid: str, die: str, use: str) -> list[Event]:
    """9.8 "even during a rally attempt": a reroll for a unit of his area about to rally."""
    return [arm_reroll(help_rally(b, side, uid, "boyes"), die, use)]


def hq(b: Board, side: str, uid: str) -> list[Event]:
    """9.10: once a turn the German HQ spends 1 AP to give +1 AP to a nearby unit."""
    head = next((u for u in b.on_map(side) if is_hq(b.spec(u.id))), None)
    why = "it is not on the map" if head is None else ready_problem(head, "9.10")
    if why or head is None:
        raise RuleError(f"The German HQ cannot give an AP: {why}.")
    if b.s.hq_turn == b.s.turn:
        raise RuleError("The German HQ has given its AP this turn already (9.10).")
    unit = b.unit(uid, side)
    why = hq_problem(b, head, unit)
    if why:
        raise RuleError(f"The HQ cannot give {unit.id} an AP: {why}.")
    head.ap -= 1
    unit.ap += 1
    b.s.hq_turn = b.s.turn
    return [Event(kind="hq", rule="9.10", text=f"HQ: {unit.id} +1 AP, now {unit.ap} (9.10)")]


def hq_problem(b: Board, head: UnitState, unit: UnitState) -> str | None:
    """9.10: why the HQ ``head`` cannot give ``unit`` an AP (the first condition that fails,
    with its rule and what is allowed), or None.  "Give any unit in its, or an adjacent
    area, an action point": a Recovering unit too (its AP are only not reset, 6.2); never a
    Suppressed one ("Suppressed units lose all action points", 6.2.1) and never beyond the
    counter's AP dots (7.1)."""
    spec = b.spec(unit.id)
    if unit.id == head.id:
        return "it gives its AP to another unit (9.10)"
    if not is_combatant(spec):
        return f"{unit.id} spends no AP of its own; give it to a unit of its area (9.3, 9.7-9.9)"
    near = [head.area or ""] + b.g.neighbours(head.area or "")
    if unit.place != "map" or unit.area not in near:
        return f"it gives AP in its area or an adjacent one: {b.area_list(near)} (9.10)"
    if unit.status == "suppressed":
        return "Suppressed units lose all action points (6.2.1); it may help a unit that is not Suppressed"
    if unit.ap >= b.max_ap(unit.id):
        return f"{unit.id} already has all its AP, {b.max_ap(unit.id)} (7.1)"
    return None


def sniper(b: Board, side: str, uid: str, dice: Dice) -> list[Event]:
    """9.2: 1d6 (+2 after the first use): 1-4 the unit is Suppressed, 5-6 the sniper is gone."""
    shooter = next((u for u in b.s.units.values() if u.side == side and is_sniper(b.spec(u.id))), None)
    if shooter is None or shooter.place == "gone":
        raise RuleError("You have no sniper (9.2).")
    if b.s.sniper_turn == b.s.turn:
        raise RuleError("The sniper acts once per turn (9.2).")
    target = b.unit(uid, other(side))
    if is_hind(b.spec(target.id)):
        raise RuleError("The sniper cannot attack the Hind (9.2); name a unit in Tannenbruck.")
    why = target_problem(b, target)
    if why:
        raise RuleError(f"The sniper cannot shoot {target.id}: {why}.")
    if not b.sc.area_by_id[target.area or ""].city:
        raise RuleError(f"The sniper shoots only in Tannenbruck; area {target.area} is not in it (9.2).")
    mod = SNIPER_AFTER_FIRST if b.s.sniper_uses else 0
    roll = dice.die(6, f"sniper at {target.id}, 1d6", side=side)
    b.s.sniper_uses += 1
    b.s.sniper_turn = b.s.turn
    total = roll + mod
    b.s.marks.append(MarkRecord(kind="shot", areas=[target.area or ""], side=side))
    head = f"🎲 {roll}{f' +{mod} reuse' if mod else ''} = {total}"
    if total >= 5:
        shooter.place = "gone"
        return [Event(kind="sniper", rule="9.2", text=f"{head}: the sniper is lost (9.2)")]
    if target.status == "suppressed":
        return [Event(kind="sniper", rule="9.2", text=f"{head}: {target.id} already Suppressed (9.2)")]
    target.status, target.ap = "suppressed", 0
    return [Event(kind="sniper", rule="9.2", text=f"{head}: {target.id} Suppressed, no retreat (9.2)")]


def hind_problem(b: Board, heli: UnitState | None) -> str | None:
    """10.2: why the Hind cannot be placed now, the one cause that holds, or None."""
    if heli is None:
        return "this scenario has no Hind (10.2)"
    if heli.place == "gone":
        return "it was reduced and is out of play for good (10.2)"
    if heli.place == "map":
        return f"it is already over area {heli.area}; fire with it from there (10.2)"
    if b.s.hind_ok:
        return None
    if b.s.init_rolls.get("nato", 7) <= b.s.turn:
        return ("NATO has an airstrike this turn: \"The Hind is not available on any turn when "
                "NATO has an Airstrike\" (10.1, 10.2); it may come next turn")
    # 10.2: placed, it stays until the administrative phase unless Suppressed ("Remove the
    # Hind from the game map if it is Suppressed.  It will return normally the following
    # turn"): in the pool without leave to come in, on a turn with no NATO airstrike, it was
    # shot off the map this turn.
    return "it was Suppressed this turn and left the map; it returns next turn (10.2)"


def hind(b: Board, side: str, area: str) -> list[Event]:
    """10.2: the Hind comes in over an area with no enemy units, with its full AP."""
    heli = next((u for u in b.s.units.values() if u.side == side and is_hind(b.spec(u.id))), None)
    why = hind_problem(b, heli)
    if why or heli is None:  # hind_problem says why when there is no Hind
        raise RuleError(f"The Hind cannot come in: {why}.")
    if area not in b.g:
        raise RuleError(f"There is no area '{area[:10]}'.")
    if b.in_area(area, other(side)):
        raise RuleError(f"Area {area} holds enemy units; the Hind goes to a non-enemy area (10.2).")
    problem = b.stack_problem(area, [heli.id])
    if problem:
        raise RuleError(f"The Hind cannot go there: {problem}.")
    heli.place, heli.area, heli.ap, heli.status = "map", area, b.max_ap(heli.id), "ok"
    b.s.hind_ok = False
    b.s.marks.append(MarkRecord(kind="place", areas=[area], side=side))
    return [Event(kind="hind", rule="10.2", text=f"The Hind arrives over {area} (10.2)")]


# -- the orders ---------------------------------------------------------------------------------


def _mates(b: Board, unit: UnitState) -> list[UnitState]:
    return [m for m in b.in_area(unit.area or "", unit.side) if is_combatant(b.spec(m.id))]


def _leader(b: Board, side: str, special: str) -> UnitState | None:
    """The named leader of ``side`` on the map with an AP to spend."""
    return next((u for u in b.on_map(side) if b.spec(u.id).special == special and u.ap >= 1), None)


@Offers
def nikolas_orders(b: Board, side: str) -> Iterator[Action]:
    """9.7: +1 to each value of each unit in his area not already raised; in the rally
    phase, +1 morale to one unit of his area about to roll."""
    if b.s.phase == "rally":
        yield from (Nikolas(unit=u.id, value="morale") for u in rallying_with(b, side, "nikolas"))
        return
    col = _leader(b, side, "nikolas") if not b.s.nikolas_spent else None  # 7.1
    for mate in _mates(b, col) if col else []:
        values = BOOSTS if is_mortar(b.spec(mate.id)) else BOOSTS[:3]
        yield from (Nikolas(unit=mate.id, value=v) for v in values if v not in mate.boost)


@order(Nikolas, phases=("ops", "rally"), offers=nikolas_orders)
def nikolas_order(ctx: Ctx[RRState], action: Nikolas) -> None:
    """9.7: +1 to one value of a unit in his area; in the rally, +1 morale to one unit."""
    if ctx.state.phase == "rally":
        rally_helped(ctx, nikolas_rally(Board(ctx.state), ctx.side, action.unit, action.value))
        return
    ctx.state.marks = []
    ctx.extend(nikolas(Board(ctx.state), ctx.side, action.unit, action.value))  # the impulse goes on (7.0)


@Offers
def boyes_orders(b: Board, side: str) -> Iterator[Action]:
    """9.8: a reroll for each unit in his area that has none waiting (in the rally phase,
    those about to roll), each die and use the player may choose."""
    if b.s.phase == "rally":
        units = rallying_with(b, side, "boyes")
    else:
        pvt = _leader(b, side, "boyes")
        units = [m for m in (_mates(b, pvt) if pvt else []) if not m.reroll]
    yield from (Boyes(unit=u.id, die=d, use=w) for u in units
                for d in ("worse", "lower", "higher") for w in ("failed", "any"))


@order(Boyes, phases=("ops", "rally"), offers=boyes_orders)
def boyes_order(ctx: Ctx[RRState], action: Boyes) -> None:
    """9.8: a reroll for a unit in his area (in an impulse, or before its rally roll)."""
    if ctx.state.phase == "rally":
        rally_helped(ctx, boyes_rally(Board(ctx.state), ctx.side, action.unit, action.die, action.use))
        return
    impulse(ctx, lambda b: boyes(b, ctx.side, action.unit, action.die, action.use))


@Offers
def hq_orders(b: Board, side: str) -> Iterator[Action]:
    """9.10: once a turn, +1 AP to a unit in or next to the HQ's area."""
    s = b.s
    for head in b.on_map(side):
        if not is_hq(b.spec(head.id)) or head.ap < 1 or head.status != "ok" or s.hq_turn == s.turn:
            continue
        yield from (Hq(unit=m.id) for m in b.on_map(side) if hq_problem(b, head, m) is None)


@order(Hq, phases="ops", offers=hq_orders)
def hq_order(ctx: Ctx[RRState], action: Hq) -> None:
    """9.10: +1 AP to a nearby unit."""
    impulse(ctx, lambda b: hq(b, ctx.side, action.unit))


@Offers
def sniper_orders(b: Board, side: str) -> Iterator[Action]:
    """9.2: once a turn, at each enemy unit in Tannenbruck."""
    s = b.s
    shooter = next((u for u in s.units.values() if u.side == side and is_sniper(b.spec(u.id))), None)
    if shooter is None or shooter.place == "gone" or s.sniper_turn == s.turn:
        return
    yield from (Sniper(target=t.id) for t in enemy_targets(b, side)
                if not is_hind(b.spec(t.id)) and b.sc.area_by_id[t.area or ""].city)


@order(Sniper, phases="ops", offers=sniper_orders)
def sniper_order(ctx: Ctx[RRState], action: Sniper) -> None:
    """9.2: the sniper's shot."""
    impulse(ctx, lambda b: sniper(b, ctx.side, action.target, ctx.dice))


@Offers
def hind_orders(b: Board, side: str) -> Iterator[Action]:
    """10.2: the Hind to each area with no enemy units, within stacking."""
    heli = next((u for u in b.s.units.values() if u.side == side and is_hind(b.spec(u.id))), None)
    if heli is None or heli.place != "pool" or not b.s.hind_ok:
        return
    yield from (Hind(area=a) for a in b.g.ids if not b.in_area(a, other(side))
                and b.stack_problem(a, [heli.id]) is None)


@order(Hind, phases="ops", offers=hind_orders)
def hind_order(ctx: Ctx[RRState], action: Hind) -> None:
    """10.2: the Hind comes in."""
    impulse(ctx, lambda b: hind(b, ctx.side, area_named(b, action.area)))
