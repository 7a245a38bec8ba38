"""Random legal games of the ``air`` scenario with both pilot options, biased to use the air
war (10.0) and the pilots (18.0), played to the end (the conformance kit plays it too)."""

from __future__ import annotations

import random
from collections import Counter

from rules.core.dice import SeededDice
from rules.mak import SYSTEM

AIR = ("commit", "airstrike", "flak", "strafe", "land", "launch", "recruit", "train", "indirect", "fire", "defend")


def play(seed: int) -> tuple[Counter[str], str]:
    """One game; returns the orders given by name and the result."""
    rng = random.Random(seed)
    dice = SeededDice(f"air-{seed}".encode())
    step = SYSTEM.setup("air", "escape=true,creation=true", dice)
    state, used = step.state, Counter[str]()
    while not step.game_over:
        side = rng.choice(step.waiting_on)
        legal = SYSTEM.legal_actions(state, side)
        assert legal, (seed, SYSTEM.turn_part(state))
        preferred = [a for a in legal if a.name in AIR]
        rest = [a for a in legal if a.name not in ("end", "ready", "pass")]
        if preferred and rng.random() < 0.5:
            order = rng.choice(preferred)
        else:
            order = rng.choice(rest) if rest and rng.random() < 0.8 else rng.choice(legal)
        before = state.model_dump_json()
        step = SYSTEM.apply(state, side, order, dice)
        assert state.model_dump_json() == before  # purity
        assert SYSTEM.load_state(step.state.model_dump_json()) == step.state
        state = step.state
        used[order.name] += 1
        assert sum(used.values()) < 3000
    assert step.result
    return used, step.result


def test_random_air_games_end_and_use_the_air_orders() -> None:
    used: Counter[str] = Counter()
    for seed in range(8):
        orders, _ = play(seed)
        used += orders
    for name in ("commit", "ready", "airstrike", "flak", "strafe", "land", "recruit"):
        assert used[name], (name, used)
