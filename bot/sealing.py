"""Sealed choices in the record and out of every public output (issue 28).

The rules seal a secret choice (``Step.seals``) and later reveal one item of it
(``Step.unseals``); see :mod:`rules.core.secrets`.  Here the bot:

* commits each seal with the game's key (``HMAC-SHA256(seed, b"seal")``) when the step is
  stored: leaves and root go into the step's ``action`` record (so the hash chain covers
  them), with the items and their nonces, which every output before ``/game end`` strips;
* records each reveal with its item and nonce (public: anyone can check it opens its leaf);
* words the public lines: "Strahl laid its minefields (sealed: 3f0b5c2a…)" and
  "🔓 … opened: {item} (found under cup 2 (S2))";
* keeps an event addressed to one side (``Event.to``) out of public text: only the
  private answer to that side's player shows it.

A seal is made by an order (``Ctx.seal``); the opening set-up seals nothing.
"""

from __future__ import annotations

from typing import Any, Iterable

from bot.store import BaseStore
from bot.summaries import ancestry
from rules.core import secrets
from rules.core.contract import SEALED, Action, Event, GameSystem, Step
from rules.core.errors import RuleError

def public_events(events: Iterable[Event]) -> list[Event]:
    """The events anyone may read: none addressed to one side."""
    return [e for e in events if e.to is None]


def own_lines(events: Iterable[Event], sides: Iterable[str]) -> list[str]:
    """The lines addressed to ``sides`` (their player's own secrets), marked 🔒."""
    mine = set(sides)
    return [f"🔒 {e.text}" for e in events if e.to is not None and e.to in mine]


#: How far back a player's ``/game map`` looks for lines addressed to their side.
ADDRESSED_LOOKBACK = 60
#: The most such lines it shows (the newest).
ADDRESSED_SHOWN = 8


async def addressed_since(store: BaseStore, game_id: int, head: int | None, side: str) -> list[str]:
    """Lines addressed to ``side`` (``Event.to``) by steps another side gave since ``side``'s
    own last order on the game's line: an enemy's order can tell a side its own secret
    ("M-Con1 is M-AFS1", 15.4.1), and that side's player was not the one answered.  Its
    ``/game map`` (for them alone) shows them; lines of its own orders were in its answers."""
    if head is None:
        return []
    found: list[str] = []
    for row in reversed(ancestry(await store.log_steps(game_id, last=ADDRESSED_LOOKBACK, upto=head), head)):
        if row.side == side:
            break
        found[:0] = own_lines(row.events, [side])
    return found[-ADDRESSED_SHOWN:]


async def sealed_records(store: BaseStore, key: bytes, game_id: int, head: int | None,
                         steps: list[Step]) -> list[dict[str, Any]]:
    """For each of ``steps`` (applied one after the other on step ``head``), its seals
    committed and its reveals recorded, as the ``action`` record keeps them (``{}`` for a
    step with neither).  A reveal of a seal that is not on the game's line, or of an item it
    does not have, is refused: nothing is stored (a rules fault, said in one sentence)."""
    out: list[dict[str, Any]] = []
    made: dict[str, secrets.Commitment] = {}
    found: dict[str, secrets.Commitment] | None = None
    for step in steps:
        record: dict[str, Any] = {}
        if step.seals:
            commitments = [secrets.commit(key, seal) for seal in step.seals]
            made.update({c.key: c for c in commitments})
            record["seals"] = [c.model_dump() for c in commitments]
        if step.unseals:
            reveals = []
            for unseal in step.unseals:
                commitment = made.get(unseal.key)
                if commitment is None:
                    if found is None:
                        found = await line_seals(store, game_id, head)
                    commitment = found.get(unseal.key)
                if commitment is None or unseal.index >= len(commitment.items):
                    raise RuleError(f"The rules revealed '{unseal.key[:40]}' item {unseal.index}, which "
                                    "was never sealed in this game; nothing was stored.")
                reveals.append(secrets.reveal(commitment, unseal).model_dump())
            record["reveals"] = reveals
        out.append(record)
    return out


async def line_seals(store: BaseStore, game_id: int, head: int | None) -> dict[str, secrets.Commitment]:
    """Every seal committed on the game's line from its start to step ``head`` (the newest
    seal of a key wins: a rolled-back one was made again)."""
    if head is None:
        return {}
    found: dict[str, secrets.Commitment] = {}
    for row in ancestry(await store.log_steps(game_id, last=2**31, upto=head), head):
        for data in (row.action or {}).get("seals", []):
            commitment = secrets.Commitment.model_validate(data)
            found[commitment.key] = commitment
    return found


def order_words(action: Action) -> str:
    """An order as public text shows it: as typed, private options as 🔒; a sealed order
    as its path and 🔒 alone (not even which options it was given)."""
    return f"{action.path()} {SEALED}" if action.sealed else action.summary()


def public_lines(system: GameSystem[Any], side: str | None, action: dict[str, Any] | None) -> list[str]:
    """The public lines of a stored step's seals and reveals (``side``: who gave it)."""
    if not action:
        return []
    lines = [f"{system.side_name(s['side'])} {s['what']} (sealed: {secrets.short_root(s['root'])})"
             for s in action.get("seals", [])]
    # No item number (issue 45): the slot is shuffled and says nothing, but a number in the
    # line reads as a count ("item 2": a second minefield), so the line names the seal alone.
    lines += [f"🔓 Revealed, {r['why']}: {_item_words(system, r)} (sealed {r['key']})"
              for r in action.get("reveals", [])]
    if action.get("sealed") and not action.get("seals"):
        lines.insert(0, f"{system.side_name(side or '')} gave a sealed order")
    return lines


def _item_words(system: GameSystem[Any], reveal: dict[str, Any]) -> str:
    """A revealed item in the system's words; a blank pad says so (issue 28)."""
    item = reveal.get("item") or secrets.BLANK
    return "(blank)" if item == secrets.BLANK else system.secret_words(reveal["key"], item)


def public_action(action: dict[str, Any] | None) -> dict[str, Any] | None:
    """A step's ``action`` record as anyone may see it before the end: a sealed order's
    options (and the list of which it used), and every seal's items and nonces, left out
    (leaves, roots and reveals stay)."""
    if not action:
        return action
    out = dict(action)
    if out.get("sealed"):
        # Not even which options were given: "private" lists those the order used.
        out["options"] = {}
        out.pop("private", None)
    if "seals" in out:
        out["seals"] = [secrets.Commitment.model_validate(s).public() for s in out["seals"]]
    return out


def public_step_fields(fields: dict[str, Any]) -> dict[str, Any]:
    """An exported step of a game with secrets, before its end: no state, no secret items,
    no line addressed to one side (``"sealed": true`` says so; the final export holds all)."""
    events = [e for e in fields.get("events", []) if e.get("to") is None]
    return {**fields, "action": public_action(fields.get("action")), "events": events,
            "state": None, "sealed": True}


__all__ = ["addressed_since", "line_seals", "order_words", "own_lines", "public_action",
           "public_events", "public_lines", "public_step_fields", "sealed_records"]
