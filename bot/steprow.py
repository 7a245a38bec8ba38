"""One step of a game's log as the stores read and write it (:class:`StepRow`).

A module of its own, below both :mod:`bot.store` (which re-exports it) and :mod:`bot.writer`
(which inserts it), so that neither imports the other for it.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field, PrivateAttr

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
    #: The release that wrote the step and its system's rules version (migration 0015,
    #: issue 42; ``bot/versions.py``).  A step written before it: "before versioning", None.
    release: str = "before versioning"
    rules_version: int | None = None

    #: :meth:`records`, kept with the lists they were made from.
    _records: tuple[list[Roll], list[Event], list[dict[str, Any]], list[dict[str, Any]]] | None = PrivateAttr(None)

    def records(self) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """The dice and the events as the record holds them (JSON values): made once per
        row, for its seal and its insert both (issue 41: each was dumped twice an order).
        Treat them as read-only; a copy with other dice or events makes its own."""
        kept = self._records
        if kept is None or kept[0] is not self.dice or kept[1] is not self.events:
            kept = (self.dice, self.events, [r.model_dump() for r in self.dice], [e.record() for e in self.events])
            self._records = kept
        return kept[2], kept[3]

    def versions(self) -> dict[str, Any] | None:
        """What the step's record (its export and its hash) holds of its versions:
        ``{"release": "0.2.0", "rules": 4}``, or None for a step made before versioning."""
        if self.rules_version is None:
            return None
        return {"release": self.release, "rules": self.rules_version}
