"""Who may use ``/mod``: one refusal, worded for the front end the command came from.

On Discord a moderator is whoever has Manage Channels or Manage Server, or the configured
role; on the console it is whoever the console was started with ``--moderator`` for (you
alone, or the users it names).  A player told about Discord roles at the console cannot act
on it (issue 28's play-test), so the sentence names the way that works where it was typed.
"""

from __future__ import annotations

from bot.models import Invocation
from rules.core.errors import RuleError


def who_moderates(inv: Invocation, role: str) -> str:
    """How one becomes a moderator where ``inv`` was typed, in a parenthesis-ready phrase."""
    if inv.front == "console":
        return "start the console with --moderator, or --moderator NAMES for those users"
    return f"Manage Channels, Manage Server or the '{role}' role"


def require_moderator(inv: Invocation, role: str, command: str, then: str = "") -> None:
    """Refuse ``/mod <command>`` to a user who is not a moderator; ``then`` (a clause after a
    semicolon) says what is open to everyone instead."""
    if not inv.is_moderator:
        rest = f"; {then}" if then else ""
        raise RuleError(f"Only moderators can use /mod {command} ({who_moderates(inv, role)}){rest}.")
