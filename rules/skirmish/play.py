"""Activating a unit and carrying out its action: check, choice, moves, fire, done (Actions).

Every order's resolver takes the resolution context (a private copy of the state, the side and
the dice) and the order, checks it with the ``*_problem`` helpers that its offers (the legal
orders now, ``*_offers``) use too, and changes the state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TypeVar

from rules.core import table
from rules.core.errors import RuleError
from rules.core.orders import Ctx, order
from rules.core.views import Mark
from rules.skirmish import (
    assault, cohesion, contact, facing, fire, flow, leaders, morale, movement, prompts, reactions, rerolls, suppression,
    volleys,
)
from rules.skirmish.barrage import barrage_guns
from rules.skirmish.places import place_of
from rules.skirmish.orders import Activate, Assault, Choose, Done, Fire, Move, Reroll
from rules.skirmish.state import (
    FAIL_ACTIONS, SUCCESS_ACTIONS, Pending, SkirmishState, TeamState, UnitState, other,
)
from rules.skirmish.training import training_check

#: An order given by the active unit at an enemy unit (fire, assault).
OrderT = TypeVar("OrderT", Fire, Assault)

#: What each action lets the unit do, in order (Actions).
STEPS: dict[str, list[str]] = {
    "fire-and-move": ["fire", "move"], "move-and-fire": ["move", "fire"], "run": ["move"],
    "aimed-fire": ["fire"], "assault": ["assault"], "move": ["move"], "fire": ["fire"],
    "overwatch": [], "barrage": ["barrage"], "smoke": ["smoke"],
}


# -- activation and the action -----------------------------------------------------------------


def activate_problem(state: SkirmishState, side: str, unit_id: str) -> str | None:
    """Why ``unit_id`` cannot be activated now, or None."""
    ready = ", ".join(u.id for u in flow.waiting(state, side)) or "none"
    try:
        unit = state.own_unit(side, unit_id)
    except RuleError as exc:
        return f"{str(exc).split(';')[0]}; yours to activate: {ready}."
    if unit.activated:
        return f"{unit.id} has already acted this turn; yours to activate: {ready} (Turns)."
    return None


def activate_offers(state: SkirmishState, side: str) -> Iterator[Activate]:
    """Units of ``side`` that have not acted."""
    for unit in state.live(side):
        if activate_problem(state, side, unit.id) is None:
            yield Activate(unit=unit.id)


@order(Activate, phases="activate", offers=activate_offers)
def activate(ctx: Ctx[SkirmishState], order: Activate) -> None:
    """Actions: roll the unit's Training Check, +1 per suppression marker (Suppression)."""
    state = ctx.state
    why = activate_problem(state, ctx.side, order.unit)
    if why:
        raise RuleError(why)
    unit = state.unit(order.unit)
    check = training_check(unit.training, ctx.dice, f"{unit.id} training check", unit.markers)
    state.active, state.check_passed, state.phase = unit.id, check.passed, "action"
    tail = "choose a Success or Fail action" if check.passed else "Fail actions only"
    ctx.say("check", f"{check.text(unit.id)}: {tail}{_cleared(unit, check.passed)} (Actions)",
            "Actions", unit=unit.id, die=check.die, need=check.need)


def _cleared(unit: UnitState, passed: bool) -> str:
    """"If a suppressed Unit successfully makes its next Training Check, all suppressed Teams
    immediately become unsuppressed and may act fully" (Suppression): cleared with the check
    itself.  A failed check's marker goes with the Fail order ("one suppression marker is
    removed and the Unit is issued an order from the Fail Actions list"), in :func:`choose`,
    since until then the CC may still allow a reroll of that same check."""
    if not passed or not unit.markers:
        return ""
    return "; " + suppression.unsuppress(unit, True) + " (Suppression)"


def cc_of(state: SkirmishState, side: str) -> TeamState | None:
    """The side's Company Commander, if on the table."""
    return morale.commander(state, side)


def reroll_problem(state: SkirmishState, side: str) -> str | None:
    """Why the CC cannot reroll the active unit's check now, or None (Leaders)."""
    if state.check_passed is not False:
        return "Only a failed Training Check may be rerolled (Leaders)."
    if cc_of(state, side) is None:
        return "Your Company Commander is not on the table (Leaders)."
    if side in state.cc_reroll_used:
        return "Your CC has already allowed a reroll this Initiative (Leaders)."
    return None


def reroll_offers(state: SkirmishState, side: str) -> Iterator[Reroll]:
    """The CC's reroll of a failed check."""
    if reroll_problem(state, side) is None:
        yield Reroll()


@order(Reroll, phases="action", offers=reroll_offers)
def reroll(ctx: Ctx[SkirmishState], order: Reroll) -> None:
    """Leaders: the CC lets the unit reroll its failed Training Check."""
    state = ctx.state
    why = reroll_problem(state, ctx.side)
    if why:
        raise RuleError(why)
    unit = state.unit(state.active or "")
    state.cc_reroll_used.append(ctx.side)  # type: ignore[arg-type]
    check = training_check(unit.training, ctx.dice, f"{unit.id} CC reroll", unit.markers)
    state.check_passed = check.passed
    ctx.say("check", f"CC reroll: {check.text(unit.id)}{_cleared(unit, check.passed)} (Leaders)",
            "Leaders", die=check.die)


def allowed_actions(state: SkirmishState) -> list[str]:
    """The actions the active unit may choose: Success ones only after a passed check."""
    unit = state.unit(state.active or "")
    names = list(FAIL_ACTIONS)
    if state.check_passed:
        names = list(SUCCESS_ACTIONS) + names
        if len(barrage_guns(state, unit)) >= 2:
            names += ["barrage", "smoke"]
    if all(t.kind == "gun" for t in unit.alive_teams) and "assault" in names:
        names.remove("assault")  # Gun Teams must stay behind (Assaults)
    return names


def choose_offers(state: SkirmishState, side: str) -> Iterator[Choose]:
    """The actions open to the active unit; Assault only when some team of it can reach
    contact ("at least one Team must make contact in order for the assault to continue")."""
    if state.active:
        unit = state.unit(state.active)
        for kind in allowed_actions(state):
            if kind == "assault" and not contact.anyone_in_reach(state, unit.side, unit.alive_teams, assault.CHARGE):
                continue
            yield Choose(kind=kind)  # type: ignore[arg-type]


@order(Choose, phases="action", offers=choose_offers)
def choose(ctx: Ctx[SkirmishState], order: Choose) -> None:
    """Actions: take the action: unsuppress (or lose one marker), then open its steps."""
    state = ctx.state
    allowed = allowed_actions(state)
    if order.kind not in allowed:
        raise RuleError(f"'{order.kind}' is not open to {state.active} now; actions: {', '.join(allowed)} (Actions).")
    unit = state.unit(state.active or "")
    note = "" if state.check_passed else suppression.unsuppress(unit, False)
    note += "; Fail actions only" if note else ""
    unit.action, unit.steps = order.kind, list(STEPS[order.kind])
    unit.running = order.kind == "run"
    state.phase = "orders"
    ctx.say("action", f"{unit.id}: {order.kind}" + (f"; {note}" if note else "") + " (Actions)",
            "Actions", unit=unit.id, action=order.kind)
    if order.kind == "overwatch":
        unit.overwatch = True
        ctx.extend(flow.end_activation(state, ctx.dice))
        ctx.snapshot = state.phase == "activate" and state.active is None


def open_step(unit: UnitState, kind: str) -> str | None:
    """Why ``kind`` is not open in the unit's action now, or None."""
    if kind not in unit.steps:
        left = " then ".join(unit.steps) or "nothing (done)"
        return f"{unit.id}'s action ({unit.action}) allows {left} now, not {kind} (Actions)."
    return None


def use_step(unit: UnitState, kind: str) -> None:
    """Enter step ``kind``: steps before it are given up."""
    unit.steps = unit.steps[unit.steps.index(kind):]


# -- moves -------------------------------------------------------------------------------------


def budget(unit: UnitState, team: TeamState, extra: bool = False) -> float:
    """Inches a team may still move in this activation (twice for Run, +4" for a PL's help)."""
    base = movement.SPEED[team.kind] * (2 if unit.running else 1)
    return max(0.0, base + (leaders.EXTRA_MOVE if extra else 0.0) - team.travelled)


def movers(state: SkirmishState, unit: UnitState, who: str) -> list[TeamState]:
    """The teams a move order moves: one team of the unit, or all of them."""
    if who.strip().casefold() == unit.id.casefold():
        return [t for t in unit.alive_teams if budget(unit, t) > 0.05]
    team = state.team(who)
    if team.unit != unit.id or not team.alive:
        raise RuleError(f"{team.id} is not a team of the active unit {unit.id} on the table: a Move "
                        f"order moves the activated Unit's teams; name one of them, or who:{unit.id} "
                        f"for the whole unit (Actions).")
    return [team]


def plan_move(state: SkirmishState, unit: UnitState, order: Move) -> dict[str, table.Point]:
    """Where each team of a move order ends (before any dice), checked; RuleError if refused."""
    teams = movers(state, unit, order.who)
    why = open_step(unit, "move")
    if why and not _observer_alone(teams):
        raise RuleError(why)
    if not teams:
        raise RuleError(f"No team of {unit.id} has any move left (Moving).")
    anchor = unit.pl or teams[0]
    lead_pos = anchor.pos if len(teams) > 1 else teams[0].pos
    dest = place_of(state, order.to, lead_pos)
    offset = table.sub(dest, lead_pos)
    plan: dict[str, table.Point] = {}
    moving = frozenset(t.id for t in teams)
    for team in teams:
        room = budget(unit, team, order.extra)
        if len(teams) == 1 and _pl_among_ranks(state, unit, team, dest):
            room = max(room, table.measured(table.distance(team.pos, dest)))
        # A whole unit keeps its shape, each team going as far as it may; one team is sent
        # exactly where it is told, or refused with the figure.
        end = table.toward(team.pos, table.add(team.pos, offset), room) if len(teams) > 1 else dest
        movement.validate(state, team, end, room, moving=moving)
        _clear_of_planned(state, team, end, plan)
        plan[team.id] = end
    _check_extra(state, unit, order, teams, plan)
    if not cohesion.enough(unit, plan):
        raise RuleError(f"{unit.id} would have fewer than half its teams in cohesion with its PL "
                        f"(Unit Cohesion).")
    return plan


def _observer_alone(teams: list[TeamState]) -> bool:
    """"FOs activate with the artillery Unit, but may choose to execute different actions
    than the rest of the Unit": a Forward Observer may move whatever its unit's action."""
    return len(teams) == 1 and teams[0].role == "fo"


def _pl_among_ranks(state: SkirmishState, unit: UnitState, team: TeamState, dest: table.Point) -> bool:
    """"Infantry PLs can move freely throughout their ranks, being placed any where on the
    table as long as Unit cohesion is maintained": within 6" of a team of its unit."""
    if team.role != "pl" or team.kind != "infantry" or team.travelled > 0:
        return False
    return any(
        not table.beyond(table.distance(dest, t.pos), cohesion.RANGE)
        for t in unit.alive_teams if t.id != team.id and t.role != "fo"
    )


def _clear_of_planned(state: SkirmishState, team: TeamState, end: table.Point,
                      plan: dict[str, table.Point]) -> None:
    for other_id, where in plan.items():
        if table.distance(where, end) < 2 * state.table.base_radius - 1e-6:
            raise RuleError(f"{team.id} would end on {other_id}'s base; move the teams one by one.")


def _check_extra(state: SkirmishState, unit: UnitState, order: Move, teams: list[TeamState],
                 plan: dict[str, table.Point]) -> None:
    if not order.extra:
        return
    if len(teams) != 1 or unit.pl is None:
        raise RuleError("The PL's extra 4\" is for one team of a unit with its PL (Leaders).")
    leaders.check_leader(state, unit.pl, teams[0], close=False)
    if not leaders.extra_move_ok(state, unit.pl, plan[teams[0].id]):
        raise RuleError(f"With the extra 4\" {teams[0].id} must end within 2\" of {unit.pl.id} (Leaders).")


def _turret(state: SkirmishState, order: Move, plan: dict[str, table.Point]) -> float | None:
    """"A tank's turret follows these same rules": a Move turns it (``turret:``) on its own,
    the hull keeping its facing; refused for a move without a tank."""
    if not order.turret:
        return None
    if not any(state.team(t).kind == "tank" for t in plan):
        raise RuleError("Only Tank teams have a turret to turn; use face: to turn a team (Firing).")
    return table.heading_to_angle(table.parse_heading(order.turret))


def active_unit(state: SkirmishState) -> UnitState | None:
    """The unit activated now, if any."""
    return state.unit(state.active) if state.active else None


def point_text(point: table.Point) -> str:
    """A place as players type it: ``15.0,22.2``."""
    return f"{point[0]:.1f},{point[1]:.1f}"


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


def move_offers(state: SkirmishState, side: str) -> Iterator[Move]:
    """A sample of moves of each team (and of the whole unit), each one checked: places are
    not finite, so the sample goes towards the nearest enemy, away, to the flanks."""
    unit = active_unit(state)
    if unit is None or not unit.alive_teams:
        return
    whos = [unit.id] + [t.id for t in unit.alive_teams]
    if open_step(unit, "move"):
        whos = [t.id for t in unit.alive_teams if t.role == "fo"]  # FOs act on their own
    for who in whos:
        team = (unit.pl or unit.alive_teams[0]) if who == unit.id else state.team(who)
        room = budget(unit, team)
        if room < 0.5:  # the sample skips crumbs of a move (a player may still type them)
            continue
        for spot in _spots(state, team, room, UNIT_SPOTS if who == unit.id else TEAM_SPOTS):
            # Built without validation: the values are our own (most samples are refused,
            # and validating each one was a tenth of a playout's time).
            sample = Move.model_construct(who=who, to=point_text(spot))
            try:
                plan_move(state, unit, sample)
            except RuleError:
                continue
            yield sample


@order(Move, phases="orders", offers=move_offers)
def move(ctx: Ctx[SkirmishState], order: Move) -> None:
    """Moving: move a team or the unit, then give the enemy its Reaction and Overwatch fire."""
    state = ctx.state
    unit = state.unit(state.active or "")
    plan = plan_move(state, unit, order)
    face = table.heading_to_angle(table.parse_heading(order.face)) if order.face else None
    turret = _turret(state, order, plan)
    if not _observer_alone([state.team(t) for t in plan]) or "move" in unit.steps:
        use_step(unit, "move")
    if order.extra and unit.pl is not None:
        state.leader_used.append(unit.pl.id)
    moved, bogged = [], None
    starts = {team_id: state.team(team_id).pos for team_id in plan}
    for team_id, end in plan.items():
        team = state.team(team_id)
        room = budget(unit, team, order.extra)
        result = movement.move_team(state, team, end, ctx.dice, room, face=face, checked=True,
                                    turret=turret if team.kind == "tank" else None)
        team.travelled += result.travelled
        ctx.extend(result.events)
        warning = facing.arc_warning(state, team)
        if warning:
            ctx.say("move", warning, "Firing", team=team.id)
        moved.append(team)
        if result.failed_check and bogged is None:
            bogged = Pending(kind="reroll", check="terrain", side=unit.side, unit=unit.id,
                             team=team.id, goal=end, paths=starts, options=[result.piece],
                             face=face, turret=turret)
        elif result.bogged:
            end_move(ctx, unit, team)  # a failed 2+ (no reroll: no Training Check), or a second tank
    if bogged is not None and terrain_reroll(ctx, bogged):
        return
    offer_reactions(ctx, unit, moved, starts)


def end_move(ctx: Ctx[SkirmishState], unit: UnitState, team: TeamState) -> None:
    """Moving: "A failure in either causes the Team to become suppressed at the point of
    contact with the terrain": the team's Move ends there, the inches it had left lost (a
    Run's second Move, "Unit may Move twice", is still to come if this was the first)."""
    base = movement.SPEED[team.kind]
    team.travelled = base * (2 if unit.running and team.travelled >= base - 1e-6 else 1)
    ctx.say("move", f"{team.id}'s move ends at the edge of the terrain, suppressed (Moving)", "Moving",
            team=team.id)


def _stuck(ctx: Ctx[SkirmishState], bogged: Pending) -> None:
    """The failed terrain check stands: the tank's Move ends at the edge."""
    end_move(ctx, ctx.state.unit(bogged.unit or ""), ctx.state.team(bogged.team or ""))


def terrain_reroll(ctx: Ctx[SkirmishState], bogged: Pending) -> bool:
    """"a Training Check when moving through Very Difficult Terrain" failed: the CC may let
    the tank reroll it (asked, or the standing answer).  True while the question waits."""
    how = rerolls.answer(ctx.state, bogged.side)
    if how == "ask":
        rerolls.ask(ctx, bogged, f"{bogged.team} failed its Very Difficult Terrain check")
        return True
    if how == "yes":
        _terrain_again(ctx, bogged)
    else:
        _stuck(ctx, bogged)
    return False


def _terrain_again(ctx: Ctx[SkirmishState], bogged: Pending) -> None:
    """The CC's reroll of the terrain check: passed, the marker goes and the tank drives on
    to where it was going (the piece not rolled for again)."""
    state = ctx.state
    team, unit = state.team(bogged.team or ""), state.unit(bogged.unit or "")
    check = rerolls.reroll(state, unit, ctx.dice, f"{team.id} very difficult terrain")
    verdict = "through" if check.passed else "it stays suppressed at the edge"
    ctx.say("going", f"CC reroll: {check.text(team.id)}: {verdict} (Leaders)", "Leaders", die=check.die)
    if not check.passed:
        _stuck(ctx, bogged)
        return
    if bogged.goal is None:
        return
    team.suppression -= 1
    result = movement.move_team(state, team, bogged.goal, ctx.dice, budget(unit, team),
                                face=bogged.face, checked=True, turret=bogged.turret,
                                through=bogged.options[0])
    team.travelled += result.travelled
    ctx.extend(result.events)
    if result.bogged:
        end_move(ctx, unit, team)  # stopped again by a further piece


def terrain_answer(ctx: Ctx[SkirmishState], pending: Pending, again: bool) -> None:
    """The answer to the terrain reroll question; then the enemy's Reaction and Overwatch."""
    if again:
        _terrain_again(ctx, pending)
    else:
        _stuck(ctx, pending)
    unit = ctx.state.unit(pending.unit or "")
    offer_reactions(ctx, unit, moved_teams(ctx.state, unit, pending.paths), pending.paths)


def offer_reactions(ctx: Ctx[SkirmishState], mover: UnitState, moved: list[TeamState],
                    paths: reactions.Paths, only: list[str] | None = None) -> None:
    """After a move: the enemy's Overwatch and Reaction fire, by its standing answer or asked
    (``paths``: where the moved teams started, for Overwatch along the move; ``only``: the
    units still offered after one has fired)."""
    state = ctx.state
    options = [u for u in reactions.reactors(state, mover, moved, paths) if only is None or u in only]
    if not options or not mover.on_table:
        return
    enemy = other(mover.side)
    policy = state.policies.get(enemy, {}).get("reaction", "ask")
    if policy == "no":
        return
    if policy == "yes":
        for unit_id in options:
            after = Pending(kind="allocate", side=mover.side, then="react", paths=paths,
                            options=[u for u in options if u != unit_id])
            if reaction_fire(ctx, state.unit(unit_id), mover, moved, paths, after) is None:
                return  # the owner allocates; the rest fire after (more_reactions)
        return
    state.pending = Pending(kind="react", side=enemy, unit=mover.id, options=options, paths=paths)
    state.phase = "decide"
    offered = "; ".join(reactions.offer_text(state, state.unit(u), mover, moved, paths) for u in options)
    answers = " or ".join([prompts.answer("fire", unit=u) for u in options] + [prompts.answer("hold")])
    ctx.say("ask", f"May fire at {mover.id}: {offered}: {answers}", "Reaction Fire")


def reaction_fire(ctx: Ctx[SkirmishState], unit: UnitState, mover: UnitState,
                  moved: list[TeamState], paths: reactions.Paths | None,
                  after: Pending, stay: bool = False) -> fire.FireResult | None:
    """The unit's Reaction or Overwatch fire at the mover; None while its owner is asked to
    allocate the hits (``after`` then waits, with where the moved teams really stand in
    ``back``).  The moved teams then go on to where they stopped, unless ``stay`` (the caller
    decides: a halted charge stops where it was fired on)."""
    state = ctx.state
    shooters, events, ends = reactions.take_aim(state, unit, mover, moved, paths)
    ctx.extend(events)
    after = after.model_copy(update={"back": ends})
    result = volleys.fire_at(ctx, unit, shooters, mover, reactions.how_fired(unit), after)
    if result is not None:
        result.back = ends
        if not stay:
            reactions.put_back(state, ends)
    return result


def moved_teams(state: SkirmishState, mover: UnitState, paths: reactions.Paths) -> list[TeamState]:
    """The mover's living teams that moved in the order fired at (those of ``paths``)."""
    return [t for t in mover.alive_teams if (t.id in paths if paths else t.moved)]


def more_reactions(ctx: Ctx[SkirmishState], mover: UnitState, paths: reactions.Paths,
                   only: list[str]) -> None:
    """After one unit's Reaction or Overwatch fire: the others still offered, asked or by
    the standing answer, else the mover's player goes on."""
    offer_reactions(ctx, mover, moved_teams(ctx.state, mover, paths), paths, only)


# -- fire --------------------------------------------------------------------------------------


def shooters_of(state: SkirmishState, unit: UnitState, teams: str) -> list[TeamState]:
    """The teams named in a fire order (``all``: every team that has not fired)."""
    if teams.strip().casefold() in ("", "all"):
        return [t for t in unit.alive_teams if not t.fired_initiative]
    out = []
    for word in teams.replace(",", " ").split():
        team = state.team(word)
        if team.unit != unit.id or not team.alive:
            raise RuleError(f"{team.id} is not a team of {unit.id} on the table.")
        out.append(team)
    return out


def fire_problem(state: SkirmishState, unit: UnitState, order: Fire, side: str) -> str | None:
    """Why a fire order is refused, or None."""
    why = open_step(unit, "fire")
    if why:
        return why
    try:
        target = state.enemy_unit(side, order.target)
        shooters = shooters_of(state, unit, order.teams)
    except RuleError as exc:
        return str(exc)
    if not shooters:
        return (f"Every team of {unit.id} has fired this Initiative (\"Teams may never fire more "
                f"than once per Initiative\", Reaction Fire); done ends the activation.")
    reasons = []
    for team in shooters:
        lines = [fire.shot_line(state, team, target, w) for w in team.weapons]
        if any(isinstance(x, fire.ShotLine) for x in lines):
            return (fire.at_problem(state, shooters, target, order.at)
                    or _directed_problem(state, unit, order, shooters, target))
        reasons.append(str(lines[0]))
    return "; ".join(reasons[:3]) + ". " + _fire_instead(state, unit, shooters, target)


def _fire_instead(state: SkirmishState, unit: UnitState, shooters: list[TeamState],
                  target: UnitState) -> str:
    """What the refused fire order's teams may do instead: the enemy units they can fire at
    now, else the unit's other open steps."""
    others = [e.id for e in state.live(other(unit.side)) if e.id != target.id and any(
        isinstance(fire.shot_line(state, t, e, w), fire.ShotLine) for t in shooters for w in t.weapons)]
    if others:
        return f"They can fire at {', '.join(others)}."
    rest = [s for s in unit.steps if s != "fire"]
    return f"No enemy unit is in their line of fire now; {' then '.join(rest + ['done'])} is open."


def _directed_problem(state: SkirmishState, unit: UnitState, order: Fire,
                      shooters: list[TeamState], target: UnitState) -> str | None:
    """Why ``directed:`` is refused, or None: the PL may "direct a Team's fire, rerolling
    missed To Hit dice from a Team within 2" of the PL" (Leaders): a firing team that can fire
    at the target, within 2" of the PL, once per Initiative."""
    if not order.directed:
        return None
    if unit.pl is None:
        return f"{unit.id} has no PL to direct its fire (Leaders)."
    try:
        team = state.team(order.directed)
        leaders.check_leader(state, unit.pl, team)
    except RuleError as exc:
        return str(exc)
    lines = [fire.shot_line(state, team, target, w) for w in team.weapons]
    if team not in shooters or not any(isinstance(x, fire.ShotLine) for x in lines):
        why = str(lines[0]) if team in shooters else f"{team.id} is not among the firing teams"
        return (f"directed:{team.id} is refused ({why}): the PL directs a team that fires at "
                f"{target.id}, within 2\" of him (Leaders).")
    return None


def at_enemy_units(state: SkirmishState, side: str, make: Callable[..., OrderT],
                   problem: Callable[[SkirmishState, UnitState, OrderT, str], str | None]) -> Iterator[OrderT]:
    """The active unit's order ``make(target=...)`` at each enemy unit, where ``problem``
    (the check the resolver raises on) finds nothing wrong: the offers of fire and assault."""
    unit = active_unit(state)
    if unit is None:
        return
    for enemy in state.live(other(side)):
        sample = make(target=enemy.id)
        if problem(state, unit, sample, side) is None:
            yield sample


def fire_offers(state: SkirmishState, side: str) -> Iterator[Fire]:
    """Fire at each enemy unit some team can hit."""
    return at_enemy_units(state, side, Fire, fire_problem)


@order(Fire, phases="orders", offers=fire_offers)
def fire_order(ctx: Ctx[SkirmishState], order: Fire) -> None:
    """Firing: fire at an enemy unit; the target may first go to ground (asked of its player)."""
    state = ctx.state
    unit = state.unit(state.active or "")
    why = fire_problem(state, unit, order, ctx.side)
    if why:
        raise RuleError(why)
    use_step(unit, "fire")
    target = state.enemy_unit(ctx.side, order.target)
    if reactions.may_go_to_ground(target):
        policy = state.policies.get(target.side, {}).get("ground", "ask")
        if policy == "ask":
            state.pending = Pending(kind="ground", side=target.side, unit=target.id,
                                    fire=order.model_dump(mode="json", exclude_none=True),
                                    firer=unit.id)
            state.phase = "decide"
            ctx.say("ask", f"{unit.id} fires at {target.id}: go to ground first? "
                           f"{prompts.either('ground', 'stand')} (Gone to Ground)", "Gone to Ground")
            return
        if policy == "yes":
            ctx.extend([reactions.go_to_ground(target)])
    resolve_fire_order(ctx, unit, order)


def resolve_fire_order(ctx: Ctx[SkirmishState], unit: UnitState, order: Fire) -> None:
    """Roll the fire of a checked order (after any go-to-ground answer)."""
    state = ctx.state
    target = state.unit(order.target)
    shooters = shooters_of(state, unit, order.teams)
    how = fire.Fire(aimed=unit.action == "aimed-fire", at_type=order.at,
                    directed=order.directed or None)
    if order.directed and unit.pl is not None:
        state.leader_used.append(unit.pl.id)
    result, volley = fire.roll_fire(state, shooters, target, ctx.dice, how)
    ctx.extend(result.events)
    volleys.mark_fire(state, unit.side, result)
    if volley is None:
        after_fire(ctx, unit)
    elif not volleys.ask(ctx, unit.id, volley, Pending(kind="allocate", side=target.side)):
        volleys.land(ctx, volley, frozenset(), standing=True)
        after_fire(ctx, unit)


def may_still_fire(unit: UnitState) -> bool:
    """Whether a team of the unit has neither fired this Initiative nor is suppressed."""
    return any(not t.fired_initiative and not t.suppression for t in unit.alive_teams)


def steps_left(state: SkirmishState, unit: UnitState) -> list[str]:
    """The steps of the unit's action still open: fire only while one of its teams has a
    line of fire at an enemy unit (range, sight, arc; not fired, not suppressed)."""
    enemies = state.live(other(unit.side))
    can_fire = any(isinstance(fire.shot_line(state, t, e, w), fire.ShotLine)
                   for t in unit.alive_teams for e in enemies for w in t.weapons)
    return [s for s in unit.steps if s != "fire" or can_fire]


def after_fire(ctx: Ctx[SkirmishState], unit: UnitState) -> None:
    """The activation ends by itself once no team of a fire-only action can fire."""
    state = ctx.state
    if not may_still_fire(unit) and unit.steps == ["fire"]:
        ctx.extend(flow.end_activation(state, ctx.dice))
        ctx.snapshot = True


def done_offers(state: SkirmishState, side: str) -> Iterator[Done]:
    """End the activation."""
    if state.active:
        yield Done()


@order(Done, phases="orders", offers=done_offers)
def done(ctx: Ctx[SkirmishState], order: Done) -> None:
    """Turns: end the active unit's activation."""
    state = ctx.state
    unit = state.unit(state.active or "")
    ctx.say("done", f"{unit.id} ends its activation (Turns)", "Turns")
    before = (state.turn, state.initiative)
    ctx.extend(flow.end_activation(state, ctx.dice))
    ctx.snapshot = (state.turn, state.initiative) != before or state.finished
