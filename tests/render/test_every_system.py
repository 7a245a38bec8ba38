"""Issue 15 for every registered system, from the pictures of seeded random legal games
(:mod:`rules.core.samples`): every character drawn exists in the font, what changed since
the pinged player's last order is told apart by kind (a letter per kind, with a legend), the
final picture carries the result, and the Raid and Riposte specifics (counter values,
eliminations and leader removals drawn where they fell, who fired)."""

from __future__ import annotations

import io
from functools import lru_cache

import pytest
from PIL import Image

from render import focus, snapshot
from render.changes import LETTERS, draw_change_tag
from render.layout import Layout
from render.style import Canvas, _has_glyph
from rules.core import registry
from rules.core.samples import final_view, orders, pictures
from rules.core.views import changes_over, fired_in

#: Every system shipped under rules/ (not the conformance kit's test-only Duel, which has
#: no units to change and no result to announce).
SYSTEMS = sorted(k for k, system in registry.load_all().items()
                 if type(system).__module__.startswith("rules."))


@lru_cache(maxsize=None)
def _pictures(key: str) -> tuple[object, ...]:
    return tuple(pictures(registry.load_all()[key], 8))


@lru_cache(maxsize=None)
def _final(key: str) -> object:
    return final_view(registry.load_all()[key])


@pytest.mark.parametrize("key", SYSTEMS)
def test_every_character_drawn_is_in_the_font(key: str) -> None:
    """A glyph the font lacks draws as a box (the commando kill "✖" once did): every text of
    the whole and the focus picture of a game's pictures and its final one is checked."""
    views = list(_pictures(key)[-3:]) + [_final(key)]
    for view in views:
        for shot in (snapshot(view), focus(view)):  # type: ignore[arg-type]
            assert shot.layout.texts
            missing = {ch for text, _ in shot.layout.texts for ch in text if not _has_glyph(ch)}
            assert missing == set(), f"{key}: {missing}"


@pytest.mark.parametrize("key", SYSTEMS)
def test_the_final_picture_says_who_won(key: str) -> None:
    view = _final(key)
    banner = getattr(view, "banner", None)
    assert banner, f"{key}: the final view names the result"
    for shot in (snapshot(view), focus(view)):  # type: ignore[arg-type]
        assert shot.layout.of_kind("banner"), key
        drawn = " ".join(t for t, _ in shot.layout.texts)
        assert all(word in drawn for word in banner.split()), key
        # The result is never cut short ("..."): it wraps onto as many lines as it needs.
        assert not [t for t, _ in shot.layout.texts if t.endswith("..") and t.split()[0] in banner]


@pytest.mark.parametrize("key", SYSTEMS)
def test_what_changed_is_marked_with_a_letter_per_kind_and_a_legend(key: str) -> None:
    """The picture that pings a player marks each changed unit it shows with the letter of
    what happened (M moved, F fired, H hit, X eliminated ...), and its legend says each
    letter used; /game status words come from the same changes (test_service_pictures)."""
    marked = [v for v in _pictures(key) if getattr(v, "changes", None)]
    assert marked, f"{key}: some picture of the game marks what changed"
    tagged_any = False
    for view in marked[-2:]:
        shot = snapshot(view)  # type: ignore[arg-type]
        tags = shot.layout.of_kind("change")
        changed = {c.id: c.what for c in view.changes}  # type: ignore[attr-defined]
        boxes: dict[object, set[str]] = {}  # units drawn in one box (a hex stack) share a tag
        for i in shot.layout.items:
            if i.kind in ("counter", "unit") and i.id in changed and not i.in_panel:
                boxes.setdefault(i.box, set()).add(i.id)
        tagged = {t.id for t in tags}
        assert all(ids & tagged for ids in boxes.values()), (key, boxes, tagged)
        tagged_any = tagged_any or bool(boxes)
        for tag in tags:
            assert tag.parent in LETTERS and tag.text is not None
        texts = {t for t, _ in shot.layout.texts}
        assert "since your last order:" in texts
        for what in {changed[t.id] for t in tags if t.id in changed}:
            letter, word = LETTERS[what]
            assert letter in texts and word in texts, (key, what)
    assert tagged_any, f"{key}: a changed unit is drawn with its tag"


def test_a_change_tag_is_its_letter_on_the_units_corner() -> None:
    canvas = Canvas(200, 100)
    layout = Layout(width=200, height=100)
    box = draw_change_tag(canvas, (50, 40, 120, 80), "fired", layout, "u1")
    assert box[2] == 120 and box[0] > 50 and box[1] < 40 < box[3]  # the top-right corner
    assert ("F", 17) in canvas.texts and layout.get("change", "u1").parent == "fired"


def test_who_fired_comes_from_the_marks_of_every_step_in_between() -> None:
    """A unit that fired and stood still is "fired" (not "acted"), read from the marks of the
    step it fired in, even when later steps drew other marks."""
    system = registry.load_all()["rr"]
    _, game = orders(system, 30, wanted=("fire",))
    fire_at = max(k for k, o in enumerate(game) if o.name == "fire")
    shooters = fired_in(system.view(game[fire_at].state))
    assert shooters, "an rr fire mark names who fired (Mark.by)"
    start = max(0, fire_at - 1)
    after = game[min(fire_at + 1, len(game) - 1)].state
    changes = changes_over(system.view(game[start].state),
                           [system.view(o.state) for o in game[start + 1:fire_at + 1]],
                           system.view(after))
    what = {c.id: c.what for c in changes}
    for uid in shooters:
        assert what.get(uid) in ("fired", "moved", "hit", "eliminated"), (uid, what)
    assert "fired" in what.values()


def test_rr_counters_show_their_values_where_they_fit_and_info_says_them() -> None:
    """2.0: RCM-ACM-DF of the face up on the chip where the area has room, the legend saying
    what the three numbers are, and ``/rr info`` giving the same values in words."""
    from rules.core.dice import ScriptedDice
    from rules.rr import SYSTEM as RR
    from rules.rr.actions import Info

    state = orders(RR, 8)[1][-1].state
    view = RR.view(state)  # type: ignore[arg-type]
    values = {c.id: c.values for c in view.counters if c.area}
    assert values and all(v.count("-") == 2 for v in values.values() if v)
    shot = snapshot(view)
    texts = " ".join(t for t, _ in shot.layout.texts)
    on_chips = [uid for uid, v in values.items() if v and f"{v}  AP" in texts]
    assert on_chips, "some counter's values are drawn on its chip"
    assert "RCM-ACM-DF" in texts  # the legend says what they are
    uid = on_chips[0]
    rcm, acm, df = values[uid].split("-")
    step = RR.apply(state, "nato", Info(unit=uid), ScriptedDice([]))  # type: ignore[arg-type]
    said = " ".join(e.text for e in step.events)
    assert f"RCM {rcm} · ACM {acm} · DF {df}" in said


def test_rr_eliminations_and_leader_removals_are_drawn_where_they_fell() -> None:
    """7.3.5.2, 9.7-9.9: a unit eliminated (and a leader removed with it) in the last impulse
    is tagged "X id" in its area, on the whole map and the focus picture alike."""
    from rules.rr import SYSTEM as RR
    from rules.rr.board import Board
    from rules.rr.hits import eliminate

    state = orders(RR, 6)[1][-1].state.model_copy(deep=True)
    b = Board(state)  # type: ignore[arg-type]
    leader = next(u for u in state.units.values()  # type: ignore[attr-defined]
                  if u.place == "map" and b.spec(u.id).kind == "leader")
    mates = [u for u in b.combatants_in(leader.area, leader.side)]
    area = leader.area
    gone = [uid for u in mates for uid in eliminate(b, u.id)]
    assert leader.id in gone
    view = RR.view(state)  # type: ignore[arg-type]
    fell = {c.id: c.where for c in view.changes if c.what == "eliminated"}
    assert fell[leader.id] == area and all(fell[u.id] == area for u in mates)
    for shot in (snapshot(view), focus(view)):
        tags = {i.id: i.parent for i in shot.layout.of_kind("gone")}
        assert tags.get(f"X {leader.id}") == area, shot.layout.of_kind("gone")
    Image.open(io.BytesIO(snapshot(view).png)).verify()


def test_hex_counters_changes_are_compared_and_drawn() -> None:
    """The hex map's counters have no area: what changed is read from their hex."""
    system = registry.load_all()["mak"]
    views = [v for v in _pictures("mak") if v.changes]  # type: ignore[attr-defined]
    assert views
    shot = snapshot(views[-1])  # type: ignore[arg-type]
    assert shot.layout.of_kind("change")
    del system


@pytest.mark.parametrize("key", SYSTEMS)
def test_an_incremental_picture_is_byte_identical_to_a_cold_one(key: str) -> None:
    """Issue 15, item 5: after the pictures before it (caches warm with the game's pieces,
    static layers and placements), a picture is the very same bytes as one drawn from
    scratch, whole and focus alike."""
    from render import clear_caches

    views = _pictures(key)
    for view in views[:-1]:
        snapshot(view)  # type: ignore[arg-type]
    warm, warm_focus = snapshot(views[-1]).png, focus(views[-1]).png  # type: ignore[arg-type]
    clear_caches()
    assert snapshot(views[-1]).png == warm  # type: ignore[arg-type]
    clear_caches()
    assert focus(views[-1]).png == warm_focus  # type: ignore[arg-type]
