"""A two-side dice race used only to test the platform's plumbing (not a refereed game).

Red and blue alternate: ``roll`` adds a d6 to your score, ``wait`` passes without dice,
``stance`` may be set at any time, ``peek`` is read-only.  First to 12 wins.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from rules.core.contract import Action, Choice, Event, GameSystem, Step
from rules.core.dice import Dice
from rules.core.errors import RuleError
from rules.core.views import AreaMapView, AreaView, Header


class DuelState(BaseModel):
    """Scores, whose turn it is, standing choices."""

    turn: Literal["red", "blue"] = "red"
    scores: dict[str, int] = Field(default_factory=lambda: {"red": 0, "blue": 0})
    stance: dict[str, str] = Field(default_factory=dict)
    notes: list[str] = Field(default_factory=list)


class Roll(Action):
    """Roll a die and add it to your score."""

    name = "roll"
    rule = "D1"
    label: str = Field(default="x", description="A tag for the roll")


class Wait(Action):
    """Pass the turn without rolling."""

    name = "wait"
    rule = "D2"


class Stance(Action):
    """Set a standing choice (may be given at any time)."""

    name = "stance"
    rule = "D3"
    anytime = True
    mode: Literal["bold", "careful"] = Field(description="bold or careful")


class Peek(Action):
    """Show the scores (read-only)."""

    name = "peek"
    read_only = True


class Duel(GameSystem):
    """The test system."""

    key = "duel"
    title = "Duel"
    sides = ("red", "blue")
    scenarios = ("standard", "short")
    actions = (Roll, Wait, Stance, Peek)
    state_model = DuelState

    def start(self, scenario: str, options: Any, dice: Dice) -> Step:
        return self.make_step(DuelState(), [Event(kind="setup", text="Red starts.")])

    def apply(self, state: BaseModel, side: str, action: Action, dice: Dice) -> Step:
        assert isinstance(state, DuelState)
        new = state.model_copy(deep=True)
        if isinstance(action, Peek):
            return self.make_step(state, [Event(kind="peek", text=f"Scores {state.scores}")])
        if isinstance(action, Stance):
            new.stance[side] = action.mode
            return self.make_step(new, [Event(kind="stance", text=f"{side} is {action.mode}")])
        if side != state.turn:
            raise RuleError(f"It is {state.turn}'s turn.")
        if isinstance(action, Roll):
            value = dice.die(6, f"{side} roll")
            new.scores[side] += value
            event = Event(kind="roll", text=f"🎲 {value}: {side} has {new.scores[side]} (D1)", rule="D1")
        else:
            new.notes.append(f"{side} waits")
            event = Event(kind="wait", text=f"{side} waits (D2)", rule="D2")
        new.turn = "blue" if side == "red" else "red"
        return self.make_step(new, [event], snapshot=True)

    def choices(self, state, side, action, field, partial) -> list[Choice]:
        return [Choice(value=v, label=f"tag {v}") for v in ("alpha", "beta", "gamma")]

    def legal_actions(self, state, side) -> list[Action]:
        return [Roll(), Wait()] if side == state.turn else [Stance(mode="bold")]

    def waiting_on(self, state) -> list[str]:
        return [] if self.result(state) else [state.turn]

    def turn_part(self, state) -> str:
        return f"{state.turn}'s turn"

    def status(self, state) -> list[str]:
        return [f"Scores: red {state.scores['red']}, blue {state.scores['blue']}"]

    def view(self, state) -> BaseModel:
        square = [(0.0, 0.0), (100.0, 0.0), (100.0, 100.0), (0.0, 100.0)]
        return AreaMapView(
            header=Header(title="Duel"), width=100, height=100,
            areas=[AreaView(id="1", polygon=square, centre=(50, 50), terrain="clear")],
        )

    def result(self, state) -> str | None:
        for side, score in state.scores.items():
            if score >= 12:
                return f"{side} wins with {score}"
        return None


DUEL = Duel()
