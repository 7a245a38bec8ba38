"""What the raider player can do now: the questions the offers of each order are built from.

Each function answers one question the rules ask (who may be recruited, where a force may
end its move...), with the same checks the resolvers raise on; :mod:`rules.raiders.offers`
turns them into the legal orders, and autocomplete is drawn from those.
"""

from __future__ import annotations

from itertools import combinations, permutations
from rules.raiders import actions as A
from rules.raiders.battle import alive
from rules.raiders.cards import held_card
from rules.raiders.forces import Ctx, allowance, combat, force_ids, gear, gear_capacity, members, on_map, stack_count
from rules.raiders.movement import reach
from rules.raiders.objectives import on_board

MAX_CHOICES = 25


def staging(ctx: Ctx) -> list[str]:
    """Staging Area ids."""
    return [s.id for s in ctx.sc.spaces if s.staging]


def recruitable(ctx: Ctx) -> list[str]:
    """Recruit Table lines the player can afford now, and kept leaders still to place."""
    m, sc = ctx.m, ctx.sc
    out = [
        lid for lid in ctx.state.campaign.leaders
        if ctx.state.phase == "recruit" and any(u.id == lid and u.space is None for u in m.units)
    ]
    for spec in sc.units:
        if spec.leader or spec.cost > m.rp:
            continue
        if any(u.type == spec.id and u.space is None and not u.eliminated and u.id != m.pending_place
               for u in m.units):
            out.append(spec.id)
    return out


def can_recruit(ctx: Ctx) -> bool:
    """9.1, 11.0 (1): at set-up, or in a Recruiting segment not used for scouting."""
    if ctx.state.phase == "recruit":
        return True
    m = ctx.m
    return ctx.state.phase == "ops" and m.segment == "recruit" and not m.moved and m.segment_action != "scout"


def gear_buyers(ctx: Ctx) -> list[str]:
    """Units that may receive bought gear now (capacity left; in a Staging Area during ops)."""
    m, sc = ctx.m, ctx.sc
    return [
        u.id for u in on_map(m)
        if len(u.gear) < gear_capacity(sc, u)
        and (ctx.state.phase == "recruit" or (u.space is not None and sc.space_by_id[u.space].staging))
    ]


def affordable_gear(ctx: Ctx) -> list[str]:
    """Gear kinds with a free counter the player can pay for."""
    m = ctx.m
    return [
        g.id for g in ctx.sc.gear
        if g.cost <= m.rp and any(c.type == g.id and c.holder is None for c in m.gear)
    ]


def before_move(ctx: Ctx) -> bool:
    """Forming forces and trading gear: at set-up or before the operation's move."""
    if ctx.state.phase == "recruit":
        return True
    m = ctx.m
    return ctx.state.phase == "ops" and m.segment == "recruit" and not m.moved


def destinations(ctx: Ctx, fid: str, march: bool = False) -> list[str]:
    """Spaces ``fid`` may end its road move in, stacking respected (10.2), nearest first."""
    m, sc = ctx.m, ctx.sc
    units = members(m, fid)
    if not units:
        return []
    start = units[0].space
    moving = sum(1 for u in units if not sc.unit_type[u.type].leader)
    found = reach(ctx, fid, 1 if march else 0)
    out = []
    for space, dist in sorted(found.items(), key=lambda kv: kv[1]):
        if space != start and not sc.space_by_id[space].staging and stack_count(sc, m, space) + moving > m.command:
            continue
        out.append(space)
    return out


def special_destinations(ctx: Ctx, fid: str, how: str) -> list[str]:
    """18.1/18.2: airfields or ports a kept card can take ``fid`` to."""
    m, sc = ctx.m, ctx.sc
    flag = "airfield" if how == "air" else "port"
    units = members(m, fid)
    if not units or held_card(ctx, f"{how}_move") is None:
        return []
    start = units[0].space
    assert start is not None
    if not getattr(sc.space_by_id[start], flag):
        return []
    moving = sum(1 for u in units if not sc.unit_type[u.type].leader and sc.unit_type[u.type].movement > 0)
    if not any(sc.unit_type[u.type].movement > 0 for u in units):
        return []
    return [
        s.id for s in sc.spaces
        if getattr(s, flag) and s.id != start
        and (s.staging or stack_count(sc, m, s.id) + moving <= m.command)
    ]


def special_ways(ctx: Ctx, fid: str, to: str) -> list[str]:
    """18.1/18.2: the ``how:`` values (``air``, ``water``) of the kept-card moves that take
    ``fid`` to ``to``, so that an offer or a refusal can name the one that makes it legal."""
    return [how for how in ("air", "water") if to in special_destinations(ctx, fid, how)]


def can_march(ctx: Ctx, fid: str) -> bool:
    """24.0 (1): Supplies in the force, or a kept forced-march card."""
    m, sc = ctx.m, ctx.sc
    if not members(m, fid) or allowance(sc, members(m, fid)) == 0:
        return False
    supply = any(sc.gear_type[gear(m, g).type].effect == "supply" for u in members(m, fid) for g in u.gear)
    return supply or held_card(ctx, "forced_march") is not None


def scout_targets(ctx: Ctx, fid: str) -> list[str]:
    """27.0: spaces next to ``fid`` with a face-down marker (if it has a scout)."""
    m, sc = ctx.m, ctx.sc
    units = members(m, fid)
    if not units or not any(sc.unit_type[u.type].scout for u in units):
        return []
    here = units[0].space
    assert here is not None
    hidden = {mk.space for mk in on_board(m) if not mk.revealed}
    return [s for s in sc.network.neighbours(here) if s in hidden]


def can_scout(ctx: Ctx) -> bool:
    """27.0 is on and this operation has not recruited, scouted or moved."""
    m = ctx.m
    return ctx.state.scouting and ctx.state.phase == "ops" and m.segment == "recruit" and not m.moved \
        and m.segment_action is None


def leader_forces(ctx: Ctx) -> list[str]:
    """Forces with a leader (26.0)."""
    sc, m = ctx.sc, ctx.m
    return [f for f in force_ids(m) if any(sc.unit_type[u.type].leader for u in members(m, f))]


def coordinated_moves(ctx: Ctx) -> list[A.Move]:
    """26.0: groups of two or more leader forces that can all reach a space with a marker or
    a camp, within stacking."""
    if not ctx.state.coordinated:
        return []
    m, sc = ctx.m, ctx.sc
    out: list[A.Move] = []
    targets = {mk.space for mk in on_board(m) if mk.space is not None} | set(m.camps)
    forces = leader_forces(ctx)
    for a in forces:
        for others in companion_groups([f for f in forces if f != a]):
            group = (a, *others)
            common = targets.intersection(*(set(reach(ctx, f)) for f in group))
            for space in sorted(common):
                count = sum(1 for f in group for u in members(m, f) if not sc.unit_type[u.type].leader)
                here = sum(1 for u in on_map(m) if u.space == space and u.force not in group
                           and not sc.unit_type[u.type].leader)
                if sc.space_by_id[space].staging or here + count <= m.command:
                    out.append(A.Move(force=a, to=space, with_force=",".join(others)))
    return out


def companion_groups(forces: list[str]) -> list[tuple[str, ...]]:
    """Every non-empty group of ``forces`` in order (few: one per leader on the map)."""
    return [group for n in range(1, len(forces) + 1) for group in combinations(forces, n)]


def line_orders(ctx: Ctx) -> list[list[str]]:
    """15.1 (3): raider lines to offer, strongest first first; every order for up to 4 units."""
    m, sc = ctx.m, ctx.sc
    b = m.battle
    assert b is not None
    living = alive(b, b.raider_line)
    strongest = sorted(living, key=lambda r: -combat(sc, next(u for u in m.units if u.id == r), m))
    orders = [strongest, list(reversed(strongest)), living]
    if len(strongest) <= 4:
        orders += [list(p) for p in permutations(strongest)]
    out: list[list[str]] = []
    for order in orders:
        if order not in out:
            out.append(order)
    return out[:MAX_CHOICES]


def fit(ids: list[str], sep: str, limit: int = 100) -> str:
    """Join ids within Discord's 100 characters; the rest keep their order behind (15.1)."""
    text = ""
    for uid in ids:
        longer = f"{text}{sep}{uid}" if text else uid
        if len(longer) > limit:
            break
        text = longer
    return text


def can_swap(ctx: Ctx) -> str | None:
    """22.0: what lets the player send the drawn card to the bottom (a guide or a PSYOP card)."""
    m, sc = ctx.m, ctx.sc
    if m.swapped or m.in_play is None or m.force is None:
        return None
    for u in members(m, m.force):
        if sc.unit_type[u.type].guide:
            return u.id
    return held_card(ctx, "psyop")


def supply_offer(ctx: Ctx) -> str | None:
    """24.0 (3): a Supplies gear of the operating force the drawn card pays a bonus for."""
    m, sc = ctx.m, ctx.sc
    if m.in_play is None or m.force is None or not sc.card[m.in_play].supply_ops:
        return None
    for u in members(m, m.force):
        for gid in u.gear:
            if sc.gear_type[gear(m, gid).type].effect == "supply":
                return gid
    return None


def objective_options(ctx: Ctx) -> list[tuple[str, str, str]]:
    """What the player may still do this Objective segment: (order, unit, marker)."""
    m, sc = ctx.m, ctx.sc
    if m.force is None:
        return []
    out: list[tuple[str, str, str]] = []
    units = members(m, m.force)
    for mk in on_board(m):
        if not mk.revealed or mk.type is None or not units or mk.space != units[0].space:
            continue
        kind = sc.marker_type[mk.type].kind
        for u in units:
            spec = sc.unit_type[u.type]
            if kind == "target" and spec.pioneer and u.id not in m.demolished_by:
                out.append(("demolish", u.id, mk.id))
            if kind == "cargo" and spec.movement > 0 and u.carrying is None:
                out.append(("carry", u.id, mk.id))
    return out
