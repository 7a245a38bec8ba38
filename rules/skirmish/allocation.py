"""Allocating hits to the teams of the target unit (Firing).

"For each success, the target Unit must allocate one die to a Team in that Unit that is within
range and line of sight of at least one firing Team, not adding a second die to a Team until
all valid Teams in the Unit have at least one hit already allocated. Weapons with the 'AT'
trait should roll their FP dice separately, as all successful hits from that weapon must be
allocated to a single Team." Order: "Teams in the open, Teams in Soft Cover, Teams in Hard
Cover, Teams that are Gone to Ground"; AT weapons may declare a team type, whose teams take
hits first (still in that order).
"""

from __future__ import annotations

from pydantic import BaseModel

from rules.skirmish.scenario import Cover, TeamKind

_CLASS = {"none": 0, "soft": 1, "hard": 2}


class Candidate(BaseModel):
    """A valid team of the target unit, with what orders it in the allocation."""

    team: str
    kind: TeamKind
    cover: Cover
    gone_to_ground: bool
    distance: float
    armoured: bool = False
    protected: bool = False  # the owner's standing choice: hits last among equals
    first: bool = False  # the owner's choice for this volley: hits first among equals

    def rank(self, declared: TeamKind | None) -> tuple[int, int, bool, bool, float, str]:
        """Sort key: declared type first, then open/soft/hard/gone to ground, then the owner's
        choice among equals (chosen teams first, protected teams last), then nearest."""
        klass = 3 if self.gone_to_ground else _CLASS[self.cover]
        return (0 if declared is None or self.kind == declared else 1, klass, not self.first,
                self.protected, self.distance, self.team)


class Batch(BaseModel):
    """Hits of one firing team: AT hits all go to one team."""

    shooter: str
    weapon: str = ""
    hits: int
    at: bool = False
    declared: TeamKind | None = None
    long: bool = False  # fired at long range: its reach is twice the weapon's range


class Volley(BaseModel):
    """A unit's fire rolled To Hit and waiting for its owner to allocate the hits."""

    target: str
    firing: list[str]
    batches: list[Batch]
    reroll: bool = False  # "will need to reroll successful Saves for that round of shooting"


def allocate(candidates: list[Candidate], batches: list[Batch]) -> dict[str, list[str]]:
    """Allocate every batch of hits; returns ``team -> [shooter per die]``.

    AT batches first, each as a block to the team with the fewest dice so far (ties by the
    allocation order, declared type first); then other hits one die at a time the same way.
    Non-AT hits are never put on armoured teams they cannot harm while an unarmoured valid
    team remains (README reading); with none, they are lost.
    """
    dice: dict[str, list[str]] = {c.team: [] for c in candidates}
    for batch in [b for b in batches if b.at and b.hits]:
        best = _next_at(candidates, dice, batch.declared)
        if best is not None:
            dice[best].extend([batch.shooter] * batch.hits)
    soft = [c for c in candidates if not c.armoured]
    for batch in [b for b in batches if not b.at]:
        for _ in range(batch.hits):
            best = _next(soft, dice, None)
            if best is None:
                break
            dice[best].append(batch.shooter)
    order = sorted(candidates, key=lambda c: c.rank(None))
    return {c.team: dice[c.team] for c in order if dice[c.team]}


def _next(pool: list[Candidate], dice: dict[str, list[str]], declared: TeamKind | None) -> str | None:
    if not pool:
        return None
    return min(pool, key=lambda c: (len(dice[c.team]), c.rank(declared))).team


def _next_at(pool: list[Candidate], dice: dict[str, list[str]], declared: TeamKind | None) -> str | None:
    # "Teams of that type must be allocated hits ... before Teams of other types"
    if not pool:
        return None
    return min(
        pool, key=lambda c: (c.rank(declared)[0], len(dice[c.team]), c.rank(declared))
    ).team
