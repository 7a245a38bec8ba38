#!/usr/bin/env python3
"""Recompute every die of a finished Referee game from its revealed seed.

Usage:  python tools/verify_dice.py GAME-final.json.gz   (or a plain .json)

Needs only Python's standard library.  How the dice work (see docs/provable-dice.md):

* at ``/game new`` the bot posts ``sha256(seed)``, committing to a secret 32-byte seed;
* roll number ``i`` of the game (counting every roll, rerolls and reverted steps included)
  is ``1 + int.from_bytes(HMAC-SHA256(key=seed, msg=str(i))[:8], "big") % sides``;
* at ``/game end`` the seed is revealed in the final export.

This script checks that the seed matches the hash posted at the start, that every recorded
roll equals the value recomputed from the seed, and that the roll numbers run 0, 1, 2, …
with none skipped or used twice (no roll was made and hidden).
"""

from __future__ import annotations

import gzip
import hashlib
import hmac
import json
import sys

#: The first two bytes of every gzip file.
GZIP_MAGIC = b"\x1f\x8b"


def roll_value(seed: bytes, index: int, sides: int) -> int:
    """The value of roll ``index`` on a die of ``sides`` faces."""
    digest = hmac.new(seed, str(index).encode(), hashlib.sha256).digest()
    return 1 + int.from_bytes(digest[:8], "big") % sides


def verify(document: dict) -> list[str]:
    """Return the problems found (an empty list means every roll checks out)."""
    if not document.get("seed"):
        return ["the export holds no seed: it is revealed only once the game has ended"]
    seed = bytes.fromhex(document["seed"])
    problems = []
    if hashlib.sha256(seed).hexdigest() != document["seed_hash"]:
        problems.append("the revealed seed does not match the hash posted at /game new")
    seen: list[int] = []
    for step in document["steps"]:
        for roll in step["dice"]:
            if roll.get("index") is None:
                problems.append(f"step #{step['seq']}: a roll without a number (scripted dice?)")
                continue
            expected = roll_value(seed, roll["index"], roll["sides"])
            if expected != roll["value"]:
                problems.append(
                    f"step #{step['seq']}: roll {roll['index']} ({roll['reason']}) is"
                    f" {roll['value']}, the seed gives {expected}"
                )
            seen.append(roll["index"])
    if sorted(seen) != list(range(len(seen))):
        problems.append("the roll numbers are not 0, 1, 2, … without gaps or repeats")
    return problems


def load(path: str) -> dict:
    """Read an export, gzipped (``/game end`` and ``/game export`` send ``.json.gz``) or not."""
    with open(path, "rb") as handle:
        data = handle.read()
    if data[:2] == GZIP_MAGIC:
        data = gzip.decompress(data)
    return json.loads(data.decode("utf-8"))


def main(argv: list[str]) -> int:
    """Verify the export named on the command line; exit 0 when every roll checks out."""
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2])
        return 2
    document = load(argv[1])
    problems = verify(document)
    rolls = sum(len(step["dice"]) for step in document["steps"])
    if problems:
        print(f"{len(problems)} problem(s) in {rolls} rolls:")
        for problem in problems:
            print(" -", problem)
        return 1
    print(f"OK: the seed matches its hash and all {rolls} rolls recompute exactly.")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
