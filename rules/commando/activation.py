"""Activation: officers' direction, the activation roll and spending actions.

Activation Roll: one d6 per unit, -1 for Germans, +1 officer direction, -2 if seen by a
searchlight; below 1 no action, 1-2 one, 3-4 two, 5+ three.  Pillboxes need no roll and
always have one shooting action; searchlights never act.
"""

from __future__ import annotations

from rules.commando.actions import Direct
from rules.commando.state import RaidState, UnitState
from rules.core import table
from rules.core.contract import Event
from rules.core.dice import Dice
from rules.core.errors import RuleError

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


def check_direct(state: RaidState, side: str, order: Direct) -> tuple[UnitState, UnitState]:
    """Validate an officer's direction; returns (officer, unit directed)."""
    if state.phase != "command":
        raise RuleError("Officers direct before the activation roll; this turn has been rolled.")
    officer = state.own_unit(side, order.officer)
    if not officer.officer:
        officers = [u.id for u in state.alive(side) if u.officer] or ["none"]
        raise RuleError(f"{officer.id} has no officer; units with officers: {', '.join(officers)}.")
    if officer.directing is not None:
        raise RuleError(f"{officer.id} already directs {officer.directing} this turn.")
    if officer.directed_by is not None:
        raise RuleError(f"{officer.id} is directed by {officer.directed_by}, so it activates.")
    unit = state.own_unit(side, order.unit)
    if unit.id == officer.id:
        raise RuleError("An officer cannot direct its own unit; pick another friendly unit.")
    if unit.static:
        raise RuleError(f"{unit.id} does not roll for activation, so direction gives it nothing.")
    if unit.directed_by is not None:
        raise RuleError(f"{unit.id} is already directed by {unit.directed_by}.")
    if unit.directing is not None:
        raise RuleError(f"{unit.id} is directing {unit.directing} and will not activate.")
    gap = table.distance(officer.pos, unit.pos)
    if table.beyond(gap, OFFICER_RANGE):
        raise RuleError(f'{unit.id} is {table.inches(gap)} from {officer.id}; officers reach 6".')
    return officer, unit


def direct(state: RaidState, side: str, order: Direct) -> list[Event]:
    """Officers: the officer will not activate; the unit gets +1 on its activation roll."""
    officer, unit = check_direct(state, side, order)
    officer.directing = unit.id
    unit.directed_by = officer.id
    gap = table.distance(officer.pos, unit.pos)
    return [Event(
        kind="direct",
        text=f"{officer.id} directs {unit.id} {table.inches(gap)}: +1 (Officers)",
        rule="Officers",
        data={"officer": officer.id, "unit": unit.id, "distance": round(gap, 2)},
    )]


def roll(state: RaidState, side: str, dice: Dice) -> list[Event]:
    """Roll activation for every unit of ``side`` and open the actions part of the turn."""
    if state.phase != "command":
        raise RuleError("Activation is already rolled this turn; give actions or end the turn.")
    seen = seen_by_searchlight(state) if side == "commandos" else {}
    events: list[Event] = []
    for unit in state.alive(side):
        if unit.kind == "pillbox":
            unit.actions = 1
            events.append(_line(unit, "no roll: 1 shot (Pillboxes)", None, 1))
            continue
        if unit.kind == "searchlight" or unit.directing is not None:
            unit.actions = 0
            if unit.directing is not None:
                events.append(_line(unit, f"directs {unit.directing}: no actions (Officers)",
                                    None, 0))
            continue
        die = dice.die(6, f"{unit.id} activation, d6")
        mods: list[tuple[int, str]] = []
        if unit.side == "germans":
            mods.append((-1, "German"))
        if unit.directed_by is not None:
            mods.append((1, "officer"))
        if unit.id in seen:
            mods.append((-2, "searchlight"))
        score = die + sum(m for m, _ in mods)
        unit.score = score
        unit.actions = actions_for(score)
        shown = "".join(f" {m:+d} {why}" for m, why in mods)
        text = f"🎲 {die}{shown} = {score} → {plural(unit.actions, 'action')}"
        event = _line(unit, text, die, unit.actions)
        event.data.update(directed_by=unit.directed_by, searchlight=seen.get(unit.id))
        events.append(event)
    state.phase = "actions"
    return events


def _line(unit: UnitState, text: str, die: int | None, actions: int) -> Event:
    return Event(
        kind="activation",
        text=f"{unit.id}: {text}",
        rule="Activation Roll",
        data={"unit": unit.id, "die": die, "actions": actions},
    )


def reset_turn(state: RaidState) -> None:
    """Clear every unit's activation before a side's turn (Unit Activation: once per turn)."""
    for unit in state.units:
        unit.score = None
        unit.actions = 0
        unit.moved = False
        unit.shot = False
        unit.directing = None
        unit.directed_by = None

