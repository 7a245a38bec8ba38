"""Unit Cohesion with the Platoon Leader.

"Infantry and Gun Teams move in any direction as long as they end their movement within 6" of
their Platoon Leader (PL), or within 6" of another Team from their Unit who is within 6" of
their PL. Teams may be left out of cohesion as long as at least 50% of the Unit is in cohesion
with the PL, and when Teams out of cohesion move, they must take the shortest path to get back
into cohesion with the PL."

Reading: the chain goes on through every team in cohesion (a team within 6" of one that is);
Forward Observers "do not need to stay in Unit cohesion"; a unit without a PL has no cohesion
to keep.
"""

from __future__ import annotations

from rules.core import table
from rules.skirmish.state import TeamState, UnitState

RANGE = 6.0
RULE = "Unit Cohesion"


def bound(unit: UnitState) -> list[TeamState]:
    """Teams that must keep cohesion (not FOs, not the PL itself)."""
    return [t for t in unit.alive_teams if t.role not in ("fo", "pl", "cc")]


def in_cohesion(unit: UnitState, where: dict[str, table.Point] | None = None) -> set[str]:
    """Ids of the teams in cohesion (the PL included), optionally with teams moved to ``where``."""
    pl = unit.pl
    if pl is None:
        return {t.id for t in unit.alive_teams}
    where = where or {}
    pos = {t.id: where.get(t.id, t.pos) for t in unit.alive_teams}
    linked = {pl.id}
    frontier = [pl.id]
    chained = bound(unit)
    while frontier:
        current = frontier.pop()
        for team in chained:
            if team.id in linked:
                continue
            if not table.beyond(table.distance(pos[current], pos[team.id]), RANGE):
                linked.add(team.id)
                frontier.append(team.id)
    return linked


def enough(unit: UnitState, where: dict[str, table.Point] | None = None) -> bool:
    """At least 50% of the unit's teams (bound by cohesion, and its PL) are in cohesion."""
    teams = bound(unit) + ([unit.pl] if unit.pl else [])
    if unit.pl is None or not teams:
        return True
    linked = in_cohesion(unit, where)
    return 2 * sum(t.id in linked for t in teams) >= len(teams)


def gap(unit: UnitState, point: table.Point, team_id: str, linked: set[str] | None = None) -> float:
    """How far ``point`` is from being in cohesion (0 when it is), for a team of the unit
    (``linked``: the unit's :func:`in_cohesion`, when the caller has it)."""
    linked = in_cohesion(unit) if linked is None else linked
    anchors = [t.pos for t in unit.alive_teams if t.id in linked and t.id != team_id]
    if not anchors:
        return 0.0
    nearest = min(table.distance(point, a) for a in anchors)
    return max(0.0, nearest - RANGE)


def straight_back(unit: UnitState, team: TeamState, end: table.Point, budget: float) -> str | None:
    """An out-of-cohesion team must take the shortest path back; why a move is not, or None.

    Accepted: the move ends in cohesion, or closes the gap by the whole move (to 0.1").
    """
    if unit.pl is None or team.role in ("fo", "pl", "cc"):
        return None
    linked = in_cohesion(unit)
    if team.id in linked:
        return None
    before = gap(unit, team.pos, team.id, linked)
    after = gap(unit, end, team.id, linked)
    if after <= 1e-6:
        return None
    if before - after >= min(budget, before) - 0.1:
        return None
    return (f"{team.id} is out of cohesion: it must take the shortest path back towards its "
            f"unit ({table.inches(before)} out) ({RULE})")
