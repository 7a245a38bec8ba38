"""Places a player names, and a move's end told in words (Moving; Cover & Terrain).

A place is ``x,y``, ``heading:inches``, a team, a named point, or a terrain piece by its name
or id: "Infantry teams move through terrain and obstacles freely", so a team may be sent into
a wood or up to a hedge by name, the rules of the move (its length, Gun teams and Very
Difficult Terrain, tanks' rolls) still deciding whether it goes.
"""

from __future__ import annotations

from rules.core import table
from rules.core.errors import RuleError
from rules.skirmish import prompts
from rules.skirmish.scenario import TerrainSpec
from rules.skirmish.state import SkirmishState, TeamState, other

#: A move "towards" something points within this many degrees of it.
AIM = 25.0


def _piece(state: SkirmishState, text: str) -> TerrainSpec | None:
    """The terrain piece named (or with the id) ``text``, regardless of case."""
    key = text.strip().casefold()
    return next((p for p in state.table.terrain if key in (p.name.casefold(), p.id.casefold())), None)


def _nearest_on(piece: TerrainSpec, origin: table.Point) -> table.Point:
    """The point of a piece's outline (area) or line (hedge, wall, road) nearest ``origin``."""
    if piece.kind == "area":
        return table.closest_point(origin, piece.polygon)
    return min((table.closest_on_segment(origin, a, b) for a, b in piece.segments),
               key=lambda p: table.distance(origin, p))


def _middle(piece: TerrainSpec) -> table.Point:
    """The point half way along a linear piece."""
    half = table.path_length(piece.points) / 2
    for a, b in piece.segments:
        if half <= table.distance(a, b):
            return table.toward(a, b, half)
        half -= table.distance(a, b)
    return piece.points[-1]


def into(piece: TerrainSpec, origin: table.Point, radius: float) -> table.Point:
    """Where a base from ``origin`` goes when sent to ``piece``: wholly inside an area at its
    nearest edge (its middle when already inside, or too small); up to a linear obstacle,
    touching it on this side; onto a road."""
    edge = _nearest_on(piece, origin)
    if piece.kind == "road":
        return edge
    span = table.distance(origin, edge)
    if piece.kind == "linear":
        return origin if span <= radius else table.toward(edge, origin, radius)
    if table.point_in_polygon(origin, piece.polygon) or span < table.EPS:
        return piece.polygon.centroid()
    inside = table.add(edge, table.scale(table.sub(edge, origin), (radius + 0.05) / span))
    return inside if table.point_in_polygon(inside, piece.polygon) else piece.polygon.centroid()


def place_of(state: SkirmishState, text: str, origin: table.Point | None) -> table.Point:
    """A place typed by a player: x,y, heading:inches, a team, a named point or a terrain
    piece (its name or id)."""
    if "," in text:  # x,y needs no names (the common case, and the offers' own)
        return table.parse_place(text, origin, {}, {}).point
    piece = _piece(state, text)
    if piece is not None and ":" not in text:
        if origin is None:  # nothing moves there (a barrage's aim): the piece's middle
            return piece.polygon.centroid() if piece.kind == "area" else _middle(piece)
        return into(piece, origin, state.table.base_radius)
    named = {p.id: (p.x, p.y) for p in state.table.points}
    named |= {p.name: (p.x, p.y) for p in state.table.points}
    teams = {t.id: t.pos for t in state.teams()}
    try:
        return table.parse_place(text, origin, named, teams).point
    except RuleError as exc:  # name the terrain too among the places accepted
        names = [p.name for p in state.table.terrain if p.kind != "road"]
        if names and "not a place here" in str(exc):
            raise RuleError(f"{exc} Terrain by name: {prompts.listed(names)}.") from None
        raise


def _things(state: SkirmishState, team: TeamState) -> list[tuple[str, table.Point]]:
    """What a move may head for: enemy teams, named points and terrain (its nearest part)."""
    out = [(e.id, e.pos) for e in state.teams(other(state.unit_of(team).side))]
    out += [(p.name, (p.x, p.y)) for p in state.table.points]
    out += [(p.name, _nearest_on(p, team.pos)) for p in state.table.terrain if p.kind != "road"]
    return out


def where_to(state: SkirmishState, team: TeamState, end: table.Point) -> str:
    """A move's end in words: ``into Orchard``, ``up to Hedge``, ``towards g1`` (what it
    heads for within 25°, the nearest first) or just the compass way."""
    for piece in state.table.terrain:
        if piece.kind == "area" and table.point_in_polygon(end, piece.polygon) and not (
                table.point_in_polygon(team.pos, piece.polygon)):
            return f"into {piece.name}"
        if piece.kind == "linear" and table.distance(end, _nearest_on(piece, end)) <= state.table.base_radius + 0.1:
            return f"up to {piece.name}"
    way = table.angle_of(table.sub(end, team.pos))
    aimed = [(table.distance(end, p), name) for name, p in _things(state, team)
             if table.distance(team.pos, p) > table.distance(team.pos, end) - 0.5
             and table.angle_between(way, table.angle_of(table.sub(p, team.pos))) <= AIM]
    compass = table.compass_name(way)
    return f"{compass} towards {min(aimed)[1]}" if aimed else compass
