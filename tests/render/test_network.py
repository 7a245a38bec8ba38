"""The network snapshot (Raiders): spaces, forces, tracks and the battle panel."""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from render import snapshot
from render.layout import contains, overlapping_pairs
from render.style import WIDTH
from rules.core.views import ForceView, UnitChip
from tests.render.fixtures import network_view

LABEL_KINDS = ("label", "objective", "force", "track", "header", "legend", "battle_unit")


def test_png_opens_with_the_expected_size() -> None:
    shot = snapshot(network_view())
    image = Image.open(io.BytesIO(shot.png))
    assert image.size == (WIDTH, shot.height)
    assert len(shot.png) < 1_000_000


def test_every_space_and_every_force_member_drawn_once() -> None:
    view = network_view()
    layout = snapshot(view).layout
    assert sorted(i.id for i in layout.of_kind("space")) == sorted(s.id for s in view.spaces)
    units = layout.of_kind("unit")
    expected = [(u.id, f.space) for f in view.forces for u in f.units]
    assert sorted((i.id, i.parent) for i in units) == sorted(expected)
    for force in view.forces:
        box = layout.get("force", force.id).box
        assert all(contains(box, i.box) for i in units if i.id in {u.id for u in force.units})


def test_no_labels_overlap() -> None:
    layout = snapshot(network_view()).layout
    assert overlapping_pairs(layout.of_kind(*LABEL_KINDS)) == []


def test_objectives_face_down_and_revealed_are_marked() -> None:
    layout = snapshot(network_view()).layout
    assert {i.id for i in layout.of_kind("objective")} == {"S8", "S10", "S12", "S17"}


def test_battle_panel_shows_both_lines_below_the_map() -> None:
    """A 4 v 5 battle round: every unit of both lines gets a row in the panel."""
    view = network_view()
    layout = snapshot(view).layout
    battle = layout.get("battle", "S8")
    rows = layout.of_kind("battle_unit")
    for line in view.battle.lines:
        assert sorted(i.id for i in rows if i.parent == line.faction) == sorted(u.id for u in line.units)
    assert all(contains(battle.box, i.box) for i in rows)
    assert battle.box[1] >= max(i.box[3] for i in layout.of_kind("space"))


def test_tracks_are_drawn() -> None:
    layout = snapshot(network_view()).layout
    assert [i.id for i in layout.of_kind("track")] == ["Alert", "Ops left", "RP"]


def test_no_battle_no_panel_and_same_bytes_twice() -> None:
    view = network_view(battle=False)
    first = snapshot(view)
    assert first.layout.of_kind("battle") == []
    assert snapshot(view).png == first.png


def test_real_raiders_scenario_view_renders() -> None:
    """The desert campaign as the engine sets it up: every space drawn, no labels overlapping."""
    from rules.core.dice import ScriptedDice
    from rules.raiders.system import RaidersSystem

    system = RaidersSystem()
    view = system.view(system.setup("desert", {}, ScriptedDice([1] * 20)).state)
    shot = snapshot(view)
    assert len(shot.png) < 1_000_000
    assert sorted(i.id for i in shot.layout.of_kind("space")) == sorted(s.id for s in view.spaces)
    assert overlapping_pairs(shot.layout.of_kind(*LABEL_KINDS)) == []


@settings(max_examples=6, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 20), st.integers(1, 4)), min_size=0, max_size=8))
def test_any_forces_draw_each_unit_once_without_overlaps(forces: list[tuple[int, int]]) -> None:
    view = network_view(battle=False)
    views = [
        ForceView(id=f"F{k}", space=f"S{space}", faction="raider", units=[
            UnitChip(id=f"F{k}-{j}", label=f"U{k}-{j}", faction="raider", detail=f"c{j} m3")
            for j in range(size)])
        for k, (space, size) in enumerate(forces)
    ]
    view = view.model_copy(update={"forces": views})
    layout = snapshot(view).layout
    expected = sorted(u.id for f in views for u in f.units)
    assert sorted(i.id for i in layout.of_kind("unit")) == expected
    assert overlapping_pairs(layout.of_kind(*LABEL_KINDS)) == []
