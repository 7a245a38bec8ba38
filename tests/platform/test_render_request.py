"""A picture's request crosses to its worker as JSON, a hex map's cells apart (issue 41)."""

from __future__ import annotations

import pickle

from bot import renderworker
from bot.renderworker import DrawRequest
from rules.core import registry
from rules.core.samples import orders, pictures


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


def _parts(request: DrawRequest) -> set[str]:
    """The names of the list fields ``request`` pickles apart from the rest of its view."""
    _, args = request.__reduce__()
    return {name for name, _ in args[3]}


def test_a_views_pieces_travel_apart_once_seen_twice_and_new_models_inline() -> None:
    """An area map's areas are the rules' own pieces, the same models in every view of a
    game (``rules/rr/view.Pieces``): the second request sends them apart, as JSON made once;
    its counters are new models every time and go inline with the rest."""
    renderworker._DUMPED.clear()
    renderworker._ONCE.clear()
    system = registry.get("rr")
    state = orders(system, 3)[1][-1].state
    first, second = system.view(state), system.view(state)  # two pictures of one position
    assert first.areas[0] is second.areas[0] and first.counters[0] is not second.counters[0]
    assert "areas" not in _parts(DrawRequest(view=first))
    parts = _parts(DrawRequest(view=second))
    assert "areas" in parts and "counters" not in parts
    assert pickle.loads(pickle.dumps(DrawRequest(view=second))).view == second


def test_every_systems_views_unpickle_to_the_same_view_first_and_again() -> None:
    """Whatever travels apart, the worker gets the view the bot built, for every system:
    the first request of a game's views and those after it."""
    for key in registry.load_all():
        renderworker._STATIC.clear()
        for view in pictures(registry.get(key), 3):
            for whole in (False, True):
                back = pickle.loads(pickle.dumps(DrawRequest(view=view, whole=whole)))
                assert back.view == view and back.whole is whole, key
