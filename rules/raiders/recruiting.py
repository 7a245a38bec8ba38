"""Recruiting (9.0), gear (23.0) and forming forces (10.3, 12.0).

Recruiting happens at the mission's start (7.0 (6)) and, with banked RP, in an operation's
Recruiting segment (9.1, 11.0 (1)); recruits go into a Staging Area.  Forces are formed and
gear traded before a force moves (12.0, 23.2).
"""

from __future__ import annotations

from rules.core.errors import RuleError
from rules.core.orders import order
from rules.raiders import actions as A
from rules.raiders import offers
from rules.raiders.cards import KEEP_RP, KEEP_WORDS, alert_change, gain_ops, rp_change
from rules.raiders.forces import (
    Ctx,
    allowance,
    counter_to_recruit,
    force,
    force_ids,
    gear,
    gear_capacity,
    members,
    new_force,
    place,
    space_of,
    unit,
)
from rules.raiders.operations import use_card
from rules.raiders.phases import BEFORE_MOVE, MISSION, OP_START, PLACE
from rules.raiders.scenario import Scenario, SpaceSpec
from rules.raiders.state import Unit

def recruit_window(ctx: Ctx, action: str) -> None:
    """9.0/9.1: at set-up, or in the Recruiting segment instead of scouting (11.0 (1))."""
    if ctx.state.phase == "recruit":
        return
    m = ctx.m
    if ctx.state.phase == "ops" and m.segment == "recruit" and not m.moved and m.segment_action == "scout":
        raise RuleError(f"This operation has scouted: it recruits or scouts, not both (11.0 (1)). "
                        f"You may {action} next operation; 'move' is next.")
    if ctx.state.phase != "ops" or m.segment != "recruit" or m.moved:
        raise RuleError(
            f"You {action} at the mission's start or at the start of an operation, before "
            "its move (9.1, 11.0 (1))."
        )
    m.segment_action = "recruit"


@order(A.Recruit, phases=BEFORE_MOVE, offers=offers.recruit)
def recruit(ctx: Ctx, a: A.Recruit) -> None:
    """9.0: buy one raider unit with RP (or place a kept leader free, 25.0) in a Staging Area."""
    m, sc = ctx.m, ctx.sc
    what, at = a.unit, a.at
    recruit_window(ctx, "recruit")
    space = staging_area(ctx, at)
    kept = [lid for lid in ctx.state.campaign.leaders if lid.lower() == what.lower()]
    if kept:
        leader = unit(m, kept[0])
        if ctx.state.phase != "recruit" or leader.space is not None:
            raise RuleError(f"{leader.id} is placed once, at the mission's start (25.0).")
        ctx.say("recruit", f"{leader.id} {leader.name} placed at {space.name} (25.0)", "25.0")
        settle_recruit(ctx, leader, space.id)
        return
    spec = sc.unit_type.get(what.lower())
    if spec is None or spec.leader:
        types = ", ".join(u.id for u in sc.units if not u.leader)
        raise RuleError(f"'{what[:20]}' is not on the Recruit Table; units: {types} (9.0).")
    if not any(u.type == spec.id and u.space is None and not u.eliminated and u.id != m.pending_place
               for u in m.units):
        raise RuleError(f"Every {spec.name} counter is already in play (9.0).")
    if spec.cost > m.rp:
        raise RuleError(f"A {spec.name} costs {spec.cost} RP and you have {m.rp} (9.0).")
    new = counter_to_recruit(sc, m, spec.id)
    assert new is not None  # one is free: checked above
    m.rp -= spec.cost
    ctx.say("recruit", f"{new.id} recruited at {space.name} · −{spec.cost} RP → {m.rp} (9.0)", "9.0")
    settle_recruit(ctx, new, space.id)


def staging_area(ctx: Ctx, at: str) -> SpaceSpec:
    """9.0: the Staging Area ``at`` names (id or name, any case), or a RuleError listing them."""
    sc = ctx.sc
    found = sc.find_space(at)
    if found is None or not sc.space_by_id[found].staging:
        staging = ", ".join(s.id for s in sc.spaces if s.staging)
        raise RuleError(f"Recruits are placed in a Staging Area: {staging} (9.0).")
    return sc.space_by_id[found]


def settle_recruit(ctx: Ctx, u: Unit, space: str) -> None:
    """Place a recruit and say which force it is in: never silently (10.3, 12.0).

    A mobile recruit joins the first force there whose units all move; a static one (4.0)
    stands as a force of its own, so that it never freezes a force's movement (12.0: a force
    moves at the speed of its slowest unit).
    """
    m, sc = ctx.m, ctx.sc
    mobile = sc.unit_type[u.type].movement > 0
    moving = [f for f in force_ids(m) if space_of(m, f) == space and allowance(sc, members(m, f)) > 0]
    place(m, u, space, moving[0] if mobile and moving else new_force(m))
    if mobile and moving:
        ctx.say("force", f"{u.id} joins {u.force}; 'split' takes it out (10.3)", "10.3")
    elif not mobile:
        ctx.say("force", f"{u.id} is static: force {u.force} on its own (4.0, 12.0)", "12.0")
    else:
        ctx.say("force", f"{u.id} is force {u.force} (10.3)", "10.3")


@order(A.Place, phases=PLACE, offers=offers.place)
def place_recruit(ctx: Ctx, a: A.Place) -> None:
    """9.0, 9.2: the free recruit that could not join its force goes to the Staging Area the
    player names, as a force of its own."""
    m = ctx.m
    unit_id, at = a.unit, a.at
    waiting = m.pending_place
    if waiting is None or waiting.lower() != unit_id.lower():
        raise RuleError(f"No recruit '{unit_id[:20]}' waits to be placed; waiting: {waiting or 'none'} (9.2).")
    space = staging_area(ctx, at)
    u = unit(m, waiting)
    m.pending_place = None
    ctx.say("recruit", f"{u.id} placed free at {space.name} (9.0, 9.2)", "9.2")
    settle_recruit(ctx, u, space.id)


@order(A.BuyGear, phases=BEFORE_MOVE, offers=offers.buy_gear)
def buy_gear(ctx: Ctx, a: A.BuyGear) -> None:
    """23.1: buy a gear counter for a raider unit (later in the mission: in a Staging Area)."""
    m, sc = ctx.m, ctx.sc
    what, to = a.item, a.unit
    u = unit(m, to)
    if u.space is None:
        raise RuleError(f"{u.id} is not on the map; gear goes to a unit in play (23.1).")
    if ctx.state.phase == "ops" and not sc.space_by_id[u.space].staging:
        raise RuleError("During a mission gear is bought for units in a Staging Area (9.1).")
    spec = sc.find_gear(what)
    if spec is None:
        kinds = ", ".join(g.name if g.name.lower() == g.id else f"{g.name} ({g.id})" for g in sc.gear)
        raise RuleError(f"'{what[:20]}' is not gear; gear: {kinds} (23.0).")
    free = [g for g in m.gear if g.type == spec.id and g.holder is None]
    if not free:
        raise RuleError(f"Every {spec.name} counter is in use (23.0).")
    check_room(sc, u)
    if spec.cost > m.rp:
        raise RuleError(f"{spec.name} costs {spec.cost} RP and you have {m.rp} (23.1).")
    recruit_window(ctx, "buy gear")
    m.rp -= spec.cost
    free[0].holder = u.id
    u.gear.append(free[0].id)
    ctx.say("gear", f"{free[0].id} {spec.name} to {u.id}: −{spec.cost} RP → {m.rp} (23.1)", "23.1")


def check_room(sc: Scenario, u: Unit) -> None:
    """23.2: a unit takes gear only while it has room; a static unit carries none at all."""
    room = gear_capacity(sc, u)
    if room == 0:
        raise RuleError(f"{u.id} is static: it carries no gear (23.2).")
    if len(u.gear) >= room:
        raise RuleError(f"{u.id} can hold {room} gear and is full (23.2).")


def before_move(ctx: Ctx, what: str) -> None:
    """23.2 / 12.0: trading and forming happen before a force sets out."""
    if ctx.state.phase == "recruit":
        return
    m = ctx.m
    if ctx.state.phase != "ops" or m.segment != "recruit" or m.moved:
        raise RuleError(f"You {what} at the start of a movement segment, before moving (12.0, 23.2).")


@order(A.Trade, phases=BEFORE_MOVE, offers=offers.trade)
def trade(ctx: Ctx, a: A.Trade) -> None:
    """23.2: hand a gear item to another unit of the same force."""
    m, sc = ctx.m, ctx.sc
    gear_id, to = a.gear, a.to
    before_move(ctx, "trade gear")
    g = gear(m, gear_id)
    receiver = unit(m, to)
    if g.holder is None:
        raise RuleError(f"{g.id} is in the Recruit Pool; buy it with 'gear' (23.1).")
    giver = unit(m, g.holder)
    if receiver.id == giver.id or receiver.force != giver.force or receiver.space is None:
        raise RuleError(f"{g.id} can go to another unit of {giver.force} only (23.2).")
    check_room(sc, receiver)
    giver.gear.remove(g.id)
    receiver.gear.append(g.id)
    g.holder = receiver.id
    ctx.say("gear", f"{g.id} passes from {giver.id} to {receiver.id} (23.2)", "23.2")


@order(A.Abandon, phases=MISSION, offers=offers.abandon)
def abandon(ctx: Ctx, a: A.Abandon) -> None:
    """23.4: return a gear item to the Recruit Pool (at any time during an operation)."""
    m = ctx.m
    gear_id = a.gear
    if ctx.state.phase not in ("recruit", "ops"):
        raise RuleError("Gear is abandoned during a mission (23.4).")
    g = gear(m, gear_id)
    if g.holder is None:
        raise RuleError(f"{g.id} is not carried by anyone (23.4).")
    unit(m, g.holder).gear.remove(g.id)
    ctx.say("gear", f"{g.id} abandoned by {g.holder} (23.4)", "23.4")
    g.holder = None


@order(A.Split, phases=BEFORE_MOVE, offers=offers.split)
def split(ctx: Ctx, a: A.Split) -> None:
    """12.0: leave a unit behind as a force of its own (formed before moving)."""
    m = ctx.m
    unit_id = a.unit
    before_move(ctx, "form forces")
    u = unit(m, unit_id)
    if u.force is None:
        raise RuleError(f"{u.id} is not on the map.")
    if len(force(m, u.force)) == 1:
        raise RuleError(f"{u.id} is already a force on its own ({u.force}).")
    old = u.force
    u.force = new_force(m)
    ctx.say("force", f"{u.id} leaves {old}: new force {u.force} (12.0)", "12.0")


@order(A.Join, phases=BEFORE_MOVE, offers=offers.join)
def join(ctx: Ctx, action: A.Join) -> None:
    """10.3: merge two forces standing in the same space."""
    m = ctx.m
    force_id, into = action.force, action.into
    before_move(ctx, "form forces")
    a, b = force(m, force_id), force(m, into)
    if a[0].force == b[0].force or a[0].space != b[0].space:
        raise RuleError("Forces join only with another force in the same space (10.3).")
    target, old = b[0].force, a[0].force
    for u in a:
        u.force = target
    if ctx.state.phase == "ops" and m.force == old:
        m.force = target  # the scouting force (27.0) goes on as part of the joined force
    total = len(a) + len(b)
    ctx.say("force", f"{old} joins {target}: {target} has {total} unit{'s' if total != 1 else ''} now (10.3)",
            "10.3")


#: 13.1: kept-card events that are used through another order, and how to give it.
ELSEWHERE = {
    "air_move": "an air move is a move, e.g. move force:F1 to:benina how:air (18.1)",
    "water_move": "a water move is a move, e.g. move force:F1 to:derna how:water (18.2)",
    "forced_march": "a forced march is a move with march:yes (24.0 (1))",
    "psyop": "PSYOP swaps the drawn Ops card: swap, when a card is drawn (22.0)",
}


def keep_event(said: str) -> str:
    """A kept card's event as the order names it (``gain_rp``) or as the menus say it
    (``+2 RP``, ``+2 RP (13.0)``), any case: its id, or what was said when neither."""
    key = said.strip().lower()
    words = {w.lower(): e for e, w in KEEP_WORDS.items()} | {w.split(" (")[0].lower(): e for e, w in KEEP_WORDS.items()}
    return key if key in KEEP_WORDS else words.get(key, key)


@order(A.PlayCard, phases=OP_START, offers=offers.play_card)
def play_kept(ctx: Ctx, a: A.PlayCard) -> None:
    """13.1: play a kept card's gain-Op, gain-RP or calm event between operations."""
    m, sc = ctx.m, ctx.sc
    card_id, event = a.card, a.event
    if ctx.state.phase != "ops" or m.segment != "recruit" or m.moved:
        raise RuleError("Kept cards are played at the start of an operation (13.1).")
    held = [c for c in m.hand if c.lower() == card_id.lower()]
    if not held:
        raise RuleError(f"You do not hold '{card_id[:10]}'; kept cards: {', '.join(m.hand) or 'none'}.")
    card = sc.card[held[0]]
    event = keep_event(event)
    if event not in KEEP_WORDS:
        raise RuleError(f"'{event[:20]}' is not a kept-card event; 'play' takes gain_op, gain_rp "
                        f"or calm, as the card offers (13.1).")
    if event in ELSEWHERE:
        raise RuleError(f"{event} is not played with 'play': {ELSEWHERE[event]}.")
    if event not in card.keep:
        usable = [e for e in card.keep if e not in ELSEWHERE]
        raise RuleError(f"{card.id} has no {event} event (13.1); it offers "
                        f"{', '.join(card.keep) or 'none'}, and 'play' takes {', '.join(usable) or 'none of them'}.")
    use_card(ctx, card.id, event)
    if event == "gain_op":
        gain_ops(ctx, 1, card.title)
    elif event == "gain_rp":
        rp_change(ctx, KEEP_RP, card.title)
    else:
        alert_change(ctx, -1, card.title)
