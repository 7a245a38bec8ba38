"""Dice lines as players read them: ``🎲 4+3 +2 RCM +1 support = 10 vs DF 6 +1 TM = 7``.

Also Pvt. Boyes's armed reroll (9.8), which any 2d6 roll of the unit may use once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from rules.core.contract import Event
from rules.core.dice import Dice
from rules.rr.hits import HIT_WORDS, hits_for
from rules.rr.state import UnitState

Mods = list[tuple[int, str]]


def mods_text(mods: Mods) -> str:
    """`` +2 RCM -1 ext`` for the non-zero modifiers; a zero one only when its label says
    why with a rule in brackets (`` RCM 0 (9.5)``)."""
    return "".join(f" {value:+d} {label}" if value else f" {label}"
                   for value, label in mods if value or label.endswith(")"))


def roll_2d6(
    dice: Dice,
    reason: str,
    unit: UnitState | None = None,
    good: Callable[[int], bool] | None = None,
    high_good: bool = True,
) -> tuple[list[int], str]:
    """Roll 2d6; if ``unit`` has Boyes's reroll armed (9.8), reroll the die its player named
    (the worse for this roll, the lower or the higher), when the roll failed or on any roll
    as the player said, and disarm it.  Returns the dice and a note for the line."""
    whose = unit.side if unit is not None else None
    faces = dice.roll(2, 6, reason, whose)
    note = ""
    wanted = unit is not None and unit.reroll and good is not None
    if unit is not None and wanted and (unit.reroll_use == "any" or not good(sum(faces))):  # type: ignore[misc]
        low = unit.reroll_die == "lower" or (unit.reroll_die == "worse" and high_good)
        worst = faces.index(min(faces) if low else max(faces))
        old = faces[worst]
        faces[worst] = dice.die(6, f"{reason}, Boyes reroll", whose)
        unit.reroll = False
        note = f", Boyes {old}→{faces[worst]} 9.8"
    return faces, note


def dice_text(faces: list[int]) -> str:
    """``🎲 4+3``."""
    return "🎲 " + "+".join(str(f) for f in faces)


class Outcome(NamedTuple):
    """A resolved 2d6 attack: the dice, both totals, the hits and the line players read."""

    faces: list[int]
    total: int
    defence: int
    hits: int
    event: Event


def contest(
    dice: Dice, reason: str, mods: Mods, df: int, dmods: Mods, rule: str,
    unit: UnitState | None = None, data: dict[str, Any] | None = None,
) -> Outcome:
    """2d6 + ``mods`` against ``df`` + ``dmods`` on the hit table (7.3.3, 7.3.5.2), with
    Boyes's reroll if armed (9.8), as one line:
    ``🎲 4+3 +2 RCM +1 support = 10 vs DF 6 +1 TM = 7 → +3: two hits (7.3.3)``."""
    bonus = sum(v for v, _ in mods)
    defence = df + sum(v for v, _ in dmods)
    faces, note = roll_2d6(dice, reason, unit, good=lambda total: total + bonus > defence)
    total = sum(faces) + bonus
    hits = hits_for(total - defence)
    line = (f"{dice_text(faces)}{mods_text(mods)} = {total} vs DF {df}{mods_text(dmods)} = "
            f"{defence} → {total - defence:+d}: {HIT_WORDS[hits]} ({rule}){note}")
    info = {"dice": faces, "total": total, "df": defence, "hits": hits} | (data or {})
    return Outcome(faces, total, defence, hits, Event(kind="roll", text=line, rule=rule, data=info))
