"""Small builders for Raiders rule tests: a mission state, units put in place, orders with dice."""

from __future__ import annotations

from collections.abc import Sequence

from rules.core.contract import Action, Step
from rules.core.dice import ScriptedDice
from rules.raiders import SYSTEM
from rules.raiders.forces import Ctx
from rules.raiders.state import Mission, RaidersState


def mission_state(mission: str = "M1", **options: object) -> RaidersState:
    """A game set up with Mission card ``mission`` (the card is chosen; a camp's hostiles,
    8.0 (1), are the first in the bin, so tests know them)."""
    step = SYSTEM.setup("desert", {"mission": mission, **options}, ScriptedDice([1] * 12))
    state = step.state
    assert isinstance(state, RaidersState)
    return state


def put(state: RaidersState, space: str, *unit_ids: str, force: str = "F1") -> RaidersState:
    """Place counters straight onto the map in one force; the mission is under way."""
    m = state.mission
    assert m is not None
    for u in m.units:
        if u.id in unit_ids:
            u.space = space
            u.force = force
    m.next_force = max(m.next_force, int(force[1:]) + 1)
    state.phase = "ops"
    return state


def give(state: RaidersState, unit_id: str, gear_id: str) -> None:
    """Hand a gear counter to a unit directly."""
    m = state.mission
    assert m is not None
    next(g for g in m.gear if g.id == gear_id).holder = unit_id
    next(u for u in m.units if u.id == unit_id).gear.append(gear_id)


def do(state: RaidersState, action: Action, dice: Sequence[int] = ()) -> Step:
    """Apply an order with exactly these dice (all of them must be used)."""
    scripted = ScriptedDice(dice)
    step = SYSTEM.apply(state, "raiders", action, scripted)
    assert scripted.left == 0, f"{scripted.left} scripted dice unused"
    return step


def mission(step_or_state: Step | RaidersState) -> Mission:
    """The mission of a step's state (or of a state)."""
    state = step_or_state.state if isinstance(step_or_state, Step) else step_or_state
    assert isinstance(state, RaidersState) and state.mission is not None
    return state.mission


def ctx(state: RaidersState, dice: Sequence[int] = ()) -> Ctx:
    """A working context on a copy of ``state`` with scripted dice."""
    return Ctx.reading(state.model_copy(deep=True), ScriptedDice(dice))


def texts(step: Step) -> list[str]:
    """The event lines of a step."""
    return [e.text for e in step.events]
