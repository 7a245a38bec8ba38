"""Who the computer is at the table (issue 43): its seats' user ids and names.

A computer seat's user is ``computer:<level>:<side>``: one id a side, so that freeing one of
its seats (``/mod seat`` over it, ``/game leave``) frees no other, and its level is read
from the seat itself.  It reads "computer (normal)".  Plain functions, no imports of ours:
the order path, the seats and the replies all ask here.
"""

from __future__ import annotations

from rules.core.computer import LEVELS, Level

#: The seat user ids of the computer start with this.
PREFIX = "computer:"


def computer_id(level: str, side: str) -> str:
    """The seat user id of the computer playing ``side`` at ``level``."""
    return f"{PREFIX}{level}:{side}"


def is_computer(user_id: str) -> bool:
    """Whether a seat's user is the computer."""
    return user_id.startswith(PREFIX)


def level_of(user_id: str) -> Level:
    """The level of a computer seat (``normal`` for one written otherwise)."""
    word = user_id[len(PREFIX):].split(":")[0]
    return word if word in LEVELS else "normal"


def computer_name(level: str) -> str:
    """How the seat reads: ``computer (normal)``."""
    return f"computer ({level})"


def level_named(word: str) -> Level:
    """A level typed by a player, or the default for "yes"-like words (``@ai``)."""
    word = word.strip().lower()
    return word if word in LEVELS else "normal"


__all__ = ["PREFIX", "computer_id", "computer_name", "is_computer", "level_named", "level_of"]
