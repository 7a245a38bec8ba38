"""Times as players type them and as Discord shows them (issue 19).

A deadline is shown with Discord timestamps (``<t:1764525600:F>`` and ``<t:…:R>``), which
every reader's app draws in their own time zone; the console writes them out in UTC.
Players type a time as a date and time (UTC unless it carries an offset), a span from now
(``36h``, ``2d``, ``90m``), a Unix time or a pasted Discord timestamp.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

from rules.core.errors import RuleError

#: Longest span a deadline, an absence or a pace may reach (a year).
LONGEST = timedelta(days=366)
#: The reminder points when a game sets none: half-way, and one hour before (issue 19).
DEFAULT_REMINDERS = ("half", "1h")

# ASCII digits only: ``\d`` alone takes ① and other Unicode digits, which int() refuses
# (issue 29: an incident instead of a sentence).
_SPAN = re.compile(r"^\+?\s*(\d{1,9}(?:\.\d{1,6})?)\s*(m|min|mins|minutes?|h|hrs?|hours?|d|days?|w|weeks?)$",
                   re.ASCII)
_UNIT_SECONDS = {"m": 60, "h": 3600, "d": 86400, "w": 604800}
_DISCORD = re.compile(r"^<t:(-?\d{1,12})(?::[tTdDfFR])?>$", re.ASCII)
#: A Unix time as typed: at most 12 ASCII digits (year 33658; larger ones overflowed).
_UNIX = re.compile(r"^\d{1,12}$", re.ASCII)
_STAMP = re.compile(r"<t:(-?\d+):([FR])>")

TIME_HELP = ("a date and time in UTC (2026-11-30 18:00, or with an offset: "
             "2026-11-30T18:00+01:00), a span from now (36h, 2d, 90m) or a Discord timestamp")


def discord_time(moment: datetime) -> str:
    """``<t:…:F> (<t:…:R>)``: the full date and time and how far off, in each reader's zone."""
    stamp = int(moment.timestamp())
    return f"<t:{stamp}:F> (<t:{stamp}:R>)"


def span(text: str) -> timedelta | None:
    """``36h`` -> 36 hours; None when ``text`` is not a span."""
    match = _SPAN.match(text.strip().lower())
    if match is None:
        return None
    seconds = float(match.group(1)) * _UNIT_SECONDS[match.group(2)[0]]
    if seconds > 10 * LONGEST.total_seconds():
        raise RuleError(f"'{text.strip()[:20]}' is too long a span; give one within a year (e.g. 36h, 2d).")
    return timedelta(seconds=seconds)


def parse_time(text: str, now: datetime, *, what: str = "at") -> datetime:
    """The moment a player means by ``text``, which must be in the future (within a year)."""
    raw = text.strip()
    moment: datetime | None = None
    delta = span(raw)
    if delta is not None:
        moment = now + delta
    elif (match := _DISCORD.match(raw)) or _UNIX.match(raw):
        try:
            moment = datetime.fromtimestamp(int(match.group(1) if match else raw), timezone.utc)
        except (ValueError, OverflowError, OSError):
            raise RuleError(f"{what}: '{raw[:40]}' is not a time; give {TIME_HELP}.") from None
    else:
        try:
            if not raw.isascii():
                raise ValueError(raw)
            moment = datetime.fromisoformat(raw.replace(" ", "T", 1) if " " in raw else raw)
        except ValueError:
            raise RuleError(f"{what}: '{raw[:40]}' is not a time; give {TIME_HELP}.") from None
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=timezone.utc)
    if moment <= now:
        raise RuleError(f"{what}: {moment:%Y-%m-%d %H:%M} UTC has already passed; give a later time.")
    if moment - now > LONGEST:
        raise RuleError(f"{what}: that is more than a year away; give a time within a year.")
    return moment


def parse_reminders(text: str | None) -> list[str]:
    """``half,1h`` -> ``["half", "1h"]``: when to remind, before a deadline.

    ``half`` is half-way from the start of the turn-part to its deadline; a span is that
    long before the deadline; ``none`` reminds nobody.
    """
    if text is None:
        return list(DEFAULT_REMINDERS)
    words = [w.strip().lower() for w in text.replace(";", ",").split(",") if w.strip()]
    if words in ([], ["none"], ["off"]):
        return []
    out: list[str] = []
    for word in words:
        length = None if word == "half" else span(word)
        if word != "half" and (length is None or length <= timedelta(0)):
            raise RuleError(
                f"remind: '{word[:20]}' is not a reminder point; give half (half-way) or a span "
                "before the deadline (1h, 30m, 2d), comma separated, or none."
            )
        if word not in out:
            out.append(word)
    return out


def reminder_times(start: datetime, deadline: datetime, points: list[str]) -> list[datetime]:
    """When to remind for a turn-part from ``start`` to ``deadline``: each point that falls
    after the start, earliest first, without repeats."""
    found: set[datetime] = set()
    for point in points:
        if point == "half":
            moment = start + (deadline - start) / 2
        else:
            delta = span(point)
            assert delta is not None
            moment = deadline - delta
        if start < moment < deadline:
            found.add(moment.replace(microsecond=0))
    return sorted(found)


def hours_text(hours: float) -> str:
    """``36 h`` or ``1.5 h``; ``2 days`` past 48 hours when whole."""
    if hours >= 48 and hours % 24 == 0:
        return f"{int(hours // 24)} days"
    return f"{hours:g} h"


def in_utc(text: str, now: datetime) -> str:
    """Discord timestamps written out in UTC and relative to ``now``, for the console
    (which has no time zones): ``Mon 30 Nov 2026 18:00 UTC (in 35 h)``."""
    def one(match: re.Match[str]) -> str:
        moment = datetime.fromtimestamp(int(match.group(1)), timezone.utc)
        if match.group(2) == "F":
            return f"{moment:%a %d %b %Y %H:%M} UTC"
        return relative(moment - now)
    return _STAMP.sub(one, text)


def relative(delta: timedelta) -> str:
    """``in 35 h``, ``in 20 min``, ``3 days ago``."""
    seconds = abs(delta.total_seconds())
    if seconds >= 2 * 86400:
        amount = f"{seconds / 86400:.0f} days"
    elif seconds >= 3600:
        amount = f"{seconds / 3600:.0f} h"
    else:
        amount = f"{max(1, round(seconds / 60))} min"
    return f"in {amount}" if delta.total_seconds() >= 0 else f"{amount} ago"


__all__ = ["DEFAULT_REMINDERS", "TIME_HELP", "discord_time", "hours_text", "in_utc",
           "parse_reminders", "parse_time", "relative", "reminder_times", "span"]
