"""How a game ended, as a league counts it (issue 44): four distinct outcomes.

* ``win``: the rules named a winner (:meth:`GameSystem.outcome`);
* ``draw``: the rules ended the game and named nobody;
* ``concession``: a player conceded (``/game concede``), the other wins;
* ``deadline``: a moderator ruled a side lost on its passed deadline (``/mod forfeit``), the
  other wins.

Both are told by the game's ``end`` audit entry (``ending`` and the losing ``side`` in its
data, ``bot/gamecmds.py:end_audit``).

A game a moderator ended before the rules did (``/game end`` mid-game) has no outcome: a
league never counts it.  The same function reads a game's end as it is committed and, for
the recomputation, from the stored log (its head state and its last audit entry), so the two
cannot disagree.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel

from rules.core.contract import GameSystem

Kind = Literal["win", "draw", "concession", "deadline"]
#: The endings of a game with a loser named by a player or a moderator (the end's audit data).
LOSS_ACTIONS: dict[str, Kind] = {"concede": "concession", "forfeit": "deadline"}


class Ended(BaseModel):
    """A game's outcome for a league: its kind, the winning side (None: a draw) and the
    sentence of how it ended."""

    kind: Kind
    winner: str | None
    text: str


def ended_by(system: GameSystem[Any], state: Any, data: dict[str, Any]) -> Ended | None:
    """The outcome of a game whose last state is ``state`` and whose ``end`` audit entry
    holds ``data`` (``ending``: ``concede`` or ``forfeit``, with the losing ``side``); None
    for a game ended before the rules ended it."""
    action = str(data.get("ending", ""))
    if action in LOSS_ACTIONS:
        loser = str(data.get("side", ""))
        others = [s for s in system.sides if s != loser]
        if loser not in system.sides or len(others) != 1:
            return None
        verb = "concedes" if action == "concede" else "loses on its deadline"
        return Ended(kind=LOSS_ACTIONS[action], winner=others[0], text=f"{system.side_name(loser)} {verb}")
    outcome = system.outcome(state)
    if outcome is None:
        return None
    if outcome.winner is None:
        return Ended(kind="draw", winner=None, text=outcome.termination)
    return Ended(kind="win", winner=outcome.winner, text=outcome.termination)


__all__ = ["LOSS_ACTIONS", "Ended", "Kind", "ended_by"]
