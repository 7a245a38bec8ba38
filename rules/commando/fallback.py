"""The 3" fall-back of a demolition unit after its charges go off.

Demolition (rulebook): "if a 4, 5 or 6 is scored the explosives were successfully set, and the
unit moves 3 inches away."  Movement: "Units may pass through friendly units without
penalty."  Our reading: the unit goes 3" straight away from the nearest point of the blown
target, passing through friendly bases.  A base never ends on another base, so when the 3"
point is taken it goes to the nearest clear point at least 3" away: on along the same line
past the base in the way, or turned off the line onto the 3" arc (never more than 90 degrees,
so it still moves away), whichever is nearer the 3" point.  It stops short only at what no
move may cross: the table edge, wire, water, a standing target or an enemy base ("Barbed wire
cannot be crossed by units"; enemy bases stop any move on contact).  The 6" halt does not
apply: the Demolition rule itself says where the unit goes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from rules.commando import board
from rules.commando.movement import BACK_OFF, contact_stop
from rules.commando.state import RaidState, UnitState
from rules.core import table

#: Demolition: "the unit moves 3 inches away".
FALL_BACK = 3.0
#: How far off the straight line (degrees) the unit may turn to find clear ground.
MAX_TURN = 90.0
#: Two bases are clear of each other when their centres are this far apart.
CLEAR = board.CONTACT - 1e-3


@dataclass(frozen=True)
class FallBack:
    """Where the unit ends and, when it is not the plain 3" straight back, why."""

    start: table.Point
    end: table.Point
    note: str | None = None

    @property
    def moved(self) -> float:
        """How far the unit went (inches)."""
        return table.distance(self.start, self.end)


def fall_back(state: RaidState, unit: UnitState, shape: table.Shape) -> FallBack:
    """Where ``unit`` ends after moving 3" away from the blown ``shape`` (Demolition)."""
    start = unit.pos
    away = _away(start, shape)
    goal = table.add(start, table.scale(away, FALL_BACK))
    others = {u.id: u.pos for u in state.alive() if u.id != unit.id}
    t, why = _first_block(state, unit, start, goal)
    if why is None and _clear(goal, others):
        return FallBack(start, goal)
    if why is None:
        best = _nearest_clear(state, unit, away, others)
        if best is not None:
            return best
    return _short(state, unit, goal, t, why, others)


def _away(start: table.Point, shape: table.Shape) -> table.Point:
    """The unit vector from the nearest point of ``shape`` through ``start``."""
    away = table.sub(start, table.closest_point(start, shape))
    if table.length(away) < table.EPS:
        away = table.sub(start, table.shape_centre(shape))
    if table.length(away) < table.EPS:
        away = (0.0, -1.0)
    return table.scale(away, 1.0 / table.length(away))


def _first_block(
    state: RaidState, unit: UnitState, start: table.Point, goal: table.Point
) -> tuple[float, str | None]:
    """How far along ``start -> goal`` (0..1) the base is first stopped, and why: the table
    edge, or what no base may cross (wire, water, a target, an enemy base)."""
    best, why = contact_stop(state, unit, start, goal)
    edge = _edge_fraction(state, start, goal)
    if edge < best:
        best, why = edge, "stopped at the table edge"
    return best, why


def _edge_fraction(state: RaidState, start: table.Point, goal: table.Point) -> float:
    """The part of ``start -> goal`` (0..1) along which the whole base stays on the table."""
    scen, r = state.table, board.BASE_RADIUS
    best = 1.0
    for axis, size in ((0, scen.width), (1, scen.height)):
        step = goal[axis] - start[axis]
        if step > table.EPS:
            best = min(best, max(0.0, (size - r - start[axis]) / step))
        elif step < -table.EPS:
            best = min(best, max(0.0, (start[axis] - r) / -step))
    return best


def _clear(point: table.Point, others: dict[str, table.Point]) -> bool:
    """Whether a base at ``point`` overlaps none of the bases in ``others``."""
    return all(table.distance(point, pos) >= CLEAR for pos in others.values())


def _nearest_clear(
    state: RaidState, unit: UnitState, away: table.Point, others: dict[str, table.Point]
) -> FallBack | None:
    """The reachable clear point at least 3" away nearest the taken 3" point, or None."""
    start = unit.pos
    goal = table.add(start, table.scale(away, FALL_BACK))
    found = [fb for fb in (_along(start, away, others), *_around(start, away, others))
             if fb is not None and _reachable(state, unit, fb.end)]
    # Nearest first; on a tie (to 0.01") straight back wins: it is listed first.
    return min(found, key=lambda fb: round(table.distance(fb.end, goal), 2), default=None)


def _along(
    start: table.Point, away: table.Point, others: dict[str, table.Point]
) -> FallBack | None:
    """The first clear point on the straight line back beyond 3" (passing through friends)."""
    spans = []
    for pos in others.values():
        rel = table.sub(pos, start)
        ahead = table.dot(rel, away)
        side = abs(table.cross(away, rel))
        if side < CLEAR:
            half = math.sqrt(CLEAR**2 - side**2)
            spans.append((ahead - half, ahead + half))
    reach = _escape(FALL_BACK, spans, BACK_OFF)
    end = table.add(start, table.scale(away, reach))
    names = _names_near(table.add(start, table.scale(away, FALL_BACK)), others)
    return FallBack(start, end, f"on through {names} to clear ground (bases never overlap)")


def _around(
    start: table.Point, away: table.Point, others: dict[str, table.Point]
) -> list[FallBack]:
    """The nearest clear points on the 3" arc either side of the straight line back."""
    spans = []
    for pos in others.values():
        gap = table.distance(start, pos)
        if gap < table.EPS:
            continue
        cos_w = (FALL_BACK**2 + gap**2 - CLEAR**2) / (2 * FALL_BACK * gap)
        if cos_w < 1.0:
            rel = table.sub(pos, start)
            off = math.atan2(table.cross(away, rel), table.dot(away, rel))
            half = math.acos(max(-1.0, cos_w))
            spans.append((off - half, off + half))
    names = _names_near(table.add(start, table.scale(away, FALL_BACK)), others)
    out = []
    for sign in (1.0, -1.0):
        turn = _escape(0.0, spans, BACK_OFF / FALL_BACK, sign)
        if abs(math.degrees(turn)) < MAX_TURN:
            heading = _turned(away, turn)
            end = table.add(start, table.scale(heading, FALL_BACK))
            note = f"turned {abs(math.degrees(turn)):.0f}° off straight back to clear {names}"
            out.append(FallBack(start, end, note))
    return out


def _turned(v: table.Point, radians: float) -> table.Point:
    """``v`` turned by ``radians`` (positive: from +x towards +y, as table angles grow)."""
    c, s = math.cos(radians), math.sin(radians)
    return (v[0] * c - v[1] * s, v[0] * s + v[1] * c)


def _escape(
    value: float, spans: list[tuple[float, float]], margin: float, sign: float = 1.0
) -> float:
    """The nearest value from ``value`` going up (``sign`` 1) or down (-1) outside every open
    span ``(lo, hi)``, ``margin`` beyond the edge of the last span it leaves."""
    moved = True
    while moved:
        moved = False
        for lo, hi in spans:
            if lo < value < hi:
                value, moved = (hi + margin if sign > 0 else lo - margin), True
    return value


def _names_near(point: table.Point, others: dict[str, table.Point]) -> str:
    """The bases a base at ``point`` would overlap, as ``O1's base`` or ``O1 and A2's bases``."""
    keys = [key for key, pos in others.items() if table.distance(point, pos) < CLEAR]
    return f"{keys[0]}'s base" if len(keys) == 1 else f"{' and '.join(keys)}'s bases"


def _reachable(state: RaidState, unit: UnitState, end: table.Point) -> bool:
    """Whether the base can go straight from where it is to ``end`` unstopped."""
    _, why = _first_block(state, unit, unit.pos, end)
    return why is None


def _short(
    state: RaidState, unit: UnitState, goal: table.Point, t: float, why: str | None,
    others: dict[str, table.Point],
) -> FallBack:
    """The fall-back cut short at fraction ``t`` of the 3" line, ending clear of every base."""
    start = unit.pos
    span = table.distance(start, goal)
    end = table.lerp(start, goal, max(0.0, t - BACK_OFF / span)) if why else goal
    path, blocker = table.clear_end([start, end], others, CLEAR)
    note = f'short of 3", {why or "with no clear ground 3 inches away"}'
    if blocker is not None:
        note += f", then back clear of {blocker}'s base (bases never overlap)"
    return FallBack(start, path[-1], note)
