"""Random legal ground-war games, biased to fight, played to the end (the conformance kit plays 50 more).

Every order offered by ``legal_actions`` must be accepted, the input state must never change,
every state must survive a JSON round trip, and each game must reach its result.
"""

from __future__ import annotations

import random

import pytest

from rules.core.dice import SeededDice
from rules.mak import SYSTEM

FIGHT = ("fire", "defend", "assault", "strike", "indirect", "unpin")


def play(seed: int, scenario: str) -> tuple[int, str]:
    """One game with random legal orders (biased towards fighting so the rules get used)."""
    rng = random.Random(seed)
    dice = SeededDice(f"{scenario}-{seed}".encode())
    step = SYSTEM.setup(scenario, None, dice)
    state, count = step.state, 0
    while not step.game_over:
        side = step.waiting_on[0]
        legal = SYSTEM.legal_actions(state, side)
        assert legal, (seed, SYSTEM.turn_part(state))
        fights = [a for a in legal if a.name in FIGHT]
        rest = [a for a in legal if a.name != "end"]
        if fights and rng.random() < 0.6:
            order = rng.choice(fights)
        else:
            order = rng.choice(rest) if rest and rng.random() < 0.8 else rng.choice(legal)
        before = state.model_dump_json()
        step = SYSTEM.apply(state, side, order, dice)
        assert state.model_dump_json() == before  # purity
        assert SYSTEM.load_state(step.state.model_dump_json()) == step.state
        state, count = step.state, count + 1
        assert count < 3000
    assert step.result
    return count, step.result


@pytest.mark.parametrize("scenario", ["patrol", "ridge"])
def test_random_games_end_and_fight(scenario: str) -> None:
    results = [play(seed, scenario)[1] for seed in range(10)]
    assert len(results) == 10
    # the games fight: not every one is a goalless draw
    assert any(not r.startswith("A draw, 0 to 0") for r in results)
