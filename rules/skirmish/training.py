"""The Unit Training Table and the Training Check (Actions; Suppression).

=========  ==============  ======
Level      Training Check  To Hit
=========  ==============  ======
Green      5+              2+
Trained    4+              3+
Veteran    3+              4+
=========  ==============  ======
"""

from __future__ import annotations

from pydantic import BaseModel

from rules.core.dice import Dice
from rules.skirmish.scenario import Training
from rules.skirmish.state import UnitState

#: Unit Training Table: the Training Check number (Actions).
CHECK: dict[str, int] = {"green": 5, "trained": 4, "veteran": 3}
#: Unit Training Table: the number needed To Hit a unit of this Training (Firing).
TO_HIT: dict[str, int] = {"green": 2, "trained": 3, "veteran": 4}


class Check(BaseModel):
    """One Training Check: the die, the number needed (with its parts) and the result."""

    die: int
    need: int
    base: int
    markers: int = 0
    passed: bool

    def text(self, who: str) -> str:
        """The check as a player reads it, e.g. ``1pl Training Check 🎲4 vs 4+ +1 supp = 5+: failed``."""
        parts = f"{self.base}+"
        if self.markers:
            parts += f" +{self.markers} suppression = {self.need}+"
        verdict = "passed" if self.passed else "failed"
        return f"{who} Training Check 🎲{self.die} vs {parts}: {verdict}"


def check_number(training: Training, markers: int = 0) -> int:
    """What a Training Check needs: the table's number, +1 per suppression marker."""
    return CHECK[training] + markers


def training_check(training: Training, dice: Dice, reason: str, markers: int = 0) -> Check:
    """Roll a Training Check (Actions): a d6 equal to or over the number passes.

    ``markers`` suppression markers on the unit add +1 each (Suppression).  A 6 needed 7+
    cannot pass: the text gives no automatic success.
    """
    need = check_number(training, markers)
    die = dice.die(6, reason)
    return Check(die=die, need=need, base=CHECK[training], markers=markers, passed=die >= need)


def unit_check(unit: UnitState, dice: Dice, reason: str) -> Check:
    """The unit's Training Check with its suppression markers: "Units with suppressed Teams
    take a +1 penalty to their next Training Check per suppression marker" (Suppression) —
    any Training Check of the unit (activation, counter-attack, Morale, and the CC's reroll
    of the same check, which the markers still weigh on until its result is settled)."""
    return training_check(unit.training, dice, reason, unit.markers)
