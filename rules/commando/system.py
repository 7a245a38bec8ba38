"""The commando raid as a :class:`GameSystem` on the system kit: each order declared once.

Turns: the commandos take their whole turn first, then the Germans (the German reaction rules
are not in the text, so the Germans are a second human player).  In a side's turn officers
may ``direct``, each unit ``roll``s its activation one at a time (Activation Roll: "for each
activated unit") and spends its actions (moves, shots, mortar, assaults, demolitions, wire);
``end`` draws the table with the turn's measured lines.  The phase is ``command`` until the
side's first roll and ``actions`` after it.

Each order is declared once, on its rule function in the chapter module of its rule
(``order(Model, phases=..., offers=...)``, :mod:`rules.core.orders`); this class lists those
modules and holds the contract's hooks.  Legality lives in one place per order: the
resolver's checks, which the offers declared beside it run.
"""

from __future__ import annotations

from typing import Any

from pydantic import Field

from rules.commando import (
    activation, demolition, labels, measuring, melee, movement, outlook, scoring, shooting, turns,
)
from rules.commando.actions import ACTIONS, End
from rules.commando.scenario import FORMAT as SCENARIO_FORMAT, load_scenario
from rules.commando.state import SIDE_NAMES, RaidState, UnitState
from rules.commando.view import build_view
from rules.core.contract import Action, Event, GameOptions, GameSystem, Step, Turn
from rules.core.dice import Dice
from rules.core.orders import Ctx
from rules.core.hints import SearchHints
from rules.core.playout import PlayoutHints
from rules.core.views import fired_by_marks

SCENARIOS = ("st_nazaire", "training")


class CommandoOptions(GameOptions):
    """``/game new options:turns=5``: a shorter or longer raid than the scenario's."""

    turns: int | None = Field(None, ge=1, le=30, description="number of turns (default: the scenario's)")


class CommandoRaid(GameSystem[RaidState]):
    """A St Nazaire-style commando raid on a 48"x36" table, Commandos against Germans."""

    key = "commando"
    title = "Commando raid"
    #: The rules version (rules/commando/CHANGELOG.md: bump it with a line there).
    rules_version = 2
    sides = ("commandos", "germans")
    side_names = SIDE_NAMES
    scenarios = SCENARIOS
    scenario_format = SCENARIO_FORMAT
    actions = ACTIONS
    state_model = RaidState
    options_model = CommandoOptions
    playout_hints = PlayoutHints(options={"turns": 3})
    #: No random rollout after the tree (issue 43): the evaluation already reads the
    #: demolitions and the fire to come (rules/commando/outlook.py), and a random order or
    #: two (an ``end`` with the actions unspent, a party walked off) only blurs it, at the
    #: cost of listing every reachable point of the table once more.
    search_hints = SearchHints(rollout=0.0)
    #: A side that lets its deadline pass ends its turn (Turns: "the side may always end
    #: its turn"), issue 19.
    idle_orders = {"command": End(), "actions": End()}
    #: The chapters whose declared rule functions are the orders: direct and roll, move, shoot
    #: and mortar, assault, demolish and cut-wire, end, measure.
    order_modules = (activation, movement, shooting, melee, demolition, turns, measuring)
    #: Distances, what a move costs and where it really stops, what a shot needs.
    label = staticmethod(labels.label)
    #: The table snapshot: terrain, bases, arcs, ranges and the last measured lines.
    view = staticmethod(build_view)

    def start(self, scenario: str, options: Any, dice: Dice) -> Step:
        """Lay out the table of ``scenario``; option ``turns`` shortens or lengthens the game."""
        assert isinstance(options, CommandoOptions)
        scen = load_scenario(scenario)
        turns = options.turns or scen.turns
        units = [
            UnitState(id=u.id, name=u.name, side=u.side, kind=u.kind, officer=u.officer,
                      x=u.x, y=u.y, facing=u.facing, move=u.move, armoured=u.armoured)
            for u in scen.units
        ]
        start = scen.start  # issue 46: a raid begun at a later turn, blown targets, cut wire
        state = RaidState(scenario=scenario, max_turn=turns, units=units, turn=start.turn,
                          side=start.side, destroyed=list(start.destroyed),
                          wire_removed=list(start.wire_removed))
        event = Event(
            kind="setup",
            text=(f"{scen.title}: {scen.width:g}\"x{scen.height:g}\", "
                  f"{activation.plural(turns, 'turn')}. "
                  "Commandos: direct with officers, then roll each unit."),
            data={"scenario": scenario},
        )
        return self.make_step(state, [event], snapshot=True)

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
            lines += activation.turn_lines(state)
        blown = [t.name for t in state.table.targets if t.id in state.destroyed]
        lines.append(f"Targets destroyed {len(blown)}/{len(state.table.targets)}"
                     + (f": {', '.join(blown)}" if blown else ""))
        lines.append(f"Lost: commandos {len(state.lost('commandos'))}, "
                     f"Germans {len(state.lost('germans'))}")
        lines.append(scoring.standing(state))
        return lines

    def fired(self, state: RaidState) -> frozenset[str]:
        """Who the picture shows firing, read from the marks it copies (view.py: the marks
        of this turn, else the last one's), without building the picture (issue 23)."""
        return fired_by_marks(state.marks or state.last_marks)

    def turn(self, state: RaidState) -> Turn:
        """The turn as the picture's header shows it, without building the picture
        (issue 23): the picture shows min(turn, max_turn) (view.py)."""
        return Turn(number=min(state.turn, state.max_turn), waiting_on=self.waiting_on(state))

    def evaluate(self, state: RaidState, side: str) -> float:
        """The victory table's points as they may stand at the end
        (:func:`rules.commando.scoring.prospects`)."""
        return scoring.prospects(state, side)

    def order_prior(self, state: RaidState, side: str, action: Action) -> float:
        """Demolitions, the roll, good shots and moves towards a target first; ending the
        turn with actions left last (:func:`rules.commando.outlook.order_prior`)."""
        return outlook.order_prior(state, side, action)

    def result(self, state: RaidState) -> str | None:
        """The result line once the raid is over."""
        return scoring.result(state) if state.finished else None

