"""The sequence of play (6.0): initiative, rally, operations impulses, routes, turn end.

Everything automatic happens inside the order that triggers it: the second pass in a row
ends the operations phase (7.0) and opens the route phase (8.0); the last ``done`` ends the
turn, removes the Hind (10.2), checks victory after turn 7 (12.0), or rolls the next
initiative (6.1, 10.1, 10.2), cadres (7.3.6), resets AP and rolls every rally (6.2).

The rally phase itself is in :mod:`rules.rr.rally`.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.core.contract import Action, Event
from rules.core.dice import Dice
from rules.core.errors import RuleError
from rules.core.orders import Ctx, order
from rules.rr.actions import Done, Pass, Place, Ready, Route, Skip
from rules.rr.board import Board, is_hind, is_leader, is_t12
from rules.rr.arrivals import place, place_areas, placeable, setup_offers, waiting
from rules.rr.impulse import area_named
from rules.rr.rally import (
    cadres, due_now, rally, rallying_with, reset_ap, sides_in_order, wants_help,
)
from rules.rr.hits import along, move_unit
from rules.rr.state import SIDE_NAMES, SIDES, MarkRecord, RRState, as_side, other, says
from rules.rr.victory import verdict


def start_turn(b: Board, dice: Dice) -> list[Event]:
    """6.1 initiative (and 10.1/10.2 air), then the whole 6.2 rally phase."""
    s = b.s
    s.turn += 1
    s.marks = []
    nato = dice.die(6, "NATO initiative, 1d6", side="nato")
    soviet = dice.die(6, "Soviet initiative, 1d6", side="soviet")
    s.init_rolls = {"nato": nato, "soviet": soviet}
    s.initiative = "soviet" if soviet > nato else "nato"
    s.airstrike = {"nato": nato <= s.turn, "soviet": soviet >= s.turn}
    hind = next((u for u in s.units.values() if is_hind(b.spec(u.id))), None)
    s.hind_ok = hind is not None and hind.place == "pool" and not s.airstrike["nato"]
    air = [SIDE_NAMES[x] for x in SIDES if s.airstrike[x]]
    events = [
        Event(kind="turn", text=f"Turn {s.turn}/{s.max_turn}", rule="6.0"),
        Event(kind="initiative", rule="6.1", data={"nato": nato, "soviet": soviet},
              text=f"🎲 NATO {nato} · Soviets {soviet}: {says(s.initiative, 'leads', 'lead')} (6.1)"),
        Event(kind="air", rule="10.1", text=f"Airstrike: {', '.join(air) or 'none'}; Hind: "
              f"{'yes' if s.hind_ok else 'no'} (10.1, 10.2)"),
    ]
    events += due_now(b)
    events += cadres(b, dice)
    events += reset_ap(b)
    b.s.rally_done = []
    if s.turn == b.sc.start.turn and b.sc.start.phase == "operations":
        # issue 46: the scenario begins at this turn's operations phase (7.0): no rally
        return events + open_placement(b)
    return events + rally_step(b, dice)


def rally_prompt(b: Board, side: str) -> Event:
    """9.7, 9.8: the side's own leaders who may help its rally, and their orders only
    (Nikolas is the Soviets', Boyes NATO's)."""
    helpers = [key for key in ("nikolas", "boyes") if rallying_with(b, side, key)]
    who = " and ".join(key.capitalize() for key in helpers)
    rules = ", ".join({"nikolas": "9.7", "boyes": "9.8"}[key] for key in helpers)
    return Event(kind="phase", rule="6.2",
                 text=f"{SIDE_NAMES[side]}: {who} may help the rally ({', '.join(helpers)}), then done ({rules})")


def rally_step(b: Board, dice: Dice) -> list[Event]:
    """6.2 step 3: first each side (the initiative first) with a rally decision makes it
    (Nikolas's +1 morale, Boyes's reroll: 9.7, 9.8); then every rally is rolled and the
    placement step or the operations phase opens."""
    s = b.s
    for side in sides_in_order(b):
        if wants_help(b, side):
            s.phase, s.active = "rally", side
            return [rally_prompt(b, side)]
    s.rally_done = []
    return rally(b, dice) + open_placement(b)


def begin_operations(b: Board) -> list[Event]:
    """7.0: the side with the initiative takes the first impulse."""
    b.s.phase, b.s.active, b.s.passes = "ops", b.s.initiative, 0
    return [Event(kind="phase", rule="7.0", text=f"Operations: {SIDE_NAMES[b.s.active]} first (7.0)")]


def pass_impulse(b: Board, dice: Dice) -> list[Event]:
    """7.0: two passes in a row end the operations phase."""
    s = b.s
    s.passes += 1
    events = [Event(kind="pass", rule="7.0", text=f"{says(s.active, 'passes', 'pass')} (7.0)")]
    s.nikolas_spent = False  # 7.1: his AP of this impulse
    if s.passes < 2:
        s.active = other(s.active)
        return events
    events.append(Event(kind="phase", rule="8.0", text="Two passes: operations end; route phase (8.0)"))
    s.phase, s.passes, s.routed = "route", 0, []
    return events + next_router(b, dice, first=True)


def auto_pass(b: Board, dice: Dice, has_impulse: Callable[[str], bool]) -> list[Event]:
    """7.0: "Players must pass if they have no remaining actions to use": a side to act in the
    operations phase with no order left but pass passes at once, with a line that says so."""
    s = b.s
    events: list[Event] = []
    while s.phase == "ops" and not s.pending and not has_impulse(s.active):
        events.append(Event(kind="pass", rule="7.0",
                            text=f"{says(s.active, 'has', 'have')} no order left: passed at once (7.0)"))
        events += pass_impulse(b, dice)
    return events


def route_options(b: Board, uid: str) -> list[str]:
    """8.0: adjacent areas within stacking, with no enemy, and no closer to any enemy unit:
    "nor can the route bring the unit closer to an enemy unit" (every one counts, not only
    the nearest)."""
    if route_unit_problem(b, uid):
        return []
    return [a for a, why in route_checks(b, uid).items() if why is None]


def route_unit_problem(b: Board, uid: str) -> str | None:
    """8.0: why ``uid`` may not route at all (the one cause that holds), or None."""
    unit = b.s.units[uid]
    spec = b.spec(uid)
    if unit.place != "map":
        return "it is not on the map"
    if is_t12(spec):
        return "the T-12 cannot move from its area (9.6)"
    if is_hind(spec) or is_leader(spec):
        return "only Suppressed or Recovering units route; leaders go with their units (8.0, 9.7-9.9)"
    if unit.status == "ok":
        return "only Suppressed or Recovering units route (8.0)"
    if uid in b.s.routed:
        return "it has routed this phase already (8.0: to an adjacent area)"
    return None


def route_checks(b: Board, uid: str) -> dict[str, str | None]:
    """Each adjacent area with the first rule that forbids routing there, or None (8.0)."""
    b = b.reading()
    unit = b.s.units[uid]
    here = unit.area or ""
    enemies = [e for e in b.on_map(other(unit.side)) if e.area is not None]
    out: dict[str, str | None] = {}
    for area in b.g.neighbours(here):
        closer = next((e for e in enemies
                       if b.g.distance(area, e.area or "") < b.g.distance(here, e.area or "")), None)
        if b.enemy_held(area, unit.side):
            out[area] = "enemy in it (5.1)"
        elif closer is not None:
            out[area] = f"closer to {closer.id} in {closer.area} (8.0)"
        else:
            out[area] = b.stack_problem(area, [uid])
    return out


def can_route(b: Board, side: str) -> bool:
    """Whether ``side`` has a unit that may route now."""
    b = b.reading()
    return any(route_options(b, u.id) for u in b.on_map(side))


def next_router(b: Board, dice: Dice, first: bool = False) -> list[Event]:
    """8.0: the initiative side routes first; a side with nothing to route is skipped."""
    s = b.s
    order = sides_in_order(b)
    start = 0 if first else order.index(s.active) + 1
    for side in order[start:]:
        if can_route(b, side):
            s.active = side
            return []
    return end_turn(b, dice)


def end_turn(b: Board, dice: Dice) -> list[Event]:
    """End of turn: the Hind leaves (10.2), boosts lapse; victory after the last turn (12.0)."""
    s = b.s
    events: list[Event] = []
    for unit in s.units.values():
        unit.boost, unit.reroll = [], False
        if is_hind(b.spec(unit.id)) and unit.place == "map":
            unit.place, unit.area, unit.ap, unit.status = "pool", None, 0, "ok"
            events.append(Event(kind="hind", rule="10.2", text="The Hind flies home (10.2)"))
    s.routed = []
    if s.turn >= s.max_turn:
        s.phase = "over"
        s.result = verdict(b)
        return events + [Event(kind="result", rule="12.0", text=s.result)]
    return events + start_turn(b, dice)


def setup_problem(b: Board, side: str) -> str | None:
    """11.0: why ``side`` cannot finish its set-up yet, the first condition that fails, or
    None: every unit placed, no leader alone (9.7-9.9), the Soviets with a stacking point in
    the required area."""
    left = waiting(b, side, ("setup",))
    if left:
        return f"Set up {', '.join(u.id for u in left[:6])} first, or use deploy-default."
    for leader in b.on_map(side):
        if is_leader(b.spec(leader.id)) and not b.combatants_in(leader.area or "", side):
            return f"{leader.id} must set up with another unit (9.7-9.9)."
    required = b.sc.soviet_required_area
    if side == "soviet" and b.points(required, side) < 1:
        return f"The Soviets need at least one stacking point in area {required} (11.0)."
    return None


def ready(b: Board, side: str, dice: Dice) -> list[Event]:
    """11.0: finish setup once every unit is placed (Soviets: a stacking point in 7)."""
    why = setup_problem(b, side)
    if why:
        raise RuleError(why)
    events = [Event(kind="ready", rule="11.0", text=f"{SIDE_NAMES[side]} setup done (11.0)")]
    b.s.control = {}  # 12.0: control starts from where the units really set up
    b.update_control()
    if side == "nato":
        b.s.active = "soviet"
        return events
    return events + start_turn(b, dice)


def open_placement(b: Board) -> list[Event]:
    """After the rally: a placement step for each side with a "place" reinforcement due."""
    for side in (b.s.initiative, other(b.s.initiative)):
        if placeable(b, side):
            b.s.phase, b.s.active = "place", side
            return [Event(kind="phase", rule="11.0",
                          text=f"{SIDE_NAMES[side]}: place reinforcements or skip (11.0)")]
    return begin_operations(b)


def open_placement_after(b: Board, side: str) -> list[Event]:
    """After ``side``'s placement step: the other side's, if it has one, else operations."""
    if side == b.s.initiative and placeable(b, other(side)):
        b.s.active = other(side)
        return [Event(kind="phase", rule="11.0",
                      text=f"{SIDE_NAMES[b.s.active]}: place reinforcements or skip (11.0)")]
    return begin_operations(b)


def route(b: Board, side: str, uid: str, to: str) -> list[Event]:
    """8.0: one Suppressed or Recovering unit routes to an adjacent area."""
    unit = b.unit(uid, side)
    why = route_unit_problem(b, unit.id)
    if why:
        raise RuleError(f"{unit.id} cannot route: {why}.")
    checks = route_checks(b, unit.id)
    allowed = b.area_list([a for a, w in checks.items() if w is None]) or "nowhere"
    if to not in checks:
        raise RuleError(f"{unit.id} routes to an adjacent area (8.0); it may route to: {allowed}.")
    if checks[to] is not None:
        raise RuleError(f"{unit.id} cannot route to {to}: {checks[to]}. It may route to: {allowed}.")
    start = unit.area or ""
    company = along(b, unit.id, move_unit(b, unit.id, to))
    b.s.routed.append(unit.id)
    b.s.marks.append(MarkRecord(kind="retreat", areas=[start, to], side=side))
    return [Event(kind="route", rule="8.0", text=f"{unit.id} routes {start}→{to}{company} (8.0)")]


# -- the orders of the sequence: setup done, placement, routes, passes ------------------------


@order(Ready, phases="deploy", offers=setup_offers(Ready))
def ready_order(ctx: Ctx[RRState], action: Ready) -> None:
    """11.0: setup done (then the Soviets', then turn 1)."""
    ctx.extend(ready(Board(ctx.state), ctx.side, ctx.dice))


def place_orders(state: RRState, side: str) -> list[Action]:
    """11.0 turns 5-6: each placeable reinforcement to each area it may be placed in."""
    b = Board(state, frozen=True)
    out: list[Action] = []
    for unit in placeable(b, side):
        out += [Place(unit=unit.id, area=a) for a in place_areas(b, unit.id)]
    return out


@order(Place, phases="place", offers=place_orders)
def place_order(ctx: Ctx[RRState], action: Place) -> None:
    """11.0 turns 5-6: a reinforcement placed at no AP cost; the side's placement step ends
    when it has nothing left to place."""
    b = Board(ctx.state)
    ctx.extend(place(b, as_side(ctx.side), action.unit, area_named(b, action.area), action.target, ctx.dice))
    if not ctx.state.pending and not placeable(b, ctx.side):
        ctx.extend(open_placement_after(b, ctx.side))


def skip_orders(state: RRState, side: str) -> list[Action]:
    """11.0: skip the placements; 9.5: hold the AGS-17's second shot."""
    return [Skip()]


@order(Skip, phases=("place", "pending-ags"), offers=skip_orders)
def skip_order(ctx: Ctx[RRState], action: Skip) -> None:
    """11.0: no (more) placements now; 9.5: the AGS-17 holds its second shot."""
    s = ctx.state
    if s.pending:
        pending = s.pending.pop(0)
        ctx.say("ags", f"{pending.unit} holds its second shot (9.5)", "9.5")
        return
    ctx.extend(open_placement_after(Board(s), ctx.side))


def route_orders(state: RRState, side: str) -> list[Action]:
    """8.0: each routing unit to each area it may route to."""
    b = Board(state, frozen=True)
    out: list[Action] = []
    for unit in b.on_map(side):
        out += [Route(unit=unit.id, to=a) for a in route_options(b, unit.id)]
    return out


@order(Route, phases="route", offers=route_orders)
def route_order(ctx: Ctx[RRState], action: Route) -> None:
    """8.0: one Suppressed or Recovering unit routes; a side with no unit left that may
    route is done at once (as 7.0 passes for a side with no order left)."""
    b = Board(ctx.state)
    ctx.extend(route(b, ctx.side, action.unit, action.to))
    if not can_route(b, ctx.side):
        ctx.say("route", f"{SIDE_NAMES[ctx.side]}: no other unit may route (8.0)", "8.0")
        ctx.extend(next_router(b, ctx.dice))


def done_orders(state: RRState, side: str) -> list[Action]:
    """8.0: routes finished; 6.2: rally decisions made."""
    return [Done()]


@order(Done, phases=("route", "rally"), offers=done_orders)
def done_order(ctx: Ctx[RRState], action: Done) -> None:
    """8.0: routes finished; the other side's, or the end of the turn.  6.2: rally
    decisions made; the other side's, or the rolls."""
    b = Board(ctx.state)
    if ctx.state.phase == "rally":
        ctx.state.rally_done.append(ctx.side)
        ctx.extend(rally_step(b, ctx.dice))
        return
    ctx.extend(next_router(b, ctx.dice))


def rally_helped(ctx: Ctx[RRState], events: list[Event]) -> None:
    """9.7/9.8 in the rally phase: the help given; with nothing left to decide, the side is
    done (6.2)."""
    ctx.extend(events)
    b = Board(ctx.state)
    if not wants_help(b, ctx.side):
        ctx.state.rally_done.append(ctx.side)
        ctx.extend(rally_step(b, ctx.dice))


def pass_orders(state: RRState, side: str) -> list[Action]:
    """7.0: a side may always pass its impulse."""
    return [Pass()]


@order(Pass, phases="ops", offers=pass_orders)
def pass_order(ctx: Ctx[RRState], action: Pass) -> None:
    """7.0: pass; two in a row end the operations phase."""
    ctx.state.marks = []
    ctx.extend(pass_impulse(Board(ctx.state), ctx.dice))
