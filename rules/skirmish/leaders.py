"""Platoon Leaders and Company Commanders (Leaders).

"Infantry PLs may improve the performance of one Team in their Unit, once per Initiative. They
may command a Team to move an additional 4", as to end their Move within 2" of the PL. They may
direct a Team's fire, rerolling missed To Hit dice from a Team within 2" of the PL. They may
also move suppression from a Team within 2" of the PL to another Team in the Unit."
"Company Commanders (CCs) also have these abilities. In addition, once per Initiative, they may
allow a Unit to reroll a single Training Check. ... Once per Initiative, the CC may appoint a
Team within 2" to be the new PL of that Unit whose PL has been killed."

Readings: a PL helps teams of its own unit; the CC helps a team of any friendly unit within 2"
of it.  Each leader does one of these once per Initiative.
"""

from __future__ import annotations

from collections.abc import Iterator

from rules.core import table
from rules.core.contract import Event
from rules.core.errors import RuleError
from rules.core.orders import Ctx, order
from rules.skirmish import morale
from rules.skirmish.orders import Appoint, Shift
from rules.skirmish.state import SkirmishState, TeamState

RULE = "Leaders"
EXTRA_MOVE = 4.0
NEAR = 2.0
#: A leader helps in his own side's Initiative, between activations or during one.
OWN_INITIATIVE = ("activate", "orders")


def near(state: SkirmishState, leader: TeamState, team: TeamState) -> bool:
    """Within 2" of the leader (centre to centre, less the two base radii)."""
    gap = table.distance(leader.pos, team.pos) - 2 * state.table.base_radius
    return not table.beyond(max(0.0, gap), NEAR)


def check_leader(state: SkirmishState, leader: TeamState, team: TeamState, *, close: bool = True) -> None:
    """Refuse unless ``leader`` may help ``team`` now (once per Initiative, 2", its unit)."""
    if not leader.alive or leader.role not in ("pl", "cc"):
        raise RuleError(f"{leader.id} is not a PL or CC on the table ({RULE}).")
    if leader.role == "pl" and leader.kind != "infantry":
        raise RuleError(f"Only Infantry PLs have these abilities; {leader.id} is a {leader.kind} ({RULE}).")
    if leader.id in state.leader_used:
        raise RuleError(f"{leader.id} has already helped a team this Initiative ({RULE}).")
    if leader.role == "pl" and leader.unit != team.unit:
        raise RuleError(f"{leader.id} leads {leader.unit}; {team.id} is not in it ({RULE}).")
    if state.unit_of(leader).side != state.unit_of(team).side:
        raise RuleError(f"{team.id} is not on {leader.id}'s side ({RULE}).")
    if close and not near(state, leader, team):
        raise RuleError(f"{team.id} is not within 2\" of {leader.id} ({RULE}).")


def extra_move_ok(state: SkirmishState, leader: TeamState, end: table.Point) -> bool:
    """The extra 4" must end "within 2" of the PL"."""
    gap = table.distance(leader.pos, end) - 2 * state.table.base_radius
    return not table.beyond(max(0.0, gap), NEAR)


def shift_suppression(state: SkirmishState, leader: TeamState, source: TeamState, dest: TeamState) -> Event:
    """Move one suppression marker from a team within 2" to another team of its unit."""
    check_leader(state, leader, source)
    if source.suppression < 1:
        raise RuleError(f"{source.id} has no suppression marker to move ({RULE}).")
    if dest.unit != source.unit or not dest.alive or dest.id == source.id:
        raise RuleError(f"{dest.id} is not another team of {source.unit} ({RULE}).")
    source.suppression -= 1
    dest.suppression += 1
    state.leader_used.append(leader.id)
    return Event(kind="leader", rule=RULE,
                 text=f"{leader.id} moves a suppression marker from {source.id} to {dest.id} ({RULE})")


def appoint(state: SkirmishState, cc: TeamState, team: TeamState) -> Event:
    """The CC makes a team within 2" the new PL of its unit, whose PL is dead."""
    if cc.role != "cc":
        raise RuleError(f"Only the Company Commander appoints a new PL ({RULE}).")
    unit = state.unit_of(team)
    if unit.pl is not None:
        raise RuleError(f"{unit.id} still has its PL, {unit.pl.id} ({RULE}).")
    if cc.id in state.leader_used:
        raise RuleError(f"{cc.id} has already acted this Initiative ({RULE}).")
    if not near(state, cc, team):
        raise RuleError(f"{team.id} is not within 2\" of {cc.id} ({RULE}).")
    team.role = "pl"
    state.leader_used.append(cc.id)
    return Event(kind="leader", rule=RULE, text=f"{cc.id} appoints {team.id} the new PL of {unit.id} ({RULE})")


def leader_for(state: SkirmishState, side: str, team: TeamState) -> TeamState | None:
    """The leader of ``side`` who may help ``team`` now: its unit's PL, else the CC."""
    unit = state.unit_of(team)
    for leader in (unit.pl, morale.commander(state, side)):
        if leader is None:
            continue
        try:
            check_leader(state, leader, team)
        except RuleError:
            continue
        return leader
    return None


def shift_offers(state: SkirmishState, side: str) -> Iterator[Shift]:
    """Suppression a leader within 2" may move to another team of the unit."""
    if state.initiative != side or state.pending:
        return
    for team in state.teams(side):
        if team.suppression and leader_for(state, side, team):
            for dest in state.unit_of(team).alive_teams:
                if dest.id != team.id:
                    yield Shift(source=team.id, to=dest.id)
                    break


@order(Shift, phases=OWN_INITIATIVE, offers=shift_offers)
def shift(ctx: Ctx[SkirmishState], order: Shift) -> None:
    """Leaders: a PL or CC moves a suppression marker to another team of the unit."""
    state = ctx.state
    source, dest = state.team(order.source), state.team(order.to)
    if state.unit_of(source).side != ctx.side:
        raise RuleError(f"{source.id} is not yours.")
    leader = leader_for(state, ctx.side, source)
    if leader is None:
        raise RuleError(f"No PL or CC of yours within 2\" of {source.id} may help it now ({RULE}).")
    ctx.extend([shift_suppression(state, leader, source, dest)])


def appoint_offers(state: SkirmishState, side: str) -> Iterator[Appoint]:
    """Teams within 2" of the CC in units whose PL is dead."""
    cc = morale.commander(state, side)
    if cc is None or cc.id in state.leader_used or state.initiative != side or state.pending:
        return
    for unit in state.live(side):
        if unit.pl is None:
            for team in unit.alive_teams:
                if near(state, cc, team):
                    yield Appoint(team=team.id)


@order(Appoint, phases=OWN_INITIATIVE, offers=appoint_offers)
def appoint_order(ctx: Ctx[SkirmishState], order: Appoint) -> None:
    """Leaders: the CC appoints a team within 2" the new PL of a unit whose PL is dead."""
    cc = morale.commander(ctx.state, ctx.side)
    if cc is None:
        raise RuleError(f"Your Company Commander is not on the table ({RULE}).")
    team = ctx.state.team(order.team)
    if ctx.state.unit_of(team).side != ctx.side:
        raise RuleError(f"{team.id} is not yours.")
    ctx.extend([appoint(ctx.state, cc, team)])
