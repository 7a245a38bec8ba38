"""The table view of a raid: terrain, targets, bases with arcs, ranges and measured lines."""

from __future__ import annotations

from rules.commando import board, scoring
from rules.commando.activation import SEARCHLIGHT_RANGE
from rules.commando.movement import faction
from rules.commando.shooting import PILLBOX_ARC, PILLBOX_RANGE
from rules.commando.state import SIDE_NAMES, RaidState, UnitState
from rules.core import table
from rules.core.views import (
    Header, NamedPoint, RangeCircle, SideStyle, TableUnit, TableView, TerrainShape,
)

SIDE_STYLES = [
    SideStyle(key="commando", label="Commandos", letter="C", colour="commando"),
    SideStyle(key="german", label="Germans", letter="G", colour="german"),
]

LEGEND = [
    'Move 6" per action (vehicles 12"); stop 6" from enemies',
    'Shoot 12" (pillboxes from 3"): 4+ hits, save 4+',
    "-1 cover/armoured/pillbox, -1 over 6\"",
    'Searchlight: nearest commando within 12" -2 activation',
    "Wire: impassable, 2 actions to remove",
]


def _markers(state: RaidState, unit: UnitState) -> list[str]:
    """Short labels on a base: what it is and what it may still do this turn."""
    marks: list[str] = []
    if unit.officer:
        marks.append("officer")
    if unit.kind in ("demolition", "mortar", "assault"):
        marks.append(unit.kind)
    if unit.kind in ("armoured_car", "half_track"):
        marks.append("armoured")
    if unit.alive and unit.side == state.side and state.phase == "actions" and unit.actions:
        marks.append(f"{unit.actions} act")
    if unit.directing:
        marks.append(f"directs {unit.directing}")
    return marks


def build_view(state: RaidState) -> TableView:
    """Everything the table snapshot shows."""
    scen = state.table
    terrain = [
        TerrainShape(id=t.id, kind=t.kind, polygon=list(t.polygon), circle=t.circle,
                     label=t.name)
        for t in board.terrain(state)
    ]
    terrain += [
        TerrainShape(
            id=t.id, kind="rubble" if t.id in state.destroyed else "target",
            polygon=list(t.polygon), circle=t.circle,
            label=(f"{t.name} ✖" if t.id in state.destroyed else f"{t.name} ({t.points})"),
        )
        for t in scen.targets
    ]
    units = [
        TableUnit(
            id=u.id, label=u.id, faction=faction(u.side), x=u.x, y=u.y,
            radius=board.BASE_RADIUS, facing=u.facing,
            arc=PILLBOX_ARC if u.kind == "pillbox" else None,
            markers=_markers(state, u), eliminated=not u.alive,
        )
        for u in state.units
    ]
    circles = [
        RangeCircle(x=u.x, y=u.y, radius=SEARCHLIGHT_RANGE, label=f'{u.id} 12"')
        for u in state.alive("germans") if u.kind == "searchlight"
    ] + [
        RangeCircle(x=u.x, y=u.y, radius=PILLBOX_RANGE, label=f'{u.id} 3"')
        for u in state.alive("germans") if u.kind == "pillbox"
    ]
    points = [NamedPoint(name=p.name, x=p.x, y=p.y) for p in scen.points]
    points += [
        NamedPoint(name=t.id, x=c[0], y=c[1])
        for t in scen.targets for c in [table.shape_centre(t.shape())]
    ]
    facts = [scoring.standing(state), f"Targets {len(state.destroyed)}/{len(scen.targets)}"]
    return TableView(
        header=Header(
            title=scen.title, turn=min(state.turn, state.max_turn), max_turn=state.max_turn,
            phase=f"{SIDE_NAMES[state.side]} · {state.phase}", facts=facts,
        ),
        width=scen.width, height=scen.height, grid=6.0,
        terrain=terrain, units=units, points=points, circles=circles,
        marks=list(state.marks or state.last_marks),
        sides=list(SIDE_STYLES), legend=list(LEGEND),
    )
