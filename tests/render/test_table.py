"""The inch-table snapshot (Commando raid): bases, arcs, measured moves and shots."""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from render import snapshot
from render.layout import overlapping_pairs
from render.style import MARGIN, WIDTH
from render.table import RULER, Inches
from rules.core.views import TableUnit, TableView
from tests.render.fixtures import table_view

LABEL_KINDS = ("label", "header", "legend")


def check(view: TableView) -> None:
    """Every base drawn once at its place; every base labelled; no labels overlap."""
    shot = snapshot(view)
    image = Image.open(io.BytesIO(shot.png))
    assert image.size == (WIDTH, shot.height)
    assert len(shot.png) < 1_000_000
    layout = shot.layout
    units = layout.of_kind("unit")
    assert sorted(i.id for i in units) == sorted(u.id for u in view.units)
    labels = {i.parent for i in layout.of_kind("label") if i.id.startswith("unit-")}
    # Every base in action is labelled; a base out of action is a grey X without a label.
    assert labels == {u.id for u in view.units if not u.eliminated}
    assert overlapping_pairs(layout.of_kind(*LABEL_KINDS)) == []
    # No base hides another: stacked bases are spread apart (issue 15).
    assert overlapping_pairs(units) == []
    # Each base sits where its inches say (one spread off a stack sits within two base widths).
    tf = Inches(view, MARGIN + RULER, layout.get("header", "header").box[3] + MARGIN + RULER)
    by_id = {u.id: u for u in view.units}
    for item in units:
        u = by_id[item.id]
        x, y = tf(u.x, u.y)
        cx, cy = (item.box[0] + item.box[2]) / 2, (item.box[1] + item.box[3]) / 2
        assert abs(cx - x) + abs(cy - y) < 0.2 or ((cx - x) ** 2 + (cy - y) ** 2) ** 0.5 < 4 * (item.box[2] - item.box[0])


def test_hand_built_table_renders_every_base_and_label() -> None:
    check(table_view())


def test_measured_moves_and_shots_are_labelled() -> None:
    layout = snapshot(table_view()).layout
    assert [i.parent for i in layout.of_kind("mark")] == ["move", "move", "shot", "miss", "blast"]
    assert len([i for i in layout.of_kind("label") if i.id.startswith("mark-")]) == 5


def test_table_scale_fills_the_width() -> None:
    """48 inches across at about 25 px an inch: a 1" base is 25 px, a 6" move 150 px."""
    view = table_view()
    tf = Inches(view, 42, 100)
    assert 24 < tf.scale < 26.5
    assert tf.box[2] <= WIDTH


def test_same_table_same_bytes() -> None:
    assert snapshot(table_view()).png == snapshot(table_view()).png


def test_real_commando_scenario_view_renders() -> None:
    """The St Nazaire set-up as the engine builds it: every base and label, nothing overlapping."""
    from rules.commando.system import CommandoRaid
    from rules.core.dice import ScriptedDice

    system = CommandoRaid()
    state = system.setup("st_nazaire", {}, ScriptedDice([])).state
    check(system.view(state))


@settings(max_examples=6, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 48), st.floats(0, 36), st.booleans(),
                          st.one_of(st.none(), st.floats(0, 359))),
                min_size=0, max_size=30))
def test_any_positions_draw_each_base_once_and_labels_apart(
        bases: list[tuple[float, float, bool, float | None]]) -> None:
    units = [TableUnit(id=f"U{k}", label=f"U{k}", faction="commando" if side else "german",
                       x=x, y=y, facing=facing, arc=90.0 if facing is not None else None)
             for k, (x, y, side, facing) in enumerate(bases)]
    view = table_view().model_copy(update={"units": units, "marks": []})
    layout = snapshot(view).layout
    assert sorted(i.id for i in layout.of_kind("unit")) == sorted(u.id for u in units)
    assert overlapping_pairs(layout.of_kind(*LABEL_KINDS)) == []
