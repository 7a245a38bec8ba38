"""Moving a team (Moving; Unit Cohesion; Leaders).

"Infantry teams may move up to 6", Gun teams 3", and Tank teams 12". Infantry teams move
through terrain and obstacles freely. Gun Teams cannot move through Very Difficult Terrain.
Tank teams must roll a 2+ when moving through Difficult Terrain, or a Training Check when moving
through Very Difficult Terrain. A failure in either causes the Team to become suppressed at the
point of contact with the terrain."  A move also turns the team ("To fire outside this arc would
first require a Move action to rotate the firing Team").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.core import table
from rules.core.contract import Event
from rules.core.dice import Dice
from rules.core.errors import RuleError
from rules.core.views import Mark
from rules.skirmish import cohesion, terrain
from rules.skirmish.state import SkirmishState, TeamState, other
from rules.skirmish.training import training_check

RULE = "Moving"
SPEED: dict[str, float] = {"infantry": 6.0, "gun": 3.0, "tank": 12.0}


@dataclass
class MoveResult:
    """What a move did: events, where it stopped, whether a terrain roll failed."""

    events: list[Event] = field(default_factory=list)
    end: table.Point = (0.0, 0.0)
    travelled: float = 0.0
    bogged: bool = False
    failed_check: bool = False  # the failed roll was a Training Check (Very Difficult)
    piece: str = ""  # the terrain piece it failed in


def check_place(state: SkirmishState, team: TeamState, end: table.Point, contact: bool,
                moving: frozenset[str] = frozenset()) -> None:
    """Refuse an end point off the table or on another base (enemy contact only in assaults).

    Teams in ``moving`` (moving in the same order) are checked at their new places instead.
    """
    scen = state.table
    r = scen.base_radius
    if not table.on_table(end, scen.width, scen.height, r):
        raise RuleError(f"{team.id} cannot leave the table; stay {r:g}\" in from the edges (Moving).")
    side = state.unit_of(team).side
    for unit in state.live():
        friend = unit.side == side
        for other in unit.alive_teams:
            if other.id == team.id or other.id in moving:
                continue
            gap = table.distance(end, other.pos)
            if gap < 2 * r - 1e-6 and (friend or not contact):
                raise RuleError(f"{team.id} cannot end on {other.id}'s base; stop short of it or "
                                f"go beside it (Moving).")
            if not friend and not contact and gap < 2 * r + 0.1:
                raise RuleError(
                    f"{team.id} may only move into contact with {other.id} by an Assault (Assaults)."
                )


def leaderless_towards_enemy(state: SkirmishState, team: TeamState, end: table.Point) -> str | None:
    """"Units without PLs may not move towards visible enemy" (Leaders): why not, or None."""
    unit = state.unit_of(team)
    if unit.pl is not None or team.role == "fo":
        return None
    seen = [e.pos for e in state.teams(other(unit.side))
            if terrain.line_of_sight(state, team.pos, e.pos)]
    if not seen:
        return None
    before = min(table.distance(team.pos, p) for p in seen)
    after = min(table.distance(end, p) for p in seen)
    if after < before - 0.05:
        return f"{unit.id} has no PL and may not move towards visible enemy (Leaders)."
    return None


def validate(state: SkirmishState, team: TeamState, end: table.Point, budget: float,
             contact: bool = False, moving: frozenset[str] = frozenset()) -> float:
    """Check a move of ``team`` to ``end`` within ``budget`` inches; returns its length."""
    span = table.measured(table.distance(team.pos, end))
    if span > budget + 1e-9 and budget < 0.05:
        raise RuleError(f"{team.id} has used all of its move this activation ({RULE}).")
    if span > budget + 1e-9:
        raise RuleError(
            f"{team.id}: {span:.1f}\" is too far; it may move {budget:.1f}\" now ({RULE})."
        )
    check_place(state, team, end, contact, moving)
    if team.kind == "gun":
        for going in terrain.going_along(state, team.pos, end):
            if going.going == "very_difficult":
                raise RuleError(
                    f"{team.id} is a Gun team and cannot move through {going.piece.name} "
                    f"(Very Difficult Terrain) ({RULE})."
                )
    why = leaderless_towards_enemy(state, team, end)
    if why:
        raise RuleError(why)
    unit = state.unit_of(team)
    why = cohesion.straight_back(unit, team, end, budget)
    if why:
        raise RuleError(why)
    return span


def move_team(
    state: SkirmishState, team: TeamState, end: table.Point, dice: Dice, budget: float,
    face: float | None = None, contact: bool = False, checked: bool = False,
    turret: float | None = None, through: str = "",
) -> MoveResult:
    """Move a team (validated first unless ``checked``); tanks roll for difficult ground.

    The hull (or gun, or team) faces the way it went, or ``face``; a tank's turret turns with
    it, or to ``turret`` on its own ("A tank's turret follows these same rules").  ``through``
    names a terrain piece already passed (a CC reroll), not rolled for again."""
    if not checked:
        validate(state, team, end, budget, contact)
    start = team.pos
    result = MoveResult(end=end)
    if team.kind == "tank":
        _tank_going(state, team, start, end, dice, result, through)
    travelled = table.distance(start, result.end)
    if travelled > 1e-6:
        team.facing = table.angle_of(table.sub(end, start))
        team.turret = team.facing if team.kind == "tank" else None
    if face is not None:
        team.facing = face
        if team.kind == "tank":
            team.turret = face
    if turret is not None and team.kind == "tank":
        team.turret = turret
    team.x, team.y = result.end
    team.moved = True
    result.travelled = travelled
    side = state.unit_of(team).side
    state.marks.append(Mark(kind="move", points=[start, result.end],
                            text=table.inches(travelled), side=side))
    verb = "stops" if result.bogged else "moves"
    text = (f"{team.id} {verb} {table.inches(travelled)} to {result.end[0]:.1f},"
            f"{result.end[1]:.1f}, facing {table.compass_name(team.facing)} ({RULE})")
    if travelled < 0.05 and not result.bogged:
        text = f"{team.id} turns to face {table.compass_name(team.facing)} ({RULE})"
    if turret is not None and team.kind == "tank":
        text = text[: -len(f" ({RULE})")] + f", turret {table.compass_name(team.turret_facing)} ({RULE})"
    result.events.append(Event(
        kind="move",
        text=text,
        rule=RULE,
        data={"team": team.id, "from": start, "to": result.end},
    ))
    return result


def _verdictless(line: str) -> str:
    """A check line without its own ``: passed`` / ``: failed`` (the caller says what followed)."""
    for verdict in (": passed", ": failed"):
        if line.endswith(verdict):
            return line[: -len(verdict)]
    return line


def _tank_going(
    state: SkirmishState, team: TeamState, start: table.Point, end: table.Point, dice: Dice,
    result: MoveResult, through: str = "",
) -> None:
    """Roll for each difficult piece on the way (``through``: a piece id not rolled again);
    a failure stops and suppresses the tank at the edge of the piece."""
    unit = state.unit_of(team)
    for going in terrain.going_along(state, start, end):
        if going.piece.id == through:
            continue
        if going.going == "difficult":
            die = dice.die(6, f"{team.id} difficult terrain")
            passed = die >= 2
            line = f"{team.id} enters {going.piece.name} (Difficult): 🎲{die} vs 2+"
        else:
            check = training_check(unit.training, dice, f"{team.id} very difficult terrain")
            passed = check.passed
            line = check.text(f"{team.id} enters {going.piece.name} (Very Difficult):")
        if passed:
            result.events.append(Event(kind="going", text=f"{_verdictless(line)}: passed, through ({RULE})",
                                       rule=RULE))
            continue
        stop = table.toward(start, going.at, max(0.0, going.along - state.table.base_radius))
        result.end, result.bogged = stop, True
        result.failed_check = going.going != "difficult"
        result.piece = going.piece.id
        team.suppression += 1
        result.events.append(Event(
            kind="going", text=f"{_verdictless(line)}: failed, suppressed at the edge ({RULE})", rule=RULE,
        ))
        return
