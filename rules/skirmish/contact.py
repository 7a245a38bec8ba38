"""Where a charging team goes: a free place in base to base contact, or as close as it gets.

Assaults: "Teams that did not fire may Move up to 12" as to be in base to base contact with
the assaulted Unit, or as close as possible", and for the counter-attack "move any Teams not
in base to base contact up to 4", as to be in base contact or as close as possible".

A contact place is a spot touching an enemy base that no other base stands on, on the table,
reached by a straight move or by one turn round a base in the way, without the moving base
passing through any other base (friend or enemy).  When no such place is within the move,
the team goes as near to the assaulted unit as it can and says what stopped it.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field

from rules.core import table
from rules.skirmish.state import SkirmishState, TeamState, other

#: Contact places tried round each enemy base (every 10 degrees, plus the one facing us).
SPOTS = 36
#: How far outside touching a turning point or a stop against a base stays (inches).
SPARE = 0.02


@dataclass(frozen=True)
class Approach:
    """One team's charge: its path (start, perhaps a turn, end), the enemy team it heads for,
    the edge gap left to the nearest enemy base (0 in contact), and what stopped it short:
    ``""`` (in contact), ``"reach"`` (out of its move), ``"full"`` (no free place beside the
    enemy), ``"way"`` (no clear way closer) or the id of the base in its way; ``around``:
    the base it went round on the way into contact."""

    path: tuple[table.Point, ...]
    enemy: str
    gap: float
    stopped: str = ""
    around: str = ""

    @property
    def end(self) -> table.Point:
        """Where the team stops."""
        return self.path[-1]

    @property
    def length(self) -> float:
        """How far it moves."""
        return table.path_length(self.path)


@dataclass(frozen=True)
class _Board:
    """The bases a charging team must not pass through or stop on, and the table's size."""

    radius: float
    width: float
    height: float
    shapes: dict[str, table.Circle]
    #: The other bases' centres, taken once: :meth:`free` is asked for every spot round every
    #: enemy base (a fifth of a skirmish game's time went to its loop over the shapes).
    centres: tuple[table.Point, ...] = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "centres", tuple(c.centre for c in self.shapes.values()))

    def free(self, p: table.Point) -> bool:
        """Whether a base centred on ``p`` is on the table and on no other base."""
        r = self.radius
        if not table.on_table(p, self.width, self.height, r):
            return False
        limit, (x, y), hypot = 2 * r - table.EPS, p, math.hypot
        # table.distance's very sum, so a spot is free exactly as before.
        for cx, cy in self.centres:
            if hypot(x - cx, y - cy) < limit:
                return False
        return True

    def block(self, a: table.Point, b: table.Point) -> table.Contact | None:
        """The first base the moving base would go through on ``a -> b``, if any."""
        return table.first_contact_among(a, b, self.shapes, self.radius)


def _board(state: SkirmishState, team: TeamState) -> _Board:
    """Every other team's base as an obstacle (a hair smaller, so touching is not passing)."""
    r = state.table.base_radius
    shapes = {t.id: table.Circle(t.pos, r - 1e-3) for t in state.teams() if t.id != team.id}
    return _Board(r, state.table.width, state.table.height, shapes)


def _spots(
    board: _Board, team: TeamState, enemies: list[TeamState], taken: bool = False
) -> Iterator[tuple[table.Point, str]]:
    """Every free contact place round the enemy bases (``taken``: the occupied ones too),
    with the enemy it touches."""
    gap = 2 * board.radius
    for enemy in enemies:
        facing = table.angle_of(table.sub(team.pos, enemy.pos))
        for angle in [facing] + [i * 360.0 / SPOTS for i in range(SPOTS)]:
            spot = table.add(enemy.pos, table.scale(table.unit_vector(angle), gap))
            if board.free(spot) or (taken and table.on_table(spot, board.width, board.height)):
                yield spot, enemy.id


def _turns(board: _Board, blocker: str, start: table.Point, spot: table.Point) -> Iterator[table.Point]:
    """The corners of the shortest ways round the base ``blocker`` from ``start`` to ``spot``:
    where a tangent from each end to the circle a moving base must stay outside meets the
    other (both sides tried)."""
    centre = board.shapes[blocker].centre
    ring = 2 * board.radius + SPARE
    ends = []
    for p in (start, spot):
        span = table.distance(p, centre)
        bearing = table.angle_of(table.sub(p, centre))
        spread = math.degrees(math.acos(min(1.0, ring / max(span, table.EPS))))
        ends.append((bearing - spread, bearing + spread))
    for a in ends[0]:
        for b in ends[1]:
            half = ((b - a + 180.0) % 360.0 - 180.0) / 2.0
            if abs(half) >= 89.0:
                continue  # the two tangents (nearly) never meet on this side
            turn = table.add(centre, table.scale(table.unit_vector(a + half), ring / math.cos(math.radians(half))))
            if board.free(turn):
                yield turn


def _route(
    board: _Board, start: table.Point, spot: table.Point, reach: float
) -> tuple[tuple[table.Point, ...] | None, str]:
    """The shortest clear path to ``spot`` within ``reach`` (None if there is none):
    straight, or with one turn round the base in the way (its id comes second)."""
    hit = board.block(start, spot)
    if hit is None:
        return (start, spot), ""
    best: tuple[table.Point, ...] | None = None
    for turn in _turns(board, hit.key, start, spot):
        span = table.distance(start, turn) + table.distance(turn, spot)
        if span > reach + table.EPS or (best is not None and span >= table.path_length(best)):
            continue
        if board.block(start, turn) is None and board.block(turn, spot) is None:
            best = (start, turn, spot)
    return best, hit.key


def _edge_gap(board: _Board, p: table.Point, enemies: list[TeamState]) -> float:
    """The gap from a base at ``p`` to the nearest enemy base (0 touching)."""
    near = min(table.distance(p, e.pos) for e in enemies)
    return max(0.0, table.measured(near - 2 * board.radius))


def _nearest(team: TeamState, enemies: list[TeamState]) -> TeamState:
    """The enemy team nearest ``team``."""
    return min(enemies, key=lambda e: table.distance(team.pos, e.pos))


def _in_contact(board: _Board, team: TeamState, enemies: list[TeamState], reach: float) -> Approach | None:
    """The shortest clear way into contact within ``reach``, or None."""
    spots = sorted(_spots(board, team, enemies), key=lambda s: table.distance(team.pos, s[0]))
    best: Approach | None = None
    for spot, enemy in spots:
        straight = table.distance(team.pos, spot)
        if straight > reach + table.EPS or (best is not None and straight >= best.length - table.EPS):
            break
        path, around = _route(board, team.pos, spot, reach)
        if path is not None and (best is None or table.path_length(path) < best.length - table.EPS):
            best = Approach(path=path, enemy=enemy, gap=0.0, around=around)
    return best


def _walk(board: _Board, path: tuple[table.Point, ...], reach: float) -> tuple[tuple[table.Point, ...], str]:
    """``path`` followed up to ``reach`` inches, stopping just short of the first base in
    its way: the part walked and what ended it (``"reach"``, a base's id, ``""`` at its end)."""
    out, left = [path[0]], reach
    for a, b in zip(path, path[1:]):
        span = table.distance(a, b)
        end, stopped = (b, "") if span <= left else (table.toward(a, b, left), "reach")
        hit = board.block(a, end)
        if hit is not None:
            back = max(0.0, hit.t - SPARE / max(table.distance(a, end), table.EPS))
            out.append(table.lerp(a, end, back))
            return tuple(out), hit.key
        out.append(end)
        left -= span
        if stopped:
            return tuple(out), stopped
    return tuple(out), ""


def _ways(board: _Board, start: table.Point, spot: table.Point) -> list[tuple[table.Point, ...]]:
    """Straight at ``spot``, and round the first base in the way on either side."""
    hit = board.block(start, spot)
    if hit is None:
        return [(start, spot)]
    return [(start, spot)] + [(start, turn, spot) for turn in _turns(board, hit.key, start, spot)]


def _short(board: _Board, team: TeamState, enemies: list[TeamState], reach: float) -> Approach:
    """As close as possible: at each contact place (taken or not), straight or round the
    base in the way, stopping at the end of the move or against a base, whichever leaves
    the smallest gap (of equal gaps, the shorter move)."""
    near = _nearest(team, enemies)
    free = any(True for _ in _spots(board, team, enemies))
    best = Approach(path=(team.pos,), enemy=near.id, gap=_edge_gap(board, team.pos, enemies),
                    stopped="way" if free else "full")
    for spot, enemy in _spots(board, team, enemies, taken=True):
        for way in _ways(board, team.pos, spot):
            path, stopped = _walk(board, way, reach)
            if not board.free(path[-1]):
                continue
            gap = _edge_gap(board, path[-1], enemies)
            if gap < best.gap - 0.01:
                best = Approach(path=path, enemy=enemy, gap=gap, stopped=stopped or "full")
    return best


def approach(state: SkirmishState, team: TeamState, enemies: list[TeamState], reach: float) -> Approach:
    """Where ``team`` goes moving up to ``reach`` to contact one of ``enemies`` (Assaults).

    Already touching an enemy base, it stays.  Otherwise the nearest free contact place it
    can reach wins; failing that, it stops as close as it can get."""
    board = _board(state, team)
    if _edge_gap(board, team.pos, enemies) <= 0.05:
        return Approach(path=(team.pos,), enemy=_nearest(team, enemies).id, gap=0.0)
    found = _in_contact(board, team, enemies, reach)
    return found if found is not None else _short(board, team, enemies, reach)


def can_reach(state: SkirmishState, team: TeamState, enemies: list[TeamState], reach: float) -> bool:
    """Whether ``team`` could move into base to base contact with one of ``enemies``."""
    if not enemies:
        return False
    board = _board(state, team)
    return _edge_gap(board, team.pos, enemies) <= 0.05 or _in_contact(board, team, enemies, reach) is not None


def anyone_in_reach(state: SkirmishState, side: str, teams: list[TeamState], reach: float) -> bool:
    """Whether one of ``teams`` (of ``side``) could charge into contact with some enemy unit:
    Gun teams stay behind and "Tank Teams my not assault Tank Teams" (Assaults)."""
    near_enough = reach + 2 * state.table.base_radius + 0.05
    for enemy in state.live(other(side)):
        all_tanks = all(t.kind == "tank" for t in enemy.alive_teams)
        for team in teams:
            if team.kind == "gun" or (all_tanks and team.kind == "tank"):
                continue
            if not any(table.distance(team.pos, e.pos) <= near_enough for e in enemy.alive_teams):
                continue
            if can_reach(state, team, enemy.alive_teams, reach):
                return True
    return False
