"""A game's records in the export's shape, and their seals in the hash chain (issue 29).

One shape for a step and one for an audit entry serve both ``/game export`` and the chain
(``bot/chain.py``): what is hashed when a record is written is exactly what the export
shows, so ``tools/verify_dice.py`` recomputes every hash from the file alone.
"""

from __future__ import annotations

from typing import Any


from bot import chain
from bot.models import Reply
from bot.store import AuditRow, GameRow, StepRow
from bot.writer import utcnow
from rules.core import scenariofile
from rules.core.contract import SEALED, GameSystem


def step_fields(step: StepRow, state: Any) -> dict[str, Any]:
    """A step as the export holds it (``state``: the parsed state, or the stored text to be
    spliced in as is); ``reverted_by``, ``prev`` and ``hash`` are added by the export."""
    dice, events = step.records()
    return {
        "seq": step.seq, "parent_seq": step.parent_seq, "kind": step.kind,
        "actor_id": step.actor_id, "actor": step.actor_name, "side": step.side,
        "action": step.action, "dice": dice, "events": events,
        "reveals": step.reveals, "snapshot": step.snapshot, "turn_part": step.turn_part,
        "rerolls": step.rerolls, "created_at": step.created_at, "state": state,
        # Which release and rules made it (issue 42); None: before versioning.
        "versions": step.versions(),
    }


def audit_fields(entry: AuditRow) -> dict[str, Any]:
    """An audit entry as the export holds it."""
    return entry.model_dump(exclude={"game_id"})


def genesis_of(game: GameRow) -> str:
    """The genesis of ``game``'s chain, in the scheme it was started with (issue 45: since
    ``referee-chain/2`` it binds the scenario file's whole SHA-256)."""
    return _genesis(game.system, game.scenario, game.options, game.seed_hash, game.chain_format,
                    game.scenario_text)


def genesis_of_export(document: dict[str, Any]) -> str:
    """The genesis of an exported game's chain, as :func:`genesis_of` gives it for the game
    (an export made before issue 45 names no scheme: ``referee-chain/1``)."""
    text = document.get("scenario_text")
    return _genesis(str(document.get("system")), str(document.get("scenario", "")),
                    document.get("options") or {}, str(document.get("seed_hash")),
                    str(document.get("chain_format") or chain.CHAIN_FORMAT), text if isinstance(text, str) else None)


def _genesis(system: str, scenario: str, options: dict[str, Any], seed_hash: str, fmt: str,
             scenario_text: str | None) -> str:
    digest = scenariofile.sha256(scenario_text) if scenario_text is not None else None
    return chain.genesis(system, scenario, options, seed_hash, fmt=fmt, scenario_sha256=digest)


def seal_step(step: StepRow, prev: str, state_canonical: bytes | None = None) -> StepRow:
    """``step`` with its time fixed and its place in the chain after ``prev``: its state
    hashed in canonical form, as the verifier does from the export.  ``state_canonical``:
    the canonical bytes of the state its stored text was written from (``Ledger.step_row``),
    hashed as they are; without them the stored text is parsed and encoded here."""
    created_at = step.created_at or utcnow()
    step = step.model_copy(update={"created_at": created_at})
    digest = chain.step_hash(prev, step_fields(step, None), state_json=step.state_json,
                             state_canonical=state_canonical)
    step.prev_hash, step.hash = prev, digest  # a fresh copy: nobody else holds it
    return step


def seal_steps(steps: list[StepRow], prev: str,
               state_canonical: list[bytes | None] | None = None) -> tuple[list[StepRow], str]:
    """Steps written one after the other, each after the one before; and the new head
    (``state_canonical``: each step's, as :func:`seal_step` takes it)."""
    sealed = []
    for i, step in enumerate(steps):
        step = seal_step(step, prev, state_canonical[i] if state_canonical else None)
        sealed.append(step)
        prev = step.hash or prev
    return sealed, prev


def seal_audit(entry: AuditRow, prev: str) -> AuditRow:
    """An audit entry with its time fixed and its place in the chain after ``prev``."""
    entry = entry.model_copy(update={"created_at": entry.created_at or utcnow()})
    return entry.model_copy(update={"prev_hash": prev,
                                    "hash": chain.audit_hash(prev, audit_fields(entry))})


def sealed_from(system: GameSystem[Any], steps: list[StepRow], head_seq: int) -> int | None:
    """The first sealed choice of the round still secret (the export of a running game
    hides it and every later step), or None when no secret is open.

    The round is the run of steps back from the head whose states keep the secret open
    (Maschinen Krieger: the air assignments of this air phase, 10.1.1); its first order with
    private options is the first step whose state holds a choice.  Reverted steps numbered
    after it are hidden too: they may hold the same round's choices."""
    by_seq = {s.seq: s for s in steps}
    start: int | None = None
    seq: int | None = head_seq
    while seq is not None and seq in by_seq and system.secret_open(system.load_state(by_seq[seq].state_json)):
        action = by_seq[seq].action
        if action and action.get("private"):
            start = seq
        seq = by_seq[seq].parent_seq
    return start


def sealed_step(fields: dict[str, Any]) -> dict[str, Any]:
    """An exported step of a round still secret: its private options and its state hidden
    (``"sealed": true``; the final export, after /game end, holds everything)."""
    action = fields.get("action")
    if action and action.get("private"):
        options = {k: SEALED if k in action["private"] else v for k, v in action.get("options", {}).items()}
        action = {**action, "options": options}
    return {**fields, "action": action, "state": None, "sealed": True}


def anchored(reply: Reply, head: str, count: int | None = None, added: int | None = None,
             seed: bytes = b"") -> Reply:
    """A public reply with the chain head's short form at its foot (every announcement
    carries it: the channel's copy of the record), with the chain's record count and how
    many records the command wrote (issue 45), tagged with the game's ``seed`` (only the bot's
    own lines carry a tag that checks: :func:`bot.chain.anchor_tag`).  Ephemeral replies and
    errors stay as they are: nobody else sees them, so they anchor nothing."""
    line = chain.anchor(head, count, added, seed)
    if reply.ephemeral or reply.error or not line or f"{chain.ANCHOR_MARK} {chain.short(head)}" in reply.text:
        return reply
    return reply.model_copy(update={"text": f"{reply.text}\n{line}"})


__all__ = ["anchored", "audit_fields", "genesis_of", "genesis_of_export", "seal_audit", "seal_step", "seal_steps", "sealed_from",
           "sealed_step", "step_fields"]
