"""Random legal games of the ``air`` scenario with both pilot options, biased to use the air
war (10.0) and the pilots (18.0), played to the end (the conformance kit plays it too)."""

from __future__ import annotations

from collections import Counter

from tests.mak.test_playouts import play
from tests.seeds import seed_split

AIR = ("air commit", "air strike", "air flak", "air strafe", "air land", "pilot recruit", "pilot train",
       "indirect", "fire", "defend")


# Seeds 1-2 in the README's line (between them every air order and pilot recruit), 3-8
# behind ``slow``: each part uses every order.
@seed_split(2, 8, start=1)
def test_random_air_games_end_and_use_the_air_orders(seeds: range) -> None:
    used: Counter[str] = Counter()
    for seed in seeds:
        orders, result = play(seed, "air", "escape=true,creation=true", prefer=AIR)
        assert result
        used += orders
    for name in ("air commit", "air strike", "air flak", "air strafe", "air land", "pilot recruit"):
        assert used[name], (name, used)
