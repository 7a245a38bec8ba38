"""The tape measure: distance, line of sight, cover and what a shot would need (read-only)."""

from __future__ import annotations

from collections.abc import Iterator

from rules.core import table
from rules.core.errors import RuleError
from rules.core.orders import Ctx, order
from rules.skirmish import fire, terrain
from rules.skirmish.orders import Measure
from rules.skirmish.places import place_of
from rules.skirmish.state import SkirmishState, other


def measure_offers(state: SkirmishState, side: str) -> Iterator[Measure]:
    """From each of your teams to the nearest enemy team."""
    enemies = [(e.id, e.x, e.y) for e in state.teams(other(side))]
    if not enemies:
        return
    for team in state.teams(side)[:6]:
        # squared distances suffice to find the nearest (asked at every step of a game)
        near = min(enemies, key=lambda e: (e[1] - team.x) ** 2 + (e[2] - team.y) ** 2)
        yield Measure.model_construct(team=team.id, to=near[0])  # our own ids: no validation


@order(Measure, offers=measure_offers)
def measure(ctx: Ctx[SkirmishState], order: Measure) -> None:
    """Firing: measure from a team to a place or a team; nothing changes (read-only)."""
    state, to = ctx.state, order.to
    team = state.team(order.team)
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
            if best is None:  # the refusal ends with the rule that refuses the shot
                ctx.say("measure", " · ".join(parts), "Firing")
                return
    ctx.say("measure", " · ".join(parts) + " (Firing)", "Firing")
