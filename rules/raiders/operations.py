"""One operation (11.0) in its five segments: recruit/scout, move, Ops card, combat, objective.

Each order the player gives runs the operation on until the next decision of the player:
after a move the bot draws the card (13.0), picks and fights the hostiles (15.0) as far as the
rules let it, turns markers (19.0) and ends the operation when nothing is left to decide.
"""

from __future__ import annotations

from typing import Literal

from rules.core.errors import RuleError
from rules.core.orders import order
from rules.raiders import actions as A
from rules.raiders import battle, campaign, objectives, offers
from rules.raiders.cards import KEEP_WORDS, discard_in_play, draw, gain_ops, held_card, ops_left, resolve, swap
from rules.raiders.forces import (
    Ctx,
    allowance,
    force,
    gear,
    members,
    new_force,
    on_map,
    stack_count,
    unit,
)
from rules.raiders.hints import can_swap, objective_options, special_ways, supply_offer
from rules.raiders.movement import reach, steps, stops
from rules.raiders.objectives import deliver, ends_early, on_board, reveal
from rules.raiders.phases import CARD, FIRE, LINE_UP, OBJECTIVE, OP_START
from rules.raiders.scenario import OpsCard
from rules.raiders.state import Unit
from rules.raiders.texts import ops_card_lines

def why_not(ctx: Ctx, force_id: str, to: str, extra: int = 0) -> str:
    """The one rule that keeps ``force_id`` from ending its move in ``to`` (4.0, 12.0).

    Too far, or within reach but only past a space that halts the move (STOP terrain or an
    objective marker, 12.0): the sentence names that space and why it halts the force.
    """
    sc, m = ctx.sc, ctx.m
    start = members(m, force_id)[0].space
    assert start is not None
    n = steps(ctx, force_id, extra)
    name = sc.space_by_id[to].name
    if n == 0:
        static = [u.id for u in members(m, force_id) if sc.unit_type[u.type].movement == 0]
        rest = "" if len(static) == len(members(m, force_id)) else (
            f" 'split unit:{static[0]}' leaves it behind.")
        return f"{force_id} has a static unit (movement 0): it does not move (4.0, 12.0).{rest}"
    free = sc.network.reachable(start, n)
    if to not in free:
        return f"{name} is more than {n} spaces away; {force_id} moves {n} (12.0)."
    # Spaces that halt the force on some way of n spaces or fewer to ``to``.
    halted = [s for s, d in sc.network.reachable(start, n, stops=stops(ctx)).items()
              if s not in (start, to) and s in stops(ctx)
              and sc.network.reachable(s, n - d).get(to) is not None]
    marked = {mk.space for mk in on_board(m)}
    why = [f"{sc.space_by_id[s].name} ("
           + ("objective marker" if s in marked else f"{sc.terrain_by_key[sc.space_by_id[s].terrain].name}: STOP")
           + ")" for s in halted]
    return f"{force_id} must stop at {' or '.join(why)} on the way to {name} (12.0)."


#: 18.1, 18.2: the space flag each kept-card move needs at both ends, its words and its rule.
SPECIAL_FLAG = {"air": "airfield", "water": "port"}
SPECIAL_WORDS = {"air": "airfield", "water": "port or coastal space"}
SPECIAL_RULE = {"air": "18.1", "water": "18.2"}
SPECIAL_NAME = {"air": "An air move", "water": "A water move"}


def use_card(ctx: Ctx, cid: str, event: str) -> None:
    """13.1: play one special event of a kept card, then discard it."""
    ctx.m.hand.remove(cid)
    ctx.m.discards.append(cid)
    ctx.say("card", f"{cid} {ctx.sc.card[cid].title} played (13.1): {KEEP_WORDS.get(event, event)}", "13.1")


def check_can_move(ctx: Ctx) -> None:
    """Moves happen in an operation's first two segments, once."""
    m = ctx.m
    if ctx.state.phase != "ops" or m.segment != "recruit" or m.moved:
        raise RuleError("A force moves at the start of an operation, after any recruiting or scouting (11.0).")


@order(A.Move, phases=OP_START, offers=offers.move)
def move(ctx: Ctx, a: A.Move) -> None:
    """12.0 / 18.0 / 24.0 (1) / 26.0: move the operating force, then play the operation on."""
    m, sc = ctx.m, ctx.sc
    check_can_move(ctx)
    units = force(m, a.force)
    fid = units[0].force
    assert fid is not None
    if m.force is not None and m.force != fid:
        raise RuleError(f"{m.force} scouted this operation, so {m.force} is the force that moves (11.0).")
    to = sc.find_space(a.to)
    if to is None:
        raise RuleError(f"There is no space '{a.to[:30]}'; spaces: "
                        f"{', '.join(s.id for s in sc.spaces)} (a name works too).")
    start = units[0].space
    assert start is not None
    if a.how == "road":
        path, mover_ids = road_move(ctx, units, to, a.march)
    else:
        path, mover_ids = special_move(ctx, units, to, a.how)
    companions: list[str] = []
    for other in companion_forces(a.with_force):
        companions += coordinate(ctx, fid, other, to)
    if len(set(companions)) != len(companions):
        raise RuleError("Name each force to move with once (26.0).")
    end_move(ctx, units, to, mover_ids, companions)
    m.force = fid
    m.moved = True
    m.last_move = path
    m.moved_into_staging = to != start and sc.space_by_id[to].staging
    by = "" if a.how == "road" else f" by {a.how}"
    ctx.say("move", f"{fid}{by} → {sc.space_by_id[to].name} (12.0)", "12.0", path=path)
    if len(path) > 2:
        ctx.say("move", "via " + ", ".join(sc.space_by_id[s].name for s in path[1:-1]), "12.0")
    deliver(ctx)
    card_segment(ctx)


def road_move(ctx: Ctx, units: list[Unit], to: str, march: bool) -> tuple[list[str], list[str]]:
    """12.0, 24.0 (1): the way the force of ``units`` goes by road or track to ``to`` and the
    units that go (all of them); a forced march spends its Supplies or card only if the extra
    space is used."""
    m, sc = ctx.m, ctx.sc
    fid, start = units[0].force, units[0].space
    assert fid is not None and start is not None
    supply, card = march_means(ctx, units) if march else ([], None)
    extra = 1 if march else 0
    spaces = reach(ctx, fid, extra)
    if to not in spaces:
        options = ", ".join(s for s in spaces if s != start) or "none"
        raise RuleError(f"{why_not(ctx, fid, to, extra)} It can reach: {options}.{special_hint(ctx, fid, to)}")
    found = sc.network.path(start, to, stops=stops(ctx))
    path = found if found is not None else [start]
    if march and len(path) - 1 > allowance(sc, units):
        if supply:
            g = gear(m, supply[0])
            unit(m, g.holder or "").gear.remove(g.id)
            g.holder = None
            ctx.say("supply", f"{g.id} expended: forced march, +1 space (24.0)", "24.0")
        elif card is not None:
            use_card(ctx, card, "forced march")
    elif march:
        ctx.say("supply", "No march needed: nothing spent (24.0 (1))", "24.0")
    return path, [u.id for u in units]


def special_hint(ctx: Ctx, fid: str, to: str) -> str:
    """`` how:water (18.2) takes it there with kept card C9.``: the kept-card move that would
    make a refused road move legal, if there is one (18.1, 18.2); else nothing."""
    ways = special_ways(ctx, fid, to)
    if not ways:
        return ""
    how = ways[0]
    card = held_card(ctx, f"{how}_move")
    return f" how:{how} ({SPECIAL_RULE[how]}) takes it there with kept card {card}."


def march_means(ctx: Ctx, units: list[Unit]) -> tuple[list[str], str | None]:
    """24.0 (1): the Supplies gear of the force of ``units`` and the kept forced-march card
    that pay for a forced march; a RuleError when there is neither."""
    m, sc = ctx.m, ctx.sc
    supply = [g for u in units for g in u.gear if sc.gear_type[gear(m, g).type].effect == "supply"]
    card = held_card(ctx, "forced_march")
    if not supply and card is None:
        raise RuleError(f"{units[0].force} has no Supplies gear (or kept card) for a forced march (24.0).")
    return supply, card


def special_move(ctx: Ctx, units: list[Unit], to: str, how: str) -> tuple[list[str], list[str]]:
    """18.1, 18.2: an air or water move on a kept card, from one airfield (port) to another:
    the way and the units that go (the mobile ones); the card is played."""
    sc = ctx.sc
    fid, start = units[0].force, units[0].space
    assert start is not None
    flag, rule = SPECIAL_FLAG[how], SPECIAL_RULE[how]
    card = held_card(ctx, f"{how}_move")
    if card is None:
        raise RuleError(f"{SPECIAL_NAME[how]} needs a kept card with the {how}_move event (13.1, {rule}); "
                        f"kept cards: {', '.join(ctx.m.hand) or 'none'}.")
    ends = [s.id for s in sc.spaces if getattr(s, flag)]
    if not getattr(sc.space_by_id[start], flag) or not getattr(sc.space_by_id[to], flag) or to == start:
        raise RuleError(f"{SPECIAL_NAME[how]} goes from one {SPECIAL_WORDS[how]} to another ({rule}): "
                        f"{fid} is at {sc.space_by_id[start].name}; {SPECIAL_WORDS[how]}s: {', '.join(ends)}.")
    # 18.1/18.2: only mobile units go; a static unit stays behind in a force of its own.
    mover_ids = [u.id for u in units if sc.unit_type[u.type].movement > 0]
    if not mover_ids:
        raise RuleError(f"{fid} has no mobile unit to {'fly' if how == 'air' else 'ship'} ({rule}).")
    use_card(ctx, card, f"{how} move")
    return [start, to], mover_ids


def end_move(ctx: Ctx, units: list[Unit], to: str, mover_ids: list[str], companions: list[str]) -> None:
    """10.2: the movers of ``units`` and their companions (26.0) end in ``to``, those left
    behind form a force of their own; stacking is checked at the end of the move (Staging
    Areas hold any number), and a move that breaks it is undone and refused."""
    m, sc = ctx.m, ctx.sc
    fid = units[0].force
    before = {u.id: (u.space, u.force) for u in m.units}
    stay_force = new_force(m) if len(mover_ids) < len(units) else None
    for u in units:
        if u.id in mover_ids:
            u.space = to
        else:
            u.force = stay_force
    for cid in companions:
        unit(m, cid).space = to
        unit(m, cid).force = fid
    would_hold = stack_count(sc, m, to)
    if not sc.space_by_id[to].staging and would_hold > m.command:
        for u in m.units:
            u.space, u.force = before[u.id]
        raise RuleError(
            f"{sc.space_by_id[to].name} would hold {would_hold} raiders; the command "
            f"limit is {m.command} outside Staging Areas (10.2)."
        )


def companion_forces(with_force: str | None) -> list[str]:
    """26.0: ``F2`` or ``F2,F3``: the forces named to move with the operating one."""
    return [part.strip().upper() for part in (with_force or "").split(",") if part.strip()]


def coordinate(ctx: Ctx, fid: str, other_id: str, to: str) -> list[str]:
    """26.0: another force with a leader joins the move into a space with a marker or camp;
    its units, which then belong to the operating force (one card for all)."""
    m, sc = ctx.m, ctx.sc
    if not ctx.state.coordinated:
        raise RuleError("Coordinated operations (26.0) are an option this game was not started with.")
    other = force(m, other_id)
    oid = other[0].force
    if oid == fid:
        raise RuleError("Name other forces than the one that operates to move with it (26.0).")
    leaders = [any(sc.unit_type[u.type].leader for u in f) for f in (members(m, fid), other)]
    if not all(leaders):
        raise RuleError("In a coordinated operation each moving force includes a leader (26.0).")
    if not any(mk.space == to for mk in on_board(m)) and to not in m.camps:
        raise RuleError("Coordinated forces must end in a space with an objective marker or camp (26.0).")
    assert oid is not None
    if to not in reach(ctx, oid):
        raise RuleError(f"{oid} cannot reach {to} this Op (26.0, 12.0).")
    ctx.say("coordinated", f"{oid} moves with {fid}: one card for both (26.0)", "26.0")
    return [u.id for u in other]


def card_segment(ctx: Ctx) -> None:
    """13.0: pick an Ops card, unless the force just moved into a Staging Area."""
    m = ctx.m
    m.segment = "card"
    if m.moved_into_staging:
        ctx.say("card", "Into a Staging Area: no Ops card, no Op spent (13.0, 11.0)", "13.0")
        objective_segment(ctx)
        return
    if not m.deck:
        # Only possible when the deck ran out mid-operation; nothing left to draw.
        if not combat_segment(ctx, None, ""):
            objective_segment(ctx)
        return
    draw(ctx)
    if can_swap(ctx) is None and supply_offer(ctx) is None:
        play(ctx)
    else:
        show_drawn(ctx)


def show_drawn(ctx: Ctx) -> None:
    """22.0, 24.0 (3): the player decides on the drawn card, so it is shown whole."""
    m = ctx.m
    assert m.in_play is not None
    for line in ops_card_lines(ctx.sc, ctx.sc.card[m.in_play])[1:]:
        ctx.say("card", line, "13.0")
    choices, rules = ["accept"], []
    if supply_offer(ctx) is not None:
        choices.append("accept supply:true")
        rules.append("24.0 (3)")
    if can_swap(ctx) is not None:
        choices.append("swap")
        rules.append("22.0")
    # Only the rules that offer a choice here are cited.
    ctx.say("card", f"Now: {' or '.join(choices)} ({', '.join(rules)})", rules[0])


def choose_card(ctx: Ctx, swap_it: bool, supply: bool = False) -> None:
    """22.0: play the drawn card (24.0 (3): with Supplies for its bonus) or swap it."""
    m = ctx.m
    if m.segment != "card" or m.in_play is None:
        raise RuleError("There is no drawn Ops card waiting to be played.")
    if swap_it:
        means = can_swap(ctx)
        if means is None:
            raise RuleError("Only a force with a guide, or a kept PSYOP card, may swap a card, once (22.0).")
        if means in m.hand:
            use_card(ctx, means, "psyop")
            swap(ctx, f"PSYOP {means}")
        else:
            swap(ctx, f"Guide {means}")
        if supply_offer(ctx) is not None:
            show_drawn(ctx)
            return  # the substitute pays a Supplies bonus: the player decides again
    elif supply:
        gid = supply_offer(ctx)
        if gid is None:
            raise RuleError("This card pays nothing for Supplies, or the force has none (24.0).")
        g = gear(m, gid)
        unit(m, g.holder or "").gear.remove(gid)
        g.holder = None
        card = ctx.sc.card[m.in_play]
        ctx.say("supply", f"{gid} expended for {card.id} (24.0)", "24.0")
        gain_ops(ctx, card.supply_ops, f"{card.id} supplies")
    play(ctx)


def play(ctx: Ctx) -> None:
    """13.0: carry out the card, then the combat segment (15.0)."""
    m = ctx.m
    assert m.in_play is not None
    card: OpsCard = ctx.sc.card[m.in_play]
    count = resolve(ctx, card)
    if not combat_segment(ctx, count, card.title):
        objective_segment(ctx)


def combat_segment(ctx: Ctx, count: int | str | None, why: str) -> bool:
    """11.0 (4): fight the hostiles the card called up and any camp where the force stands
    (8.0 (1)), in one battle; True while that battle waits on the player."""
    m = ctx.m
    if m.force is None or not members(m, m.force):
        return False
    space = members(m, m.force)[0].space
    assert space is not None
    camp = list(m.camps.get(space, []))
    if count is None and not camp:
        return False
    return fight(ctx, space, count or 0, why, "card" if count is not None else "camp", camp)


def fight(ctx: Ctx, space: str, count: int | str, why: str,
          source: Literal["card", "marker", "camp"], already: list[str] | None = None) -> bool:
    """15.1 (1): pick the hostiles (joining any ``already`` on the map) and open the battle;
    True while it waits on the player."""
    picked = list(already or []) + battle.pick_hostiles(ctx, count, why)
    if not picked:
        return False
    ctx.m.segment = "battle"
    battle.start(ctx, space, picked, source)
    return ctx.m.battle is not None


def after_battle(ctx: Ctx) -> None:
    """Go on once a battle ended: to the objective segment, or back into it (11.0)."""
    m = ctx.m
    if m.battle is not None:
        return
    if not on_map(m):
        end_op(ctx)
        return
    source = m.last_battle.source if m.last_battle else "card"
    if source in ("card", "camp"):
        objective_segment(ctx)
    else:
        m.segment = "objective"
        objective_actions(ctx)


def objective_segment(ctx: Ctx) -> None:
    """11.0 (5): turn a face-down marker where the force ended, then the objective actions."""
    m = ctx.m
    m.segment = "objective"
    if m.force is None or not members(m, m.force):
        end_op(ctx)
        return
    space = members(m, m.force)[0].space
    for mk in on_board(m):
        if mk.space == space and not mk.revealed:
            reveal(ctx, mk, "19.0")
    objective_actions(ctx)


def objective_actions(ctx: Ctx) -> None:
    """Fight a revealed marker's garrison, then wait for demolition/pick-up or end the Op."""
    m, sc = ctx.m, ctx.sc
    if m.force is None or not members(m, m.force):
        end_op(ctx)
        return
    space = members(m, m.force)[0].space
    assert space is not None
    for mk in on_board(m):
        if mk.space == space and mk.revealed and not mk.garrison_faced and mk.type is not None:
            mk.garrison_faced = True
            garrison = sc.marker_type[mk.type].garrison
            if garrison == 0:
                continue
            if fight(ctx, space, garrison, sc.marker_type[mk.type].name, "marker"):
                return
            if m.segment == "battle":
                # The battle ended before the player had anything to decide.
                after_battle(ctx)
                return
    options = objective_options(ctx)
    if not options:
        end_op(ctx)
        return
    # The segment waits for the player: say what it may do, as a battle says 'line'.
    ctx.say("prompt", "Objective segment (11.0 (5)), e.g.", "11.0")
    explosives = any(sc.gear_type[gear(m, g).type].effect == "explosives"
                     for u in members(m, m.force) for g in u.gear)
    for kind, uid, mid in options[:3]:
        extra = " explosives:yes" if kind == "demolish" and explosives else ""
        ctx.say("prompt", f"{kind} unit:{uid} marker:{mid}{extra}", "11.0")
    ctx.say("prompt", "or 'end-op' to end the operation", "11.0")


def end_op(ctx: Ctx) -> None:
    """11.0 end of the operation; 10.1/11.2: the mission ends after the last card or raider."""
    m = ctx.m
    discard_in_play(m)
    ctx.snapshot = True
    ctx.say("op", f"Operation {m.op} over · {ops_left(len(m.deck))} (11.0)", "11.0")
    if not on_map(m):
        ctx.say("mission", "All raiders gone: mission over (10.1)", "10.1")
        campaign.end_mission(ctx)
        return
    if m.end_after_op or not m.deck:
        ctx.say("mission", "Last Ops card played: mission over (11.2)", "11.2")
        campaign.end_mission(ctx)
        return
    m.op += 1
    m.segment = "recruit"
    m.segment_action = None
    m.force = None
    m.moved = m.moved_into_staging = m.swapped = False
    m.demolished_by = []
    if ends_early(ctx):
        ctx.say("mission", "Objective met: /raiders end-mission ends it now (11.1)", "11.1")


# -- the orders of an operation's segments (11.0): each runs the operation on -----------------


@order(A.Scout, phases=OP_START, offers=offers.scout)
def scout(ctx: Ctx, a: A.Scout) -> None:
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


@order(A.Swap, phases=CARD, offers=offers.swap)
def swap_card(ctx: Ctx, a: A.Swap) -> None:
    """22.0: the drawn card to the bottom, a substitute drawn."""
    choose_card(ctx, True)


@order(A.Accept, phases=CARD, offers=offers.accept)
def accept_card(ctx: Ctx, a: A.Accept) -> None:
    """13.0, 24.0 (3): play the drawn card."""
    choose_card(ctx, False, a.supply)


@order(A.Line, phases=(LINE_UP, FIRE), offers=offers.line)
def line(ctx: Ctx, a: A.Line) -> None:
    """15.1 (3)-(4), 24.0 (2): the raider line (it stands until changed), firepower."""
    battle.set_line(ctx, a.order.replace(",", " ").split(), a.hostiles.replace(",", " ").split(),
                    a.firepower)
    after_battle(ctx)


@order(A.Fire, phases=FIRE, offers=offers.fire)
def fire(ctx: Ctx, a: A.Fire) -> None:
    """15.1 (3): the next raider fires (each firepower die at its own target)."""
    battle.raider_fire(ctx, a.target, a.firepower)
    after_battle(ctx)


@order(A.Demolish, phases=OBJECTIVE, offers=offers.demolish)
def demolish(ctx: Ctx, a: A.Demolish) -> None:
    """21.1: one pioneer's demolition roll."""
    objectives.demolish(ctx, a.unit, a.marker, a.explosives)
    objective_done(ctx)


@order(A.Carry, phases=OBJECTIVE, offers=offers.carry)
def carry(ctx: Ctx, a: A.Carry) -> None:
    """18.4: pick up revealed cargo."""
    objectives.carry(ctx, a.unit, a.marker)
    objective_done(ctx)


def objective_done(ctx: Ctx) -> None:
    """11.0 (5): the operation ends once nothing is left to do in its Objective segment."""
    if ctx.m.battle is None and ctx.state.phase == "ops" and not objective_options(ctx):
        end_op(ctx)


@order(A.Drop, phases=(OP_START, OBJECTIVE), offers=offers.drop)
def drop(ctx: Ctx, a: A.Drop) -> None:
    """18.4: set cargo down."""
    objectives.drop(ctx, a.unit)


@order(A.EndOp, phases=OBJECTIVE, offers=offers.end_op)
def end_objective_segment(ctx: Ctx, a: A.EndOp) -> None:
    """11.0: the Objective segment ends."""
    end_op(ctx)
