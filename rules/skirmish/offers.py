"""The legal orders now, for each order: written with the same ``*_problem`` checks the
resolvers raise on, so autocomplete and the random-legal playouts never offer a refused order.

Places are not finite: a move offers a sample (towards the nearest enemy, away, to the flanks,
the whole unit the same), each one checked exactly as the order would be.
"""

from __future__ import annotations

from collections.abc import Iterator

from rules.core import table
from rules.core.errors import RuleError
from rules.skirmish import artillery, decisions, leaders, losses, melee, play, prompts, volleys
from rules.skirmish.orders import (
    Activate, Appoint, Assault, Barrage, Choose, Decide, Defaults, Done, Fire, Measure, Move,
    Reroll, Shift, Smoke,
)
from rules.skirmish.state import SkirmishState, TeamState, UnitState, other


def _active(state: SkirmishState) -> UnitState | None:
    return state.unit(state.active) if state.active else None


def activate(state: SkirmishState, side: str) -> Iterator[Activate]:
    """Units of ``side`` that have not acted."""
    for unit in state.live(side):
        if play.activate_problem(state, side, unit.id) is None:
            yield Activate(unit=unit.id)


def reroll(state: SkirmishState, side: str) -> Iterator[Reroll]:
    """The CC's reroll of a failed check."""
    if play.reroll_problem(state, side) is None:
        yield Reroll()


def choose(state: SkirmishState, side: str) -> Iterator[Choose]:
    """The actions open to the active unit."""
    if state.active:
        for kind in play.allowed_actions(state):
            yield Choose(kind=kind)  # type: ignore[arg-type]


def _fmt(p: table.Point) -> str:
    return f"{p[0]:.1f},{p[1]:.1f}"


#: The sampled moves, as (towards what, turn from it, share of the move): all the way to the
#: nearest enemy or to the objective, half way back, half way to a flank.  A whole-unit move
#: checks every team, so it is sampled less (the offers are most of a playout's time).
UNIT_SPOTS = (("enemy", 0, 1.0), ("enemy", 0, 0.5), ("enemy", 180, 0.5))
TEAM_SPOTS = (("enemy", 0, 1.0), ("enemy", 0, 0.5), ("enemy", 180, 0.5), ("enemy", 90, 0.5))


def _spots(state: SkirmishState, team: TeamState, room: float,
           shares: tuple[tuple[str, int, float], ...]) -> list[table.Point]:
    enemies = state.teams(other(state.unit_of(team).side))
    near = min(enemies, key=lambda e: table.distance(team.pos, e.pos), default=None)
    goal = {p.id: (p.x, p.y) for p in state.table.points}.get(state.table.victory.objective)
    heading = {
        "enemy": table.angle_of(table.sub(near.pos, team.pos)) if near else 270.0,
        "objective": table.angle_of(table.sub(goal, team.pos)) if goal else 270.0,
    }
    out = []
    for towards, turn, share in shares:
        reach = room * share - 0.05
        if towards == "objective" and goal is not None:
            reach = min(reach, table.distance(team.pos, goal) - 0.05)
            if reach < 0.5:
                continue
        step = table.scale(table.unit_vector(heading[towards] + turn), reach)
        out.append(table.add(team.pos, step))
    return out


def move(state: SkirmishState, side: str) -> Iterator[Move]:
    """A sample of moves of each team (and of the whole unit), each one checked."""
    unit = _active(state)
    if unit is None or not unit.alive_teams:
        return
    whos = [unit.id] + [t.id for t in unit.alive_teams]
    if play.open_step(unit, "move"):
        whos = [t.id for t in unit.alive_teams if t.role == "fo"]  # FOs act on their own
    for who in whos:
        team = (unit.pl or unit.alive_teams[0]) if who == unit.id else state.team(who)
        room = play.budget(unit, team)
        if room < 0.5:  # the sample skips crumbs of a move (a player may still type them)
            continue
        for spot in _spots(state, team, room, UNIT_SPOTS if who == unit.id else TEAM_SPOTS):
            # Built without validation: the values are our own (most samples are refused,
            # and validating each one was a tenth of a playout's time).
            order = Move.model_construct(who=who, to=_fmt(spot))
            try:
                play.plan_move(state, unit, order)
            except RuleError:
                continue
            yield order


def fire(state: SkirmishState, side: str) -> Iterator[Fire]:
    """Fire at each enemy unit some team can hit."""
    unit = _active(state)
    if unit is None:
        return
    for enemy in state.live(other(side)):
        order = Fire(target=enemy.id)
        if play.fire_problem(state, unit, order, side) is None:
            yield order


def assault(state: SkirmishState, side: str) -> Iterator[Assault]:
    """Assault each enemy unit within reach (no team staying)."""
    unit = _active(state)
    if unit is None:
        return
    for enemy in state.live(other(side)):
        order = Assault(target=enemy.id)
        if melee.assault_problem(state, unit, order, side) is None:
            yield order


def barrage(state: SkirmishState, side: str) -> Iterator[Barrage]:
    """Range in on each enemy team the unit can reach and observe."""
    unit = _active(state)
    if unit is None or play.open_step(unit, "barrage"):
        return
    for team in state.teams(other(side)):
        if artillery.barrage_problem(state, unit, team.pos, "barrage") is None:
            yield Barrage(target=team.id)


def smoke(state: SkirmishState, side: str) -> Iterator[Smoke]:
    """Smoke on enemy teams' places the unit can reach and observe."""
    unit = _active(state)
    if unit is None or play.open_step(unit, "smoke"):
        return
    for team in state.teams(other(side)):
        if artillery.barrage_problem(state, unit, team.pos, "smoke") is None:
            yield Smoke(at=_fmt(team.pos))


def _leader_for(state: SkirmishState, side: str, team: TeamState) -> TeamState | None:
    unit = state.unit_of(team)
    candidates = [unit.pl, play.cc_of(state, side)]
    for leader in candidates:
        if leader is None:
            continue
        try:
            leaders.check_leader(state, leader, team)
        except RuleError:
            continue
        return leader
    return None


def shift(state: SkirmishState, side: str) -> Iterator[Shift]:
    """Suppression a leader within 2" may move to another team of the unit."""
    if state.initiative != side or state.pending:
        return
    for team in state.teams(side):
        if team.suppression and _leader_for(state, side, team):
            for dest in state.unit_of(team).alive_teams:
                if dest.id != team.id:
                    yield Shift(source=team.id, to=dest.id)
                    break


def appoint(state: SkirmishState, side: str) -> Iterator[Appoint]:
    """Teams within 2" of the CC in units whose PL is dead."""
    cc = play.cc_of(state, side)
    if cc is None or cc.id in state.leader_used or state.initiative != side or state.pending:
        return
    for unit in state.live(side):
        if unit.pl is None:
            for team in unit.alive_teams:
                if leaders.near(state, cc, team):
                    yield Appoint(team=team.id)


def done(state: SkirmishState, side: str) -> Iterator[Done]:
    """End the activation."""
    if state.active:
        yield Done()


def decide(state: SkirmishState, side: str) -> Iterator[Decide]:
    """The answers to the question asked now."""
    pending = state.pending
    if pending is None or pending.side != side:
        return
    for choice in decisions.ANSWERS[pending.kind]:
        if pending.kind == "react" and choice == "fire":
            for unit in pending.options:
                yield Decide(choice="fire", unit=unit)
        elif pending.kind == "allocate" and pending.volley is not None:
            for first in volleys.allocation_choices(state, pending.volley):
                yield Decide(choice="allocate", teams=first)
        elif pending.kind == "losses":
            fight = state.assault
            if fight is not None:
                order = melee.loss_order(state, state.unit(fight.struck), fight.claims)
                for picked in losses.choices(fight.claims, order):
                    yield Decide(choice="remove", teams=prompts.team_list(picked))
        elif pending.kind == "reroll" and pending.check == "fight" and choice == "reroll":
            for team in pending.options:
                yield Decide(choice="reroll", teams=team)
        elif pending.kind == "drift" and choice == "place":
            for spot in artillery.drift_spots(state):
                yield Decide(choice="place", to=spot)
        else:
            yield Decide(choice=choice)  # type: ignore[arg-type]


def defaults(state: SkirmishState, side: str) -> Iterator[Defaults]:
    """Standing answers."""
    yield Defaults(reaction="ask", ground="ask", counter="ask", follow="ask", losses="ask",
                   allocate="ask", morale="ask", reroll="ask")
    yield Defaults(reaction="yes", ground="no", counter="yes", follow="yes", losses="auto",
                   allocate="auto", morale="yes", reroll="yes")
    leaders_ = [t.id for t in state.teams(side) if t.leader]
    yield Defaults(protect=prompts.team_list(leaders_))


def measure(state: SkirmishState, side: str) -> Iterator[Measure]:
    """From each of your teams to the nearest enemy team."""
    enemies = [(e.id, e.x, e.y) for e in state.teams(other(side))]
    if not enemies:
        return
    for team in state.teams(side)[:6]:
        # squared distances suffice to find the nearest (asked at every step of a game)
        near = min(enemies, key=lambda e: (e[1] - team.x) ** 2 + (e[2] - team.y) ** 2)
        yield Measure.model_construct(team=team.id, to=near[0])  # our own ids: no validation
