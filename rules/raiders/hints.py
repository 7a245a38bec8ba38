"""What the raider player can do now: autocomplete choices and the list of legal orders.

Both come from the same candidate generators, so what autocomplete offers is what the rules
accept.  Lists are short and best first (Discord shows 25 suggestions at most).
"""

from __future__ import annotations

from itertools import combinations, permutations
from typing import Any

from rules.core.contract import Action, Choice
from rules.raiders import actions as A
from rules.raiders.battle import alive, firepower_open, needs_player
from rules.raiders.forces import Ctx, allowance, combat, force_ids, gear, gear_capacity, label, members, on_map, stack_count
from rules.raiders.objectives import objective_met, on_board
from rules.raiders.operations import can_swap, held_card, objective_options, reach, supply_offer

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
        if any(u.type == spec.id and u.space is None and not u.eliminated for u in m.units):
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
    targets = {mk.space for mk in on_board(m)} | set(m.camps)
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


def legal(ctx: Ctx) -> list[Action]:
    """The orders the raider player may give now (a complete-enough list for drivers)."""
    state = ctx.state
    if state.phase == "between":
        return [A.NextMission()]
    if state.mission is None or state.phase not in ("recruit", "ops"):
        return []
    m, sc = ctx.m, ctx.sc
    out: list[Action] = []
    if state.phase == "ops" and m.segment == "card":
        out = [A.Accept()]
        if supply_offer(ctx) is not None:
            out.append(A.Accept(supply=True))
        if can_swap(ctx) is not None:
            out.append(A.Swap())
        return out
    if state.phase == "ops" and m.segment == "battle" and m.battle is not None:
        b = m.battle
        if not b.lined:
            return [A.Line(order=fit(order, " ")) for order in line_orders(ctx)[:2]]
        if needs_player(ctx):
            out = [A.Fire(target=h) for h in alive(b, b.hostile_line)]
            if firepower_open(ctx):
                out.append(A.Fire(target=alive(b, b.hostile_line)[0], firepower=True))
        return out
    if state.phase == "ops" and m.segment == "objective":
        for order, uid, mid in objective_options(ctx):
            if order == "demolish":
                out.append(A.Demolish(unit=uid, marker=mid))
                held = [g for u in members(m, m.force or "") for g in u.gear
                        if sc.gear_type[gear(m, g).type].effect == "explosives"]
                if held:
                    out.append(A.Demolish(unit=uid, marker=mid, explosives=True))
            else:
                out.append(A.Carry(unit=uid, marker=mid))
        out += [A.Drop(unit=u.id) for u in members(m, m.force or "") if u.carrying]
        return out + [A.EndOp()]
    if can_recruit(ctx):
        for what in recruitable(ctx):
            out += [A.Recruit(unit=what, at=where) for where in staging(ctx)]
        buyers = gear_buyers(ctx)
        if buyers:
            for item in affordable_gear(ctx):
                out.append(A.BuyGear(item=item, unit=buyers[0]))
    if before_move(ctx):
        for u in on_map(m):
            if u.force and len(members(m, u.force)) > 1:
                out.append(A.Split(unit=u.id))
                break
        forces = force_ids(m)
        for f in forces:
            for g in forces:
                if f != g and members(m, f)[0].space == members(m, g)[0].space:
                    out.append(A.Join(force=f, into=g))
        for u in on_map(m):
            for gid in u.gear:
                mates = [x for x in members(m, u.force or "") if x.id != u.id and len(x.gear) < gear_capacity(sc, x)]
                if mates:
                    out.append(A.Trade(gear=gid, to=mates[0].id))
                out.append(A.Abandon(gear=gid))
    if state.phase == "recruit":
        if on_map(m) or state.campaign.leaders:
            out.append(A.Begin())
        return out
    if m.segment == "recruit" and not m.moved:
        forces = [m.force] if m.force else force_ids(m)
        for f in forces:
            for space in destinations(ctx, f):
                out.append(A.Move(force=f, to=space))
            if can_march(ctx, f):
                plain = set(destinations(ctx, f))
                out += [A.Move(force=f, to=s, march=True) for s in destinations(ctx, f, True) if s not in plain]
            for how in ("air", "water"):
                out += [A.Move(force=f, to=s, how=how) for s in special_destinations(ctx, f, how)]
        if not m.force:
            out += coordinated_moves(ctx)
        if can_scout(ctx):
            for f in force_ids(m):
                out += [A.Scout(force=f, target=t) for t in scout_targets(ctx, f)]
        for cid in m.hand:
            for event in sc.card[cid].keep:
                if event in ("gain_op", "gain_rp", "calm"):
                    out.append(A.PlayCard(card=cid, event=event))
        if objective_met(ctx):
            out.append(A.EndMission())
        out += [A.Drop(unit=u.id) for u in on_map(m) if u.carrying]
    return out


def line_orders(ctx: Ctx) -> list[list[str]]:
    """15.1 (3): raider lines to offer, strongest first first; every order for up to 4 units."""
    m, sc = ctx.m, ctx.sc
    b = m.battle
    assert b is not None
    strongest = sorted(b.raider_line, key=lambda r: -combat(sc, next(u for u in m.units if u.id == r), m))
    orders = [strongest, list(reversed(strongest)), b.raider_line]
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


def _filter(options: list[Choice], typed: Any) -> list[Choice]:
    if isinstance(typed, str) and typed:
        low = typed.lower()
        options = [c for c in options if low in c.value.lower() or low in c.label.lower()]
    return options[:MAX_CHOICES]


def choices_for(ctx: Ctx, action: str, field: str, partial: dict[str, Any]) -> list[Choice]:
    """Autocomplete for ``field`` of ``action``; empty when nothing fits now."""
    state = ctx.state
    if state.mission is None or state.phase not in ("recruit", "ops"):
        return []
    m, sc = ctx.m, ctx.sc
    typed = partial.get(field)
    out: list[Choice] = []

    def unit_choice(uid: str) -> Choice:
        u = next(x for x in m.units if x.id == uid)
        spec = sc.unit_type[u.type]
        where = sc.space_by_id[u.space].name if u.space else "box"
        return Choice(value=uid, label=f"{uid} {spec.name} (c{spec.combat} m{spec.movement}, {where})")

    def space_choice(sid: str) -> Choice:
        return Choice(value=sid, label=f"{sc.space_by_id[sid].name} ({sid})")

    def force_choice(fid: str) -> Choice:
        return Choice(value=fid, label=label(sc, m, fid))

    if action == "recruit" and field == "unit":
        for what in recruitable(ctx):
            spec = sc.unit_type.get(what)
            text = f"{spec.name}: {spec.cost} RP, c{spec.combat} m{spec.movement}" if spec else f"{what}: kept leader, free"
            out.append(Choice(value=what, label=text))
    elif action == "recruit" and field == "at":
        out = [space_choice(s) for s in staging(ctx)]
    elif action == "gear" and field == "item":
        out = [Choice(value=g, label=f"{sc.gear_type[g].name}: {sc.gear_type[g].cost} RP") for g in affordable_gear(ctx)]
    elif action == "gear" and field == "unit":
        out = [unit_choice(u) for u in gear_buyers(ctx)]
    elif action in ("trade", "abandon") and field == "gear":
        out = [Choice(value=g.id, label=f"{g.id} {sc.gear_type[g.type].name} ({g.holder})") for g in m.gear if g.holder]
    elif action == "trade" and field == "to":
        holder = next((g.holder for g in m.gear if g.id.lower() == str(partial.get("gear", "")).lower()), None)
        team = next((u.force for u in m.units if u.id == holder), None)
        out = [unit_choice(u.id) for u in on_map(m) if u.force == team and u.id != holder
               and len(u.gear) < gear_capacity(sc, u)]
    elif action == "split" and field == "unit":
        out = [unit_choice(u.id) for u in on_map(m) if u.force and len(members(m, u.force)) > 1]
    elif action == "join" and field in ("force", "into"):
        out = [force_choice(f) for f in force_ids(m)]
    elif action == "scout" and field == "force":
        out = [force_choice(f) for f in force_ids(m) if scout_targets(ctx, f)]
    elif action == "scout" and field == "target":
        fid = str(partial.get("force", "")).upper()
        out = [space_choice(s) for s in (scout_targets(ctx, fid) if fid in force_ids(m) else [])]
    elif action == "move" and field in ("force", "with_force"):
        forces = [m.force] if m.force and field == "force" else force_ids(m)
        if field == "with_force":
            others = [f for f in leader_forces(ctx) if f != str(partial.get("force", "")).upper()]
            out = [Choice(value=",".join(g), label=" + ".join(label(sc, m, f) for f in g)[:100])
                   for g in companion_groups(others)[:25]]
        else:
            out = [force_choice(f) for f in forces]
    elif action == "move" and field == "to":
        fid = str(partial.get("force", "")).upper()
        if fid in force_ids(m):
            how = str(partial.get("how", "road"))
            spaces = special_destinations(ctx, fid, how) if how in ("air", "water") else \
                destinations(ctx, fid, bool(partial.get("march")))
            out = [space_choice(s) for s in spaces]
    elif action == "line" and field == "order" and m.battle is not None:
        out = [Choice(value=fit(order, " "), label=fit(order, " › ")) for order in line_orders(ctx)]
    elif action == "fire" and field == "target" and m.battle is not None:
        out = [
            Choice(value=h, label=f"{h} {sc.hostile[h].name} (combat {sc.hostile[h].combat})")
            for h in alive(m.battle, m.battle.hostile_line)
        ]
    elif action == "drop" and field == "unit":
        out = [unit_choice(u.id) for u in on_map(m) if u.carrying]
    elif action in ("demolish", "carry") and field in ("unit", "marker"):
        seen: set[str] = set()
        for order, uid, mid in objective_options(ctx):
            value = uid if field == "unit" else mid
            if order == action and value not in seen:
                seen.add(value)
                out.append(unit_choice(uid) if field == "unit" else Choice(value=mid, label=mid))
    elif action == "play" and field == "card":
        out = [Choice(value=c, label=f"{c} {sc.card[c].title}: {', '.join(sc.card[c].keep)}") for c in m.hand]
    return _filter(out, typed)
