"""Minefields the players lay (19.1) and their secret: sealed when laid, opened when found.

* 19.1: "Land mines are assigned to players as an attack power and not individual units.
  Following the rules of the scenario, the player distributes these mines by recording their
  assigned attack power, hex, and map on a piece of paper."  The scenario gives each side a
  total (``mine_points``); the side lays its whole layout in ONE sealed order at set-up
  (``/mak mines lay fields:"5:0409=7 5:0410=6"``).  The bot's "piece of paper" is a seal: one
  item per minefield, padded to the most minefields the total allows, so the count does not
  leak either.
* 19.1.1: "between five and thirteen per hex.  This assignment is kept secret, and only
  revealed for the appropriate hex where a minefield is discovered": each hex is its own item,
  opened alone when that minefield is found (14.4.1), entered (19.1.2) or passed through by
  friendly units (19.1.8) — ``reveal``.
* 19.1.5: "impossible to move or remove a minefield once it is placed": one layout per side,
  never changed.
* 19.1.6: artillery mines (``artillery.py`` asks for them) are sealed the same way, one item per
  round: the hex where the round fell is seen, its power stays secret until found.

Our readings where 19.1 is silent: a side may lay less than its total (the rest is lost); a
minefield is not laid in a hex holding an enemy unit at set-up (the rules attack units entering
and leaving a minefield, never one laid under them, except by artillery, 19.1.7); one
minefield a hex (a scenario's own included).
"""

from __future__ import annotations

import re

from rules.core import secrets
from rules.core.errors import RuleError
from rules.core.orders import Ctx
from rules.mak.hazards import MINE_CAP, MINE_MAX, MINE_MIN, lay_by_artillery, reveal
from rules.mak.hidden_state import tell
from rules.mak.state import SIDE_NAMES, MakState, Minefield
from rules.mak.table import Table

MakCtx = Ctx[MakState]

_ENTRY = re.compile(r"^(?P<hex>.+?)\s*[=:@x×]\s*(?P<attack>\d{1,2})$")


def item(label: str, attack: int) -> str:
    """One minefield as a sealed item: canonical JSON, revealed alone (19.1.1)."""
    return secrets.item(hex=label, attack=attack)


def most_fields(points: int) -> int:
    """The most minefields ``points`` can make (each at least 5, 19.1.1): the seal's padding."""
    return points // MINE_MIN


def parse_layout(t: Table, text: str) -> list[tuple[str, int]]:
    """``"5:0409=7 5:0410=6"`` (or ``5:0409:7``, commas between) as ``[(hex, attack)]``; a
    RuleError says what is wrong and what is allowed."""
    out: list[tuple[str, int]] = []
    for word in text.replace(",", " ").replace(";", " ").split():
        m = _ENTRY.match(word)
        if m is None:
            raise RuleError(f"'{word[:20]}' is not a minefield: write hex=attack, e.g. 5:0409=7 (19.1).")
        try:
            label = t.label(t.hex_of(m["hex"]))
        except RuleError:
            raise RuleError(f"'{m['hex'][:12]}' is not a hex of this map (e.g. 5:0409).") from None
        if not t.field.contains(t.hex_of(label)):
            raise RuleError(f"{label} is not on the map.")
        out.append((label, int(m["attack"])))
    if not out:
        raise RuleError("Name at least one minefield, e.g. fields:\"5:0409=7 5:0410=6\" "
                        "(or end your set-up without laying any) (19.1).")
    return out


def lay_problem(t: Table, side: str, fields: list[tuple[str, int]]) -> str | None:
    """Why this layout may not be laid, or None (19.1, 19.1.1, 19.1.5)."""
    s = t.s
    total = s.mine_points.get(side, 0)
    if total <= 0:
        return f"This scenario gives the {SIDE_NAMES[side]} no land mines to lay (19.1)."
    if side in s.laid:
        return "Your minefields are laid: a minefield cannot be moved or removed once placed (19.1.5)."
    seen: set[str] = set()
    for label, attack in fields:
        if not MINE_MIN <= attack <= MINE_MAX:
            return f"{label}: a minefield's attack is 5 to 13, not {attack} (19.1.1)."
        if label in seen:
            return f"{label} is named twice: one minefield a hex, with its whole attack (19.1.1)."
        seen.add(label)
        if label in s.mines:
            return f"{label} already holds a minefield (the scenario's): one minefield a hex."
        if any(u.side != side for u in s.at(label)):
            return f"{label} holds an enemy unit: lay your minefields where the enemy is not (19.1)."
    used = sum(a for _, a in fields)
    if used > total:
        return (f"That layout is {used} attack points; the scenario gives you {total} in all "
                f"(19.1): take {used - total} off.")
    return None


def lay(t: Table, ctx: MakCtx, fields: list[tuple[str, int]]) -> None:
    """19.1: record the layout, sealed; only its owner reads the minefields (``to``)."""
    s = ctx.state
    side = ctx.side
    key = f"mines:{side}"
    for index, (label, attack) in enumerate(fields):
        s.mines[label] = Minefield(owner=side, attack=attack, seal=key, index=index)  # type: ignore[arg-type]
    s.laid.append(side)  # type: ignore[arg-type]
    total = s.mine_points[side]
    ctx.seal(key, side, "laid its minefields", [item(h, a) for h, a in fields], pad_to=most_fields(total))
    used = sum(a for _, a in fields)
    listed = ", ".join(f"{h} attack {a}" for h, a in fields)
    tell(ctx, side, "mines", f"Your minefields: {listed}: {used} of {total} points (19.1)", "19.1")


def may_lie_unfound(state: MakState, enemy: str) -> bool:
    """Whether, by what both sides know, a minefield of ``enemy`` may still lie unfound:
    the scenario's own not yet found (its file is public), a hex where ``enemy``'s mine
    rounds were seen to fall (19.1.6) not yet found, or a layout whose found minefields
    leave room for another (19.1.1: at least 5 points each, within the total, no more than
    the seal's padding).  Never whether one does (issue 45): a move's undo, its ``reveals``
    flag and every other public trace ask this, the same whatever the layout."""
    if any(f.owner == enemy and not f.revealed and not f.seal for f in state.mines.values()):
        return True
    if any(side == enemy and not (h in state.mines and state.mines[h].revealed)
           for h, side in state.scattered.items()):
        return True
    if enemy not in state.laid:
        return False
    key = f"mines:{enemy}"
    found = [f.attack for f in state.mines.values() if f.seal == key and f.revealed]
    total = state.mine_points.get(enemy, 0)
    return len(found) < most_fields(total) and total - sum(found) >= MINE_MIN


def artillery_mines(ctx: MakCtx, label: str, side: str, power: int, battery: str) -> None:
    """19.1.6-19.1.7: a mine round lands in ``label``: the hex's minefield gains ``power`` (at
    most 20), the units standing there are spared until they move.  The round is seen to fall
    (the hex is public, ``suspected``); the power is sealed, one item, until found.  A known
    minefield's new power is said at once; on a secret enemy minefield the round is lost, and
    only the sealed item (read at the end) says so, so neither side learns of it now."""
    s = ctx.state
    before = s.mines.get(label)
    if before is not None and before.revealed:
        field = lay_by_artillery(s, label, before.owner, power) if before.owner == side else before
        ctx.say("mines", f"{battery}'s mines fall on the known minefield in {label}: attack "
                         f"{field.attack} now (19.1.6)", "19.1.6")
        return
    s.seals += 1
    key = f"mines:{side}:art{s.seals}"
    s.scattered[label] = side  # type: ignore[assignment]  # seen to fall, wherever it lands (19.1.6)
    words = f"scattered mines on {label} (19.1.6)"
    if before is not None and before.owner != side:
        ctx.seal(key, side, words, [secrets.item(hex=label, lost="an enemy minefield was there")])
        tell(ctx, side, "mines", f"Your mines fell on {label} (19.1.6)", "19.1.6")
        return
    field = lay_by_artillery(s, label, side, power)
    field.seal, field.index, field.suspected = key, 0, True
    ctx.seal(key, side, words, [item(label, field.attack)])
    capped = " (the most, 19.1.6)" if field.attack == MINE_CAP else ""
    tell(ctx, side, "mines", f"Your minefield {label}: attack {field.attack}{capped} (19.1.6)", "19.1.6")


__all__ = ["artillery_mines", "item", "lay", "lay_problem", "may_lie_unfound", "most_fields", "parse_layout",
           "reveal"]
