"""One step of a game's log as the stores read and write it (:class:`StepRow`).

A module of its own, below both :mod:`bot.store` (which re-exports it) and :mod:`bot.writer`
(which inserts it), so that neither imports the other for it.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from rules.core.dice import Roll
from rules.core.steps import Event


class StepRow(BaseModel):
    """One step of the log."""

    game_id: int
    seq: int
    parent_seq: int | None
    kind: str
    actor_id: str | None = None
    actor_name: str | None = None
    side: str | None = None
    action: dict[str, Any] | None = None  # {"name": ..., "options": {...}}
    dice: list[Roll] = Field(default_factory=list)
    events: list[Event] = Field(default_factory=list)
    state_json: str
    reveals: bool = False
    snapshot: bool = False
    turn_part: str = ""
    interaction_id: str | None = None
    reverted_by: int | None = None
    #: The step a reroll re-resolves; on an order, the step ``/mod rules-adopt`` re-derived it
    #: from under new rulings (issue 42).
    rerolls: int | None = None
    created_at: str = ""
    #: The hash chain (migration 0009): the previous record's hash and this step's.
    prev_hash: str | None = None
    hash: str | None = None
    #: The release that wrote the step and its system's rules version (migration 0012,
    #: issue 42; ``bot/versions.py``).  A step written before it: "before versioning", None.
    release: str = "before versioning"
    rules_version: int | None = None

    def versions(self) -> dict[str, Any] | None:
        """What the step's record (its export and its hash) holds of its versions:
        ``{"release": "0.2.0", "rules": 4}``, or None for a step made before versioning."""
        if self.rules_version is None:
            return None
        return {"release": self.release, "rules": self.rules_version}
