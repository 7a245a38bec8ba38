"""The computer player of every system (issue 43): information-set Monte Carlo tree search.

One engine for every system, reading only the kit's contract.  It is given a side's
*observation* (:meth:`GameSystem.observe`: the state with every other side's secrets
blanked), never the true state, and it plays as single-observer ISMCTS (Cowling, Powley and
Whitehouse, 2012):

* each iteration draws one *determinization*: a full state consistent with the observation,
  from the system's own sampler (:meth:`GameSystem.determinize`: hidden enemy units, sealed
  orders, unfound minefields re-sampled; the identity for a system without secrets), and
  dice drawn from the iteration's own random stream;
* it descends the one tree shared by every determinization, choosing among the orders legal
  in *this* determinization by UCB1 with availability counts (an order counted each time it
  was available, so rarely-possible orders are not over-explored); a node grows its children
  progressively (a few, then more as it is visited), best prior first;
* from the new node it plays a short rollout with a cheap random legal player
  (:func:`quick_order`), then scores the state with the system's evaluation
  (:meth:`GameSystem.evaluate`: 1 a win, 0 a loss, between while the game goes on), and
  credits each node with the score of the side that chose it.

The order played is the root's most visited child.  The search is deterministic for a given
seed and iteration budget: every random draw comes from ``random.Random`` streams derived from
the seed.  The CPU-time budget is a cap on top (``time.process_time``: the thinking
process's own CPU, not the wall clock of a shared machine; an iteration is begun only if one
as long as the mean so far still fits); when it binds, the answer depends
on the machine, so the levels are set so that the iterations bind first on this project's
machine (docs/computer-player.md).

Pure: no I/O, no asyncio; the bot runs :func:`think` in a worker process (``bot/thinking.py``).
"""

from __future__ import annotations

import hashlib
import math
import random
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field

from rules.core.actions import Action
from rules.core.dice import Dice
from rules.core.errors import RuleError

if TYPE_CHECKING:
    from rules.core.contract import GameSystem

Level = Literal["easy", "normal", "hard"]
#: The levels a seat may be given, weakest first.
LEVELS: tuple[Level, ...] = ("easy", "normal", "hard")
#: UCB1's exploration constant (scores are in 0..1).
EXPLORATION = 0.7


class Budget(BaseModel):
    """How long the computer may think for one order: iterations, and CPU seconds at most.

    ``rollout`` is the number of random orders played out after the tree (then the
    evaluation scores the state); ``widen`` how many children a node may have per
    ``sqrt(visits)`` (progressive widening)."""

    iterations: int = Field(ge=1, le=100_000)
    cpu_seconds: float = Field(gt=0, le=120)
    rollout: int = Field(ge=0, le=400)
    widen: float = Field(default=2.0, gt=0)


#: The levels' budgets (issue 43: easy, normal, hard "by budget"; normal within 2 s of CPU,
#: hard 10 s, p95; the measured figures are in docs/computer-player.md).
BUDGETS: dict[Level, Budget] = {
    "easy": Budget(iterations=12, cpu_seconds=0.5, rollout=4),
    "normal": Budget(iterations=48, cpu_seconds=2.0, rollout=8),
    "hard": Budget(iterations=240, cpu_seconds=10.0, rollout=12),
}


class Decision(BaseModel):
    """What the computer chose, and what it cost: the order, how many iterations were run,
    the CPU seconds spent, and the root's visit counts (best first, a few) for the log."""

    action: dict[str, Any]
    path: str
    summary: str
    iterations: int
    cpu_seconds: float
    visits: list[tuple[str, int]] = Field(default_factory=list)


class StreamDice(Dice):
    """Dice for the search's imagined futures: a ``random.Random`` stream, no HMAC (the
    search rolls thousands of times a move; these rolls are never the game's)."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__()
        self.rng = rng

    def _draw(self, sides: int, reason: str) -> tuple[int, int | None]:
        return self.rng.randint(1, sides), None


def order_key(action: Action) -> str:
    """An order as the tree knows it: its path and options, the same in every determinization."""
    return f"{action.path()} {action.model_dump_json()}"


def candidates(system: "GameSystem[Any]", state: BaseModel, side: str, free_run: int = 0) -> list[Action]:
    """The orders the computer considers for ``side``: every legal order that changes the
    game, standing choices (``anytime``) left out, as the computer plays without them.

    ``free_run`` is how many free orders (:meth:`GameSystem.free_order`) the side gave in a
    row just before: once it reaches the system's ``SearchHints.free_in_a_row``, the free
    orders are left out too, if anything else is legal.  A free order changes nothing an
    evaluation reads, so where every real move looks worse than standing still the search
    would give them for ever (issue 43: Raiders' gear trades, 23.2); the cap makes the game
    move on after at most that many."""
    legal = [a for a in system.legal_actions(state, side, read_only=False) if not a.read_only]
    chosen = [a for a in legal if not a.anytime] or legal
    limit = system.search_hints.free_in_a_row
    if limit is None or free_run < limit:
        return chosen
    return [a for a in chosen if not system.free_order(state, side, a)] or chosen


@dataclass
class Node:
    """One node of the shared tree: the order that led here, who gave it, and its record."""

    side: str = ""
    key: str = ""
    visits: int = 0
    available: int = 0
    total: float = 0.0
    prior: float = 1.0
    children: dict[str, "Node"] = field(default_factory=dict)

    def ucb(self) -> float:
        """UCB1 with availability counts (ISMCTS), plus a small prior term."""
        mean = self.total / self.visits
        explore = EXPLORATION * math.sqrt(math.log(max(self.available, 1)) / self.visits)
        return mean + explore + 0.1 * self.prior / (1 + self.visits)


def stream(seed: str, *parts: object) -> random.Random:
    """A random stream named by ``seed`` and ``parts`` (stable across processes and runs)."""
    text = ":".join([seed, *map(str, parts)])
    return random.Random(int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big"))


class Search:
    """One decision's search (see the module docstring)."""

    def __init__(self, system: "GameSystem[Any]", observed: BaseModel, side: str, seed: str,
                 budget: Budget, free_run: int = 0) -> None:
        self.system = system
        self.observed = observed
        self.side = side
        self.seed = seed
        self.budget = budget
        #: Free orders the side gave in a row before this decision (see :func:`candidates`).
        self.free_run = free_run
        self.root = Node(side=side)

    def run(self) -> Decision:
        """Think within the budget and return the most visited legal order."""
        start = time.process_time()
        legal = candidates(self.system, self.observed, self.side, self.free_run)
        if not legal:
            raise RuleError(f"The computer has no order to give for {self.system.side_name(self.side)} now.")
        done = 0
        if len(legal) > 1:
            while done < self.budget.iterations and self.may_go_on(time.process_time() - start, done):
                self.iterate(done)
                done += 1
        chosen = self.best(legal)
        ranked = sorted(self.root.children.values(), key=lambda n: -n.visits)[:5]
        return Decision(action=chosen.model_dump(mode="json", exclude_defaults=True), path=chosen.path(),
                        summary=chosen.summary(), iterations=done,
                        cpu_seconds=round(time.process_time() - start, 4),
                        visits=[(n.key.split(" {")[0], n.visits) for n in ranked])

    def may_go_on(self, spent: float, done: int) -> bool:
        """Whether one more iteration fits the CPU cap: the time spent so far and one more
        iteration as long as the mean of those run (the cap is checked between iterations,
        so checking the time spent alone overran it by one iteration: commando's p95 was
        2.07 s for a 2 s cap, its iterations listing every reachable point of the table)."""
        mean = spent / done if done else 0.0
        return spent + mean < self.budget.cpu_seconds

    def best(self, legal: list[Action]) -> Action:
        """The root's most visited order among those legal in the observation (ties: the
        better mean, then the order offered first)."""
        def score(indexed: tuple[int, Action]) -> tuple[int, float, int]:
            node = self.root.children.get(order_key(indexed[1]))
            if node is None or node.visits == 0:
                return (0, 0.0, -indexed[0])
            return (node.visits, node.total / node.visits, -indexed[0])

        return max(enumerate(legal), key=score)[1]

    def iterate(self, index: int) -> None:
        """One iteration: determinize, descend and grow the tree, roll out, back up."""
        rng = stream(self.seed, index)
        state = self.system.determinize(self.observed, self.side, rng)
        dice = StreamDice(rng)
        path = [self.root]
        node = self.root
        expanded = False
        while not expanded:
            mover = self.mover(state, rng)
            if mover is None:
                break
            # The root's choices are the decision's (free orders left out past the cap);
            # deeper in the tree the imagined futures are not capped (kept cheap).
            legal = candidates(self.system, state, mover, self.free_run if node is self.root else 0)
            if not legal:
                break
            child, expanded = self.select(node, state, mover, legal, rng)
            try:
                state = self.system.apply(state, mover, child[1], dice).state
            except RuleError:  # an imagined future the sampler made inconsistent: stop here
                break
            node = child[0]
            path.append(node)
        state = self.rollout(state, rng, dice)
        values = {s: self.system.evaluate(state, s) for s in self.system.sides}
        self.root.visits += 1
        for visited in path[1:]:
            visited.visits += 1
            visited.total += values[visited.side]

    def mover(self, state: BaseModel, rng: random.Random) -> str | None:
        """Who acts next in an imagined future: the one side waited on, or one of several at
        random (simultaneous orders); None when the game is over."""
        waiting = self.system.waiting_on(state)
        if not waiting:
            return None
        return waiting[0] if len(waiting) == 1 else rng.choice(sorted(waiting))

    def select(self, node: Node, state: BaseModel, mover: str, legal: list[Action],
               rng: random.Random) -> tuple[tuple[Node, Action], bool]:
        """The child to descend to among ``legal`` (every one counted as available), and
        whether it is new (the descent then stops and the rollout begins)."""
        keyed = {order_key(a): a for a in legal}
        for key in keyed:
            if key in node.children:
                node.children[key].available += 1
        tried = [node.children[k] for k in keyed if k in node.children and node.children[k].visits > 0]
        room = max(1, int(self.budget.widen * math.sqrt(node.visits + 1)))
        untried = [k for k in keyed if k not in node.children or node.children[k].visits == 0]
        if untried and len(tried) < room:
            key = self.pick_new(state, mover, untried, keyed, rng)
            child = node.children.setdefault(key, Node(side=mover, key=key, available=1))
            child.prior = self.system.order_prior(state, mover, keyed[key])
            return (child, keyed[key]), True
        best = max(tried, key=Node.ucb)
        return (best, keyed[best.key]), False

    def pick_new(self, state: BaseModel, mover: str, untried: list[str], keyed: dict[str, Action],
                 rng: random.Random) -> str:
        """The untried order to grow: the best prior, ties broken at random."""
        priors = [(self.system.order_prior(state, mover, keyed[k]), rng.random(), k) for k in untried]
        return max(priors)[2]

    def rollout(self, state: BaseModel, rng: random.Random, dice: Dice) -> BaseModel:
        """``budget.rollout`` orders of the kit's random legal player from ``state``."""
        for _ in range(self.budget.rollout):
            mover = self.mover(state, rng)
            if mover is None:
                break
            action = quick_order(self.system, state, mover, rng)
            if action is None:
                break
            try:
                state = self.system.apply(state, mover, action, dice).state
            except RuleError:
                break
        return state


def quick_order(system: "GameSystem[Any]", state: BaseModel, side: str, rng: random.Random) -> Action | None:
    """The rollouts' cheap default policy: a kind of order at random (the hints' rare ones
    less often, standing choices never), then one of its offers at random.  Only the kinds
    tried are listed: a table's every reachable point is built only when a move is drawn."""
    hints = system.playout_hints
    rules = [r for r in system.orders_open(state, side) if not r.action.read_only and not r.action.anytime]
    weights = [hints.rare_weight if {r.action.name, r.action.path()} & hints.rare else 1.0 for r in rules]
    while rules:
        index = rng.choices(range(len(rules)), weights)[0]
        offers = list(system.offers_of(rules[index], state, side))
        if offers:
            return rng.choice(offers)
        del rules[index], weights[index]
    return None


def think(system: "GameSystem[Any]", observed: BaseModel, side: str, seed: str,
          budget: Budget | Level = "normal", free_run: int = 0) -> Decision:
    """The order the computer gives for ``side``, seeing only ``observed`` (the side's
    observation, :meth:`GameSystem.observe`); ``seed`` names its random streams (the same
    seed, observation, iteration budget and ``free_run``: the same order).  ``free_run``:
    the free orders the side gave in a row just before (:func:`candidates`)."""
    return Search(system, observed, side, seed, scaled(system, budget), free_run).run()


def free_run_after(system: "GameSystem[Any]", state: BaseModel, side: str, action: Action, run: int) -> int:
    """A side's run of free orders once it gave ``action`` in ``state`` (the state before
    it): one more if the order was free, else none."""
    return run + 1 if system.free_order(state, side, action) else 0


def scaled(system: "GameSystem[Any]", budget: Budget | Level) -> Budget:
    """A level's budget as ``system`` spends it (:class:`~rules.core.hints.SearchHints`)."""
    chosen = BUDGETS[budget] if isinstance(budget, str) else budget
    hints = system.search_hints
    return chosen.model_copy(update={"iterations": max(1, round(chosen.iterations * hints.iterations)),
                                     "rollout": round(chosen.rollout * hints.rollout)})


__all__ = ["BUDGETS", "LEVELS", "Budget", "Decision", "Level", "Node", "Search", "StreamDice",
           "candidates", "free_run_after", "order_key", "quick_order", "scaled", "stream", "think"]
