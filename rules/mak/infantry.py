"""Infantry squads (14.0): movement, charges, combined fire, morale, engineers, rifles.

* 14.1: one hex a turn.  14.2.2: a charge into close quarters moves two hexes, whatever the
  terrain.  14.2.3: defensive attacks against a charging squad get +1 (our reading).
* 14.2.1: stacked infantry add their attack abilities into one attack.
* 14.3: an M or A result breaks morale instead; 14.3.2: recovery on 1-4 with modifiers.
* 14.4.1: an engineer finds a minefield on 1-5; 14.4.2: arson on 2d6 <= 5, -2 with a second
  squad, -1 for each beyond two.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.core.dice import Dice

CHARGE_HEXES = 2  # 14.2.2
CHARGE_DEFENCE_BONUS = 1  # 14.2.3, read as +1 to the defensive Attack Target
RECOVER_ON = 4  # 14.3.2: one to four
DETECT_ON = 5  # 14.4.1
ARSON_ON = 5  # 14.4.2


def combined_attack(attacks: list[int]) -> int:
    """14.2.1: stacked squads add their attack into a single attack."""
    return sum(attacks)


def morale_effect(result: str) -> str:
    """14.3: what an endurance result does to a squad: D destroys, M or A break morale."""
    return "broken" if result in ("M", "A") else result


@dataclass
class Recovery:
    """A morale recovery roll (14.3.2)."""

    die: int
    modifier: int

    @property
    def recovered(self) -> bool:
        """One to four (after modifiers) recovers."""
        return self.die + self.modifier <= RECOVER_ON


def recovery_modifiers(stacked_with_good: bool, terrain: str | None, in_position: bool,
                       enemy_within_3: bool, hit_again: bool) -> list[tuple[str, int]]:
    """14.3.2 1-4, each modifier named as the roll shows it: ``[("forest", -2), ...]``."""
    named = [("with a unit in good order", -1 if stacked_with_good else 0),
             (terrain or "", -2 if terrain in ("forest", "building") else 0),
             ("defensive position", -1 if in_position else 0),
             ("enemy within 3 hexes", 1 if enemy_within_3 else 0),
             ("attacked again while broken", 1 if hit_again else 0)]
    return [(name, value) for name, value in named if value]


def recovery_modifier(stacked_with_good: bool, terrain: str | None, in_position: bool,
                      enemy_within_3: bool, hit_again: bool) -> int:
    """14.3.2 1-4: -1 stacked with unbroken/able units; -2 forest or building, -1 in a
    defensive position; +1 an able enemy within 3 hexes; +1 attacked again while broken.
    "All of these modifiers are cumulative": a position in a forest gives -2 and -1."""
    mod = 0
    if stacked_with_good:
        mod -= 1
    if terrain in ("forest", "building"):
        mod -= 2
    if in_position:
        mod -= 1
    if enemy_within_3:
        mod += 1
    if hit_again:
        mod += 1
    return mod


def roll_recovery(dice: Dice, modifier: int, reason: str) -> Recovery:
    """Roll one die for a broken squad."""
    return Recovery(die=dice.die(6, reason), modifier=modifier)


def detects_mines(die: int) -> bool:
    """14.4.1: a minefield is found before entering on 1-5."""
    return die <= DETECT_ON


def arson_modifier(squads: int) -> int:
    """14.4.2: -2 with a second squad, -1 more for each beyond two."""
    if squads <= 1:
        return 0
    return -2 - max(0, squads - 2)


def arson_succeeds(roll: int, squads: int) -> bool:
    """14.4.2: 2d6 plus the modifier, five or less starts a fire."""
    return roll + arson_modifier(squads) <= ARSON_ON
