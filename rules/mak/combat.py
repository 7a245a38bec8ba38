"""Attacks (5.0): the Attack Target, the hit roll (by sum or by product) and the armour endurance.

Pure functions of numbers, a :class:`~rules.mak.battlefield.Battlefield` and the dice; the
system (``system.py``) decides who may attack whom and applies the results.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from rules.core.dice import Dice
from rules.core.hexes import Hex, distance, neighbours
from rules.mak.battlefield import Battlefield
from rules.mak.data import Result, UnitStats, Weapon, charts
from rules.mak.sight import crosses_ridge

Method = Literal["sum", "product"]
INDIRECT = -3  # 5.1.3 3
IMMOBILIZED = 2  # 5.1.3 4
UNARMED_TARGET = 4  # 9.5: "an unmodified 4, regardless of defensive strength"


@dataclass
class AttackTarget:
    """The Attack Target and how it was made: ``attack - defence + modifiers`` (5.1.1 3)."""

    attack: int
    defense: int
    modifiers: list[tuple[str, int]] = field(default_factory=list)

    @property
    def value(self) -> int:
        """The number the hit roll must not exceed."""
        return self.attack - self.defense + sum(v for _, v in self.modifiers)

    def text(self) -> str:
        """``8 − 2 +1 range −2 forest = 5``: one minus sign (U+2212) throughout."""
        mods = "".join(f" {signed(v)} {label}" for label, v in self.modifiers if v)
        return f"{self.attack} − {self.defense}{mods} = {number(self.value)}"


def number(value: int) -> str:
    """``5``, ``−1``: a negative number with the minus sign the attack lines use."""
    return f"−{-value}" if value < 0 else str(value)


def signed(value: int) -> str:
    """``+1``, ``−2``: a modifier with its sign."""
    return number(value) if value < 0 else f"+{value}"


def terrain_modifiers(field_: Battlefield, weapon: Weapon, target_hex: Hex, target: UnitStats,
                      source: Hex | None) -> list[tuple[str, int]]:
    """5.1.3 1: the target hex's terrain for this weapon (not the attacker's), a partial
    building giving nothing to a Type II target (7.1.7), plus a ridgeline or wall crossed."""
    out: list[tuple[str, int]] = []
    terrain = field_.terrain_at(target_hex)
    if not (terrain.key == "building" and target_hex in field_.partial and target.unit_class == 2):
        value = terrain.attack.get(weapon, 0)
        if value:
            out.append((terrain.name.lower(), value))
    if source is not None and source != target_hex:
        kind = crosses_ridge(field_, source, target_hex)
        if kind is not None:
            out.append((kind, charts().hexside_of(kind).attack.get(weapon, 0)))
    return out


def attack_target(field_: Battlefield, *, attack: int, weapon: Weapon, source: Hex | None,
                  target_hex: Hex, target: UnitStats, indirect: bool = False,
                  immobilized: bool = False, position: int = 0, use_range: bool = True,
                  use_terrain: bool = True) -> AttackTarget:
    """The Attack Target of one attack with every modifier of 5.1.3 (and 12.3's position).

    ``source`` None: no range and no ridgeline (air-to-ground, part 2).  ``position``: the
    defensive position's rating (negative), which adds to the terrain modifier (12.3).
    """
    mods: list[tuple[str, int]] = []
    if use_terrain:
        mods += terrain_modifiers(field_, weapon, target_hex, target, source)
    if position:
        mods.append(("position", position))
    if use_range and source is not None:
        hexes = distance(source, target_hex)
        mods.append((f"range {hexes}", charts().range_modifier(weapon, hexes)))
    if indirect:
        mods.append(("indirect", INDIRECT))
    if immobilized:
        mods.append(("immobilized", IMMOBILIZED))
    return AttackTarget(attack=attack, defense=target.defense, modifiers=mods)


@dataclass
class HitRoll:
    """Two dice against the Attack Target (5.1.1 3)."""

    dice: tuple[int, int]
    method: Method
    target: int

    @property
    def value(self) -> int:
        """The dice added (the second game) or multiplied (the first game's special note)."""
        a, b = self.dice
        return a * b if self.method == "product" else a + b

    @property
    def hit(self) -> bool:
        """Equal to or under the target hits; "When the target is below zero, the attack
        becomes ineffective" (5.1.1 3), so a target of 0 or more is an attack that may hit,
        and on it a roll of 1+1 is a hit whatever the target: "If the attack roll result is a
        1 (a one on each die), the result is a 'D'" (5.1.2)."""
        return self.target >= 0 and (self.value <= self.target or self.snake_eyes)

    @property
    def snake_eyes(self) -> bool:
        """5.1.2: a hit rolled as 1 and 1 is D without the endurance chart."""
        return self.dice == (1, 1)

    def text(self) -> str:
        """``2+3 = 5 ≤ 5: hit``."""
        a, b = self.dice
        op = "×" if self.method == "product" else "+"
        verdict = "hit" if self.hit else "miss"
        return f"{a}{op}{b} = {self.value} vs {number(self.target)}: {verdict}"


def roll_hit(dice: Dice, target: int, method: Method, reason: str) -> HitRoll:
    """Roll the two attack dice."""
    a, b = dice.roll(2, 6, reason)
    return HitRoll(dice=(a, b), method=method, target=target)


@dataclass
class Damage:
    """The effect of a hit (5.1.2): D, A, M or -, and the endurance roll if one was made."""

    result: Result
    roll: int | None = None
    modifier: int = 0

    def text(self) -> str:
        """``endurance 3 (B): D``."""
        if self.roll is None:
            return f"1+1: {self.result} (5.1.2)"
        mod = signed(self.modifier) if self.modifier else ""
        return f"endurance {self.roll}{mod}: {self.result}"


def roll_damage(dice: Dice, endurance: str, hit: HitRoll | None, reason: str,
                modifier: int = 0) -> Damage:
    """The target's player rolls two dice on the armour endurance chart (5.1.1 4).

    A hit rolled 1+1 is D at once (5.1.2); ``modifier`` is +1 for a unit outside the target
    hex of an indirect attack (5.5.3).
    """
    if hit is not None and hit.snake_eyes:
        return Damage(result="D")
    roll = sum(dice.roll(2, 6, reason))
    return Damage(result=charts().endurance_result(endurance, roll + modifier), roll=roll,
                  modifier=modifier)


def blast_area(centre: Hex) -> list[Hex]:
    """5.5.2: an indirect attack strikes the target hex and its six neighbours."""
    return [centre, *neighbours(centre)]


def defensive_trigger(attacker_hex: Hex, target_hex: Hex) -> bool:
    """5.4 1-2: an attack from within 3 hexes lets the target (and its stack) answer."""
    return distance(attacker_hex, target_hex) <= 3
