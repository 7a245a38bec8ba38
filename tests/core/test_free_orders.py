"""Free orders (issue 43): orders a system's rules let a side give without moving the game on
(``SearchHints.free``, ``GameSystem.free_order``) are given at most ``free_in_a_row`` times in
a row by the computer, if anything else is legal; a system that declares no cap is unchanged.

A tiny system shows it: Duel (tests/platform/duel) with an evaluation under which every roll
looks worse than waiting (D2: "the turn passes without dice"), as Raiders' evaluation read
every real move of seed 1020's M2 as worse than one more gear trade (23.2).
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import BaseModel

from rules.core.actions import Action
from rules.core.computer import Budget, candidates, free_run_after, think
from rules.core.dice import SeededDice
from rules.core.hints import SearchHints
from rules.core.matches import play_match
from tests.platform.duel import TAGS, Duel, DuelState

#: Every order (a wait, a roll by each tag) tried once, wide enough to grow them all, no
#: rollout: each read right after it (as Raiders reads it), so the choice is the better
#: evaluation, not the dice of imagined rolls.
TINY = Budget(iterations=len(TAGS) + 2, cpu_seconds=60, rollout=0, widen=50)
CAP = 2


class Waiting(Duel):
    """Duel where a point scored reads as a loss of standing (so waiting always looks best),
    D2's wait declared free, at most :data:`CAP` in a row."""

    key = "duel-waiting"
    search_hints: ClassVar[SearchHints] = SearchHints(free=frozenset({"wait"}), free_in_a_row=CAP)

    def evaluate(self, state: BaseModel, side: str) -> float:
        """The end as the kit scores it; before it, the fewer points the better."""
        assert isinstance(state, DuelState)
        if self.result(state) is not None:
            return super().evaluate(state, side)
        return 0.5 - 0.01 * state.scores[side]


class Uncapped(Waiting):
    """The same, no cap declared (every system before issue 43's guard)."""

    key = "duel-uncapped"
    search_hints: ClassVar[SearchHints] = SearchHints(free=frozenset({"wait"}))


def decisions(system: Duel, count: int) -> list[Action]:
    """``count`` orders of red's computer in a row (blue waits in between), the run of free
    orders counted as play_match counts it."""
    dice = SeededDice(b"free-orders")
    state = system.setup("standard", {}, dice).state
    run, out = 0, []
    for step in range(count):
        decision = think(system, system.observe(state, "red"), "red", f"free-{step}", TINY, run)
        action = system.parse(decision.path, decision.action)
        out.append(action)
        run = free_run_after(system, state, "red", action, run)
        state = system.apply(state, "red", action, dice).state
        state = system.apply(state, "blue", system.parse("wait", {}), dice).state
    return out


def test_without_a_cap_the_computer_waits_for_ever() -> None:
    assert [a.name for a in decisions(Uncapped(), CAP + 1)] == ["wait"] * (CAP + 1)


def test_after_the_cap_the_computer_gives_an_order_that_moves_the_game_on() -> None:
    names = [a.name for a in decisions(Waiting(), 2 * (CAP + 1))]
    assert names == (["wait"] * CAP + ["roll"]) * 2


def test_free_orders_are_left_out_only_past_the_cap_and_only_if_another_is_legal() -> None:
    system = Waiting()
    state = system.setup("standard", {}, SeededDice(b"free")).state
    assert "wait" in {a.name for a in candidates(system, state, "red", CAP - 1)}
    assert {a.name for a in candidates(system, state, "red", CAP)} == {"roll"}
    assert system.free_order(state, "red", system.parse("wait", {}))
    assert not system.free_order(state, "red", system.parse("roll", {}))
    # A system that declares no cap keeps every order, however long the run.
    assert "wait" in {a.name for a in candidates(Uncapped(), state, "red", 10_000)}


def test_play_match_counts_the_run_and_the_computer_never_goes_past_the_cap() -> None:
    capped = play_match(Waiting(), 5, {"red": "easy", "blue": "easy"}, scenario="standard", max_orders=400)
    assert capped.finished and capped.illegal == 0
    assert max(t.free_run for t in capped.thoughts) <= CAP
