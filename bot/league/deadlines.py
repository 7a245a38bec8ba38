"""The deadlines a league game set each side, met or missed (issue 44: reliability counts
deadlines, as 18xx.games #508 asks of ratings).

A paced game gives each turn-part with a deadline one deadline notice (migration 0006,
``bot/pacing/plans.py``), keyed by the turn-part: ``"<step>|[[sides waited on], part]"``.
What became of a turn-part's notices says whether its sides kept the deadline:

* one was ``sent``, or its last one is ``due`` with its time past when the game ends: the
  deadline passed while the game waited on them (missed; a forfeit is ruled on one such);
* its last one was ``dropped``: the game moved on to another turn-part first (met);
* its last one is ``due`` and still ahead when the game ends: met if the rules ended the
  game (its last order was given in time), not counted otherwise (a concession, a game a
  moderator ended: the turn-part was never seen through).

A notice set again (``/mod extend``, a new pace) drops the old one and adds another for the
same turn-part, so only its last notice counts, unless one was sent.
"""

from __future__ import annotations

import json
from datetime import datetime

from pydantic import BaseModel

from bot.pacing.store import deadline_notices
from bot.store import BaseStore


class Kept(BaseModel):
    """A side's deadlines in one game: met and missed."""

    met: int = 0
    missed: int = 0


def sides_of(part_key: str) -> list[str]:
    """The sides a turn-part waited on, read from its key (none for a key not so written)."""
    try:
        waiting = json.loads(part_key.split("|", 1)[1])[0]
    except (IndexError, ValueError, TypeError, KeyError):
        return []
    return [str(s) for s in waiting] if isinstance(waiting, list) else []


def verdict(notices: list[tuple[str, datetime]], now: datetime, by_the_rules: bool) -> str | None:
    """``met``, ``missed`` or None (not counted) for one turn-part's notices (state and
    deadline, oldest first) at a game's end ``now``."""
    state, due = notices[-1]
    if any(s == "sent" for s, _ in notices) or (state == "due" and due <= now):
        return "missed"
    if state == "dropped" or by_the_rules:
        return "met"
    return None


def tally(notices: list[tuple[str, str, datetime]], now: datetime, *, by_the_rules: bool) -> dict[str, Kept]:
    """Each side's kept and missed deadlines from a game's notices (oldest first), the game
    ending at ``now`` (``by_the_rules``: a win or a draw by the rules)."""
    parts: dict[str, list[tuple[str, datetime]]] = {}
    for part_key, state, due in notices:
        parts.setdefault(part_key, []).append((state, due))
    out: dict[str, Kept] = {}
    for part_key, states in parts.items():
        field = verdict(states, now, by_the_rules)
        if field is None:
            continue
        for side in sides_of(part_key):
            kept = out.setdefault(side, Kept())
            setattr(kept, field, getattr(kept, field) + 1)
    return out


async def kept_deadlines(store: BaseStore, game_id: int, now: datetime, *, by_the_rules: bool) -> dict[str, Kept]:
    """:func:`tally` of a game's stored deadline notices."""
    return tally(await deadline_notices(store, game_id), now, by_the_rules=by_the_rules)


__all__ = ["Kept", "kept_deadlines", "sides_of", "tally", "verdict"]
