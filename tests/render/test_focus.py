"""Issue 15: the phone-width focus picture, incremental rendering, glyphs, the registry.

Legibility is measured from the layout the renderer returns: a phone shows a chat image
about 400 px wide, so text of ``size`` final pixels in a picture ``width`` pixels wide shows
``size * 400 / width`` px high (the font's em size, the CSS sense of "9 px text").  Every
unit label and area number of the focus picture, and every text drawn in it, must show at
9 px or more.
"""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from render import clear_caches, focus, renderer, scene, snapshot
from render.layout import overlapping_pairs
from render.registry import find, kinds
from render.style import _has_glyph
from rules.core.errors import RuleError
from rules.core.views import (
    AreaMapView, AreaView, Change, CounterView, Header, Mark, MarkStyle, SideStyle, TerrainStyle,
    change_lines, changes_between,
)
from tests.render.fixtures import area_view, network_view, table_view

INLINE = 400
NAMED = ("counter", "stack", "area_label", "label", "unit", "battle_unit", "entrance", "banner", "gone")


def rr_views(count: int) -> list[AreaMapView]:
    """Views of successive states of a seeded Tannenbruck game (the engine's own)."""
    from tests.render.real import engine_game

    system, state, dice = engine_game(b"focus")
    rng = random.Random(3)
    views = [system.view(state)]
    for _ in range(400):
        if len(views) > count:
            break
        who = state.pending[0].side if state.pending else state.active
        orders = system.legal_actions(state, who)
        pick = [a for a in orders if a.name in ("move", "fire", "assault", "enter")] or orders
        try:
            step = system.apply(state, who, rng.choice(pick), dice)
        except RuleError:
            continue
        state = step.state
        if step.snapshot:
            views.append(system.view(state))
    return views


def raiders_view() -> object:
    from tests.render.make_samples import raiders_battle

    return raiders_battle()


def commando_view() -> object:
    from tests.render.make_samples import commando_played

    return commando_played()


SYSTEM_VIEWS = {
    "rr": lambda: rr_views(6)[-1],
    "raiders": raiders_view,
    "commando": commando_view,
    "areamap fixture": area_view,
    "network fixture": network_view,
    "table fixture": table_view,
}


@pytest.mark.parametrize("name", list(SYSTEM_VIEWS))
def test_focus_picture_reads_at_nine_px_on_a_phone(name: str) -> None:
    view = SYSTEM_VIEWS[name]()
    shot = focus(view)  # type: ignore[arg-type]
    layout = shot.layout
    image = Image.open(io.BytesIO(shot.png))
    assert image.size == (shot.width, shot.height) == (layout.width, layout.height)
    assert shot.width <= 750
    named = [i for i in layout.items if i.kind in NAMED and i.text is not None]
    assert named, "the focus picture shows units or areas"
    for item in named:
        assert layout.inline_px(item.text, INLINE) >= 9, item  # type: ignore[arg-type]
    assert layout.texts and min(layout.inline_px(size, INLINE) for _, size in layout.texts) >= 9
    # What the action touched is in the picture.
    assert any(i.kind in ("counter", "unit", "space", "battle_unit", "area_label") for i in layout.items)


def test_full_picture_would_not_read_inline() -> None:
    """Why the focus picture exists: the full map's smallest text is about 5 px inline."""
    layout = snapshot(area_view()).layout
    assert min(layout.inline_px(size, INLINE) for _, size in layout.texts) < 6


def test_focus_shows_where_the_last_mark_ends() -> None:
    view = area_view()
    shot = focus(view)
    ends = {"move": "21"}  # the fixture's move ends in area 21
    assert {i.id for i in shot.layout.of_kind("area_label")} >= set(ends.values())


@pytest.mark.parametrize("name", ["rr", "raiders", "commando"])
def test_every_character_drawn_is_in_the_font(name: str) -> None:
    view = SYSTEM_VIEWS[name]()
    for shot in (snapshot(view), focus(view)):  # type: ignore[arg-type]
        missing = {ch for text, _ in shot.layout.texts for ch in text if not _has_glyph(ch)}
        assert missing == set()


def test_incremental_snapshot_is_byte_identical_to_a_cold_render() -> None:
    from tests.render.real import tannenbruck_view

    views = rr_views(8)
    # Other maps first, so the caches hold pieces drawn elsewhere (a label reused at a
    # slightly different spot once made this differ).
    for other in (area_view(), tannenbruck_view()):
        snapshot(other)  # type: ignore[arg-type]
        focus(other)  # type: ignore[arg-type]
    warm = [snapshot(v).png for v in views]
    warm_focus = focus(views[-1]).png
    clear_caches()
    cold = snapshot(views[-1]).png
    assert cold == warm[-1]
    clear_caches()
    assert focus(views[-1]).png == warm_focus
    # And the pictures of the game really differ from one state to the next.
    assert len(set(warm)) > 1


def test_changes_since_a_players_last_order_are_marked_and_worded() -> None:
    views = rr_views(6)
    before, after = views[0], views[-1]
    changes = changes_between(before, after)
    assert changes, "six impulses changed something"
    marked = after.model_copy(update={"changes": changes})
    layout = snapshot(marked).layout
    drawn = {i.id for i in layout.of_kind("counter")}
    assert {c.id for c in changes if c.what != "eliminated"} <= drawn
    assert any(e for e in change_lines(changes))
    assert layout.of_kind("legend")


def test_changes_between_tells_moves_hits_and_eliminations() -> None:
    base = area_view()
    moved = base.model_copy(deep=True)
    moved.counters[0].area = "2" if moved.counters[0].area != "2" else "3"
    moved.counters[1].reduced = not moved.counters[1].reduced
    gone = moved.counters.pop(2)
    found = changes_between(base, moved)
    changes = {c.id: c.what for c in found}
    assert changes[base.counters[0].id] == "moved"
    assert changes[base.counters[1].id] == "hit"
    assert changes[gone.id] == "eliminated"
    # The eliminated unit is drawn where it fell, and the moved one is framed.
    layout = snapshot(moved.model_copy(update={"changes": found})).layout
    tag = layout.get("gone", f"X {gone.id}")
    assert tag.parent == gone.area
    assert overlapping_pairs(layout.of_kind("gone", "counter", "stack", "area_label", "label")) == []
    assert change_lines([Change(id="A", what="moved"), Change(id="B", what="moved")]) == ["Moved: A, B"]


def test_renderers_register_by_kind_and_a_new_kind_needs_no_edit() -> None:
    assert {"areamap", "network", "table"} <= set(kinds())

    class OddView(AreaMapView):
        kind: str = "odd-test-kind"  # type: ignore[assignment]

    calls = []

    @renderer("odd-test-kind")
    def odd(view: OddView):  # type: ignore[no-untyped-def]
        calls.append(view)
        return find("areamap")(view)

    shot = snapshot(OddView(**area_view().model_dump(exclude={"kind"})))
    assert calls and shot.png.startswith(b"\x89PNG")
    with pytest.raises(TypeError, match="no renderer"):
        scene(type("Nope", (), {"kind": "no-such-kind"})())


def test_a_view_names_its_own_colours_terrain_and_mark_kinds() -> None:
    square = [(0.0, 0.0), (100.0, 0.0), (100.0, 100.0), (0.0, 100.0)]
    view = AreaMapView(
        header=Header(title="Throwaway"), width=200, height=100,
        areas=[AreaView(id="A", polygon=square, centre=(50, 50), terrain="bog"),
               AreaView(id="B", polygon=[(x + 100, y) for x, y in square], centre=(150, 50),
                        terrain="lava")],
        counters=[CounterView(id="u1", label="Ogre", area="A", faction="orcs"),
                  CounterView(id="u2", label="Elf", area="B", faction="elves")],
        marks=[Mark(kind="teleport", points=[(50, 50), (150, 50)], text="poof"),
               Mark(kind="whatever", points=[(150, 50)])],
        sides=[SideStyle(key="orcs", label="Orcs", letter="O", colour="#123456"),
               SideStyle(key="elves", label="Elves", letter="E")],
        terrain_styles=[TerrainStyle(key="bog", fill="#556b2f", texture="dots", label="bog")],
        mark_styles=[MarkStyle(kind="teleport", colour="#ff00ff", line="dashed-arrow", words="teleport")],
    )
    shot = snapshot(view)
    image = Image.open(io.BytesIO(shot.png)).convert("RGB")
    texts = {t for t, _ in shot.layout.texts}
    assert {"Ogre", "Elf", "teleport", "bog", "lava", "whatever", "Orcs", "Elves"} <= texts
    colours = {c for _, c in image.getcolors(1 << 20)}
    # The view's own side colour is drawn exactly (badges), and so is its terrain fill.
    assert (0x12, 0x34, 0x56) in colours and (0x55, 0x6B, 0x2F) in colours
    assert overlapping_pairs(shot.layout.of_kind("counter")) == []


def test_no_system_is_named_in_render() -> None:
    from pathlib import Path

    words = ("nato", "soviet", "raider", "hostile", "commando", "german", "tannenbruck",
             "kastet", "raid and riposte", "st nazaire")
    for path in Path(__file__).resolve().parents[2].joinpath("render").glob("*.py"):
        text = path.read_text().lower()
        assert not [w for w in words if w in text], path.name


class _Enough(Exception):
    """Stops a playout once it has reached the picture a test wants."""


def _played_view(system: object, pictures: int = 4) -> object:
    """The system's view a few pictures into a seeded random legal game (rules.core.playout)."""
    from rules.core.playout import play

    seen: list[object] = []

    def check(_system: object, played: object) -> None:
        if played.step.snapshot:  # type: ignore[attr-defined]
            seen.append(played.step.state)  # type: ignore[attr-defined]
            if len(seen) >= pictures:
                raise _Enough

    try:
        game = play(system, 1, check=check, keep_steps=False)  # type: ignore[arg-type]
        state = game.final
    except _Enough:
        state = seen[-1]
    return system.view(state)  # type: ignore[attr-defined]


def _registered() -> list[str]:
    from rules.core import registry

    return sorted(registry.load_all())


@pytest.mark.parametrize("key", _registered())
def test_every_registered_systems_focus_picture_reads_on_a_phone(key: str) -> None:
    """Every system the registry finds, a few orders into a game: its posted picture reads at
    9 px on a phone.  A renderer that makes its own pictures (returns a Snapshot, not a Scene,
    like the hex map) is held to the same line: at most 750 px wide, every text drawn in it
    recorded in its layout and reading at 9 px or more."""
    from rules.core import registry

    system = registry.load_all()[key]
    view = _played_view(system)
    layout = focus(view).layout  # type: ignore[arg-type]
    assert layout.width <= 750
    assert layout.texts, f"{key}: its focus picture records no texts"
    assert min(layout.inline_px(size, INLINE) for _, size in layout.texts) >= 9
    for item in layout.items:
        if item.kind in NAMED and item.text is not None:
            assert layout.inline_px(item.text, INLINE) >= 9, item


def test_final_picture_carries_the_result_banner() -> None:
    for view in (area_view(), network_view(), table_view()):
        shot = snapshot(view.model_copy(update={"banner": "Soviet win 14-9"}))  # type: ignore[attr-defined]
        banner = shot.layout.get("banner", "banner")
        assert ("Soviet win 14-9", 30) in shot.layout.texts
        board = shot.layout.of_kind("header")[0].box
        assert banner.box[1] > board[3]  # on the board, under the header


def test_forces_sit_next_to_their_space_or_in_the_strip_and_battle_words_are_whole() -> None:
    """Issue 15: a force box drawn far from its space reads as being elsewhere; a battle
    result cut to "hit Bdb-1,Pz.." hides who was hit."""
    for view in (network_view(), raiders_view()):
        layout = snapshot(view).layout  # type: ignore[arg-type]
        spaces = {i.id: i.box for i in layout.of_kind("space")}
        for force in layout.of_kind("force"):
            if force.in_panel:
                continue
            s = spaces[force.parent]  # type: ignore[index]
            gap_x = max(force.box[0] - s[2], s[0] - force.box[2], 0)
            gap_y = max(force.box[1] - s[3], s[1] - force.box[3], 0)
            assert (gap_x ** 2 + gap_y ** 2) ** 0.5 <= 100, force
        assert not [t for t, _ in layout.texts if t.endswith("..")]
