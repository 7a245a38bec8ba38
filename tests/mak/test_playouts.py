"""Random legal ground-war games, biased to fight, played to the end (the conformance kit plays 50 more).

Every order offered by ``legal_actions`` must be accepted, the input state must never change,
every state must survive a JSON round trip, and each game must reach its result.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from rules.core.dice import SeededDice
from rules.mak import SYSTEM
from tests.seeds import seed_split

FIGHT = ("fire", "defend", "assault", "strike", "indirect", "unpin")


def _ends(order: object) -> bool:
    """Orders that close a phase or a side's part of it: ``end``, ``pass``, ``commit`` alone (10.1.1)."""
    name = getattr(order, "name", "")
    return name in ("end", "pass") or (name == "commit" and getattr(order, "done", False))


def play(seed: int, scenario: str, options: str | None = None,
         prefer: tuple[str, ...] = FIGHT) -> tuple[Counter[str], str]:
    """One game with random legal orders (biased towards ``prefer``, fighting by default, so
    the rules get used); returns the orders given by name and the result."""
    rng = random.Random(seed)
    dice = SeededDice(f"{scenario}-{seed}".encode())
    step = SYSTEM.setup(scenario, options, dice)
    state, used = step.state, Counter[str]()
    while not step.game_over:
        side = rng.choice(step.waiting_on)
        legal = SYSTEM.legal_actions(state, side)
        assert legal, (seed, SYSTEM.turn_part(state))
        fights = [a for a in legal if a.path() in prefer and not _ends(a)]
        rest = [a for a in legal if not _ends(a)]
        if fights and rng.random() < 0.6:
            order = rng.choice(fights)
        else:
            order = rng.choice(rest) if rest and rng.random() < 0.8 else rng.choice(legal)
        before = state.model_dump_json()
        step = SYSTEM.apply(state, side, order, dice)
        assert state.model_dump_json() == before  # purity
        assert SYSTEM.load_state(step.state.model_dump_json()) == step.state
        state = step.state
        used[order.path()] += 1
        assert sum(used.values()) < 3000
    assert step.result
    return used, step.result


@seed_split(3, 10)
@pytest.mark.parametrize("scenario", ["patrol", "ridge"])
def test_random_games_end_and_fight(scenario: str, seeds: range) -> None:
    results = [play(seed, scenario)[1] for seed in seeds]
    assert len(results) == len(seeds)
    # the games fight: not every one is a goalless draw
    assert any(not r.startswith("A draw, 0 to 0") for r in results)


@seed_split(2, 4)
def test_random_full_rules_games_transport_overrun_and_call_artillery(seeds: range) -> None:
    """The full-rules scenario (vehicles, artillery, aircraft, pilots), biased to its orders."""
    used: Counter[str] = Counter()
    for seed in seeds:
        used += play(seed, "assault", prefer=("overrun", "load", "defend", "strike"))[0]
    assert used["indirect"] and used["load"] and used["overrun"], used
