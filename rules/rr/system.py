"""Raid and Riposte as a :class:`GameSystem`: setup, each order declared once, who acts, status.

One impulse is one order (7.0): a group move from one area, a fire with supporters, an
assault, an entry, or one special action; then the impulse passes to the opponent.  Pending
decisions (a defender's retreat, extra assault hits, the AGS-17's second shot) are answered
first by the side that owes them: the phase is then ``pending-<kind>``.  Everything needing
no decision is done by the bot inside the order that triggers it (see :mod:`rules.rr.sequence`).
Each order is declared once, with its offers, in the chapter module of its rule; this class
lists those modules and answers the contract's questions.
"""

from __future__ import annotations

from typing import Any

from rules.core.contract import Action, Event, GameSystem, Outcome, Step, Turn
from rules.core.dice import Dice
from rules.core.orders import Ctx
from rules.core.playout import PlayoutHints
from rules.core.views import AreaMapView, Seen
from rules.rr import arrivals, combat, info, menus, movement, sequence, special, standing
from rules.rr.actions import ACTIONS, Deploy, Done, Pass, Skip, StandingChoice
from rules.rr.scenario import FORMAT as SCENARIO_FORMAT
from rules.rr.board import SCENARIO_KEYS, Board, is_scenario, scenario_of
from rules.rr.state import SIDE_NAMES, RRState, UnitState, says
from rules.rr.view import PHASES, build_view, fired_of, seen_of
from rules.rr.victory import nato_wins, objective_lines, prospects

ASK = {"retreat": "Retreat?", "spread": "Assign hits", "ags": "AGS-17 again?", "withdraw": "Retreat where?"}



def stuck_reason(b: Board, side: str) -> str:
    """Why ``side``, waited on, has no order it may give: its set-up cannot be finished
    (11.0, what ``ready`` would say), else a dead end the rules should never reach."""
    why = sequence.setup_problem(b, side) if b.s.phase == "deploy" else None
    return why or "no order fits this phase; this is a bug to report to the game's admins."

class RaidAndRiposte(GameSystem[RRState]):
    """Lock 'n Load's Raid and Riposte v2.0: NATO against the Soviets at Tannenbruck, 1985."""

    key = "rr"
    title = "Raid and Riposte"
    #: The rules version (rules/rr/CHANGELOG.md: bump it with a line there).
    rules_version = 2
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
    #: Each order is declared once, with its rule, in its chapter: setup and entry (11.0),
    #: fire and the decisions after hits (7.3.3-7.3.4, 9.5, 10.1), movement and assault
    #: (7.2, 7.3.5), the sequence (6.0-8.0: ready, placement, routes, passes), the special
    #: units (9.2-9.10, 10.2), standing answers and counter information.
    order_modules = (arrivals, combat, movement, sequence, special, standing, info)

    # -- setup --------------------------------------------------------------------------------

    #: Tannenbruck, or a board a test or variant registered (``register_scenario``).
    has_scenario = staticmethod(is_scenario)

    def start(self, scenario: str, options: Any, dice: Dice) -> Step:
        """11.0: every counter in the pool; NATO sets up first."""
        sc = scenario_of(scenario)
        units = {u.id: UnitState(id=u.id, side=u.side, reduced=u.start.reduced, status=u.start.status)
                 for u in sc.units}
        # issue 46: a game begun at a later turn: set-up, then turn ``start.turn`` (6.0)
        state = RRState(scenario=sc.key, max_turn=sc.turns, units=units, active="nato",
                        turn=sc.start.turn - 1)
        b = Board(state)
        fixed = [d for d in sc.deployments if d.mode == "setup" and len(d.areas) == 1]
        events = [Event(kind="setup", rule="11.0", text="NATO sets up first (11.0): deploy, deploy-default, ready")]
        for dep in fixed:
            for uid in dep.units:
                events += arrivals.deploy(b, dep.side, uid, dep.areas[0])
        state.marks = []
        b.update_control()
        return self.make_step(state, events, snapshot=True)

    def after_order(self, ctx: Ctx[RRState], action: Action) -> None:
        """Control of areas (12.0); 7.0: a side left with no order but pass passes at once;
        an impulse that ended (no decision pending) posts a map."""
        b = Board(ctx.state)
        ctx.extend(sequence.auto_pass(b, ctx.dice, lambda side: menus.has_impulse(ctx.state, side)))
        b.update_control()
        ctx.snapshot = not ctx.state.pending and not isinstance(action, (Deploy, StandingChoice))

    # -- questions ----------------------------------------------------------------------------

    def in_setup(self, state: RRState) -> bool:
        """11.0: both sides deploy before turn 1."""
        return state.phase == "deploy"

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

    #: What a player needs to choose: range and roll needed, AP, terrain.
    label = staticmethod(menus.label)

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
            lines.append(f"{SIDE_NAMES[side]} can: {', '.join(names)}" if names else
                         f"{says(side, 'has', 'have')} no legal order: {stuck_reason(b, side)}")
        return lines

    #: The snapshot's view model.
    view = staticmethod(build_view)
    #: Who the picture shows firing, from the state's marks (issue 23: no picture built).
    fired = staticmethod(fired_of)
    #: What "what changed" keeps of the picture, from the state (issue 23).
    seen = staticmethod(seen_of)

    def turn(self, state: RRState) -> Turn:
        """The turn as the picture's header shows it, without building the picture
        (issue 23): turn 0 is the setup (11.0): no turn yet."""
        return Turn(number=state.turn or None, waiting_on=self.waiting_on(state))

    def result(self, state: RRState) -> str | None:
        """The verdict of 12.0 after turn 7, else None."""
        return state.result

    def outcome(self, state: RRState) -> Outcome | None:
        """The verdict of 12.0 with its winner named (a league rates it, issue 44): NATO
        if it holds 19, its ring and a secondary objective, else the Soviets; None before
        the end."""
        if state.result is None:
            return None
        return Outcome(winner="nato" if nato_wins(Board(state)) else "soviet", termination=state.result)

    def evaluate(self, state: RRState, side: str) -> float:
        """12.0's objectives and the forces left (:func:`rules.rr.victory.prospects`)."""
        return prospects(state, side)

    def outcome_now(self, state: RRState) -> Outcome | None:
        """12.0 read at this point, as ``/game status`` says it (``If it ended now: …``)."""
        if state.result is not None:
            return self.outcome(state)
        b = Board(state)
        winner = "nato" if nato_wins(b) else "soviet"
        return Outcome(winner=winner, termination=f"{says(winner, 'wins', 'win')} by 12.0 at this point")
