"""Duel: the test-only system, and the worked example of ``docs/adding-a-system.md``.

A two-side dice race that exercises every part of the system kit without any real rules:
red and blue alternate; ``roll`` adds a d6 to your score, ``wait`` passes without dice,
``stance`` may be set at any time (an ``anytime`` order), ``peek`` is read-only.  The first to
the target score (option ``target``, 12 by default) wins.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from rules.core.contract import Event, GameSystem, Step
from rules.core.dice import Dice
from rules.core.views import AreaMapView, AreaView, Header
from tests.platform.duel import play
from tests.platform.duel.state import TAGS, DuelOptions, DuelState, Peek, Roll, Stance, Wait


class Duel(GameSystem[DuelState]):
    """The test system."""

    key = "duel"
    title = "Duel"
    sides = ("red", "blue")
    scenarios = ("standard", "short")
    actions = (Roll, Wait, Stance, Peek)
    state_model = DuelState
    options_model = DuelOptions
    #: Where the orders are declared (each on the function that resolves it).
    order_modules = (play,)
    #: D2: a side that lets its deadline pass waits (issue 19).
    idle_orders = {"play": Wait()}

    def start(self, scenario: str, options: Any, dice: Dice) -> Step:
        """Both scores at 0, red to roll."""
        assert isinstance(options, DuelOptions)
        state = DuelState(target=options.target)
        return self.make_step(state, [Event(kind="setup", text=f"Red starts; first to {options.target} wins.")])

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

__all__ = ["DUEL", "TAGS", "Duel", "DuelOptions", "DuelState", "Peek", "Roll", "Stance", "Wait"]
