"""The number To Hit and its Firing Modifiers, and rolling the FP dice (Firing).

Firing Modifiers: Target Concealed +1; Target Gone to Ground +1 (Teams that did not move or
fire); Target at Long Range (up to 2x range) +1 (half FP rounded down); Firing Unit Moved +1;
Reaction Fire +1; Aimed Fire -1.  "If the To Hit number is 7 or more, the shooting will
automatically fail. If 1 or less, rolls of 1 will still fail, however that unit will need to
reroll successful Saves for that round of shooting."
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from rules.core.dice import Dice
from rules.skirmish.scenario import Training
from rules.skirmish.training import TO_HIT


class Modifier(BaseModel):
    """One line of the Firing Modifiers table that applies."""

    label: str
    value: int


class ToHit(BaseModel):
    """The number To Hit: the target's Training plus the modifiers that apply."""

    base: int
    modifiers: list[Modifier] = Field(default_factory=list)

    @property
    def need(self) -> int:
        """The final number To Hit."""
        return self.base + sum(m.value for m in self.modifiers)

    @property
    def impossible(self) -> bool:
        """7 or more: "the shooting will automatically fail"."""
        return self.need >= 7

    @property
    def rerolls_saves(self) -> bool:
        """1 or less: the target rerolls successful Saves for this round of shooting."""
        return self.need <= 1

    def text(self) -> str:
        """E.g. ``3+ +1 concealed -1 aimed = 3+``."""
        if not self.modifiers:
            return f"{self.base}+"
        parts = " ".join(f"{m.value:+d} {m.label}" for m in self.modifiers)
        return f"{self.base}+ {parts} = {self.need}+"


def to_hit(
    training: Training,
    *,
    concealed: bool = False,
    gone_to_ground: bool = False,
    long_range: bool = False,
    moved: bool = False,
    reaction: bool = False,
    aimed: bool = False,
    cc_observing: bool = False,
) -> ToHit:
    """The number To Hit a unit of ``training`` with the Firing Modifiers that apply.

    ``cc_observing`` is the ranging-in roll's "+1 to the target number if the CC is
    observing" (Indirect Fire).
    """
    flags = [
        (concealed, "concealed", 1), (gone_to_ground, "gone to ground", 1),
        (long_range, "long range", 1), (moved, "moved", 1), (reaction, "reaction", 1),
        (aimed, "aimed", -1), (cc_observing, "CC observing", 1),
    ]
    mods = [Modifier(label=label, value=value) for on, label, value in flags if on]
    return ToHit(base=TO_HIT[training], modifiers=mods)


def long_range_fp(fp: int) -> int:
    """FP at long range: "half FP rounded down"."""
    return fp // 2


class HitRoll(BaseModel):
    """The FP dice of one firing team and how many hit."""

    dice: list[int] = Field(default_factory=list)
    need: int
    hits: int = 0
    rerolled: list[int] = Field(default_factory=list)  # missed dice rerolled (a leader)
    directed: bool = False  # a leader directed this fire (Leaders)

    def text(self) -> str:
        """The dice as a player reads them, e.g. ``🎲2 4 6 → 2 hits``."""
        if not self.dice:
            return "→ no roll: 7 or more fails automatically"
        shown = " ".join(str(d) for d in self.dice)
        if self.rerolled:
            shown += " (rerolled misses: " + " ".join(str(d) for d in self.rerolled) + ")"
        elif self.directed:
            shown += " (no misses for the leader to reroll)"
        return f"🎲{shown} → {self.hits} hit{'s' if self.hits != 1 else ''}"


def _hits(value: int, need: int) -> bool:
    # "If 1 or less, rolls of 1 will still fail"
    return value != 1 and value >= need


def roll_to_hit(dice: Dice, fp: int, need: int, reason: str, reroll_misses: bool = False) -> HitRoll:
    """Roll ``fp`` dice To Hit; 7+ fails without a roll; misses rerolled once if directed."""
    if need >= 7 or fp <= 0:
        return HitRoll(need=need)
    values = dice.roll(fp, 6, reason)
    hits = sum(_hits(v, need) for v in values)
    rerolled: list[int] = []
    if reroll_misses:
        misses = sum(not _hits(v, need) for v in values)
        rerolled = dice.roll(misses, 6, f"{reason} (leader's reroll)") if misses else []
        hits += sum(_hits(v, need) for v in rerolled)
    return HitRoll(dice=values, need=need, hits=hits, rerolled=rerolled, directed=reroll_misses)
