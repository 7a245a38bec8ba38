"""Suppression markers and casualties (Suppression).

"For every 3 FP's that successfully hit a Unit (regardless of whether or not the Team
successfully Saved them) that Unit must place a suppression marker next to one of its Teams.
Suppressed Teams may not fire ... If every Team in a Unit is suppressed, Teams may become
double suppressed, etc. When a suppressed Team becomes a casualty, simply move their
suppression markers to another Team in the Unit."
"""

from __future__ import annotations

from rules.core.contract import Event
from rules.skirmish.state import TeamState, UnitState

RULE = "Suppression"


def markers_for_hits(hits: int) -> int:
    """One marker per 3 FP that hit."""
    return hits // 3


def place_markers(unit: UnitState, count: int, hit_first: list[str] | None = None,
                  protected: frozenset[str] = frozenset()) -> list[str]:
    """Place ``count`` markers; returns the teams that got them, in order.

    Unsuppressed teams first (those just hit first, the owner's protected teams last, then in
    order), and only when every team is suppressed a second marker.
    """
    placed: list[str] = []
    hit_first = hit_first or []
    for _ in range(count):
        teams = unit.alive_teams
        if not teams:
            break
        least = min(t.suppression for t in teams)
        pool = [t for t in teams if t.suppression == least]
        pool.sort(key=lambda t: (t.id in protected, t.id not in hit_first, unit.teams.index(t)))
        pool[0].suppression += 1
        placed.append(pool[0].id)
    return placed


def protected_of(policies: dict[str, dict[str, str]], side: str) -> frozenset[str]:
    """The teams a side asked to keep hits and markers off while it can (``defaults protect``)."""
    return frozenset((policies.get(side, {}).get("protect") or "").split())


def suppression_event(unit: UnitState, placed: list[str], why: str) -> Event | None:
    """The line telling where new markers went, or None when there are none."""
    if not placed:
        return None
    counts = {team: placed.count(team) for team in dict.fromkeys(placed)}
    where = ", ".join(team if n == 1 else f"{team} ×{n}" for team, n in counts.items())
    return Event(
        kind="suppression",
        text=f"{unit.id}: {len(placed)} suppression ({why}) on {where} ({RULE})",
        rule=RULE,
        data={"unit": unit.id, "teams": placed},
    )


def remove_team(unit: UnitState, team: TeamState) -> None:
    """Take a casualty off the table, moving its markers to another team of the unit."""
    if not team.alive:
        return
    team.alive = False
    unit.casualties_turn += 1
    markers, team.suppression = team.suppression, 0
    others = unit.alive_teams
    if markers and others:
        min(others, key=lambda t: t.suppression).suppression += markers
    if not others:
        unit.destroyed = True


def unsuppress(unit: UnitState, passed: bool) -> str:
    """After the unit's next Training Check, whichever it is (activation, counter-attack,
    Morale): "If a suppressed Unit successfully makes its next Training Check, all suppressed
    Teams immediately become unsuppressed ... If the Training Check is failed, one suppression
    marker is removed" (Suppression)."""
    if not unit.markers:
        return ""
    if passed:
        for team in unit.teams:
            team.suppression = 0
        return "all suppression removed"
    worst = max(unit.alive_teams, key=lambda t: t.suppression)
    worst.suppression -= 1
    return f"one suppression marker removed ({worst.id})"
