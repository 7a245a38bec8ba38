"""What a side may order now: the legal orders (for drivers, fuzzing and status) and the
autocomplete suggestions drawn from them (best first, at most 25)."""

from __future__ import annotations

from typing import Any, Literal

from rules.core.contract import Action, Choice
from rules.rr.actions import (
    Airstrike, Assault, Boyes, Deploy, DeployDefault, Done, Enter, Fire, Hind, Hq, Move, Nikolas,
    Pass, Place, Ready, Retreat, Route, Skip, Sniper, TakeHits,
)
from rules.rr.arrivals import deployment_of, place_areas, placeable, waiting
from rules.rr.assault import can_assault
from rules.rr.board import Board, is_combatant, is_hind, is_hq, is_leader, is_mortar, is_sniper
from rules.rr.combat import can_fire, shot_problem, support_problem
from rules.rr.hits import enemy_targets, retreat_options
from rules.rr.movement import can_move
from rules.rr.sequence import route_options
from rules.rr.state import RRState, UnitState, other

Boost = Literal["rcm", "acm", "df", "range"]
#: 9.7: the values Col. Nikolas can raise (a mortar's range only for mortars).
BOOSTS: tuple[Boost, ...] = ("rcm", "acm", "df", "range")


def legal(state: RRState, side: str, only: str | None = None) -> list[Action]:
    """Every order worth offering ``side`` now (empty when it is not waited on); ``only``
    names the one order autocomplete asks about, so the others are not worked out."""
    b = Board(state, frozen=True)
    s = state
    if s.phase == "over":
        return []
    if s.pending:
        return pending_orders(b, side) if s.pending[0].side == side else []
    if s.active != side:
        return []
    if s.phase == "deploy":
        return deploy_orders(b, side)
    if s.phase == "place":
        out: list[Action] = [Skip()]
        for unit in placeable(b, side):
            out += [Place(unit=unit.id, area=a) for a in place_areas(b, unit.id)]
        return out
    if s.phase == "route":
        out = [Done()]
        for unit in s.on_map(side):
            out += [Route(unit=unit.id, to=a) for a in route_options(b, unit.id)]
        return out
    return [Pass()] + impulse_orders(b, side, only)


def pending_orders(b: Board, side: str) -> list[Action]:
    """The answers a pending decision accepts."""
    pending = b.s.pending[0]
    if pending.kind == "retreat":
        options = retreat_options(b, pending.unit or "", pending.origin, pending.source)
        return [TakeHits()] + [Retreat(to=a) for a in options]
    if pending.kind == "spread":
        return [TakeHits(unit=u.id) for u in b.combatants_in(pending.area or "", side)]
    shooter = b.s.units[pending.unit or ""]
    out: list[Action] = [Skip()]
    if shooter.place == "map":
        out += [Fire(unit=shooter.id, target=t.id) for t in enemy_targets(b, side)
                if shot_problem(b, shooter.id, t) is None]
    return out


def deploy_orders(b: Board, side: str) -> list[Action]:
    """Setup: each waiting unit to each allowed area, the ready-made deployment, ready."""
    todo = waiting(b, side, ("setup",))
    out: list[Action] = []
    if todo:
        out.append(DeployDefault())
    for unit in todo:
        dep = deployment_of(b, unit.id)
        for area in dep.areas if dep else []:
            if is_leader(b.spec(unit.id)) and not b.combatants_in(area, side):
                continue
            if b.stack_problem(area, [unit.id]) is None:
                out.append(Deploy(unit=unit.id, area=area))
    if not todo:
        required = b.sc.soviet_required_area
        alone = [u for u in b.s.on_map(side)
                 if is_leader(b.spec(u.id)) and not b.combatants_in(u.area or "", side)]
        short = side == "soviet" and b.points(required, side) < 1
        if not alone and not short:
            out.append(Ready())
        for leader in alone:
            dep = deployment_of(b, leader.id)
            out += [Deploy(unit=leader.id, area=a) for a in (dep.areas if dep else [])
                    if b.combatants_in(a, side)]
        for unit in b.s.on_map(side) if short else []:
            dep = deployment_of(b, unit.id)
            if dep and required in dep.areas and b.stack_problem(required, [unit.id]) is None:
                out.append(Deploy(unit=unit.id, area=required))
    return out


def impulse_orders(b: Board, side: str, only: str | None = None) -> list[Action]:
    """Operations: moves, entries, fire, assaults and special actions (or just ``only``)."""
    s = b.s
    out: list[Action] = []
    targets = enemy_targets(b, side)
    areas = sorted({u.area for u in s.on_map(side) if u.area}, key=b.g.ids.index)
    for area in areas:
        here = b.in_area(area, side)
        movers = [u for u in here if can_move(b, u)]
        for to in b.g.neighbours(area) if only in (None, "move", "assault") else []:
            if b.enemy_held(to, side):
                attackers = [u for u in here if can_assault(b, u)]
                if attackers and b.stack_problem(to, [u.id for u in attackers]) is None:
                    for target in b.combatants_in(to, other(side)):
                        out.append(Assault(units=",".join(u.id for u in attackers), to=to, target=target.id))
                        out.append(Assault(units=attackers[0].id, to=to, target=target.id))
                continue
            for unit in movers:
                if b.stack_problem(to, [unit.id]) is None:
                    out.append(Move(units=unit.id, to=to))
            if len(movers) > 1 and b.stack_problem(to, [u.id for u in movers]) is None:
                out.append(Move(units=",".join(u.id for u in movers), to=to))
        firers = [u for u in here if can_fire(b, u)] if only in (None, "fire") else []
        for unit in firers:
            for target in targets:
                if shot_problem(b, unit.id, target) is not None:
                    continue
                out.append(Fire(unit=unit.id, target=target.id))
                helpers = [h.id for h in firers if h.id != unit.id and support_problem(b, h.id, target) is None]
                if helpers:
                    out.append(Fire(unit=unit.id, target=target.id, support=",".join(helpers)))
                if s.airstrike.get(side):
                    out.append(Fire(unit=unit.id, target=target.id, air=True))
                if b.has_kastet(unit.id) and shot_problem(b, unit.id, target, True) is None:
                    out.append(Fire(unit=unit.id, target=target.id, kastet=True))
    for unit in waiting(b, side, ("enter",)) if only in (None, "enter") else []:
        dep = deployment_of(b, unit.id)
        for to in dep.areas if dep else []:
            if b.enemy_held(to, side) or b.stack_problem(to, [unit.id]) is not None:
                continue
            if is_leader(b.spec(unit.id)):
                mates = [m for m in waiting(b, side, ("enter",)) if not is_leader(b.spec(m.id))
                         and deployment_of(b, m.id) == dep and b.stack_problem(to, [m.id, unit.id]) is None]
                if mates:
                    out.append(Enter(units=f"{mates[0].id},{unit.id}", to=to))
            else:
                out.append(Enter(units=unit.id, to=to))
    if only not in ("move", "assault", "fire", "enter"):
        out += special_orders(b, side, targets)
    return out


def special_orders(b: Board, side: str, targets: list[UnitState]) -> list[Action]:
    """Chapter 9 and 10 orders that are possible now."""
    s = b.s
    out: list[Action] = []
    for unit in s.on_map(side):
        spec = b.spec(unit.id)
        if unit.ap < 1:
            continue
        mates = [m for m in b.in_area(unit.area or "", side) if is_combatant(b.spec(m.id))]
        if spec.special == "nikolas":
            for mate in mates:
                values = BOOSTS if is_mortar(b.spec(mate.id)) else BOOSTS[:3]
                out += [Nikolas(unit=mate.id, value=v) for v in values if v not in mate.boost]
        elif spec.special == "boyes":
            out += [Boyes(unit=m.id) for m in mates if not m.reroll]
        elif is_hq(spec) and unit.status == "ok" and s.hq_turn != s.turn:
            near = {unit.area or ""} | set(b.g.adjacent(unit.area or ""))
            out += [Hq(unit=m.id) for m in s.on_map(side) if m.area in near and m.id != unit.id
                    and m.status == "ok" and is_combatant(b.spec(m.id)) and m.ap < b.max_ap(m.id)]
    sniper = next((u for u in s.units.values() if u.side == side and is_sniper(b.spec(u.id))), None)
    if sniper is not None and sniper.place != "gone" and s.sniper_turn != s.turn:
        out += [Sniper(target=t.id) for t in targets
                if not is_hind(b.spec(t.id)) and b.sc.area_by_id[t.area or ""].city]
    if s.airstrike.get(side):
        out += [Airstrike(target=t.id) for t in targets]
    heli = next((u for u in s.units.values() if u.side == side and is_hind(b.spec(u.id))), None)
    if heli is not None and heli.place == "pool" and s.hind_ok:
        out += [Hind(area=a) for a in b.g.ids if not b.in_area(a, other(side))
                and b.stack_problem(a, [heli.id]) is None]
    return out


def unit_label(b: Board, uid: str) -> str:
    """``VDV-1 (area 7, 2 AP)``."""
    unit = b.s.units[uid]
    where = f"area {unit.area}" if unit.area else unit.place
    status = f", {unit.status}" if unit.status != "ok" else ""
    return f"{uid} ({where}, {unit.ap} AP{status})"[:100]


def target_label(b: Board, here: str, uid: str) -> str:
    """``VDV-1 in 7 (range 2, DF 7 +1 TM)``: what a firer needs to pick a target."""
    unit = b.s.units[uid]
    there = unit.area or ""
    tm = b.sc.area_by_id[there].tm if there in b.sc.area_by_id else 0
    status = f", {unit.status}" if unit.status != "ok" else ""
    return f"{uid} in {there} (range {b.g.distance(here, there)}, DF {b.values(uid).df} {tm:+d} TM{status})"


def area_label(b: Board, area: str) -> str:
    """``area 12 (woods, TM +1)``."""
    spec = b.sc.area_by_id.get(area)
    if spec is None:
        return area
    return f"area {area} ({spec.terrain}, TM {spec.tm:+d})"


def suggest(state: RRState, side: str, action: str, field: str, partial: dict[str, Any]) -> list[Choice]:
    """Autocomplete: the values of ``field`` among the legal orders that agree with what was
    typed in the other fields, best first (they come in board order), at most 25."""
    b = Board(state)
    typed = str(partial.get(field) or "").lower()
    seen: list[str] = []
    for order in legal(state, side, action):
        if order.name != action or field not in type(order).model_fields:
            continue
        if any(k != field and v not in (None, "") and str(getattr(order, k, "")).lower() != str(v).lower()
               for k, v in partial.items() if k in type(order).model_fields):
            continue
        value = getattr(order, field)
        if value in (None, "") or not isinstance(value, str):
            continue
        if value not in seen and typed in value.lower():
            seen.append(value)
    out = []
    shooter = state.units.get(str(partial.get("unit") or ""))
    for value in seen[:25]:
        first = value.split(",")[0]
        if field == "target" and shooter is not None and shooter.area and value in state.units:
            label = target_label(b, shooter.area, value)
        elif first in state.units and "," not in value:
            label = unit_label(b, first)
        elif first in state.units:
            label = f"{value} (from area {state.units[first].area})"
        else:
            label = area_label(b, value)
        out.append(Choice(value=value, label=label[:100]))
    return out

