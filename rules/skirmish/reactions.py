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
from rules.core.dice import Dice
from rules.skirmish import fire
from rules.skirmish.state import SkirmishState, TeamState, UnitState, other

REACTION_RANGE = 8.0


def _can_shoot(state: SkirmishState, team: TeamState, target: UnitState) -> bool:
    return any(isinstance(fire.shot_line(state, team, target, w), fire.ShotLine) for w in team.weapons)


def reacting_teams(state: SkirmishState, unit: UnitState, mover: UnitState,
                   moved: list[TeamState]) -> list[TeamState]:
    """Teams of ``unit`` that may fire at ``mover`` now (Overwatch, or within 8")."""
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
    return out


def reactors(state: SkirmishState, mover: UnitState, moved: list[TeamState]) -> list[str]:
    """Enemy units with at least one team that may fire at the moving unit."""
    return [
        u.id for u in state.live(other(mover.side))
        if reacting_teams(state, u, mover, moved)
    ]


def react(state: SkirmishState, unit: UnitState, mover: UnitState, moved: list[TeamState],
          dice: Dice) -> fire.FireResult:
    """Fire the unit's eligible teams at the mover: Overwatch without, Reaction with, the +1."""
    shooters = reacting_teams(state, unit, mover, moved)
    overwatch = unit.overwatch
    kind = "Overwatch" if overwatch else "Reaction Fire"
    result = fire.resolve_fire(state, shooters, mover, dice, fire.Fire(reaction=not overwatch))
    unit.overwatch = False
    result.events.insert(0, Event(kind="react", rule=kind,
                                  text=f"{unit.id} fires {kind} at {mover.id} ({kind})"))
    return result


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
