"""Activation: officers' direction, the activation roll and spending actions.

Activation Roll: one d6 per unit, rolled "for each activated unit" one at a time, -1 for
Germans, +1 officer direction, -2 if seen by a searchlight (as the table stands when that unit
rolls); below 1 no action, 1-2 one, 3-4 two, 5+ three.  Pillboxes need no roll and always
have one shooting action; searchlights never act.

The orders ``direct`` and ``roll`` are declared here.  A side's turn is in phase ``command``
until its first roll and ``actions`` after it: the orders of units that have rolled (moves,
the mortar, assaults, demolitions, wire) are declared with ``phases="actions"``; shooting is
open in both, as pillboxes shoot without a roll.
"""

from __future__ import annotations

from collections.abc import Iterator

from rules.commando.actions import Direct, Roll, accepted
from rules.commando.state import RaidState, UnitState
from rules.core import table
from rules.core.contract import Event
from rules.core.dice import Dice
from rules.core.errors import RuleError
from rules.core.orders import Ctx, order

#: Officers: the unit directed must be within 6".
OFFICER_RANGE = 6.0
#: Searchlights: the closest commando unit within 12" is seen.
SEARCHLIGHT_RANGE = 12.0


def actions_for(score: int) -> int:
    """Actions allowed by an adjusted activation score (Activation Roll)."""
    if score < 1:
        return 0
    if score <= 2:
        return 1
    if score <= 4:
        return 2
    return 3


def plural(n: int, word: str) -> str:
    """``1 action``, ``2 actions``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def spend(unit: UnitState, cost: int, what: str) -> None:
    """Take ``cost`` actions from ``unit`` or refuse, saying what is left (Unit Activation)."""
    if unit.actions < cost:
        raise RuleError(
            f"{unit.id} has {plural(unit.actions, 'action')} left; {what} needs {cost}."
        )
    unit.actions -= cost
    unit.moving = False  # any other action comes between its move and a charge


def seen_by_searchlight(state: RaidState) -> dict[str, str]:
    """Commando unit id -> the searchlight that sees it (Searchlights).

    Each active searchlight picks the closest commando unit within 12"; a unit seen by two
    lights still takes -2 once (the roll lists "-2 if seen by searchlight" as one modifier).
    """
    seen: dict[str, str] = {}
    commandos = [(u.id, u.pos) for u in state.alive("commandos")]
    for light in state.alive("germans"):
        if light.kind != "searchlight":
            continue
        found = table.nearest(light.pos, commandos, within=SEARCHLIGHT_RANGE)
        if found is not None:
            seen.setdefault(found[0], light.id)
    return seen


def act_problem(unit: UnitState) -> str | None:
    """Why ``unit`` cannot spend an action now, or None (Unit Activation)."""
    if unit.actions >= 1:
        return None
    if unit.score is None and not unit.static and unit.directing is None:
        return f"{unit.id} has not rolled for activation yet; roll unit:{unit.id} first."
    return f"{unit.id} has no actions left this turn (Unit Activation)."


def roll_problem(unit: UnitState) -> str | None:
    """Why ``unit`` cannot roll for activation now, or None (Activation Roll)."""
    if unit.kind == "pillbox":
        return f"{unit.id} is a pillbox: no roll, it always has one shot (Pillboxes)."
    if unit.kind == "searchlight":
        return f"{unit.id} is a searchlight; searchlights never activate (Searchlights)."
    if unit.directing is not None:
        return f"{unit.id} directs {unit.directing} this turn instead of activating (Officers)."
    if unit.score is not None:
        return f"{unit.id} has already rolled this turn (Unit Activation: once a turn)."
    return None


def rollable(state: RaidState, side: str) -> list[UnitState]:
    """Units of ``side`` that may still roll for activation this turn, in roster order."""
    return [u for u in state.alive(side) if roll_problem(u) is None]


def check_direct(state: RaidState, side: str, order: Direct) -> tuple[UnitState, UnitState]:
    """Validate an officer's direction; returns (officer, unit directed)."""
    officer = state.own_unit(side, order.officer)
    if not officer.officer:
        officers = [u.id for u in state.alive(side) if u.officer] or ["none"]
        raise RuleError(f"{officer.id} has no officer; units with officers: {', '.join(officers)}.")
    if officer.directing is not None:
        raise RuleError(f"{officer.id} already directs {officer.directing} this turn.")
    if officer.directed_by is not None:
        raise RuleError(f"{officer.id} is directed by {officer.directed_by}, so it activates.")
    if officer.score is not None:
        raise RuleError(f"{officer.id} has activated this turn; an officer directs instead of "
                        "activating (Officers).")
    unit = state.own_unit(side, order.unit)
    if unit.id == officer.id:
        raise RuleError("An officer cannot direct its own unit; pick another friendly unit.")
    if unit.static:
        raise RuleError(f"{unit.id} does not roll for activation, so direction gives it nothing.")
    if unit.directed_by is not None:
        raise RuleError(f"{unit.id} is already directed by {unit.directed_by}.")
    if unit.directing is not None:
        raise RuleError(f"{unit.id} is directing {unit.directing} and will not activate.")
    if unit.score is not None:
        raise RuleError(f"{unit.id} has already rolled; direction adds to the roll, so it comes "
                        "first (Officers).")
    gap = table.distance(officer.pos, unit.pos)
    if table.beyond(gap, OFFICER_RANGE):
        raise RuleError(f'{unit.id} is {table.inches(gap)} from {officer.id}; officers reach 6".')
    return officer, unit


def direct_offers(state: RaidState, side: str) -> Iterator[Direct]:
    """Officers who have not activated, each with the friends within 6" they may direct."""
    officers = [u for u in state.alive(side) if u.officer]
    for officer in officers:
        for mate in state.alive(side):
            offer = Direct(officer=officer.id, unit=mate.id)
            if accepted(check_direct, state, side, offer):
                yield offer


@order(Direct, offers=direct_offers)
def direct(ctx: Ctx[RaidState], action: Direct) -> None:
    """Officers: the officer will not activate; the unit gets +1 on its activation roll."""
    officer, unit = check_direct(ctx.state, ctx.side, action)
    officer.directing = unit.id
    unit.directed_by = officer.id
    gap = table.distance(officer.pos, unit.pos)
    ctx.say("direct", f"{officer.id} directs {unit.id} {table.inches(gap)}: +1 (Officers)",
            "Officers", officer=officer.id, unit=unit.id, distance=round(gap, 2))


def units_to_roll(state: RaidState, side: str, order: Roll) -> list[UnitState]:
    """The units a ``roll`` order activates: the one named, or every one not yet rolled."""
    if order.unit is None:
        found = rollable(state, side)
        if not found:
            raise RuleError("Every unit that can activate has rolled this turn; give its orders "
                            "or end the turn.")
        return found
    unit = state.own_unit(side, order.unit)
    problem = roll_problem(unit)
    if problem is not None:
        raise RuleError(problem)
    return [unit]


def roll_offers(state: RaidState, side: str) -> Iterator[Roll]:
    """Every unit that may still roll, one at a time, and all of them at once."""
    units = rollable(state, side)
    if units:
        yield Roll()
    yield from (Roll(unit=u.id) for u in units)


@order(Roll, offers=roll_offers)
def roll(ctx: Ctx[RaidState], action: Roll) -> None:
    """Activation Roll "for each activated unit": one unit at a time, each with the
    modifiers of the table as it stands when that unit rolls (a searchlight shot out before
    no longer counts)."""
    state = ctx.state
    units = units_to_roll(state, ctx.side, action)
    ctx.extend([roll_unit(state, unit, ctx.dice) for unit in units])
    state.phase = "actions"


def roll_unit(state: RaidState, unit: UnitState, dice: Dice) -> Event:
    """Roll one unit's activation die and set its actions (Activation Roll)."""
    seen = seen_by_searchlight(state) if unit.side == "commandos" else {}
    die = dice.die(6, f"{unit.id} activation, d6")
    mods: list[tuple[int, str]] = []
    if unit.side == "germans":
        mods.append((-1, "German"))
    if unit.directed_by is not None:
        mods.append((1, "officer"))
    if unit.id in seen:
        mods.append((-2, f"{seen[unit.id]} searchlight"))
    score = die + sum(m for m, _ in mods)
    unit.score = score
    unit.actions = actions_for(score)
    shown = "".join(f" {m:+d} {why}" for m, why in mods)
    text = f"🎲 {die}{shown} = {score} → {plural(unit.actions, 'action')}"
    event = _line(unit, text, die, unit.actions)
    event.data.update(directed_by=unit.directed_by, searchlight=seen.get(unit.id))
    return event


def _line(unit: UnitState, text: str, die: int | None, actions: int) -> Event:
    return Event(
        kind="activation",
        text=f"{unit.id}: {text}",
        rule="Activation Roll",
        data={"unit": unit.id, "die": die, "actions": actions},
    )


def unrolled_lines(state: RaidState, side: str) -> list[Event]:
    """At the end of ``side``'s turn, one line naming the units that could have rolled and
    did not (Unit Activation: "Each unit in a player's force is activated once during the
    player's turn"): no actions this turn.  Officers who directed said so when they did."""
    idle = [u.id for u in rollable(state, side)]
    if not idle:
        return []
    return [Event(kind="activation", rule="Unit Activation", data={"units": idle, "actions": 0},
                  text=f"Not activated this turn, no actions: {', '.join(idle)} (Unit Activation)")]


def standing_lines(state: RaidState) -> list[Event]:
    """At the start of a side's turn, its units that need no roll, one line a kind:
    pillboxes "always have one shooting action until they are destroyed" (Pillboxes);
    searchlights never act (Searchlights: they light the closest commando unit)."""
    out = []
    boxes = [u.id for u in state.alive(state.side) if u.kind == "pillbox"]
    lights = [u.id for u in state.alive(state.side) if u.kind == "searchlight"]
    if boxes:
        has = "has 1 shooting action" if len(boxes) == 1 else "have 1 shooting action each"
        out.append(Event(kind="activation", rule="Pillboxes", data={"units": boxes, "actions": 1},
                         text=f"No roll: {', '.join(boxes)} {has} (Pillboxes)"))
    if lights:
        acts = "never acts, it lights" if len(lights) == 1 else "never act, they light"
        out.append(Event(kind="activation", rule="Searchlights", data={"units": lights, "actions": 0},
                         text=f"No roll: {', '.join(lights)} {acts} the closest commando within "
                              f"12\" (Searchlights)"))
    return out


def turn_lines(state: RaidState) -> list[str]:
    """The status lines of the side's turn: who may still roll (officers may direct first,
    Officers) and the actions each unit has left (Unit Activation)."""
    lines = []
    to_roll = rollable(state, state.side)
    officers = [u.id for u in to_roll if u.officer]
    if officers:
        lines.append(f"Officers may direct: {', '.join(officers)}")
    if to_roll:
        lines.append("To roll: " + ", ".join(u.id for u in to_roll))
    if state.phase == "actions" or any(u.actions for u in state.alive(state.side)):
        left = [f"{u.id} {u.actions}" for u in state.alive(state.side) if u.actions]
        lines.append("Actions left: " + (", ".join(left) or "none"))
    return lines


def reset_turn(state: RaidState) -> None:
    """Clear every unit's activation before a side's turn (Unit Activation: once per turn);
    the side's pillboxes get their one shot without a roll (Pillboxes)."""
    for unit in state.units:
        unit.score = None
        unit.actions = 1 if unit.kind == "pillbox" and unit.side == state.side and unit.alive else 0
        unit.moved = False
        unit.moving = False
        unit.shot = False
        unit.directing = None
        unit.directed_by = None
