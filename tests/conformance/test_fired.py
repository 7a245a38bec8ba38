"""What changed, read without a picture (issue 23): ``GameSystem.fired(state)`` is what "what
changed since your last order" reads of every step between that order and a picture, and
``GameSystem.seen(state)`` what it keeps of the step of that order.  A system that reads
them from its state (rr, Commando, Skirmish) must give exactly what its picture shows
(``rules.core.views.fired_in`` and ``seen`` of its view) on every state of random
playouts; the defaults read the picture itself."""

from __future__ import annotations

import pytest

from rules.core import registry
from rules.core.playout import play
from rules.core.views import fired_in, seen
from tests.platform.duel import DUEL

registry.register(DUEL)
SYSTEMS = registry.load_all()
SEEDS = range(3)


@pytest.mark.parametrize("key", sorted(SYSTEMS))
@pytest.mark.parametrize("seed", SEEDS)
def test_fired_and_seen_read_what_the_picture_shows(key: str, seed: int) -> None:
    system = SYSTEMS[key]
    game = play(system, seed)
    states = [game.opening.state, *(p.step.state for p in game.steps)]
    fired = 0
    for state in states:
        from_view = frozenset(fired_in(system.view(state)))
        assert system.fired(state) == from_view, system.turn_part(state)
        assert system.seen(state) == seen(system.view(state)), system.turn_part(state)
        fired += bool(from_view)
    if key in ("commando", "skirmish"):  # their games fire: the check compared something
        assert fired > 0
