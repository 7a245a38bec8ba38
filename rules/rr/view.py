"""The state as an area-map picture (:class:`rules.core.views.AreaMapView`) and status lines."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal

from rules.core.views import (
    AreaMapView, AreaView, Change, CounterView, Header, LineFeature, Mark, MarkerStyle, Seen,
    SideStyle, fired_by_marks, harm,
)
from rules.rr.board import Board, is_hind, is_leader, is_rider, is_t12
from rules.rr.scenario import AreaSpec, UnitSpec
from rules.rr.state import SIDE_NAMES, RRState, UnitState, says

FACTION = {"de": "nato_de", "us": "nato_us", "su": "soviet"}
CONTROL = {"nato": "nato_de", "soviet": "soviet"}
SIDE_STYLES = [
    SideStyle(key="nato_de", label="NATO (W. German)", letter="G", colour="#5d6d7e"),
    SideStyle(key="nato_us", label="NATO (US)", letter="A", colour="#3f7a3a"),
    SideStyle(key="soviet", label="Soviet", letter="S", colour="#b8322a"),
]
#: Marker pills particular to this game (the generic ones come from the renderer).
MARKER_STYLES = [
    MarkerStyle(key="hind", text="HIND", fill="#7d5ba6", words="Hind (10.2)"),
    MarkerStyle(key="airstrike", text="AIR", fill="#4aa3df", words="airstrike (10.1)"),
    MarkerStyle(key="kastet", text="KAS", fill="#4aa3df", words="Kastet"),
]
PHASES = {"deploy": "Setup", "rally": "Rally", "place": "Rally: placement", "ops": "Operations",
          "route": "Route", "over": "Game over"}


def facts(b: Board) -> list[str]:
    """Header facts: initiative, who acts, airstrikes, the Hind."""
    s = b.s
    if s.phase == "deploy":
        return [f"{says(s.active, 'sets', 'set')} up"]
    air = "/".join(SIDE_NAMES[x] for x in ("nato", "soviet") if s.airstrike.get(x)) or "none"
    out = [f"Initiative: {SIDE_NAMES[s.initiative]}", f"Air: {air}",
           f"Hind: {'ready' if s.hind_ok else 'no'}"]
    if s.phase != "over":
        who = s.pending[0].side if s.pending else s.active
        out.insert(1, f"To act: {SIDE_NAMES[who]}")
    return out


def entrance_labels(b: Board) -> dict[str, str]:
    """Reinforcement entrances (11.0): "NATO 2, 4" on each area later entries use (every
    turn an entry uses it, not only the first)."""
    turns: dict[str, dict[str, list[int]]] = {}
    for dep in b.sc.deployments:
        if dep.mode == "enter":
            for area in dep.areas:
                by_side = turns.setdefault(area, {})
                if dep.turn not in by_side.setdefault(dep.side, []):
                    by_side[dep.side].append(dep.turn)
    return {area: " / ".join(f"{SIDE_NAMES[side]} {', '.join(str(t) for t in sorted(ts))}"
                             for side, ts in by_side.items())
            for area, by_side in turns.items()}


#: NATO's control marker on an area no NATO unit stands in (12.0: "the last player to have
#: been the sole occupant"): NATO's, not a German one (issue 25 point 13).
NATO_HELD = SideStyle(key="nato", label="NATO (held, none there)", letter="N", colour="#4b5a8a")


def controller_key(state: RRState, b: Board, area: str) -> str | None:
    """Whose marker shows on an objective: the side that controls it, in the colours of the
    nation most present there (a NATO area held by US troops shows the US letter), NATO's
    own when no NATO unit is there."""
    owner = state.control.get(area)
    if owner != "nato":
        return CONTROL.get(owner or "")
    nations = [b.spec(u.id).nation for u in state.units.values()
               if u.place == "map" and u.area == area and b.spec(u.id).nation in ("de", "us")]
    if not nations:
        return NATO_HELD.key
    return "nato_us" if nations.count("us") > nations.count("de") else "nato_de"


def short_values(b: Board, uid: str) -> str:
    """The face-up RCM-ACM-DF, e.g. ``2-3-7`` (``*``: cannot assault, 7.3.5); none for a
    leader or an ATGM team riding with its company (no combat values of their own: an ATGM
    adds +1 RCM to its company's, 9.3, 9.4)."""
    spec = b.spec(uid)
    if is_leader(spec) or is_rider(spec):
        return ""
    v = b.values(uid)
    return f"{v.rcm}-{'*' if v.acm is None else v.acm}-{v.df}"


def away_units(b: Board) -> dict[str, str]:
    """Counters off the map but not eliminated (``ViewBase.away``), with why: the Hind
    between its flights ("Remove the Hind from the game map if it is Suppressed.  It will
    return normally the following turn", 10.2; it also flies home each turn's end), and the
    Kastet fired while its T-12 lives (9.4: "it can only fire one time and it then removed").
    Airstrikes are no counters here (10.1)."""
    out: dict[str, str] = {}
    for unit in b.s.units.values():
        spec = b.spec(unit.id)
        if is_hind(spec) and unit.place == "pool":
            out[unit.id] = "may return this turn, 10.2" if b.s.hind_ok else "back next turn, 10.2"
        host = b.s.units.get(spec.attached_to or "")
        if spec.special == "kastet" and unit.place == "gone" and host and is_t12(b.spec(host.id)) \
                and host.place == "map":
            out[unit.id] = "fired, 9.4"
    return out


def _placed(b: Board) -> Iterator[tuple[UnitState, UnitSpec, str | None, list[str]]]:
    """Each unit a counter shows (on the map, or attached to a host): the unit, its spec,
    its area and its markers."""
    state = b.s
    for unit in state.units.values():
        if unit.place not in ("map", "attached"):
            continue
        spec = b.spec(unit.id)
        host = state.units.get(unit.attached_to or "")
        area = unit.area if unit.place == "map" else (host.area if host else None)
        markers: list[str] = [unit.status] if unit.status != "ok" else []
        if is_hind(spec):
            markers.append("hind")
        yield unit, spec, area, markers


def _marks(b: Board) -> list[Mark]:
    """The last action's marks (an eliminated unit is drawn as a tag where it fell, not as
    a mark), each at the centres of the areas it names that are on the map."""
    sc, marks = b.sc, []
    for rec in b.s.marks:
        if rec.kind == "eliminated":
            continue
        points = [sc.area_by_id[a].centre for a in rec.areas if a in sc.area_by_id]
        if points:
            side = CONTROL.get(rec.side or "")
            marks.append(Mark(kind=rec.kind, points=points, text=rec.text, side=side, by=rec.units))
    return marks


def seen_of(state: RRState) -> Seen:
    """What "what changed" keeps of the picture (``views.seen`` of :func:`build_view`),
    from the state: each counter's area, harm and AP, and who the marks show firing."""
    b = Board(state)
    units: dict[str, tuple[object, frozenset[str], bool]] = {}
    ap: dict[str, int | None] = {}
    for unit, _, area, markers in _placed(b):
        units[unit.id] = (area, harm(markers, unit.reduced), area is None)
        ap[unit.id] = unit.ap
    return Seen(units=units, ap=ap, fired=fired_by_marks(_marks(b)))


def fired_of(state: RRState) -> frozenset[str]:
    """Who the picture's marks show firing (``views.fired_in`` of :func:`build_view`)."""
    return fired_by_marks(_marks(Board(state)))


class Pieces:
    """The parts of a scenario's picture that only the scenario decides, made once (issue 41:
    building the 30 areas' and the rivers' models again was half of every view's cost): the
    reinforcement entrances, the main objective's ring, the map's lines, and each area's
    view by who controls it.  Views share these models; a view is never changed once built."""

    def __init__(self, b: Board) -> None:
        self.scenario = b.sc
        self.entrances = entrance_labels(b)
        self.ring = frozenset(b.ring())
        self.lines = [LineFeature(kind="river", points=list(r)) for r in b.sc.rivers] + \
            [LineFeature(kind="bridge", points=list(p)) for p in b.sc.bridges]
        self._areas: dict[tuple[str, str | None], AreaView] = {}

    def objective(self, area: str) -> Literal["main", "secondary"] | None:
        """Whether ``area`` is the main objective's ring or a secondary objective (12.0)."""
        return "main" if area in self.ring else "secondary" if area in self.scenario.secondary_objectives else None

    def area(self, a: AreaSpec, controller: str | None) -> AreaView:
        """The view of area ``a`` with ``controller``'s marker (None: no marker)."""
        key = (a.id, controller)
        view = self._areas.get(key)
        if view is None:
            view = self._areas[key] = AreaView(
                id=a.id, polygon=list(a.polygon), centre=a.centre, terrain=a.terrain, tm=a.tm,
                objective=self.objective(a.id), controller=controller, entrance=self.entrances.get(a.id))
        return view


_PIECES: dict[str, Pieces] = {}


def pieces_of(b: Board) -> Pieces:
    """The :class:`Pieces` of ``b``'s scenario, made once for that scenario object (a club's
    scenario replaced under the same key gets its own)."""
    pieces = _PIECES.get(b.sc.key)
    if pieces is None or pieces.scenario is not b.sc:
        pieces = _PIECES[b.sc.key] = Pieces(b)
    return pieces


def build_view(state: RRState) -> AreaMapView:
    """Everything a snapshot shows, as a pure function of the state."""
    b = Board(state)
    sc = b.sc
    parts = pieces_of(b)
    areas = [parts.area(a, controller_key(state, b, a.id) if parts.objective(a.id) else None) for a in sc.areas]
    lines = parts.lines
    counters = [
        CounterView(
            id=unit.id, label=unit.id, area=area, faction=FACTION[spec.nation],
            reduced=unit.reduced, ap=unit.ap, ap_max=b.max_ap(unit.id), markers=markers,
            attached_to=unit.attached_to, values=short_values(b, unit.id),
            counted=unit.attached_to is None and not is_leader(spec),  # 9.3, 9.7-9.9: not units of the tally
        )
        for unit, spec, area, markers in _placed(b)
    ]
    marks = _marks(b)
    gone = [Change(id=rec.text, what="eliminated", where=rec.areas[0])
            for rec in state.marks if rec.kind == "eliminated" and rec.areas]
    header = Header(title=sc.title, turn=state.turn or None, max_turn=state.max_turn,
                    phase=PHASES[state.phase], facts=facts(b))
    legend = [f"Main: {sc.main_objective} and its ring; secondary: "
              f"{'/'.join(sc.secondary_objectives)} (12.0)"]
    legend.append("2-3-7 on a counter: RCM-ACM-DF of its face up (2.0; * cannot assault; "
                  "none on leaders and ATGMs)")
    if sc.stand_ins:
        legend.append("Map and counter values: stand-ins")
    if any(a.tm for a in areas):
        legend.append("TM+1: terrain modifier of the area, added to the defender's DF (5.2)")
    return AreaMapView(header=header, width=sc.width, height=sc.height, areas=areas, lines=lines,
                       counters=counters, marks=marks, legend=legend,
                       sides=SIDE_STYLES + ([NATO_HELD] if any(a.controller == NATO_HELD.key for a in areas) else []),
                       marker_styles=MARKER_STYLES, changes=gone, away=away_units(b),
                       banner=state.result if state.phase == "over" and state.result else None)
