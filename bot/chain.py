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
it with Python's standard library only (``json.dumps``; a test holds the two to one answer).
This module encodes with ``orjson`` when that gives the very same bytes, about three times
faster on a state (issue 23: the seal was a quarter of an order's CPU), and with ``json``
otherwise: a float orjson writes with an exponent (``1e-5``, where ``json`` writes ``1e-05``),
an integer over 64 bits, a key that is not a string.  ``tests/platform/test_canonical.py``
holds the two equal over every kind of value the records hold.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any

import orjson

from rules.core.finite import require_finite

#: The name of the first hashing scheme, hashed into the genesis of games started before
#: issue 45 (the scenario named by its key alone).
CHAIN_FORMAT = "referee-chain/1"
#: The scheme of games started since (issue 45): the genesis binds the scenario file's whole
#: SHA-256 too (a file scenario's key carries only 10 hex digits of it: 40 bits).
CHAIN_FORMAT_2 = "referee-chain/2"
#: The schemes a chain may follow, oldest first.
CHAIN_FORMATS = (CHAIN_FORMAT, CHAIN_FORMAT_2)
#: Hex digits of the head shown in announcements: 64 bits, so matching a posted short head
#: with a forged log takes about 2^64 hashes.
SHORT = 16
#: The mark announcements put before the short head; the verifier looks for it in a
#: channel's saved messages.
ANCHOR_MARK = "🔗"
#: Hex digits of an announcement's tag (:func:`anchor_tag`): 32 bits, so a player typing a
#: line that imitates the bot's passes for one of its announcements once in 2^32 tries.
TAG = 8
#: The scheme of the tags, hashed into each.
TAG_FORMAT = "referee-anchor/1"
#: The fields of a step (as exported) that its hash covers, besides ``prev``.
STEP_FIELDS = ("seq", "parent_seq", "kind", "actor_id", "actor", "side", "action", "dice",
               "events", "state", "reveals", "snapshot", "turn_part", "rerolls", "created_at")
#: The field of a step (as exported) naming the release and rules version it was made under
#: (issue 42), covered by its hash when it is set: steps made before versioning have none.
VERSIONS_FIELD = "versions"
#: The fields of an audit entry (as exported) that its hash covers, besides ``prev``.
AUDIT_FIELDS = ("actor_id", "actor_name", "action", "reason", "data", "created_at")


def canonical(value: Any, *, finite: bool = False) -> bytes:
    """The one byte form of a JSON value that is hashed (``finite``: see
    :func:`canonical_fast`)."""
    fast = canonical_fast(value, finite=finite)
    return fast if fast is not None else _standard(value).encode("utf-8")


def canonical_text(value: Any) -> str:
    """:func:`canonical` as text."""
    return canonical(value).decode("utf-8")


def _standard(value: Any) -> str:
    """The canonical form as the verifier writes it (the definition; the slow path).  A
    NaN or an infinity is refused with its place named first (``json`` only says that
    some float is out of range)."""
    require_finite(value, "record")
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)


def canonical_fast(value: Any, *, finite: bool = False) -> bytes | None:
    """The canonical form by orjson, or None where it may differ from :func:`_standard`
    (the bytes a step row's state is sealed with, ``Ledger.step_row``).

    orjson writes a float NaN or infinity as ``null``, where the definition has no form for
    one: a text holding ``null`` is checked (``rules/core/finite.py``) and a value holding
    one refused with :class:`~rules.core.finite.NonFiniteNumber` naming its place, never
    sealed as ``null``.  ``finite``: the caller has checked the value already (a state,
    ``Ledger.state_text``)."""
    try:
        out = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except (TypeError, orjson.JSONEncodeError):  # an integer over 64 bits, a key not a string
        return None
    if not finite and b"null" in out:
        require_finite(value, "record")
    return None if _unsure(out) else out


def _unsure(out: bytes) -> bool:
    """Whether orjson's text may hold a number ``json`` spells otherwise: one with an
    exponent (orjson ``1e+16``, always signed; ``json`` writes ``1e+16`` but ``1e-05`` where
    orjson writes ``1e-5``) or below 1e-4 (orjson ``0.00001``, ``json`` ``1e-05``).  Wider
    than the differences (a string holding ``5e-3`` answers yes): that only costs the
    standard encoder.  ``tests/platform/test_canonical.py`` holds the two equal over floats
    of every magnitude.

    Each mark is looked for by its rarest byte (``+``, ``-``, ``.``: a ``memchr``), since
    ``e`` is everywhere in a state's text and a search for ``e-`` goes byte by byte: a
    third of the cost of encoding a state (issue 23)."""
    return (b"+" in out and _exponent(out, b"+")) or (b"-" in out and _exponent(out, b"-")) \
        or (b"." in out and b"0.0000" in out)


def _exponent(out: bytes, sign: bytes) -> bool:
    """Whether some ``sign`` in ``out`` follows a digit and an ``e`` (``1e-7``, ``2e+16``)."""
    before = out.split(sign)
    before.pop()  # what follows the last sign
    for chunk in before:
        if chunk[-1:] == b"e" and chunk[-2:-1] in _DIGITS:
            return True
    return False


#: The digits, each as a one-byte string (what a slice of bytes gives).
_DIGITS = frozenset(bytes([d]) for d in b"0123456789")


def _sha(value: Any) -> str:
    return hashlib.sha256(canonical(value)).hexdigest()


def genesis(system: str, scenario: str, options: dict[str, Any], seed_hash: str, *,
            fmt: str = CHAIN_FORMAT, scenario_sha256: str | None = None) -> str:
    """The hash every game's chain starts from: which game, and its posted dice commitment;
    from ``referee-chain/2`` on, the whole SHA-256 of the scenario file it was set up from
    (None: a built-in scenario)."""
    if fmt not in CHAIN_FORMATS:
        raise ValueError(f"unknown chain format {fmt[:40]!r}")
    body: dict[str, Any] = {"chain": fmt, "system": system, "scenario": scenario,
                            "options": options, "seed_hash": seed_hash}
    if fmt != CHAIN_FORMAT:
        body["scenario_sha256"] = scenario_sha256
    return _sha(body)


def step_hash(prev: str, step: dict[str, Any], state_json: str | None = None, *,
              state_canonical: bytes | None = None) -> str:
    """The hash of a step given the previous record's hash; ``step`` in the export's shape
    (``state`` parsed, ``actor`` the name).

    ``state_canonical``: the state's canonical bytes, known when its step row was written
    (``Ledger.step_row``): spliced into the record's canonical bytes as they are, so the
    stored text is not parsed and the state not encoded again (issue 23).  That row's
    numbers are known finite (its state and events were checked where it was built, its
    order and dice hold integers): the rest of the record is not walked again.
    ``state_json``: the stored text of the state, parsed here in place of ``step["state"]``:
    by orjson for speed, or by ``json`` when the text gives orjson any doubt (it reads an
    integer beyond 64 bits as a float, which its encoding then shows with an exponent)."""
    body = {"prev": prev, "record": "step", **{k: step.get(k) for k in STEP_FIELDS}}
    if step.get(VERSIONS_FIELD) is not None:
        # A step made since migration 0015 (issue 42): its versions are covered, so they
        # cannot be relabelled; one made before it hashes as it always did.
        body[VERSIONS_FIELD] = step[VERSIONS_FIELD]
    if state_canonical is not None:
        return hashlib.sha256(_spliced(body, "state", state_canonical)).hexdigest()
    if state_json is None:
        return _sha(body)
    try:
        fast = canonical_fast({**body, "state": orjson.loads(state_json)})
    except orjson.JSONDecodeError:  # NaN, say: json reads it, and refuses to hash it
        fast = None
    if fast is None:
        fast = _standard({**body, "state": json.loads(state_json)}).encode("utf-8")
    return hashlib.sha256(fast).hexdigest()


def _spliced(body: dict[str, Any], key: str, value: bytes) -> bytes:
    """``canonical(body)`` with ``body[key]`` replaced by the value whose canonical bytes
    are ``value``: the keys are sorted, so it goes after the keys sorting before ``key``
    and before those sorting after it (``sort_keys`` orders keys as Python compares them)."""
    before = canonical({k: v for k, v in body.items() if k < key}, finite=True)
    after = canonical({k: v for k, v in body.items() if k > key}, finite=True)
    out = before[:-1] + (b"," if len(before) > 2 else b"") + canonical(key) + b":" + value
    return out + (b"," + after[1:] if len(after) > 2 else b"}")


def audit_hash(prev: str, entry: dict[str, Any]) -> str:
    """The hash of an audit entry given the previous record's hash."""
    return _sha({"prev": prev, "record": "audit", **{k: entry.get(k) for k in AUDIT_FIELDS}})


def short(head: str) -> str:
    """The head's short form, as announcements show it."""
    return head[:SHORT]


def anchor_tag(seed: bytes, head: str, count: int, added: int) -> str:
    """The tag an announcement's anchor line ends with (issue 45): the first :data:`TAG` hex
    digits of ``HMAC-SHA256(seed, "referee-anchor/1:<head as shown>:<count>:<added>")``.

    Only the bot holds a running game's seed, so only its own messages carry tags that check;
    ``/game end`` reveals the seed and anyone can then tell the bot's heads in a saved channel
    from a player's line that imitates one (a plain copy of the channel shows no author).
    ``tools/verify_dice.py`` computes the same."""
    message = f"{TAG_FORMAT}:{head}:{count}:{added}".encode()
    return hmac.new(seed, message, hashlib.sha256).hexdigest()[:TAG]


def anchor(head: str, count: int | None = None, added: int | None = None, seed: bytes = b"") -> str:
    """The anchor line an announcement ends with (empty for a game with no chain yet):
    the head's short form, and (issue 45) how many records the chain holds at that head
    and how many of them the announced command wrote, ``🔗 1a2b3c4d5e6f7a8b · 14 (+1)``: the
    verifier requires each announcement's records to follow the previous announcement's
    with nothing between, so a record an operator slips in between two is caught.  With the
    game's ``seed``, the line ends with its tag (:func:`anchor_tag`): ``… (+1) · 3f9a2c1d``."""
    if not head:
        return ""
    if count is None:
        return f"{ANCHOR_MARK} {short(head)}"
    return tagged(f"{ANCHOR_MARK} {short(head)} · {count} (+{added or 0})", seed, short(head), count, added or 0)


def tagged(line: str, seed: bytes, head: str, count: int, added: int) -> str:
    """``line`` (an anchor line showing ``head``, ``count`` and ``added``) with its tag, or as
    it is without a seed (a game whose seed key is missing cannot tag)."""
    return f"{line} · {anchor_tag(seed, head, count, added)}" if seed else line


__all__ = ["ANCHOR_MARK", "AUDIT_FIELDS", "CHAIN_FORMAT", "CHAIN_FORMAT_2", "CHAIN_FORMATS", "SHORT", "STEP_FIELDS", "TAG",
           "TAG_FORMAT", "VERSIONS_FIELD", "anchor", "anchor_tag", "audit_hash", "canonical", "canonical_fast",
           "canonical_text", "genesis", "short", "step_hash", "tagged"]
