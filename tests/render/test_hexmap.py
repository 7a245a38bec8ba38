"""The hex-map renderer (render/hexmap.py): the real PNG opened and its layout checked."""

from __future__ import annotations

import io

from PIL import Image

from render import focus, snapshot
from render.hexmap import TERRAIN, make_frame, map_extent, terrain_fill
from render.chrome import header_height
from render.scene import FOCUS_MAX
from render.style import WIDTH, hex_rgb
from rules.core.views import HexCellView
from tests.render.hex_fixtures import hex_view


def _open(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.convert("RGB")


def _near(a: tuple[int, ...], b: tuple[int, ...], tol: int = 24) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b))


def test_focus_crop_is_a_real_png_around_the_action():
    view = hex_view(focus=True)
    shot = focus(view)  # the posted picture: the crop (snapshot() is the whole map)
    image = _open(shot.png)
    assert image.size == (shot.width, shot.height) and shot.width == FOCUS_MAX
    frame = make_frame(view, header_height(view.header, FOCUS_MAX))
    assert frame.focus
    for col, row in view.focus:
        assert frame.shows(col, row)
    # the far PKA on board 6 is outside the crop and not drawn
    ids = {item.id for item in shot.layout.of_kind("counter")}
    assert "far" not in ids and {"pka1", "gus1", "afs1", "afs2", "afs3"} <= ids


def test_counters_are_one_size_and_centred_in_their_hex():
    view = hex_view(focus=True)
    shot = focus(view)
    frame = make_frame(view, header_height(view.header, FOCUS_MAX))
    sizes = set()
    for counter in view.counters:
        if not frame.shows(counter.col, counter.row):
            continue
        box = shot.layout.get("counter", counter.id).box
        cx, cy = frame.centre(counter.col, counter.row)
        cy += frame.counter_drop  # below the hex's number (issue 25 point 13)
        assert abs((box[0] + box[2]) / 2 - cx) < 0.6 and abs((box[1] + box[3]) / 2 - cy) < 0.6
        sizes.add((round(box[2] - box[0]), round(box[3] - box[1])))
    assert len(sizes) == 1


def test_focus_picture_reads_on_a_phone_and_shows_every_hex_number():
    """Issue 17: the posted picture is read inline about 400 px wide; at most FOCUS_MAX
    (750) px wide, its smallest text (17 px) shows at 9 px or more, and every hex of the
    crop still carries its four-digit number."""
    view = hex_view(focus=True)
    shot = focus(view)
    assert shot.width <= 750
    assert min(size for _, size in shot.layout.texts) * 400 / shot.width >= 9
    frame = make_frame(view, header_height(view.header, FOCUS_MAX))
    numbers = {t for t, _ in shot.layout.texts}
    shown = [c.number for c in view.cells if frame.shows(c.col, c.row)]
    assert len(shown) >= 7 * 7 and set(shown) <= numbers


def test_a_stack_shows_its_count_and_every_unit_once():
    shot = focus(hex_view(focus=True))
    counters = shot.layout.of_kind("counter")
    assert len({c.id for c in counters}) == len(counters)
    stack = shot.layout.of_kind("stack")
    assert [s.parent for s in stack] == ["1008"]  # three AFS in map hex (9, 7) = 5:1008
    assert all(c.parent == "1008" for c in counters if c.id.startswith("afs"))


def test_terrain_and_elevation_are_painted():
    view = hex_view(focus=False)
    shot = snapshot(view)
    image = _open(shot.png)
    frame = make_frame(view, header_height(view.header, WIDTH))
    # a clear hex, a hill hex (level 1, shaded darker) and a water hex, sampled off-centre
    clear = image.getpixel(tuple(round(v) for v in frame.centre(16, 28)))
    hill_rgb = terrain_fill(HexCellView(col=0, row=0, number="", terrain="hill", elevation=1))
    x, y = frame.centre(11, 13)
    hill = image.getpixel((round(x + 14), round(y + 14)))
    assert _near(clear, hex_rgb(TERRAIN["clear"]))
    assert _near(hill, hill_rgb)
    assert sum(hill) < sum(hex_rgb(TERRAIN["hill"]))  # 6.2: higher is darker


def test_whole_map_shows_every_board_with_rulers():
    view = hex_view(focus=False)
    shot = snapshot(view)
    frame = make_frame(view, header_height(view.header, WIDTH))
    cols, rows = map_extent(view)
    assert (frame.cols, frame.rows) == (cols, rows) == (40, 30)
    map_box = shot.layout.get("map", "whole").box
    assert map_box[2] <= shot.width and map_box[3] <= shot.height
    assert "far" in {item.id for item in shot.layout.of_kind("counter")}


def test_last_move_and_attack_are_drawn_with_labels_clear_of_counters():
    shot = focus(hex_view(focus=True))
    marks = shot.layout.of_kind("mark")
    labels = shot.layout.of_kind("mark_label")
    assert [m.id for m in marks] == ["0:move", "1:fire"]
    assert len(labels) == 2
    for label in labels:
        for counter in shot.layout.of_kind("counter"):
            a, b = label.box, counter.box
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]


def test_same_view_same_bytes():
    assert snapshot(hex_view()).png == snapshot(hex_view()).png
