"""The commando raid as a :class:`GameSystem`: setup, the order dispatcher and the turn.

Turns: the commandos take their whole turn first, then the Germans (the German reaction rules
are not in the text, so the Germans are a second human player).  Each side's turn is a
command part (officers direct, then one ``roll`` rolls every activation) and an actions part
(moves, shots, mortar, assaults, demolitions, wire) closed by ``end``, which draws the table
with the turn's measured lines.
"""

from __future__ import annotations

from typing import Any, Callable

from pydantic import BaseModel, Field

from rules.commando import (
    activation, demolition, measuring, melee, menus, movement, scoring, shooting,
)
from rules.commando.actions import (
    ACTIONS, Assault, CutWire, Demolish, Direct, End, Measure, Mortar, Move, Roll, Shoot,
)
from rules.commando.scenario import load_scenario
from rules.commando.state import SIDE_NAMES, RaidState, UnitState, other
from rules.commando.view import build_view
from rules.core.contract import Action, Choice, Event, GameOptions, GameSystem, Step
from rules.core.dice import Dice
from rules.core.errors import RuleError
from rules.core.views import TableView

SCENARIOS = ("st_nazaire", "training")


class CommandoOptions(GameOptions):
    """``/game new options:turns=5``: a shorter or longer raid than the scenario's."""

    turns: int | None = Field(None, ge=1, le=30, description="number of turns (default: the scenario's)")

Handler = Callable[[RaidState, str, Any, Dice], list[Event]]


def _no_dice(fn: Callable[[RaidState, str, Any], list[Event]]) -> Handler:
    return lambda state, side, order, dice: fn(state, side, order)


def _roll(state: RaidState, side: str, order: Roll, dice: Dice) -> list[Event]:
    return activation.roll(state, side, dice)


def _end(state: RaidState, side: str, order: End, dice: Dice) -> list[Event]:
    """End the side's turn: keep its measured lines for the snapshot, pass the table over."""
    state.last_marks, state.marks = state.marks, []
    if side == "germans":
        state.turn += 1
    state.side = other(side)
    state.phase = "command"
    activation.reset_turn(state)
    text = f"{SIDE_NAMES[side]}' turn ends; {SIDE_NAMES[state.side]} next (Turns)"
    if state.turn > state.max_turn:
        text = f"{SIDE_NAMES[side]} end the last turn (Turns)"
    return [Event(kind="end", text=text, rule="Turns", data={"turn": state.turn})]


#: Orders of the actions part of a turn, with their handlers.
ACTION_PART: dict[type[Action], Handler] = {
    Move: _no_dice(movement.move),
    Shoot: shooting.shoot,
    Mortar: shooting.mortar,
    Assault: melee.assault,
    Demolish: demolition.demolish,
    CutWire: _no_dice(demolition.cut_wire),
    End: _end,
}
#: Orders of the command part.
COMMAND_PART: dict[type[Action], Handler] = {
    Direct: _no_dice(activation.direct),
    Roll: _roll,
}


class CommandoRaid(GameSystem):
    """A St Nazaire-style commando raid on a 48"x36" table, Commandos against Germans."""

    key = "commando"
    title = "Commando raid"
    sides = ("commandos", "germans")
    scenarios = SCENARIOS
    actions = ACTIONS
    state_model = RaidState

    options_model = CommandoOptions

    def start(self, scenario: str, options: Any, dice: Dice) -> Step:
        """Lay out the table of ``scenario``; option ``turns`` shortens or lengthens the game."""
        if scenario not in SCENARIOS:
            raise RuleError(f"There is no scenario '{scenario[:30]}'; scenarios: "
                            f"{', '.join(SCENARIOS)}.")
        assert isinstance(options, CommandoOptions)
        scen = load_scenario(scenario)
        turns = options.turns or scen.turns
        units = [
            UnitState(id=u.id, name=u.name, side=u.side, kind=u.kind, officer=u.officer,
                      x=u.x, y=u.y, facing=u.facing)
            for u in scen.units
        ]
        state = RaidState(scenario=scenario, max_turn=turns, units=units)
        event = Event(
            kind="setup",
            text=(f"{scen.title}: {scen.width:g}\"x{scen.height:g}\", {turns} turns. "
                  "Commandos: direct with officers, then roll."),
            data={"scenario": scenario},
        )
        return self.make_step(state, [event], snapshot=True)

    def apply(self, state: BaseModel, side: str, action: Action, dice: Dice) -> Step:
        """Resolve one order on a copy of ``state``; the input is never changed."""
        assert isinstance(state, RaidState)
        if isinstance(action, Measure):
            # The tape measure changes nothing and is open to both sides at any time.
            events = measuring.measure(state, side, action)
            return self.make_step(state.model_copy(deep=True), events)
        if state.finished:
            raise RuleError("The raid is over; start a new game to play again.")
        if side != state.side:
            raise RuleError(f"It is the {SIDE_NAMES[state.side]}' turn, not yours.")
        part = COMMAND_PART if state.phase == "command" else ACTION_PART
        handler = part.get(type(action))
        if handler is None:
            allowed = ", ".join(a.name for a in part)
            when = "Before the activation roll" if state.phase == "command" else "After the roll"
            raise RuleError(f"{when} the orders are: {allowed}.")
        new = state.model_copy(deep=True)
        events = handler(new, side, action, dice)
        ended = isinstance(action, End)
        if scoring.over(new):
            new.finished = True
            if new.marks:
                new.last_marks, new.marks = new.marks, []
            events.append(Event(kind="game_over", text=scoring.result(new), rule="Turns",
                                data=scoring.scores(new)))
        return self.make_step(new, events, snapshot=ended)

    def choices(
        self, state: BaseModel, side: str, action: str, field: str, partial: dict[str, Any]
    ) -> list[Choice]:
        """Autocomplete: units that can act, places and targets with their distances."""
        assert isinstance(state, RaidState)
        return menus.choices(state, side, action, field, partial)

    def legal_actions(self, state: BaseModel, side: str) -> list[Action]:
        """Orders ``side`` may give now (checked, no dice rolled)."""
        assert isinstance(state, RaidState)
        return menus.legal_actions(state, side)

    def waiting_on(self, state: BaseModel) -> list[str]:
        """The side whose turn it is, none once the raid is over."""
        assert isinstance(state, RaidState)
        return [] if state.finished else [state.side]

    def turn_part(self, state: BaseModel) -> str:
        """e.g. ``Turn 2/8 · Commandos · actions``."""
        assert isinstance(state, RaidState)
        part = "command" if state.phase == "command" else "actions"
        return f"Turn {min(state.turn, state.max_turn)}/{state.max_turn} · " \
               f"{SIDE_NAMES[state.side]} · {part}"

    def status(self, state: BaseModel) -> list[str]:
        """Turn, whose turn, actions left per unit, targets, losses and the standing."""
        assert isinstance(state, RaidState)
        lines = [self.turn_part(state)]
        if state.finished:
            lines.append(scoring.result(state))
        elif state.phase == "command":
            officers = [u.id for u in state.alive(state.side) if u.officer]
            lines.append(
                f"Officers may direct ({', '.join(officers)}), then roll."
                if officers else "Roll activation."
            )
        else:
            left = [f"{u.id} {u.actions}" for u in state.alive(state.side) if u.actions]
            lines.append("Actions left: " + (", ".join(left) or "none; end the turn"))
        blown = [t.name for t in state.table.targets if t.id in state.destroyed]
        lines.append(f"Targets destroyed {len(blown)}/{len(state.table.targets)}"
                     + (f": {', '.join(blown)}" if blown else ""))
        lines.append(f"Lost: commandos {len(state.lost('commandos'))}, "
                     f"Germans {len(state.lost('germans'))}")
        lines.append(scoring.standing(state))
        return lines

    def view(self, state: BaseModel) -> TableView:
        """The table snapshot: terrain, bases, arcs, ranges and the last measured lines."""
        assert isinstance(state, RaidState)
        return build_view(state)

    def result(self, state: BaseModel) -> str | None:
        """The result line once the raid is over."""
        assert isinstance(state, RaidState)
        return scoring.result(state) if state.finished else None
