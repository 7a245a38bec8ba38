"""Barrage and smoke orders, and the opponent's move of a missed template (Indirect Fire)."""

from __future__ import annotations

from collections.abc import Iterator

from rules.core import table
from rules.core.errors import RuleError
from rules.core.orders import Ctx, order
from rules.core.views import Mark
from rules.skirmish import barrage, flow, prompts
from rules.skirmish.orders import Barrage, Smoke
from rules.skirmish.places import place_of
from rules.skirmish.play import active_unit, open_step, point_text
from rules.skirmish.state import Pending, SkirmishState, TeamState, UnitState, other

RULE = "Indirect Fire"


def firing_guns(state: SkirmishState, unit: UnitState, point: table.Point) -> list[TeamState]:
    """The unit's guns that reach ``point`` (range, arc, obstacle height) and have not moved."""
    return [g for g in barrage.barrage_guns(state, unit)
            if not g.moved and not g.fired_initiative and barrage.reaches(state, g, point) is None]


def barrage_problem(state: SkirmishState, unit: UnitState, point: table.Point, step: str) -> str | None:
    """Why a barrage or smoke at ``point`` is refused, or None."""
    why = open_step(unit, step)
    if why:
        return why
    guns = barrage.barrage_guns(state, unit)
    reach = firing_guns(state, unit, point)
    if len(reach) < 2:
        reasons = [barrage.reaches(state, g, point) or f"{g.id} has moved or fired" for g in guns]
        detail = "; ".join(r for r in reasons if r)[:160]
        return f"At least two guns must reach the target; {len(reach)} {'does' if len(reach) == 1 else 'do'}. {detail} ({RULE})."
    if barrage.observer(state, unit, point) is None:
        return (f"No observer sees {point[0]:.0f},{point[1]:.0f}: a gun, the PL, the FO or the CC "
                f"must see it and not have moved ({RULE}).")
    return None


def _on_enemy_teams(state: SkirmishState, side: str, step: str) -> Iterator[TeamState]:
    """The enemy teams the active unit may range in on now for ``step`` (barrage or smoke):
    the offers of both, checked as the resolvers check them."""
    unit = active_unit(state)
    if unit is None or open_step(unit, step):
        return
    for team in state.teams(other(side)):
        if barrage_problem(state, unit, team.pos, step) is None:
            yield team


def barrage_offers(state: SkirmishState, side: str) -> Iterator[Barrage]:
    """Range in on each enemy team the unit can reach and observe."""
    for team in _on_enemy_teams(state, side, "barrage"):
        yield Barrage(target=team.id)


@order(Barrage, phases="orders", offers=barrage_offers)
def fire_barrage(ctx: Ctx[SkirmishState], order: Barrage) -> None:
    """Indirect Fire: range in on an enemy team; on target the barrage falls, else the
    opponent moves it."""
    state = ctx.state
    unit = state.unit(state.active or "")
    target = state.team(order.target)
    if state.unit_of(target).side == ctx.side or not target.alive:
        raise RuleError(f"{target.id} is not an enemy team on the table: \"The Observer or PL must "
                        f"choose a Team on which to range in\" ({RULE}).")
    why = barrage_problem(state, unit, target.pos, "barrage")
    if why:
        raise RuleError(why)
    spotter = barrage.observer(state, unit, target.pos)
    assert spotter is not None
    ranging = barrage.range_in(state, unit, spotter, target, target.pos, ctx.dice)
    ctx.extend(ranging.events)
    _after_ranging(ctx, unit, ranging, smoke=False, spotter=spotter)


def smoke_offers(state: SkirmishState, side: str) -> Iterator[Smoke]:
    """Smoke on enemy teams' places the unit can reach and observe."""
    for team in _on_enemy_teams(state, side, "smoke"):
        yield Smoke(at=point_text(team.pos))


@order(Smoke, phases="orders", offers=smoke_offers)
def fire_smoke(ctx: Ctx[SkirmishState], order: Smoke) -> None:
    """Smoke: range in on a place and lay smoke there (or where the opponent moves it)."""
    state = ctx.state
    unit = state.unit(state.active or "")
    point = place_of(state, order.at, None)
    why = barrage_problem(state, unit, point, "smoke")
    if why:
        raise RuleError(why)
    spotter = barrage.observer(state, unit, point)
    assert spotter is not None
    ranging = barrage.range_in(state, unit, spotter, None, point, ctx.dice)
    ctx.extend(ranging.events)
    _after_ranging(ctx, unit, ranging, smoke=True, spotter=spotter)


def _after_ranging(ctx: Ctx[SkirmishState], unit: UnitState, ranging: barrage.Ranging, smoke: bool,
                   spotter: TeamState) -> None:
    state = ctx.state
    unit.steps = []
    if ranging.hit:
        land(ctx, unit, ranging.centre, ranging.aim, smoke, spotter)
        return
    state.pending = Pending(kind="drift", side=other(unit.side), unit=unit.id,
                            centre=ranging.centre, aim=ranging.aim, smoke=smoke, team=spotter.id)
    state.phase = "decide"
    ctx.say("ask", f"The {'smoke' if smoke else 'barrage'} missed: the template is at "
                   f"{point_text(ranging.centre)}; move it up to 6\" ({prompts.answer('place', to='x,y')}) "
                   f"or leave it there ({prompts.answer('leave')}) ({RULE})", RULE)


def land(ctx: Ctx[SkirmishState], unit: UnitState, centre: table.Point, aim: table.Point, smoke: bool,
         spotter: TeamState) -> None:
    """The template falls at ``centre``: smoke is laid, or the barrage rolls (observed by
    ``spotter``); activation ends."""
    state = ctx.state
    square = barrage.template(centre, aim)
    state.templates.append(list(square.points))
    state.marks.append(Mark(kind="blast", points=[centre], text="smoke" if smoke else "barrage",
                            side=unit.side, by=[g.id for g in barrage.barrage_guns(state, unit)]))
    if smoke:
        ctx.extend([barrage.lay_smoke(state, unit, centre, aim)])
    else:
        ctx.extend(barrage.fire_barrage(state, unit, centre, aim, ctx.dice, spotter))
    state.pending = None
    state.phase = "orders"
    ctx.extend(flow.end_activation(state, ctx.dice))
    ctx.snapshot = True


def drift(ctx: Ctx[SkirmishState], to: str | None) -> None:
    """The opponent's answer to a miss: move the template up to 6" (or leave it)."""
    state = ctx.state
    pending = state.pending
    assert pending is not None and pending.centre is not None and pending.aim is not None
    centre = pending.centre
    if to:
        centre = barrage.drift(centre, place_of(state, to, centre))
    verb = "is moved to" if to else "stays at"
    ctx.say("drift", f"The template {verb} {point_text(centre)} ({RULE})", RULE)
    unit = state.unit(pending.unit or "")
    # the observer who ranged in (a game saved before it was kept: the same one, found again)
    spotter = state.team(pending.team) if pending.team else barrage.observer(state, unit, pending.centre)
    assert spotter is not None
    land(ctx, unit, centre, pending.aim, pending.smoke, spotter)


def drift_spots(state: SkirmishState) -> list[str]:
    """Places the opponent may move a missed template to (a sample of 6" moves)."""
    pending = state.pending
    if pending is None or pending.centre is None:
        return []
    out = []
    for angle in range(0, 360, 45):
        p = table.add(pending.centre, table.scale(table.unit_vector(angle), 6.0))
        p = table.clamp_to_table(p, state.table.width, state.table.height)
        if not table.beyond(table.distance(p, pending.centre), 6.0):
            out.append(point_text(p))
    return out
