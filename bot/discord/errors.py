"""Turning every failure of a slash command into one sentence for the player.

A :class:`~rules.core.errors.RuleError` already is that sentence.  Errors discord.py raises
about the input (an option of the wrong type, a command used outside a server) get a plain
sentence here.  Anything else is our bug: the player gets a short apology with an incident
id, and the traceback goes to the log under that id, so a moderator can quote it and the
operator can find it.
"""

from __future__ import annotations

import logging
import math

from discord import app_commands

from bot.incidents import apology, new_incident_id, report
from rules.core.errors import RuleError

log = logging.getLogger("referee.discord")

__all__ = ["apology", "explain", "new_incident_id"]


def _unwrap(error: BaseException) -> BaseException:
    # discord.py wraps what the callback raised in CommandInvokeError.
    if isinstance(error, app_commands.CommandInvokeError):
        return error.original
    return error


def explain(error: BaseException, command: str = "") -> str:
    """The sentence a player reads for ``error``; unexpected errors are logged here.

    ``command`` is the qualified command name, for the log line.
    """
    original = _unwrap(error)
    if isinstance(original, RuleError):
        return str(original)
    if isinstance(original, app_commands.TransformerError):
        return (
            f"'{str(original.value)[:40]}' is not a valid {original.type.name} here; "
            "pick a value from the list Discord offers."
        )
    if isinstance(original, app_commands.CommandOnCooldown):
        wait = max(1, math.ceil(original.retry_after))
        return (
            f"/{command or 'this command'} was used a lot here just now; "
            f"try again in {wait} s."
        )
    if isinstance(original, app_commands.NoPrivateMessage):
        return "Referee commands work in a server channel or thread, not in direct messages."
    if isinstance(original, app_commands.CheckFailure):
        return "You cannot use this command here."
    if isinstance(original, (app_commands.CommandNotFound, app_commands.CommandSignatureMismatch)):
        # Discord still shows an older version of the commands; a restart re-syncs them.
        return (
            "This command is out of date on Discord's side; try again in a minute, "
            "or ask the bot's operator to restart it so the commands re-sync."
        )
    return report(log, "incident %s: unexpected error in /%s", command or "?",
                  exc_info=(type(original), original, original.__traceback__))
