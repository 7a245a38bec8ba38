"""The air war (10.0): the duty chart, dog-fights, breakthrough, air-to-ground and landing.

Pure functions of numbers and unit statistics; ``air_orders.py`` applies them to a game.

* 10.1: in the Air Commitment phase each side assigns its aircraft to the Air Combat Mission
  or the Ground Combat Mission space of the duty chart; a unit that has done its duty goes to
  "Used" and, if it survived, comes back next turn (10.1.3); 10.1.4: withdrawing, not in the
  turn the unit arrived.
* 10.2.1: dog-fight ratings totalled per side, the ratio, one die on the Dog-Fight Resolution
  Chart, each side loses rating points "as close to the value as possible, without going
  over"; 10.2.2: such losses are destroyed, no durability check.
* 10.3: with no opposing air combat units, or twice their number after the dog-fight, the
  difference breaks through against the enemy's ground-mission aircraft, resolved as a
  dog-fight against a rating of 0 (10.3.1), damage at once (10.3.2).
* 10.4: air-to-ground: up to four aircraft over one hex (10.4.1 1); anti-aircraft attacks by
  each enemy unit in the hex, one each, not modified by terrain or range (10.4.3); the
  aircraft's attacks modified by terrain, not by range (10.4.2); ammunition limits (10.4.6).
* 10.6: a Hornisse (PK41 with a PKA) lands in a hex its rider can enter and separates; in an
  enemy hex it takes anti-aircraft fire as class C, M or A destroying both (10.6.3).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.mak.combat import AttackTarget
from rules.mak.data import Result, read_data

MAX_OVER_HEX = 4  # 10.4.1 1: "The maximum number of units that can be placed in a hex is four"
LANDING_ENDURANCE = "C"  # 10.6.3
EMERGENCY_RANGE = 5  # 5.1.2: "the Hornisse has the ability to land within 5 hexes"
HORNISSE_RIDERS = ("PKA", "Gustav", "Konrad")  # 10.6


class DogfightColumn(BaseModel):
    """One column of the Dog-Fight Resolution Chart: the ratio and six rows (die 1-6) of
    ``(aggressor's loss, other side's loss)`` in rating points."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    ratio: tuple[int, int]
    rows: list[tuple[int, int]] = Field(min_length=6, max_length=6)

    @property
    def name(self) -> str:
        """``3:2``."""
        return f"{self.ratio[0]}:{self.ratio[1]}"


class DogfightChart(BaseModel):
    """The Dog-Fight Resolution Chart (10.2.1); not printed in the text, so ours."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    note: str = ""
    stand_in: bool = True
    columns: list[DogfightColumn] = Field(min_length=1)

    def column(self, aggressor: int, other: int) -> DogfightColumn:
        """The highest column whose ratio the aggressor reaches (rounded down in the other
        side's favour); a side with rating 0 faces the last column (10.3.1)."""
        best = self.columns[0]
        for col in self.columns:
            if other <= 0 or aggressor * col.ratio[1] >= other * col.ratio[0]:
                best = col
        return best


@lru_cache(maxsize=1)
def dogfight_chart() -> DogfightChart:
    """``data/dogfight.json``."""
    return DogfightChart.model_validate(read_data("dogfight.json"))


Side = Literal["merc", "strahl"]


def aggressor(totals: dict[str, int], attacker: str) -> str:
    """10.2.1: "The side with the higher rating is the aggressor (if the powers are equal,
    the attacking player, as assigned by the scenario, is the aggressor)"."""
    a, b = sorted(totals)
    if totals[a] == totals[b]:
        return attacker
    return a if totals[a] > totals[b] else b


def choose_losses(ratings: list[tuple[str, int]], loss: int) -> list[str]:
    """10.2.1: the units whose ratings add up as close to ``loss`` as possible without going
    over.  Among equal totals: the fewest units, then the earliest listed (our tie-break;
    the book leaves it to the owner)."""
    best: dict[int, tuple[int, ...]] = {0: ()}
    for i, (_, r) in enumerate(ratings):
        if r <= 0:
            continue
        for total, picks in sorted(best.items(), reverse=True):
            new = total + r
            if new > loss:
                continue
            cand = picks + (i,)
            old = best.get(new)
            if old is None or (len(cand), cand) < (len(old), old):
                best[new] = cand
    top = max(best)
    return [ratings[i][0] for i in best[top]]


@dataclass
class Dogfight:
    """One dog-fight (or breakthrough) resolved: who was the aggressor, the column, the die,
    the points each side lost and the units lost."""

    aggressor: str
    column: str
    die: int
    totals: dict[str, int]
    points: dict[str, int]
    lost: dict[str, list[str]] = field(default_factory=dict)

    def text(self) -> str:
        """``Strahl 7 vs Mercenary 4, column 3:2, die 4: Strahl lose 1, Mercenary 2``."""
        names = {"merc": "Mercenary", "strahl": "Strahl"}
        sides = [self.aggressor] + [s for s in self.totals if s != self.aggressor]
        vs = " vs ".join(f"{names[s]} {self.totals[s]}" for s in sides)
        losses = ", ".join(f"{names[s]} lose {self.points[s]} ({', '.join(self.lost[s]) or 'no unit'})"
                           for s in sides)
        return f"{vs}: column {self.column}, 🎲 {self.die}: {losses}"


def dogfight(ratings: dict[str, list[tuple[str, int]]], attacker: str, die: int) -> Dogfight:
    """10.2.1: resolve a dog-fight between two sides' rated units with one die.

    ``ratings``: side -> ``(unit id, dog-fight rating)`` (pilot modifier included)."""
    totals = {s: sum(max(0, r) for _, r in units) for s, units in ratings.items()}
    agg = aggressor(totals, attacker)
    oth = next(s for s in ratings if s != agg)
    col = dogfight_chart().column(totals[agg], totals[oth])
    a_loss, o_loss = col.rows[die - 1]
    points = {agg: a_loss, oth: o_loss}
    lost = {s: choose_losses(ratings[s], points[s]) for s in ratings}
    return Dogfight(aggressor=agg, column=col.name, die=die, totals=totals, points=points, lost=lost)


def breakthrough_count(mine: int, theirs: int) -> int:
    """10.3: "If there are no opposing units assigned to air combat missions, or if one side
    has a number of units equal to double that of the enemy after the dog-fight", the
    difference may break through."""
    if mine <= 0:
        return 0
    if theirs == 0 or mine >= 2 * theirs:
        return mine - theirs
    return 0


def breakers(ratings: list[tuple[str, int]], count: int) -> list[tuple[str, int]]:
    """The units that break through: the ``count`` best-rated (our choice for the player;
    against a rating of 0 the strongest are always the best choice)."""
    order = sorted(range(len(ratings)), key=lambda i: (-ratings[i][1], i))
    return [ratings[i] for i in sorted(order[:count])]


def breakthrough(side: str, through: list[tuple[str, int]], targets: list[tuple[str, int]],
                 die: int) -> Dogfight:
    """10.3.1: "resolved in the same way as a dog-fight, but the dog-fight rating of the
    defensive side is 0": the breakthrough units are the aggressor."""
    enemy = "strahl" if side == "merc" else "merc"
    total = sum(max(0, r) for _, r in through)
    col = dogfight_chart().column(total, 0)
    a_loss, o_loss = col.rows[die - 1]
    return Dogfight(aggressor=side, column=col.name, die=die, totals={side: total, enemy: 0},
                    points={side: a_loss, enemy: o_loss},
                    lost={side: choose_losses(through, a_loss), enemy: choose_losses(targets, o_loss)})


def flak_target(attack: int, aircraft_defence: int, modifiers: list[tuple[str, int]]) -> AttackTarget:
    """10.4.3: an anti-aircraft attack, "not modified by terrain or range" (pilots still
    count, 18.1.2)."""
    return AttackTarget(attack=attack, defense=aircraft_defence, modifiers=list(modifiers))


def flying_result(result: Result, landing: bool) -> Result:
    """5.1.2: an immobilised flying unit is destroyed; 10.6.3: a landing (or launching)
    Hornisse is also destroyed by A."""
    if result == "M" or (landing and result == "A"):
        return "D"
    return result


def may_withdraw(arrived_turn: int, turn: int) -> bool:
    """10.1.4: "the unit may not be withdrawn before the first turn or a turn in which the
    unit is deployed"."""
    return turn > 1 and arrived_turn < turn
