"""What changed since a player's last order, drawn the same way on every geometry (issue 15).

A changed unit gets the orange "changed" frame (drawn by each renderer round its chip or
base) and a small tag on its corner with one letter for *what* happened: M moved, F fired,
H hit, X eliminated, N new on the map, A acted (spent action points where it stood).  The
letter says it where the colour alone would not (greyscale, colour-blind readers); the
legend spells out the letters used in this picture.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from render.chrome import PILL_H, LegendEntry, draw_pill, pill_width
from render.layout import Box, Layout
from render.style import PALETTE, SMALL, Surface
from rules.core.views import Change

#: One letter per kind of change, and the legend's word for it, in the legend's order.
LETTERS: dict[str, tuple[str, str]] = {
    "moved": ("M", "moved"),
    "fired": ("F", "fired"),
    "hit": ("H", "hit"),
    "eliminated": ("X", "eliminated"),
    "arrived": ("N", "new on the map"),
    "acted": ("A", "acted"),
}


def letter(what: str) -> str:
    """The tag's letter for a kind of change (``?`` for a kind this module does not know)."""
    return LETTERS.get(what, ("?", what))[0]


def tag_box(unit: Box, what: str) -> Box:
    """Where the tag of a changed unit goes: in the top-right corner of its box, straddling
    its top edge (over the frame, clear of the name that starts at the left)."""
    w = pill_width(letter(what))
    x, y = unit[2] - w / 2, unit[1]
    return (x - w / 2, y - PILL_H / 2, x + w / 2, y + PILL_H / 2)


def draw_change_tag(canvas: Surface, unit: Box, what: str, layout: Layout | None = None,
                    uid: str = "") -> Box:
    """Draw the letter tag of ``what`` on the corner of ``unit`` (a chip or a base's box) on a
    :class:`~render.style.Canvas` or :class:`~render.style.Frame`; returns its box."""
    box = tag_box(unit, what)
    draw_pill(canvas, box[0], (box[1] + box[3]) / 2, letter(what), "changed")
    if layout is not None:
        layout.add("change", uid or what, box, parent=what, text=SMALL)
    return box


def draw_change_tags(canvas: Surface, tags: Sequence[tuple[str, Box]], changed: Mapping[str, str],
                     layout: Layout) -> None:
    """Tag each changed unit ``(id, box)`` with what happened to it: drawn after every chip,
    so a neighbour's chip does not hide a tag."""
    for uid, box in tags:
        draw_change_tag(canvas, box, changed[uid], layout, uid)


def change_entries(changes: Sequence[Change]) -> list[LegendEntry]:
    """The legend of the changes in this picture: the frame's meaning, then one pill per
    kind of change present (``M moved``, ``F fired`` ...)."""
    present = {c.what for c in changes} & LETTERS.keys()  # a unit that left is not drawn
    if not present:
        return []
    entries = [LegendEntry("ring", "since your last order:", key="changed")]
    entries += [LegendEntry("pill", word, key="changed", pill=mark)
                for what, (mark, word) in LETTERS.items() if what in present]
    return entries


#: When several changed units share one box (a hex stack), the tag shows the gravest.
GRAVEST = ("eliminated", "hit", "fired", "moved", "arrived", "acted")


def draw_changes_on(canvas: Surface, changes: Sequence[Change], layout: Layout,
                    kinds: tuple[str, ...] = ("counter",), start: int = 0) -> None:
    """Frame and tag every changed unit already drawn, from the layout's items of ``kinds``
    recorded since item ``start`` (in the canvas's coordinates): for a renderer that draws
    counters first and marks the changes after (the hex map).  One tag per box."""
    what = {c.id: c.what for c in changes}
    by_box: dict[Box, list[str]] = {}
    for item in layout.items[start:]:
        if item.kind in kinds and item.id in what:
            by_box.setdefault(item.box, []).append(item.id)
    for box, ids in by_box.items():
        uid = min(ids, key=lambda u: GRAVEST.index(what[u]) if what[u] in GRAVEST else len(GRAVEST))
        canvas.rect((box[0] - 3, box[1] - 3, box[2] + 3, box[3] + 3), outline=PALETTE["changed"],
                    width=3, radius=6)
        draw_change_tag(canvas, box, what[uid], layout, uid)
