"""Exhaustive seeded runs, split in two (issue 26): the first seeds run in the README's test
line, the rest only behind the ``slow`` marker, which CI runs too (``.ci/run``).

    @seed_split(3, 10)
    def test_random_games_end(seeds: range) -> None:
        for seed in seeds: ...

runs seeds 0-2 in every run and seeds 3-9 with ``pytest -m slow``.  A test whose claim is
about the seeds together (some game fights, some order is used) must hold on each part.
"""

from __future__ import annotations

import pytest


def seed_split(quick: int, total: int, *, start: int = 0) -> pytest.MarkDecorator:
    """Parametrize ``seeds``: ``start`` .. ``start + quick - 1`` in every run, the rest up to
    ``start + total - 1`` behind the ``slow`` marker."""
    first = range(start, start + quick)
    rest = range(start + quick, start + total)
    return pytest.mark.parametrize("seeds", [
        pytest.param(first, id=f"seeds{first.start}-{first.stop - 1}"),
        pytest.param(rest, id=f"seeds{rest.start}-{rest.stop - 1}", marks=pytest.mark.slow),
    ])


def slow_variant(quick: object, exhaustive: object, name: str = "size") -> pytest.MarkDecorator:
    """Parametrize ``name``: ``quick`` in every run, ``exhaustive`` behind ``slow``."""
    return pytest.mark.parametrize(name, [
        pytest.param(quick, id=f"{name}{quick}"),
        pytest.param(exhaustive, id=f"{name}{exhaustive}", marks=pytest.mark.slow),
    ])
