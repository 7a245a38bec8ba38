"""Random legal playouts of whole seven-turn games through the kit's one driver, with
Raid and Riposte's invariants after every order (5.1 stacking, 0 <= AP <= max, one place per
unit, never both Suppressed and Recovering, JSON round trip, 7.0 automatic passes)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.core.playout import play
from rules.rr import SYSTEM
from rules.rr.state import RRState
from tests.rr.invariants import check_step
from tests.seeds import slow_variant


def reaches_the_verdict(seed: int) -> None:
    """One game of seven turns of random legal orders: no error, no dead end, every
    invariant after every order (5.1, 7.1), the verdict at the end (12.0)."""
    game = play(SYSTEM, seed, check=check_step, keep_steps=False)
    state = game.final
    assert isinstance(state, RRState)
    assert state.result is not None and state.result.endswith("(12.0)") and state.turn == 7
    assert game.orders > 50


# Four random games in the README's line, twelve behind ``slow`` (a game is ~2 s).
@slow_variant(4, 12, "games")
def test_random_legal_games_reach_the_verdict(games: int) -> None:
    """Seven turns of random legal orders: no error, no dead end, every invariant (5.1, 7.1)."""
    settings(max_examples=games, deadline=None, suppress_health_check=[HealthCheck.too_slow])(
        given(seed=st.integers(min_value=50, max_value=2**32))(reaches_the_verdict))()


def test_a_whole_game_replays_identically_from_its_seed() -> None:
    """Determinism: the same seed gives the same game."""
    first = play(SYSTEM, 7, keep_steps=False)
    second = play(SYSTEM, 7, keep_steps=False)
    assert first.final == second.final and first.orders == second.orders
