"""How a question to a player writes its answers: exactly the ``decide`` syntax that is accepted.

Options are written ``name:value`` (``decide choice:fire unit:gren``); a list of teams is one
value, its ids joined by commas (``teams:g1,g3``), as the console and Discord read one option.
"""

from __future__ import annotations

from collections.abc import Iterable

#: At most this many valid choices are listed in one question (the rest are offered by
#: autocomplete and still accepted).
SHOWN = 6


def counted(n: int, word: str, words: str | None = None) -> str:
    """A count that agrees with its noun: ``1 team``, ``2 teams`` (``words``: an irregular
    plural)."""
    return f"{n} {word if n == 1 else (words or word + 's')}"


def team_list(teams: Iterable[str]) -> str:
    """Team ids as one option value: ``g1,g3`` (``none`` for no team)."""
    return ",".join(teams) or "none"


def answer(choice: str, **options: str) -> str:
    """One answer as it is typed, e.g. ``decide choice:fire unit:gren``."""
    extra = "".join(f" {name}:{value}" for name, value in options.items())
    return f"decide choice:{choice}{extra}"


def either(*choices: str) -> str:
    """The plain answers of a question: ``decide choice:ground or decide choice:stand``."""
    return " or ".join(answer(c) for c in choices)


def listed(choices: list[str]) -> str:
    """Valid choices, at most :data:`SHOWN` of them: ``a; b; c (and 2 more)``."""
    more = len(choices) - SHOWN
    text = "; ".join(choices[:SHOWN])
    return text + (f" (and {more} more)" if more > 0 else "")
