"""Random legal games of the ``air`` scenario with both pilot options, biased to use the air
war (10.0) and the pilots (18.0), played to the end (the conformance kit plays it too)."""

from __future__ import annotations

from collections import Counter

from tests.mak.test_playouts import play

AIR = ("air commit", "air strike", "air flak", "air strafe", "air land", "pilot recruit", "pilot train",
       "indirect", "fire", "defend")


def test_random_air_games_end_and_use_the_air_orders() -> None:
    used: Counter[str] = Counter()
    for seed in range(8):
        orders, result = play(seed, "air", "escape=true,creation=true", prefer=AIR)
        assert result
        used += orders
    for name in ("air commit", "air strike", "air flak", "air strafe", "air land", "pilot recruit"):
        assert used[name], (name, used)
