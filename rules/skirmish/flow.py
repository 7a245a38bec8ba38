"""Turns and Initiatives: who rolls first, activations one by one, the end of the turn.

"At the beginning of each turn, both Players roll a die. The Player that rolls highest has the
first Initiative. Reroll ties. The Player with the Initiative rolls to activate a Unit and
execute that Unit's action, until a Unit 'fails' to activate. At that point the opposing player
then begins a new Initiative and may attempt to activate Units until every Unit has acted. Each
Unit may only activate once per turn."
"""

from __future__ import annotations

from rules.core.contract import Event
from rules.core.dice import Dice
from rules.core import table
from rules.skirmish import morale, prompts
from rules.skirmish.scenario import PointSpec
from rules.skirmish.state import SIDE_NAMES, SIDES, Pending, SkirmishState, UnitState, other

RULE = "Turns"


def waiting(state: SkirmishState, side: str) -> list[UnitState]:
    """Units of ``side`` that have not acted this turn."""
    return [u for u in state.live(side) if not u.activated]


def roll_initiative(state: SkirmishState, dice: Dice) -> list[Event]:
    """Both players roll; highest has the first Initiative; ties are rerolled."""
    lines = []
    while True:
        us = dice.die(6, "us initiative", side="us")
        de = dice.die(6, "germans initiative", side="germans")
        lines.append(f"🎲 Americans {us}, Germans {de}")
        if us != de:
            break
    state.first = "us" if us > de else "germans"
    new_initiative(state, state.first)
    if not waiting(state, state.initiative):
        new_initiative(state, other(state.initiative))
    text = (f"Turn {state.turn}: {'; reroll: '.join(lines)} → {SIDE_NAMES[state.first]} "
            f"have the first Initiative ({RULE})")
    return [Event(kind="initiative", text=text, rule=RULE, data={"first": state.first})]


def resume_initiative(state: SkirmishState, side: str) -> list[Event]:
    """Begin part-way through a turn whose Initiative roll was made (issue 46): ``side``
    had the first Initiative and holds it, unless all its units have acted."""
    state.first = side  # type: ignore[assignment]
    new_initiative(state, side)
    if not waiting(state, state.initiative):
        new_initiative(state, other(state.initiative))
    acted = [u.id for u in state.units if u.activated]
    text = (f"Turn {state.turn} goes on: {SIDE_NAMES[state.initiative]} have the Initiative; "
            f"already acted: {', '.join(acted) or 'none'} ({RULE})")
    return [Event(kind="initiative", text=text, rule=RULE, data={"first": state.first})]


def new_initiative(state: SkirmishState, side: str) -> None:
    """Begin an Initiative: teams may fire again, leaders and the CC reroll are fresh."""
    state.initiative = side  # type: ignore[assignment]
    state.cc_reroll_used = []
    state.leader_used = []
    for unit in state.units:
        for team in unit.teams:
            team.fired_initiative = False
    state.last_marks, state.marks = state.marks, []
    state.templates = []


def end_activation(state: SkirmishState, dice: Dice) -> list[Event]:
    """Close the active unit's activation; pass the Initiative after a failed check; end the
    turn when every unit has acted."""
    unit = state.unit(state.active) if state.active else None
    failed = state.check_passed is False
    if unit is not None:
        unit.activated = True
        unit.steps = []
        for team in unit.teams:
            team.still_last_activation = not team.moved
            team.travelled = 0.0
    state.active, state.check_passed, state.phase = None, None, "activate"
    events: list[Event] = []
    side = state.initiative
    if failed and waiting(state, other(side)):
        new_initiative(state, other(side))
        events.append(Event(kind="initiative", rule=RULE,
                            text=f"The check failed: {SIDE_NAMES[state.initiative]} take the Initiative ({RULE})"))
    elif not waiting(state, side) and waiting(state, other(side)):
        new_initiative(state, other(side))
        events.append(Event(kind="initiative", rule=RULE,
                            text=f"{SIDE_NAMES[side]} have no unit left to act: "
                                 f"{SIDE_NAMES[state.initiative]} take the Initiative ({RULE})"))
    if not waiting(state, "us") and not waiting(state, "germans"):
        events += end_turn(state, dice)
    return events


def end_turn(state: SkirmishState, dice: Dice) -> list[Event]:
    """Morale (the CC's reroll asked of its player unless a standing answer), then the turn
    closes.  Called again after the answer: units already checked are not checked twice."""
    events: list[Event] = []
    while (unit := morale.next_check(state)) is not None:
        state.morale_done.append(unit.id)
        passed, event = morale.morale_check(unit, dice)
        events.append(event)
        if passed:
            continue
        policy = state.policies.get(unit.side, {}).get("morale", "ask")
        if policy == "ask" and morale.may_reroll(state, unit.side):
            state.pending = Pending(kind="morale", side=unit.side, unit=unit.id)
            state.phase = "decide"
            events.append(Event(kind="ask", rule="Leaders", text=(
                f"{unit.id} failed its Morale check: your CC may allow a reroll (if that fails "
                f"too, the CC is removed with it): {prompts.either('reroll', 'accept')} (Leaders)")))
            return events
        reroll = policy == "yes" and morale.may_reroll(state, unit.side)
        events += morale.resolve_failure(state, unit, dice, reroll)
    return events + close_turn(state, dice)


def close_turn(state: SkirmishState, dice: Dice) -> list[Event]:
    """Smoke clears, the next turn's company checks and Initiative roll (or the game ends)."""
    state.phase = "activate"
    state.morale_done, state.morale_rerolls = [], []
    events = []
    state.smoke = [s for s in state.smoke if s.turn > state.turn]
    events.append(Event(kind="turn", rule=RULE, text=f"End of turn {state.turn} ({RULE})"))
    for unit in state.units:
        _reset_unit(unit)
    if over_by_wipe(state, events) or state.turn >= state.max_turn:
        return events + finish_on_time(state)
    state.turn += 1
    for side in SIDES:
        if morale.company_broken(state, side):
            holds, event = morale.company_check(state, side, dice)
            events.append(event)
            if not holds:
                return events + conclude(state, other(side), f"{SIDE_NAMES[side]} retreat: the battle is lost")
    return events + roll_initiative(state, dice)


def _reset_unit(unit: UnitState) -> None:
    unit.activated = False
    unit.action = None
    unit.steps = []
    unit.overwatch = False
    unit.gone_to_ground = False
    unit.running = False
    unit.casualties_turn = 0
    for team in unit.teams:
        team.moved = team.fired = team.fired_initiative = False
        team.travelled = 0.0


def over_by_wipe(state: SkirmishState, events: list[Event]) -> bool:
    """A side with no unit left on the table has lost."""
    for side in SIDES:
        if not state.live(side):
            events += conclude(state, other(side), f"{SIDE_NAMES[side]} have no unit left")
            return True
    return False


def objective(state: SkirmishState) -> PointSpec:
    """The scenario's objective point (its victory names it)."""
    vic = state.table.victory
    return next(p for p in state.table.points if p.id == vic.objective)


def near_objective(state: SkirmishState) -> dict[str, int]:
    """Each side's teams within the victory radius of the objective (stand-in victory)."""
    point, radius = objective(state), state.table.victory.radius
    return {side: sum(table.distance((point.x, point.y), t.pos) <= radius for t in state.teams(side))
            for side in SIDES}


def finish_on_time(state: SkirmishState) -> list[Event]:
    """After the last turn: more teams within 6" of the objective wins (stand-in), else a draw."""
    if state.finished:
        return []
    point = objective(state)
    near = near_objective(state)
    if near["us"] == near["germans"]:
        return conclude(state, None, f"Last turn over; {prompts.counted(near['us'], 'team')} each at the {point.name}: a draw")
    winner = max(SIDES, key=lambda s: near[s])
    return conclude(state, winner, f"Last turn over; {SIDE_NAMES[winner]} hold the {point.name} "
                                   f"({prompts.counted(near[winner], 'team')} to {near[other(winner)]})")


def conclude(state: SkirmishState, winner: str | None, why: str) -> list[Event]:
    """End the game."""
    state.finished = True
    state.phase = "over"
    state.winner = winner  # type: ignore[assignment]
    state.result_text = f"{why}: {SIDE_NAMES[winner]} win." if winner else f"{why}."
    state.pending = None
    return [Event(kind="game_over", rule=RULE, text=state.result_text)]
