"""The state of concealment (15.0, optional): each side's markers and what they sit on.

Kept apart from ``state.py`` (which imports it) so the secret parts of the game stay in their
own modules (``concealment.py`` holds the rules).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from rules.core.contract import Event


class Concealment(BaseModel):
    """15.4.1-15.4.3: the markers of both sides, by id (``M-Con1``): the unit each is placed
    on (None: in its owner's supply), and the key of the seal that placement made.

    A marker sits on one unit and moves with it; every unit of its side in that hex is under
    it (15.4.1 "a unit or stack"); more markers on a stack hide its size (15.4.3)."""

    markers: dict[str, str | None] = Field(default_factory=dict)
    seals: dict[str, str] = Field(default_factory=dict)  # marker -> key of its current seal
    hidden: list[str] = Field(default_factory=list)  # units under a marker after the last order


def tell(ctx: Any, side: str, kind: str, text: str, rule: str | None = None) -> Event:
    """A line only ``side`` reads (its own secret, ``Event.to``): left out of every public
    output, shown in that side's private reply."""
    event = Event(kind=kind, text=text, rule=rule, to=side)
    ctx.events.append(event)
    return event
