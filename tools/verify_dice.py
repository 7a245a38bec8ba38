#!/usr/bin/env python3
"""Check a finished Referee game's dice and log, as an auditor would.

Usage:  python tools/verify_dice.py GAME-final.json.gz [--seed-hash HASH] [--rolls N]
                                    [--anchor HEAD ...] [--anchors CHANNEL-FILE]

(a plain, unzipped ``.json`` works too.)

HASH is the seed hash the bot posted at ``/game new``; N the number of rolls it announced
at ``/game end``; HEAD a chain head the channel showed (``🔗 1a2b3c4d5e6f7a8b`` under every
announcement, the whole head at ``/game end``); CHANNEL-FILE the channel's messages saved
as text, JSON or HTML (a copy-paste, or a channel export), from which every ``🔗`` head is
read.  They come from the channel, not from the file, so they are what a rewritten file
cannot fake.  Without them the script prints the values found in the file for you to
compare by eye.

How the dice work (see docs/provable-dice.md): at ``/game new`` the bot posts
``sha256(seed)`` for a secret 32-byte seed; roll number ``i`` of the game (every roll,
rerolls and reverted steps included) is ``1 + int.from_bytes(HMAC-SHA256(key=seed,
msg=str(i))[:8], "big") % sides``; ``/game end`` reveals the seed in the final export.

The checks:

* the revealed seed hashes to the hash in the file and to ``--seed-hash``;
* every roll recomputes from the seed, with its die size;
* the steps are in order (#0, #1, #2, …) and the roll numbers run 0, 1, 2, … in that order,
  none skipped, repeated or moved between steps;
* the number of rolls equals ``--rolls`` (and the count the file records at its end);
* every sealed choice (a hidden minefield, issue 28): each item opens its leaf with the nonce
  the seed gives, the leaves give the root posted when it was sealed, and every reveal opens
  the leaf of the seal it names (a forged reveal is named as such);
* every reverted step, every reroll and the end point at an audit entry that is there;
* the hash chain: every step's and audit entry's hash recomputes from its content and the
  hash of the record written before it, starting from the game's genesis (its system,
  scenario, options and seed hash); the records form one chain, no fork, none left out,
  ending at the file's chain head;
* the active steps (not reverted) are exactly one line, from the head back to its root;
  each reverted step was reverted by a rollback, undo or reroll written after it; nothing
  follows ``/game end``;
* every chain head seen in the channel is a record of this file, and the whole head posted
  at ``/game end`` is its last: so the file is the history the channel saw, byte for byte
  up to the last head seen, dice-free orders, names, audit entries and reverted branches
  included;
* with ``--anchors`` (issue 45), each announcement's record count (``🔗 1a2b… · 14 (+1)``):
  its head is the file's record 14, and the records between two announcements are exactly
  the ones the later one wrote (a record slipped in between two by someone with the
  database is named); a head missing from the file names the record found at its count;
* with ``--anchors`` and a final export, only the bot's own lines (issue 45): each anchor
  line ends with a tag made with the game's seed (``… (+1) · 3f9a2c1d``), which only the bot
  held until ``/game end``; a line whose tag does not check, an untagged one that disagrees
  with the file (once the channel shows tagged lines) and anything after ``/game end`` are
  left out and counted, so a player's text imitating a head cannot fail an honest export,
  and another game's messages in the same file are not read as this game's;
* the revert marks and the head are those the records make, replayed in the order written
  (a rollback undone by deleting its marks is named with its audit entry);
* the scenario file hashes to ``scenario_sha256`` (and, in chain ``referee-chain/2``, the
  genesis binds that hash); a final export (one holding the seed) has no step marked sealed;
* the log replays: each step applied again with its recorded dice gives its recorded
  events and state (so a die's size, an event's text or a state cannot be changed).  This
  needs the Referee rules (run it inside the Referee repository, or ``referee replay``);
  without them the script says so and the log is not vouched for.

Exit code 0: everything checks out; 1: problems found; 2: the file or the arguments are not
usable (a clear sentence, never a traceback).  Only Python's standard library is needed for
the dice checks.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import hmac
import html
import importlib.util
import json
import os
import re
import sys
from pathlib import Path
from typing import Any

FORMAT = "referee-log/1"
#: Every export format this script reads (``referee-log/2``, issue 45: the chain's scheme
#: and record count added).
FORMATS = (FORMAT, "referee-log/2")
#: Set in the environment when the script re-runs itself under the project's Python.
REEXEC = "REFEREE_VERIFY_DICE_REEXEC"
#: The hash chain's schemes (bot/chain.py holds the bot's side; a test keeps the two equal):
#: ``/2`` (issue 45) binds the scenario file's whole SHA-256 in the genesis.
CHAIN_FORMAT = "referee-chain/1"
CHAIN_FORMATS = (CHAIN_FORMAT, "referee-chain/2")
STEP_FIELDS = ("seq", "parent_seq", "kind", "actor_id", "actor", "side", "action", "dice",
               "events", "state", "reveals", "snapshot", "turn_part", "rerolls", "created_at")
#: A step's release and rules version (issue 42), hashed when the step has them.
VERSIONS_FIELD = "versions"
AUDIT_FIELDS = ("actor_id", "actor_name", "action", "reason", "data", "created_at")
#: Audit actions that revert steps.
REVERTING = ("rollback", "undo", "reroll", "rules-adopt")
#: A chain head as announcements show it: the link mark, then 16 to 64 hex digits, and
#: since issue 45 the chain's record count and how many records the command wrote
#: (``🔗 1a2b3c4d5e6f7a8b · 14 (+1)``), then the line's tag (``· 3f9a2c1d``, :func:`anchor_tag`).
ANCHOR = re.compile(r"🔗\s*`?([0-9a-f]{16,64})(?![0-9a-f])`?(?:\s*·\s*(\d{1,9})\s*\(\+(\d{1,9})\)"
                    r"(?:\s*·\s*([0-9a-f]{8})(?![0-9a-f]))?)?")
#: The scheme of announcement tags (``bot/chain.py``).
TAG_FORMAT = "referee-anchor/1"
#: The first two bytes of every gzip file.
GZIP_MAGIC = b"\x1f\x8b"


def rederived(step: dict) -> bool:
    """Whether a step is an order re-derived under new rulings by /mod rules-adopt (issue 42:
    an order naming the step it stands for in ``rerolls``): it uses that step's rolls again
    (same numbers, same values), then fresh ones."""
    return step.get("kind") == "order" and step.get("rerolls") is not None


class BadInput(Exception):
    """The file is not a Referee export this script can read."""


def canonical(value: Any) -> bytes:
    """The byte form of a JSON value that is hashed: keys sorted, no spaces, UTF-8."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False).encode("utf-8")


def genesis(document: dict) -> str:
    """The hash a game's chain starts from: its system, scenario, options and seed hash; in
    ``referee-chain/2`` the scenario file's whole SHA-256 too (None: a built-in scenario)."""
    fmt = document.get("chain_format") or CHAIN_FORMAT
    body = {"chain": fmt, "system": document["system"], "scenario": document.get("scenario"),
            "options": document.get("options", {}), "seed_hash": document["seed_hash"]}
    if fmt != CHAIN_FORMAT:
        body["scenario_sha256"] = document.get("scenario_sha256")
    return hashlib.sha256(canonical(body)).hexdigest()


def scenario_problems(document: dict) -> list[str]:
    """The scenario file the export carries hashes to its ``scenario_sha256`` (issue 45:
    64 zeros passed), and a game of chain ``/2`` had it bound in its genesis."""
    text, digest = document.get("scenario_text"), document.get("scenario_sha256")
    if text is not None and not isinstance(text, str):
        raise BadInput(f"scenario_text should be str, not {type(text).__name__}")
    actual = hashlib.sha256(text.encode("utf-8")).hexdigest() if text is not None else None
    if actual != digest:
        return [f"the scenario file in the export hashes to {str(actual)[:16]}…, not to its"
                f" scenario_sha256 {str(digest)[:16]}…: the file or its hash was changed"]
    return []


def record_hash(kind: str, record: dict) -> str:
    """What a step's or audit entry's hash must be, given its ``prev_hash`` and content."""
    fields = STEP_FIELDS if kind == "step" else AUDIT_FIELDS
    body = {"prev": record.get("prev_hash"), "record": kind, **{k: record.get(k) for k in fields}}
    if kind == "step" and record.get(VERSIONS_FIELD) is not None:
        body[VERSIONS_FIELD] = record[VERSIONS_FIELD]  # made since versioning (issue 42)
    return hashlib.sha256(canonical(body)).hexdigest()


def roll_value(seed: bytes, index: int, sides: int) -> int:
    """The value of roll ``index`` on a die of ``sides`` faces."""
    digest = hmac.new(seed, str(index).encode(), hashlib.sha256).digest()
    return 1 + int.from_bytes(digest[:8], "big") % sides


# -- sealed choices (issue 28; rules/core/secrets.py holds the bot's side, a test the two) ----

def anchor_tag(seed: bytes, head: str, count: int, added: int) -> str:
    """The tag the bot ends an announcement's anchor line with: the first 8 hex digits of
    HMAC-SHA256(seed, "referee-anchor/1:<head as shown>:<count>:<added>").  Only the bot
    held the seed before /game end, so only its lines carry tags that check."""
    return hmac.new(seed, f"{TAG_FORMAT}:{head}:{count}:{added}".encode(), hashlib.sha256).hexdigest()[:8]


def seal_nonce(seed: bytes, seal_key: str, index: int) -> bytes:
    """The nonce of item ``index`` of a seal: HMAC-SHA256(HMAC-SHA256(seed, "seal"), "key:index")."""
    key = hmac.new(seed, b"seal", hashlib.sha256).digest()
    return hmac.new(key, f"{seal_key}:{index}".encode(), hashlib.sha256).digest()


def seal_leaf(nonce: bytes, item: str) -> str:
    """The commitment to one item: sha256(nonce || item), hex."""
    return hashlib.sha256(nonce + item.encode("utf-8")).hexdigest()


def seal_root(leaves: list[str]) -> str:
    """The commitment to a seal: sha256 of its leaves' hex joined, hex."""
    return hashlib.sha256("".join(leaves).encode("ascii")).hexdigest()


# -- reading the file ---------------------------------------------------------------------------

def load(path: str) -> Any:
    """Read an export, gzipped (``/game end`` and ``/game export`` send ``.json.gz``) or not."""
    with open(path, "rb") as handle:
        data = handle.read()
    if data[:2] == GZIP_MAGIC:
        data = gzip.decompress(data)
    return json.loads(data.decode("utf-8"))


def _need(value: Any, kind: type | tuple[type, ...], what: str) -> Any:
    if isinstance(value, bool) or not isinstance(value, kind):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise BadInput(f"{what} should be {names}, not {type(value).__name__}")
    return value


def check_shape(document: Any) -> None:
    """Raise :class:`BadInput` naming the first thing that is not where an export has it."""
    _need(document, dict, "the file")
    if document.get("format") not in FORMATS:
        raise BadInput(f"this is not a Referee export (format {str(document.get('format'))[:40]!r}, "
                       f"expected {' or '.join(map(repr, FORMATS))})")
    if document.get("chain_format", CHAIN_FORMAT) not in CHAIN_FORMATS:
        raise BadInput(f"its chain format {str(document.get('chain_format'))[:40]!r} is not one this"
                       " script knows (a newer Referee? use its tools/verify_dice.py)")
    _need(document.get("seed_hash"), str, "seed_hash")
    _need(document.get("system"), str, "system")
    steps = _need(document.get("steps"), list, "steps")
    if not steps:
        raise BadInput("the export holds no steps")
    _need(document.get("audit", []), list, "audit")
    for n, step in enumerate(steps):
        _need(step, dict, f"step {n}")
        _need(step.get("seq"), int, f"step {n}: seq")
        if step.get("parent_seq") is not None:
            _need(step["parent_seq"], int, f"step {n}: parent_seq")
        for roll in _need(step.get("dice"), list, f"step {n}: dice"):
            _need(roll, dict, f"step {n}: a roll")
            _need(roll.get("sides"), int, f"step {n}: a roll's sides")
            _need(roll.get("value"), int, f"step {n}: a roll's value")
            if roll.get("index") is not None:
                _need(roll["index"], int, f"step {n}: a roll's index")
        _need(step.get("events"), list, f"step {n}: events")
    for n, entry in enumerate(document.get("audit", [])):
        _need(entry, dict, f"audit entry {n}")
        _need(entry.get("id"), int, f"audit entry {n}: id")
        _need(entry.get("data", {}), dict, f"audit entry {n}: data")


# -- the checks --------------------------------------------------------------------------------

def verify(document: dict, *, seed_hash: str | None = None, rolls: int | None = None,
           anchors: list[str] | None = None, announced: list[Announced] | None = None) -> list[str]:
    """The problems found (an empty list: the dice and the record check out).  ``anchors``:
    chain heads seen in the channel (16 to 64 hex digits each); ``announced``: the heads the
    channel showed with their record counts (:func:`announcements_in`), every record between
    two of them required to be one of theirs."""
    check_shape(document)
    sealed = [step["seq"] for step in document["steps"] if step.get("sealed")]
    if sealed and not document.get("seed"):
        # A running game with secrets (issue 28) exports its steps without states or sealed
        # items: their hashes cannot be recomputed, which is not a forgery.
        return ["this export was taken before /game end (it holds no seed): it withholds the"
                " game's states and secrets, so its hashes and dice cannot be checked yet; check"
                " the final export attached to /game end"]
    structure = scenario_problems(document) + _line(document) + \
        _chain(document, anchors or [], announced or [])
    if sealed:
        structure.insert(0, f"steps {', '.join(f'#{n}' for n in sealed[:8])} are marked sealed in a"
                            " final export (it holds the seed, so it withholds nothing): their"
                            " content was hidden from the checks")
    if not document.get("seed"):
        return ["the export holds no seed: it is revealed only once the game has ended", *structure]
    try:
        seed = bytes.fromhex(_need(document["seed"], str, "seed"))
    except ValueError:
        raise BadInput("the seed is not hexadecimal") from None
    problems = []
    digest = hashlib.sha256(seed).hexdigest()
    if digest != document["seed_hash"]:
        problems.append("the revealed seed does not match the hash in the file")
    posted = posted_hash(seed_hash)
    if posted is not None and not hash_matches(digest, posted):
        problems.append(f"the revealed seed hashes to {digest}, not to the posted {posted}")
    problems += _rolls(document, seed, rolls)
    problems += _seals(document, seed)
    problems += _audit_links(document)
    return problems + structure


def posted_hash(text: str | None) -> str | None:
    """The hash as given on the command line, cleaned of what a copy from Discord carries
    (backticks, spaces, the ``…`` of a shortened hash); None when none was given."""
    if text is None:
        return None
    return text.strip().strip("`").replace("…", "").replace("...", "").strip().lower()


#: The fewest hex digits of a hash compared as a prefix (``/game status`` shows 16).
MIN_PREFIX = 16


def hash_matches(digest: str, posted: str) -> bool:
    """Whether the posted hash is the whole ``digest``, or its first :data:`MIN_PREFIX`
    digits or more (what ``/game status`` shows); the caller says which."""
    return posted == digest or (MIN_PREFIX <= len(posted) < len(digest) and digest.startswith(posted))


def _rolls(document: dict, seed: bytes, announced: int | None) -> list[str]:
    problems = []
    steps = document["steps"]
    seqs = [s["seq"] for s in steps]
    if seqs != list(range(len(steps))):
        problems.append(f"the steps are not #0, #1, #2, … in order: {seqs[:12]}")
    expected_index = 0
    seen: set[int] = set()
    for step in steps:
        for roll in step["dice"]:
            index, sides, value = roll.get("index"), roll["sides"], roll["value"]
            if rederived(step) and index in seen:
                # A recorded roll used again (issue 42): its value is still the seed's.
                if isinstance(sides, int) and sides >= 1 and roll_value(seed, index, sides) != value:
                    problems.append(f"step #{step['seq']}: reused roll {index} is {value}, the seed gives"
                                    f" {roll_value(seed, index, sides)}")
                continue
            if isinstance(index, int):
                seen.add(index)
            if index is None:
                problems.append(f"step #{step['seq']}: a roll without a number (scripted dice?)")
                continue
            if sides < 1:
                problems.append(f"step #{step['seq']}: roll {index} is on a d{sides}")
                continue
            if index != expected_index:
                problems.append(
                    f"step #{step['seq']}: roll number {index} where {expected_index} comes next"
                    " (rolls skipped, repeated, reordered or moved between steps)")
            expected_index = index + 1
            good = roll_value(seed, index, sides)
            if good != value:
                problems.append(f"step #{step['seq']}: roll {index} (d{sides}, {roll.get('reason', '')})"
                                f" is {value}, the seed gives {good}")
    total = drawn(steps)
    recorded = document.get("rolls")
    if recorded is not None and recorded != total:
        problems.append(f"the file says {recorded} rolls were made but holds {total}")
    if announced is not None and announced != total:
        problems.append(f"{announced} rolls were announced at /game end but the file holds {total}"
                        " (steps cut off or added)")
    return problems


def drawn(steps: list[dict]) -> int:
    """How many rolls the steps drew from the seed: every roll, less those a re-derived step
    used again (``/mod rules-adopt``, issue 42)."""
    seen: set[Any] = set()
    count = 0
    for step in steps:
        for roll in step["dice"]:
            if rederived(step) and roll.get("index") in seen:
                continue
            seen.add(roll.get("index"))
            count += 1
    return count


def _seals(document: dict, seed: bytes) -> list[str]:
    """Every sealed choice (issue 28): each item, with the nonce the seed gives, opens its
    leaf and the leaves give the root posted when it was sealed; each reveal opens the leaf
    of the seal it names, made earlier on its step's line (a changed item, a forged reveal)."""
    problems: list[str] = []
    steps = {s["seq"]: s for s in document["steps"] if isinstance(s.get("seq"), int)}
    for seq, step in sorted(steps.items()):
        action = step.get("action") or {}
        for seal in action.get("seals", []):
            problems += _seal_problems(seq, seal, seed)
        for reveal in action.get("reveals", []):
            problems += _reveal_problems(seq, reveal, _seal_before(steps, seq, reveal.get("key")), seed)
    return problems


def step_name(step: dict) -> str:
    """A step as a problem names it: ``step #4``, and for one that seals or reveals (issue
    28) its side and each seal's key with the root's first digits, which the channel's line
    showed ("sealed: 3f0b5c2a…"): a seal forged with every hash recomputed changes that root,
    so the reader knows which public line to compare."""
    action = step.get("action") or {}
    seals = [f"seal {str(x.get('key'))[:40]!r} (sealed: {str(x.get('root'))[:8]}…)" for x in action.get("seals", [])]
    seals += [f"reveal of {str(r.get('key'))[:40]!r} item {r.get('index')}" for r in action.get("reveals", [])]
    if not seals:
        return f"step #{step.get('seq')}"
    return f"step #{step.get('seq')} ({step.get('side') or 'no side'}; {', '.join(seals)})"


def _seal_problems(seq: int, seal: dict, seed: bytes) -> list[str]:
    name = f"step #{seq} ({seal.get('side')}): the seal {str(seal.get('key'))[:40]!r}"
    leaves, items = seal.get("leaves") or [], seal.get("items")
    if seal_root(leaves) != seal.get("root"):
        return [f"{name}: its leaves do not give its root (changed after it was posted)"]
    if not isinstance(items, list) or len(items) != len(leaves):
        return [f"{name}: its items are missing (an export taken before the end)"]
    return [f"{name}: item {i + 1} does not open its leaf (a changed secret)"
            for i, item in enumerate(items)
            if seal_leaf(seal_nonce(seed, str(seal.get("key")), i), str(item)) != leaves[i]]


def _seal_before(steps: dict[int, dict], seq: int, key: Any) -> dict | None:
    """The newest seal called ``key`` on the line of step ``seq`` (itself included)."""
    current: Any = seq
    while current in steps:
        found = [s for s in (steps[current].get("action") or {}).get("seals", []) if s.get("key") == key]
        if found:
            return found[-1]
        current = steps[current].get("parent_seq")
    return None


def _reveal_problems(seq: int, reveal: dict, seal: dict | None, seed: bytes) -> list[str]:
    name = f"step #{seq}: the reveal of {str(reveal.get('key'))[:40]!r} item {reveal.get('index')}"
    if seal is None:
        return [f"{name} names no seal made before it"]
    index, leaves = reveal.get("index"), seal.get("leaves") or []
    if not isinstance(index, int) or not 0 <= index < len(leaves):
        return [f"{name}: the seal has no such item"]
    nonce = seal_nonce(seed, str(reveal.get("key")), index)
    if reveal.get("nonce") != nonce.hex():
        return [f"{name}: its nonce is not the one the seed gives (a forged reveal)"]
    if seal_leaf(nonce, str(reveal.get("item"))) != leaves[index]:
        return [f"{name} does not open its seal: a forged reveal (the item shown is not the one sealed)"]
    return []


def _audit_links(document: dict) -> list[str]:
    problems = []
    audit = {a["id"]: a for a in document.get("audit", [])}
    for step in document["steps"]:
        by = step.get("reverted_by")
        if by is not None and by not in audit:
            problems.append(f"step #{step['seq']}: reverted by audit entry {by}, which is missing")
        if step.get("kind") == "reroll" and not any(
                a.get("action") == "reroll" and (a.get("data") or {}).get("step") == step.get("rerolls")
                for a in audit.values()):
            problems.append(f"step #{step['seq']}: a reroll of #{step.get('rerolls')} with no audit entry")
        if rederived(step) and not any(
                a.get("action") == "rules-adopt" and step.get("rerolls") in ((a.get("data") or {}).get("steps") or [])
                for a in audit.values()):
            # A step that uses recorded rolls again must be one /mod rules-adopt made (issue 42).
            problems.append(f"step #{step['seq']}: re-derives #{step.get('rerolls')} with no /mod rules-adopt entry")
    ends = [a for a in audit.values() if a.get("action") == "end"]
    if not ends:
        problems.append("the audit entry of /game end is missing")
    else:
        data = ends[-1].get("data") or {}
        total = drawn(document["steps"])
        if data.get("rolls") is not None and data["rolls"] != total:
            problems.append(f"/game end recorded {data['rolls']} rolls; the file holds {total}")
        if data.get("head") is not None and data["head"] != document.get("head_seq"):
            problems.append(f"/game end recorded step #{data['head']} as the last; the file says #{document.get('head_seq')}")
    return problems


def _line(document: dict) -> list[str]:
    """The active steps are one line from the head back to its root; reverts are explained."""
    problems: list[str] = []
    steps = _steps_by_seq(document, problems)
    head = document.get("head_seq")
    seq = head if isinstance(head, int) and not isinstance(head, bool) else None
    if seq not in steps:
        return [*problems, f"the head, step #{head}, is not in the file"]
    line = _walk_to_root(steps, seq, problems)
    stray = sorted(s for s, step in steps.items() if step.get("reverted_by") is None and s not in line)
    if stray:
        problems.append(f"active steps off the line that ends at the head #{head}: "
                        f"{', '.join(f'#{s}' for s in stray[:10])} (a hidden rollback, or steps added)")
    return problems + _revert_marks(document, steps)


def _steps_by_seq(document: dict, problems: list[str]) -> dict[int, dict]:
    """The file's steps by number (a number twice is a problem)."""
    steps: dict[int, dict] = {}
    for step in document["steps"]:
        if step["seq"] in steps:
            problems.append(f"step #{step['seq']} is in the file twice")
        steps[step["seq"]] = step
    return steps


def _walk_to_root(steps: dict[int, dict], head: int, problems: list[str]) -> list[int]:
    """The steps from ``head`` back by their parents, each active and earlier than its child."""
    line: list[int] = []
    seq: int | None = head
    while seq is not None and seq not in line:
        step = steps.get(seq)
        if step is None:
            problems.append(f"step #{line[-1]} follows step #{seq}, which is not in the file")
            break
        if step.get("reverted_by") is not None:
            problems.append(f"step #{seq} leads to the head #{head} but is marked reverted")
        line.append(seq)
        parent = step.get("parent_seq")
        if parent is not None and parent >= seq:
            problems.append(f"step #{seq} follows #{parent}, a later step")
            break
        seq = parent
    return line


def _revert_marks(document: dict, steps: dict[int, dict]) -> list[str]:
    """Each revert mark names an entry that reverts, and nothing follows /game end."""
    problems = []
    position = {a.get("id"): n for n, a in enumerate(document.get("audit", []))}
    audit = {a.get("id"): a for a in document.get("audit", [])}
    for step in steps.values():
        by = step.get("reverted_by")
        if by in audit and audit[by].get("action") not in REVERTING:
            problems.append(f"step #{step['seq']} is marked reverted by a {audit[by].get('action')!r} entry")
    ends = [position[a["id"]] for a in document.get("audit", []) if a.get("action") == "end"]
    if ends and ends[0] != len(position) - 1:
        problems.append("audit entries follow /game end")
    return problems


#: One record of the chain: its kind ("step" or "audit"), its JSON, its name for a reader.
Record = tuple[str, dict, str]


def _chain(document: dict, anchors: list[str], announced: list[Announced]) -> list[str]:
    """Every record's hash, the one chain they form, and the heads the channel saw."""
    records = _records(document)
    if not any(r.get("hash") for _, r, _ in records):
        if anchors or document.get("chain_head"):
            return ["the channel showed chain heads but the file's records carry no hashes"]
        return []
    problems: list[str] = []
    follows = _links(records, problems)
    order, current = _walk_chain(follows, genesis(document), problems)
    problems += _chain_ends(document, records, order, current)
    problems += _reverted_before_written(records, order)
    problems += _marks_replayed(document, order)
    return problems + _anchored(order, current, anchors) + _sequence(order, announced)


def _records(document: dict) -> list[Record]:
    """Every step and audit entry of the file, each with its name."""
    return [("step", s, step_name(s)) for s in document["steps"]] + \
        [("audit", a, f"audit entry {a['id']} ({a.get('action')})") for a in document.get("audit", [])]


def _links(records: list[Record], problems: list[str]) -> dict[str, list[Record]]:
    """The records that follow each hash; a record without a hash, or whose hash does not
    match its content, is a problem."""
    follows: dict[str, list[Record]] = {}
    for kind, record, name in records:
        if not isinstance(record.get("hash"), str) or not isinstance(record.get("prev_hash"), str):
            problems.append(f"{name} carries no hash (outside the chain)")
            continue
        if record_hash(kind, record) != record["hash"]:
            problems.append(f"{name}: its hash does not match its content (changed after it was written)")
        follows.setdefault(record["prev_hash"], []).append((kind, record, name))
    return follows


def _walk_chain(follows: dict[str, list[Record]], start: str,
                problems: list[str]) -> tuple[list[Record], str]:
    """The chain from the genesis (each record followed by exactly one other) and its last hash."""
    order: list[Record] = []
    current, seen = start, set()
    while current in follows and current not in seen:
        seen.add(current)
        nexts = follows[current]
        if len(nexts) > 1:
            problems.append(f"the chain forks: {' and '.join(n for _, _, n in nexts)} both follow"
                            f" {current[:16]}")
        order.append(nexts[0])
        current = nexts[0][1]["hash"]
    return order, current


def _chain_ends(document: dict, records: list[Record], order: list[Record], current: str) -> list[str]:
    """The chain starts at the genesis, holds every record and ends at the file's heads."""
    on_chain = {id(r) for _, r, _ in order}
    outside = [name for _, r, name in records if isinstance(r.get("hash"), str) and id(r) not in on_chain]
    if not order:
        return ["no record follows the game's genesis (its system, scenario, options and"
                " seed hash): the chain was rewritten or belongs to another game"]
    problems = []
    if outside:
        problems.append(f"records not on the chain from the genesis: {', '.join(outside[:6])}"
                        " (added, or the chain was cut before them)")
    if document.get("chain_head") not in (None, current):
        problems.append(f"the file's chain head {str(document['chain_head'])[:16]} is not its last"
                        f" record's hash {current[:16]}")
    if order[-1][0] == "step" and order[-1][1]["seq"] != document.get("head_seq"):
        problems.append(f"the last step written, #{order[-1][1]['seq']}, is not the head"
                        f" #{document.get('head_seq')} and no audit entry moved it")
    return problems


def _reverting_base(entry: dict, parents: dict[Any, Any]) -> Any:
    """The step above which a reverting audit entry reverted every active step (the bot's
    ``revert_after``), or None for an entry that reverts nothing: a rollback back to its
    ``to``, one to another line to the ``base`` the two lines share (issue 42), a reroll
    from the step before the rerolled one, an undo from the undone step's parent, a
    ``/mod rules-adopt`` from the parent of the first step it re-derived (issue 42)."""
    action, data = entry.get("action"), entry.get("data") or {}
    if action == "rollback" and data.get("direction") == "back":
        return data.get("to")
    if action == "rollback" and data.get("direction") == "across":
        return data.get("base")
    if action == "reroll" and isinstance(data.get("step"), int):
        return data["step"] - 1
    if action == "undo":
        return parents.get(data.get("seq"))
    if action == "rules-adopt":
        return parents.get(data.get("from"))
    return None


def _head_after(entry: dict, base: Any, parents: dict[Any, Any]) -> Any:
    """Where a reverting entry left the head: a rollback at its ``to``, a re-derivation at
    the step before the first it re-derived (the steps made again follow as records of
    their own), a reroll or undo at the parent of the step rerolled or undone."""
    action, data = entry.get("action"), entry.get("data") or {}
    if action == "rollback":
        return data.get("to")
    if action == "rules-adopt":
        return base
    return parents.get(data.get("step", data.get("seq")))


def _marks_replayed(document: dict, order: list[Record]) -> list[str]:
    """The revert marks and the head as the records, in the order written, make them (issue
    45: marks are not hashed, so a rollback undone by deleting its marks and moving the head
    back broke no hash): each rollback, reroll, undo and re-derivation reverts the active
    line above its base, a rollback forward (or to another line, above the base the two
    share) makes the steps of its target's line active again, a step written becomes the
    head, a rollback moves it to its ``to``.  Every step's mark and the head must be those."""
    parents = {r["seq"]: r.get("parent_seq") for k, r, _ in order if k == "step"}
    marks: dict[Any, Any] = {}
    head: Any = None
    for kind, record, _ in order:
        if kind == "step":
            head = record["seq"]
            continue
        data = record.get("data") or {}
        base = _reverting_base(record, parents)
        if base is not None:
            for seq in _line_of(parents, head):
                if seq > base:
                    marks.setdefault(seq, record.get("id"))
            head = _head_after(record, base, parents)
        if record.get("action") == "rollback" and data.get("direction") in ("forward", "across"):
            if data.get("direction") == "forward":
                restored = data.get("steps") or []
            else:
                restored = [seq for seq in _line_of(parents, data.get("to")) if isinstance(base, int) and seq > base]
            for seq in restored:
                marks.pop(seq, None)
            head = data.get("to")
    return _marks_compared(document, marks, head)


def _line_of(parents: dict[Any, Any], head: Any) -> list[Any]:
    """The steps from ``head`` back to its root by their parents."""
    line: list[Any] = []
    while head in parents and head not in line:
        line.append(head)
        head = parents[head]
    return line


def _marks_compared(document: dict, marks: dict[Any, Any], head: Any) -> list[str]:
    """The file's revert marks and head against those the records make."""
    audit = {a.get("id"): a for a in document.get("audit", [])}
    problems = []
    for step in document["steps"]:
        seq, by, made = step.get("seq"), step.get("reverted_by"), marks.get(step.get("seq"))
        if by == made or not isinstance(step.get("hash"), str):
            continue
        if made is None:
            problems.append(f"step #{seq} is marked reverted by audit entry {by}, but no record reverts it")
        else:
            what = audit.get(made, {})
            problems.append(f"step #{seq} is {'active' if by is None else f'marked reverted by {by}'} in the"
                            f" file, but audit entry {made} ({what.get('action')} {_audit_words(what)}) reverted"
                            " it and no record made it active again: the revert was undone outside the record")
    if head is not None and document.get("head_seq") != head:
        problems.append(f"the file's head is step #{document.get('head_seq')}, but its records put the"
                        f" game at step #{head}: the head was moved outside the record")
    return problems


def _audit_words(entry: dict) -> str:
    """What a reverting audit entry did, in a few words (``to #5``, ``of #7``)."""
    data = entry.get("data") or {}
    if "to" in data:
        return f"to #{data['to']}"
    return f"of #{data.get('step', data.get('seq'))}"


def _reverted_before_written(records: list[Record], order: list[Record]) -> list[str]:
    """A step cannot be reverted by an audit entry written before it."""
    problems = []
    index = {r["hash"]: n for n, (_, r, _) in enumerate(order)}
    for _, step, name in records:
        by = step.get("reverted_by") if "seq" in step else None
        if by is None:
            continue
        entry = next((n for n, (k, r, _) in enumerate(order) if k == "audit" and r.get("id") == by), None)
        if entry is not None and step.get("hash") in index and entry < index[step["hash"]]:
            problems.append(f"{name} is marked reverted by audit entry {by}, written before it")
    return problems


def _anchored(order: list[Record], last: str, anchors: list[str]) -> list[str]:
    """Every head the channel showed is a record of the chain; the whole head of /game end
    is its last.  A short head that begins a whole one seen too is checked as the whole."""
    problems, missing = [], []
    heads = [a.lower() for a in dict.fromkeys(anchors)]
    heads = [a for a in heads if not any(b != a and b.startswith(a) for b in heads)]
    for anchor in heads:
        found = [n for _, r, n in order if r["hash"].startswith(anchor)]
        if not found:
            missing.append(anchor[:16])
        elif len(anchor) == 64 and anchor != last:
            problems.append(f"the whole head posted at /game end ({anchor[:16]}…) is {found[0]},"
                            " but the file goes on after it: it is not the history the channel saw")
    if missing:
        problems.append(f"{len(missing)} of the {len(heads)} chain heads the channel showed are in no"
                        f" record of this file ({', '.join(missing[:3])}{', …' if len(missing) > 3 else ''}):"
                        " it is not the history the channel saw")
    return problems


#: One announcement as the channel showed it: its head, the chain's record count at it and
#: how many records its command wrote.
Announced = tuple[str, int, int]


def _sequence(order: list[Record], announced: list[Announced]) -> list[str]:
    """Every announced head sits at the place its count gives, and every record of the file
    up to the last announcement was written by an announced command: the records between
    two announcements are exactly the ones the later one says it wrote (issue 45: a record
    an operator slipped in between two announcements, with every hash after it made anew
    by the bot itself, breaks no head).  Each problem names the records concerned."""
    problems: list[str] = []
    place = {r["hash"]: n for n, (_, r, _) in enumerate(order)}
    names = [name for _, _, name in order]
    by_count: dict[int, Announced] = {}
    for head, count, added in announced:
        found = next((n for h, n in place.items() if h.startswith(head)), None)
        if found is not None and found + 1 != count:
            problems.append(f"the channel saw {head[:16]} as record {count}, but in the file it is"
                            f" record {found + 1} ({names[found]}): records were added or removed before it")
        if found is None and 0 < count <= len(order):
            problems.append(f"the channel saw {head[:16]} as record {count}; the file's record {count} is"
                            f" {names[count - 1]}, with another hash: it, or a record before it, was changed")
        if by_count.get(count, ("", 0, -1))[2] < added:
            by_count[count] = (head, count, added)
    expected = 0
    for count in sorted(by_count):
        head, _, added = by_count[count]
        if count - added > expected:
            gap = names[expected:min(count - added, len(names))]
            problems.append(f"records {expected + 1} to {count - added} of the file ({', '.join(gap[:4])}"
                            f"{', …' if len(gap) > 4 else ''}) were announced by no message before"
                            f" {head[:16]} (record {count}, +{added}): inserted between two announcements,"
                            " or a message is missing from the channel file")
        expected = max(expected, count)
    return problems


def announcements_in(text: str) -> list[Announced]:
    """Every announcement in a channel's saved messages that shows its record count
    (issue 45); older ones show the head alone and are read by :func:`anchors_in`."""
    return [(head, int(count), int(added)) for head, count, added, _ in _anchor_matches(text) if count]


def anchors_in(text: str) -> list[str]:
    """Every chain head (``🔗 1a2b…``) in a channel's saved messages: plain text, a JSON
    export (every string in it) or an HTML export (emoji images read by their alt text)."""
    return [head for head, _, _, _ in _anchor_matches(text)]


def _anchor_matches(text: str) -> list[tuple[str, str, str, str]]:
    """Every ``(head, count, added, tag)`` the anchor lines of saved messages show, in the
    order they were posted (count, added and tag empty on a line from before issue 45)."""
    try:
        strings = list(_strings(json.loads(text)))
    except (json.JSONDecodeError, RecursionError):
        strings = [text]
    found = []
    for chunk in strings:
        if "<" in chunk and ">" in chunk:
            chunk = re.sub(r"<img[^>]*\balt=\"([^\"]*)\"[^>]*>", r"\1", chunk)
            chunk = html.unescape(re.sub(r"<[^>]+>", "", chunk))
        found += ANCHOR.findall(chunk)
    return found


def bots_lines(document: dict, text: str) -> tuple[list[str], list[Announced], int]:
    """The heads and announcements of a saved channel that are the bot's, and how many
    anchor lines were left out as not the bot's (issue 45: a player who types a line that
    imitates the bot's, "🔗 0123456789abcdef · 5 (+1)", in a plain copy of the channel made
    the honest export fail).

    With the seed of a final export (it hashes to the file's seed hash), a line whose tag
    checks is the bot's, and one whose tag does not is not (a player's, or another game's);
    the lines after the first whole head with a good tag (``/game end``'s, which reveals the
    seed, so that tags can be made from then on) are left out.  A line with no tag is the
    bot's as before, unless the channel shows tagged lines: then it is kept only where it
    agrees with the file (its head is the file's record at its count), the rest left out.
    Without the seed (an export taken before /game end) every line is taken."""
    matches = _anchor_matches(text)
    seed = _revealed_seed(document)
    if seed is None:
        return _heads_of(matches)
    good = [m[3] == anchor_tag(seed, m[0], int(m[1]), int(m[2])) if m[3] else None for m in matches]
    end = next((n for n, (m, ok) in enumerate(zip(matches, good)) if ok and len(m[0]) == 64), len(matches))
    tagging = any(good)
    places = {r["hash"]: n + 1 for n, (_, r, _) in enumerate(_walk_chain(
        _links(_records(document), []), genesis(document), [])[0])} if tagging else {}
    kept = [m for m, ok in zip(matches[:end + 1], good) if ok or (ok is None and (not tagging or _agrees(m, places)))]
    return (*_heads_of(kept), len(matches) - len(kept))


def _revealed_seed(document: dict) -> bytes | None:
    """The seed of a final export, if it is one that hashes to the file's seed hash."""
    try:
        seed = bytes.fromhex(str(document.get("seed") or ""))
    except ValueError:
        return None
    return seed if seed and hashlib.sha256(seed).hexdigest() == document.get("seed_hash") else None


def _agrees(match: tuple[str, str, str, str], places: dict[str, int]) -> bool:
    """An untagged line whose head is a record of the file, at the count it shows."""
    place = next((n for h, n in places.items() if h.startswith(match[0])), None)
    return place is not None and (not match[1] or int(match[1]) == place)


def _heads_of(matches: list[tuple[str, str, str, str]]) -> tuple[list[str], list[Announced]]:
    return ([m[0] for m in matches],
            [(head, int(count), int(added)) for head, count, added, _ in matches if count])


def _strings(value: Any) -> Any:
    """Every string of a JSON channel export, but those of a message a person wrote: a
    message whose author the export marks as no bot (``"isBot": false``, or Discord's
    ``"bot"``) holds no head the bot posted, whatever it imitates (issue 45)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        author = value.get("author")
        if isinstance(author, dict) and author.get("isBot", author.get("bot", True)) is False:
            return
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def replay_problems(document: dict) -> list[str] | str:
    """Re-run the log with the Referee rules: the problems found, or why it could not be
    replayed here (the rules not importable, or the game's system not among them)."""
    root = Path(__file__).resolve().parent.parent
    if (root / "bot" / "replay.py").exists() and str(root) not in sys.path:
        sys.path.insert(0, str(root))
    try:
        from bot.replay import replay  # noqa: PLC0415 - optional: only inside the repository
        from rules.core import registry  # noqa: PLC0415
    except ImportError as exc:
        return (f"the Referee rules need {exc.name or 'their packages'}, which {sys.executable} "
                "lacks; install the project (README) and run .venv/bin/python "
                "tools/verify_dice.py, or `referee replay` on the file")
    if document["system"] not in registry.load_all():
        return f"the rules of the system {document['system'][:40]!r} are not installed here"
    try:
        report = replay(document)
    except Exception as exc:  # a log the rules cannot even read is a failed replay
        return [f"the log could not be replayed: {type(exc).__name__}: {str(exc)[:120]}"]
    problems = list(report.problems)
    # A step made under older rules that resolves otherwise today is a rules change, not a
    # problem of the record (issue 42): referee replay says which rule.
    if not problems and not report.ok:
        problems.append(f"only {report.matched} of {report.steps} steps replayed")
    return Replayed([f"replay: {p}" for p in problems], explained=len(report.explained))


class Replayed(list):
    """The replay's problems, and how many steps made under older rules resolve otherwise
    today (issue 42: rules changes, not problems; ``referee replay`` names their rules)."""

    def __init__(self, problems: list[str], explained: int = 0) -> None:
        super().__init__(problems)
        self.explained = explained


# -- the command line ---------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> int:
    """Verify the export named on the command line; see the module docstring."""
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:
        return 2 if exc.code else 0
    _run_with_the_project_python(argv)
    read = _anchors(args)
    if isinstance(read, int):
        return read
    anchors, channel = read
    checked = _checked(args, anchors, channel)
    if isinstance(checked, int):
        return checked
    document, problems = checked
    replayed = replay_problems(document)
    if not isinstance(replayed, str):
        problems += replayed
    _print_verdict(document, problems, replayed)
    _print_what_to_compare(document, problems, args, anchors)
    return 1 if problems else 0


def _parser() -> argparse.ArgumentParser:
    """The command line: the export, and what the channel showed to compare it with."""
    parser = argparse.ArgumentParser(description="Check a finished Referee game's dice and log.")
    parser.add_argument("export", help="the final export attached to /game end")
    parser.add_argument("--seed-hash", help="the seed hash posted at /game new")
    parser.add_argument("--rolls", type=int, help="the number of rolls announced at /game end")
    parser.add_argument("--anchor", action="append", default=[], metavar="HEAD",
                        help="a chain head seen in the channel (🔗 …); may be repeated")
    parser.add_argument("--anchors", metavar="CHANNEL-FILE",
                        help="the channel's messages saved as text, JSON or HTML: every 🔗 head in it")
    return parser


def _run_with_the_project_python(argv: list[str] | None) -> None:
    """Run from the repository with a Python that lacks the rules' packages (the system one):
    the dice check needs none, the replay does; the project's own Python (the README's
    .venv) has them.  Once only (the marker), whatever that Python holds."""
    project_python = Path(__file__).resolve().parent.parent / ".venv" / "bin" / "python"
    if (importlib.util.find_spec("pydantic") is None and project_python.exists()
            and not os.environ.get(REEXEC)):
        print(f"(running with {project_python}, which has the Referee rules)", flush=True)
        os.execve(project_python, [str(project_python), __file__,
                                   *(sys.argv[1:] if argv is None else argv)],
                  {**os.environ, REEXEC: "1"})


def _anchors(args: argparse.Namespace) -> tuple[list[str], str | None] | int:
    """The chain heads given with ``--anchor`` and the text of ``--anchors`` (the channel's
    saved messages), or the exit code of a sentence saying why they cannot be read."""
    anchors = [a.strip().strip("`").lower() for a in args.anchor]
    bad = [a for a in anchors if not re.fullmatch(r"[0-9a-f]{16,64}", a)]
    if bad:
        print(f"--anchor takes 16 to 64 hex digits as the channel shows them, not {bad[0][:70]!r}.")
        return 2
    if not args.anchors:
        return anchors, None
    try:
        return anchors, Path(args.anchors).read_text("utf-8", errors="replace")
    except OSError as exc:
        print(f"Cannot read {args.anchors}: {exc.strerror or exc}.")
        return 2


def _checked(args: argparse.Namespace, anchors: list[str],
             channel: str | None) -> tuple[dict, list[str]] | int:
    """The export and the problems of its dice and log, or the exit code of a sentence
    saying why it could not be checked (never a traceback).  ``anchors`` gets the bot's
    heads of the saved ``channel`` (:func:`bots_lines`)."""
    try:
        document = load(args.export)
        check_shape(document)
        announced: list[Announced] = []
        if channel is not None:
            heads, announced, left_out = bots_lines(document, channel)
            anchors += heads
            if left_out:
                print(f"({left_out} 🔗 line(s) of {args.anchors} left out as not the bot's: their tag does"
                      " not check with the game's seed, they come after /game end, or they carry no tag"
                      " and disagree with the file; a player's text, or another game's.)")
        return document, verify(document, seed_hash=args.seed_hash, rolls=args.rolls, anchors=anchors,
                                announced=announced)
    except OSError as exc:
        print(f"Cannot read {args.export}: {exc.strerror or exc}.")
    except (json.JSONDecodeError, UnicodeDecodeError, gzip.BadGzipFile, EOFError) as exc:
        print(f"{args.export} is not JSON (or gzipped JSON): {exc}.")
    except BadInput as exc:
        print(f"{args.export} is not a usable Referee export: {exc}.")
    except RecursionError:
        print(f"{args.export} is nested too deeply to be a Referee export.")
    except Exception as exc:  # the last guard: an auditor gets a sentence, not a traceback
        print(f"{args.export} could not be checked ({type(exc).__name__}); is it a Referee export?")
    return 2


def _print_verdict(document: dict, problems: list[str], replayed: list[str] | str) -> None:
    """The verdict first: the problems, or what was vouched for."""
    rolls, again = _rolls_counted(document)
    if problems:
        print(f"{len(problems)} problem(s):")
        for problem in problems:
            print(" -", problem)
    else:
        print(f"OK: the seed matches its hash, all {rolls} rolls recompute in order{again}"
              + ("." if isinstance(replayed, str) else _replayed_words(replayed)))
    if isinstance(replayed, str):
        print(f"The log was not replayed ({replayed}): run `referee replay` on the file where"
              " they are, or a rewritten event or state goes unseen.")


def _replayed_words(replayed: list[str]) -> str:
    """The verdict's end: every step replays exactly, or some as a rules change explains."""
    explained = getattr(replayed, "explained", 0)
    if not explained:
        return ", and every step replays exactly."
    return (f", and every step replays; {explained} made under older rules resolve otherwise under this"
            " release's rules (a rules change, not a forgery: `referee replay FILE` names each rule).")


def _rolls_counted(document: dict) -> tuple[int, str]:
    """How many rolls the game drew (the count /game end announces), and words for those of
    the file's rolls a re-derivation used again (issue 42: not drawn twice; empty if none)."""
    drawn_rolls = drawn(document["steps"])
    again = sum(len(step["dice"]) for step in document["steps"]) - drawn_rolls
    return drawn_rolls, f" ({again} more used again by /mod rules-adopt, counted once)" if again else ""


def _print_what_to_compare(document: dict, problems: list[str], args: argparse.Namespace,
                           anchors: list[str]) -> None:
    """Then what to compare with the channel: the seed hash, the roll count, the chain head."""
    rolls, again = _rolls_counted(document)
    print(f"Seed hash in the file: {document['seed_hash']}")
    posted = posted_hash(args.seed_hash)
    if posted is None:
        print("  compare it with the hash posted at /game new (or pass --seed-hash).")
    elif len(posted) < len(document["seed_hash"]) and not problems:
        print(f"  --seed-hash gave its first {len(posted)} digits only, and they match; the whole"
              " hash posted at /game new is the stronger check.")
    print(f"Rolls in the file: {rolls}{again}")
    if args.rolls is None:
        print("  compare it with the count announced at /game end (or pass --rolls).")
    head = document.get("chain_head") or ""
    if not head:
        print("This file has no hash chain (a game older than the chain): only the dice are vouched for.")
        return
    print(f"Chain head in the file: {head}")
    if anchors:
        print(f"  {len(set(anchors))} head(s) from the channel checked against it.")
    else:
        print("  compare it with the head posted at /game end (or pass --anchor / --anchors):"
              " without heads from the channel, a forger who rewrites the whole chain goes unseen.")


if __name__ == "__main__":
    sys.exit(main())
