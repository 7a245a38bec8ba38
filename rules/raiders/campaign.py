"""Missions and the campaign (7.0, 8.0, 25.0): starting a mission, judging it, linking them.

The whole campaign is one game: the state holds the campaign record and the mission in play.
A won Mission card leaves the deck, a lost one goes back in (25.1, 25.2); two losses in a row
lose the campaign, winning every card wins it (25.3).
"""

from __future__ import annotations

from rules.core import evaluation
from rules.core.errors import RuleError
from rules.core.orders import order
from rules.raiders import actions as A
from rules.raiders import offers, outlook
from rules.raiders.battle import place_camps
from rules.raiders.forces import Ctx, on_map, place
from rules.raiders.objectives import ends_early, objective_met, progress
from rules.raiders.phases import BETWEEN, OP_START, SETUP
from rules.raiders.state import Gear, Marker, Mission, RaidersState, Record, Unit

#: How much the missions already won weigh in :func:`prospects` beside the mission in play.
CAMPAIGN_WEIGHT = 0.2


def start_mission(ctx: Ctx, card_id: str) -> None:
    """7.0: set up a mission from its card: alert, Ops deck, RP, markers, the Recruit Box."""
    sc, camp = ctx.sc, ctx.state.campaign
    card = sc.mission[card_id]
    alert = max(1, min(5, card.alert + camp.alert_bonus))
    kept = camp.rp + camp.success_rp
    rp = min(sc.rp_max, card.rp + kept)
    units: list[Unit] = []
    for spec in sc.units:
        for i in range(spec.count):
            name = spec.names[i] if i < len(spec.names) else f"{spec.name} {i + 1}"
            units.append(Unit(id=f"{spec.prefix}-{i + 1}", type=spec.id, name=name))
    gear = [Gear(id=f"{g.prefix}-{i + 1}", type=g.id) for g in sc.gear for i in range(g.count)]
    markers = [Marker(id=f"Obj-{i + 1}", space=s) for i, s in enumerate(card.spaces)]
    ctx.state.mission = Mission(
        card=card.id,
        alert=alert,
        rp=rp,
        command=card.command,
        # 7.0 (2): the draw deck is as many face-down cards as the card's Execution.
        deck=[None] * min(card.ops, len(sc.ops_cards)),
        units=units,
        gear=gear,
        markers=markers,
    )
    ctx.state.phase = "recruit"
    ctx.reveals = True
    bonus = f" (+{camp.alert_bonus} campaign)" if camp.alert_bonus else ""
    parts = [f"{camp.rp} kept"] if camp.rp else []
    parts += [f"{camp.success_rp} success"] if camp.success_rp else []
    extra = f" ({' + '.join(parts)})" if parts else ""
    # 25.1 (3), (4): the bonuses are for the next scenario only.
    camp.rp = camp.success_rp = camp.alert_bonus = 0
    ctx.say("mission", f"📜 Mission {card.id} {card.title} (8.0)", "8.0", mission=card.id)
    ctx.say("mission", f"Goal: {card.objective.text}", "8.0")
    ctx.say("mission", f"Success: {card.success.text} (8.0 (6))", "8.0")
    ctx.say("mission", f"{card.ops} Ops · {rp} RP{extra} · command {card.command}", "8.0")
    dropped = card.rp + kept - sc.rp_max
    if dropped > 0:
        ctx.say("mission", f"{dropped} RP lost: the RP Index stops at {sc.rp_max} (13.0 (4))", "13.0")
    ctx.say("mission", f"Alert {alert}{bonus} (8.0, 25.1)", "25.1")
    where = ", ".join(sc.space_by_id[s].name for s in card.spaces)
    ctx.say("mission", f"Markers (7.0): {where}", "7.0")
    place_camps(ctx)
    if camp.leaders:
        ctx.say("mission", f"Leaders kept (25.0): {', '.join(camp.leaders)}", "25.0")
        ctx.say("mission", "Place them free with 'recruit'", "25.0")
    ctx.snapshot = True


@order(A.Begin, phases=SETUP, offers=offers.begin)
def begin(ctx: Ctx, a: A.Begin) -> None:
    """7.0 (8): recruiting done; unspent RP is banked (9.1); operation 1 starts."""
    m, sc = ctx.m, ctx.sc
    if ctx.state.phase != "recruit":
        raise RuleError("The mission is already under way; 'begin' ends the initial recruiting.")
    if not on_map(m) and not ctx.state.campaign.leaders:
        raise RuleError("Recruit at least one raider unit into a Staging Area first (7.0 (6)).")
    staging = [s.id for s in sc.spaces if s.staging]
    with_units = [s for s in staging if any(u.space == s for u in m.units)]
    for lid in ctx.state.campaign.leaders:
        leader = next(u for u in m.units if u.id == lid)
        if leader.space is None:
            place(m, leader, with_units[0] if with_units else staging[0])
            where = sc.space_by_id[leader.space or ""].name
            ctx.say("leader", f"{leader.id} {leader.name} placed at {where} (25.0)", "25.0")
    ctx.state.phase = "ops"
    ctx.say("mission", f"{m.rp} RP banked (9.1)", "9.1")
    ctx.say("mission", "Operation 1 begins (11.0)", "11.0")
    ctx.snapshot = True


def end_mission(ctx: Ctx) -> None:
    """6.0, 25.0: judge the mission and update the campaign record."""
    m, sc, camp = ctx.m, ctx.sc, ctx.state.campaign
    won = objective_met(ctx)
    m.result = "won" if won else "lost"
    m.pending_place = None  # 25.0: every unit goes back to the pool anyway
    camp.record.append(Record(mission=m.card, won=won))
    camp.rp = m.rp  # 25.1 (2), 25.2 (2)
    alive_leaders = [u.id for u in on_map(m) if sc.unit_type[u.type].leader]
    camp.leaders = alive_leaders  # 25.0: surviving leaders stay, the rest return to the pool
    ctx.snapshot = True
    if camp.single:
        judge_single(ctx, won)
    else:
        judge_campaign(ctx, won)
    ctx.state.phase = "over" if camp.outcome else "between"
    if not camp.outcome:
        ctx.say("campaign", "Next: /raiders next-mission (25.0)", "25.0")


def judge_campaign(ctx: Ctx, won: bool) -> None:
    """25.1-25.3: the card leaves the deck or goes back; all won or two lost in a row ends it."""
    m, sc, camp = ctx.m, ctx.sc, ctx.state.campaign
    card = sc.mission[m.card]
    if won:
        camp.deck.remove(m.card)  # 25.1 (1)
        camp.alert_bonus = 1  # 25.1 (3): "For the next scenario, add one": that one only
        camp.success_rp = card.success.rp  # 25.1 (4)
        if card.success.leader:
            pool = [
                f"{spec.prefix}-{i + 1}"
                for spec in sc.units if spec.leader for i in range(spec.count)
                if f"{spec.prefix}-{i + 1}" not in camp.leaders
            ]
            if pool:
                chosen = ctx.dice.pick(pool, "leader gained for the next mission (8.0 Success)")
                camp.leaders.append(chosen)
        ctx.say("mission", f"🏆 {card.id} {card.title} won (25.1)", "25.1")
        ctx.say("mission", f"Next mission: {card.success.text}", "25.1")
    else:
        ctx.say("mission", f"✗ {card.id} lost: card back in the deck (25.2)", "25.2")
    recent = camp.record[-2:]
    if won and not camp.deck:
        camp.outcome = "won"
        ctx.say("campaign", "All missions won: campaign won (25.3)", "25.3")
    elif len(recent) == 2 and not any(r.won for r in recent):
        camp.outcome = "lost"
        ctx.say("campaign", "Two losses in a row: campaign lost (25.3)", "25.3")


def judge_single(ctx: Ctx, won: bool) -> None:
    """6.0 alone: "If you have fulfilled this mission by the end of the game, you win" — a
    single-mission game has no campaign (25.0), so no next mission and no 25.3."""
    m, camp = ctx.m, ctx.state.campaign
    camp.outcome = "won" if won else "lost"
    title = ctx.sc.mission[m.card].title
    ctx.say("mission", f"{'🏆' if won else '✗'} {m.card} {title} {camp.outcome} (6.0)", "6.0")


@order(A.NextMission, phases=BETWEEN, offers=offers.next_mission)
def next_mission(ctx: Ctx, a: A.NextMission) -> None:
    """25.0: draw a Mission card from those not yet won and set it up."""
    if ctx.state.phase != "between":
        raise RuleError("The next mission starts once this one has ended (25.0).")
    camp = ctx.state.campaign
    card = ctx.dice.pick(camp.deck, "Mission card draw (7.0 (4))")
    start_mission(ctx, card)


@order(A.EndMission, phases=OP_START, offers=offers.end_mission)
def end_mission_early(ctx: Ctx, a: A.EndMission) -> None:
    """11.1: the objective is met; the mission ends early, between operations."""
    if ctx.m.moved or not ends_early(ctx):
        raise RuleError(f"The mission cannot end yet ({progress(ctx)}); play on (11.1).")
    ctx.say("mission", "Objective met: the mission ends early (11.1)", "11.1")
    end_mission(ctx)


@order(A.CampaignReport, offers=offers.campaign)
def campaign_report(ctx: Ctx, a: A.CampaignReport) -> None:
    """25.0: the record (read-only); a single-mission game has none to show (6.0)."""
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


def prospects(state: RaidersState) -> float:
    """How the campaign stands for the raiders, 0 to 1, for the computer player (issue 43):
    won or lost once over (25.3, 6.0 alone for a single mission); before, mostly the mission
    in play (:func:`rules.raiders.outlook.mission_value`: every mission must be won, 25.3,
    so this one is what the orders of now decide), a little the missions won of those to win.
    Between missions, the one just ended: won, or lost (two lost in a row lose, 25.3)."""
    camp = state.campaign
    if camp.outcome is not None:
        return evaluation.final("raiders" if camp.outcome == "won" else "hostiles", "raiders")
    if state.phase == "between" or state.mission is None:
        mission = 1.0 if camp.record and camp.record[-1].won else 0.0
    else:
        mission = outlook.mission_value(state)
    if camp.single:
        return evaluation.share(mission, 1.0)
    won = sum(1 for r in camp.record if r.won)
    campaign = won / max(1, won + len(camp.deck))
    return evaluation.share(CAMPAIGN_WEIGHT * campaign + (1 - CAMPAIGN_WEIGHT) * mission, 1.0)
