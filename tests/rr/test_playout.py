"""Random legal playouts of whole seven-turn games (hypothesis), and garbage orders.

Invariants after every step: 5.1 stacking, 0 <= AP <= max, one place per unit, never both
Suppressed and Recovering (one status field), JSON round trip, apply leaves its input alone,
and someone can always act until the 12.0 verdict.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.core.dice import SeededDice
from rules.core.errors import RuleError
from rules.rr import SYSTEM
from rules.rr.actions import ACTIONS
from rules.rr.state import RRState
from tests.rr.driver import play


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.binary(min_size=4, max_size=8))
def test_random_legal_games_reach_the_verdict(seed: bytes) -> None:
    """Seven turns of random legal orders: no error, no dead end, every invariant (5.1, 7.1)."""
    state, orders = play(int.from_bytes(seed, "big"), SeededDice(seed))
    assert state.result is not None and state.result.endswith("(12.0)")
    assert orders > 50


def garbage_value(rng: random.Random) -> object:
    """Something a careless or hostile player might type."""
    return rng.choice(["", "7", "99", "VDV-1", "M48-1,M48-2", "x" * 40, "-1", "19", "HIND",
                       "NIKOLAS", "SNIPER", "KASTET", "0", "TOW", "29", "ask", "never", True, 3])


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(min_value=0, max_value=10_000))
def test_garbage_orders_raise_rule_errors_and_change_nothing(seed: int) -> None:
    """Random orders with random options at random moments of a game: RuleError or a legal
    step, never another exception, and the state given is never changed."""
    rng = random.Random(seed)
    dice = SeededDice(f"garbage-{seed}".encode())
    state = SYSTEM.setup("tannenbruck", {}, dice).state
    assert isinstance(state, RRState)
    for _ in range(60):
        if not SYSTEM.waiting_on(state):
            break
        model = rng.choice(ACTIONS)
        options = {
            name: garbage_value(rng)
            for name in model.model_fields if rng.random() < 0.8
        }
        side = rng.choice(["nato", "soviet"])
        before = state.model_dump_json()
        try:
            action = SYSTEM.parse(model.name, options)
            step = SYSTEM.apply(state, side, action, dice)
        except RuleError:
            assert state.model_dump_json() == before
        else:
            assert state.model_dump_json() == before
            state = step.state
            assert isinstance(state, RRState)
        # Move the game on with a legal order so later garbage meets later phases.
        waiting = SYSTEM.waiting_on(state)
        if waiting:
            legal = SYSTEM.legal_actions(state, waiting[0])
            state = SYSTEM.apply(state, waiting[0], rng.choice(legal), dice).state
            assert isinstance(state, RRState)
