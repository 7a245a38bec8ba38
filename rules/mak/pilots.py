"""Pilots (18.0): modifiers, who pilots what, commanders, escaping, creation, victory points.

* 18.1.1-18.1.2: a pilot's numbers modify the attack, defence and air-war power of the unit
  it pilots; black adds, white subtracts; "(10-1) – (5+1) = 3".
* 18.1.3 / scenario notes b: ``×12 (Ld 1①) (Ld 2⑤) ⑪``: primary commander pilot 1, secondary
  5, pilot 11 in one more unit; ``Ld③``: no secondary, when it falls the units are "left
  without a command unit"; ``PC④``: pilot 4 controls an unmanned vehicle (16.1.1).
* 18.2 (optional): a damaged unit's pilot is killed on 7+ (A, M) or 4+ (D) with two dice,
  else its token is placed in the hex and the unit removed; on foot it moves one hex,
  defence 0, killed by any D, A or M, its points to the enemy.
* 18.2.5: points: the sum of the ability modifiers plus the rank's points.
* 18.3 (optional): recruiting (two dice on the creation chart) and raising an ability for
  every five non-infantry units destroyed (die + 1, at most 4).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from rules.core.dice import Dice
from rules.mak.aircrew import Command, PilotState
from rules.mak.data import UnitStats, read_data, unit_stats
from rules.mak.state import MakState, UnitState, other

CIRCLED = {chr(0x2460 + i): i + 1 for i in range(20)}  # ① .. ⑳
ESCAPE_KILL = {"A": 7, "M": 7, "D": 4}  # 18.2.1: the pilot is killed on this or more
CREATION = {1: (-1, -1), 2: (-1, 0), 3: (0, 0), 4: (0, 0), 5: (1, 1), 6: (2, 2)}  # 18.3.1
ABILITY_CAP = 4  # 18.3.3
KILLS_PER_RAISE = 5  # 18.3.3
Ability = Literal["attack", "defence", "dogfight"]


class PilotSpec(BaseModel):
    """One printed pilot token (the Pilot Names and Numbers Chart)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    side: Literal["merc", "strahl"]
    number: int
    name: str
    rank: str
    attack: int = Field(ge=-4, le=4)
    defence: int = Field(ge=-4, le=4)
    dogfight: int = Field(ge=-4, le=4)
    stand_in: bool = False


class PilotBook(BaseModel):
    """``data/pilots.json``: the pilots and the victory points for rank."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    note: str = ""
    ranks: dict[str, int]
    pilots: list[PilotSpec]


@lru_cache(maxsize=1)
def book() -> PilotBook:
    """The pilot tokens of both games."""
    return PilotBook.model_validate(read_data("pilots.json"))


def key(side: str, number: int) -> str:
    """``merc-1``."""
    return f"{side}-{number}"


def token(side: str, number: int) -> PilotState:
    """A fresh :class:`PilotState` for the printed pilot ``number`` of ``side``."""
    for p in book().pilots:
        if p.side == side and p.number == number:
            return PilotState(side=p.side, number=p.number, name=p.name, rank=p.rank,
                              rank_points=book().ranks.get(p.rank, 1), attack=p.attack,
                              defence=p.defence, dogfight=p.dogfight)
    raise KeyError(key(side, number))


# -- victory points (18.2.5) -------------------------------------------------------------------


def victory_points(abilities: tuple[int, ...], rank_points: int) -> int:
    """18.2.5: "+1 for each positive ability point, and –1 for each negative ability point",
    plus the rank's points: Heinrich Giger, 1 + 2 + 0 = 3 and rank 3, is worth 6."""
    return sum(abilities) + rank_points


def pilot_points(p: PilotState) -> int:
    """The victory points of pilot ``p``."""
    return victory_points((p.attack, p.defence, p.dogfight), p.rank_points)


# -- the crew notation (scenario notes b) ------------------------------------------------------


class CrewCode(BaseModel):
    """A parsed crew code: commanders, other pilots, the controller of an unmanned unit."""

    primary: int | None = None
    secondary: int | None = None
    others: list[int] = Field(default_factory=list)
    controller: int | None = None


_LD = re.compile(r"Ld\s*([12])?\s*([\u2460-\u2473])")
_PC = re.compile(r"PC\s*=?\s*(?:Ld\s*[12]?\s*)?([\u2460-\u2473])")


def parse_crew(code: str) -> CrewCode:
    """``(Ld 1①) (Ld 2⑤) ⑪`` -> primary 1, secondary 5, others [11]; ``Ld③`` -> primary 3;
    ``PC④`` -> controller 4; ``PC = Ld 2⑤`` -> controller 5 and secondary 5."""
    out = CrewCode()
    rest = code
    pc = _PC.search(code)
    if pc:
        out.controller = CIRCLED[pc.group(1)]
        rest = rest[:pc.start()] + rest[pc.start() + 2:]  # the "Ld" part may still name a commander
    for m in _LD.finditer(rest):
        n = CIRCLED[m.group(2)]
        if m.group(1) == "2":
            out.secondary = n
        else:
            out.primary = n
    taken = {out.primary, out.secondary, out.controller}
    for ch in re.sub(r"Ld\s*[12]?\s*[\u2460-\u2473]", "", rest):
        if ch in CIRCLED and CIRCLED[ch] not in taken:
            out.others.append(CIRCLED[ch])
    return out


def crew_line(state: MakState, side: str, unit_ids: list[str], code: str) -> None:
    """Seat the pilots of one scenario line in its units, in order: the primary commander,
    the secondary, the others (our order; the book leaves the choice to the player)."""
    if not code.strip():
        return
    c = parse_crew(code)
    seats = [n for n in (c.primary, c.secondary, *c.others) if n is not None]
    if c.controller is not None and c.controller not in seats:
        seats.insert(0, c.controller)
    for uid, number in zip(unit_ids, seats):
        p = state.crew.pilots.setdefault(key(side, number), token(side, number))
        p.unit = uid
        state.unit(uid).pilot = number
    if c.controller is not None and unit_ids:
        uid = next(u for u in unit_ids if state.unit(u).pilot == c.controller)
        state.crew.controllers[uid] = c.controller
    cmd = state.crew.command.setdefault(side, Command())
    if c.primary is not None:
        cmd.primary = c.primary
    if c.secondary is not None:
        cmd.secondary = c.secondary


def pilot_of(state: MakState, u: UnitState) -> PilotState | None:
    """The pilot in ``u`` (a Hornisse's is its rider's), if one is seated and alive."""
    for unit in (u, state.find(u.rider) if u.rider else None):
        if unit is not None and unit.pilot is not None:
            p = state.crew.pilots.get(key(unit.side, unit.pilot))
            if p is not None and p.status == "in" and p.unit == unit.id:
                return p
    return None


# -- modifiers (18.1.2) ------------------------------------------------------------------------


def modifiers(state: MakState, attacker: UnitState, target: UnitState) -> list[tuple[str, int]]:
    """18.1.2: the attacker's pilot's attack modifier is added, the target's pilot's defence
    modifier is subtracted (a defence of +1 makes the Attack Target 1 lower)."""
    out: list[tuple[str, int]] = []
    a, d = pilot_of(state, attacker), pilot_of(state, target)
    if a is not None and a.attack:
        out.append((f"{a.name.split()[-1]} attack", a.attack))
    if d is not None and d.defence:
        out.append((f"{d.name.split()[-1]} defence", -d.defence))
    return out


def air_rating(state: MakState, u: UnitState, stats: UnitStats) -> int:
    """10.2.1 with 18.1.1: the dog-fight rating plus the pilot's air-war modifier (not
    below 0)."""
    p = pilot_of(state, u)
    return max(0, (stats.dogfight or 0) + (p.dogfight if p else 0))


# -- command (scenario notes b, 16.1) ----------------------------------------------------------


def commander(state: MakState, side: str) -> UnitState | None:
    """The unit of the side's commander: the primary while alive in its unit, then the
    secondary; None when the side is "left without a command unit"."""
    cmd = state.crew.command.get(side)
    if cmd is None:
        return None
    for number in (cmd.primary, cmd.secondary):
        if number is None:
            continue
        p = state.crew.pilots.get(key(side, number))
        if p is not None and p.status == "in" and p.unit:
            u = state.find(p.unit)
            if u is not None and u.status != "destroyed":
                return u
    return None


def without_command(state: MakState, side: str) -> bool:
    """Whether the side had commanders (scenario notes b) and has lost them all."""
    return side in state.crew.command and commander(state, side) is None


def commanded(state: MakState, side: str) -> bool:
    """16.1: a command unit of the side is on the map: an HQ unit or the commander's unit."""
    if any(u.on_map and u.side == side and unit_stats(u.type).command for u in state.units):
        return True
    c = commander(state, side)
    return c is not None and c.on_map


def manned(state: MakState, u: UnitState) -> bool:
    """16.1.1: an unmanned unit marked PC in the scenario is controlled by its pilot."""
    if u.id not in state.crew.controllers:
        return False
    p = pilot_of(state, u)
    return p is not None


# -- escaping (18.2) ---------------------------------------------------------------------------


def escape_roll(dice: Dice, result: str, reason: str) -> tuple[int, bool]:
    """18.2.1: two dice; the pilot is killed on 7+ when the unit is A or M, 4+ when D."""
    roll = sum(dice.roll(2, 6, reason))
    return roll, roll >= ESCAPE_KILL[result]


def pilot_unit_id(p: PilotState) -> str:
    """The id of a pilot's own token on the map: ``M-Pilot3``."""
    return f"{p.side[0].upper()}-Pilot{p.number}"


def bail_out(state: MakState, p: PilotState, hex_: str) -> UnitState:
    """18.2.1: "place the pilot's token on the hex" (a unit of type Pilot, 18.2.2)."""
    uid = pilot_unit_id(p)
    u = state.find(uid)
    if u is None:
        u = UnitState(id=uid, type="Pilot", side=p.side, deploy="escape")
        state.units.append(u)
    u.status, u.hex, u.pilot = "on", hex_, p.number
    p.status, p.unit = "afoot", uid
    return u


def escaped_points(state: MakState) -> dict[str, int]:
    """18.2.2 / 18.2.3 / 18.2.5: the points each side scores for enemy pilots killed (on foot
    or in the escape roll) or captured."""
    out = {"merc": 0, "strahl": 0}
    for p in state.crew.pilots.values():
        if p.status in ("killed", "captured"):  # 18.2.3: a lost pilot is captured
            out[other(p.side)] += pilot_points(p)
    return out


# -- creation (18.3) ---------------------------------------------------------------------------


def recruit_values(ground_die: int, dog_die: int) -> tuple[int, int]:
    """18.3.1: the ground ability and the dog-fighting modifier of a recruit."""
    return CREATION[ground_die][0], CREATION[dog_die][1]


def divide(ground: int, favour: str) -> tuple[int, int]:
    """18.3.1: "The player may divide the value of the ground modifier between attack and
    defense": all to ``attack``, all to ``defence``, or ``even`` (the odd point to attack)."""
    if favour == "attack":
        return ground, 0
    if favour == "defence":
        return 0, ground
    half = ground // 2 if ground >= 0 else -((-ground) // 2)
    return ground - half, half


def raise_amount(die: int, ability: str) -> int:
    """18.3.3: roll on the ability's column "adding one to the die roll. Treat negative
    values as zero, and a roll of seven as a six"."""
    value = CREATION[min(6, die + 1)][1 if ability == "dogfight" else 0]
    return max(0, value)


def raised(current: int, amount: int) -> int:
    """18.3.3: "Any single ability modifier cannot exceed 4"."""
    return min(ABILITY_CAP, current + amount)


def credit_kill(state: MakState, attacker: UnitState, target: UnitState) -> None:
    """18.3.3: count a non-infantry unit destroyed by the attacker's pilot."""
    stats = unit_stats(target.type)
    if stats.infantry or target.type == "Pilot":
        return
    p = pilot_of(state, attacker)
    if p is not None:
        p.kills += 1


def raises_due(p: PilotState) -> int:
    """18.3.3: one raise for every five non-infantry units destroyed, minus those taken."""
    return p.kills // KILLS_PER_RAISE - p.raises
