"""Morale at the end of the turn, and the company's retreat check (Morale; Leaders).

"At the end of a turn, once all Units have activated, if any Unit took casualties that reduced
it to less than 50% of its starting number of Teams, that Unit must make a Training Check ...
If the Check is failed, the Unit is destroyed, and all remaining Teams from that Unit are
removed from table. This Unit will have to repeat this each turn it takes more casualties."

"once per Initiative, they may allow a Unit to reroll a single Training Check. If the result
of a failed rerolled Training Check is that the Unit is removed from the table, the CC will be
removed as well."

"If at least 50% of a Company's starting number of Units are destroyed, at the beginning of
each turn, a Training Check is rolled against the CC's training. If the roll is failed, the CC
calls for the company to retreat and the battle is lost. If the CC is not on the table when
this Check is required, it is automatically failed."
"""

from __future__ import annotations

from rules.core.contract import Event
from rules.core.dice import Dice
from rules.skirmish import suppression
from rules.skirmish.state import SkirmishState, TeamState, UnitState
from rules.skirmish.training import training_check, unit_check


def needs_check(unit: UnitState) -> bool:
    """Below 50% of its starting teams, with casualties this turn."""
    alive = len(unit.alive_teams)
    return unit.on_table and unit.casualties_turn > 0 and 2 * alive < unit.start_teams


def commander(state: SkirmishState, side: str) -> TeamState | None:
    """The side's Company Commander, if on the table."""
    hq = next((u for u in state.live(side) if u.hq), None)
    return hq.pl if hq else None


def next_check(state: SkirmishState) -> UnitState | None:
    """The next unit that owes its Morale check this end of turn, or None."""
    return next((u for u in state.units if needs_check(u) and u.id not in state.morale_done), None)


def morale_check(unit: UnitState, dice: Dice, reroll: bool = False) -> tuple[bool, Event]:
    """Roll the unit's Morale check, a Training Check: +1 per suppression marker, and passed
    it clears them ("Units with suppressed Teams take a +1 penalty to their next Training
    Check per suppression marker"; "If a suppressed Unit successfully makes its next Training
    Check, all suppressed Teams immediately become unsuppressed", Suppression).  A failed
    check removes the unit, markers and all."""
    check = unit_check(unit, dice, f"{unit.id} morale" + (" CC reroll" if reroll else ""))
    text = check.text(f"{unit.id} ({len(unit.alive_teams)}/{unit.start_teams} teams) Morale")
    if reroll:
        text = f"CC reroll: {text}"
    rule = "Leaders" if reroll else "Morale"
    if check.passed:
        cleared = suppression.unsuppress(unit, True)
        text += ": it stays to fight" + (f"; {cleared} (Suppression)" if cleared else "")
    return check.passed, Event(kind="morale", text=f"{text} ({rule})", rule=rule,
                               data={"unit": unit.id, "die": check.die})


def may_reroll(state: SkirmishState, side: str) -> bool:
    """"once per Initiative, they may allow a Unit to reroll a single Training Check": the
    CC on the table who has not allowed a reroll in this Morale phase."""
    return commander(state, side) is not None and side not in state.morale_rerolls


def remove_unit(state: SkirmishState, unit: UnitState, rerolled: bool = False) -> list[Event]:
    """A failed Morale check: the unit retreats, all its teams off the table; after a failed
    CC reroll "the CC will be removed as well"."""
    for team in unit.alive_teams:
        suppression.remove_team(unit, team)
    unit.destroyed = True
    events = [Event(kind="morale", text=f"{unit.id} retreats and is removed (Morale)",
                    rule="Morale", data={"unit": unit.id})]
    return events + (cc_removed(state, unit.side) if rerolled else [])


def cc_removed(state: SkirmishState, side: str) -> list[Event]:
    """"If the result of a failed rerolled Training Check is that the Unit is removed from the
    table, the CC will be removed as well" (nothing if he is gone already)."""
    cc = commander(state, side)
    if cc is None:
        return []
    suppression.remove_team(state.unit_of(cc), cc)
    return [Event(kind="morale", rule="Leaders",
                  text=f"{cc.id}, the CC who allowed the reroll, is removed with it (Leaders)",
                  data={"unit": cc.unit})]


def end_of_turn(state: SkirmishState, dice: Dice, reroll: bool = False) -> list[Event]:
    """Every unit that must takes its Morale check; failures are removed from the table.

    With ``reroll`` a CC allows a reroll of a failed check whenever he may (the standing
    answer); the flow asks the player instead when the answer is ask (:mod:`flow`)."""
    events = []
    while (unit := next_check(state)) is not None:
        state.morale_done.append(unit.id)
        passed, event = morale_check(unit, dice)
        events.append(event)
        if passed:
            continue
        events += resolve_failure(state, unit, dice, reroll and may_reroll(state, unit.side))
    return events


def resolve_failure(state: SkirmishState, unit: UnitState, dice: Dice, reroll: bool) -> list[Event]:
    """After a failed Morale check: the CC's reroll (if allowed) or the unit's removal."""
    if not reroll:
        return remove_unit(state, unit)
    state.morale_rerolls.append(unit.side)  # type: ignore[arg-type]
    passed, event = morale_check(unit, dice, reroll=True)
    return [event] if passed else [event] + remove_unit(state, unit, rerolled=True)


def company_broken(state: SkirmishState, side: str) -> bool:
    """At least 50% of the company's starting units destroyed (the HQ not counted)."""
    units = [u for u in state.units if u.side == side and not u.hq]
    gone = sum(not u.on_table for u in units)
    return bool(units) and 2 * gone >= len(units)


def company_check(state: SkirmishState, side: str, dice: Dice) -> tuple[bool, Event]:
    """The CC's retreat check at the start of a turn: ``(holds, event)``."""
    cc = commander(state, side)
    if cc is None:
        return False, Event(
            kind="retreat", rule="Leaders",
            text=f"{side}: half the company is destroyed and the CC is not on the table: "
                 f"the company retreats (Leaders)",
        )
    check = training_check(state.unit_of(cc).training, dice, f"{side} CC retreat check")
    verdict = "the company fights on" if check.passed else "the CC calls the retreat"
    return check.passed, Event(
        kind="retreat", rule="Leaders",
        text=f"{check.text(f'{side} CC {cc.id}: half the company destroyed;')}: {verdict} (Leaders)",
    )
