"""The computer standing in for an absent player (issue 43, ``/game pace … then:ai``).

When a deadline passes in a game paced ``then:ai``, the computer plays each silent side's
orders for the rest of that game turn (while the side is waited on); the player's next
order of that side hands it back, and so does the next turn (another deadline may hand it
over again).  A stand-in is kept in ``bot_meta`` (``standin:<game>:<side>`` =
``<level>@<turn>``, empty once handed back), so it outlives a restart, and in memory once
read, so an order of a side without one costs no read after the first.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from bot.store import BaseStore
from bot.writer import Writer
from rules.core.contract import GameSystem

#: The level the computer stands in at.
STANDIN_LEVEL = "normal"


def standin_key(game_id: int, side: str) -> str:
    """The ``bot_meta`` key of a stand-in."""
    return f"standin:{game_id}:{side}"


class StandIns:
    """Which sides of which games the computer stands in for, read once and kept."""

    def __init__(self, store: BaseStore) -> None:
        self.store = store
        self._known: dict[tuple[int, str], str] = {}

    async def level(self, game_id: int, side: str, turn: str | None = None) -> str | None:
        """The level the computer stands in for ``side`` at, or None; with ``turn``, only a
        stand-in begun in that game turn."""
        key = (game_id, side)
        if key not in self._known:
            self._known[key] = await self.store.meta(standin_key(game_id, side)) or ""
        level, _, since = self._known[key].partition("@")
        return level or None if turn is None or since == turn else None

    def write(self, db: Writer, game_id: int, side: str, level: str | None = None, turn: str = "") -> None:
        """Start (a level, in game turn ``turn``) or end (None) a stand-in, in ``db``'s
        transaction; kept in memory at once (a failed transaction is met by :meth:`forget`)."""
        value = f"{level}@{turn}" if level else ""
        db.set_meta(standin_key(game_id, side), value)
        self._known[(game_id, side)] = value

    def forget(self, game_id: int) -> None:
        """Read a game's stand-ins again next time (after a failed commit)."""
        self._known = {k: v for k, v in self._known.items() if k[0] != game_id}


def turn_of(system: GameSystem[Any], state: BaseModel) -> str:
    """The game turn a stand-in belongs to, as text (its number, or "setup")."""
    number = system.turn(state).number
    return "setup" if number is None else str(number)


__all__ = ["STANDIN_LEVEL", "StandIns", "standin_key", "turn_of"]
