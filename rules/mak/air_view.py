"""What the snapshot shows of the air war and the pilots: the side panel and the aircraft
over a hex under air attack (10.1 duty chart, 10.4.1, 18.1.3)."""

from __future__ import annotations

from typing import Callable

from rules.core.views import HexCounterView, PanelEntry, PanelSection
from rules.mak import pilots
from rules.mak.data import unit_stats
from rules.mak.state import SIDE_NAMES, SIDES, MakState


def assignments_secret(state: MakState) -> bool:
    """10.1.1: the air assignments stay secret until both players are finished assigning."""
    return state.phase == "air" and len(state.air.committed) < len(SIDES)

SPACES = {"ready": "not flying", "air": "Air Combat", "ground": "Ground Combat", "used": "Used"}


def _duty_section(state: MakState, side: str, viewer: str | None = None) -> PanelSection | None:
    flying = [u for u in state.units if u.side == side and u.status == "aloft"]
    if not flying:
        return None
    hidden = assignments_secret(state) and side != viewer  # 10.1.1: secret until both are ready
    entries = []
    for u in flying:
        duty = state.air.duty.get(u.id, "ready")
        where = "being assigned" if hidden else SPACES.get(duty, duty)
        if state.air.strike is not None and u.id in state.air.strike.aircraft:
            where += f" · over {state.air.strike.hex}"  # 10.4.1 1: placed over the hex
        rider = f" + {u.rider.split('-')[-1]}" if u.rider else ""
        entries.append(PanelEntry(label=unit_stats(u.type).short or u.type[:5], faction=side,
                                  text=f"{u.id}{rider} · {where}", dim=duty == "used" and not hidden))
    return PanelSection(title=f"{SIDE_NAMES[side]} duty chart (10.1)", entries=entries)


def _roles(state: MakState, side: str) -> dict[int, str]:
    cmd = state.crew.command.get(side)
    out: dict[int, str] = {}
    if cmd is not None:
        if cmd.primary is not None:
            out[cmd.primary] = "Ld 1"
        if cmd.secondary is not None:
            out[cmd.secondary] = "Ld 2"
    for number in state.crew.controllers.values():
        out[number] = (out.get(number, "") + " PC").strip()
    return out


def _pilot_section(state: MakState, side: str) -> PanelSection | None:
    crew = [p for p in state.crew.pilots.values() if p.side == side]
    if not crew:
        return None
    roles = _roles(state, side)
    entries = []
    for p in sorted(crew, key=lambda x: x.number):
        where = {"in": p.unit or "", "afoot": f"on foot {p.unit}", "killed": "killed", "lost": "lost",
                 "escaped": "escaped", "captured": "captured"}[p.status]
        gone = p.status in ("killed", "lost", "captured")
        unit = state.find(p.unit) if p.unit and p.status == "in" else None
        if unit is not None and unit.status in ("destroyed", "withdrawn"):
            where, gone = f"{unit.id} {unit.status}", True
        role = f" · {roles[p.number]}" if p.number in roles else ""
        entries.append(PanelEntry(label=f"#{p.number}", faction=side, dim=gone,
                                  text=f"{p.name.split()[-1]} {p.attack:+d}/{p.defence:+d}/{p.dogfight:+d} · {where}{role}"))
    if pilots.without_command(state, side):
        entries.append(PanelEntry(label="Ld", text="without a command unit", faction=side, dim=True))
    return PanelSection(title=f"{SIDE_NAMES[side]} pilots (18.1.3)", entries=entries)


def air_panel(state: MakState, viewer: str | None = None) -> list[PanelSection]:
    """The duty charts, then the pilots with their abilities (attack/defence/dog-fight); a
    ``viewer`` sees its own duty chart while the assignments are secret (10.1.1)."""
    out = [_duty_section(state, side, viewer) for side in SIDES] + [_pilot_section(state, side) for side in SIDES]
    return [s for s in out if s is not None]


def air_counters(state: MakState, pos: Callable[[str], tuple[int, int]]) -> list[HexCounterView]:
    """10.4.1 1: the aircraft placed over the hex of an air attack under way."""
    st = state.air.strike
    if st is None:
        return []
    col, row = pos(st.hex)
    return [HexCounterView(id=a, label=unit_stats(state.unit(a).type).short or "Air", col=col, row=row,
                           faction=state.unit(a).side, top=True,
                           markers=["Arm. Disabled"] if state.unit(a).disarmed else [])
            for a in st.aircraft if state.unit(a).status == "aloft"]


def away_units(state: MakState) -> dict[str, str]:
    """Units off the map but still in the game, with where they are: flying (10.0), riding
    in a Hornisse (10.6.2), withdrawn (10.1.4, 16.2.3) or, for a pilot who left the map,
    escaped or captured (18.2.3).  "What changed" says they left, not that they died."""
    out: dict[str, str] = {}
    for u in state.units:
        if u.status == "withdrawn" and u.type == "Pilot":
            p = state.crew.pilots.get(pilots.key(u.side, u.pilot or 0))
            out[u.id] = p.status if p is not None and p.status in ("escaped", "captured") else "withdrawn"
        elif u.status in ("aloft", "aboard", "withdrawn"):
            out[u.id] = u.status
    return out
