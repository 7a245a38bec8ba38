"""Saves, Armor Saves and the Vehicle Damage Table.

Team Type: Infantry 3+ (Hard Cover 2+); Gun 5+ (3+), "Gun Teams that did not Move or Fire use
Infantry Saves"; Soft Skinned tank teams "roll for saves like Gun Teams"; Armored teams "may
only be harmed by Teams firing 'AT' weapons" and save by armour thickness; "For each failed
save, the firing Unit rolls against the Vehicle Damage Table": 1-3 No Effect, 4-5 1
Suppression, 6 Destroyed, +1 "if firing from behind a line drawn across the front of the
Team's hull or turret"; hull or turret 1-3/4-6 when one shows its front and the other its rear.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from rules.core import table
from rules.core.dice import Dice
from rules.skirmish.scenario import Cover
from rules.skirmish.state import TeamState

#: Saves in the open or soft cover, and in hard cover (Saves).
INFANTRY = (3, 2)
GUN = (5, 3)


def save_number(team: TeamState, cover: Cover) -> int | None:
    """The Save a team rolls against a hit; None for an armoured team (Armor Saves)."""
    if team.armoured:
        return None
    hard = cover == "hard"
    if team.kind == "infantry" or (team.kind == "gun" and not (team.moved or team.fired)):
        return INFANTRY[hard]
    return GUN[hard]


class SaveRoll(BaseModel):
    """The save dice of one team: each die, the number needed, rerolls and the result."""

    team: str
    need: int
    dice: list[int] = Field(default_factory=list)
    rerolled: list[int] = Field(default_factory=list)
    failed: int = 0

    def text(self) -> str:
        """E.g. ``sq1 saves 3+ 🎲2 5 → 1 failed``."""
        shown = " ".join(str(d) for d in self.dice)
        if self.rerolled:
            shown += " (successes rerolled: " + " ".join(str(d) for d in self.rerolled) + ")"
        return f"{self.team} saves {self.need}+ 🎲{shown} → {self.failed} failed"


def roll_saves(dice: Dice, team: str, count: int, need: int, reroll: bool) -> SaveRoll:
    """Roll ``count`` saves; with ``reroll`` every successful save is rolled again (Run; 1-)."""
    values = dice.roll(count, 6, f"{team} save")
    passed = [v for v in values if v >= need]
    rerolled: list[int] = []
    if reroll and passed:
        rerolled = dice.roll(len(passed), 6, f"{team} save reroll")
        passed = [v for v in rerolled if v >= need]
    return SaveRoll(team=team, need=need, dice=values, rerolled=rerolled,
                    failed=count - len(passed))


Part = Literal["hull", "turret"]
Damage = Literal["none", "suppressed", "destroyed"]


class ArmourHit(BaseModel):
    """One AT hit on an armoured team: where it struck, the save, the damage roll."""

    part: Part
    part_die: int | None = None
    save_need: int
    save_die: int
    save_reroll: int | None = None
    damage_die: int | None = None
    behind: bool = False
    result: Damage = "none"

    def text(self) -> str:
        """E.g. ``turret (🎲5) save 3+ 🎲2 failed, damage 🎲4 +1 behind = 5: suppressed``."""
        where = self.part if self.part_die is None else f"{self.part} (🎲{self.part_die})"
        save = f"save {self.save_need}+ 🎲{self.save_die}"
        if self.save_reroll is not None:
            save += f" reroll 🎲{self.save_reroll}"
        if self.damage_die is None:
            return f"{where} {save} saved"
        total = self.damage_die + self.behind
        extra = " +1 behind" if self.behind else ""
        return f"{where} {save} failed, damage 🎲{self.damage_die}{extra} = {total}: {self.result}"


def exposure(team: TeamState, source: table.Point, radius: float) -> dict[Part, bool]:
    """Which parts show their front to ``source`` (True: in front of that part's front line)."""
    return {
        "hull": table.in_front_of(team.pos, team.facing, radius, source),
        "turret": table.in_front_of(team.pos, team.turret_facing, 0.0, source),
    }


def damage_result(total: int) -> Damage:
    """Vehicle Damage Table: 1-3 No Effect, 4-5 1 Suppression, 6 Destroyed (7 with +1)."""
    if total >= 6:
        return "destroyed"
    return "suppressed" if total >= 4 else "none"


def armour_hit(
    dice: Dice, team: TeamState, source: table.Point, radius: float, reroll: bool = False
) -> ArmourHit:
    """Resolve one AT hit on an armoured team: part, armour save, Vehicle Damage Table."""
    front = exposure(team, source, radius)
    part: Part = "hull"
    part_die = None
    if front["hull"] != front["turret"]:
        part_die = dice.die(6, f"{team.id} hull or turret")
        part = "hull" if part_die <= 3 else "turret"
    need = (team.turret_save if part == "turret" else None) or team.hull_save or 7
    save_die = dice.die(6, f"{team.id} armour save")
    saved = save_die >= need
    hit = ArmourHit(part=part, part_die=part_die, save_need=need, save_die=save_die)
    if saved and reroll:
        hit.save_reroll = dice.die(6, f"{team.id} armour save reroll")
        saved = hit.save_reroll >= need
    if saved:
        return hit
    hit.behind = not front[part]
    hit.damage_die = dice.die(6, f"{team.id} vehicle damage")
    hit.result = damage_result(hit.damage_die + hit.behind)
    return hit
