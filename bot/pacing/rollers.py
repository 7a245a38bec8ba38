"""Whose dice a digest line shows (issue 40): a step's rolls said by the side that rolled them.

An order can make the other side roll inside the same step (a German MG's reaction fire to
an American's order): the log line's "🎲 3 5 6 6" after "alice (us)" read as all alice's.
A roll the rules tagged with its side (``Roll.side``, issue 46: the initiative dice) is that
side's; otherwise its reason names the unit that rolled (``g1 Rifles 2 FP at 1pl``) and the
public views before and after the step say which side's colours that unit wears.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel

from rules.core.dice import Roll

from bot.replies import draw_words

_WORD = re.compile(r"[^\s:,()\"']+")


def side_names(views: list[BaseModel], sides: dict[str, str]) -> dict[str, str]:
    """What a roll's ``side`` key is called: the system's ``sides`` (key to name) first, then
    the factions of the views' side styles (``hostile`` -> ``Hostiles``)."""
    names: dict[str, str] = {}
    for view in views:
        for style in view.model_dump().get("sides", []):
            names.setdefault(style["key"], style["label"])
    return {**names, **sides}


def unit_sides(views: list[BaseModel]) -> dict[str, str]:
    """Every unit id (and label) of ``views`` with the name of the side it belongs to, as
    the view's side styles name it (a unit is any part of a view with an id and a faction)."""
    owners: dict[str, str] = {}
    for view in views:
        dumped = view.model_dump()
        names = {s["key"]: s["label"] for s in dumped.get("sides", [])}
        _collect(dumped, names, owners)
    return owners


def _collect(node: Any, names: dict[str, str], owners: dict[str, str]) -> None:
    if isinstance(node, dict):
        if isinstance(node.get("id"), str) and node.get("faction") in names:
            for key in (node["id"], node.get("label")):
                if isinstance(key, str) and key:
                    owners.setdefault(key, names[node["faction"]])
        for value in node.values():
            _collect(value, names, owners)
    elif isinstance(node, list):
        for value in node:
            _collect(value, names, owners)


def roller(roll: Roll, owners: dict[str, str], names: dict[str, str] | None = None) -> str | None:
    """The side that made ``roll``: the one the roll itself names (``Roll.side``, called as
    ``names`` says), else the side of the unit its reason starts with (``g1 Rifles 2 FP at
    1pl``, ``O1 save``); a reason that names a unit later (``sniper at VDV-2``) names its
    target, not who rolled, and is left unattributed."""
    if roll.side is not None:
        return (names or {}).get(roll.side, roll.side)
    words = _WORD.findall(roll.reason)
    return owners.get(words[0]) if words else None


def same_side(style: str, side: str) -> bool:
    """Whether a unit's colours (``NATO (W. German)``, ``Soviet``) are the side named
    ``side`` (``NATO``, ``Soviets``): a side's styles are named from it."""
    style = style.split(" (", 1)[0]
    return style.startswith(side) or side.startswith(style)


def dice_by_side(rolls: list[Roll], owners: dict[str, str], actor: str,
                 names: dict[str, str] | None = None) -> list[str] | None:
    """The step's d6s grouped by the side that rolled them (``🎲 Americans 3 5 · Germans 6
    6``), or None when every known roller is ``actor``'s side (the plain line says it right).
    Rolls no unit can be found for are counted the actor's, as the log line counts them all;
    draws (not d6s) are left to the log line."""
    found = [roller(r, owners, names) for r in rolls]
    sides = [actor if side is None or same_side(side, actor) else side for side in found]
    if all(side == actor for side in sides):
        return None
    groups: dict[str, list[str]] = {}
    for roll, side in zip(rolls, sides):
        if roll.sides == 6:
            groups.setdefault(side, []).append(str(roll.value))
    said = " · ".join(f"{side} {' '.join(v)}" for side, v in groups.items())
    return ([f"🎲 {said}"] if said else []) + draw_words(rolls)


__all__ = ["dice_by_side", "roller", "same_side", "side_names", "unit_sides"]
