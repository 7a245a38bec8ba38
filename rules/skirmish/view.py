"""The table view of a skirmish: terrain, teams as bases with their unit, facing arcs, cohesion
rings around each PL, suppression markers, smoke and the measured lines of the Initiative."""

from __future__ import annotations

from collections.abc import Iterator

from rules.core import table
from rules.core.views import (
    Header, NamedPoint, RangeCircle, Seen, SideStyle, TableUnit, TableView, TerrainShape,
    fired_by_marks, harm,
)
from rules.skirmish import cohesion, fire
from rules.skirmish.scenario import TerrainSpec
from rules.skirmish.state import SIDE_NAMES, SkirmishState, TeamState, UnitState

FACTION = {"us": "nato_us", "germans": "nato_de"}
SIDE_STYLES = [
    SideStyle(key="nato_us", label="Americans", letter="A", colour="nato_us"),
    SideStyle(key="nato_de", label="Germans", letter="G", colour="nato_de"),
]
#: Palette keys for our terrain styles (the renderer's pale terrain colours).
STYLE = {"building": "building", "wood": "woods", "hedge": "hedge", "wall": "wall",
         "road": "road", "field": "fields"}
#: How wide a linear piece is drawn (inches): it has no area of its own.
WIDTH = {"road": 1.6, "linear": 0.6}
LEGEND = [
    'Move: infantry 6", guns 3", tanks 12"; cohesion 6" from the PL',
    "To Hit: Green 2+ Trained 3+ Veteran 4+; +1 concealed/GtG/long/moved/reaction, -1 aimed",
    "Saves: infantry 3+ (hard 2+), guns 5+ (3+); 3 FP hits = 1 suppression",
    "Rings: cohesion 6\" round each PL; SUP: suppression markers",
]


def _strip(piece: TerrainSpec) -> list[table.Point]:
    """A thin polygon along a linear piece, so the renderer can draw it."""
    half = WIDTH["road" if piece.kind == "road" else "linear"] / 2
    left, right = [], []
    for a, b in piece.segments:
        span = max(table.distance(a, b), 1e-6)
        nx, ny = -(b[1] - a[1]) / span * half, (b[0] - a[0]) / span * half
        left += [(a[0] + nx, a[1] + ny), (b[0] + nx, b[1] + ny)]
        right += [(a[0] - nx, a[1] - ny), (b[0] - nx, b[1] - ny)]
    return left + right[::-1]


def _terrain(state: SkirmishState) -> list[TerrainShape]:
    out = []
    for piece in state.table.terrain:
        points = list(piece.points) if piece.kind == "area" else _strip(piece)
        label = piece.name if piece.kind != "road" else ""
        out.append(TerrainShape(id=piece.id, kind=STYLE.get(piece.style, "fields"),
                                polygon=points, label=label))
    for i, square in enumerate(state.templates):
        out.append(TerrainShape(id=f"template{i}", kind="template", polygon=list(square),
                                label="template"))
    for i, cloud in enumerate(state.smoke):
        out.append(TerrainShape(id=f"smoke{i}", kind="smoke", polygon=list(cloud.corners),
                                label="smoke"))
    return out


def _markers(state: SkirmishState, unit: UnitState, team: TeamState) -> list[str]:
    marks = ["suppressed"] if team.suppression == 1 else []
    if team.suppression > 1:
        marks.append(f"SUP×{team.suppression}")
    if team.role in ("pl", "cc", "fo"):
        marks.append(team.role.upper())
    if fire.gone_to_ground(state, team):
        marks.append("GtG")
    if unit.overwatch:
        marks.append("OW")
    if state.active == unit.id:
        marks.append("active")
    return marks


def marker_summary(state: SkirmishState, side: str) -> str:
    """The side's markers for ``/game status``: Overwatch, Gone to Ground, suppression."""
    parts = []
    for unit in state.live(side):
        flags = [f for f, on in (("Overwatch", unit.overwatch), ("Gone to Ground", unit.gone_to_ground)) if on]
        sup = [f"{t.id} {t.suppression}" for t in unit.alive_teams if t.suppression]
        if sup:
            flags.append("suppression " + ", ".join(sup))
        if flags:
            parts.append(f"{unit.id} " + ", ".join(flags))
    return "; ".join(parts) or "none"


def counter_label(team_id: str, unit_id: str) -> str:
    """A counter's words: the team and its unit, without a prefix they share (issue 40:
    team ``us-a`` of unit ``us-1`` reads ``us-a·1``, not ``us-a·us-1``; ``1pl-a`` of
    ``1pl`` reads ``1pl-a``)."""
    if team_id.casefold().startswith(unit_id.casefold()):
        return team_id
    shared = 0
    for i, (a, b) in enumerate(zip(team_id.casefold(), unit_id.casefold())):
        if a != b:
            break
        if a in "-_.":
            shared = i + 1  # only whole words of the prefix go
    return f"{team_id}·{unit_id[shared:]}"


def _team(state: SkirmishState, unit: UnitState, team: TeamState) -> TableUnit:
    infantry = team.kind == "infantry"
    facing = team.turret_facing if team.kind == "tank" else team.facing
    return TableUnit(
        id=team.id, label=counter_label(team.id, unit.id), faction=FACTION[unit.side],
        x=team.x, y=team.y, radius=state.table.base_radius, facing=facing,
        arc=None if infantry else 180.0, markers=_markers(state, unit, team),
        eliminated=not team.alive,
    )


def _shown(state: SkirmishState) -> Iterator[tuple[UnitState, TeamState]]:
    """The teams the table shows: alive, and a destroyed unit's last team where it fell."""
    for unit in state.units:
        for team in unit.teams:
            if team.alive or not unit.destroyed:
                yield unit, team


def seen_of(state: SkirmishState) -> Seen:
    """What "what changed" keeps of the picture (``views.seen`` of :func:`build_view`),
    from the state: each team's place, harm and whether it is gone, and who fired."""
    units = {team.id: ((round(team.x, 2), round(team.y, 2)), harm(_markers(state, unit, team)), not team.alive)
             for unit, team in _shown(state)}
    return Seen(units=units, ap={}, fired=fired_by_marks(state.marks or state.last_marks))


def build_view(state: SkirmishState) -> TableView:
    """Everything the table snapshot shows."""
    scen = state.table
    units = [_team(state, u, t) for u, t in _shown(state)]
    circles = [
        RangeCircle(x=u.pl.x, y=u.pl.y, radius=cohesion.RANGE, label=f"{u.id} cohesion")
        for u in state.live() if u.pl is not None and len(u.alive_teams) > 1
    ]
    points = [NamedPoint(name=p.name, x=p.x, y=p.y) for p in scen.points]
    facts = [f"Initiative: {SIDE_NAMES[state.initiative]}"]
    if state.active:
        facts.append(f"Active: {state.active}")
    if state.pending:
        facts.append(f"Asking {SIDE_NAMES[state.pending.side]}: {state.pending.kind}")
    if state.result_text:
        facts = [state.result_text]
    return TableView(
        header=Header(title=scen.title, turn=min(state.turn, state.max_turn),
                      max_turn=state.max_turn, phase=state.phase, facts=facts),
        width=scen.width, height=scen.height, grid=6.0,
        terrain=_terrain(state), units=units, points=points, circles=circles,
        marks=list(state.marks or state.last_marks), sides=list(SIDE_STYLES),
        legend=list(LEGEND), banner=state.result_text if state.phase == "over" and state.result_text else None,
    )
