"""``/rr info unit:``: a counter's printed values and its condition now, for anyone (2.0)."""

from __future__ import annotations

from rules.core.contract import Action, Event
from rules.core.orders import Ctx, order
from rules.rr.actions import Info
from rules.rr.board import Board
from rules.rr.scenario import UnitValues
from rules.rr.state import SIDE_NAMES, RRState


def values_text(values: UnitValues, stacking: int) -> str:
    """``RCM 2 · ACM 3 · DF 7 · morale 7 · stacking 2 · AP 3`` (ACM ``*``: cannot assault)."""
    acm = "*" if values.acm is None else str(values.acm)
    return (f"RCM {values.rcm} · ACM {acm} · DF {values.df} · morale {values.morale} · "
            f"stacking {stacking} · AP {values.ap}")


def rider_extras(b: Board, uid: str) -> list[str]:
    """What the counters riding with ``uid`` add to its fire: an ATGM team +1 RCM ("They
    increase the companies' RCM by one", 9.3), the Kastet +1 RCM on its one shot (9.4)."""
    out = []
    for rider in b.riders(uid):
        if b.spec(rider.id).special == "kastet":
            out.append(f"+1 RCM with the Kastet, one shot ({rider.id} 9.4)")
        else:
            out.append(f"+1 RCM ({rider.id} ATGM 9.3)")
    return out


def unit_info(b: Board, uid: str) -> list[Event]:
    """The face-up values, the other side's, and where the unit is and how it stands."""
    unit = b.unit(uid)
    spec = b.spec(unit.id)
    face = "reduced" if unit.reduced else "full strength"
    where = {"map": f"in area {unit.area}", "pool": "not on the map", "gone": "out of play",
             "attached": f"riding with {unit.attached_to}"}[unit.place]
    lines = [f"{unit.id}, {spec.name} ({SIDE_NAMES[spec.side]}): {face}, {where}, {unit.ap} AP left, "
             f"{unit.status}",
             f"{values_text(b.values(unit.id), spec.stacking)}"]
    if spec.reduced is not None and not unit.reduced:
        lines.append(f"reduced: {values_text(spec.reduced, spec.stacking)}")
    extras = rider_extras(b, unit.id) + [f"+1 {v.upper()} (Nikolas 9.7)" for v in unit.boost]
    if unit.reroll:
        extras.append("a reroll waiting (Boyes 9.8)")
    if extras:
        lines.append("; ".join(extras))
    data = {"unit": unit.id, "values": b.values(unit.id).model_dump(), "stacking": spec.stacking}
    return [Event(kind="info", text="\n".join(lines), rule="2.0", data=data)]


def info_orders(state: RRState, side: str) -> list[Action]:
    """Every counter's values may be asked for, by anyone."""
    return [Info(unit=u) for u in state.units]


@order(Info, offers=info_orders)
def info_order(ctx: Ctx[RRState], action: Info) -> None:
    """A counter's values, for anyone (changes nothing)."""
    ctx.extend(unit_info(Board(ctx.state, frozen=True), action.unit))
