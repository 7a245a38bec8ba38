"""Pure Pillow renderers: a view of a game in, PNG bytes and the drawn layout out.

``snapshot(view)`` is the full picture; ``focus(view)`` the phone-width picture of the last
action (:mod:`render.scene`).  Both look the renderer up by the view's ``kind`` in
:mod:`render.registry`: a renderer module registers itself with ``@renderer("kind")`` and is
found without any edit here (see that module's docstring).  Nothing in ``render/`` names a
game system: a view brings its own sides, colours, terrain styles, markers and mark kinds
(:mod:`render.vocab` holds the generic defaults and fallbacks).  No Discord, no store and no
clock, so the same view always gives the same bytes; the service calls it off the event loop
and caches the result by state hash.

Decisions a maintainer should know:

* **One style** (:mod:`render.style`): a 1280-pixel-wide image (the narrowest the issue
  allows), text never below 17 px (``Canvas.text`` refuses smaller), one palette, fonts from
  ``ImageFont.load_default(size=...)`` loaded once, drawing at 2x and one box-filter reduce
  for anti-aliasing, a 192-colour PNG (smaller and faster to encode than 24-bit, no
  metadata).  Sides are told apart by a letter in a badge shape (square, circle, diamond,
  triangle) as well as colour, so a greyscale print still reads.
* **Layout** (:mod:`render.layout`): every snapshot returns where it drew each area, label,
  counter, space, unit, mark, header and legend, in final pixels; tests assert on it.
* **Area maps** (:mod:`render.areamap`): chips go inside their own area near the centre
  dot, found by a mask search; if two-row chips do not fit, one-row chips are tried, then
  over the id label's spot, then over the dot; if nothing fits, the map shows a stack chip
  ("7 units, S1 G6") and a panel under the map shows every chip of that area.  A counter is
  drawn exactly once, and a counter in an area the map lacks still shows, in the panel.
* **Networks** (:mod:`render.network`) and **inch tables** (:mod:`render.table`): labels and
  forces are placed by the shared greedy placer, clear of each other, with leader lines.
* **Marks** (:mod:`render.marks`): the last impulse on top, each kind with its own line
  style (solid arrow, dashed line to a burst, heavy arrow) as well as colour.  On area maps
  lines run under the chips and heads over them, and chips keep clear of the heads.
* **Speed, incrementally**: the picture is composed at final size (:class:`render.style.Frame`)
  from pieces drawn at 2x and reduced once: the static map (terrain, textures, rivers,
  outlines) per scenario, each chip, each text, each header and legend strip.  The placement
  of an area's chips is a pure function of what is near it, cached, so only areas where
  something changed are placed again.  Caches are bounded and hold immutable images; font
  use is behind a lock, so renders may run in several worker threads at once (tested).  A
  snapshot after others is byte-identical to one from cold caches (tested).
* **Focus**: the picture posted after an order is the board around the last action at full
  scale, at most 750 px wide, so its smallest text shows at 9.07 px or more on a phone that
  shows it 400 px wide (asserted from the layout for every system).  The units eliminated
  or hit lead what it must hold; its edges move off the labels they would cut, and a label
  still cut is drawn whole just inside the edge, or covered over (issue 25, 12-13).
* **The result** is said once: a header fact that repeats it is dropped, and the banner has
  a band of its own under the header on both pictures, hiding nothing (issue 25, 13).
"""

from __future__ import annotations

from typing import Any

from render.layout import Layout, LayoutItem, Snapshot
from render.registry import find, renderer
from render.scene import Scene, crop_for, focus_box, focus_snapshot


def scene(view: Any) -> Any:
    """Lay out and draw any registered view kind: a :class:`~render.scene.Scene` (or the
    :class:`Snapshot` of a renderer that makes its own pictures)."""
    return find(getattr(view, "kind", type(view).__name__))(once(view))


def once(view: Any) -> Any:
    """The view with the result said once: a header fact that repeats the banner is left
    out, the banner on the board says it (issue 25 point 13)."""
    banner, header = getattr(view, "banner", None), getattr(view, "header", None)
    if not banner or header is None:
        return view
    said = _plain(banner)
    facts = [left for left in (_unsaid(f, said) for f in header.facts) if left]
    phase = _unsaid(header.phase, said)
    if facts == header.facts and phase == header.phase:
        return view
    return view.model_copy(update={"header": header.model_copy(update={"facts": facts, "phase": phase})})


def _plain(text: str) -> str:
    """Text as compared for repeats: no case, spaces or end stops."""
    return " ".join(text.split()).strip(" .!").lower()


def _unsaid(text: str, said: str) -> str:
    """``text`` without the banner's words at its end ("game over: Strahl win" → "game over")."""
    plain = _plain(text)
    if not said or not plain.endswith(said):
        return text
    keep = len(" ".join(text.split()).strip(" .!")) - len(said)
    return " ".join(text.split())[:keep].rstrip(" :;,-—")


def snapshot(view: Any) -> Snapshot:
    """Render any view model to a :class:`Snapshot` (PNG bytes, size, layout): the full map.

    A renderer may make its own focus picture and return a :class:`Snapshot` instead of a
    :class:`Scene`; its view then says with a ``whole`` flag which picture it wants, and the
    full map is drawn with ``whole`` set.
    """
    if "whole" in getattr(type(view), "model_fields", {}):
        view = view.model_copy(update={"whole": True})
    made = scene(view)
    return made if isinstance(made, Snapshot) else made.snapshot()


def focus(view: Any) -> Snapshot:
    """The phone-width picture of the last action (see :mod:`render.scene`)."""
    made = scene(view)
    return made if isinstance(made, Snapshot) else focus_snapshot(made)


def with_focus_box(view: Any) -> tuple[Snapshot, tuple[int, int, int, int]]:
    """The full map and where in it the focus picture's board lies: a page that holds only
    the full maps shows a phone that part of each, at full scale (``bot/export_html.py``)."""
    made = scene(view.model_copy(update={"whole": True})
                 if "whole" in getattr(type(view), "model_fields", {}) else view)
    if isinstance(made, Snapshot):  # a renderer drawing its own pictures: around its marks
        board = next((i.box for i in made.layout.items if i.kind == "map"),
                     (0.0, 0.0, float(made.width), float(made.height)))
        action = [i.box for i in made.layout.items if i.kind in ("mark", "mark_label", "change", "banner")]
        return made, crop_for(board, action, made.layout.items)
    shot = made.snapshot()  # first: a result band moves the board down
    return shot, focus_box(made)


def clear_caches() -> None:
    """Forget every cached piece, strip, placement and static layer (the next snapshot is
    rendered from scratch: the tests compare it with an incremental one)."""
    import sys  # noqa: PLC0415

    from render import areamap, chrome, network, style, table  # noqa: PLC0415

    scene_module = sys.modules["render.scene"]  # the name ``scene`` here is the function

    for fn in (areamap.place_in_area, areamap._static_map, areamap._palette,
               areamap.texture_primitives, chrome._chip_patch, style._text_mask,
               style._small_mask, style._text_size, table._static_table, table._table_palette,
               table._zone_masks, network._static_routes, network._static_small,
               network._network_palette):
        fn.cache_clear()
    with style._REDUCED_LOCK:
        style._REDUCED.clear()
        style._PIECES.clear()
    with scene_module._STRIPS_LOCK:
        scene_module._STRIPS.clear()


__all__ = ["clear_caches", "Layout", "LayoutItem", "Scene", "Snapshot", "focus", "renderer", "scene", "snapshot", "with_focus_box"]


