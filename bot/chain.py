"""The hash chain of a game's record: what the channel can hold the bot to (issue 29).

Every record of a game — each step (setup, order, reroll) and each audit entry (rollback,
reroll, undo, seat, kick, end) — gets a hash that covers the previous record's hash and the
record's own content, in the order the records were written:

    hash = sha256(canonical({"prev": <previous record's hash>, "record": "step" | "audit",
                             ...the record's fields...}))

The first record (the setup, step #0) follows the game's *genesis*: the hash of the system,
the scenario, its options and the dice seed's hash posted at ``/game new``.  The hash of the
last record written is the game's **chain head**.  Every public announcement carries its
first :data:`SHORT` hex digits (``🔗 1a2b…``), ``/game end`` posts it whole, so a copy of the
log that differs from what the channel saw, in any byte of any step or audit entry written
before an announcement, cannot give that announcement's head (``tools/verify_dice.py``).

A step's fields: its number, its parent (the step it was applied on: the tree of the log),
kind, actor (id and name), side, action, dice, events, state, the flags ``reveals`` and
``snapshot``, its turn-part, what it rerolls and when it was written.  Not covered: whether a
step is reverted now (``reverted_by`` changes when a moderator rolls back or forward, so it
cannot be in a hash written once); the verifier checks instead that the active steps are
exactly the line from the head back to its root.

Canonical JSON: keys sorted, no spaces, UTF-8, no NaN.  ``tools/verify_dice.py`` computes
the same with Python's standard library only (a test holds the two to one answer); this
module imports nothing but the standard library either.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

#: The name of this hashing scheme, hashed into every genesis (a new scheme, a new name).
CHAIN_FORMAT = "referee-chain/1"
#: Hex digits of the head shown in announcements: 64 bits, so matching a posted short head
#: with a forged log takes about 2^64 hashes.
SHORT = 16
#: The mark announcements put before the short head; the verifier looks for it in a
#: channel's saved messages.
ANCHOR_MARK = "🔗"
#: The fields of a step (as exported) that its hash covers, besides ``prev``.
STEP_FIELDS = ("seq", "parent_seq", "kind", "actor_id", "actor", "side", "action", "dice",
               "events", "state", "reveals", "snapshot", "turn_part", "rerolls", "created_at")
#: The fields of an audit entry (as exported) that its hash covers, besides ``prev``.
AUDIT_FIELDS = ("actor_id", "actor_name", "action", "reason", "data", "created_at")


def canonical(value: Any) -> bytes:
    """The one byte form of a JSON value that is hashed."""
    return canonical_text(value).encode("utf-8")


def canonical_text(value: Any) -> str:
    """:func:`canonical` as text."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


def canonical_state(state: Any) -> str:
    """A state model's canonical text, from its fields (``model_dump(mode="json")``), not
    from its stored JSON parsed again: the same text (``tests/platform/
    test_state_round_trip.py`` holds every system to it), one parse less an order."""
    return canonical_text(state.model_dump(mode="json"))


def _sha(value: Any) -> str:
    return hashlib.sha256(canonical(value)).hexdigest()


def genesis(system: str, scenario: str, options: dict[str, Any], seed_hash: str) -> str:
    """The hash every game's chain starts from: which game, and its posted dice commitment."""
    return _sha({"chain": CHAIN_FORMAT, "system": system, "scenario": scenario,
                 "options": options, "seed_hash": seed_hash})


def step_hash(prev: str, step: dict[str, Any], state_text: str | None = None) -> str:
    """The hash of a step given the previous record's hash; ``step`` in the export's shape
    (``state`` parsed, ``actor`` the name).

    ``state_text``: the state already in canonical form (:func:`canonical_state`), put in
    place of ``step["state"]``; the bytes hashed are the same either way."""
    body = {"prev": prev, "record": "step", **{k: step.get(k) for k in STEP_FIELDS}}
    if state_text is None:
        return _sha(body)
    return hashlib.sha256(_spliced(body, "state", state_text).encode("utf-8")).hexdigest()


def _spliced(body: dict[str, Any], key: str, text: str) -> str:
    """``canonical_text(body)`` with the canonical ``text`` as the value of ``key``: the
    keys before it and after it (sorted) are encoded as two objects and joined around it."""
    before = canonical_text({k: v for k, v in body.items() if k < key})
    after = canonical_text({k: v for k, v in body.items() if k > key})
    middle = f"{json.dumps(key, ensure_ascii=False)}:{text}"
    return "{" + ",".join(part for part in (before[1:-1], middle, after[1:-1]) if part) + "}"


def audit_hash(prev: str, entry: dict[str, Any]) -> str:
    """The hash of an audit entry given the previous record's hash."""
    return _sha({"prev": prev, "record": "audit", **{k: entry.get(k) for k in AUDIT_FIELDS}})


def short(head: str) -> str:
    """The head's short form, as announcements show it."""
    return head[:SHORT]


def anchor(head: str) -> str:
    """The anchor line an announcement ends with (empty for a game with no chain yet)."""
    return f"{ANCHOR_MARK} {short(head)}" if head else ""


__all__ = ["ANCHOR_MARK", "AUDIT_FIELDS", "CHAIN_FORMAT", "SHORT", "STEP_FIELDS", "anchor",
           "audit_hash", "canonical", "canonical_state", "canonical_text", "genesis", "short", "step_hash"]
