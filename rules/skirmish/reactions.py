"""Reaction Fire, Overwatch and Going to Ground: what the other player may do, and doing it.

"Teams may fire at an enemy Unit moving within 8" of them, even if they are not on Overwatch,
at a +1 penalty To Hit. However, Teams may never fire more than once per Initiative."
Overwatch: the "Unit readies and may Fire at an enemy Unit moving through their field of fire".
"Before rolling To Hit, if the targeted Unit has not been activated, or is on Overwatch but has
not yet fired, it may declare that the Unit is Going to Ground. It then may not move or fire
for the rest of the turn, but its To Hit number is increased by 1."
"""

from __future__ import annotations

from rules.core import table
from rules.core.contract import Event
from rules.skirmish import fire
from rules.skirmish.state import SkirmishState, TeamState, UnitState, other

REACTION_RANGE = 8.0


def _can_shoot(state: SkirmishState, team: TeamState, target: UnitState) -> bool:
    return any(isinstance(fire.shot_line(state, team, target, w), fire.ShotLine) for w in team.weapons)


#: Inches between the points of a move checked against an Overwatch field of fire (stand-in).
PATH_STEP = 0.5
#: Where the teams of a move started: team id -> its point before the move.
Paths = dict[str, tuple[float, float]]


def path_points(start: table.Point, end: table.Point) -> list[table.Point]:
    """The points of a straight move, every :data:`PATH_STEP` inches, both ends included."""
    span = table.distance(start, end)
    steps = max(1, int(span / PATH_STEP + 0.999))
    return [table.lerp(start, end, i / steps) for i in range(steps + 1)]


def _fires_at(state: SkirmishState, shooter: TeamState, point: table.Point,
              within: float | None) -> bool:
    """Whether ``shooter`` may fire at a team at ``point``: in its field of fire (Overwatch)
    and, with ``within``, no farther than that (Reaction Fire: "moving within 8" of them")."""
    near = within is None or not table.beyond(table.distance(shooter.pos, point), within)
    return near and fire.covers(state, shooter, point)


def crossing(state: SkirmishState, shooters: list[TeamState], team: TeamState,
             start: table.Point, within: float | None = None) -> table.Point | None:
    """The first point of ``team``'s move from ``start`` (every ½") where one of ``shooters``
    may fire at it (:func:`_fires_at`), or None."""
    for point in path_points(start, team.pos):
        if any(_fires_at(state, s, point, within) for s in shooters):
            return point
    return None


def _reach(unit: UnitState) -> float | None:
    """How close a move must come to be fired on: Overwatch anywhere in the field of fire,
    Reaction Fire within 8"."""
    return None if unit.overwatch else REACTION_RANGE


def reacting_teams(state: SkirmishState, unit: UnitState, mover: UnitState,
                   moved: list[TeamState], paths: Paths | None = None) -> list[TeamState]:
    """Teams of ``unit`` that may fire at ``mover`` now: on Overwatch, at a mover seen where
    it stands or anywhere along its move (``paths``); else within 8" where it stands or at
    some point of its move (Reaction Fire)."""
    # A unit Gone to Ground "may still fire Reaction Fire" (its firing teams lose it).
    out = []
    for team in unit.alive_teams:
        if team.suppression or team.fired_initiative:
            continue
        close = any(
            not table.beyond(table.distance(team.pos, m.pos), REACTION_RANGE) for m in moved
        )
        if (unit.overwatch or close) and _can_shoot(state, team, mover):
            out.append(team)
        elif paths and any(
            crossing(state, [team], m, paths[m.id], _reach(unit)) is not None
            for m in moved if m.id in paths
        ):
            out.append(team)
    return out


def reactors(state: SkirmishState, mover: UnitState, moved: list[TeamState],
             paths: Paths | None = None) -> list[str]:
    """Enemy units with at least one team that may fire at the moving unit."""
    return [
        u.id for u in state.live(other(mover.side))
        if reacting_teams(state, u, mover, moved, paths)
    ]


def fired_points(state: SkirmishState, unit: UnitState, shooters: list[TeamState],
                 moved: list[TeamState], paths: Paths | None) -> Paths:
    """Where each moved team is fired on: the first point of its move (every ½") where one of
    ``shooters`` may fire at it, else where it stands."""
    points: Paths = {}
    for team in moved:
        start = (paths or {}).get(team.id)
        point = crossing(state, shooters, team, start, _reach(unit)) if start else None
        points[team.id] = point or team.pos
    return points


def firing_teams(state: SkirmishState, unit: UnitState, shooters: list[TeamState],
                 points: Paths) -> list[TeamState]:
    """The ``shooters`` that may fire at a moved team where it is fired on: within 8" of it
    (Reaction Fire) or with it in their field of fire (Overwatch).  With no moved team on the
    table (none to measure to) every one of ``shooters`` may."""
    if not points:
        return shooters
    return [s for s in shooters if any(_fires_at(state, s, p, _reach(unit)) for p in points.values())]


def take_aim(state: SkirmishState, unit: UnitState, mover: UnitState, moved: list[TeamState],
             paths: Paths | None = None) -> tuple[list[TeamState], list[Event], Paths]:
    """The unit's teams that fire at the mover and the moved teams put where they are fired
    on: ``(shooters, events, where the moved teams really stand)``.

    The fire at a unit "moving through their field of fire" (Overwatch) or "moving within 8"
    of them" (Reaction Fire) is resolved with each moved team at the first point of its move
    (every ½") where it was so; survivors then go on to where they stopped (:func:`put_back`):
    the text does not stop a unit fired on.  A team with no moved team within 8" of it (in its
    field of fire) there does not fire, saying so."""
    shooters = reacting_teams(state, unit, mover, moved, paths)
    kind = kind_of(unit)
    events = [Event(kind="react", rule=kind, text=f"{unit.id} fires {kind} at {mover.id} ({kind})")]
    ends: Paths = {}
    points = fired_points(state, unit, shooters, [t for t in moved if t.alive], paths)
    for team_id, point in points.items():
        team = state.team(team_id)
        if table.distance(point, team.pos) > 0.05:
            ends[team.id] = team.pos
            team.x, team.y = point
            where = "crossed the field of fire" if unit.overwatch else "came within 8\""
            events.append(Event(kind="react", rule=kind, text=(
                f"{team.id} is fired on where it {where}, {point[0]:.1f},{point[1]:.1f} ({kind})")))
    firing = firing_teams(state, unit, shooters, points)
    events.extend(_left_out(state, [s for s in shooters if s not in firing], points, unit))
    return firing, events, ends


def kind_of(unit: UnitState) -> str:
    """Overwatch for a unit on Overwatch, else Reaction Fire."""
    return "Overwatch" if unit.overwatch else "Reaction Fire"


def _nearest(team: TeamState, points: Paths) -> float:
    """Inches from ``team`` to the nearest moved team where it is fired on."""
    return table.measured(min(table.distance(team.pos, p) for p in points.values()))


def _left_out(state: SkirmishState, teams: list[TeamState], points: Paths,
              unit: UnitState) -> list[Event]:
    """Why each of ``teams`` does not fire: no moved team where it is fired on is within 8"
    of it (Reaction Fire) or in its field of fire (Overwatch)."""
    kind = kind_of(unit)
    where = "in its field of fire" if unit.overwatch else "within 8\" of it"
    return [Event(kind="react", rule=kind, text=(
        f"{team.id} does not fire: no moving team is {where} where they are fired on "
        f"(nearest {_nearest(team, points):.1f}\") ({kind})")) for team in teams]


def offer_text(state: SkirmishState, unit: UnitState, mover: UnitState, moved: list[TeamState],
               paths: Paths | None) -> str:
    """What a unit offered Reaction or Overwatch fire would fire, for the question: e.g.
    ``gren: Reaction Fire (+1 To Hit), g1 7.8"``."""
    shooters = reacting_teams(state, unit, mover, moved, paths)
    points = fired_points(state, unit, shooters, moved, paths)
    teams = firing_teams(state, unit, shooters, points) or shooters
    mods = [] if unit.overwatch else ["+1 To Hit"]
    if any(fire.unit_moved(state, t) for t in unit.alive_teams):
        mods.append("+1 moved")  # "Firing Unit Moved", the unit's (README)
    how = ("Overwatch" if unit.overwatch else "Reaction Fire") + (f" ({', '.join(mods)})" if mods else "")
    shown = ", ".join(t.id + (f" {_nearest(t, points):.1f}\"" if points else "") for t in teams)
    return f"{unit.id}: {how}, {shown}"


def how_fired(unit: UnitState) -> fire.Fire:
    """Overwatch fires without, Reaction Fire with, the +1; either way Overwatch is spent."""
    how = fire.Fire(reaction=not unit.overwatch)
    unit.overwatch = False
    return how


def put_back(state: SkirmishState, ends: Paths) -> None:
    """The moved teams fired on along their move stand where they stopped again."""
    for team_id, end in ends.items():
        team = state.team(team_id)
        team.x, team.y = end


def may_go_to_ground(unit: UnitState) -> bool:
    """Not yet activated, or on Overwatch and not yet fired; not already Gone to Ground."""
    return not unit.gone_to_ground and (not unit.activated or unit.overwatch)


def go_to_ground(unit: UnitState) -> Event:
    """Declare Going to Ground: no move or fire for the rest of the turn, +1 To Hit."""
    unit.gone_to_ground = True
    unit.activated = True  # "may not move or fire for the rest of the turn"
    unit.overwatch = False
    return Event(kind="ground", rule="Gone to Ground",
                 text=f"{unit.id} goes to ground: +1 To Hit, no move or fire this turn (Gone to Ground)")
