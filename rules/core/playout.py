"""Random legal playouts of any system: the driver of the conformance kit and the benchmark.

One driver for every system (it replaces the per-system drivers the tests and the benchmark
used to carry): the side waited on picks one of ``system.legal_actions`` at random and the
order is applied with provable seeded dice; every step is recorded with its dice so that the
log can be replayed and checked.  A system may steer the random player through its
:class:`PlayoutHints` (``GameSystem.playout_hints``): orders a random player could repeat for
ever are drawn less often, a game option can shorten a campaign.  Nothing here is
system-specific, and nothing here does I/O: it is pure like the rules it drives.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from rules.core.actions import Action
from rules.core.dice import Roll, SeededDice
from rules.core.hints import PlayoutHints
from rules.core.steps import Step

if TYPE_CHECKING:
    from rules.core.contract import GameSystem


@dataclass
class PlayedStep:
    """One accepted order of a playout: who gave it, the state before, what came out."""

    side: str
    action: "Action"
    before: BaseModel
    step: "Step"
    rolls: list[Roll]


@dataclass
class Playout:
    """A whole game: the opening step, every order, and the final state."""

    system: "GameSystem[Any]"
    scenario: str
    seed: int
    opening: "Step"
    steps: list[PlayedStep] = field(default_factory=list)
    #: The state after the last order, and how many orders were given.
    final: BaseModel | None = None
    orders: int = 0


#: A check run after each accepted order: ``(system, played_step)``; it raises on a fault.
StepCheck = Callable[["GameSystem[Any]", PlayedStep], None]


def scenario_for(system: "GameSystem[Any]", seed: int) -> str:
    """The scenario a playout of ``seed`` plays (the hints' list, else all, in turn)."""
    scenarios = system.playout_hints.scenarios or system.scenarios
    return scenarios[seed % len(scenarios)]


def choose(system: "GameSystem[Any]", legal: list["Action"], rng: random.Random,
           after: "Action | None" = None) -> "Action":
    """One of ``legal`` at random, the hints' rare orders drawn less often.

    ``after`` is the side's previous order: an ``anytime`` order (a standing choice) is not
    given twice in a row, as a player sets a standing choice and then plays (the service
    refuses a run of them, see ``bot/limits.py``)."""
    if after is not None and after.anytime:
        legal = [a for a in legal if not a.anytime] or legal
    hints = system.playout_hints
    weights = [hints.rare_weight if {a.name, a.path()} & hints.rare else 1.0 for a in legal]
    return rng.choices(legal, weights)[0]


def play(
    system: "GameSystem[Any]",
    seed: int,
    *,
    scenario: str | None = None,
    check: StepCheck | None = None,
    keep_steps: bool = True,
) -> Playout:
    """Play one game of ``system`` to its end with random legal orders.

    Raises AssertionError when no order is legal for a side that is waited on, when an offered
    order is refused (``legal_actions`` and ``apply`` disagree), when ``apply`` changes its
    input, or when the game does not end within the hints' ``max_orders``.
    """
    hints = system.playout_hints
    scenario = scenario or scenario_for(system, seed)
    rng = random.Random(seed)
    dice = SeededDice(f"{system.key}-{seed}".encode())
    opening = system.setup(scenario, dict(hints.options), dice)
    game = Playout(system=system, scenario=scenario, seed=seed, opening=opening)
    state = opening.state
    last: dict[str, Action] = {}
    for count in range(hints.max_orders):
        waiting = system.waiting_on(state)
        if not waiting:
            game.final, game.orders = state, count
            return game
        side = rng.choice(waiting)
        legal = [a for a in system.legal_actions(state, side, read_only=False) if not a.read_only]
        assert legal, f"{system.key} seed {seed}: nothing legal for {side} at {system.turn_part(state)}"
        action = choose(system, legal, rng, last.get(side))
        last[side] = action
        before_json = state.model_dump_json()
        first_roll = len(dice.rolls)
        step = system.apply(state, side, action, dice)  # a RuleError here is a kit failure
        assert state.model_dump_json() == before_json, f"{system.key}: apply changed its input ({action.summary()})"
        played = PlayedStep(side=side, action=action, before=state, step=step, rolls=dice.rolls[first_roll:])
        if check is not None:
            check(system, played)
        if keep_steps:
            game.steps.append(played)
        state = step.state
    raise AssertionError(f"{system.key} seed {seed}: no end after {hints.max_orders} orders "
                         f"({system.turn_part(state)})")


__all__ = ["PlayedStep", "Playout", "PlayoutHints", "StepCheck", "choose", "play", "scenario_for"]
