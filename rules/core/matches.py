"""Whole games between players of the kit (issue 43): the random legal player and the
computer at its levels, each side played by one of them.  What the strength tool
(``tools/strength.py``) and the computer player's tests play; pure, like the rules.

The computer is given each side's observation only (:meth:`GameSystem.observe`); its order
is applied like any other, and one the rules refuse is counted as illegal (the target is
none in a thousand) and replaced by a random legal order, so a game still ends.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field

from rules.core.actions import Action
from rules.core.computer import LEVELS, Level, free_run_after, think
from rules.core.dice import SeededDice
from rules.core.errors import RuleError
from rules.core.playout import choose, scenario_for

if TYPE_CHECKING:
    from rules.core.contract import GameSystem

#: Who plays a side: the random legal player, or the computer at a level.
PlayerKind = Literal["random", "easy", "normal", "hard"]


class Thought(BaseModel):
    """One order the computer chose: for which side, at which level, its CPU seconds."""

    side: str
    level: str
    cpu_seconds: float
    iterations: int
    #: The side's free orders in a row before this one (``SearchHints.free_in_a_row``).
    free_run: int = 0


class Match(BaseModel):
    """A finished game: the scenario, each side's player and final score (1 a win, 0 a
    loss, 0.5 a draw: :meth:`GameSystem.evaluate` of the final state), the orders given,
    the computer's thoughts and how many of its orders the rules refused."""

    system: str
    scenario: str
    seed: int
    players: dict[str, str]
    scores: dict[str, float]
    orders: int
    thoughts: list[Thought] = Field(default_factory=list)
    illegal: int = 0
    finished: bool = True


def legal_now(system: "GameSystem[Any]", state: BaseModel, side: str) -> list[Action]:
    """The orders a random player picks from (as the conformance kit's)."""
    return [a for a in system.legal_actions(state, side, read_only=False) if not a.read_only]


def play_match(system: "GameSystem[Any]", seed: int, players: dict[str, PlayerKind], *,
               scenario: str | None = None, max_orders: int | None = None) -> Match:
    """Play one game of ``system`` to its end (or ``max_orders``, then scored as it stands),
    each side by ``players[side]`` (a side not named plays at random)."""
    hints = system.playout_hints
    scenario = scenario or scenario_for(system, seed)
    rng = random.Random(seed)
    dice = SeededDice(f"{system.key}-match-{seed}".encode())
    state = system.setup(scenario, dict(hints.options), dice).state
    game = Match(system=system.key, scenario=scenario, seed=seed, scores={},
                 players={s: players.get(s, "random") for s in system.sides}, orders=0)
    last: dict[str, Action] = {}
    #: Each side's free orders in a row (SearchHints.free_in_a_row), counted as the game goes.
    free: dict[str, int] = {}
    limit = max_orders or hints.max_orders
    for count in range(limit):
        waiting = system.waiting_on(state)
        if not waiting:
            break
        side = rng.choice(waiting)
        action = pick(system, state, side, game, rng, last.get(side), f"{system.key}-{seed}-{count}",
                      free.get(side, 0))
        last[side] = action
        before, given = state, action
        try:
            state = system.apply(state, side, action, dice).state
        except RuleError:
            game.illegal += 1
            given = choose(system, legal_now(system, state, side), rng)
            state = system.apply(state, side, given, dice).state
        free[side] = free_run_after(system, before, side, given, free.get(side, 0))
        game.orders = count + 1
    game.finished = not system.waiting_on(state)
    game.scores = {s: system.evaluate(state, s) for s in system.sides}
    return game


def pick(system: "GameSystem[Any]", state: BaseModel, side: str, game: Match, rng: random.Random,
         after: Action | None, seed: str, free_run: int = 0) -> Action:
    """The order of ``side``'s player: the computer's (seeing its observation only, and
    ``free_run``, the free orders it gave in a row) or a random legal one."""
    kind = game.players[side]
    if kind not in LEVELS:
        return choose(system, legal_now(system, state, side), rng, after)
    level: Level = kind
    decision = think(system, system.observe(state, side), side, seed, level, free_run)
    game.thoughts.append(Thought(side=side, level=kind, cpu_seconds=decision.cpu_seconds,
                                 iterations=decision.iterations, free_run=free_run))
    return system.parse(decision.path, decision.action)


__all__ = ["Match", "PlayerKind", "Thought", "legal_now", "pick", "play_match"]
