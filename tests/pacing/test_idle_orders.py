"""Each system's "no action" order (issue 19): what the referee gives for a side whose
deadline passed, when the game is set to ``then:pass``.

Through random legal games of every system: wherever ``idle_order`` names an order, the
side is waited on, the order is one of its legal orders and the rules accept it.
"""

from __future__ import annotations

import pytest

from rules.core import registry
from rules.core.dice import SeededDice
from rules.core.playout import PlayedStep, play

#: Per system, the phases where a silent side has a "no action" order, with its rule.
EXPECTED = {
    "rr": {"ops": "pass", "place": "skip", "route": "done", "rally": "done"},  # 7.0, 11.0, 8.0, 6.2
    "mak": {"defence": "pass", "act": "end", "setup": "end"},  # 5.4, 4.0; 19.1/15.0: set-up ends with nothing laid
    "commando": {"command": "end", "actions": "end"},  # Turns
    "skirmish": {"orders": "done"},  # Turns
    "raiders": {"objective": "end-op"},  # 11.0
}


@pytest.mark.parametrize("key", sorted(EXPECTED))
def test_the_declared_no_action_orders(key: str) -> None:
    system = registry.get(key)
    assert {phase: a.name for phase, a in system.idle_orders.items()} == EXPECTED[key]


@pytest.mark.parametrize("key", sorted(EXPECTED))
def test_the_no_action_order_is_legal_and_accepted_wherever_it_is_named(key: str) -> None:
    system = registry.get(key)
    found: list[str] = []

    def check(sys, played: PlayedStep) -> None:  # noqa: ANN001
        state = played.before
        for side in system.sides:
            idle = system.idle_order(state, side)
            if idle is None:
                continue
            assert side in system.waiting_on(state)
            assert system.phase_of(state) in system.idle_orders
            step = system.apply(state, side, idle, SeededDice(b"idle", 0))
            assert step.state is not state
            found.append(idle.name)

    for seed in range(40):  # a short Raiders campaign seldom reaches an Objective segment (1 in 6)
        play(system, seed, check=check, keep_steps=False)
        if len(found) >= 3:
            break
    assert found, f"{key}: no random game ever reached a phase with a 'no action' order"


@pytest.mark.parametrize("key", sorted(EXPECTED))
def test_no_order_for_a_side_not_waited_on_or_a_game_over(key: str) -> None:
    system = registry.get(key)
    game = play(system, 0, keep_steps=False)
    assert game.final is not None
    assert all(system.idle_order(game.final, side) is None for side in system.sides)
    opening = game.opening.state
    for side in system.sides:
        if side not in system.waiting_on(opening):
            assert system.idle_order(opening, side) is None
