"""The Raiders game system: one seat (``raiders``), the bot plays the hostiles and the decks.

``apply`` works on a deep copy of the state and dispatches each order to the module that holds
its rule; everything that needs no decision of the player (cards, hostiles, their fire, alert,
post battle, turning markers) is resolved inside the order that triggers it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from pydantic import Field

from rules.core.contract import Action, Choice, GameOptions, GameSystem, Step
from rules.core.dice import Dice, ScriptedDice
from rules.core.errors import RuleError
from rules.raiders import actions as A
from rules.raiders import battle, campaign, objectives, operations, recruiting
from rules.raiders.forces import Ctx, force
from rules.raiders.hints import choices_for, legal
from rules.raiders.scenario import SCENARIOS, load_scenario
from rules.raiders.state import Campaign, RaidersState
from rules.raiders.view import network_view, status_lines, turn_label

class RaidersOptions(GameOptions):
    """``/game new options:...``: 26.0 and 27.0 are optional rules; ``single`` plays one mission."""

    coordinated: bool = Field(False, description="26.0 coordinated operations")
    scouting: bool = Field(False, description="27.0 scouting")
    single: bool = Field(False, description="one mission instead of the campaign")
    mission: str | None = Field(None, description="the first Mission card (default: drawn)")


def _need_mission(ctx: Ctx) -> None:
    if ctx.state.mission is None or ctx.state.phase not in ("recruit", "ops"):
        raise RuleError("No mission is under way; 'next-mission' starts the next one (25.0).")


def _need_ops(ctx: Ctx, segment: str, what: str) -> None:
    _need_mission(ctx)
    if ctx.state.phase != "ops" or ctx.m.segment != segment:
        raise RuleError(f"{what} now; the operation is in its {ctx.m.segment} segment.")


def _scout(ctx: Ctx, a: A.Scout) -> None:
    if not ctx.state.scouting:
        raise RuleError("Scouting (27.0) is an option this game was not started with.")
    _need_ops(ctx, "recruit", "Scouting happens in the Recruiting & Scouting segment (27.0), not")
    m = ctx.m
    if m.moved or m.segment_action is not None:
        raise RuleError("An operation has one recruit action or one scouting, before the move (11.0).")
    fid = force(m, a.force)[0].force
    assert fid is not None
    objectives.scout(ctx, fid, a.target)
    m.segment_action = "scout"
    m.force = fid


def _line(ctx: Ctx, a: A.Line) -> None:
    _need_ops(ctx, "battle", "Raiders line up in a battle (15.1), not")
    if ctx.m.battle is None:
        raise RuleError("There is no battle in progress.")
    battle.set_line(ctx, a.order.replace(",", " ").split())
    operations.after_battle(ctx)


def _fire(ctx: Ctx, a: A.Fire) -> None:
    _need_ops(ctx, "battle", "Raiders fire in a battle (15.1), not")
    battle.raider_fire(ctx, a.target, a.firepower)
    operations.after_battle(ctx)


def _objective_order(ctx: Ctx, run: Callable[[], None]) -> None:
    _need_ops(ctx, "objective", "That is done in the Objective segment (11.0 (5)), not")
    run()
    if ctx.m.battle is None and ctx.state.phase == "ops" and not operations.objective_options(ctx):
        operations.end_op(ctx)


def _end_op(ctx: Ctx, a: A.EndOp) -> None:
    _need_ops(ctx, "objective", "An operation ends after its Objective segment (11.0), not")
    operations.end_op(ctx)


def _end_mission(ctx: Ctx, a: A.EndMission) -> None:
    _need_ops(ctx, "recruit", "A mission is ended between operations (11.1), not")
    if ctx.m.moved or not objectives.objective_met(ctx):
        raise RuleError(f"The objective is not met yet ({objectives.progress(ctx)}); play on (11.1).")
    ctx.say("mission", "Objective met: the mission ends early (11.1)", "11.1")
    campaign.end_mission(ctx)


def _campaign(ctx: Ctx, a: A.CampaignReport) -> None:
    camp, sc = ctx.state.campaign, ctx.sc
    won = [r.mission for r in camp.record if r.won]
    lost = [r.mission for r in camp.record if not r.won]
    ctx.say("campaign", f"Won: {', '.join(won) or 'none'} · Lost: {', '.join(lost) or 'none'}", "25.0")
    ctx.say("campaign", f"Still to win: {', '.join(camp.deck) or 'none'}", "25.1")
    rp = ctx.state.mission.rp if ctx.state.mission and ctx.state.phase in ("recruit", "ops") else camp.rp
    ctx.say("campaign", f"RP banked: {rp} · alert bonus +{camp.alert_bonus}", "25.1")
    leaders = camp.leaders
    if ctx.state.mission is not None and ctx.state.phase in ("recruit", "ops"):
        leaders = [u.id for u in ctx.state.mission.units if sc.unit_type[u.type].leader and u.space]
        leaders += [lid for lid in camp.leaders if lid not in leaders]
    ctx.say("campaign", f"Leaders: {', '.join(leaders) or 'none'}", "25.0")
    if camp.outcome:
        ctx.say("campaign", f"The campaign is {camp.outcome} (25.3)", "25.3")


def _with_mission(run: Callable[[Ctx, Any], None]) -> Callable[[Ctx, Any], None]:
    def wrapped(ctx: Ctx, a: Any) -> None:
        _need_mission(ctx)
        run(ctx, a)

    return wrapped


HANDLERS: dict[type[Action], Callable[[Ctx, Any], None]] = {
    A.Recruit: _with_mission(lambda c, a: recruiting.recruit(c, a.unit, a.at)),
    A.BuyGear: _with_mission(lambda c, a: recruiting.buy_gear(c, a.item, a.unit)),
    A.Trade: _with_mission(lambda c, a: recruiting.trade(c, a.gear, a.to)),
    A.Abandon: _with_mission(lambda c, a: recruiting.abandon(c, a.gear)),
    A.Split: _with_mission(lambda c, a: recruiting.split(c, a.unit)),
    A.Join: _with_mission(lambda c, a: recruiting.join(c, a.force, a.into)),
    A.Begin: _with_mission(lambda c, a: campaign.begin(c)),
    A.Scout: _scout,
    A.Move: _with_mission(lambda c, a: operations.move(c, a.force, a.to, a.how, a.march, a.with_force)),
    A.Swap: _with_mission(lambda c, a: operations.choose_card(c, True)),
    A.Accept: _with_mission(lambda c, a: operations.choose_card(c, False, a.supply)),
    A.Line: _line,
    A.Fire: _fire,
    A.Demolish: lambda c, a: _objective_order(c, lambda: objectives.demolish(c, a.unit, a.marker, a.explosives)),
    A.Carry: lambda c, a: _objective_order(c, lambda: objectives.carry(c, a.unit, a.marker)),
    A.Drop: _with_mission(lambda c, a: objectives.drop(c, a.unit)),
    A.EndOp: _end_op,
    A.PlayCard: _with_mission(lambda c, a: recruiting.play_kept(c, a.card, a.event)),
    A.EndMission: _end_mission,
    A.NextMission: lambda c, a: campaign.next_mission(c),
    A.CampaignReport: _campaign,
}


class RaidersSystem(GameSystem):
    """Decision Games' Raiders mini-game system, solitaire, with its campaign (1.0-27.0)."""

    key = "raiders"
    title = "Raiders"
    sides = ("raiders",)
    scenarios = SCENARIOS
    actions = A.ACTIONS
    state_model = RaidersState

    options_model = RaidersOptions

    def start(self, scenario: str, options: Any, dice: Dice) -> Step:
        """Open a campaign (or one mission with option ``single``): draw the first Mission card."""
        if scenario not in SCENARIOS:
            raise RuleError(f"There is no Raiders scenario '{scenario[:30]}'; scenarios: {', '.join(SCENARIOS)}.")
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
        ctx = Ctx(state, dice)
        card = first if first is not None else dice.pick(state.campaign.deck, "Mission card draw (7.0 (4))")
        campaign.start_mission(ctx, str(card))
        return self.make_step(ctx.state, ctx.events, snapshot=True, reveals=True)

    def apply(self, state: BaseModel, side: str, action: Action, dice: Dice) -> Step:
        """Resolve one order of the raider player on a copy of ``state``."""
        if side != "raiders":
            raise RuleError("Raiders has one seat, 'raiders'; the bot plays the hostiles.")
        if not isinstance(state, RaidersState):
            raise RuleError("This game's state is not a Raiders state.")
        handler = HANDLERS.get(type(action))
        if handler is None:
            raise RuleError(f"Raiders has no order {action.name!r}.")
        if state.phase == "over" and not isinstance(action, A.CampaignReport):
            raise RuleError(f"The campaign is {state.campaign.outcome}; '/raiders campaign' shows the record.")
        ctx = Ctx(state.model_copy(deep=True), dice)
        handler(ctx, action)
        if action.read_only:
            return self.make_step(state, ctx.events)
        return self.make_step(ctx.state, ctx.events, snapshot=ctx.snapshot, reveals=ctx.reveals)

    def choices(
        self, state: BaseModel, side: str, action: str, field: str, partial: dict[str, Any]
    ) -> list[Choice]:
        """Autocomplete for one option, best first, at most 25."""
        assert isinstance(state, RaidersState)
        return choices_for(Ctx(state, ScriptedDice([])), action, field, partial)

    def legal_actions(self, state: BaseModel, side: str) -> list[Action]:
        """Orders the raider player may give now."""
        assert isinstance(state, RaidersState)
        if side != "raiders" or state.phase == "over":
            return []
        return legal(Ctx(state, ScriptedDice([])))

    def waiting_on(self, state: BaseModel) -> list[str]:
        """The raider player, until the campaign ends."""
        assert isinstance(state, RaidersState)
        return [] if state.phase == "over" else ["raiders"]

    def turn_part(self, state: BaseModel) -> str:
        """E.g. ``M3 · Op 4 · battle round 2``."""
        assert isinstance(state, RaidersState)
        return turn_label(Ctx(state, ScriptedDice([])))

    def status(self, state: BaseModel) -> list[str]:
        """Mission, Ops, alert, RP, forces, objectives, campaign, what to do now."""
        assert isinstance(state, RaidersState)
        return status_lines(Ctx(state, ScriptedDice([])))

    def view(self, state: BaseModel) -> BaseModel:
        """The network map with forces, tracks and the battle panel."""
        assert isinstance(state, RaidersState)
        return network_view(Ctx(state, ScriptedDice([])))

    def result(self, state: BaseModel) -> str | None:
        """How the campaign (or single mission) ended."""
        assert isinstance(state, RaidersState)
        camp = state.campaign
        if camp.outcome is None:
            return None
        won = sum(1 for r in camp.record if r.won)
        what = "Mission" if camp.single else "Campaign"
        return f"{what} {camp.outcome}: {won} won, {len(camp.record) - won} lost (25.3)"


SYSTEM = RaidersSystem()
