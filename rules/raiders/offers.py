"""The legal orders of each kind now: the ``offers`` of the ``@order`` declarations.

Each function answers for one order, from the questions of :mod:`rules.raiders.hints` (the
same checks the resolvers raise on), so what ``legal_actions``, ``/game status`` and
autocomplete offer is what the rules accept.  They are called only in the phases their order
is declared for (:mod:`rules.raiders.phases`), so each checks what the phase does not.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import product

from rules.raiders import actions as A
from rules.raiders.battle import alive, firepower_open
from rules.raiders.forces import Ctx, force_ids, gear, gear_capacity, members, on_map
from rules.raiders.hints import (
    MAX_CHOICES,
    affordable_gear,
    before_move,
    can_recruit,
    can_swap,
    can_scout,
    coordinated_moves,
    destinations,
    fit,
    gear_buyers,
    line_orders,
    objective_options,
    recruitable,
    scout_targets,
    special_destinations,
    staging,
    supply_offer,
)
from rules.raiders.objectives import ends_early
from rules.raiders.state import RaidersState

#: 13.1: the kept-card events played with ``/raiders play`` (moves and swaps go elsewhere).
PLAYABLE = ("gain_op", "gain_rp", "calm")


def _ctx(state: RaidersState) -> Ctx:
    return Ctx.reading(state)


def recruit(state: RaidersState, side: str) -> Iterator[A.Recruit]:
    """9.0, 9.1: each affordable Recruit Table line (and kept leader) in each Staging Area."""
    ctx = _ctx(state)
    if can_recruit(ctx):
        for what, where in product(recruitable(ctx), staging(ctx)):
            yield A.Recruit(unit=what, at=where)


def buy_gear(state: RaidersState, side: str) -> Iterator[A.BuyGear]:
    """23.1: each affordable gear kind for each unit with room for it."""
    ctx = _ctx(state)
    if can_recruit(ctx):
        for item, who in product(affordable_gear(ctx), gear_buyers(ctx)):
            yield A.BuyGear(item=item, unit=who)


def trade(state: RaidersState, side: str) -> Iterator[A.Trade]:
    """23.2: each carried item to each other unit of its force with room, before the move."""
    ctx = _ctx(state)
    if not before_move(ctx):
        return
    m, sc = ctx.m, ctx.sc
    for u in on_map(m):
        mates = [x for x in members(m, u.force or "") if x.id != u.id and len(x.gear) < gear_capacity(sc, x)]
        for gid, mate in product(u.gear, mates):
            yield A.Trade(gear=gid, to=mate.id)


def abandon(state: RaidersState, side: str) -> Iterator[A.Abandon]:
    """23.4: any carried item (offered before a move; accepted during any operation)."""
    ctx = _ctx(state)
    if before_move(ctx):
        for u in on_map(ctx.m):
            yield from (A.Abandon(gear=gid) for gid in u.gear)


def split(state: RaidersState, side: str) -> Iterator[A.Split]:
    """12.0: any unit of a force of two or more, before the move."""
    ctx = _ctx(state)
    if before_move(ctx):
        m = ctx.m
        yield from (A.Split(unit=u.id) for u in on_map(m) if u.force and len(members(m, u.force)) > 1)


def join(state: RaidersState, side: str) -> Iterator[A.Join]:
    """10.3: a force into *another* force in the same space, before the move."""
    ctx = _ctx(state)
    if not before_move(ctx):
        return
    m = ctx.m
    forces = force_ids(m)
    for f, g in product(forces, forces):
        if f != g and members(m, f)[0].space == members(m, g)[0].space:
            yield A.Join(force=f, into=g)


def begin(state: RaidersState, side: str) -> Iterator[A.Begin]:
    """7.0 (8): once a raider is on the map or a kept leader waits."""
    ctx = _ctx(state)
    if on_map(ctx.m) or state.campaign.leaders:
        yield A.Begin()


def scout(state: RaidersState, side: str) -> Iterator[A.Scout]:
    """27.0: each force with a scout at each adjacent face-down marker."""
    ctx = _ctx(state)
    if can_scout(ctx):
        for f in force_ids(ctx.m):
            yield from (A.Scout(force=f, target=t) for t in scout_targets(ctx, f))


def move(state: RaidersState, side: str) -> Iterator[A.Move]:
    """12.0, 18.0, 26.0: each road destination, each air/water move, each coordinated move.

    A forced march (24.0 (1)) is accepted but not offered: autocomplete leaves ``march`` to
    the player, and a destination only a march reaches would be refused without it.
    """
    ctx = _ctx(state)
    m = ctx.m
    if m.moved:
        return
    for f in [m.force] if m.force else force_ids(m):
        yield from (A.Move(force=f, to=s) for s in destinations(ctx, f))
        for how in ("air", "water"):
            yield from (A.Move(force=f, to=s, how=how) for s in special_destinations(ctx, f, how))
    if not m.force:
        yield from coordinated_moves(ctx)


def accept(state: RaidersState, side: str) -> Iterator[A.Accept]:
    """13.0, 24.0 (3): play the card; with Supplies when the card pays for them."""
    yield A.Accept()
    if supply_offer(_ctx(state)) is not None:
        yield A.Accept(supply=True)


def swap(state: RaidersState, side: str) -> Iterator[A.Swap]:
    """22.0: with a guide in the force or a kept PSYOP card, once per card segment."""
    if can_swap(_ctx(state)) is not None:
        yield A.Swap()


def line(state: RaidersState, side: str) -> Iterator[A.Line]:
    """15.1 (3)-(4), 24.0 (2): raider lines; hostiles of equal value reordered, with the first
    line; maximum firepower with it while no die of the round is rolled.  While the round is
    being fought, only a line other than the standing one (it stands from the next round)."""
    ctx = _ctx(state)
    b = ctx.m.battle
    assert b is not None
    if b.lined:  # one change offered (strongest first, else the reverse): typing names any
        standing = alive(b, b.next_line if b.next_line is not None else b.raider_line)
        changes = [order for order in line_orders(ctx)[:2] if order != standing]
        yield from (A.Line(order=fit(order, " ")) for order in changes[:1])
        return
    orders = [fit(order, " ") for order in line_orders(ctx)]
    if b.round > 1:  # the line stands; the round waits only for the firepower choice
        yield A.Line()
    yield from (A.Line(order=order) for order in orders)
    for hostiles in hostile_tie_orders(ctx):
        yield A.Line(order=orders[0], hostiles=fit(hostiles, " "))
    if firepower_open(ctx):
        yield A.Line(order="" if b.round > 1 else orders[0], firepower=True)


def hostile_tie_orders(ctx: Ctx) -> list[list[str]]:
    """15.1 (3): the hostile line with one group of equal combat values turned round."""
    b, sc = ctx.m.battle, ctx.sc
    assert b is not None
    living = alive(b, b.hostile_line)
    out = []
    for value in sorted({sc.hostile[h].combat for h in living}, reverse=True):
        tied = [h for h in living if sc.hostile[h].combat == value]
        if len(tied) > 1:
            turned = iter(reversed(tied))
            out.append([next(turned) if sc.hostile[h].combat == value else h for h in living])
    return out[:MAX_CHOICES]


def fire(state: RaidersState, side: str) -> Iterator[A.Fire]:
    """15.1 (3), 24.0 (2): each living hostile; with maximum firepower while it may be declared."""
    ctx = _ctx(state)
    b = ctx.m.battle
    assert b is not None
    targets = alive(b, b.hostile_line)
    yield from (A.Fire(target=h) for h in targets)
    if b.second_die is None and firepower_open(ctx):
        yield from (A.Fire(target=h, firepower=True) for h in targets)


def demolish(state: RaidersState, side: str) -> Iterator[A.Demolish]:
    """21.1: each pioneer still to try at each revealed target; with Explosives if carried."""
    ctx = _ctx(state)
    m, sc = ctx.m, ctx.sc
    held = any(sc.gear_type[gear(m, g).type].effect == "explosives"
               for u in members(m, m.force or "") for g in u.gear)
    for kind, uid, mid in objective_options(ctx):
        if kind == "demolish":
            yield A.Demolish(unit=uid, marker=mid)
            if held:
                yield A.Demolish(unit=uid, marker=mid, explosives=True)


def carry(state: RaidersState, side: str) -> Iterator[A.Carry]:
    """18.4: each free mobile unit of the operating force at each revealed cargo."""
    for kind, uid, mid in objective_options(_ctx(state)):
        if kind == "carry":
            yield A.Carry(unit=uid, marker=mid)


def drop(state: RaidersState, side: str) -> Iterator[A.Drop]:
    """18.4: a carrier of the operating force after its move, or any carrier before a move."""
    ctx = _ctx(state)
    m = ctx.m
    if m.segment == "objective":
        yield from (A.Drop(unit=u.id) for u in members(m, m.force or "") if u.carrying)
    elif not m.moved:
        yield from (A.Drop(unit=u.id) for u in on_map(m) if u.carrying)


def end_op(state: RaidersState, side: str) -> Iterator[A.EndOp]:
    """11.0: the Objective segment may always be ended."""
    yield A.EndOp()


def play_card(state: RaidersState, side: str) -> Iterator[A.PlayCard]:
    """13.1: each kept card's gain-Op, gain-RP or calm event, before the move."""
    ctx = _ctx(state)
    m, sc = ctx.m, ctx.sc
    if not m.moved:
        for cid in m.hand:
            yield from (A.PlayCard(card=cid, event=e) for e in sc.card[cid].keep if e in PLAYABLE)


def end_mission(state: RaidersState, side: str) -> Iterator[A.EndMission]:
    """11.1: once the objective is met, between operations."""
    ctx = _ctx(state)
    if not ctx.m.moved and ends_early(ctx):
        yield A.EndMission()


def place(state: RaidersState, side: str) -> Iterator[A.Place]:
    """9.0, 9.2: the waiting free recruit in each Staging Area."""
    ctx = _ctx(state)
    if ctx.m.pending_place is not None:
        yield from (A.Place(unit=ctx.m.pending_place, at=s) for s in staging(ctx))


def next_mission(state: RaidersState, side: str) -> Iterator[A.NextMission]:
    """25.0: between missions."""
    yield A.NextMission()


def campaign(state: RaidersState, side: str) -> Iterator[A.CampaignReport]:
    """25.0: the record, at any time."""
    yield A.CampaignReport()


def card_info(state: RaidersState, side: str) -> Iterator[A.CardInfo]:
    """5.0: every Ops and Mission card of the scenario."""
    sc = _ctx(state).sc
    yield from (A.CardInfo(id=c.id) for c in sc.ops_cards)
    yield from (A.CardInfo(id=c.id) for c in sc.missions)
