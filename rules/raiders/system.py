"""The Raiders game system: one seat (``raiders``), the bot plays the hostiles and the decks.

Built on the system kit: each order is declared once, by the kit's ``order`` decorator on its
rule function in the chapter module that holds the rule (:attr:`RaidersSystem.order_modules`),
with its phases (:mod:`rules.raiders.phases`) and its legal offers
(:mod:`rules.raiders.offers`); the kit derives ``apply``, ``legal_actions`` and autocomplete
from them.  Everything that needs no decision of the player (cards, hostiles, their fire,
alert, post battle, turning markers) is resolved inside the order that triggers it.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from rules.core.contract import Action, GameOptions, GameSystem, Step, Turn
from rules.core.dice import Dice
from rules.core.errors import RuleError
from rules.core.orders import Ctx as KitCtx
from rules.core.orders import OrderRule
from rules.core.hints import SearchHints
from rules.core.playout import PlayoutHints
from rules.core.views import Seen
from rules.raiders import actions as A
from rules.raiders import campaign, operations, outlook, recruiting, texts
from rules.raiders.forces import Ctx
from rules.raiders.labels import LABELS
from rules.raiders.phases import CARD, FIRE, LINE_UP, OBJECTIVE, OP_START, PHASE_TITLES, PLACE, SETUP
from rules.raiders.scenario import FORMAT as SCENARIO_FORMAT, SCENARIOS, load_scenario
from rules.raiders.state import Campaign, RaidersState, Record
from rules.raiders.view import network_view, seen_of, status_lines, turn_label


class RaidersOptions(GameOptions):
    """``/game new options:...``: 26.0 and 27.0 are optional rules; ``single`` plays one mission."""

    coordinated: bool = Field(False, description="26.0 coordinated operations")
    scouting: bool = Field(False, description="27.0 scouting")
    single: bool = Field(False, description="one mission instead of the campaign")
    mission: str | None = Field(None, description="the first Mission card (default: drawn)")


class RaidersSystem(GameSystem[RaidersState]):
    """Decision Games' Raiders mini-game system, solitaire, with its campaign (1.0-27.0)."""

    key = "raiders"
    title = "Raiders"
    #: The rules version (rules/raiders/CHANGELOG.md: bump it with a line there).
    rules_version = 2
    sides = ("raiders",)
    scenarios = SCENARIOS
    scenario_format = SCENARIO_FORMAT
    actions = A.ACTIONS
    state_model = RaidersState
    options_model = RaidersOptions
    #: The chapters whose rule functions are the orders: recruiting and forming forces (7.0,
    #: 9.0, 10.3, 23.0), an operation's segments (11.0-24.0, 27.0), missions and the campaign
    #: (11.1, 25.0), the cards' texts (5.0).
    order_modules = (recruiting, operations, campaign, texts)
    #: The one "no action" of the solitaire player (issue 19): the Objective segment ends
    #: (11.0).  Everything else is a choice the bot never makes for the player.
    idle_orders = {OBJECTIVE: A.EndOp()}
    #: Forming forces and trading gear could loop for ever in random play; a campaign with
    #: both optional rules exercises every order.
    playout_hints = PlayoutHints(rare=frozenset({"split", "join", "trade", "abandon"}),
                                 options={"coordinated": True, "scouting": True})
    #: The computer reads the mission's chances (rules/raiders/outlook.py) right after its
    #: orders: a random rollout (split, join, trade...) only blurs them (issue 43).
    #: Free orders (23.2 trade, 12.0 split, 10.3 join, 15.1 (4) line; 13.0 a move between
    #: Staging Areas, judged by :meth:`free_order`): at most a few in a row, or the search,
    #: when every real move looks worse than standing still, gives them for ever.
    search_hints = SearchHints(rollout=0.0, free=outlook.FREE_ORDERS, free_in_a_row=outlook.FREE_IN_A_ROW)

    def start(self, scenario: str, options: Any, dice: Dice) -> Step:
        """Open a campaign (or one mission with option ``single``): draw the first Mission card."""
        sc = load_scenario(scenario)
        assert isinstance(options, RaidersOptions)
        begun = sc.start  # issue 46: a campaign begun later: cards won, RP and leaders kept
        first = options.mission.upper() if options.mission else (begun.mission or None)
        if first is not None and first not in sc.mission:
            raise RuleError(f"There is no Mission card {str(first)[:10]}; cards: {', '.join(sc.mission)}.")
        state = RaidersState(
            scenario=scenario,
            coordinated=options.coordinated,
            scouting=options.scouting,
            campaign=Campaign(single=options.single, deck=[m.id for m in sc.missions if m.id not in begun.won],
                              record=[Record(mission=card, won=True) for card in begun.won],
                              rp=begun.rp, leaders=list(begun.leaders)),
        )
        ctx = Ctx.reading(state, dice)
        card = first if first is not None else dice.pick(state.campaign.deck, "Mission card draw (7.0 (4))")
        campaign.start_mission(ctx, str(card))
        return self.make_step(ctx.state, ctx.events, snapshot=True, reveals=True)

    def resolve_order(self, rule: OrderRule, ctx: KitCtx[RaidersState], action: Action) -> None:
        """Every Raiders order works on Raiders' :class:`Ctx` (the kit's context with the
        scenario and the mission), sharing the state, dice and events; what it sets of
        ``snapshot`` and ``reveals`` goes back to the kit's."""
        mission = ctx.state.mission
        # A read-only order (`card`) runs on the live state and shows nothing new.
        shown = () if mission is None or action.read_only else (mission.battle, mission.last_battle)
        for battle in shown:
            if battle is not None:  # the last order's picture showed these
                battle.earlier, battle.ended_now = [], False
        raiders = Ctx.of(ctx)
        rule.run(raiders, action)
        ctx.snapshot = ctx.snapshot or raiders.snapshot
        ctx.reveals = ctx.reveals or raiders.reveals

    # -- questions ---------------------------------------------------------------------------

    def in_setup(self, state: RaidersState) -> bool:
        """7.0: the set-up recruiting before the first mission's first operation."""
        return self.phase_of(state) == SETUP

    def phase_of(self, state: RaidersState) -> str:
        """Where the game stands, for the phases of the orders (see the constants above)."""
        m = state.mission
        if state.phase in ("between", "over") or m is None:
            return state.phase if state.phase != "recruit" else SETUP
        if m.pending_place is not None:
            return PLACE
        if state.phase == "recruit":
            return SETUP
        if m.battle is not None:
            return FIRE if m.battle.lined else LINE_UP
        return {"recruit": OP_START, "card": CARD}.get(m.segment, OBJECTIVE)

    def phase_title(self, state: RaidersState) -> str:
        """``Start of an operation, 11.0``: the phase and the rule that sets its orders."""
        return PHASE_TITLES.get(self.phase_of(state), self.phase_of(state))

    def label(self, state: RaidersState, side: str, action: str, field: str, value: str,
              partial: dict[str, Any]) -> str:
        """What a value means: a unit's values and place, a space's name, a cost, a card (the
        value itself when no labeller of :data:`rules.raiders.labels.LABELS` names it)."""
        labeller = LABELS.get((action, field))
        if labeller is None or (state.mission is None and action != "card"):
            return value
        return labeller(Ctx.reading(state), value, partial)

    def waiting_on(self, state: RaidersState) -> list[str]:
        """The raider player, until the campaign ends."""
        return [] if state.phase == "over" else ["raiders"]

    def turn_part(self, state: RaidersState) -> str:
        """E.g. ``M3 · Op 4 · battle``."""
        return turn_label(Ctx.reading(state))

    def status(self, state: RaidersState) -> list[str]:
        """Mission, Ops, alert, RP, forces, objectives, campaign, what to do now."""
        return status_lines(Ctx.reading(state), self.open_orders(state))

    def open_orders(self, state: RaidersState) -> list[str]:
        """The names of the orders with a legal offer now (read-only ones left out)."""
        rules = self.orders_open(state, "raiders")
        return [r.action.name for r in rules if not r.action.read_only and next(iter(self.offers_of(r, state, "raiders")), None) is not None]

    def view(self, state: RaidersState) -> BaseModel:
        """The network map with forces, tracks and the battle panel."""
        return network_view(Ctx.reading(state))

    def seen(self, state: RaidersState) -> Seen:
        """What "what changed" keeps of the picture: the forces and the battle, not the
        whole map (issue 23)."""
        return seen_of(Ctx.reading(state))

    def turn(self, state: RaidersState) -> Turn:
        """The turn as the picture's header shows it, without building the picture
        (issue 23): Raiders counts Ops (11.0), one set per mission: "M2 Op 3"."""
        return Turn(waiting_on=self.waiting_on(state)) if state.mission is None else Turn(
            number=state.mission.op, word=f"{state.mission.card} Op", waiting_on=self.waiting_on(state))

    def order_prior(self, state: RaidersState, side: str, action: Action) -> float:
        """What a careful player tries first (:func:`rules.raiders.outlook.order_prior`)."""
        return outlook.order_prior(state, side, action)

    def free_order(self, state: RaidersState, side: str, action: Action) -> bool:
        """Orders that leave the mission where it was (:func:`rules.raiders.outlook.free_order`)."""
        return outlook.free_order(state, side, action)

    def evaluate(self, state: RaidersState, side: str) -> float:
        """The campaign (:func:`rules.raiders.campaign.prospects`)."""
        return campaign.prospects(state)

    def result(self, state: RaidersState) -> str | None:
        """How the campaign (or single mission) ended."""
        camp = state.campaign
        if camp.outcome is None:
            return None
        if camp.single:  # 6.0: one mission, no campaign (25.3 does not apply)
            return f"Mission {camp.record[-1].mission} {camp.outcome} (6.0)"
        won = sum(1 for r in camp.record if r.won)
        return f"Campaign {camp.outcome}: {won} won, {len(camp.record) - won} lost (25.3)"


SYSTEM = RaidersSystem()
