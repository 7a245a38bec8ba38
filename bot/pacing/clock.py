"""The clock pacing reads: the system's in the bot, one a test or the console moves.

Deadlines and reminders never read the time themselves; they are given a :class:`Clock`,
so a test can play a week of deadlines in a second (``referee console --clock``).
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Protocol


class Clock(Protocol):
    """Something that tells the time (UTC, aware)."""

    def now(self) -> datetime:
        """The current time, UTC."""
        ...


class SystemClock:
    """The real time."""

    def now(self) -> datetime:
        """The current time, UTC."""
        return datetime.now(timezone.utc)


class ManualClock:
    """A clock that moves only when told: tests and ``referee console --clock``."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime.now(timezone.utc).replace(microsecond=0)

    def now(self) -> datetime:
        """The time it was last set to."""
        return self._now

    def advance(self, delta: timedelta) -> datetime:
        """Move forward by ``delta``; returns the new time."""
        if delta < timedelta(0):
            raise ValueError("a clock only moves forward")
        self._now += delta
        return self._now


def iso(moment: datetime) -> str:
    """How a time is stored: ISO-8601 UTC with milliseconds (as ``bot.writer.utcnow``)."""
    return moment.astimezone(timezone.utc).isoformat(timespec="milliseconds")


def parse_iso(text: str) -> datetime:
    """A stored time back as an aware datetime."""
    moment = datetime.fromisoformat(text)
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)
