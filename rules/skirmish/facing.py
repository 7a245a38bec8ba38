"""What a team's facing leaves it able to fire at, told before and after a move (Firing).

"Guns and Tanks may only fire at targets within their forward 180 degree arc ... To fire
outside this arc would first require a Move action to rotate the firing Team", and a move
turns the team (and a tank's turret) the way it went (Moving).  A player who moves a gun or
a tank so that every enemy it could reach falls outside its arc is told so, with the turn
that would keep one in it.
"""

from __future__ import annotations

from rules.core import table
from rules.skirmish import fire
from rules.skirmish.state import SkirmishState, TeamState, other


def after_move(team: TeamState, end: table.Point, face: float | None = None) -> TeamState:
    """A copy of ``team`` where a move to ``end`` leaves it: there, facing the way it went
    (or ``face``), a tank's turret with it."""
    way = table.angle_of(table.sub(end, team.pos)) if table.distance(team.pos, end) > 1e-6 else team.facing
    turned = face if face is not None else way
    return team.model_copy(update={"x": end[0], "y": end[1], "facing": turned,
                                   "turret": turned if team.kind == "tank" else team.turret})


def arc_warning(state: SkirmishState, team: TeamState, planned: bool = False) -> str | None:
    """Why ``team``, as it stands (``planned``: as a move would leave it), cannot fire at any
    enemy it sees within reach because they are all outside its forward arc, with the turn
    that would bring the nearest in; None when it can, sees none, or fires all round."""
    arc = fire.arc_of(team)
    if arc >= 360.0:
        return None
    far = max(fire.reach(state.table.weapon(w)) for w in team.weapons)
    near = [e for e in state.teams(other(state.unit_of(team).side))
            if not table.beyond(table.distance(team.pos, e.pos), far) and fire.sees(state, team, e)]
    if not near or any(table.in_arc(team.pos, fire.facing_for_fire(team), arc, e.pos) for e in near):
        return None
    first = min(near, key=lambda e: table.distance(team.pos, e.pos))
    turn = table.compass_name(table.angle_of(table.sub(first.pos, team.pos)))
    units = sorted({state.unit_of(e).id for e in near})
    how = f"turret:{turn}" if team.kind == "tank" else f"face:{turn}"
    verb, fix = ("would face", f"add {how}") if planned else ("faces", f"a Move with {how} turns it")
    return (f"⚠ {team.id} {verb} {table.compass_name(fire.facing_for_fire(team))}: "
            f"{', '.join(units)} out of its forward arc, so it cannot fire; {fix} (Firing)")
