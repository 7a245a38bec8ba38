"""The commando raid as a :class:`GameSystem` on the system kit: each order declared once.

Turns: the commandos take their whole turn first, then the Germans (the German reaction rules
are not in the text, so the Germans are a second human player).  In a side's turn officers
may ``direct``, each unit ``roll``s its activation one at a time (Activation Roll: "for each
activated unit") and spends its actions (moves, shots, mortar, assaults, demolitions, wire);
``end`` draws the table with the turn's measured lines.  The phase is ``command`` until the
side's first roll and ``actions`` after it.  Legality lives in one place per order: the
resolver's checks, which :mod:`rules.commando.menus` runs to build the offers.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from rules.commando import (
    activation, demolition, measuring, melee, menus, movement, scoring, shooting,
)
from rules.commando.actions import (
    ACTIONS, Assault, CutWire, Demolish, Direct, End, Measure, Mortar, Move, Roll, Shoot,
)
from rules.commando.scenario import FORMAT as SCENARIO_FORMAT, load_scenario
from rules.commando.state import SIDE_NAMES, RaidState, UnitState, other
from rules.commando.view import build_view
from rules.core.contract import Action, Event, GameOptions, GameSystem, Step, Turn
from rules.core.dice import Dice
from rules.core.errors import RuleError
from rules.core.orders import Ctx, order
from rules.core.playout import PlayoutHints
from rules.core.views import TableView, fired_by_marks

SCENARIOS = ("st_nazaire", "training")


class CommandoOptions(GameOptions):
    """``/game new options:turns=5``: a shorter or longer raid than the scenario's."""

    turns: int | None = Field(None, ge=1, le=30, description="number of turns (default: the scenario's)")

#: Orders given by units that have rolled (the table's phase is "actions" after a first roll).
ACTIONS_PART = ("actions",)


class CommandoRaid(GameSystem[RaidState]):
    """A St Nazaire-style commando raid on a 48"x36" table, Commandos against Germans."""

    key = "commando"
    title = "Commando raid"
    sides = ("commandos", "germans")
    side_names = SIDE_NAMES
    scenarios = SCENARIOS
    scenario_format = SCENARIO_FORMAT
    actions = ACTIONS
    state_model = RaidState
    options_model = CommandoOptions
    playout_hints = PlayoutHints(options={"turns": 3})
    #: A side that lets its deadline pass ends its turn (Turns: "the side may always end
    #: its turn"), issue 19.
    idle_orders = {"command": End(), "actions": End()}

    def start(self, scenario: str, options: Any, dice: Dice) -> Step:
        """Lay out the table of ``scenario``; option ``turns`` shortens or lengthens the game."""
        assert isinstance(options, CommandoOptions)
        scen = load_scenario(scenario)
        turns = options.turns or scen.turns
        units = [
            UnitState(id=u.id, name=u.name, side=u.side, kind=u.kind, officer=u.officer,
                      x=u.x, y=u.y, facing=u.facing)
            for u in scen.units
        ]
        state = RaidState(scenario=scenario, max_turn=turns, units=units)
        event = Event(
            kind="setup",
            text=(f"{scen.title}: {scen.width:g}\"x{scen.height:g}\", "
                  f"{activation.plural(turns, 'turn')}. "
                  "Commandos: direct with officers, then roll each unit."),
            data={"scenario": scenario},
        )
        return self.make_step(state, [event], snapshot=True)

    # -- the orders: each resolver with its phases and its legal offers ------------------------

    @order(Direct, offers=menus.direct_offers)
    def direct(self, ctx: Ctx[RaidState], action: Direct) -> None:
        """Officers: a unit that has not activated gives +1 to a friend within 6"."""
        ctx.extend(activation.direct(ctx.state, ctx.side, action))

    @order(Roll, offers=menus.roll_offers)
    def roll(self, ctx: Ctx[RaidState], action: Roll) -> None:
        """Activation Roll, one unit at a time (or every unit not yet rolled, in turn)."""
        ctx.extend(activation.roll(ctx.state, ctx.side, action, ctx.dice))

    @order(Move, phases=ACTIONS_PART, offers=menus.move_offers)
    def move(self, ctx: Ctx[RaidState], action: Move) -> None:
        """Movement: up to three straight legs, refused if cut short unless confirmed."""
        ctx.extend(movement.move(ctx.state, ctx.side, action))

    # Pillboxes shoot without a roll, so shooting is open before the first roll too.
    @order(Shoot, offers=menus.shoot_offers)
    def shoot(self, ctx: Ctx[RaidState], action: Shoot) -> None:
        """Shooting: all of a unit's shots together, then the target's saves."""
        ctx.extend(shooting.shoot(ctx.state, ctx.side, action, ctx.dice))

    @order(Mortar, phases=ACTIONS_PART, offers=menus.mortar_offers)
    def mortar(self, ctx: Ctx[RaidState], action: Mortar) -> None:
        """2" Mortar: two actions, 5-6 eliminates with no save."""
        ctx.extend(shooting.mortar(ctx.state, ctx.side, action, ctx.dice))

    @order(Assault, phases=ACTIONS_PART, offers=menus.assault_offers)
    def assault(self, ctx: Ctx[RaidState], action: Assault) -> None:
        """Hand to Hand: charge into contact, best of two dice against one."""
        ctx.extend(melee.assault(ctx.state, ctx.side, action, ctx.dice))

    @order(Demolish, phases=ACTIONS_PART, offers=menus.demolish_offers)
    def demolish(self, ctx: Ctx[RaidState], action: Demolish) -> None:
        """Demolition: two actions in contact, 4-6 destroys the target."""
        ctx.extend(demolition.demolish(ctx.state, ctx.side, action, ctx.dice))

    @order(CutWire, phases=ACTIONS_PART, offers=menus.cut_wire_offers)
    def cut_wire(self, ctx: Ctx[RaidState], action: CutWire) -> None:
        """Barbed Wire: a unit touching a section removes it with two actions."""
        ctx.extend(demolition.cut_wire(ctx.state, ctx.side, action))

    @order(End, offers=menus.end_offers)
    def end(self, ctx: Ctx[RaidState], action: End) -> None:
        """Turns: keep the side's measured lines for the snapshot, pass the table over."""
        state, side = ctx.state, ctx.side
        ctx.extend(activation.unrolled_lines(state, side))
        state.last_marks, state.marks = state.marks, []
        if side == "germans":
            state.turn += 1
        state.side = other(side)
        state.phase = "command"
        activation.reset_turn(state)
        text = f"{SIDE_NAMES[side]}' turn ends; {SIDE_NAMES[state.side]} next (Turns)"
        if state.turn > state.max_turn:
            text = f"{SIDE_NAMES[side]} end the last turn (Turns)"
        ctx.say("end", text, "Turns", turn=state.turn)
        if state.turn <= state.max_turn:
            ctx.extend(activation.standing_lines(state))
        ctx.snapshot = True

    @order(Measure, offers=menus.measure_offers)
    def measure(self, ctx: Ctx[RaidState], action: Measure) -> None:
        """The tape measure: read-only, for anyone at any time."""
        ctx.extend(measuring.measure(ctx.state, ctx.side, action))

    # -- hooks ---------------------------------------------------------------------------------

    def after_order(self, ctx: Ctx[RaidState], action: Action) -> None:
        """The raid ends after the last turn, with no commando left or every target blown."""
        state = ctx.state
        if state.finished or not scoring.over(state):
            return
        state.finished = True
        if state.marks:
            state.last_marks, state.marks = state.marks, []
        ctx.say("game_over", scoring.result(state), "Turns", **scoring.scores(state))
        ctx.snapshot = True

    def phase_of(self, state: RaidState) -> str:
        """``command`` until the side's first activation roll of the turn, then ``actions``."""
        return state.phase

    def phase_title(self, state: RaidState) -> str:
        """As players read it."""
        return "before any roll" if state.phase == "command" else "actions"

    def label(self, state: RaidState, side: str, action: str, field: str, value: str,
              partial: dict[str, Any]) -> str:
        """Distances, what a move costs and where it really stops, what a shot needs."""
        return menus.label(state, side, action, field, value, partial)

    def waiting_on(self, state: RaidState) -> list[str]:
        """The side whose turn it is, none once the raid is over."""
        return [] if state.finished else [state.side]

    def turn_part(self, state: RaidState) -> str:
        """e.g. ``Turn 2/8 · Commandos · actions``; once over, ``Turn 8/8 · Raid over ·
        Commandos win 7-2`` (as the map's header and banner say)."""
        head = f"Turn {min(state.turn, state.max_turn)}/{state.max_turn}"
        if state.finished:
            return f"{head} · Raid over · {scoring.headline(state)}"
        part = "command" if state.phase == "command" else "actions"
        return f"{head} · {SIDE_NAMES[state.side]} · {part}"

    def status(self, state: RaidState) -> list[str]:
        """Turn, whose turn, actions left per unit, targets, losses and the standing."""
        lines = [self.turn_part(state)]
        if state.finished:
            lines.append(scoring.result(state))
        else:
            lines += _turn_lines(state)
        blown = [t.name for t in state.table.targets if t.id in state.destroyed]
        lines.append(f"Targets destroyed {len(blown)}/{len(state.table.targets)}"
                     + (f": {', '.join(blown)}" if blown else ""))
        lines.append(f"Lost: commandos {len(state.lost('commandos'))}, "
                     f"Germans {len(state.lost('germans'))}")
        lines.append(scoring.standing(state))
        return lines

    def view(self, state: RaidState) -> TableView:
        """The table snapshot: terrain, bases, arcs, ranges and the last measured lines."""
        return build_view(state)

    def fired(self, state: RaidState) -> frozenset[str]:
        """Who the picture shows firing, read from the marks it copies (view.py: the marks
        of this turn, else the last one's), without building the picture (issue 23)."""
        return fired_by_marks(state.marks or state.last_marks)

    def turn(self, state: RaidState) -> Turn:
        """The turn as the picture's header shows it, without building the picture
        (issue 23): the picture shows min(turn, max_turn) (view.py)."""
        return Turn(number=min(state.turn, state.max_turn), waiting_on=self.waiting_on(state))

    def result(self, state: RaidState) -> str | None:
        """The result line once the raid is over."""
        return scoring.result(state) if state.finished else None


def _turn_lines(state: RaidState) -> list[str]:
    """Who may still roll (officers may direct first) and the actions left."""
    lines = []
    to_roll = activation.rollable(state, state.side)
    officers = [u.id for u in to_roll if u.officer]
    if officers:
        lines.append(f"Officers may direct: {', '.join(officers)}")
    if to_roll:
        lines.append("To roll: " + ", ".join(u.id for u in to_roll))
    if state.phase == "actions" or any(u.actions for u in state.alive(state.side)):
        left = [f"{u.id} {u.actions}" for u in state.alive(state.side) if u.actions]
        lines.append("Actions left: " + (", ".join(left) or "none"))
    return lines
