"""What vehicles (13.0) and artillery (17.0) add to the snapshot: counter markers for the
transported and their vehicles, the pending requests' targets with their blast template, and
the batteries' rounds in the header."""

from __future__ import annotations

from rules.core.hexes import within
from rules.mak.artillery import chart, rounds_left
from rules.mak.battlefield import battlefield, field_key
from rules.mak.state import MakState, UnitState
from rules.mak.vehicles import passengers


def counter_markers(state: MakState, u: UnitState) -> list[str]:
    """``Transported`` on a rider (13.1.2: "stacked under the vehicle"), ``Transporting`` on
    its vehicle."""
    out = []
    if u.aboard:
        out.append("Transported")
    if passengers(state, u.id):
        out.append("Transporting")
    return out


def hex_markers(state: MakState) -> list[tuple[str, str, str]]:
    """``(hex, kind, text)``: each pending request's target hex (``artillery``, the battery
    and rounds) and the other hexes of its blast template (``artillery_zone``, 5.5.2)."""
    field = battlefield(tuple(state.boards), field_key(state.scenario))
    out: list[tuple[str, str, str]] = []
    seen: set[str] = set()
    for r in state.requests:
        if r.state != "pending":
            continue
        b = next(x for x in state.batteries if x.id == r.battery)
        centre = field.parse(r.hex)
        out.append((r.hex, "artillery", f"×{r.rounds}"))
        seen.add(r.hex)
        for h in within(centre, chart().types[b.type].radius)[1:]:
            label = field.label(h) if field.contains(h) else ""
            if label and label not in seen:
                seen.add(label)
                out.append((label, "artillery_zone", ""))
    return out


def facts(state: MakState) -> list[str]:
    """Header facts: each battery's rounds left (``M-Art1: 2/4``)."""
    return [f"{b.id}: {b.total - b.fired}/{b.total} rds"
            + (f", {rounds_left(state, b)} now" if b.side == state.active else "")
            for b in state.batteries]
