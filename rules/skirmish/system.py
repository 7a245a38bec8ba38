"""The platoon skirmish as a :class:`GameSystem`: the table of contents of its rules.

A turn: both roll for the first Initiative; the player with the Initiative activates units one
by one (``activate``, then ``action``, then ``move``/``fire``/``assault``/``barrage``/``smoke``
and ``done``) until a check fails; the other player then has the Initiative; the turn ends when
every unit has acted (Morale, then the next turn).  Decisions owed by the other player mid-way
(reaction fire, going to ground, the assault's answers, a missed template) are ``decide``
orders, unless a standing answer (``defaults``) gives them.

Each order is declared once, on the rule function of its chapter module (with its
offers): activation, the action, moves, fire and done in :mod:`~rules.skirmish.play`; assaults
in :mod:`~rules.skirmish.melee`; barrage and smoke in :mod:`~rules.skirmish.artillery`; the
leaders' help in :mod:`~rules.skirmish.leaders`; the answers in
:mod:`~rules.skirmish.decisions` and :mod:`~rules.skirmish.standing`; the tape in
:mod:`~rules.skirmish.measuring`.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from rules.core.contract import Action, GameOptions, GameSystem, Outcome, Step, Turn
from rules.core.dice import Dice
from rules.core.orders import Ctx
from rules.core.views import fired_by_marks
from rules.skirmish import (
    artillery, decisions, flow, labels, leaders, measuring, melee, play, prospects, standing,
)
from rules.skirmish.orders import ACTIONS, Done
from rules.skirmish.scenario import FORMAT as SCENARIO_FORMAT, load_scenario
from rules.skirmish.state import SIDE_NAMES, SIDES, SkirmishState, opening_state
from rules.skirmish.view import build_view, marker_summary, seen_of

SCENARIOS = ("hedgerow_village", "open_field")


class SkirmishOptions(GameOptions):
    """``/game new options:turns=4``: a shorter or longer game than the scenario's."""

    turns: int | None = Field(None, ge=1, le=20, description="number of turns (default: the scenario's)")


class PlatoonSkirmish(GameSystem[SkirmishState]):
    """WWII platoons of teams on a 48"x48" table: Americans against Germans, 1944."""

    key = "skirmish"
    title = "Platoon skirmish"
    #: The rules version (rules/skirmish/CHANGELOG.md: bump it with a line there).
    rules_version = 2
    sides = SIDES
    side_names = dict(SIDE_NAMES)
    scenarios = SCENARIOS
    scenario_format = SCENARIO_FORMAT
    actions = ACTIONS
    state_model = SkirmishState
    options_model = SkirmishOptions
    #: Where the orders are declared, each on the rule function that resolves it.
    order_modules = (play, melee, artillery, leaders, decisions, standing, measuring)
    #: A side that lets its deadline pass ends the activation (Turns), issue 19; which team
    #: activates and the answers to questions are never chosen for a player.
    idle_orders = {"orders": Done()}

    def start(self, scenario: str, options: Any, dice: Dice) -> Step:
        """Lay out the table and roll the first turn's Initiative (or, for a scenario begun
        part-way through a turn, give the Initiative to the side it names, issue 46)."""
        scen = load_scenario(scenario)
        state = opening_state(scen, getattr(options, "turns", None))
        ctx = Ctx(state=state, side="us", dice=dice)
        ctx.say("setup", f"{scen.title}: {scen.width:g}\"x{scen.height:g}\", {state.max_turn} turns. "
                         "Values the rulebook does not print are stand-ins (see the scenario).")
        if scen.start_initiative is None:
            ctx.extend(flow.roll_initiative(state, dice))
        else:
            ctx.extend(flow.resume_initiative(state, scen.start_initiative))
        return self.make_step(state, ctx.events, snapshot=True)

    def after_order(self, ctx: Ctx[SkirmishState], action: Action) -> None:
        """The active unit wiped out ends its activation; a side wiped out loses at once."""
        state = ctx.state
        active = state.unit(state.active) if state.active else None  # inline: after every order
        if active is not None and not active.on_table and state.pending is None and not state.finished:
            ctx.say("gone", f"{active.id} is gone from the table: its activation ends (Turns)", "Turns")
            ctx.extend(flow.end_activation(state, ctx.dice))
            ctx.snapshot = True
        if not state.finished:
            events: list = []
            if flow.over_by_wipe(state, events):
                ctx.extend(events)
                ctx.snapshot = True

    #: What a player needs to choose: check needed, targets in range, move lengths.
    label = staticmethod(labels.label)

    # -- where the game stands -----------------------------------------------------------------

    def phase_of(self, state: SkirmishState) -> str:
        """activate, action, orders, decide or over."""
        return state.phase

    def waiting_on(self, state: SkirmishState) -> list[str]:
        """The player asked a question, else the player with the Initiative."""
        if state.finished:
            return []
        if state.pending is not None:
            return [state.pending.side]
        return [state.initiative]

    def turn_part(self, state: SkirmishState) -> str:
        """e.g. ``Turn 2/6 · Germans · orders 1pl``."""
        who = SIDE_NAMES[state.pending.side if state.pending else state.initiative]
        part = state.phase + (f" {state.active}" if state.active else "")
        return f"Turn {min(state.turn, state.max_turn)}/{state.max_turn} · {who} · {part}"

    def status(self, state: SkirmishState) -> list[str]:
        """Turn, Initiative, the active unit, units still to act, the question asked."""
        lines = [self.turn_part(state)]
        if state.finished:
            return lines + [state.result_text or ""]
        if state.active:
            unit = state.unit(state.active)
            lines.append(f"Active: {unit.id} ({unit.action or 'choose an action'}; "
                         f"steps left: {' then '.join(play.steps_left(state, unit)) or 'none: done ends it'})")
        if state.pending:
            lines.append(f"Asking {SIDE_NAMES[state.pending.side]}: {state.pending.kind} "
                         f"({' or '.join(decisions.ANSWERS[state.pending.kind])})")
        for side in SIDES:
            left = [u.id for u in flow.waiting(state, side)]
            lost = sum(len(u.teams) - len(u.alive_teams) for u in state.units if u.side == side)
            lines.append(f"{SIDE_NAMES[side]}: to act {', '.join(left) or 'none'}; teams lost {lost}; "
                         f"markers: {marker_summary(state, side)}")
        return lines

    #: The table snapshot.
    view = staticmethod(build_view)

    def fired(self, state: SkirmishState) -> frozenset[str]:
        """Who the picture shows firing, read from the marks it copies (view.py: the marks
        of this turn, else the last one's), without building the picture (issue 23)."""
        return fired_by_marks(state.marks or state.last_marks)

    #: What "what changed" keeps of the picture, from the state (issue 23).
    seen = staticmethod(seen_of)

    def turn(self, state: SkirmishState) -> Turn:
        """The turn as the picture's header shows it, without building the picture
        (issue 23): the picture shows min(turn, max_turn) (view.py)."""
        return Turn(number=min(state.turn, state.max_turn), waiting_on=self.waiting_on(state))

    def evaluate(self, state: SkirmishState, side: str) -> float:
        """The battle's winner once it is over, else the lead in teams left, at the
        objective and on their way to it (:func:`rules.skirmish.prospects.prospects`)."""
        return prospects.prospects(state, side)

    def result(self, state: SkirmishState) -> str | None:
        """The result line once the game is over."""
        return state.result_text if state.finished else None

    def outcome(self, state: SkirmishState) -> Outcome | None:
        """The result with its winner named (None: a draw on time), for a league (issue 44)."""
        if not state.finished or state.result_text is None:
            return None
        return Outcome(winner=state.winner, termination=state.result_text)
