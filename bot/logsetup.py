"""The process's logging: one handler on the root logger, each line printed once (issue 26).

``referee`` sets logging up here and nowhere else: discord.py's own ``setup_logging`` is not
called (it would add a second handler, printing every line twice), and ``discord.Client.start``
adds none.  Colour only when stderr is a terminal: a container's log, a file or a pipe gets
plain lines (discord.py would colour under Docker even without a terminal).
"""

from __future__ import annotations

import logging
import sys
from typing import TextIO

#: The plain line: time, level, logger, message.
PLAIN_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
#: Marks the handler this module installed, so a second call replaces it.
_MARK = "_referee_handler"


class StderrHandler(logging.StreamHandler[TextIO]):
    """A stream handler on whatever ``sys.stderr`` is when a line is written (a test's
    captured stream, then the real one again), never on a closed copy of it."""

    def __init__(self) -> None:
        super().__init__(sys.stderr)

    @property
    def stream(self) -> TextIO:
        """The current ``sys.stderr``."""
        return sys.stderr

    @stream.setter
    def stream(self, value: TextIO) -> None:
        # StreamHandler.__init__ and setStream assign it; the property follows sys.stderr.
        del value


def make_formatter(stream: TextIO) -> logging.Formatter:
    """discord.py's colour formatter on a terminal, else the plain one."""
    if hasattr(stream, "isatty") and stream.isatty():
        from discord.utils import _ColourFormatter  # noqa: PLC0415 - only for a terminal

        return _ColourFormatter()
    return logging.Formatter(PLAIN_FORMAT)


def setup_logging(level: str | int, stream: TextIO | None = None) -> logging.Handler:
    """Send every log line once to ``stream`` (stderr) at ``level``; returns the handler.

    Handlers a previous call added are removed first, so calling it twice (the console after
    the CLI, a test) never doubles the lines.
    """
    root = logging.getLogger()
    for old in [h for h in root.handlers if getattr(h, _MARK, False)]:
        root.removeHandler(old)
    handler = logging.StreamHandler(stream) if stream is not None else StderrHandler()
    handler.setFormatter(make_formatter(handler.stream))
    setattr(handler, _MARK, True)
    root.addHandler(handler)
    root.setLevel(level)
    return handler
