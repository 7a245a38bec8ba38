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

from render.caches import clear as clear_caches
from render.layout import Layout, LayoutItem, Snapshot
from render.pictures import focus, once, scene, snapshot, with_focus_box
from render.registry import renderer
from render.scene import Scene

__all__ = ["clear_caches", "Layout", "LayoutItem", "Scene", "Snapshot", "focus", "once", "renderer", "scene",
           "snapshot", "with_focus_box"]
