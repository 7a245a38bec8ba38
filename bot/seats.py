"""Who may take a seat: one check for every point a seat changes hands (issue 29).

A side changes hands four ways: a player takes a free side (``/game join``), a player offers
theirs to a substitute (``/game sub``), the substitute takes it (``/game accept``), a
moderator seats someone (``/mod seat``).  Each asks :func:`check_seat` at the moment the
seat would move, under the channel's lock, on the game as it is then: an offer made while
its substitute held no seat is refused at acceptance if they took one since (issue 29: carol
was offered red, joined blue, then accepted red, and played alone).

The rules, the same at every point:

* one user holds one side; only the player who started a game may hold several (hot-seat,
  or a solitaire game's one player), and never by substitution;
* a user a moderator kicked sits again only when a moderator seats them (issue 14).
"""

from __future__ import annotations

from typing import Literal

from bot.computer_ids import is_computer
from bot.pipeline import LiveGame
from rules.core.errors import RuleError

#: How a seat changes hands.
How = Literal["join", "offer", "accept", "seat"]


def seat_problem(game: LiveGame, user_id: str, user_name: str, side: str, how: How) -> str | None:
    """Why ``user_id`` may not take ``side`` now (``how`` it would happen), or None."""
    if side not in game.system.sides:
        return f"{game.system.title} has no side '{side[:40]}'; sides: {', '.join(game.system.sides)}."
    holder = game.holder(side)
    you = "You" if how in ("join", "accept") else f"@{user_name}"
    if holder is not None and holder.user_id == user_id:
        return f"{you} already hold{'' if you == 'You' else 's'} {side}."
    if how == "join" and holder is not None:
        return f"{side} is held by @{holder.user_name}; a moderator can reseat it with /mod seat."
    if how != "seat" and game.kicked(user_id):
        if you == "You":
            return "A moderator removed you from this game; only a moderator can seat you again (/mod seat)."
        return f"A moderator removed {you} from this game; only a moderator can seat them (/mod seat)."
    held = [s for s in game.sides_of(user_id) if s != side]
    if not held or is_computer(user_id):
        return None  # the computer has one seat id a side (issue 43)
    if how in ("offer", "accept"):
        return (f"{you} already play{'' if you == 'You' else 's'} {', '.join(held)} here; a "
                "substitute must hold no seat (one player, one side).")
    if game.row.created_by != user_id:
        # A moderator too (docs/permissions.md): one person, one side, but in their own game.
        instead = "; seat a substitute who holds no seat here, or /game end" if how == "seat" else ""
        return (f"{you} already hold{'' if you == 'You' else 's'} {', '.join(held)}; only the player"
                f" who started a game may hold several sides (hot-seat){instead}.")
    return None


def check_seat(game: LiveGame, user_id: str, user_name: str, side: str, how: How) -> None:
    """Raise a :class:`RuleError` with :func:`seat_problem`'s sentence, if any."""
    problem = seat_problem(game, user_id, user_name, side, how)
    if problem is not None:
        raise RuleError(problem)


__all__ = ["How", "check_seat", "seat_problem"]
