"""The pictures of a view: the whole map (:func:`snapshot`), the phone-width focus picture of
the last action (:func:`focus`), and the box of one in the other (:func:`with_focus_box`).

Each looks its renderer up by the view's ``kind`` in :mod:`render.registry`; the result is
said once (:func:`once`).  The package's ``__init__`` re-exports these names.
"""

from __future__ import annotations

from typing import Any

from render.layout import Snapshot
from render.registry import find
from render.scene import crop_for, focus_box, focus_snapshot, laying_out_focus


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
    with laying_out_focus():
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
