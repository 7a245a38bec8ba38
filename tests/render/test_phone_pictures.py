"""Issue 25 points 12-14: the pictures as a phone shows them (about 400 px wide), checked on
the real PNGs' layouts of the gallery's seeded legal games (``tools/gallery.py``): the focus
picture holds the turn's key event and cuts no label at its edges, the result is said once
and hides nothing, rr stack chips stay in their own area and a control marker is the
controller's, mak counters leave the hex numbers clear, the Raiders legend marks STOP only
where the Terrain Effects Chart says so."""

from __future__ import annotations

import importlib.util
import io
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageStat

from render import focus, once, scene, snapshot, with_focus_box
from render.layout import contains, overlaps, point_in_polygon
from render.banner import BANNER_AVOIDS
from render.scene import MOVABLE, Scene, focus_box
from rules.core import registry
from rules.core.samples import orders
from rules.raiders.scenario import load_scenario
from rules.rr.board import Board
from tests.render.test_areamap import polygons_in_pixels

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def gallery() -> Any:
    """``tools/gallery.py`` as a module (it is a script, not a package)."""
    spec = importlib.util.spec_from_file_location("gallery", ROOT / "tools" / "gallery.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def views(gallery: Any) -> dict[str, Any]:
    """The gallery's views by file stem (every system's game and final picture)."""
    return gallery.views()


def opened(png: bytes) -> Image.Image:
    """A real PNG, opened."""
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return image


def scenes(views: dict[str, Any]) -> list[tuple[str, Any, Scene]]:
    """The views whose renderer makes a :class:`Scene` (all but the hex map's own crop)."""
    out = []
    for stem, view in views.items():
        made = scene(view)
        if isinstance(made, Scene):
            out.append((stem, view, made))
    return out


def test_no_label_is_cut_at_the_focus_pictures_edges(views: dict[str, Any]) -> None:
    """13: "2 units S2 see b", "7 TM", "gun-west": a label, stack chip or mark label the crop
    reaches is whole in the picture (the crop's edges moved off it, or the label drawn whole
    just inside the edge)."""
    for stem, view, made in scenes(views):
        crop = focus_box(made)
        shot = focus(view)
        image = opened(shot.png)
        assert image.size == (shot.width, shot.height) and shot.width <= 750
        board = shot.layout.items[0].box[3]  # under the header
        whole = {(i.kind, i.id): i.box for i in shot.layout.items}
        for item in made.layout.items:
            b = item.box
            if item.kind not in MOVABLE or item.in_panel:
                continue
            if not (b[0] < crop[2] and b[2] > crop[0] and b[1] < crop[3] and b[3] > crop[1]):
                continue
            got = whole.get((item.kind, item.id))
            if got is None:  # left out: its stub is covered over with one colour
                stub = whole.get(("cut", item.id))
                assert stub is not None, f"{stem}: {item.kind} {item.id} cut at the crop's edge"
                piece = image.convert("RGB").crop(tuple(round(v) for v in stub))
                assert len(piece.getcolors(1 << 16) or []) <= 2, (stem, item.id)
                continue
            assert 0 <= got[0] and got[2] <= shot.width and got[1] >= board, (stem, item.id, got)


def test_the_focus_picture_shows_the_units_eliminated_or_hit(views: dict[str, Any]) -> None:
    """12: a commando crop left out the pillbox destroyed that turn: every unit eliminated or
    hit since the pinged player's last order (the turn's key events) is in the picture."""
    seen = 0
    for stem, view, _ in scenes(views):
        if stem.endswith("final"):
            continue
        key = {c.id for c in getattr(view, "changes", []) if c.what in ("eliminated", "hit")}
        shown = {i.id for i in focus(view).layout.items}
        shown |= {i.id.split("-", 1)[-1] for i in focus(view).layout.items if i.kind == "label"}
        for uid in key:
            assert uid in shown, f"{stem}: {uid} was {'eliminated or hit'} and is not in the picture"
            seen += 1
    assert seen  # the samples do hold such events


def test_the_result_is_said_once_and_hides_no_unit_or_name(views: dict[str, Any]) -> None:
    """13: the skirmish banner was printed twice and hid a unit; Raiders' "Campaign lost"
    hid a place name.  The header no longer repeats it; on the focus picture it has a band of
    its own over the board, on the whole map the free spot nearest the top."""
    finals = [(stem, view) for stem, view in views.items() if getattr(view, "banner", None)]
    assert {stem.split("-")[0] for stem, _ in finals} >= {"rr", "raiders", "commando", "skirmish"}
    for stem, view in finals:
        said = view.banner.strip(" .").lower()
        facts = [f.strip(" .").lower() for f in once(view).header.facts]
        assert not any(f.endswith(said) for f in facts), (stem, facts)
        for shot in (focus(view), snapshot(view)):
            opened(shot.png)
            banners = shot.layout.of_kind("banner")
            if not banners:  # the hex map's own crop draws it along the board's top
                assert stem.startswith("mak")
                continue
            assert len(banners) == 1, stem
            hidden = [i.id for i in shot.layout.items
                      if i.kind in BANNER_AVOIDS and overlaps(banners[0].box, i.box)]
            assert hidden == [], f"{stem} {shot.width}px: the result hides {hidden}"


def test_rr_stack_chips_stay_in_their_area_and_few_counters_lose_their_values() -> None:
    """13: area 14's stack chip was drawn inside area 7; six counters had "no room for
    values".  Over a whole sample game: every stack chip lies in its own area, and a picture
    drops the values of three counters at most (every chip variant is tried with the area's
    label spots given up before values go, and an area of several blocks shows a stack chip,
    its chips with their values in the panel, before chips without values; measured on this
    game: 32 counters over 20 pictures, against 44 before)."""
    system = registry.get("rr")
    _, game = orders(system, 60, 2)
    checked = 0
    for order in [o for o in game if o.picture][::3]:
        view = system.view(order.state)
        shot = snapshot(view)
        opened(shot.png)
        polygons = polygons_in_pixels(view, shot.layout)
        for item in shot.layout.of_kind("stack"):
            # Its own area holds the chip's centre (13: it was drawn inside another area).  A
            # chip wider than a narrow area still pokes out of it at an edge (area 23 of this
            # game since issue 46's rulings changed it, by up to 8 px): a known defect, listed
            # in the closing note for its own issue.
            x0, y0, x1, y1 = item.box
            assert point_in_polygon((x0 + x1) / 2, (y0 + y1) / 2, polygons[item.id]), \
                f"stack chip of area {item.id} outside it"
            checked += 1
        bare = [t for t, _ in shot.layout.texts if t.startswith("No room for the values on: ")]
        assert len(bare) <= 1 and (not bare or len(bare[0].split(", ")) <= 3), bare
    assert checked


def test_rr_control_markers_are_the_controllers() -> None:
    """13: a German control marker stood on an area US troops had left.  12.0: control stays
    with "the last player to have been the sole occupant", so where no NATO unit stands the
    marker is NATO's own (random games leave every objective Soviet: NATO's control is set
    here on a sample state, as the troops that took it would have left it)."""
    system = registry.get("rr")
    _, game = orders(system, 20, 2)
    state = game[-1].state.model_copy(deep=True)
    board = Board(state)
    view = system.view(state)
    empty = next(a.id for a in view.areas if a.objective
                 and not any(u.place == "map" and u.area == a.id for u in state.units.values()))
    state.control[empty] = "nato"
    view = system.view(state)
    assert next(a for a in view.areas if a.id == empty).controller == "nato"
    shot = snapshot(view)
    opened(shot.png)
    assert shot.layout.get("objective", empty)
    assert any("NATO (held, none there)" in t for t, _ in shot.layout.texts)  # the legend
    for area in view.areas:  # a German or US marker only where such units stand
        if area.controller in ("nato_de", "nato_us"):
            nations = {board.spec(u.id).nation for u in state.units.values()
                       if u.place == "map" and u.area == area.id}
            assert area.controller.removeprefix("nato_") in nations, (area.id, area.controller)


def test_mak_counters_leave_the_hex_numbers_clear(views: dict[str, Any]) -> None:
    """13: mak counters' names overlapped the hex numbers of the focus crop."""
    for stem in ("mak-game", "mak-final"):
        shot = focus(views[stem])
        opened(shot.png)
        numbers = shot.layout.of_kind("number")
        counters = shot.layout.of_kind("counter", "stack")
        assert numbers and counters
        for c in counters:
            assert [n.id for n in numbers if overlaps(c.box, n.box)] == [], (stem, c.id)


def test_the_raiders_legend_marks_stop_only_where_the_chart_says_stop(views: dict[str, Any]) -> None:
    """13 and 12.0: the legend said "Wadi, Sand sea STOP"; a wadi does not stop a move in our
    Terrain Effects Chart (a stand-in: the rulebook leaves the chart to the scenario)."""
    sc = load_scenario("desert")
    shot = snapshot(views["raiders-game"])
    texts = [t for t, _ in shot.layout.texts]
    for terrain in sc.terrain_by_key.values():
        lines = [t for t in texts if terrain.name in t.split(", ") or f"{terrain.name} STOP" in t
                 or f"{terrain.name} (STOP)" in t]
        assert lines, terrain.name
        line = lines[0]
        stops = line.endswith(" STOP") and "(STOP)" not in line or f"{terrain.name} (STOP)" in line
        assert stops == terrain.stop, (terrain.name, line)
    assert contains((0, 0, shot.width, shot.height), shot.layout.get("legend", "legend").box)


def test_the_pages_focus_box_is_the_focus_pictures_board_on_the_whole_map(views: dict[str, Any]) -> None:
    """14: the exported page shows a phone the part of each whole map the focus picture shows
    (``render.with_focus_box``); on a final picture too, whose result band moves the board."""
    for stem in ("rr-final", "commando-final", "skirmish-game"):
        view = views[stem]
        shot, box = with_focus_box(view)
        whole = opened(shot.png).convert("RGB")
        part = focus(view)
        picture = opened(part.png).convert("RGB")
        top = round(part.layout.get("header", "header").box[3]) + 4
        if part.layout.of_kind("banner"):
            top = round(part.layout.of_kind("banner")[0].box[3]) + 8  # under its band
        w, h = box[2] - box[0], box[3] - box[1]
        assert w == part.width and 0 <= box[0] and box[2] <= shot.width and box[3] <= shot.height
        # The same pixels as the focus picture's board, away from its drawn frame and any
        # label moved in at an edge: compare the middle of the board.
        mx, my = w // 4, h // 4
        cut = whole.crop((box[0] + mx, box[1] + my, box[2] - mx, box[3] - my))
        # Each picture has its own 192-colour palette: the same drawing, up to a few levels.
        misses = [sum(ImageStat.Stat(ImageChops.difference(cut, picture.crop(
            (mx, y + my, w - mx, y + h - my)))).mean) / 3 for y in range(top - 12, top + 13)]
        assert min(misses) < 3, (stem, min(misses))
        far = whole.crop((box[0] + mx, box[1] + my + 60, box[2] - mx, box[3] - my + 60))
        assert sum(ImageStat.Stat(ImageChops.difference(far, cut)).mean) / 3 > min(misses)  # not any place
