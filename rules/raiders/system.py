"""The Raiders game system: one seat (``raiders``), the bot plays the hostiles and the decks.

Built on the system kit: each order is declared once, with ``@order`` (here :func:`declare`,
which hands the resolver Raiders' :class:`Ctx`), its phases (:meth:`RaidersSystem.phase_of`)
and its legal offers (:mod:`rules.raiders.offers`); the kit derives ``apply``,
``legal_actions`` and autocomplete from them.  Everything that needs no decision of the player
(cards, hostiles, their fire, alert, post battle, turning markers) is resolved inside the
order that triggers it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, Field

from rules.core.contract import Action, GameOptions, GameSystem, Step, Turn
from rules.core.dice import Dice
from rules.core import scenariofile
from rules.core.errors import RuleError
from rules.core.orders import Ctx as KitCtx
from rules.core.orders import Offers, OrderRule, order
from rules.core.playout import PlayoutHints
from rules.core.views import Seen
from rules.raiders import actions as A
from rules.raiders import battle, campaign, labels, objectives, operations, recruiting
from rules.raiders import offers as O
from rules.raiders.forces import Ctx, force
from rules.raiders.scenario import FORMAT as SCENARIO_FORMAT, SCENARIOS, load_scenario
from rules.raiders.state import Campaign, RaidersState
from rules.raiders.texts import card_lines
from rules.raiders.view import network_view, seen_of, status_lines, turn_label


class RaidersOptions(GameOptions):
    """``/game new options:...``: 26.0 and 27.0 are optional rules; ``single`` plays one mission."""

    coordinated: bool = Field(False, description="26.0 coordinated operations")
    scouting: bool = Field(False, description="27.0 scouting")
    single: bool = Field(False, description="one mission instead of the campaign")
    mission: str | None = Field(None, description="the first Mission card (default: drawn)")


def _campaign_lines(ctx: Ctx) -> None:
    """``campaign``: the record (25.0); a single-mission game has none to show."""
    camp, sc = ctx.state.campaign, ctx.sc
    if camp.single:
        ctx.say("campaign", "One mission only (single): no campaign", "6.0")
        if camp.record:
            ctx.say("campaign", f"{camp.record[-1].mission} {camp.outcome} (6.0)", "6.0")
        return
    won = [r.mission for r in camp.record if r.won]
    lost = [r.mission for r in camp.record if not r.won]
    ctx.say("campaign", f"Won: {', '.join(won) or 'none'} · Lost: {', '.join(lost) or 'none'}", "25.0")
    ctx.say("campaign", f"Still to win: {', '.join(camp.deck) or 'none'}", "25.1")
    in_mission = ctx.state.mission is not None and ctx.state.phase in ("recruit", "ops")
    rp = ctx.m.rp if in_mission else camp.rp
    ctx.say("campaign", f"RP banked: {rp}", "25.1")
    if not in_mission and camp.alert_bonus:
        ctx.say("campaign", f"Next mission: alert +{camp.alert_bonus} (25.1 (3))", "25.1")
    leaders = camp.leaders
    if in_mission:
        leaders = [u.id for u in ctx.m.units if sc.unit_type[u.type].leader and u.space]
        leaders += [lid for lid in camp.leaders if lid not in leaders]
    ctx.say("campaign", f"Leaders: {', '.join(leaders) or 'none'}", "25.0")
    if camp.outcome:
        ctx.say("campaign", f"The campaign is {camp.outcome} (25.3)", "25.3")


def declare(action: type[Action], phases: tuple[str, ...] | None, offers: Offers) -> Callable[
        [Callable[[Any, Ctx, Any], None]], OrderRule]:
    """``@order`` for a Raiders resolver: it gets Raiders' :class:`Ctx` (the kit's context
    with the scenario and the mission), sharing the state, dice and events."""

    def wrap(resolve: Callable[[Any, Ctx, Any], None]) -> OrderRule:
        def run(system: Any, base: KitCtx[RaidersState], order_: Any) -> None:
            ctx = Ctx.of(base)
            mission = base.state.mission
            # A read-only order (`card`) runs on the live state and shows nothing new.
            shown = () if mission is None or order_.read_only else (mission.battle, mission.last_battle)
            for battle in shown:
                if battle is not None:  # the last order's picture showed these
                    battle.earlier, battle.ended_now = [], False
            resolve(system, ctx, order_)
            base.snapshot = base.snapshot or ctx.snapshot
            base.reveals = base.reveals or ctx.reveals

        run.__doc__ = resolve.__doc__
        return order(action, phases=phases, offers=offers)(run)

    return wrap


#: Where an order may be given (``phase_of``): the set-up, the start of an operation (recruit,
#: scout, form forces, move), a drawn card, a battle's line-up and fire, the Objective segment,
#: a free recruit to place, between missions.
SETUP, OP_START, CARD, LINE_UP, FIRE, OBJECTIVE, PLACE, BETWEEN = (
    "setup", "op-start", "card", "line-up", "fire", "objective", "place", "between")
MISSION = (SETUP, OP_START, CARD, LINE_UP, FIRE, OBJECTIVE)
#: Each with the rule that sets what may be done in it, so an order refused for its phase is
#: refused by a rule (issue 24 point 17).
PHASE_TITLES = {SETUP: "Set-up recruiting, 7.0", OP_START: "Start of an operation, 11.0",
                CARD: "Ops card drawn, 13.0", LINE_UP: "Battle line-up, 15.1 (3)",
                FIRE: "Battle fire, 15.1 (3)", OBJECTIVE: "Objective segment, 11.0 (5)",
                PLACE: "Free recruit to place, 9.2", BETWEEN: "Between missions, 25.0",
                "over": "Campaign over, 25.3"}


class RaidersSystem(GameSystem[RaidersState]):
    """Decision Games' Raiders mini-game system, solitaire, with its campaign (1.0-27.0)."""

    key = "raiders"
    title = "Raiders"
    sides = ("raiders",)
    scenarios = SCENARIOS
    scenario_format = SCENARIO_FORMAT
    actions = A.ACTIONS
    state_model = RaidersState
    options_model = RaidersOptions
    #: Forming forces and trading gear could loop for ever in random play; a campaign with
    #: both optional rules exercises every order.
    #: The one "no action" of the solitaire player (issue 19): the Objective segment ends
    #: (11.0).  Everything else is a choice the bot never makes for the player.
    idle_orders = {OBJECTIVE: A.EndOp()}
    playout_hints = PlayoutHints(rare=frozenset({"split", "join", "trade", "abandon"}),
                                 options={"coordinated": True, "scouting": True})

    def start(self, scenario: str, options: Any, dice: Dice) -> Step:
        """Open a campaign (or one mission with option ``single``): draw the first Mission card."""
        sc = load_scenario(scenario)
        assert isinstance(options, RaidersOptions)
        first = options.mission.upper() if options.mission else None
        if first is not None and first not in sc.mission:
            raise RuleError(f"There is no Mission card {str(first)[:10]}; cards: {', '.join(sc.mission)}.")
        state = RaidersState(
            scenario=scenario,
            coordinated=options.coordinated,
            scouting=options.scouting,
            campaign=Campaign(single=options.single, deck=[m.id for m in sc.missions]),
        )
        ctx = Ctx.reading(state, dice)
        card = first if first is not None else dice.pick(state.campaign.deck, "Mission card draw (7.0 (4))")
        campaign.start_mission(ctx, str(card))
        return self.make_step(ctx.state, ctx.events, snapshot=True, reveals=True)

    # -- the orders: each resolved once, with its phases and its legal offers ---------------

    @declare(A.Recruit, (SETUP, OP_START), O.recruit)
    def recruit(self, ctx: Ctx, a: A.Recruit) -> None:
        """9.0: buy a unit (or place a kept leader) in a Staging Area."""
        recruiting.recruit(ctx, a.unit, a.at)

    @declare(A.BuyGear, (SETUP, OP_START), O.buy_gear)
    def buy_gear(self, ctx: Ctx, a: A.BuyGear) -> None:
        """23.1: buy gear for a unit."""
        recruiting.buy_gear(ctx, a.item, a.unit)

    @declare(A.Trade, (SETUP, OP_START), O.trade)
    def trade(self, ctx: Ctx, a: A.Trade) -> None:
        """23.2: hand gear within a force before the move."""
        recruiting.trade(ctx, a.gear, a.to)

    @declare(A.Abandon, MISSION, O.abandon)
    def abandon(self, ctx: Ctx, a: A.Abandon) -> None:
        """23.4: gear back to the Recruit Pool, at any time during an operation."""
        recruiting.abandon(ctx, a.gear)

    @declare(A.Split, (SETUP, OP_START), O.split)
    def split(self, ctx: Ctx, a: A.Split) -> None:
        """12.0: a unit leaves its force before the move."""
        recruiting.split(ctx, a.unit)

    @declare(A.Join, (SETUP, OP_START), O.join)
    def join(self, ctx: Ctx, a: A.Join) -> None:
        """10.3: two forces in one space merge."""
        recruiting.join(ctx, a.force, a.into)

    @declare(A.Begin, (SETUP,), O.begin)
    def begin(self, ctx: Ctx, a: A.Begin) -> None:
        """7.0 (8): recruiting done, operation 1 starts."""
        campaign.begin(ctx)

    @declare(A.Scout, (OP_START,), O.scout)
    def scout(self, ctx: Ctx, a: A.Scout) -> None:
        """27.0: one scouting instead of recruiting, before the move."""
        if not ctx.state.scouting:
            raise RuleError("Scouting (27.0) is an option this game was not started with.")
        m = ctx.m
        if m.moved:
            raise RuleError("Scouting comes before the move, at the start of an operation (27.0, 11.0 (1)).")
        if m.segment_action == "scout":
            raise RuleError("A force may attempt one scouting an operation (27.0); 'move' is next.")
        if m.segment_action is not None:
            raise RuleError("This operation has recruited: it recruits or scouts, not both "
                            "(11.0 (1)). Scout next operation; 'move' is next.")
        fid = force(m, a.force)[0].force
        assert fid is not None
        objectives.scout(ctx, fid, a.target)
        m.segment_action = "scout"
        m.force = fid

    @declare(A.Move, (OP_START,), O.move)
    def move(self, ctx: Ctx, a: A.Move) -> None:
        """12.0: the operation's move, then the card and what follows."""
        operations.move(ctx, a.force, a.to, a.how, a.march, a.with_force)

    @declare(A.Swap, (CARD,), O.swap)
    def swap(self, ctx: Ctx, a: A.Swap) -> None:
        """22.0: the drawn card to the bottom, a substitute drawn."""
        operations.choose_card(ctx, True)

    @declare(A.Accept, (CARD,), O.accept)
    def accept(self, ctx: Ctx, a: A.Accept) -> None:
        """13.0, 24.0 (3): play the drawn card."""
        operations.choose_card(ctx, False, a.supply)

    @declare(A.Line, (LINE_UP, FIRE), O.line)
    def line(self, ctx: Ctx, a: A.Line) -> None:
        """15.1 (3)-(4), 24.0 (2): the raider line (it stands until changed), firepower."""
        battle.set_line(ctx, a.order.replace(",", " ").split(), a.hostiles.replace(",", " ").split(),
                        a.firepower)
        operations.after_battle(ctx)

    @declare(A.Fire, (FIRE,), O.fire)
    def fire(self, ctx: Ctx, a: A.Fire) -> None:
        """15.1 (3): the next raider fires (each firepower die at its own target)."""
        battle.raider_fire(ctx, a.target, a.firepower)
        operations.after_battle(ctx)

    @declare(A.Demolish, (OBJECTIVE,), O.demolish)
    def demolish(self, ctx: Ctx, a: A.Demolish) -> None:
        """21.1: one pioneer's demolition roll."""
        objectives.demolish(ctx, a.unit, a.marker, a.explosives)
        self._objective_done(ctx)

    @declare(A.Carry, (OBJECTIVE,), O.carry)
    def carry(self, ctx: Ctx, a: A.Carry) -> None:
        """18.4: pick up revealed cargo."""
        objectives.carry(ctx, a.unit, a.marker)
        self._objective_done(ctx)

    @staticmethod
    def _objective_done(ctx: Ctx) -> None:
        """11.0 (5): the operation ends once nothing is left to do in its Objective segment."""
        if ctx.m.battle is None and ctx.state.phase == "ops" and not operations.objective_options(ctx):
            operations.end_op(ctx)

    @declare(A.Drop, (OP_START, OBJECTIVE), O.drop)
    def drop(self, ctx: Ctx, a: A.Drop) -> None:
        """18.4: set cargo down."""
        objectives.drop(ctx, a.unit)

    @declare(A.EndOp, (OBJECTIVE,), O.end_op)
    def end_op(self, ctx: Ctx, a: A.EndOp) -> None:
        """11.0: the Objective segment ends."""
        operations.end_op(ctx)

    @declare(A.PlayCard, (OP_START,), O.play_card)
    def play_card(self, ctx: Ctx, a: A.PlayCard) -> None:
        """13.1: a kept card's event."""
        recruiting.play_kept(ctx, a.card, a.event)

    @declare(A.EndMission, (OP_START,), O.end_mission)
    def end_mission(self, ctx: Ctx, a: A.EndMission) -> None:
        """11.1: the objective is met; the mission ends early."""
        if ctx.m.moved or not objectives.ends_early(ctx):
            raise RuleError(f"The mission cannot end yet ({objectives.progress(ctx)}); play on (11.1).")
        ctx.say("mission", "Objective met: the mission ends early (11.1)", "11.1")
        campaign.end_mission(ctx)

    @declare(A.Place, (PLACE,), O.place)
    def place(self, ctx: Ctx, a: A.Place) -> None:
        """9.0, 9.2: a free recruit to a Staging Area of the player's choice."""
        recruiting.place_recruit(ctx, a.unit, a.at)

    @declare(A.NextMission, (BETWEEN,), O.next_mission)
    def next_mission(self, ctx: Ctx, a: A.NextMission) -> None:
        """25.0: the next Mission card."""
        campaign.next_mission(ctx)

    @declare(A.CampaignReport, None, O.campaign)
    def campaign_report(self, ctx: Ctx, a: A.CampaignReport) -> None:
        """25.0: the record (read-only)."""
        _campaign_lines(ctx)

    @declare(A.CardInfo, None, O.card_info)
    def card_info(self, ctx: Ctx, a: A.CardInfo) -> None:
        """5.0: any card's whole text (read-only)."""
        sc = ctx.sc
        if sc.card_id(a.id) is None:
            cards = scenariofile.one_of([*sc.card, *sc.mission], limit=20)
            raise RuleError(f"There is no card '{a.id[:10]}'; cards: {cards}.")
        for text in card_lines(sc, a.id):
            ctx.say("card", text, "5.0")

    # -- questions ---------------------------------------------------------------------------

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
        """What a value means: a unit's values and place, a space's name, a cost, a card."""
        return labels.label(state, action, field, value, partial)

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
