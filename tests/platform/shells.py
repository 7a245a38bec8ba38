"""Shells: a test-only system with a secret, for the hidden-information kit (issue 28).

Each side hides a coin under one of three cups (S1, a sealed order: ``secret /shells cup
hide cup:2``); then the sides take turns lifting one of the other side's cups (S2, ``/shells
cup lift cup:3``).  A lifted cup that holds the coin reveals it (the seal is opened) and its
finder wins; an empty cup is said to be empty (the rules reveal that much, as a minefield
that is not in a hex).  A side's own view shows its coin; the public view shows only the
lifted cups.  ``pass`` (S3) is a top-level order for a side that would rather not lift.

:class:`LeakyShells` is the same game with one deliberate leak in ``/game status`` (the
hider's cup), to show that the non-interference harness can fail.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from random import Random
from typing import Any, Literal

from pydantic import BaseModel, Field

from rules.core.contract import Action, Event, GameSystem, Step
from rules.core.dice import Dice
from rules.core.errors import RuleError
from rules.core.orders import Ctx, order
from rules.core.secrets import item
from rules.core.views import AreaMapView, AreaView, CounterView, Header

CUPS = (1, 2, 3)
Side = Literal["red", "blue"]


class ShellsState(BaseModel):
    """Where each coin is (secret: the export of a running game carries no state), the cups
    lifted so far (public), whose turn it is and the winner."""

    hidden: dict[str, int] = Field(default_factory=dict)
    lifted: dict[str, list[int]] = Field(default_factory=lambda: {"red": [], "blue": []})
    turn: Side = "red"
    winner: str | None = None


class Hide(Action):
    """Hide your coin under a cup (sealed)."""

    name = "hide"
    group = "cup"
    rule = "S1"
    sealed = True
    cup: int = Field(ge=1, le=3, description="the cup your coin goes under")


class Lift(Action):
    """Lift one of the other side's cups."""

    name = "lift"
    group = "cup"
    rule = "S2"
    cup: int = Field(ge=1, le=3, description="the other side's cup to lift")


class Pass(Action):
    """Lift nothing this turn."""

    name = "pass"
    rule = "S3"


def _other(side: str) -> Side:
    return "blue" if side == "red" else "red"


def side_name(side: str) -> str:
    """``Red``."""
    return side.capitalize()


def hide_offers(state: ShellsState, side: str) -> Iterator[Hide]:
    """S1: any cup."""
    yield from (Hide(cup=c) for c in CUPS)

@order(Hide, phases="hide", offers=hide_offers)
def hide(ctx: Ctx[ShellsState], action: Hide) -> None:
    """S1: the coin goes under the cup, sealed; only the hider reads where."""
    ctx.state.hidden[ctx.side] = action.cup
    ctx.seal(f"coin:{ctx.side}", ctx.side, "hid its coin", [item(cup=action.cup)])
    ctx.events.append(Event(kind="hide", text=f"Your coin is under cup {action.cup} (S1).",
                            rule="S1", to=ctx.side))
    ctx.state.turn = _other(ctx.side)

def lift_offers(state: ShellsState, side: str) -> Iterator[Lift]:
    """S2: a cup of the other side not lifted yet."""
    yield from (Lift(cup=c) for c in CUPS if c not in state.lifted[_other(side)])

@order(Lift, phases="lift", offers=lift_offers)
def lift(ctx: Ctx[ShellsState], action: Lift) -> None:
    """S2: the coin under it is found (the seal opened, the finder wins), or it is empty."""
    other = _other(ctx.side)
    if action.cup in ctx.state.lifted[other]:
        raise RuleError(f"{side_name(other)}'s cup {action.cup} is lifted already.")
    ctx.state.lifted[other].append(action.cup)
    if ctx.state.hidden.get(other) == action.cup:
        ctx.unseal(f"coin:{other}", 0, f"found under cup {action.cup} (S2)")
        ctx.state.winner = ctx.side
        ctx.say("lift", f"{side_name(ctx.side)} finds the coin under cup {action.cup} (S2).", "S2")
    else:
        ctx.say("lift", f"{side_name(other)}'s cup {action.cup} is empty (S2).", "S2")
        # A line for the side that did not give the order (read on its own /game map).
        ctx.events.append(Event(kind="lift", text=f"Your coin is still under cup "
                                f"{ctx.state.hidden[other]} (S2).", rule="S2", to=other))
    ctx.state.turn = other
    ctx.snapshot = True

def pass_offers(state: ShellsState, side: str) -> list[Pass]:
    """S3: passing is always possible while lifting."""
    return [Pass()]


@order(Pass, phases="lift", offers=pass_offers)
def pass_turn(ctx: Ctx[ShellsState], action: Pass) -> None:
    """S3: the turn passes."""
    ctx.say("pass", f"{side_name(ctx.side)} lifts nothing (S3).", "S3")
    ctx.state.turn = _other(ctx.side)


class Shells(GameSystem[ShellsState]):
    """The test system with a sealed choice."""

    key = "shells"
    title = "Shells"
    sides = ("red", "blue")
    scenarios = ("standard",)
    actions = (Hide, Lift, Pass)
    state_model = ShellsState
    private_info = True
    #: The orders are declared above, in this module.
    order_modules = (sys.modules[__name__],)

    def start(self, scenario: str, options: Any, dice: Dice) -> Step:
        """No coin hidden yet; red hides first."""
        return self.make_step(ShellsState(), [Event(kind="setup", text="Red hides first (S1).")])

    def phase_of(self, state: ShellsState) -> str:
        """``hide`` until both coins are hidden, then ``lift``."""
        return "hide" if len(state.hidden) < 2 else "lift"

    def waiting_on(self, state: ShellsState) -> list[str]:
        """The side whose turn it is, until a coin is found."""
        return [] if state.winner else [state.turn]

    def turn_part(self, state: ShellsState) -> str:
        """``Hide · Red``."""
        return f"{self.phase_title(state)} · {self.side_name(state.turn)}"

    def status(self, state: ShellsState) -> list[str]:
        """The cups lifted (public), never where a coin is."""
        return [f"{self.side_name(s)}'s cups lifted: {', '.join(map(str, state.lifted[s])) or 'none'}"
                for s in self.sides]

    def view(self, state: ShellsState) -> BaseModel:
        """Six cups, three a side; a lifted one is marked."""
        return self._view(state, None)

    def view_for(self, state: ShellsState, side: str) -> BaseModel:
        """The public view and ``side``'s own coin."""
        return self._view(state, side)

    def _view(self, state: ShellsState, side: str | None) -> AreaMapView:
        areas, counters = [], []
        for row, owner in enumerate(self.sides):
            for cup in CUPS:
                x, y = 10 + 30 * (cup - 1), 10 + 50 * row
                ident = f"{owner}-{cup}"
                areas.append(AreaView(id=ident, polygon=[(x, y), (x + 25, y), (x + 25, y + 40), (x, y + 40)],
                                      centre=(x + 12, y + 20), terrain="clear"))
                if cup in state.lifted[owner]:
                    counters.append(CounterView(id=f"lifted-{ident}", label="up", area=ident, faction=owner))
        if side is not None and side in state.hidden:
            ident = f"{side}-{state.hidden[side]}"
            counters.append(CounterView(id="coin", label="coin", area=ident, faction=side))
        return AreaMapView(header=Header(title="Shells", phase=self.phase_title(state)),
                           width=100, height=110, areas=areas, counters=counters)

    def evaluate(self, state: ShellsState, side: str) -> float:
        """A found coin wins (the computer's score, issue 43)."""
        return 0.5 if state.winner is None else float(state.winner == side)

    def observe(self, state: ShellsState, side: str) -> ShellsState:
        """What ``side`` knows (issue 43): its own coin, not the other's (cup 0: hidden)."""
        other = _other(side)
        if other not in state.hidden:
            return state
        return state.model_copy(update={"hidden": {**state.hidden, other: 0}})

    def determinize(self, observed: ShellsState, side: str, rng: Random) -> ShellsState:
        """The other's coin under one of its cups not lifted yet, at random."""
        other = _other(side)
        if observed.hidden.get(other) != 0:
            return observed
        cups = [c for c in (1, 2, 3) if c not in observed.lifted[other]] or [1]
        return observed.model_copy(update={"hidden": {**observed.hidden, other: rng.choice(cups)}})

    def result(self, state: ShellsState) -> str | None:
        """The first side to find the other's coin wins."""
        return f"{self.side_name(state.winner)} finds the coin and wins" if state.winner else None


class LeakyShells(Shells):
    """Shells with a leak: ``/game status`` tells where red's coin is (a bug on purpose)."""

    key = "leakyshells"
    title = "Leaky shells"

    def status(self, state: ShellsState) -> list[str]:
        """The public lines, and one that must not be there."""
        return super().status(state) + [f"Red's coin: cup {state.hidden.get('red', '?')}"]


class PeekingShells(Shells):
    """Shells whose computer peeks: its observation is the whole state (a bug on purpose,
    for the harness of issue 43 to catch)."""

    key = "peekingshells"
    title = "Peeking shells"

    def observe(self, state: ShellsState, side: str) -> ShellsState:
        """The true state, secrets and all."""
        return state


SHELLS = Shells()
LEAKY = LeakyShells()
PEEKING = PeekingShells()
