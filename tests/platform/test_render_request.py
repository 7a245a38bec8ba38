"""A picture's request crosses to its worker as JSON, a hex map's cells apart (issue 41)."""

from __future__ import annotations

import pickle

from bot import renderworker
from bot.renderworker import DrawRequest
from rules.core import registry
from rules.core.samples import pictures


def test_a_hex_maps_cells_travel_apart_and_are_validated_once() -> None:
    """The request unpickles to the same view; a second request of the same map reuses the
    cells the worker validated for the first (the same models), and still carries them."""
    first, second = pictures(registry.get("mak"), 2)[:2]
    assert len(first.cells) >= renderworker.BIG_LIST
    renderworker._STATIC.clear()
    a = pickle.loads(pickle.dumps(DrawRequest(view=first)))
    b = pickle.loads(pickle.dumps(DrawRequest(view=second, whole=True)))
    assert a.view == first and b.view == second and b.whole and not a.whole
    assert a.view.cells[0] is b.view.cells[0]
    renderworker._STATIC.clear()  # a new worker: the request alone is enough
    assert pickle.loads(pickle.dumps(DrawRequest(view=second))).view == second


def test_a_small_view_travels_as_one_json() -> None:
    """A view with no big list pickles as before: its class and its JSON."""
    view = pictures(registry.get("commando"), 1)[0]
    assert pickle.loads(pickle.dumps(DrawRequest(view=view))).view == view
