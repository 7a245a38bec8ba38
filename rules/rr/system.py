"""Raid and Riposte as a :class:`GameSystem`: setup, each order declared once, who acts, status.

One impulse is one order (7.0): a group move from one area, a fire with supporters, an
assault, an entry, or one special action; then the impulse passes to the opponent.  Pending
decisions (a defender's retreat, extra assault hits, the AGS-17's second shot) are answered
first by the side that owes them: the phase is then ``pending-<kind>``.  Everything needing
no decision is done by the bot inside the order that triggers it (see :mod:`rules.rr.sequence`).
Each order's legal offers are in :mod:`rules.rr.menus`, built with the resolvers' own checks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.core.contract import Action, Event, GameSystem, Step, Turn
from rules.core.dice import Dice
from rules.core.errors import RuleError
from rules.core.orders import Ctx, order
from rules.core.playout import PlayoutHints
from rules.core.views import AreaMapView, Seen
from rules.rr import arrivals, combat, menus, movement, sequence, special
from rules.rr.actions import (
    ACTIONS, Airstrike, Assault, Boyes, Deploy, DeployDefault, Done, Enter, Fire, Hind, Hq, Info,
    Move, Nikolas, Pass, Place, Ready, Retreat, Route, Skip, Sniper, StandingChoice, TakeHits,
)
from rules.rr.assault import after_lead, spread_hit, withdraw_chosen
from rules.rr.scenario import FORMAT as SCENARIO_FORMAT
from rules.rr.board import SCENARIO_KEYS, Board, is_scenario, scenario_of
from rules.rr.combat import next_prompt, retreat_and_hit
from rules.rr.hits import retreat_checks, take_hits
from rules.rr.info import unit_info
from rules.rr.rally import wants_help
from rules.rr.state import SIDE_NAMES, RRState, UnitState, other
from rules.rr.view import PHASES, build_view, fired_of, seen_of
from rules.rr.victory import objective_lines

OPS = ("ops",)
ASK = {"retreat": "Retreat?", "spread": "Assign hits", "ags": "AGS-17 again?", "withdraw": "Retreat where?"}


def _offers(build: Callable[[Board, str], list[Action]]) -> Callable[[Any, RRState, str], list[Action]]:
    """An ``offers`` function of the kit from a menu of :mod:`rules.rr.menus`."""
    def offers(system: Any, state: RRState, side: str) -> list[Action]:
        return build(Board(state, frozen=True), side)
    offers.__doc__ = build.__doc__
    return offers


def _one(action: Action) -> Callable[[Any, RRState, str], list[Action]]:
    return lambda system, state, side: [action]


def _area(b: Board, area: str) -> str:
    """An area id that exists, or a RuleError."""
    if area not in b.g:
        raise RuleError(f"There is no area '{area[:10]}'; areas are 1-{len(b.g)}.")
    return area


class RaidAndRiposte(GameSystem[RRState]):
    """Lock 'n Load's Raid and Riposte v2.0: NATO against the Soviets at Tannenbruck, 1985."""

    key = "rr"
    title = "Raid and Riposte"
    sides = ("nato", "soviet")
    side_names = SIDE_NAMES
    scenarios = SCENARIO_KEYS
    scenario_format = SCENARIO_FORMAT
    actions = ACTIONS
    state_model = RRState
    playout_hints = PlayoutHints(rare=frozenset({"pass", "done", "skip", "take-hits"}))
    #: A side that lets its deadline pass (issue 19): passes its impulse (7.0), places no
    #: more reinforcements now (11.0) and is done routing or rallying (8.0, 6.2).  Decisions
    #: owed (retreat, hits) and the deployment are never made for a player.
    idle_orders = {"ops": Pass(), "place": Skip(), "route": Done(), "rally": Done()}

    # -- setup --------------------------------------------------------------------------------

    def has_scenario(self, scenario: str) -> bool:
        """Tannenbruck, or a board a test or variant registered (``register_scenario``)."""
        return is_scenario(scenario)

    def start(self, scenario: str, options: Any, dice: Dice) -> Step:
        """11.0: every counter in the pool; NATO sets up first."""
        sc = scenario_of(scenario)
        units = {u.id: UnitState(id=u.id, side=u.side) for u in sc.units}
        state = RRState(scenario=sc.key, max_turn=sc.turns, units=units, active="nato")
        b = Board(state)
        fixed = [d for d in sc.deployments if d.mode == "setup" and len(d.areas) == 1]
        events = [Event(kind="setup", rule="11.0", text="NATO sets up first (11.0): deploy, deploy-default, ready")]
        for dep in fixed:
            for uid in dep.units:
                events += arrivals.deploy(b, dep.side, uid, dep.areas[0])
        state.marks = []
        b.update_control()
        return self.make_step(state, events, snapshot=True)

    # -- setup and placement orders (11.0) ----------------------------------------------------

    @order(Deploy, phases="deploy", offers=_offers(lambda b, side: [
        a for a in menus.deploy_orders(b, side) if isinstance(a, Deploy)]))
    def deploy(self, ctx: Ctx[RRState], action: Deploy) -> None:
        """11.0: one unit to one of its setup areas."""
        b = Board(ctx.state)
        ctx.extend(arrivals.deploy(b, ctx.side, action.unit, _area(b, action.area)))

    @order(DeployDefault, phases="deploy", offers=_offers(lambda b, side: [
        a for a in menus.deploy_orders(b, side) if isinstance(a, DeployDefault)]))
    def deploy_default(self, ctx: Ctx[RRState], action: DeployDefault) -> None:
        """11.0: a ready-made legal deployment of every unit still waiting."""
        ctx.extend(arrivals.deploy_default(Board(ctx.state), ctx.side))

    @order(Ready, phases="deploy", offers=_offers(lambda b, side: [
        a for a in menus.deploy_orders(b, side) if isinstance(a, Ready)]))
    def ready(self, ctx: Ctx[RRState], action: Ready) -> None:
        """11.0: setup done (then the Soviets', then turn 1)."""
        ctx.extend(sequence.ready(Board(ctx.state), ctx.side, ctx.dice))

    @order(Place, phases="place", offers=_offers(menus.place_orders))
    def place(self, ctx: Ctx[RRState], action: Place) -> None:
        """11.0 turns 5-6: a reinforcement placed at no AP cost."""
        b = Board(ctx.state)
        ctx.extend(arrivals.place(b, ctx.side, action.unit, _area(b, action.area), action.target, ctx.dice))
        if not ctx.state.pending and not arrivals.placeable(b, ctx.side):
            ctx.extend(sequence.open_placement_after(b, ctx.side))

    @order(Skip, phases=("place", "pending-ags"), offers=_one(Skip()))
    def skip(self, ctx: Ctx[RRState], action: Skip) -> None:
        """11.0: no (more) placements now; 9.5: the AGS-17 holds its second shot."""
        s = ctx.state
        if s.pending:
            pending = s.pending.pop(0)
            ctx.say("ags", f"{pending.unit} holds its second shot (9.5)", "9.5")
            return
        ctx.extend(sequence.open_placement_after(Board(s), ctx.side))

    # -- the route phase (8.0) ------------------------------------------------------------------

    @order(Route, phases="route", offers=_offers(menus.route_orders))
    def route(self, ctx: Ctx[RRState], action: Route) -> None:
        """8.0: one Suppressed or Recovering unit routes; a side with no unit left that may
        route is done at once (as 7.0 passes for a side with no order left)."""
        b = Board(ctx.state)
        ctx.extend(sequence.route(b, ctx.side, action.unit, action.to))
        if not sequence.can_route(b, ctx.side):
            ctx.say("route", f"{SIDE_NAMES[ctx.side]}: no other unit may route (8.0)", "8.0")
            ctx.extend(sequence.next_router(b, ctx.dice))

    @order(Done, phases=("route", "rally"), offers=_one(Done()))
    def done(self, ctx: Ctx[RRState], action: Done) -> None:
        """8.0: routes finished; the other side's, or the end of the turn.  6.2: rally
        decisions made; the other side's, or the rolls."""
        b = Board(ctx.state)
        if ctx.state.phase == "rally":
            ctx.state.rally_done.append(ctx.side)
            ctx.extend(sequence.rally_step(b, ctx.dice))
            return
        ctx.extend(sequence.next_router(b, ctx.dice))

    def _rally_help(self, ctx: Ctx[RRState], events: list[Event]) -> None:
        """9.7/9.8 in the rally phase; with nothing left to decide, the side is done."""
        ctx.extend(events)
        b = Board(ctx.state)
        if not wants_help(b, ctx.side):
            ctx.state.rally_done.append(ctx.side)
            ctx.extend(sequence.rally_step(b, ctx.dice))

    # -- the operations phase (7.0): one order is one impulse -----------------------------------

    @order(Pass, phases=OPS, offers=_one(Pass()))
    def pass_(self, ctx: Ctx[RRState], action: Pass) -> None:
        """7.0: pass; two in a row end the operations phase."""
        ctx.state.marks = []
        ctx.extend(sequence.pass_impulse(Board(ctx.state), ctx.dice))

    def _impulse(self, ctx: Ctx[RRState], resolve: Callable[[Board], list[Event]]) -> None:
        """7.0: the marks of the last impulse go, the order is resolved, the impulse passes."""
        ctx.state.marks = []
        b = Board(ctx.state)
        ctx.extend(resolve(b))
        sequence.end_impulse(b)

    @order(Move, phases=OPS, offers=_offers(menus.move_orders))
    def move(self, ctx: Ctx[RRState], action: Move) -> None:
        """7.2: a group from one area to an adjacent one."""
        self._impulse(ctx, lambda b: movement.move(b, ctx.side, action.units, _area(b, action.to)))

    @order(Assault, phases=OPS, offers=_offers(menus.assault_orders))
    def assault(self, ctx: Ctx[RRState], action: Assault) -> None:
        """7.3.5: move in and fight."""
        self._impulse(ctx, lambda b: movement.assault_order(
            b, ctx.side, action.units, _area(b, action.to), action.target, action.air, ctx.dice))

    @order(Enter, phases=OPS, offers=_offers(menus.enter_orders))
    def enter(self, ctx: Ctx[RRState], action: Enter) -> None:
        """11.0: reinforcements come on at an entrance."""
        self._impulse(ctx, lambda b: arrivals.enter(b, ctx.side, action.units, _area(b, action.to)))

    def fire_offers(self, state: RRState, side: str) -> list[Action]:
        """7.3.3 in an impulse; 9.5 the AGS-17's second shot when it is owed."""
        b = Board(state, frozen=True)
        return menus.second_shot_orders(b, side) if state.pending else menus.fire_orders(b, side)

    @order(Fire, phases=("ops", "pending-ags"), offers=fire_offers)
    def fire(self, ctx: Ctx[RRState], action: Fire) -> None:
        """7.3.3: a ranged attack; or 9.5: the AGS-17's second one, without support."""
        s = ctx.state
        if not s.pending:
            self._impulse(ctx, lambda b: combat.fire(b, ctx.side, action, ctx.dice))
            return
        if action.unit.lower() != (s.pending[0].unit or "").lower():
            raise RuleError(f"{s.pending[0].unit} rolled doubles: fire it again, no support (9.5), or skip.")
        s.pending.pop(0)
        ctx.extend(combat.fire(Board(s), ctx.side, action, ctx.dice, bonus_shot=True))

    @order(Nikolas, phases=("ops", "rally"), offers=_offers(menus.nikolas_orders))
    def nikolas(self, ctx: Ctx[RRState], action: Nikolas) -> None:
        """9.7: +1 to one value of a unit in his area; in the rally, +1 morale to one unit."""
        if ctx.state.phase == "rally":
            self._rally_help(ctx, special.nikolas_rally(Board(ctx.state), ctx.side, action.unit, action.value))
            return
        self._impulse(ctx, lambda b: special.nikolas(b, ctx.side, action.unit, action.value))

    @order(Boyes, phases=("ops", "rally"), offers=_offers(menus.boyes_orders))
    def boyes(self, ctx: Ctx[RRState], action: Boyes) -> None:
        """9.8: a reroll for a unit in his area (in an impulse, or before its rally roll)."""
        if ctx.state.phase == "rally":
            self._rally_help(ctx, special.boyes_rally(Board(ctx.state), ctx.side, action.unit,
                                                      action.die, action.use))
            return
        self._impulse(ctx, lambda b: special.boyes(b, ctx.side, action.unit, action.die, action.use))

    @order(Hq, phases=OPS, offers=_offers(menus.hq_orders))
    def hq(self, ctx: Ctx[RRState], action: Hq) -> None:
        """9.10: +1 AP to a nearby unit."""
        self._impulse(ctx, lambda b: special.hq(b, ctx.side, action.unit))

    @order(Sniper, phases=OPS, offers=_offers(menus.sniper_orders))
    def sniper(self, ctx: Ctx[RRState], action: Sniper) -> None:
        """9.2: the sniper's shot."""
        self._impulse(ctx, lambda b: special.sniper(b, ctx.side, action.target, ctx.dice))

    @order(Airstrike, phases=OPS, offers=_offers(menus.airstrike_orders))
    def airstrike(self, ctx: Ctx[RRState], action: Airstrike) -> None:
        """10.1: the airstrike on its own."""
        self._impulse(ctx, lambda b: combat.airstrike_alone(b, ctx.side, action.area, ctx.dice))

    @order(Hind, phases=OPS, offers=_offers(menus.hind_orders))
    def hind(self, ctx: Ctx[RRState], action: Hind) -> None:
        """10.2: the Hind comes in."""
        self._impulse(ctx, lambda b: special.hind(b, ctx.side, _area(b, action.area)))

    # -- pending decisions ----------------------------------------------------------------------

    @order(Retreat, phases=("pending-retreat", "pending-withdraw"), offers=_offers(menus.retreat_orders))
    def retreat(self, ctx: Ctx[RRState], action: Retreat) -> None:
        """7.3.3, 7.3.5.5: the unit hit retreats one area to negate one hit; 7.3.5.2: where a
        defender that lost an assault retreats to."""
        b = Board(ctx.state)
        pending = ctx.state.pending[0]
        if pending.kind == "withdraw":
            ctx.extend(withdraw_chosen(b, action.to))
            return
        checks = retreat_checks(b, pending.unit or "", pending.origin, pending.source)
        allowed = b.area_list([a for a, why in checks.items() if why is None]) or "none"
        if action.to not in checks:
            raise RuleError(f"{pending.unit} retreats one area, to an adjacent one (7.3.3); "
                            f"it may retreat to: {allowed}, or take-hits.")
        why = checks[action.to]
        if why is not None:
            raise RuleError(f"{pending.unit} cannot retreat to {action.to}: {why}. "
                            f"It may retreat to: {allowed}, or take-hits.")
        self._settle_retreat(ctx, action.to)

    @order(TakeHits, phases=("pending-retreat", "pending-spread"), offers=_offers(menus.take_hits_orders))
    def take_hits(self, ctx: Ctx[RRState], action: TakeHits) -> None:
        """7.3.3: no retreat, every hit lands; 7.3.5.2: one extra assault hit to a defender."""
        pending = ctx.state.pending[0]
        if pending.kind == "spread":
            if not action.unit:
                raise RuleError(f"Give the extra hit with take-hits unit:<a unit in area {pending.area}> (7.3.5.2).")
            ctx.extend(spread_hit(Board(ctx.state), action.unit))
            return
        if action.unit and action.unit.lower() != (pending.unit or "").lower():
            raise RuleError(f"The hits are {pending.unit}'s to take: send take-hits without a unit, "
                            f"or retreat (7.3.3).")
        self._settle_retreat(ctx, None)

    def _settle_retreat(self, ctx: Ctx[RRState], to: str | None) -> None:
        """The retreat decision answered: the hits land (and an assault goes on, 7.3.5.2)."""
        b = Board(ctx.state)
        pending = ctx.state.pending.pop(0)
        uid = pending.unit or ""
        if pending.assault:
            ctx.extend(after_lead(b, other(pending.side), pending.area or "", pending.source, uid, pending.hits, to))
        elif to is None:
            ctx.extend(take_hits(b, uid, pending.hits, "7.3.3"))
        else:
            ctx.extend(retreat_and_hit(b, uid, to, pending.hits))
        ctx.extend(next_prompt(b))

    # -- at any time ----------------------------------------------------------------------------

    @order(StandingChoice, offers=lambda system, state, side: [
        *(StandingChoice(retreat=r) for r in ("ask", "never", "always")),
        *(StandingChoice(rally=r) for r in ("ask", "never"))])
    def standing(self, ctx: Ctx[RRState], action: StandingChoice) -> None:
        """7.3.3, 7.3.5.2: the standing answer to retreat decisions; 9.7/9.8: to rally help."""
        if action.retreat is None and action.rally is None:
            raise RuleError("Give retreat:ask|never|always, rally:ask|never, or both.")
        name = SIDE_NAMES[ctx.side]
        if action.retreat is not None:
            ctx.state.standing[ctx.side] = action.retreat
            ctx.say("standing", f"{name}: retreats: {action.retreat} (7.3.3, 7.3.5.2)", "7.3.3")
        if action.rally is not None:
            ctx.state.rally_help[ctx.side] = action.rally
            ctx.say("standing", f"{name}: Nikolas/Boyes before the rally: {action.rally} (9.7, 9.8)", "9.7")

    @order(Info, offers=lambda system, state, side: [Info(unit=u) for u in state.units])
    def info(self, ctx: Ctx[RRState], action: Info) -> None:
        """A counter's values, for anyone (changes nothing)."""
        ctx.extend(unit_info(Board(ctx.state, frozen=True), action.unit))

    def after_order(self, ctx: Ctx[RRState], action: Action) -> None:
        """Control of areas (12.0); 7.0: a side left with no order but pass passes at once;
        an impulse that ended (no decision pending) posts a map."""
        b = Board(ctx.state)
        ctx.extend(sequence.auto_pass(b, ctx.dice, lambda side: menus.has_impulse(ctx.state, side)))
        b.update_control()
        ctx.snapshot = not ctx.state.pending and not isinstance(action, (Deploy, StandingChoice))

    # -- questions ----------------------------------------------------------------------------

    def phase_of(self, state: RRState) -> str:
        """``deploy``, ``place``, ``ops``, ``route``, ``over``, or ``pending-<kind>`` while a
        decision is owed (``pending-retreat``, ``pending-spread``, ``pending-ags``)."""
        if state.pending and state.phase != "over":
            return f"pending-{state.pending[0].kind}"
        return state.phase

    def phase_title(self, state: RRState) -> str:
        """``Operations``, or the decision owed (``Retreat?``)."""
        if state.pending and state.phase != "over":
            return ASK[state.pending[0].kind]
        return PHASES[state.phase]

    def label(self, state: RRState, side: str, action: str, field: str, value: str,
              partial: dict[str, Any]) -> str:
        """What a player needs to choose: range and roll needed, AP, terrain."""
        return menus.label(state, field, value, partial)

    def waiting_on(self, state: RRState) -> list[str]:
        """Who must act: the owner of a pending decision, else the active side."""
        if state.phase == "over":
            return []
        return [state.pending[0].side] if state.pending else [state.active]

    def turn_part(self, state: RRState) -> str:
        """``Turn 2/7 · Operations · NATO``."""
        if state.phase == "deploy":
            return f"Setup · {SIDE_NAMES[state.active]}"
        head = f"Turn {state.turn}/{state.max_turn} · {PHASES[state.phase]}"
        if state.phase == "over":
            return head
        if state.pending:
            return f"{head} · {ASK[state.pending[0].kind]} · {SIDE_NAMES[state.pending[0].side]}"
        return f"{head} · {SIDE_NAMES[state.active]}"

    def status(self, state: RRState) -> list[str]:
        """Lines for ``/game status``."""
        b = Board(state)
        lines = [self.turn_part(state)]
        if state.phase != "deploy":
            rolls = state.init_rolls
            lines.append(f"Initiative: {SIDE_NAMES[state.initiative]} (🎲 NATO {rolls.get('nato', '-')}, "
                         f"Soviets {rolls.get('soviet', '-')})")
            air = "/".join(SIDE_NAMES[x] for x in self.sides if state.airstrike.get(x)) or "none"
            lines.append(f"Airstrike: {air} · Hind: {'ready' if state.hind_ok else 'no'}")
        for side in self.sides:
            due = arrivals.waiting(b, side, ("enter", "place", "place_us_only", "city_east"))
            if due and state.phase != "deploy":
                lines.append(f"{SIDE_NAMES[side]} reinforcements: {', '.join(u.id for u in due)}")
        lines += objective_lines(b)
        if state.result:
            lines.append(state.result)
            return lines
        for side in self.waiting_on(state):
            names = sorted({a.name for a in self.legal_actions(state, side) if not (a.read_only or a.anytime)})
            lines.append(f"{SIDE_NAMES[side]} can: {', '.join(names)}")
        return lines

    def view(self, state: RRState) -> AreaMapView:
        """The snapshot's view model."""
        return build_view(state)

    def fired(self, state: RRState) -> frozenset[str]:
        """Who the picture shows firing, from the state's marks (issue 23: no picture built)."""
        return fired_of(state)

    def seen(self, state: RRState) -> Seen:
        """What "what changed" keeps of the picture, from the state (issue 23)."""
        return seen_of(state)

    def turn(self, state: RRState) -> Turn:
        """The turn as the picture's header shows it, without building the picture
        (issue 23): turn 0 is the setup (11.0): no turn yet."""
        return Turn(number=state.turn or None, waiting_on=self.waiting_on(state))

    def result(self, state: RRState) -> str | None:
        """The verdict of 12.0 after turn 7, else None."""
        return state.result
