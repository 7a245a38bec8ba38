"""The open view vocabulary: terrain styles, marker pills and mark kinds a view may name.

A view describes its own sides (:class:`~rules.core.views.SideStyle`), terrain
(:class:`~rules.core.views.TerrainStyle`), markers (:class:`~rules.core.views.MarkerStyle`)
and marks (:class:`~rules.core.views.MarkStyle`).  What it leaves out falls back to the
generic defaults below (common words any war game uses, no system's names), and a key found
nowhere gets a neutral fallback style, so a new system draws without an edit here.
"""

from __future__ import annotations

from typing import Sequence

from render.style import SideBook, clean, colour
from rules.core.views import MarkStyle, MarkerStyle, SideStyle, TerrainStyle

#: Generic terrain words: fill (pale, so chips stand out) and a texture for greyscale.
DEFAULT_TERRAIN: dict[str, TerrainStyle] = {
    t.key: t for t in [
        TerrainStyle(key="clear", fill="#eee9d2"),
        TerrainStyle(key="fields", fill="#e8dc9c", texture="furrows"),
        TerrainStyle(key="woods", fill="#a4c78e", texture="dots"),
        TerrainStyle(key="forest", fill="#a4c78e", texture="dots"),
        TerrainStyle(key="city", fill="#cdbda9", texture="squares"),
        TerrainStyle(key="town", fill="#cdbda9", texture="squares"),
        TerrainStyle(key="hills", fill="#dcc597", texture="contours"),
        TerrainStyle(key="river", fill="#93bde3", texture="waves"),
        TerrainStyle(key="water", fill="#93bde3", texture="waves"),
        TerrainStyle(key="sea", fill="#8bb3d9", texture="waves"),
        TerrainStyle(key="port", fill="#b7c7d6"),
        TerrainStyle(key="airfield", fill="#d5d5cf"),
        TerrainStyle(key="building", fill="#a8907a"),
        TerrainStyle(key="dock", fill="#b4aa9a"),
        TerrainStyle(key="quay", fill="#c9c3b5"),
        TerrainStyle(key="target", fill="#f2d9a0", texture="outline", label="target"),
        TerrainStyle(key="wire", fill="#dbd6d2", texture="crosses"),
        TerrainStyle(key="cover", fill="#b8d09c"),
        TerrainStyle(key="rubble", fill="#bdb2a4"),
        TerrainStyle(key="marsh", fill="#b6cfb8"),
        TerrainStyle(key="desert", fill="#ecdcb0"),
        TerrainStyle(key="oasis", fill="#b9d8a0"),
    ]
}
FALLBACK_TERRAIN = "#e4e0d4"

#: Generic markers: short pill text, fill, and the legend's words.
DEFAULT_MARKERS: dict[str, MarkerStyle] = {
    m.key: m for m in [
        MarkerStyle(key="reduced", text="1/2", fill="#ffffff", words="reduced side"),
        MarkerStyle(key="suppressed", text="SUP", fill="#e0592a", words="suppressed"),
        MarkerStyle(key="recovering", text="REC", fill="#e7c12f", words="recovering"),
        MarkerStyle(key="pinned", text="PIN", fill="#e0592a", words="pinned"),
        MarkerStyle(key="elite", text="ELT", fill="#f2d675", words="elite"),
        MarkerStyle(key="hidden", text="HID", fill="#ecebe6", words="hidden"),
        MarkerStyle(key="wounded", text="Wnd", fill="#ecebe6", words="wounded"),
    ]
}

#: Generic mark kinds: moves blue arrows, fire red dashes to a burst, assaults heavy purple.
DEFAULT_MARKS: dict[str, MarkStyle] = {
    m.kind: m for m in [
        MarkStyle(kind="move", colour="#1f4e8c", line="arrow", words="move"),
        MarkStyle(kind="retreat", colour="#1f4e8c", line="dashed-arrow", words="retreat"),
        MarkStyle(kind="assault", colour="#7a1fa2", line="heavy-arrow", words="assault"),
        MarkStyle(kind="fire", colour="#c0262d", line="fire", words="fire"),
        MarkStyle(kind="shot", colour="#c0262d", line="fire", words="shot"),
        MarkStyle(kind="miss", colour="#4a4f58", line="miss", words="miss"),
        MarkStyle(kind="blast", colour="#c0262d", line="burst", words="blast"),
        MarkStyle(kind="place", colour="#1f4e8c", line="ring", words="placed"),
    ]
}


class StyleBook(SideBook):
    """A view's sides plus its terrain, marker and mark styles, with the fallbacks."""

    def __init__(self, sides: Sequence[SideStyle] = (), terrain: Sequence[TerrainStyle] = (),
                 markers: Sequence[MarkerStyle] = (), marks: Sequence[MarkStyle] = ()) -> None:
        super().__init__(sides)
        self._terrain = dict(DEFAULT_TERRAIN)
        for t in terrain:
            # A view's style may name only a label: the rest comes from the default.
            base = DEFAULT_TERRAIN.get(t.key) or TerrainStyle(key=t.key, fill=FALLBACK_TERRAIN)
            self._terrain[t.key] = TerrainStyle(key=t.key, fill=t.fill or base.fill,
                                                texture=t.texture or base.texture,
                                                label=t.label or base.label)
        self._markers = {**DEFAULT_MARKERS, **{m.key.lower(): m for m in markers}}
        self._marks = {**DEFAULT_MARKS, **{m.kind: m for m in marks}}

    @classmethod
    def of(cls, view: object) -> "StyleBook":
        """The book of a view (any geometry)."""
        return cls(getattr(view, "sides", ()), getattr(view, "terrain_styles", ()),
                   getattr(view, "marker_styles", ()), getattr(view, "mark_styles", ()))

    def terrain(self, key: str) -> TerrainStyle:
        """The style of a terrain key; an unknown key: a neutral fill, no texture."""
        return self._terrain.get(key) or TerrainStyle(key=key, fill=FALLBACK_TERRAIN)

    def marker(self, key: str) -> MarkerStyle:
        """The pill of a marker; an unknown one: its first four letters on a grey pill."""
        found = self._markers.get(key.strip().lower())
        if found is not None:
            return found
        return MarkerStyle(key=key, text=clean(key)[:4].upper() or "?", words=clean(key))

    def known_marker(self, key: str) -> MarkerStyle | None:
        """The view's or the default style of a marker, or None for a marker no one named
        (a table label then shows the marker's own words, e.g. "directs D1")."""
        return self._markers.get(key.strip().lower())

    def mark(self, kind: str) -> MarkStyle:
        """The style of a mark kind; an unknown kind: a dark grey arrow named by its kind."""
        return self._marks.get(kind) or MarkStyle(kind=kind, colour="#4a4f58", line="arrow",
                                                  words=clean(kind))


    def colours(self) -> tuple[tuple[int, int, int], ...]:
        """Every side, marker and mark colour this book may draw (for a fixed palette)."""
        out = [look.rgb for look in self.all()]
        out += [colour(m.fill, "panel") for m in self._markers.values()]
        out += [colour(m.colour, "ink") for m in self._marks.values()]
        return tuple(dict.fromkeys(out))


#: A book with only the defaults (for code drawing without a view, e.g. legend samples).
DEFAULT_BOOK = StyleBook()
