"""The server's seed key: each game's dice seed is kept in the database only wrapped with a
key that is not in the database (issue 45).

A game's seed is drawn at random at ``/game new`` and its SHA-256 posted; whoever holds the
seed can compute every future roll (``rules/core/dice.py``).  Stored as it is, the seed was
readable by anyone with the database (a copy, a backup, a PostgreSQL administrator), who
could then foresee the dice and, with a row inserted, reroll silently.  So the stored value is

    b"k1:" + seed XOR HMAC-SHA256(key, b"referee-seed-wrap/1:" + seed_hash)

where ``key`` is 32 random bytes kept outside the database: ``REFEREE_SEED_KEY`` (64 hex
digits) or the file ``REFEREE_SEED_KEY_FILE`` (default ``./referee.seed-key``), created with
mode 0600 on the first start.  The pad is a keyed hash of the game's own seed hash, so each
game's pad differs and the database alone tells nothing of any seed.  Unwrapped, the seed must
hash to the posted hash: a missing or wrong key gives no seed (the game's dice refuse to roll
with a sentence, never other dice).  ``/game end`` stores the seed plainly: it is public then,
and an ended game stays exportable whatever becomes of the key.

Why a wrapped random seed and not one derived from the key and the game's id: a restored
backup or a new database numbers its games from 1 again, and the derived seed of a new game
#5 would be the revealed seed of the old game #5.  A random seed is the game's alone.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import secrets
from pathlib import Path

log = logging.getLogger("referee.seedkey")

#: What marks a wrapped seed in ``games.seed`` (a plain one is 32 bytes: games started
#: before issue 45, and ended games).
WRAPPED = b"k1:"
#: What the pad is derived with.
LABEL = b"referee-seed-wrap/1:"
#: The key's size in bytes.
KEY_BYTES = 32


class SeedKeyError(Exception):
    """The seed key cannot be read or made; the message is the operator's one sentence."""


def load_key(value: str | None, path: Path) -> bytes:
    """The server's seed key: ``value`` (``REFEREE_SEED_KEY``) when set, else the key file at
    ``path``, created with a fresh random key when there is none."""
    if value:
        return _parse(value.strip(), "REFEREE_SEED_KEY")
    try:
        key = _parse(path.read_text("ascii").strip(), str(path))
    except FileNotFoundError:
        return _create(path)
    except (OSError, UnicodeDecodeError) as exc:
        raise SeedKeyError(f"The seed key file {path} cannot be read ({exc}): give the bot's user"
                           " read access to it, or point REFEREE_SEED_KEY_FILE at the right one.") from None
    if path.stat().st_mode & 0o077:
        # Whoever reads the key and the database foresees every running game's dice.
        log.warning("the seed key file %s is readable by other users than its owner (mode %o): chmod 600"
                    " it (docs/provable-dice.md)", path, path.stat().st_mode & 0o777)
    return key


def _parse(text: str, where: str) -> bytes:
    try:
        key = bytes.fromhex(text)
    except ValueError:
        key = b""
    if len(key) != KEY_BYTES:
        raise SeedKeyError(f"{where} must hold the seed key as {KEY_BYTES * 2} hex digits; it holds"
                           f" {len(text)} characters that are not one. Put the key back from where it"
                           " was kept (docs/provable-dice.md), or the running games cannot roll.")
    return key


def _create(path: Path) -> bytes:
    """A new key in a new file, readable by its owner only; a file another process made in
    the meantime wins (two bots starting at once share one key)."""
    key = secrets.token_bytes(KEY_BYTES)
    try:
        if path.parent and not path.parent.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return load_key(None, path)
    except OSError as exc:
        raise SeedKeyError(f"The seed key file {path} cannot be created ({exc.strerror or exc}):"
                           " set REFEREE_SEED_KEY_FILE to a writable place outside the database's"
                           " folder, or REFEREE_SEED_KEY to 64 hex digits.") from None
    with os.fdopen(fd, "w", encoding="ascii") as handle:
        handle.write(key.hex() + "\n")
        handle.flush()
        os.fsync(handle.fileno())
    return key


def _pad(key: bytes, seed_hash: str) -> bytes:
    return hmac.new(key, LABEL + seed_hash.encode("ascii"), hashlib.sha256).digest()


def wrap(key: bytes | None, seed: bytes, seed_hash: str) -> bytes:
    """What ``games.seed`` stores for a running game: the seed wrapped with ``key`` (None:
    no key, a store opened without one, stores the seed as it is)."""
    if key is None:
        return seed
    pad = _pad(key, seed_hash)
    return WRAPPED + bytes(a ^ b for a, b in zip(seed, pad))


def unwrap(key: bytes | None, stored: bytes, seed_hash: str) -> bytes:
    """The seed ``games.seed`` holds: a plain one as it is; a wrapped one unwrapped with
    ``key``, or ``b""`` when there is no key or it is not the one the game was started with
    (the unwrapped seed does not hash to the posted hash)."""
    if not stored.startswith(WRAPPED):
        return stored
    if key is None:
        return b""
    body = stored[len(WRAPPED):]
    seed = bytes(a ^ b for a, b in zip(body, _pad(key, seed_hash)))
    return seed if hashlib.sha256(seed).hexdigest() == seed_hash else b""


#: What a command on a game whose seed cannot be unwrapped answers.
NO_SEED = ("This game's dice cannot be rolled: the server's seed key (REFEREE_SEED_KEY_FILE) is"
           " missing or is not the one the game was started with, so nothing was stored. Tell the"
           " operator to put that key back (docs/provable-dice.md).")


__all__ = ["KEY_BYTES", "NO_SEED", "SeedKeyError", "WRAPPED", "load_key", "unwrap", "wrap"]
