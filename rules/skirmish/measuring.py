"""The tape measure: distance, line of sight, cover and what a shot would need (read-only)."""

from __future__ import annotations

from rules.core import table
from rules.core.contract import Event
from rules.core.errors import RuleError
from rules.skirmish import fire, terrain
from rules.skirmish.play import place_of
from rules.skirmish.state import SkirmishState


def measure(state: SkirmishState, side: str, team_id: str, to: str) -> list[Event]:
    """Measure from a team to a place or a team; nothing changes."""
    team = state.team(team_id)
    if not team.alive:
        raise RuleError(f"{team.id} is no longer on the table.")
    point = place_of(state, to, team.pos)
    span = table.distance(team.pos, point)
    sight = terrain.line_of_sight(state, team.pos, point)
    parts = [f"{team.id} → {to}: {table.inches(span)}", "in sight" if sight else "no line of sight"]
    if not table.on_table(point, state.table.width, state.table.height):
        parts[1] = f"off the {state.table.width:g}\"x{state.table.height:g}\" table"
    target = next((t for t in state.teams() if t.id.casefold() == to.strip().casefold()), None)
    if target is not None:
        cover = terrain.team_cover(state, target, team.pos)
        parts.append(f"cover {cover}")
        enemy = state.unit_of(target)
        if enemy.side != state.unit_of(team).side:
            lines = [fire.shot_line(state, team, enemy, w) for w in team.weapons]
            good = {x.weapon: x for x in lines if isinstance(x, fire.ShotLine)}
            best = good.get(fire.best_weapon(state, team, enemy))  # the weapon it would fire
            parts.append(f"can fire ({best.weapon}{', long range' if best.long else ''})"
                         if best else str(lines[0]))
    return [Event(kind="measure", text=" · ".join(parts) + " (Firing)", rule="Firing")]
