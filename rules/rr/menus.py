"""What a side may order now, across the orders: whether any order of an impulse is left
(7.0), and the labels autocomplete shows with the offers (range and roll needed, AP,
terrain).  Each order's own offers are declared with it, in the chapter module of its rule
(:func:`rules.rr.combat.fire_orders`, ...), built with the same checks its resolver raises on."""

from __future__ import annotations

from typing import Any

from rules.rr.arrivals import enter_orders
from rules.rr.board import Board, can_move
from rules.rr.combat import airstrike_orders, attack_mods, defence, fire_orders
from rules.rr.movement import assault_orders, move_orders
from rules.rr.special import boyes_orders, hind_orders, hq_orders, nikolas_orders, sniper_orders
from rules.rr.state import RRState, UnitState


#: Every order of an impulse (7.0) but pass: a side with none of these must pass.
IMPULSE_OFFERS = (move_orders, assault_orders, enter_orders, fire_orders, nikolas_orders,
                  boyes_orders, hq_orders, sniper_orders, airstrike_orders, hind_orders)


def surely_moves(b: Board, side: str) -> bool:
    """A sure sign that :func:`move_orders` offers ``side`` something, found in one pass over
    the units: a unit that can move (7.2) next to an area with no unit of either side in it.
    Nothing refuses that move: no enemy is there (5.1), and a counter alone holds at most 6
    stacking points (:class:`~rules.rr.scenario.UnitSpec` allows no more) of one nation, and
    is never the Hind (it does not move, 10.2), so stacking allows it (5.1).  False says
    nothing: the menus decide."""
    occupied: set[str | None] = set()
    movers: list[str] = []
    for unit in b.s.units.values():
        if unit.place == "map":
            occupied.add(unit.area)
            if unit.side == side and unit.area and can_move(b, unit):
                movers.append(unit.area)
    return any(to not in occupied for area in movers for to in b.g.neighbours(area))


def has_impulse(state: RRState, side: str) -> bool:
    """7.0: whether ``side`` has any order left but pass ("Players must pass if they have no
    remaining actions to use").  Asked after every order (issue 23): first the sure sign of
    a move, then each order until one has an offer, each stopping at its first."""
    b = Board(state, frozen=True)
    return surely_moves(b, side) or any(offers.any(b, side) for offers in IMPULSE_OFFERS)


# -- labels ------------------------------------------------------------------------------------


def unit_label(b: Board, uid: str) -> str:
    """``VDV-1 (area 7, 2 AP)``."""
    unit = b.s.units[uid]
    where = f"area {unit.area}" if unit.area else unit.place
    status = f", {unit.status}" if unit.status != "ok" else ""
    return f"{uid} ({where}, {unit.ap} AP{status})"


def target_label(b: Board, shooter: UnitState, uid: str) -> str:
    """``VDV-1 in 7 (range 2, needs 9+)``: what a firer needs to pick a target."""
    unit = b.s.units[uid]
    here, there = shooter.area or "", unit.area or ""
    dist = b.g.distance(here, there)
    bonus = sum(v for v, _ in attack_mods(b, shooter, unit, False, dist, peek=True))
    df, dmods = defence(b, unit, ranged=True, peek=True)
    needs = df + sum(v for v, _ in dmods) + 1 - bonus
    status = f", {unit.status}" if unit.status != "ok" else ""
    return f"{uid} in {there} (range {dist}, needs {max(2, needs)}+ on 2d6{status})"


def area_label(b: Board, area: str) -> str:
    """``area 12 (woods, TM +1)``."""
    spec = b.sc.area_by_id.get(area)
    if spec is None:
        return area
    return f"area {area} ({spec.terrain}, TM {spec.tm:+d})"


#: Yes/no options in words (an answer reads "with the airstrike", not "air true").
FLAG_WORDS: dict[str, tuple[str, str]] = {
    "air": ("without the airstrike", "with the airstrike, +2 (10.1)"),
    "kastet": ("without the Kastet", "with the Kastet, +1 (9.4)"),
}


def label(state: RRState, side: str, action: str, field: str, value: str, partial: dict[str, Any]) -> str:
    """The autocomplete label of ``value``: a target with range and roll needed, a unit with
    its area and AP, a group with its area, an area with its terrain."""
    b = Board(state, frozen=True)
    if field in FLAG_WORDS and value in ("true", "false"):
        return FLAG_WORDS[field][value == "true"]
    if action == "hq" and field == "unit" and value in state.units:
        # 9.10: the order's one word ("Hq") does not say what it does; its value does.
        return f"{unit_label(b, value)} gets 1 AP from the German HQ (9.10)"
    first = value.split(",")[0]
    shooter = state.units.get(str(partial.get("unit") or ""))
    if field == "target" and shooter is not None and shooter.area and value in state.units:
        return target_label(b, shooter, value)
    if first in state.units and "," not in value:
        return unit_label(b, first)
    if first in state.units:
        return f"{value} (from area {state.units[first].area})"
    if field == "value":
        return f"+1 {value} (9.7)"
    if field in ("die", "use"):
        return {"worse": "the die that hurts this roll", "lower": "the lower die",
                "higher": "the higher die", "failed": "only if the roll fails",
                "any": "on the roll whatever it gives"}.get(value, value)
    return area_label(b, value)


__all__ = ["IMPULSE_OFFERS", "area_label", "has_impulse", "label", "surely_moves", "target_label", "unit_label"]
