"""Pure Pillow renderers: a view of a game in, PNG bytes and the drawn layout out.

``snapshot(view)`` dispatches on the view's type (``AreaMapView``, ``NetworkView``,
``TableView``).  It has no Discord, no store and no clock, so the same view always gives the
same bytes; the service calls it off the event loop and caches the result by state hash.

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
* **Speed**: what repeats between snapshots of a game is cached per process: the static map
  (terrain, textures, rivers, outlines), each chip as a transparent patch, each text as a
  mask.  Caches are bounded LRUs of immutable images; font use is behind a lock, so
  renders may run in several worker threads at once (tested).
"""

from __future__ import annotations

from render.areamap import render_areamap
from render.hexmap import render_hexmap
from render.layout import Layout, LayoutItem, Snapshot
from render.network import render_network
from render.table import render_table
from rules.core.views import AnyView, AreaMapView, HexMapView, NetworkView, TableView


def snapshot(view: AnyView) -> Snapshot:
    """Render any view model to a :class:`Snapshot` (PNG bytes, size, layout)."""
    if isinstance(view, AreaMapView):
        return render_areamap(view)
    if isinstance(view, NetworkView):
        return render_network(view)
    if isinstance(view, TableView):
        return render_table(view)
    if isinstance(view, HexMapView):
        return render_hexmap(view)
    raise TypeError(f"no renderer for a view of kind {getattr(view, 'kind', type(view).__name__)!r}")


__all__ = ["Layout", "LayoutItem", "Snapshot", "snapshot"]
