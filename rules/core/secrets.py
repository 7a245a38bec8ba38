"""Sealed choices: secrets the rules keep, committed in public and revealed with proof (issue 28).

A rule that makes a secret choice (Maschinen Krieger's minefields, 19.1: "recorded on a piece
of paper" and "only revealed for the appropriate hex where a minefield is discovered") calls
``ctx.seal(...)`` with a :class:`Seal`: whose secret it is, the public words, and the secret
*items*, each a canonical JSON text that can be revealed alone (one minefield).  When the
rules reveal one item (a minefield found, 19.1.2), they call ``ctx.unseal(...)`` with an
:class:`Unseal`.

The bot commits each item the moment it is sealed, with a per-game key nobody else holds
until ``/game end``::

    key   = HMAC-SHA256(seed, b"seal")              # the dice seed, secret until the end
    nonce = HMAC-SHA256(key, f"{seal_key}:{index}")
    leaf  = sha256(nonce || item).hexdigest()
    root  = sha256("".join(leaves)).hexdigest()

``index`` is a *slot*: a padded seal's items (the real ones, then blanks) are shuffled into
their slots by a keyed permutation (each item's place sorted by ``HMAC-SHA256(key,
f"{seal_key}:place:{i}")``, issue 45), so the slot a revealed item sat in is uniform among
all the slots whatever the number of real items: "item 2" no longer says that a second
minefield was laid.  The permutation needs no checking (any order binds the items); the
verifier checks each slot's item against its leaf as before.

Leaves and root are public from the start (the root's first hex digits are in the public
line: "Strahl laid its minefields (sealed: 3f0b…)"), a reveal publishes the item and its
nonce, and anyone can check the item against its leaf; after the end the seed lets anyone
recompute every nonce (``tools/verify_dice.py``).  A nonce is a keyed hash, so an item
cannot be guessed from its leaf by trying the few values a minefield can take.

Pure: no I/O.  ``tools/verify_dice.py`` re-implements :func:`nonce`, :func:`leaf` and
:func:`root` with the standard library (a test holds them to one answer).
"""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

#: What the game's key is derived with from the dice seed.
KEY_LABEL = b"seal"
#: Hex digits of a root shown in public lines ("sealed: 3f0b5c2a…").
SHORT_ROOT = 8
#: The item a padded slot holds: a blank, committed like any other item (so the count of
#: real items does not leak through the number of leaves).
BLANK = ""


class Seal(BaseModel):
    """A sealed choice a rule made.

    * ``key``: unique in the game (``"mines:strahl"``, ``"air:1:nato"``);
    * ``side``: whose secret it is (that side's player sees the items);
    * ``what``: the public words after the side's name (``"laid its minefields"``);
    * ``items``: each a canonical JSON text (:func:`item`) that can be revealed alone;
    * ``pad_to``: the record pads ``items`` with blanks up to this many.
    """

    model_config = ConfigDict(frozen=True)

    key: str = Field(min_length=1, max_length=80)
    side: str
    what: str
    items: list[str] = Field(default_factory=list)
    pad_to: int = Field(0, ge=0, le=200)

    def padded(self) -> list[str]:
        """The items the record commits: the real ones, then blanks up to :attr:`pad_to`."""
        return list(self.items) + [BLANK] * max(0, self.pad_to - len(self.items))


class Unseal(BaseModel):
    """A reveal the rules made: item ``index`` of the seal ``key``, and why, in public words
    with the rule (``"found by Pioneer-2 (14.4.1)"``)."""

    model_config = ConfigDict(frozen=True)

    key: str
    index: int = Field(ge=0)
    why: str


class Commitment(BaseModel):
    """A seal as the record keeps it: the public part (leaves, root) and the secret part
    (the padded items in their slots, their nonces, and ``slots``: the slot of each item as
    the rules numbered it, kept from every public output until the end; empty in a record
    made before the shuffle, where item ``i`` is in slot ``i``)."""

    key: str
    side: str
    what: str
    leaves: list[str]
    root: str
    items: list[str]
    nonces: list[str]
    slots: list[int] = Field(default_factory=list)

    def slot(self, index: int) -> int:
        """The slot holding the rules' item ``index``."""
        return self.slots[index] if self.slots else index

    def public(self) -> dict[str, Any]:
        """What anyone may see while the game runs."""
        return {"key": self.key, "side": self.side, "what": self.what, "leaves": self.leaves,
                "root": self.root}


class Reveal(BaseModel):
    """An unseal as the record keeps it: public from the moment it is made."""

    key: str
    index: int
    why: str
    item: str
    nonce: str
    leaf: str


def game_key(seed: bytes) -> bytes:
    """The per-game sealing key: HMAC-SHA256(seed, b"seal"), secret while the seed is."""
    return hmac.new(seed, KEY_LABEL, hashlib.sha256).digest()


def nonce(key: bytes, seal_key: str, index: int) -> bytes:
    """The nonce of item ``index`` of seal ``seal_key``: HMAC-SHA256(key, "seal_key:index")."""
    return hmac.new(key, f"{seal_key}:{index}".encode(), hashlib.sha256).digest()


def leaf(nonce_bytes: bytes, item_text: str) -> str:
    """The public commitment to one item: sha256(nonce || item), hex."""
    return hashlib.sha256(nonce_bytes + item_text.encode("utf-8")).hexdigest()


def root(leaves: list[str]) -> str:
    """The commitment to a whole seal: sha256 of its leaves' hex strings joined, hex."""
    return hashlib.sha256("".join(leaves).encode("ascii")).hexdigest()


def item(**fields: Any) -> str:
    """One item as canonical JSON (keys sorted, no spaces): ``item(hex="0409", attack=7)``."""
    return json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def plain_words(item_text: str) -> str:
    """An item as plain words, its fields in order (``attack 7, hex 0409``); a blank pad
    as ``(blank)``; a text that is not a JSON object as it is."""
    if item_text == BLANK:
        return "(blank)"
    try:
        fields = json.loads(item_text)
    except ValueError:
        return item_text
    if not isinstance(fields, dict):
        return item_text
    return ", ".join(f"{name} {value}" for name, value in fields.items())


def places(key: bytes, seal_key: str, count: int) -> list[int]:
    """The slot of each of ``count`` padded items: a permutation keyed by the game's key, the
    same for any items (it depends on the seal's key and size alone)."""
    ranks = sorted(range(count), key=lambda i: hmac.new(key, f"{seal_key}:place:{i}".encode(),
                                                        hashlib.sha256).digest())
    slots = [0] * count
    for slot, index in enumerate(ranks):
        slots[index] = slot
    return slots


def commit(key: bytes, seal: Seal) -> Commitment:
    """The record of ``seal`` under the game's ``key``: its padded items shuffled into their
    slots (:func:`places`), a nonce and a leaf per slot."""
    padded = seal.padded()
    slots = places(key, seal.key, len(padded))
    items = [""] * len(padded)
    for index, text in enumerate(padded):
        items[slots[index]] = text
    nonces = [nonce(key, seal.key, i) for i in range(len(items))]
    leaves = [leaf(n, text) for n, text in zip(nonces, items)]
    return Commitment(key=seal.key, side=seal.side, what=seal.what, leaves=leaves,
                      root=root(leaves), items=items, nonces=[n.hex() for n in nonces], slots=slots)


def reveal(commitment: Commitment, unseal: Unseal) -> Reveal:
    """The public record of ``unseal``: the item and nonce that open its leaf, at the slot
    the item was shuffled into.  A ValueError for an index the seal does not have (a rules
    bug, never a player's input)."""
    if unseal.index >= len(commitment.items):
        raise ValueError(f"seal {unseal.key!r} has {len(commitment.items)} items, "
                         f"not an item {unseal.index}")
    slot = commitment.slot(unseal.index)
    return Reveal(key=unseal.key, index=slot, why=unseal.why, item=commitment.items[slot],
                  nonce=commitment.nonces[slot], leaf=commitment.leaves[slot])


def opens(reveal_: Reveal | dict[str, Any], leaves: list[str]) -> bool:
    """Whether a reveal's item and nonce give the leaf committed at its index."""
    data = reveal_.model_dump() if isinstance(reveal_, Reveal) else reveal_
    index = data.get("index")
    if not isinstance(index, int) or not 0 <= index < len(leaves):
        return False
    try:
        opened = leaf(bytes.fromhex(str(data.get("nonce", ""))), str(data.get("item", "")))
    except ValueError:
        return False
    return opened == leaves[index]


def short_root(root_hex: str) -> str:
    """A root as public lines show it: ``3f0b5c2a…``."""
    return f"{root_hex[:SHORT_ROOT]}…"


__all__ = ["BLANK", "KEY_LABEL", "SHORT_ROOT", "Commitment", "Reveal", "Seal", "Unseal", "commit", "plain_words",
           "game_key", "item", "leaf", "nonce", "opens", "places", "reveal", "root", "short_root"]
