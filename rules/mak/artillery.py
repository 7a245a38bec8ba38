"""Off-board artillery (17.0): the scenarios' notation, the request, and the fire.

* Notation ("Understanding the Scenarios" c): "Type II … ⑥W−80×5 (2) Meaning: Type II
  artillery, 80 hexes west of map board 6.  Two rounds can be fired in a turn, and 5 total
  rounds are available."
* 17.1.2 the three classes of units (1 command, 2 reconnaissance, 3 the rest) and 17.1.4 the
  five combinations a-e of who observes and who requests.
* 17.1.3 the observer sees the target; "The spotting unit may not move or attack on the turn
  it requests the strike, and if it is destroyed before the end of the turn, the artillery
  attack is not possible."  17.1.5 "a unit can only participate in a single attack."
* 17.1.6 "fired at the beginning of the troop phase following the turn in which the request is
  made.  However, if a friendly unit is in the target hex, the shot is postponed".
* 17.2.1 deviation: "If the result is below the target number, the attack hits the target
  hex.  If the roll is one or two more than the target, then the attack hits an adjacent hex.
  Roll one die and consult the chart to determine the direction.  If the roll exceeds the
  target by three or more, the attack fails completely."  17.2.2: the effect by the indirect
  fire rules (5.5.2-5.5.4).
* O.G.P. item ②: "The victory point value of friendly artillery used" (per round fired).

The two charts (Efficiency, Deviation) are not printed: ``data/artillery.json`` is ours.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.core.dice import Dice
from rules.core.errors import RuleError
from rules.core.hexes import DIRECTION_NAMES, Hex, MapLayout, neighbour, to_offset, within
from rules.core.orders import Ctx
from rules.mak import actions as A
from rules.mak import minefields
from rules.mak.air_legal import ground_duty_problem
from rules.mak.combat import attack_target
from rules.mak.data import UnitStats, Weapon, read_data, unit_stats
from rules.mak.land_state import ArtilleryRequest, Battery
from rules.mak.refusals import absent, busy, own
from rules.mak.pilots import commanded, commander, manned
from rules.mak.resolve import blast_hit, finish_moving
from rules.mak.state import SIDE_NAMES, MakState, Mark, UnitState, other
from rules.mak.table import Table, darkness
from rules.mak.unmanned import may_spot

Kind = Literal["a", "b", "c", "d", "e"]


class ArtilleryType(BaseModel):
    """One row of the Artillery Efficiency Chart (stand-in): attack, blast radius (5.5.2:
    "up to two hexes away"), range in hexes, victory points per round, terrain column."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    attack: int = Field(ge=1, le=20)
    radius: int = Field(ge=1, le=2)
    range: int = Field(ge=1, le=500)
    vp: int = Field(ge=0, le=10)
    weapon: Weapon


class ArtilleryChart(BaseModel):
    """The efficiency rows by type, the deviation target by request type, the direction die."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    note: str = ""
    types: dict[str, ArtilleryType]
    deviation: dict[Kind, int]
    directions: list[int] = Field(min_length=6, max_length=6)  # die 1-6 -> hex direction
    stand_in: bool = True


@lru_cache(maxsize=1)
def chart() -> ArtilleryChart:
    """``data/artillery.json``."""
    return ArtilleryChart.model_validate(read_data("artillery.json"))


# -- the notation ----------------------------------------------------------------------------

_CODE = re.compile(r"^Type\s*(I{1,3})\s*(?:…|\.{2,3}|·+)?\s*([①-⑳])\s*([NSEW])\s*[−–-]\s*(\d{1,3})\s*[×x]\s*(\d{1,2})"
                   r"\s*\(\s*(\d{1,2})\s*\)$")


@dataclass(frozen=True)
class BatterySpec:
    """A parsed ``Type II … ⑥W−80×5 (2)``."""

    type: str
    board: int
    edge: Literal["N", "S", "E", "W"]
    distance: int
    total: int
    per_turn: int

    def text(self) -> str:
        """As a player reads it."""
        where = {"N": "north", "S": "south", "E": "east", "W": "west"}[self.edge]
        return (f"Type {self.type} artillery {self.distance} hexes {where} of board {self.board}: "
                f"{self.per_turn} a turn, {self.total} in all")


def parse_battery(code: str) -> BatterySpec:
    """Parse the scenarios' artillery notation; a RuleError says what is wrong."""
    m = _CODE.match(code.strip())
    if not m:
        raise RuleError(f"'{code[:30]}' is not artillery notation such as Type II … ⑥W−80×5 (2).")
    kind, circle, edge, dist, total, per_turn = m.groups()
    if kind not in chart().types:
        raise RuleError(f"There is no artillery Type {kind}.")
    board = ord(circle) - ord("①") + 1
    spec = BatterySpec(type=kind, board=board, edge=edge, distance=int(dist), total=int(total),  # type: ignore[arg-type]
                       per_turn=int(per_turn))
    if spec.per_turn > spec.total:
        raise RuleError(f"'{code[:30]}': more rounds a turn than in all.")
    return spec


def make_batteries(side: str, codes: list[str]) -> list[Battery]:
    """The scenario side's batteries, ``M-Art1``, ``M-Art2``..."""
    out = []
    for i, code in enumerate(codes, 1):
        b = parse_battery(code)
        out.append(Battery(id=f"{side[0].upper()}-Art{i}", side=side, code=code, type=b.type,  # type: ignore[arg-type]
                           board=b.board, edge=b.edge, distance=b.distance, total=b.total,
                           per_turn=b.per_turn))
    return out


def range_to(layout: MapLayout, battery: Battery, h: Hex) -> int:
    """Hexes from the battery to ``h``: its distance off the board's edge plus the hexes from
    that edge to ``h`` (counted in columns for E/W, rows for N/S; the edge hex is 1)."""
    p = layout.placement(battery.board)
    col, row = to_offset(h)
    inside = {"W": col - p.col + 1, "E": p.col + p.columns - col,
              "N": row - p.row + 1, "S": p.row + p.rows - row}[battery.edge]
    return max(1, battery.distance + inside)


def vp_used(state: MakState, side: str) -> int:
    """O.G.P. item ②: the victory points of ``side``'s artillery rounds fired."""
    return sum(b.fired * chart().types[b.type].vp for b in state.batteries if b.side == side)


# -- who may call it (17.1.2, 17.1.4) --------------------------------------------------------


def unit_class_of(stats: UnitStats) -> int:
    """17.1.2: 1 command units (HQs), 2 reconnaissance (NeuSpotter, Kröte, Raccoon), 3 others."""
    if stats.command:
        return 1
    if stats.recon:
        return 2
    return 3


def group_of(state: MakState, u: UnitState) -> int:
    """17.1.2 for a unit in play: "A unit designated by the scenario" (its commander, notes
    b) is a command unit; "All aeronautical units assigned to ground support" reconnaissance."""
    c = commander(state, u.side)
    if c is not None and c.id == u.id:
        return 1
    if u.status == "aloft":
        return 2 if state.air.duty.get(u.id) == "ground" else 3
    return unit_class_of(unit_stats(u.type))


def request_kind(observer: int, requester: int | None) -> Kind | None:
    """17.1.4: the combination's letter; ``requester`` None when the observer requests itself.
    "all other combinations of units cannot request artillery attacks"."""
    if requester is None:
        return {1: "a", 2: "c", 3: "e"}[observer]  # type: ignore[return-value]
    if requester != 1:
        return None
    return {2: "b", 3: "d"}.get(observer)  # type: ignore[return-value]


def rounds_left(state: MakState, b: Battery) -> int:
    """Rounds ``b`` may still be asked for this turn (per turn and in all, pending counted)."""
    asked = [r for r in state.requests if r.battery == b.id and r.state != "cancelled"]
    this_turn = sum(r.rounds for r in asked if r.turn == state.turn)
    pending = sum(r.rounds for r in asked if r.state == "pending")
    return max(0, min(b.per_turn - this_turn, b.total - b.fired - pending))


def _busy_this_turn(state: MakState, uid: str) -> bool:
    return any(uid in (r.observer, r.requester) and r.turn == state.turn and r.state != "cancelled"
               for r in state.requests)


def _sees_enemy(t: Table, obs: UnitState, there: Hex) -> bool:
    """17.1.3: the observer sees an enemy unit in ``there`` (asked once per Table)."""
    seen: dict[tuple[str, Hex], bool] = t.__dict__.setdefault("_artillery_seen", {})
    key = (obs.id, there)
    if key not in seen:
        seen[key] = any(t.sees(obs, e) for e in t.in_hex(there, other(obs.side)) if not e.aboard)
    return seen[key]


def _friends_near(t: Table, side: str, there: Hex, radius: int) -> bool:
    """5.5.4: ``side`` has units within ``radius`` of ``there`` (asked once per Table)."""
    near: dict[tuple[str, Hex, int], bool] = t.__dict__.setdefault("_artillery_near", {})
    key = (side, there, radius)
    if key not in near:
        mine = {u.hex for u in t.on_map(side)}
        near[key] = any(t.field.contains(h) and t.label(h) in mine for h in within(there, radius))
    return near[key]


def _has_acted(u: UnitState) -> bool:
    """17.1.3: the unit has moved (or spent movement points) or attacked this phase."""
    return bool(u.moved or u.attacked or u.struck or u.mp_spent)


def _observer_problem(t: Table, obs: UnitState, there: Hex) -> str | None:
    """17.1.3: the observer sees the target and has neither moved nor attacked this phase; an
    aircraft on a ground mission sees from the air (10.5)."""
    if obs.status == "aloft":
        why = ground_duty_problem(t, obs, "17.1.2")
        if why or obs.attacked:
            return why or f"{obs.id} has attacked this phase (17.1.2)."
        if not any(not e.aboard for e in t.in_hex(there, other(obs.side))):
            return f"{obs.id} sees no enemy unit in {t.label(there)} (17.1.3)."
        return None
    if not obs.on_map or _has_acted(obs) or obs.morale != "ok":
        return f"{obs.id} has moved or attacked this phase, or cannot spot (17.1.3, 14.3.1)."
    if not may_spot(t.stats(obs), commanded(t.s, obs.side) or manned(t.s, obs)):
        return f"{obs.id} is unmanned and has no command unit: it cannot spot for artillery (16.1)."
    if not _sees_enemy(t, obs, there):
        return f"{obs.id} sees no enemy unit in {t.label(there)} (17.1.3)."
    return None


def battery_of(state: MakState, uid: str) -> Battery | None:
    """The battery called ``uid`` (any side), or None: an ``indirect`` order naming one is an
    artillery request (17.1)."""
    key = uid.strip().lower()
    return next((b for b in state.batteries if b.id.lower() == key), None)


def plain_indirect_problem(o: A.Indirect) -> str | None:
    """A unit's own indirect attack (5.5) takes no requester and fires one round."""
    if o.requester.strip() or o.rounds != 1 or o.mines:
        return "requester, rounds and mines are for off-board artillery (e.g. unit:M-Art1) (17.1, 19.1.6)."
    return None


def request_problem(t: Table, side: str, o: A.Indirect) -> str | None:
    """17.1: why the request is refused, or None."""
    b = battery_of(t.s, o.unit)
    mine = [x.id for x in t.s.batteries if x.side == side]
    if b is None or b.side != side:
        return f"'{o.unit[:12]}' is not your artillery; yours: {', '.join(mine) or 'none'}."
    left = rounds_left(t.s, b)
    if o.rounds > left:
        return f"{b.id} has {left} round(s) left to fire this turn ({b.per_turn} a turn, {b.total} in all) (17.1.5)."
    try:
        there = t.hex_of(o.at)
    except RuleError:
        return f"'{o.at[:12]}' is not a hex of this map (e.g. 5:0607)."
    reach = chart().types[b.type].range
    if range_to(t.field.layout, b, there) > reach:
        return f"{t.label(there)} is beyond {b.id}'s range of {reach} hexes."
    if _friends_near(t, side, there, chart().types[b.type].radius):
        return "Your own units are in or next to that hex (5.5.4, 17.2.2)."
    obs = own(t, side, o.spotter)
    if isinstance(obs, str):
        return obs
    why = _observer_problem(t, obs, there)
    if why:
        return why
    req = obs if not o.requester.strip() or o.requester.strip().lower() == obs.id.lower() else own(t, side, o.requester)
    if isinstance(req, str):
        return req
    if req is not obs and not req.on_map:
        return absent(req)
    kind = request_kind(group_of(t.s, obs), None if req is obs else group_of(t.s, req))
    if kind is None:
        return (f"{obs.id} observing and {req.id} requesting is not one of the combinations a-e: "
                f"another unit's request comes from a command unit (17.1.4).")
    for u in {obs.id, req.id}:
        if _busy_this_turn(t.s, u):
            return f"{u} already takes part in an artillery request this turn (17.1.5)."
    if req is not obs and _has_acted(req):
        return (f"{req.id} has moved or attacked this phase and cannot request artillery: the unit "
                f"that requests may not move or attack on the turn it requests (17.1.3).")
    return busy(t, obs)


def offers(state: MakState, side: str) -> list[A.Indirect]:
    """Every legal request: each battery, enemy hex an observer sees, requester and rounds."""
    t = Table(state)
    batteries = [b for b in state.batteries if b.side == side and rounds_left(state, b)]
    if not batteries:
        return []
    commanders = [c for c in t.on_map(side) if group_of(state, c) == 1]
    enemy_hexes = sorted({e.hex for e in t.on_map(other(side)) if e.hex and not e.aboard})
    out: list[A.Indirect] = []
    for obs in _free_observers(t, side):
        requesters = [obs] + [c for c in commanders if c.id != obs.id]
        for h in enemy_hexes:
            if _observer_problem(t, obs, t.hex_of(h)):
                continue  # the same for every battery, requester and number of rounds
            out += _requests_on(t, side, h, obs, requesters, batteries)
    return out


def _free_observers(t: Table, side: str) -> list[UnitState]:
    """Units on the map and command aircraft aloft (10.5) that have not moved, attacked or
    taken part in a request this turn (17.1.3, 17.1.5)."""
    s = t.s
    aloft = [u for u in s.units if u.side == side and u.status == "aloft" and group_of(s, u) == 2]
    return [u for u in t.on_map(side) + aloft
            if not (u.moved or u.attacked or u.mp_spent or _busy_this_turn(s, u.id))]


def _requests_on(t: Table, side: str, h: str, obs: UnitState, requesters: list[UnitState],
                 batteries: list[Battery]) -> list[A.Indirect]:
    """The legal requests on hex ``h`` seen by ``obs``: each battery, requester and rounds."""
    out = []
    for b in batteries:
        for req in requesters:
            for n in range(1, rounds_left(t.s, b) + 1):
                o = A.Indirect(unit=b.id, at=h, spotter=obs.id, requester=req.id, rounds=n)
                if request_problem(t, side, o) is None:
                    out.append(o)
    return out


def request(t: Table, ctx: Ctx[MakState], o: A.Indirect) -> None:
    """17.1.5: write the request on the record sheet; the observer and the requester stay put
    and hold their fire this turn (17.1.3)."""
    s = ctx.state
    b = battery_of(s, o.unit)
    assert b is not None
    obs = s.find(o.spotter)
    assert obs is not None
    req = s.find(o.requester) if o.requester.strip() else obs
    assert req is not None
    kind = request_kind(group_of(s, obs), None if req.id == obs.id else group_of(s, req))
    assert kind is not None
    finish_moving(s)
    label = t.label(t.hex_of(o.at))
    s.requests.append(ArtilleryRequest(battery=b.id, side=b.side, turn=s.turn, kind=kind, hex=label,
                                       observer=obs.id, requester=req.id, rounds=o.rounds, mines=o.mines))
    for u in {obs.id: obs, req.id: req}.values():
        u.move_done = True  # 17.1.3: observer and requester may not move or attack this turn
        u.attacked = True
    if obs.status == "aloft":
        s.air.duty[obs.id] = "used"  # 10.5: its one ground mission is done (10.1.2, 10.1.3)
    who = obs.id if req.id == obs.id else f"{obs.id} observing, {req.id} requesting"
    shot = " of mines (19.1.6)" if o.mines else ""
    ctx.say("artillery", f"{who}: {b.id} ({o.rounds} round(s){shot}) on {label}, request type {kind}; "
                         f"it lands at the start of the next {SIDE_NAMES[b.side]} phase (17.1)", "17.1")
    ctx.state.marks.append(Mark(kind="place", hexes=[obs.hex or "", label], side=b.side,
                                text=f"{b.id} requested"))
    ctx.snapshot = True


# -- the fire (17.2) ---------------------------------------------------------------------------


def deviation(dice: Dice, kind: Kind, reason: str) -> tuple[int | None, str]:
    """17.2.1: ``(direction, text)``: None with "on target"; a direction 0-5 one hex off;
    or ``(-1, text)`` when the round fails completely."""
    need = chart().deviation[kind]
    a, b = dice.roll(2, 6, reason)
    roll = a + b
    if roll <= need:
        return None, f"deviation 🎲 {a}+{b} = {roll} ≤ {need} (type {kind}): on target"
    if roll - need <= 2:
        die = dice.die(6, f"{reason} direction")
        way = chart().directions[die - 1]
        return way, (f"deviation 🎲 {a}+{b} = {roll}, {roll - need} over {need} (type {kind}): one hex "
                     f"{DIRECTION_NAMES[way]} (🎲 {die})")
    return -1, f"deviation 🎲 {a}+{b} = {roll}, {roll - need} over {need} (type {kind}): the round fails"


def _blast(t: Table, ctx: Ctx[MakState], b: Battery, impact: Hex) -> None:
    """17.2.2 / 5.5.2-5.5.4: one roll against each unit's Attack Target in the area; units
    outside the impact hex +1 to the endurance roll.  A vehicle's riders share its fate."""
    row = chart().types[b.type]
    hit_dice = ctx.dice.roll(2, 6, f"{b.id} at {t.label(impact)}")
    ctx.say("artillery", f"{b.id} lands on {t.label(impact)}: 🎲 {hit_dice[0]}+{hit_dice[1]} (5.5.3)", "17.2.2")
    for h in within(impact, row.radius):
        if not t.field.contains(h):
            continue
        for e in [x for x in t.in_hex(h) if not x.aboard]:
            at = attack_target(t.field, attack=row.attack, weapon=row.weapon, source=None, target_hex=h,
                               target=t.stats(e), indirect=True, immobilized=e.immobilized,
                               position=t.position_of(e))
            at.modifiers += darkness(t, None)  # 19.3: the battery is manned
            ctx.say("artillery", blast_hit(t, ctx, e, at, (hit_dice[0], hit_dice[1]), outside=h != impact), "5.5.3")
    ctx.state.marks.append(Mark(kind="blast", hexes=[t.label(impact)], side=b.side, text=f"{b.id} artillery"))
    ctx.snapshot = True


def mine_power(b: Battery) -> int:
    """19.1.6: the attack one mine round adds to its hex.  The text does not say how much; our
    reading: the battery's attack on the Efficiency Chart (itself a stand-in, 11 to 13), so one
    round makes a minefield within 19.1.1's 5-13 and a second reaches the cap of 20."""
    return chart().types[b.type].attack


def fire_request(t: Table, ctx: Ctx[MakState], r: ArtilleryRequest) -> None:
    """One request's rounds, each with its own deviation and attack roll (17.2.1)."""
    b = next(x for x in ctx.state.batteries if x.id == r.battery)
    target = t.hex_of(r.hex)
    if any(u.side == r.side for h in within(target, chart().types[b.type].radius) for u in t.in_hex(h)):
        ctx.say("artillery", f"{b.id} on {r.hex} is postponed: friendly units are there or next to it "
                             f"(17.1.6, 5.5.4)", "17.1.6")
        return
    r.state = "done"
    for n in range(r.rounds):
        b.fired += 1
        way, text = deviation(ctx.dice, r.kind, f"{b.id} round {n + 1} deviation")
        ctx.say("artillery", f"{b.id} round {n + 1} on {r.hex}: {text} (17.2.1)", "17.2.1")
        if way == -1:
            continue
        impact = target if way is None else neighbour(target, way)
        if not t.field.contains(impact):
            ctx.say("artillery", f"{b.id} round {n + 1} falls off the map (17.2.1)", "17.2.1")
            continue
        if r.mines:  # 19.1.6: "A single shot will increase the attack power of a single hex"
            minefields.artillery_mines(ctx, t.label(impact), r.side, mine_power(b), b.id)
            ctx.state.marks.append(Mark(kind="place", hexes=[t.label(impact)], side=b.side, text=f"{b.id} mines"))
            ctx.snapshot = True
            continue
        _blast(t, ctx, b, impact)


def fire_due(t: Table, ctx: Ctx[MakState]) -> None:
    """17.1.6 / 17.2.1: at the start of a player's phase, their requests of earlier turns
    land, before any unit moves or attacks."""
    s = ctx.state
    if s.over:
        return
    for r in s.requests:
        if r.state == "pending" and r.side == s.active and r.turn < s.turn:
            fire_request(t, ctx, r)


def end_of_turn(t: Table, ctx: Ctx[MakState], turn: int) -> None:
    """17.1.3: a request whose observer was destroyed before the end of its turn is lost."""
    for r in ctx.state.requests:
        if r.state == "pending" and r.turn == turn and ctx.state.unit(r.observer).status == "destroyed":
            r.state = "cancelled"
            ctx.say("artillery", f"{r.observer} was destroyed: {r.battery}'s request on {r.hex} is "
                                 f"lost (17.1.3)", "17.1.3")


def pending_marks(state: MakState) -> list[tuple[str, str]]:
    """``(hex, text)`` of the requests not yet fired, for the snapshot."""
    return [(r.hex, f"{r.battery}×{r.rounds}") for r in state.requests if r.state == "pending"]


__all__ = ["ArtilleryChart", "BatterySpec", "chart", "deviation", "end_of_turn", "fire_due", "group_of",
           "make_batteries", "offers", "parse_battery", "battery_of", "plain_indirect_problem", "range_to", "request", "request_kind",
           "request_problem", "vp_used"]
