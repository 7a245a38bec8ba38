"""The platoon skirmish as a :class:`GameSystem`: orders declared once with their offers.

A turn: both roll for the first Initiative; the player with the Initiative activates units one
by one (``activate``, then ``action``, then ``move``/``fire``/``assault``/``barrage``/``smoke``
and ``done``) until a check fails; the other player then has the Initiative; the turn ends when
every unit has acted (Morale, then the next turn).  Decisions owed by the other player mid-way
(reaction fire, going to ground, the assault's answers, a missed template) are ``decide``
orders, unless a standing answer (``defaults``) gives them.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from rules.core.contract import Action, GameOptions, GameSystem, Step, Turn
from rules.core.dice import Dice
from rules.core.errors import RuleError
from rules.core.orders import Ctx, order
from rules.core.views import Seen, TableView, fired_by_marks
from rules.skirmish import (
    artillery, decisions, flow, labels, leaders, measuring, melee, offers, play,
)
from rules.skirmish.orders import (
    ACTIONS, Activate, Appoint, Assault, Barrage, Choose, Decide, Defaults, Done, Fire,
    Measure, Move, Reroll, Shift, Smoke,
)
from rules.skirmish.scenario import FORMAT as SCENARIO_FORMAT, load_scenario
from rules.skirmish.state import SIDE_NAMES, SIDES, SkirmishState, opening_state
from rules.skirmish.view import build_view, marker_summary, seen_of

SCENARIOS = ("hedgerow_village", "open_field")
ORDERS = ("orders",)
OWN_INITIATIVE = ("activate", "orders")
#: The standing answers a player may set (``defaults``), each ask unless set.
STANDING = ("reaction", "ground", "counter", "follow", "losses", "allocate", "morale", "reroll")


def _own_teams(state: SkirmishState, side: str, text: str) -> str:
    """Team ids of ``side`` from what a player typed ("none" clears), checked."""
    words = [w for w in text.replace(",", " ").split() if w.casefold() != "none"]
    ids = []
    for word in words:
        team = state.team(word)
        if state.unit_of(team).side != side:
            raise RuleError(f"{team.id} is not one of your teams.")
        ids.append(team.id)
    return " ".join(ids)


class SkirmishOptions(GameOptions):
    """``/game new options:turns=4``: a shorter or longer game than the scenario's."""

    turns: int | None = Field(None, ge=1, le=20, description="number of turns (default: the scenario's)")


class PlatoonSkirmish(GameSystem[SkirmishState]):
    """WWII platoons of teams on a 48"x48" table: Americans against Germans, 1944."""

    key = "skirmish"
    title = "Platoon skirmish"
    sides = SIDES
    side_names = dict(SIDE_NAMES)
    scenarios = SCENARIOS
    scenario_format = SCENARIO_FORMAT
    actions = ACTIONS
    state_model = SkirmishState
    options_model = SkirmishOptions
    #: A side that lets its deadline pass ends the activation (Turns), issue 19; which team
    #: activates and the answers to questions are never chosen for a player.
    idle_orders = {"orders": Done()}

    def start(self, scenario: str, options: Any, dice: Dice) -> Step:
        """Lay out the table and roll the first turn's Initiative."""
        scen = load_scenario(scenario)
        state = opening_state(scen, getattr(options, "turns", None))
        ctx = Ctx(state=state, side="us", dice=dice)
        ctx.say("setup", f"{scen.title}: {scen.width:g}\"x{scen.height:g}\", {state.max_turn} turns. "
                         "Values the rulebook does not print are stand-ins (see the scenario).")
        ctx.extend(flow.roll_initiative(state, dice))
        return self.make_step(state, ctx.events, snapshot=True)

    # -- orders ------------------------------------------------------------------------------

    @order(Activate, phases="activate", offers=lambda s, st, side: offers.activate(st, side))
    def activate(self, ctx: Ctx[SkirmishState], o: Activate) -> None:
        """Training Check for a unit (Actions)."""
        play.activate(ctx, o)

    @order(Reroll, phases="action", offers=lambda s, st, side: offers.reroll(st, side))
    def reroll(self, ctx: Ctx[SkirmishState], o: Reroll) -> None:
        """The CC's reroll (Leaders)."""
        play.reroll(ctx)

    @order(Choose, phases="action", offers=lambda s, st, side: offers.choose(st, side))
    def choose(self, ctx: Ctx[SkirmishState], o: Choose) -> None:
        """The unit's action (Actions)."""
        play.choose(ctx, o)

    @order(Move, phases=ORDERS, offers=lambda s, st, side: offers.move(st, side))
    def move(self, ctx: Ctx[SkirmishState], o: Move) -> None:
        """A move (Moving)."""
        play.move(ctx, o)

    @order(Fire, phases=ORDERS, offers=lambda s, st, side: offers.fire(st, side))
    def fire(self, ctx: Ctx[SkirmishState], o: Fire) -> None:
        """Fire (Firing)."""
        play.fire_order(ctx, o)

    @order(Assault, phases=ORDERS, offers=lambda s, st, side: offers.assault(st, side))
    def assault(self, ctx: Ctx[SkirmishState], o: Assault) -> None:
        """An assault (Assaults)."""
        melee.start(ctx, o)

    @order(Barrage, phases=ORDERS, offers=lambda s, st, side: offers.barrage(st, side))
    def barrage(self, ctx: Ctx[SkirmishState], o: Barrage) -> None:
        """A barrage (Indirect Fire)."""
        artillery.fire_barrage(ctx, o)

    @order(Smoke, phases=ORDERS, offers=lambda s, st, side: offers.smoke(st, side))
    def smoke(self, ctx: Ctx[SkirmishState], o: Smoke) -> None:
        """Smoke (Smoke)."""
        artillery.fire_smoke(ctx, o)

    @order(Shift, phases=OWN_INITIATIVE, offers=lambda s, st, side: offers.shift(st, side))
    def shift(self, ctx: Ctx[SkirmishState], o: Shift) -> None:
        """A leader moves a suppression marker (Leaders)."""
        state = ctx.state
        source, dest = state.team(o.source), state.team(o.to)
        if state.unit_of(source).side != ctx.side:
            raise RuleError(f"{source.id} is not yours.")
        leader = offers._leader_for(state, ctx.side, source)
        if leader is None:
            raise RuleError(f"No PL or CC of yours within 2\" of {source.id} may help it now (Leaders).")
        ctx.extend([leaders.shift_suppression(state, leader, source, dest)])

    @order(Appoint, phases=OWN_INITIATIVE, offers=lambda s, st, side: offers.appoint(st, side))
    def appoint(self, ctx: Ctx[SkirmishState], o: Appoint) -> None:
        """The CC appoints a new PL (Leaders)."""
        cc = play.cc_of(ctx.state, ctx.side)
        if cc is None:
            raise RuleError("Your Company Commander is not on the table (Leaders).")
        team = ctx.state.team(o.team)
        if ctx.state.unit_of(team).side != ctx.side:
            raise RuleError(f"{team.id} is not yours.")
        ctx.extend([leaders.appoint(ctx.state, cc, team)])

    @order(Done, phases=ORDERS, offers=lambda s, st, side: offers.done(st, side))
    def done(self, ctx: Ctx[SkirmishState], o: Done) -> None:
        """End the activation (Turns)."""
        play.done(ctx)

    @order(Decide, phases="decide", offers=lambda s, st, side: offers.decide(st, side))
    def decide(self, ctx: Ctx[SkirmishState], o: Decide) -> None:
        """Answer the question asked of you."""
        decisions.decide(ctx, o)

    @order(Defaults, offers=lambda s, st, side: offers.defaults(st, side))
    def defaults(self, ctx: Ctx[SkirmishState], o: Defaults) -> None:
        """Standing answers (ask / yes / no)."""
        mine = ctx.state.policies.setdefault(ctx.side, {})
        for key in STANDING:
            value = getattr(o, key)
            if value is not None:
                mine[key] = value
        if o.protect is not None:
            mine["protect"] = _own_teams(ctx.state, ctx.side, o.protect)
        shown = ", ".join(f"{k} {mine.get(k, 'auto' if k == 'allocate' else 'ask')}" for k in STANDING)
        shown += f"; protect {mine.get('protect') or 'none'}"
        ctx.say("defaults", f"{SIDE_NAMES[ctx.side]} standing answers: {shown}")

    @order(Measure, offers=lambda s, st, side: offers.measure(st, side))
    def measure(self, ctx: Ctx[SkirmishState], o: Measure) -> None:
        """The tape measure (read-only)."""
        ctx.extend(measuring.measure(ctx.state, ctx.side, o.team, o.to))

    def after_order(self, ctx: Ctx[SkirmishState], action: Action) -> None:
        """The active unit wiped out ends its activation; a side wiped out loses at once."""
        state = ctx.state
        active = state.unit(state.active) if state.active else None
        if active is not None and not active.on_table and state.pending is None and not state.finished:
            ctx.say("gone", f"{active.id} is gone from the table: its activation ends (Turns)", "Turns")
            ctx.extend(flow.end_activation(state, ctx.dice))
            ctx.snapshot = True
        if not state.finished:
            events: list = []
            if flow.over_by_wipe(state, events):
                ctx.extend(events)
                ctx.snapshot = True

    def label(self, state: SkirmishState, side: str, action: str, field: str, value: str,
              partial: dict[str, Any]) -> str:
        """What a player needs to choose: check needed, targets in range, move lengths."""
        return labels.label(state, side, action, field, value, partial)

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

    def view(self, state: SkirmishState) -> TableView:
        """The table snapshot."""
        return build_view(state)

    def fired(self, state: SkirmishState) -> frozenset[str]:
        """Who the picture shows firing, read from the marks it copies (view.py: the marks
        of this turn, else the last one's), without building the picture (issue 23)."""
        return fired_by_marks(state.marks or state.last_marks)

    def seen(self, state: SkirmishState) -> Seen:
        """What "what changed" keeps of the picture, from the state (issue 23)."""
        return seen_of(state)

    def turn(self, state: SkirmishState) -> Turn:
        """The turn as the picture's header shows it, without building the picture
        (issue 23): the picture shows min(turn, max_turn) (view.py)."""
        return Turn(number=min(state.turn, state.max_turn), waiting_on=self.waiting_on(state))

    def result(self, state: SkirmishState) -> str | None:
        """The result line once the game is over."""
        return state.result_text if state.finished else None
