"""The render caches of whole-map images share one budget in bytes (issue 41: a render
worker that had drawn every system held 800 MB; 500 cached games and the workers must fit
in 600 MB).  The least recently used entry goes first, and an entry drawn again is the
same pixels."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PIL import Image

from bot import renderworker
from render import caches, clear_caches, focus, snapshot
from rules.core import registry
from rules.core.samples import pictures

MB = 1024 * 1024


@pytest.fixture
def budget() -> Iterator[None]:
    """Put the default budget back (and empty the caches) after the test."""
    clear_caches()
    yield
    caches.set_budget(caches.DEFAULT_BUDGET)
    clear_caches()


def _image(mb: int) -> Image.Image:
    """An RGB image of ``mb`` megabytes in memory (four bytes a pixel)."""
    return Image.new("RGB", (1024, 256 * mb))


def test_the_least_recently_used_image_goes_first_past_the_budget(budget: None) -> None:
    caches.set_budget(10 * MB)
    caches.keep("a", 1, _image(4), 8)
    caches.keep("b", 1, _image(4), 8)
    assert caches.recall("a", 1) is not caches.MISSING  # now the most recently used
    caches.keep("c", 1, _image(4), 8)  # 12 MB: the oldest, b, goes
    assert caches.recall("b", 1) is caches.MISSING
    assert caches.recall("a", 1) is not caches.MISSING
    assert caches.recall("c", 1) is not caches.MISSING
    assert caches.held_bytes() == (8 * MB, 10 * MB)


def test_a_cache_keeps_its_own_count_and_the_newest_entry_stays_whatever_its_size(budget: None) -> None:
    caches.set_budget(10 * MB)
    for key in range(3):
        caches.keep("counted", key, _image(1), 2)
    assert [caches.recall("counted", k) is caches.MISSING for k in range(3)] == [True, False, False]
    caches.keep("huge", 0, _image(12), 8)  # past the budget alone: it is about to be used
    assert caches.recall("huge", 0) is not caches.MISSING
    assert caches.held_bytes()[0] == 12 * MB


def test_footprint_weighs_the_images_an_entry_holds() -> None:
    class Layer:
        def __init__(self) -> None:
            self.big, self.small, self.texts = _image(2), Image.new("L", (100, 100)), (("1", 8),)

    assert caches.footprint((_image(1), ("text", 3))) == MB
    assert caches.footprint(Layer()) == 2 * MB + 10_000
    assert caches.footprint("text") == 0


@pytest.mark.parametrize("key", ["mak", "raiders", "rr", "commando"])  # hex, network, area map, table
def test_a_picture_drawn_within_a_tiny_budget_is_the_same_picture(key: str, budget: None) -> None:
    """Every whole-map layer evicted as soon as the next is kept: each picture redraws its
    terrain, and its bytes are those drawn with the layers kept."""
    views = pictures(registry.get(key), 30)[:3]
    kept = [(snapshot(v).png, focus(v).png) for v in views]  # type: ignore[arg-type]
    clear_caches()
    caches.set_budget(MB)
    assert [(snapshot(v).png, focus(v).png) for v in views] == kept  # type: ignore[arg-type]
    held, limit = caches.held_bytes()
    assert limit == MB
    # Within the budget, or one entry past it (the newest stays whatever its size).
    assert held <= MB or len(caches._HELD.entries) == 1


def test_a_render_worker_bounds_its_caches_by_the_settings(budget: None) -> None:
    renderworker.start(1024, None, 48)
    assert caches.held_bytes()[1] == 48 * MB
