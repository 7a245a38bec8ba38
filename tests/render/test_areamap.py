"""The area-map snapshot (Raid and Riposte): real PNGs opened, and the layout checked."""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops

from render import snapshot
from render.areamap import Transform
from render.layout import Layout, box_in_polygon, overlapping_pairs
from render.style import MARGIN, WIDTH
from rules.core.views import AreaMapView, CounterView
from tests.render.fixtures import area_view

#: Kinds that carry words: no two of them may overlap.
LABEL_KINDS = ("counter", "stack", "area_label", "objective", "entrance", "label", "panel", "header",
               "legend")


def polygons_in_pixels(view: AreaMapView, layout: Layout) -> dict[str, list[tuple[float, float]]]:
    """The areas' polygons in image pixels, recomputed from the header's height."""
    top = layout.get("header", "header").box[3]
    tf = Transform(view, MARGIN, top + MARGIN, WIDTH - 2 * MARGIN)
    return {a.id: tf.many(a.polygon) for a in view.areas}


def check_layout(view: AreaMapView, layout: Layout) -> None:
    """Every on-map counter drawn once, in its area (or its area's panel); no label overlaps."""
    counters = layout.of_kind("counter")
    drawn = [item.id for item in counters]
    on_map = [c.id for c in view.counters if c.area is not None]
    assert sorted(drawn) == sorted(on_map)
    where = {c.id: c.area for c in view.counters}
    polygons = polygons_in_pixels(view, layout)
    for item in counters:
        assert item.parent == where[item.id]
        if not item.in_panel:
            assert box_in_polygon(item.box, polygons[item.parent]), item
        else:
            assert item.box[1] > layout.of_kind("area")[0].box[1]
    panel_areas = {item.parent for item in counters if item.in_panel}
    known = {a.id for a in view.areas}
    assert panel_areas & known == {item.id for item in layout.of_kind("stack")}
    assert overlapping_pairs(layout.of_kind(*LABEL_KINDS)) == []
    for item in layout.items:
        assert 0 <= item.box[0] <= item.box[2] <= layout.width
        assert 0 <= item.box[1] <= item.box[3] <= layout.height


def test_png_opens_with_the_expected_size() -> None:
    shot = snapshot(area_view())
    image = Image.open(io.BytesIO(shot.png))
    assert image.format == "PNG"
    assert image.size == (shot.width, shot.height) == (WIDTH, shot.layout.height)
    assert len(shot.png) < 1_000_000


def test_every_counter_drawn_once_in_its_area_and_no_labels_overlap() -> None:
    view = area_view()
    check_layout(view, snapshot(view).layout)


def test_off_map_counters_are_not_drawn() -> None:
    layout = snapshot(area_view()).layout
    assert "VDV-11" not in {item.id for item in layout.of_kind("counter")}


def test_crowded_area_shows_a_stack_chip_and_every_counter_in_the_panel() -> None:
    """Area 20 holds 8 counters: the map shows '8 units', the panel all eight."""
    view = area_view()
    layout = snapshot(view).layout
    stack = layout.get("stack", "20")
    assert stack.parent == "20"
    in_panel = [item.id for item in layout.of_kind("counter") if item.in_panel and item.parent == "20"]
    assert sorted(in_panel) == sorted(c.id for c in view.counters if c.area == "20")
    assert layout.get("panel", "20").box[1] > stack.box[3]


def test_quiet_areas_keep_their_chips_on_the_map() -> None:
    layout = snapshot(area_view(crowded=False)).layout
    on_map = {item.id for item in layout.of_kind("counter") if not item.in_panel}
    assert {"VDV-1", "Mortar", "BMD-2", "Hind", "PzG-1", "M113-2"} <= on_map


def test_leader_hangs_under_its_unit() -> None:
    """Leaders and ATGM teams ride with their unit (9.3, 9.4): their chip sits right under it."""
    layout = snapshot(area_view()).layout
    for rider, host in (("Koval", "VDV-4"), ("TOW", "Luchs"), ("Boyes", "M113-1")):
        r, h = layout.get("counter", rider), layout.get("counter", host)
        assert r.parent == h.parent
        assert r.box[0] == h.box[0] and r.box[1] == h.box[3]


def test_objectives_and_area_labels_are_drawn_for_every_area() -> None:
    view = area_view()
    layout = snapshot(view).layout
    assert {i.id for i in layout.of_kind("area")} == {a.id for a in view.areas}
    assert {i.id for i in layout.of_kind("area_label")} == {a.id for a in view.areas}
    assert {i.id for i in layout.of_kind("objective")} == {"20", "26", "28", "29", "30"}


def test_marks_are_drawn_with_their_labels() -> None:
    layout = snapshot(area_view()).layout
    assert [i.parent for i in layout.of_kind("mark")] == ["move", "fire", "assault"]
    assert len(layout.of_kind("label")) == 3


def test_same_view_same_bytes() -> None:
    view = area_view()
    assert snapshot(view).png == snapshot(view.model_copy(deep=True)).png


def test_view_round_trips_through_json_and_renders_the_same() -> None:
    view = area_view()
    again = AreaMapView.model_validate_json(view.model_dump_json())
    assert snapshot(again).png == snapshot(view).png


@settings(max_examples=6, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 30), st.integers(0, 2), st.booleans(),
                          st.sampled_from([[], ["suppressed"], ["recovering"], ["airstrike"]])),
                min_size=1, max_size=40))
def test_any_placement_draws_each_counter_once_without_overlaps(
        placed: list[tuple[int, int, bool, list[str]]]) -> None:
    base = area_view(crowded=False)
    factions = ["nato_de", "nato_us", "soviet"]
    counters = [
        CounterView(id=f"U{k}", label=f"U-{k}", area=str(area), faction=factions[side], ap=k % 5,
                    ap_max=4, reduced=reduced, markers=markers)
        for k, (area, side, reduced, markers) in enumerate(placed)
    ]
    view = base.model_copy(update={"counters": counters})
    check_layout(view, snapshot(view).layout)


def test_real_tannenbruck_map_with_every_counter() -> None:
    """The scenario's own 30 areas and every counter placed: each drawn once, nothing overlapping."""
    import pytest

    from tests.render.real import tannenbruck_view

    view = tannenbruck_view()
    if view is None:
        pytest.skip("rules/rr/data/tannenbruck.json is not in the repository yet")
    shot = snapshot(view)
    assert len(shot.png) < 1_000_000
    check_layout(view, shot.layout)


def test_counter_in_an_unknown_area_is_still_drawn_in_the_panel() -> None:
    view = area_view(crowded=False)
    stray = CounterView(id="Lost-1", label="Lost-1", area="99", faction="soviet")
    view = view.model_copy(update={"counters": view.counters + [stray]})
    layout = snapshot(view).layout
    item = layout.get("counter", "Lost-1")
    assert item.in_panel and item.parent == "99"
    check_layout(view, layout)


def test_empty_map_renders() -> None:
    view = area_view().model_copy(update={"counters": [], "marks": [], "sides": [], "legend": []})
    shot = snapshot(view)
    assert shot.layout.of_kind("counter") == [] and shot.layout.of_kind("panel") == []


def test_real_engine_view_after_setup_and_an_impulse() -> None:
    """The Raid and Riposte engine's own view: both sides set up, one move made."""
    from tests.render.real import engine_game

    system, state, dice = engine_game(b"render-test")
    who = state.pending[0].side if state.pending else state.active
    moves = [a for a in system.legal_actions(state, who) if a.name == "move"]
    if moves:
        state = system.apply(state, who, moves[0], dice).state
    view = system.view(state)
    shot = snapshot(view)
    assert len(view.counters) >= 10  # 11.0: the set-up forces; the rest arrive later
    check_layout(view, shot.layout)
    if moves:
        assert shot.layout.of_kind("mark")


def test_reinforcement_entrances_are_tagged_in_their_areas() -> None:
    """11.0: areas where reinforcements enter carry a tag inside the area."""
    view = area_view()
    layout = snapshot(view).layout
    polygons = polygons_in_pixels(view, layout)
    tags = {i.id: i for i in layout.of_kind("entrance")}
    assert set(tags) == {"6", "25", "30"}
    for area_id, item in tags.items():
        assert box_in_polygon(item.box, polygons[area_id])


def test_a_counter_with_a_status_badge_keeps_its_values_on_the_width_of_one_without() -> None:
    """A play-test (issue 46): a Suppressed or reduced counter lost its values line first in
    a crowded area, its row 2 carrying the values, the AP and the badges.  The badges follow
    the name on row 1: VDV-1 with its badges is narrower than a row 2 of values, AP and
    badges, so a crowded area keeps its values longer."""
    from render.areamap import counter_chip  # noqa: PLC0415
    from render.chrome import pill_width  # noqa: PLC0415
    from render.vocab import StyleBook  # noqa: PLC0415
    from rules.core.dice import SeededDice  # noqa: PLC0415
    from rules.rr import SYSTEM  # noqa: PLC0415

    book = StyleBook.of(SYSTEM.view(SYSTEM.setup("tannenbruck", None, SeededDice(b"chip")).state))
    plain = CounterView(id="VDV-1", label="VDV-1", area="1", faction="soviet", ap=0, ap_max=3,
                        values="2-3-7")
    badged = plain.model_copy(update={"markers": ["suppressed"], "reduced": True})
    bare, marked = counter_chip(plain, book), counter_chip(badged, book)
    assert marked.status == bare.status == "2-3-7  AP 0/3"
    badges = sum(pill_width(text) + 3 for text, _ in marked.pills)
    assert marked.size[1] == bare.size[1] and marked.size[0] < bare.size[0] + badges


def test_a_ring_on_a_dot_never_cuts_a_chips_name() -> None:
    """A placed ring (or a burst) on an area's dot is drawn over the chips, so it shows;
    the area's chips keep clear of it if they can, and where a chip still covers it (no room)
    it is drawn under that chip, whose name then stays whole.  Checked by its pixels: the
    same views with the ring in another colour differ nowhere inside a chip, and the rings
    drawn over chips are most of them (the keep-clear works)."""
    from render.vocab import DEFAULT_MARKS
    from rules.core.samples import pictures
    from rules.rr.system import RaidAndRiposte

    views = [v for v in pictures(RaidAndRiposte(), 24) if any(m.kind == "place" for m in v.marks)]
    assert len(views) >= 3
    other = DEFAULT_MARKS["place"].model_copy(update={"colour": "#ff00ff"})
    shown = 0
    for view in views:
        drawn = snapshot(view)
        recoloured = snapshot(view.model_copy(update={"mark_styles": [*view.mark_styles, other]}))
        assert drawn.layout.items == recoloured.layout.items  # the colour moved nothing
        a = Image.open(io.BytesIO(drawn.png)).convert("RGB")
        b = Image.open(io.BytesIO(recoloured.png)).convert("RGB")
        for item in drawn.layout.of_kind("counter") + drawn.layout.of_kind("stack"):
            if item.in_panel:
                continue
            x0, y0, x1, y1 = (round(v) for v in item.box)
            assert a.crop((x0 + 2, y0 + 2, x1 - 2, y1 - 2)).tobytes() == \
                b.crop((x0 + 2, y0 + 2, x1 - 2, y1 - 2)).tobytes(), f"a ring over {item.id}"
        shown += ImageChops.difference(a, b).getbbox() is not None
    assert shown >= len(views) // 2, "the rings show on the map"
