"""What a picture shows, in words: its Discord description (alt text, issue 41 point 3).

A screen reader reads a picture's description; so does a player whose phone did not load
it.  It says which picture it is (the close-up of the last action, the whole map, a side's
own view), where the game stands (title, turn, phase), what the step did and what came of
it (the step's public event lines, as the reply tells them), the result banner, and what
changed since the pinged player's last order ("3 units changed since your last order: T12
hit, …").  Everything comes from the step just computed and its view; nothing is read again.
Discord takes at most :data:`LIMIT` characters; a long step is cut at a whole line.
"""

from __future__ import annotations

import unicodedata
from typing import Any, Iterable

from rules.core.steps import Event
from rules.core.views import Change

#: Discord's limit on an attachment's description.
LIMIT = 1024
#: Changes named one by one; more are counted.
NAMED_CHANGES = 12
_CUT = "…"


def spoken(text: str) -> str:
    """``text`` without its pictographs (🎲, ➡️, 🔗: a screen reader spells them out as
    "game die", "right arrow"), on one line."""
    if not text.isascii():  # ASCII has no pictograph: most lines skip the per-character test
        text = "".join(" " if ch == "\ufe0f" or (ch > "\x7f" and unicodedata.category(ch) == "So") else ch
                       for ch in text)
    return " ".join(text.split())


def picture_kind(whole: bool, side: str | None) -> str:
    """The words for which picture it is."""
    if side:
        return f"{side}'s own view of the whole map"
    return "The whole map" if whole else "Close-up of the last action"


def where_it_stands(view: Any) -> str:
    """Title, turn and phase from the view's header ("Tannenbruck, Turn 2/7, Operations")."""
    header = getattr(view, "header", None)
    if header is None:
        return ""
    parts = [header.title]
    if header.turn is not None:
        parts.append(f"{header.turn_word} {header.turn}" + (f"/{header.max_turn}" if header.max_turn else ""))
    if header.phase:
        parts.append(header.phase)
    return spoken(", ".join(p for p in parts if p))


def step_lines(events: Iterable[Event], side: str | None, action: dict[str, Any] | None,
               actor: str | None) -> list[str]:
    """What the step did: its event lines a viewer of this picture may read (the public
    ones; a side's own view adds that side's), else the order itself."""
    lines = [spoken(e.text) for e in events if e.to is None or (side is not None and e.to == side)]
    lines = [line for line in lines if line]
    if lines or not action:
        return lines
    options = " ".join(f"{k}:{v}" for k, v in (action.get("options") or {}).items())
    order = " ".join(part for part in (str(action.get("name", "")), options) if part)
    return [f"{actor}: {order}" if actor else order]


def changed(changes: list[Change], since: str) -> str:
    """"3 units changed since your last order: T12 hit, VDV-2 moved, …"."""
    if not changes:
        return ""
    named = [f"{c.id} {c.what}" + (f" in {c.where}" if c.where and c.what == "eliminated" else "")
             for c in changes[:NAMED_CHANGES]]
    more = len(changes) - len(named)
    tail = f" and {more} more" if more else ""
    unit = "unit" if len(changes) == 1 else "units"
    return f"{len(changes)} {unit} changed {since}: {', '.join(named)}{tail}."


def fit(head: str, lines: list[str], tail: str, limit: int = LIMIT) -> str:
    """``head: line; line; … tail`` within ``limit`` characters: whole lines are dropped
    from the end (said with an ellipsis), and a single line too long is cut."""
    def joined(kept: list[str], cut: bool) -> str:
        body = "; ".join(kept) + (f"; {_CUT}" if cut and kept else _CUT if cut else "")
        end = "" if body.endswith((".", "!", "?")) else "."  # "…lost." is not said "lost.."
        text = f"{head}: {body}{end}" if body else f"{head}."
        return f"{text} {tail}".strip()

    kept = list(lines)
    text = joined(kept, False)
    while len(text) > limit and kept:
        kept.pop()
        text = joined(kept, True)
    return text if len(text) <= limit else text[:limit - 1] + _CUT


def describe(view: Any, *, whole: bool, side: str | None, events: Iterable[Event],
             action: dict[str, Any] | None, actor: str | None, changes: list[Change]) -> str:
    """The description of one step's picture (see the module doc)."""
    stands = where_it_stands(view)
    head = f"{picture_kind(whole, side)}, {stands}" if stands else picture_kind(whole, side)
    lines = step_lines(events, side, action, actor)
    banner = spoken(getattr(view, "banner", None) or "")
    if banner and not any(banner in line for line in lines):  # the result, said once
        lines.append(banner)
    return fit(head, lines, changed(changes, "since your last order"))


def describe_turn(view: Any, changes: list[Change], before: int, last: int) -> str:
    """The description of a digest's close-up of what changed over a turn."""
    stands = where_it_stands(view)
    head = f"Close-up of what changed from step #{before} to #{last}" + (f", {stands}" if stands else "")
    return fit(head, [], changed(changes, "over the turn"))
