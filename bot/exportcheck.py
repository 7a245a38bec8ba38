"""What ``referee replay`` checks before it re-runs a single step (issue 42): the hash chain,
the dice and the seals of an export.  None of them depends on the rules, so a record that
fails here is not the same record, whatever release replays it; one that passes and then
resolves otherwise is a question of rules (``bot/rerun.py``).

``tools/verify_dice.py`` is the auditor's full check (the anchors the channel saw, the line
of active steps, the revert marks); this is the part that needs only the file.
"""

from __future__ import annotations

import hashlib
from typing import Any

from bot import chain, record
from rules.core import secrets
from rules.core.dice import roll_value


def integrity_problems(document: dict[str, Any]) -> list[str]:
    """Every problem of the export's chain, dice and seals (an empty list: they check out)."""
    if any(step.get("sealed") for step in document["steps"]):
        return []  # a running game's secret round: checked in the final export
    problems = chain_problems(document)
    seed = _seed(document, problems)
    if seed is not None:
        problems += dice_problems(document, seed) + seal_problems(document, seed)
    return problems


def chain_problems(document: dict[str, Any]) -> list[str]:
    """Each record's hash recomputes from its content and the hash before it, each record
    follows the genesis or another record, and the file's chain head is one of them.
    Records written before the chain (migration 0009) carry no hash and are left out.  The
    genesis is the one the game's scheme gives (``referee-chain/2``, issue 45: with the
    scenario file's whole SHA-256; :func:`bot.record.genesis_of_export`)."""
    records = [("step", s) for s in document["steps"]] + [("audit", a) for a in document.get("audit", [])]
    hashed = [(kind, r) for kind, r in records if r.get("hash")]
    if not hashed:
        return []
    fmt = document.get("chain_format")
    if fmt is not None and fmt not in chain.CHAIN_FORMATS:
        return [f"the file's chain_format {str(fmt)[:40]!r} is not one this release knows"
                f" ({', '.join(chain.CHAIN_FORMATS)}): its records cannot be checked"]
    problems = [f"{_name(kind, r)}: its hash does not recompute from its content (the record was changed)"
                for kind, r in hashed if _recomputed(kind, r) != r["hash"]]
    known = {r["hash"] for _, r in hashed} | {record.genesis_of_export(document)}
    problems += [f"{_name(kind, r)}: it follows a record that is not in the file"
                 for kind, r in hashed if r.get("prev_hash") not in known]
    head = document.get("chain_head")
    if head and head not in known:
        problems.append("the file's chain head is not the hash of any of its records")
    return problems


def _recomputed(kind: str, record: dict[str, Any]) -> str:
    prev = str(record.get("prev_hash"))
    return chain.step_hash(prev, record) if kind == "step" else chain.audit_hash(prev, record)


def _name(kind: str, record: dict[str, Any]) -> str:
    return f"#{record.get('seq')}" if kind == "step" else f"audit entry {record.get('id')} ({record.get('action')})"


def _seed(document: dict[str, Any], problems: list[str]) -> bytes | None:
    """The revealed seed (an ended game's export), checked against its hash; None before."""
    text = document.get("seed")
    if not text:
        return None
    try:
        seed = bytes.fromhex(str(text))
    except ValueError:
        problems.append("the file's seed is not hexadecimal")
        return None
    if hashlib.sha256(seed).hexdigest() != document["seed_hash"]:
        problems.append("the revealed seed does not hash to the seed hash posted at /game new")
        return None
    return seed


def dice_problems(document: dict[str, Any], seed: bytes) -> list[str]:
    """Every numbered roll is the value the seed gives for its number and die."""
    problems = []
    for step in document["steps"]:
        for roll in step.get("dice", []):
            index, sides = roll.get("index"), roll.get("sides")
            if isinstance(index, int) and isinstance(sides, int) and sides >= 1 \
                    and roll_value(seed, index, sides) != roll.get("value"):
                problems.append(f"#{step['seq']}: roll {index} ({roll.get('reason', '')}) is {roll.get('value')},"
                                f" the seed gives {roll_value(seed, index, sides)}")
    return problems


def seal_problems(document: dict[str, Any], seed: bytes) -> list[str]:
    """Every sealed choice opens its leaves and root with the seed's nonces (issue 28)."""
    key = secrets.game_key(seed)
    problems = []
    for step in document["steps"]:
        for seal in (step.get("action") or {}).get("seals", []):
            problems += _seal_problem(step["seq"], seal, key)
    return problems


def _seal_problem(seq: int, seal: dict[str, Any], key: bytes) -> list[str]:
    name = f"#{seq}: the seal {str(seal.get('key'))[:40]!r}"
    leaves, items = seal.get("leaves") or [], seal.get("items") or []
    if secrets.root(leaves) != seal.get("root"):
        return [f"{name}: its leaves do not give its root (changed after it was posted)"]
    return [f"{name}: item {i + 1} does not open its leaf (a changed secret)"
            for i, item in enumerate(items)
            if i >= len(leaves) or secrets.leaf(secrets.nonce(key, str(seal.get("key")), i), str(item)) != leaves[i]]


__all__ = ["chain_problems", "dice_problems", "integrity_problems", "seal_problems"]
