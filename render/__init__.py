"""Pure Pillow renderers: a view of a game in, PNG bytes and the drawn layout out.

``snapshot(view)`` dispatches on the view's ``kind``; it has no Discord, no store and no
clock, so the same view always gives the same bytes.  The service calls it off the event
loop and caches the result by state hash.
"""

from __future__ import annotations

from render.areamap import render_areamap
from render.layout import Layout, LayoutItem, Snapshot
from render.network import render_network
from render.table import render_table
from rules.core.views import AnyView, AreaMapView, NetworkView, TableView


def snapshot(view: AnyView) -> Snapshot:
    """Render any view model to a :class:`Snapshot` (PNG bytes, size, layout)."""
    if isinstance(view, AreaMapView):
        return render_areamap(view)
    if isinstance(view, NetworkView):
        return render_network(view)
    if isinstance(view, TableView):
        return render_table(view)
    raise TypeError(f"no renderer for a view of kind {getattr(view, 'kind', type(view).__name__)!r}")


__all__ = ["Layout", "LayoutItem", "Snapshot", "snapshot"]
