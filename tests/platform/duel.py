"""Duel: the test-only system, and the worked example of ``docs/adding-a-system.md``.

A two-side dice race that exercises every part of the system kit without any real rules:
red and blue alternate; ``roll`` adds a d6 to your score, ``wait`` passes without dice,
``stance`` may be set at any time (an ``anytime`` order), ``peek`` is read-only.  The first to
the target score (option ``target``, 12 by default) wins.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Literal

from pydantic import BaseModel, Field

from rules.core.contract import Action, Event, GameOptions, GameSystem, Step
from rules.core.dice import Dice
from rules.core.orders import Ctx, order
from rules.core.views import AreaMapView, AreaView, Header

TAGS = ("alpha", "beta", "gamma")


class DuelState(BaseModel):
    """Scores, whose turn it is, standing choices, the target score."""

    turn: Literal["red", "blue"] = "red"
    scores: dict[str, int] = Field(default_factory=lambda: {"red": 0, "blue": 0})
    stance: dict[str, str] = Field(default_factory=dict)
    notes: list[str] = Field(default_factory=list)
    target: int = 12


class DuelOptions(GameOptions):
    """``/game new system:duel options:target=20``."""

    target: int = Field(12, ge=6, le=30, description="the score that wins")


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


def _other(side: str) -> Literal["red", "blue"]:
    return "blue" if side == "red" else "red"


class Duel(GameSystem[DuelState]):
    """The test system."""

    key = "duel"
    title = "Duel"
    sides = ("red", "blue")
    scenarios = ("standard", "short")
    actions = (Roll, Wait, Stance, Peek)
    state_model = DuelState
    options_model = DuelOptions
    #: D2: a side that lets its deadline pass waits (issue 19).
    idle_orders = {"play": Wait()}

    def start(self, scenario: str, options: Any, dice: Dice) -> Step:
        """Both scores at 0, red to roll."""
        assert isinstance(options, DuelOptions)
        state = DuelState(target=options.target)
        return self.make_step(state, [Event(kind="setup", text=f"Red starts; first to {options.target} wins.")])

    # -- the orders: each with the rule that resolves it and the offers that are legal -------

    def roll_offers(self, state: DuelState, side: str) -> Iterator[Roll]:
        """D1: any tag (the tag only labels the roll)."""
        yield Roll()
        yield from (Roll(label=tag) for tag in TAGS)

    @order(Roll, offers=roll_offers)
    def roll(self, ctx: Ctx[DuelState], action: Roll) -> None:
        """D1: a d6 added to the roller's score, then the other side's turn."""
        value = ctx.dice.die(6, f"{ctx.side} roll")
        ctx.state.scores[ctx.side] += value
        ctx.say("roll", f"🎲 {value}: {ctx.side} has {ctx.state.scores[ctx.side]} (D1)", "D1")
        self._pass_turn(ctx)

    @order(Wait, offers=lambda system, state, side: [Wait()])
    def wait(self, ctx: Ctx[DuelState], action: Wait) -> None:
        """D2: the turn passes without dice."""
        ctx.state.notes.append(f"{ctx.side} waits")
        ctx.say("wait", f"{ctx.side} waits (D2)", "D2")
        self._pass_turn(ctx)

    @order(Stance, offers=lambda system, state, side: [Stance(mode="bold"), Stance(mode="careful")])
    def stance(self, ctx: Ctx[DuelState], action: Stance) -> None:
        """D3: a standing choice, at any time."""
        ctx.state.stance[ctx.side] = action.mode
        ctx.say("stance", f"{ctx.side} is {action.mode}", "D3")

    @order(Peek, offers=lambda system, state, side: [Peek()])
    def peek(self, ctx: Ctx[DuelState], action: Peek) -> None:
        """The scores, changing nothing."""
        ctx.say("peek", f"Scores {ctx.state.scores}")

    @staticmethod
    def _pass_turn(ctx: Ctx[DuelState]) -> None:
        ctx.state.turn = _other(ctx.side)
        ctx.snapshot = True

    # -- questions ---------------------------------------------------------------------------

    def label(self, state: DuelState, side: str, action: str, field: str, value: str,
              partial: dict[str, Any]) -> str:
        """``tag alpha``."""
        return f"tag {value}" if field == "label" else value

    def waiting_on(self, state: DuelState) -> list[str]:
        """The side whose turn it is, until someone wins."""
        return [] if self.result(state) else [state.turn]

    def turn_part(self, state: DuelState) -> str:
        """``red's turn``."""
        return f"{state.turn}'s turn"

    def status(self, state: DuelState) -> list[str]:
        """The scores."""
        return [f"Scores: red {state.scores['red']}, blue {state.scores['blue']}"]

    def view(self, state: DuelState) -> BaseModel:
        """One square area."""
        square = [(0.0, 0.0), (100.0, 0.0), (100.0, 100.0), (0.0, 100.0)]
        return AreaMapView(
            header=Header(title="Duel"), width=100, height=100,
            areas=[AreaView(id="1", polygon=square, centre=(50, 50), terrain="clear")],
        )

    def result(self, state: DuelState) -> str | None:
        """The first side at the target score wins."""
        for side, score in state.scores.items():
            if score >= state.target:
                return f"{side} wins with {score}"
        return None


DUEL = Duel()
