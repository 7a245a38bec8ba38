"""Raid and Riposte as a :class:`GameSystem`: setup, the order dispatcher, who acts, status.

One impulse is one order (7.0): a group move from one area, a fire with supporters, an
assault, an entry, or one special action; then the impulse passes to the opponent.  Pending
decisions (a defender's retreat, extra assault hits, the AGS-17's second shot) are answered
first by the side that owes them.  Everything needing no decision is done by the bot inside
the order that triggers it (see :mod:`rules.rr.sequence`).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from rules.core.contract import Action, Choice, Event, GameSystem, Step
from rules.core.dice import Dice
from rules.core.errors import RuleError
from rules.core.views import AreaMapView
from rules.rr import arrivals, combat, movement, sequence, special
from rules.rr.actions import (
    ACTIONS, Airstrike, Assault, Boyes, Deploy, DeployDefault, Done, Enter, Fire, Hind, Hq, Move,
    Nikolas, Pass, Place, Ready, Retreat, Route, Skip, Sniper, StandingChoice, TakeHits,
)
from rules.rr.assault import after_lead, spread_hit
from rules.rr.board import Board, scenario_of
from rules.rr.combat import retreat_and_hit
from rules.rr.hits import retreat_options, take_hits
from rules.rr.menus import legal, suggest
from rules.rr.state import SIDE_NAMES, RRState, UnitState, other
from rules.rr.view import PHASES, build_view
from rules.rr.victory import objective_lines

IMPULSE_ORDERS = (Move, Enter, Fire, Assault, Nikolas, Boyes, Hq, Sniper, Airstrike, Hind)


class RaidAndRiposte(GameSystem):
    """Lock 'n Load's Raid and Riposte v2.0: NATO against the Soviets at Tannenbruck, 1985."""

    key = "rr"
    title = "Raid and Riposte"
    sides = ("nato", "soviet")
    scenarios = ("tannenbruck",)
    actions = ACTIONS
    state_model = RRState

    # -- setup --------------------------------------------------------------------------------

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

    # -- orders -------------------------------------------------------------------------------

    def apply(self, state: BaseModel, side: str, action: Action, dice: Dice) -> Step:
        """Resolve one order on a copy of the state (never the input)."""
        if not isinstance(state, RRState):
            raise RuleError("This is not a Raid and Riposte game.")
        if side not in self.sides:
            raise RuleError(f"'{str(side)[:20]}' is not a side; sides: nato, soviet.")
        if not isinstance(action, ACTIONS):
            raise RuleError("That is not a Raid and Riposte order.")
        s = RRState.model_validate(state.model_dump())  # a deep copy, 4x faster
        if s.phase == "over":
            raise RuleError(f"The game is over: {s.result}")
        b = Board(s)
        if isinstance(action, StandingChoice):
            s.standing[side] = action.retreat
            text = f"{SIDE_NAMES[side]}: retreat from fire: {action.retreat} (7.3.3)"
            return self.make_step(s, [Event(kind="standing", rule="7.3.3", text=text)])
        waiting = self.waiting_on(s)
        if side not in waiting:
            raise RuleError(f"It is not your turn: waiting on {', '.join(SIDE_NAMES[w] for w in waiting)}.")
        events = self._dispatch(b, side, action, dice)
        b.update_control()
        impulse_over = not s.pending and not isinstance(action, (Deploy, StandingChoice))
        return self.make_step(s, events, snapshot=impulse_over)

    def _dispatch(self, b: Board, side: str, action: Action, dice: Dice) -> list[Event]:
        """Route an order to its rule, by phase and pending decision."""
        s = b.s
        if s.pending:
            return self._answer(b, side, action, dice)
        if s.phase == "deploy":
            if isinstance(action, Deploy):
                area = self._area(b, action.area)
                return arrivals.deploy(b, side, action.unit, area)
            if isinstance(action, DeployDefault):
                return arrivals.deploy_default(b, side)
            if isinstance(action, Ready):
                return sequence.ready(b, side, dice)
            raise RuleError("Setting up: use deploy, deploy-default or ready (11.0).")
        if s.phase == "place":
            if isinstance(action, Place):
                events = arrivals.place(b, side, action.unit, self._area(b, action.area), action.target, dice)
                if not s.pending and not arrivals.placeable(b, side):
                    events += sequence.open_placement_after(b, side)
                return events
            if isinstance(action, Skip):
                return sequence.open_placement_after(b, side)
            raise RuleError("Placement step: use place or skip (11.0).")
        if s.phase == "route":
            if isinstance(action, Route):
                return sequence.route(b, side, action.unit, action.to)
            if isinstance(action, Done):
                return sequence.next_router(b, dice)
            raise RuleError("Route phase: use route or done (8.0).")
        if isinstance(action, Pass):
            s.marks = []
            return sequence.pass_impulse(b, dice)
        if not isinstance(action, IMPULSE_ORDERS):
            raise RuleError(f"'{action.name}' is not an order of the operations phase.")
        s.marks = []
        events = self._impulse(b, side, action, dice)
        sequence.end_impulse(b)
        return events

    def _impulse(self, b: Board, side: str, action: Action, dice: Dice) -> list[Event]:
        """One operations-phase order."""
        if isinstance(action, Move):
            return movement.move(b, side, action.units, self._area(b, action.to))
        if isinstance(action, Assault):
            to = self._area(b, action.to)
            return movement.assault_order(b, side, action.units, to, action.target, action.air, dice)
        if isinstance(action, Enter):
            return arrivals.enter(b, side, action.units, self._area(b, action.to))
        if isinstance(action, Fire):
            return combat.fire(b, side, action, dice)
        if isinstance(action, Nikolas):
            return special.nikolas(b, side, action.unit, action.value)
        if isinstance(action, Boyes):
            return special.boyes(b, side, action.unit)
        if isinstance(action, Hq):
            return special.hq(b, side, action.unit)
        if isinstance(action, Sniper):
            return special.sniper(b, side, action.target, dice)
        if isinstance(action, Airstrike):
            return combat.airstrike_alone(b, side, action.target, dice)
        assert isinstance(action, Hind)
        return special.hind(b, side, self._area(b, action.area))

    def _answer(self, b: Board, side: str, action: Action, dice: Dice) -> list[Event]:
        """Answer the first pending decision."""
        pending = b.s.pending[0]
        if pending.kind == "retreat":
            to: str | None = None
            if isinstance(action, Retreat):
                options = retreat_options(b, pending.unit or "", pending.origin, pending.source)
                if action.to not in options:
                    allowed = ", ".join(options) or "none"
                    raise RuleError(f"{pending.unit} may retreat to: {allowed} (7.3.3), or take-hits.")
                to = action.to
            elif not isinstance(action, TakeHits):
                raise RuleError(f"First decide for {pending.unit}: retreat to:<area> or take-hits (7.3.3).")
            b.s.pending.pop(0)
            uid = pending.unit or ""
            if pending.assault:
                attacker = other(pending.side)
                return after_lead(b, attacker, pending.area or "", pending.source, uid, pending.hits, to)
            if to is None:
                return take_hits(b, uid, pending.hits, "7.3.3")
            return retreat_and_hit(b, uid, to, pending.hits)
        if pending.kind == "spread":
            if isinstance(action, TakeHits) and action.unit:
                return spread_hit(b, action.unit)
            raise RuleError(f"Give the extra hit with take-hits unit:<a unit in area {pending.area}> (7.3.5.2).")
        if isinstance(action, Skip):
            b.s.pending.pop(0)
            return [Event(kind="ags", rule="9.5", text=f"{pending.unit} holds its second shot (9.5)")]
        if isinstance(action, Fire) and action.unit.lower() == (pending.unit or "").lower():
            b.s.pending.pop(0)
            return combat.fire(b, side, action, dice, bonus_shot=True)
        raise RuleError(f"{pending.unit} rolled doubles: fire it again, no support (9.5), or skip.")

    @staticmethod
    def _area(b: Board, area: str) -> str:
        """An area id that exists, or a RuleError."""
        if area not in b.g:
            raise RuleError(f"There is no area '{area[:10]}'; areas are 1-{len(b.g)}.")
        return area

    # -- questions ----------------------------------------------------------------------------

    def choices(self, state: BaseModel, side: str, action: str, field: str, partial: dict[str, Any]) -> list[Choice]:
        """Autocomplete from the legal orders (see :func:`rules.rr.menus.suggest`)."""
        if not isinstance(state, RRState):
            return []
        return suggest(state, side, action, field, partial)

    def legal_actions(self, state: BaseModel, side: str) -> list[Action]:
        """The orders ``side`` may give now."""
        if not isinstance(state, RRState):
            return []
        return legal(state, side)

    def waiting_on(self, state: BaseModel) -> list[str]:
        """Who must act: the owner of a pending decision, else the active side."""
        assert isinstance(state, RRState)
        if state.phase == "over":
            return []
        return [state.pending[0].side] if state.pending else [state.active]

    def turn_part(self, state: BaseModel) -> str:
        """``Turn 2/7 · Operations · NATO``."""
        assert isinstance(state, RRState)
        if state.phase == "deploy":
            return f"Setup · {SIDE_NAMES[state.active]}"
        head = f"Turn {state.turn}/{state.max_turn} · {PHASES[state.phase]}"
        if state.phase == "over":
            return head
        if state.pending:
            ask = {"retreat": "Retreat?", "spread": "Assign hits", "ags": "AGS-17 again?"}
            return f"{head} · {ask[state.pending[0].kind]} · {SIDE_NAMES[state.pending[0].side]}"
        return f"{head} · {SIDE_NAMES[state.active]}"

    def status(self, state: BaseModel) -> list[str]:
        """Lines for ``/game status``."""
        assert isinstance(state, RRState)
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
            names = sorted({a.name for a in legal(state, side)})
            lines.append(f"{SIDE_NAMES[side]} can: {', '.join(names)}")
        return lines

    def view(self, state: BaseModel) -> AreaMapView:
        """The snapshot's view model."""
        assert isinstance(state, RRState)
        return build_view(state)

    def result(self, state: BaseModel) -> str | None:
        """The verdict of 12.0 after turn 7, else None."""
        assert isinstance(state, RRState)
        return state.result

