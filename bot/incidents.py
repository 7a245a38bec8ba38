"""Incidents: what breaks on our side, told to the player as one apology with an id.

Every unexpected failure (a bug, not a refused command) gets a short random id; the
traceback goes to the log under it and the player reads the apology with the same id, so a
moderator can quote it and the operator can find it.  The service (a command, a press), the
Discord error handler and a picture that could not be drawn all go through :func:`report`.
"""

from __future__ import annotations

import logging
import secrets
from types import TracebackType

#: What :func:`report` logs: the exception of an ``except`` block (True) or one given.
ExcInfo = bool | tuple[type[BaseException], BaseException, TracebackType | None]


def new_incident_id() -> str:
    """A short random id (six hex digits) that ties an apology to its log entry."""
    return secrets.token_hex(3)


def apology(incident: str, *, nothing_changed: bool = False) -> str:
    """What a player reads when something broke on our side.  ``nothing_changed``: the
    command was not applied (the service knows; the Discord front end may not)."""
    quote = ("Nothing was changed; a moderator can quote this id." if nothing_changed
             else "The moderators can quote this id.")
    return f"Sorry, something went wrong on our side (incident {incident}). {quote}"


def report(log: logging.Logger, what: str, *args: object, exc_info: ExcInfo = True,
           nothing_changed: bool = False) -> str:
    """Log the failure as a new incident and return the apology that names it.

    ``what`` is the log line; its first ``%s`` is the incident id, ``args`` fill the rest.
    The traceback is logged with it (``exc_info``)."""
    incident = new_incident_id()
    log.error(what, incident, *args, exc_info=exc_info)
    return apology(incident, nothing_changed=nothing_changed)


__all__ = ["apology", "new_incident_id", "report"]
