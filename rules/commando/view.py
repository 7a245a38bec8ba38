"""The table view of a raid: terrain, targets, bases with arcs, ranges and measured lines."""

from __future__ import annotations

from rules.commando import board, scoring
from rules.commando.activation import SEARCHLIGHT_RANGE
from rules.commando.movement import ENEMY_ZONE, faction
from rules.commando.shooting import PILLBOX_ARC, PILLBOX_RANGE
from rules.commando.state import SIDE_NAMES, RaidState, UnitState
from rules.core import table
from rules.core.views import (
    Header, MarkerStyle, NamedPoint, RangeCircle, SideStyle, TableUnit, TableView, TerrainShape,
)

SIDE_STYLES = [
    SideStyle(key="commando", label="Commandos", letter="C", colour="#2f5f99"),
    SideStyle(key="german", label="Germans", letter="G", colour="#5c5c5c"),
]

#: Short words on a base's label (a label must stay short on a phone), and the legend's.
MARKER_STYLES = [
    MarkerStyle(key=key, text=text, words=key)
    for key, text in (("officer", "Off"), ("assault", "Asl"), ("demolition", "Dem"),
                      ("mortar", "Mor"), ("armoured", "Arm"), ("suppressed", "SUP"),
                      ("pinned", "Pin"), ("wounded", "Wnd"), ("carrying", "Car"),
                      ("searchlight", "SL"))
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
            label=(f"{t.name}: destroyed" if t.id in state.destroyed else f"{t.name} ({t.points})"),
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
    # Searchlight rings are a reminder, not news: a light outline.
    circles = [
        RangeCircle(x=u.x, y=u.y, radius=SEARCHLIGHT_RANGE, label=f'{u.id} 12"', light=True)
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
    over = state.finished
    # The 6" line (movement): around the units of the side not moving, the distance that
    # decides where every move of the side moving stops.
    still = "germans" if state.side == "commandos" else "commandos"
    zones = [RangeCircle(x=u.x, y=u.y, radius=ENEMY_ZONE) for u in state.alive(still)]
    return TableView(
        header=Header(
            title=scen.title, turn=min(state.turn, state.max_turn), max_turn=state.max_turn,
            phase="Raid over" if over else f"{SIDE_NAMES[state.side]} · {state.phase}",
            facts=facts,
        ),
        width=scen.width, height=scen.height, grid=6.0,
        terrain=terrain, units=units, points=points, circles=circles,
        zones=[] if over else zones,
        marks=list(state.marks or state.last_marks),
        sides=list(SIDE_STYLES), legend=list(LEGEND), marker_styles=MARKER_STYLES,
        banner=scoring.headline(state) if over else None,
        # The phone-width picture shows the last measured lines, else the side to act.
        focus=[] if over else [u.id for u in state.alive(state.side)],
    )
