"""The focus picture of what changed over a turn (the digest's second picture, issue 40),
for every system: a hex map focuses on hexes, not unit ids (Maschinen Krieger's turn focus
failed with a traceback in the log and no picture)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render import pictures
from rules.core import registry
from rules.core.playout import play
from rules.core.views import HexMapView, changes_along, focused_on


@pytest.mark.parametrize("key", ["rr", "raiders", "commando", "skirmish", "mak"])
def test_a_turns_changes_are_drawn_as_a_focus_picture(key: str) -> None:
    system = registry.get(key)
    steps = play(system, 3).steps
    views = [system.view(played.step.state) for played in steps[10:30]]
    changes = changes_along(views)
    assert changes, f"{key}: nothing changed over 20 steps of a playout"
    drawn = focused_on(views[-1], changes)
    if isinstance(drawn, HexMapView):
        where = {(c.col, c.row) for c in drawn.counters}
        assert drawn.focus and set(drawn.focus) <= where
    png = Image.open(io.BytesIO(pictures.focus(drawn).png))
    assert png.format == "PNG" and png.width >= 400
