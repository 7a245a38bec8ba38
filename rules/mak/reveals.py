"""Revealed secrets in players' words (issue 28): the item a public "🔓 Revealed" line shows.

Each sealed item is canonical JSON in the record (``rules/core/secrets.py``); here it is
worded for the channel by the kind of seal its key names: a minefield (19.1.1, 19.1.6), a
concealment marker's unit (15.4.1) or an aircraft's duty (10.1.1).
"""

from __future__ import annotations

import json

from rules.core import secrets

#: The duty chart's spaces as a player reads them (10.1.1, 10.1.4).
DUTY_WORDS = {"air": "Air Combat", "ground": "Ground Combat", "none": "not flying",
              "withdraw": "withdrawn (10.1.4)"}


def reveal_words(key: str, item_text: str) -> str:
    """``item_text`` of the seal ``key`` as the public line words it; an item of a shape
    this module does not know reads as plain fields (never lost, never an error)."""
    try:
        item = json.loads(item_text)
    except ValueError:
        item = None
    if not isinstance(item, dict):
        return secrets.plain_words(item_text)
    kind = key.split(":", 1)[0]
    if kind == "mines" and "lost" in item:
        return f"the mines fired on {item.get('hex')} were lost: {item['lost']} (19.1.6)"
    if kind == "mines" and "attack" in item:
        return f"a minefield in {item.get('hex')}, attack {item['attack']}"
    if kind == "conceal" and "marker" in item:
        return f"{item['marker']} was over {item.get('unit')}"
    if kind == "air" and "mission" in item:
        return f"{item.get('unit')}: {DUTY_WORDS.get(str(item['mission']), item['mission'])}"
    return secrets.plain_words(item_text)


__all__ = ["DUTY_WORDS", "reveal_words"]
