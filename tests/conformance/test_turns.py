"""The contract's turn and outcome (issue 23, point 2) agree with what players see.

``GameSystem.turn(state)`` is what the service reads to know that a game turn ended (the
digest); a system overrides the default (read from its picture's header) with the few
fields it needs.  Both must name the same turn on every state of random playouts, and
``outcome`` must say the game ended exactly when ``result`` does, in the same words.
"""

from __future__ import annotations

from typing import Any

import pytest

from rules.core import registry
from rules.core.contract import GameSystem
from rules.core.playout import play
from tests.platform.duel import DUEL

registry.register(DUEL)
SYSTEMS = registry.load_all()
#: A few whole games each: every state of them is checked.
SEEDS = range(3)


def header_turn(system: GameSystem[Any], state: Any) -> tuple[int, str] | None:
    """The turn as the picture's header prints it (number and word)."""
    header = getattr(system.view(state), "header", None)
    turn = getattr(header, "turn", None)
    return None if turn is None else (turn, getattr(header, "turn_word", "Turn"))


@pytest.mark.parametrize("key", sorted(SYSTEMS))
@pytest.mark.parametrize("seed", SEEDS)
def test_turn_and_outcome_agree_with_the_picture_and_the_result(key: str, seed: int) -> None:
    system = SYSTEMS[key]
    game = play(system, seed)
    states = [game.opening.state, *(p.step.state for p in game.steps)]
    for state in states:
        turn = system.turn(state)
        assert turn.key == header_turn(system, state), system.turn_part(state)
        assert turn.waiting_on == system.waiting_on(state)
        outcome = system.outcome(state)
        result = system.result(state)
        assert (outcome is None) == (result is None)
        if outcome is not None:
            assert outcome.termination == result
            assert outcome.winner is None or outcome.winner in system.sides
