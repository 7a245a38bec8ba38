"""Whether a scenario can be played at all (issue 46): the proof ``referee scenario check``
and ``/game new`` with a file run before a game is begun.

A file can pass every field and cross-field check and still never begin: the Soviets asked
for a stacking point in an area none of their units may set up in, and ``ready`` is refused
for ever.  So the scenario is played, with the kit's random legal player
(each side waited on gives one of its legal orders at random), through its set-up for a few seeds: every side must
finish its set-up (:meth:`GameSystem.in_setup` turns False) within a bounded number of
orders, and the first turn must begin (a side waited on, with an order to give).  Then the
system's own objective hook (``ScenarioFormat.reachable``), where it has objectives, says
whether each can be reached.  A scenario that fails says why, naming the order that is
refused and the rules' own sentence (``ready would be refused for ever: The Soviets need at
least one stacking point in area 1 (11.0)``).

Bounded in orders per seed (what decides the verdict) and in time (past it, the seeds
already played decide; the first is always played out): the answer for a file does not
depend on the machine's load.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from collections.abc import Sequence
from typing import Any, Protocol

from pydantic import BaseModel, ValidationError

from rules.core.actions import Action
from rules.core.dice import Dice, SeededDice
from rules.core.errors import RuleError
from rules.core.steps import Step


class _Rule(Protocol):
    @property
    def action(self) -> type[Action]: ...


class Playable(Protocol):
    """What the proof asks of a game system (:class:`rules.core.contract.GameSystem` has
    it all; named here so that the contract may call the proof without an import circle)."""

    @property
    def sides(self) -> Sequence[str]: ...

    def setup(self, scenario: str, options: Any, dice: Dice) -> Step: ...
    def apply(self, state: BaseModel, side: str, action: Action, dice: Dice) -> Step: ...
    def waiting_on(self, state: Any) -> list[str]: ...
    def result(self, state: Any) -> str | None: ...
    def turn_part(self, state: Any) -> str: ...
    def in_setup(self, state: Any) -> bool: ...
    def side_name(self, side: str) -> str: ...
    def legal_actions(self, state: BaseModel, side: str, *, read_only: bool = True) -> list[Action]: ...
    def orders_open(self, state: Any, side: str) -> Sequence[_Rule]: ...

#: Seeds of random set-ups played; each must finish.
SEEDS = 3
#: Orders a set-up may take before it is taken never to finish (the largest shipped
#: set-up takes under 60 random orders).
MAX_ORDERS = 400
#: Seconds past which no further seed is begun (the first is always played out).
SECONDS = 5.0


@dataclass(frozen=True)
class Verdict:
    """Why a scenario cannot be played (``reason``), or None's absence: see :func:`prove`."""

    reason: str
    seed: int


def prove(system: Playable, key: str, *, seeds: int = SEEDS,
          max_orders: int = MAX_ORDERS, seconds: float = SECONDS) -> Verdict | None:
    """Play ``key`` through its set-up with random legal orders for ``seeds`` seeds; the
    first reason it cannot begin, or None when every seed played reaches its first turn."""
    began = time.monotonic()
    for seed in range(seeds):
        if seed and time.monotonic() - began > seconds:
            break
        reason = _through_setup(system, key, seed, max_orders)
        if reason is not None:
            return Verdict(reason=reason, seed=seed)
    return None


def _through_setup(system: Playable, key: str, seed: int, max_orders: int) -> str | None:
    """One random set-up: why it never reaches the first turn, or None."""
    rng = random.Random(seed)
    dice = SeededDice(f"playable-{seed}".encode())
    state: BaseModel = system.setup(key, None, dice).state
    for _ in range(max_orders):
        waiting = system.waiting_on(state)
        if system.result(state) is not None or not waiting:
            return f"the game is over before its first turn ({system.turn_part(state)})."
        side = rng.choice(waiting)
        # A standing choice (``anytime``) changes no position: a side left with only those
        # can never move the game on.
        legal = [a for a in system.legal_actions(state, side, read_only=False)
                 if not a.read_only and not a.anytime]
        if not legal:
            return (f"{system.side_name(side)} can give no order that moves the game on at "
                    f"{system.turn_part(state)}{_refused_for_ever(system, state, side)}; the "
                    "game could never go on.")
        if not system.in_setup(state):
            return None  # set-up done, and the first turn has an order to give
        action = rng.choice(legal)
        try:
            state = system.apply(state, side, action, dice).state
        except RuleError as exc:
            return f"{action.summary()} is offered but refused ({str(exc).rstrip('.')})."
    waiting = system.waiting_on(state)
    side = waiting[0] if waiting else system.sides[0]
    return (f"the set-up never ends ({max_orders} random orders, {system.side_name(side)} "
            f"waited on){_refused_for_ever(system, state, side)}; the game could never begin.")


def _refused_for_ever(system: Playable, state: BaseModel, side: str) -> str:
    """``: ready would be refused for ever: <the rules' sentence>``: each order open now that
    needs no option and is refused (among them the order that would end the set-up), or ""."""
    refused = []
    for rule in system.orders_open(state, side):
        if rule.action.read_only or rule.action.anytime:
            continue
        try:
            action = rule.action()
        except ValidationError:
            continue  # an order with options: not the one that ends a set-up
        try:
            system.apply(state, side, action, SeededDice(b"why"))
        except RuleError as exc:
            refused.append(f"{action.path()} would be refused for ever: {str(exc).rstrip('.')}")
    return f": {'; '.join(refused)}" if refused else ""


__all__ = ["MAX_ORDERS", "SEEDS", "Verdict", "prove"]
