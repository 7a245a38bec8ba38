"""The refusal every order shares: a rule's problem sentence, raised.

Each order states its legality once as a ``*_problem`` function (None: legal); its resolver
refuses with that sentence and its offers keep the orders without one.
"""

from __future__ import annotations

from rules.core.errors import RuleError


def refuse(problem: str | None) -> None:
    """Raise ``problem`` as the order's refusal; nothing when there is none."""
    if problem:
        raise RuleError(problem)
