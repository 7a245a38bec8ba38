"""A game's records in the export's shape, and their seals in the hash chain (issue 29).

One shape for a step and one for an audit entry serve both ``/game export`` and the chain
(``bot/chain.py``): what is hashed when a record is written is exactly what the export
shows, so ``tools/verify_dice.py`` recomputes every hash from the file alone.
"""

from __future__ import annotations

import json
from typing import Any

from bot import chain
from bot.models import Reply
from bot.store import AuditRow, StepRow
from bot.writer import utcnow


def step_fields(step: StepRow, state: Any) -> dict[str, Any]:
    """A step as the export holds it (``state``: the parsed state, or the stored text to be
    spliced in as is); ``reverted_by``, ``prev`` and ``hash`` are added by the export."""
    return {
        "seq": step.seq, "parent_seq": step.parent_seq, "kind": step.kind,
        "actor_id": step.actor_id, "actor": step.actor_name, "side": step.side,
        "action": step.action, "dice": [r.model_dump() for r in step.dice],
        "events": [e.model_dump(mode="json") for e in step.events],
        "reveals": step.reveals, "snapshot": step.snapshot, "turn_part": step.turn_part,
        "rerolls": step.rerolls, "created_at": step.created_at, "state": state,
    }


def audit_fields(entry: AuditRow) -> dict[str, Any]:
    """An audit entry as the export holds it."""
    return entry.model_dump(exclude={"game_id"})


def seal_step(step: StepRow, prev: str) -> StepRow:
    """``step`` with its time fixed and its place in the chain after ``prev``."""
    step = step.model_copy(update={"created_at": step.created_at or utcnow()})
    digest = chain.step_hash(prev, step_fields(step, json.loads(step.state_json)))
    return step.model_copy(update={"prev_hash": prev, "hash": digest})


def seal_steps(steps: list[StepRow], prev: str) -> tuple[list[StepRow], str]:
    """Steps written one after the other, each after the one before; and the new head."""
    sealed = []
    for step in steps:
        step = seal_step(step, prev)
        sealed.append(step)
        prev = step.hash or prev
    return sealed, prev


def seal_audit(entry: AuditRow, prev: str) -> AuditRow:
    """An audit entry with its time fixed and its place in the chain after ``prev``."""
    entry = entry.model_copy(update={"created_at": entry.created_at or utcnow()})
    return entry.model_copy(update={"prev_hash": prev,
                                    "hash": chain.audit_hash(prev, audit_fields(entry))})


def anchored(reply: Reply, head: str) -> Reply:
    """A public reply with the chain head's short form at its foot (every announcement
    carries it: the channel's copy of the record).  Ephemeral replies and errors stay as
    they are: nobody else sees them, so they anchor nothing."""
    line = chain.anchor(head)
    if reply.ephemeral or reply.error or not line or line in reply.text:
        return reply
    return reply.model_copy(update={"text": f"{reply.text}\n{line}"})


__all__ = ["anchored", "audit_fields", "seal_audit", "seal_step", "seal_steps", "step_fields"]
