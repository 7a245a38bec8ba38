"""Which enemy teams the successes of an assault remove: the owner's choice (Assaults).

"each Team within 2" of an enemy makes a Training Check, removing an enemy Team within 2" of
the assaulting Team."  Each success is a *claim*: the enemy teams within 2" of the team that
passed.  Every claim removes one team of its own list and no team is removed twice, so the
teams removed are a matching of claims onto teams.  The text does not say who picks; we read
it as the owner's choice (like the allocation of hits), asked of that player unless a standing
answer (``defaults losses:auto``) lets the game pick: teams on the owner's ``protect`` list
last, then the nearest to the striking teams first.
"""

from __future__ import annotations

from itertools import combinations

from pydantic import BaseModel, Field

#: At most this many sets are offered for the owner to choose from (autocomplete shows 25).
OFFERED = 20


class Claim(BaseModel):
    """One passed check in the fight: the striking team and the enemy teams within its 2"."""

    striker: str
    within: list[str] = Field(default_factory=list)  # nearest first


def _match(claims: list[Claim], teams: list[str]) -> int:
    """How many of ``teams`` can each be given a distinct claim that reaches it (Kuhn)."""
    owner: dict[int, str] = {}  # claim index -> team it removes

    def augment(team: str, seen: set[int]) -> bool:
        for i, claim in enumerate(claims):
            if team not in claim.within or i in seen:
                continue
            seen.add(i)
            if i not in owner or augment(owner[i], seen):
                owner[i] = team
                return True
        return False

    return sum(augment(team, set()) for team in teams)


def candidates(claims: list[Claim]) -> list[str]:
    """Every enemy team some claim reaches, in order of first mention (nearest first)."""
    out: list[str] = []
    for claim in claims:
        out += [t for t in claim.within if t not in out]
    return out


def removals(claims: list[Claim]) -> int:
    """How many teams the claims remove: as many as can be matched to distinct teams."""
    return _match(claims, candidates(claims))


def valid(claims: list[Claim], chosen: list[str]) -> bool:
    """Whether ``chosen`` is a set of teams the claims may remove (all of them, none twice)."""
    if len(set(chosen)) != len(chosen) or len(chosen) != removals(claims):
        return False
    return _match(claims, chosen) == len(chosen)


def default_pick(claims: list[Claim], preference: list[str]) -> list[str]:
    """The standing choice: teams taken in ``preference`` order (first = lost first), each
    kept only if the claims can still remove every team taken so far (a greedy pick that is
    exact here: the sets of teams a matching covers form a matroid)."""
    need = removals(claims)
    picked: list[str] = []
    for team in preference:
        if len(picked) == need:
            break
        if team in candidates(claims) and _match(claims, picked + [team]) == len(picked) + 1:
            picked.append(team)
    return picked


def choices(claims: list[Claim], preference: list[str]) -> list[list[str]]:
    """The sets the owner may choose, the standing choice first, at most :data:`OFFERED`."""
    first = default_pick(claims, preference)
    out = [first]
    need = len(first)
    pool = [t for t in preference if t in candidates(claims)]
    for combo in combinations(pool, need):
        if len(out) >= OFFERED:
            break
        picked = list(combo)
        if sorted(picked) != sorted(first) and valid(claims, picked):
            out.append(picked)
    return out


def has_choice(claims: list[Claim]) -> bool:
    """Whether the owner has anything to choose (more than one set of teams is possible)."""
    return len(choices(claims, candidates(claims))) > 1
