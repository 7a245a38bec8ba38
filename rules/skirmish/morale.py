"""Morale at the end of the turn, and the company's retreat check (Morale; Leaders).

"At the end of a turn, once all Units have activated, if any Unit took casualties that reduced
it to less than 50% of its starting number of Teams, that Unit must make a Training Check ...
If the Check is failed, the Unit is destroyed, and all remaining Teams from that Unit are
removed from table. This Unit will have to repeat this each turn it takes more casualties."

"If at least 50% of a Company's starting number of Units are destroyed, at the beginning of
each turn, a Training Check is rolled against the CC's training. If the roll is failed, the CC
calls for the company to retreat and the battle is lost. If the CC is not on the table when
this Check is required, it is automatically failed."
"""

from __future__ import annotations

from rules.core.contract import Event
from rules.core.dice import Dice
from rules.skirmish import suppression
from rules.skirmish.state import SkirmishState, UnitState
from rules.skirmish.training import training_check


def needs_check(unit: UnitState) -> bool:
    """Below 50% of its starting teams, with casualties this turn."""
    alive = len(unit.alive_teams)
    return unit.on_table and unit.casualties_turn > 0 and 2 * alive < unit.start_teams


def end_of_turn(state: SkirmishState, dice: Dice, cc_reroll: bool = False) -> list[Event]:
    """Every unit that must, takes its Morale check; failures are removed from the table."""
    events = []
    for unit in state.units:
        if not needs_check(unit):
            continue
        check = training_check(unit.training, dice, f"{unit.id} morale")
        text = check.text(f"{unit.id} ({len(unit.alive_teams)}/{unit.start_teams} teams) Morale")
        if check.passed:
            events.append(Event(kind="morale", text=f"{text}: it stays to fight (Morale)",
                                rule="Morale"))
            continue
        for team in unit.alive_teams:
            suppression.remove_team(unit, team)
        unit.destroyed = True
        events.append(Event(kind="morale", text=f"{text}: it retreats and is removed (Morale)",
                            rule="Morale", data={"unit": unit.id}))
    return events


def company_broken(state: SkirmishState, side: str) -> bool:
    """At least 50% of the company's starting units destroyed (the HQ not counted)."""
    units = [u for u in state.units if u.side == side and not u.hq]
    gone = sum(not u.on_table for u in units)
    return bool(units) and 2 * gone >= len(units)


def company_check(state: SkirmishState, side: str, dice: Dice) -> tuple[bool, Event]:
    """The CC's retreat check at the start of a turn: ``(holds, event)``."""
    hq = next((u for u in state.units if u.side == side and u.hq), None)
    cc = hq.pl if hq is not None and hq.on_table else None
    if cc is None:
        return False, Event(
            kind="retreat", rule="Leaders",
            text=f"{side}: half the company is destroyed and the CC is not on the table: "
                 f"the company retreats (Leaders)",
        )
    check = training_check(hq.training, dice, f"{side} CC retreat check")
    verdict = "the company fights on" if check.passed else "the CC calls the retreat"
    return check.passed, Event(
        kind="retreat", rule="Leaders",
        text=f"{check.text(f'{side} CC {cc.id}: half the company destroyed;')}: {verdict} (Leaders)",
    )
