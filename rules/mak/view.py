"""The snapshot of a Maschinen Krieger game as a :class:`~rules.core.views.HexMapView`."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from rules.core.hexes import to_offset
from rules.core.views import (
    Header,
    HexBoardView,
    HexCellView,
    HexCounterView,
    HexMapView,
    HexMark,
    HexMarkerView,
    HexSideView,
    SideStyle,
)
from rules.mak.air_view import air_counters, air_panel, away_units
from rules.mak import concealment, land_view
from rules.mak.unseen import masked
from rules.mak.battlefield import battlefield, field_key
from rules.mak.data import unit_stats
from rules.mak.state import SIDE_NAMES, MakState, UnitState

SIDE_STYLES = [SideStyle(key="merc", label="Mercenary", letter="M", colour="raider"),
               SideStyle(key="strahl", label="Strahl", letter="S", colour="hostile")]


@lru_cache(maxsize=8)
def _static(boards: tuple[int, ...], scenario_key: str = "") -> tuple[list[HexBoardView], list[HexCellView], list[HexSideView]]:
    """Boards, cells and hexsides of a map (the same for every snapshot of a game)."""
    field = battlefield(boards, scenario_key)
    board_views = [HexBoardView(board=p.board, col=p.col, row=p.row, columns=p.columns, rows=p.rows)
                   for p in field.layout.boards]
    cells = []
    for h in field.layout.all_hexes():
        col, row = to_offset(h)
        number = field.layout.number_of(h)
        assert number is not None
        cells.append(HexCellView(col=col, row=row, number=number.local,
                                 terrain=field.terrain.get(h, "clear"),
                                 elevation=field.elevation.get(h, 0), partial=h in field.partial,
                                 road=h in field.roads))
    sides = []
    for h, direction, kind in field.side_list:
        col, row = to_offset(h)
        sides.append(HexSideView(col=col, row=row, direction=direction, kind=kind))
    return board_views, cells, sides


def markers_of(u: UnitState) -> list[str]:
    """The marker words shown on a counter."""
    out = []
    if u.disarmed:
        out.append("Arm. Disabled")
    if u.immobilized:
        out.append("Immobilized")
    if u.morale != "ok":
        out.append("Morale Broken")
    if u.amu:
        out.append("AMU")  # 16.2.3: stacked under its carrier
    for kind, fired in sorted(u.fired.items()):
        if kind not in u.weapons_out:
            out.append(f"{'R' if kind == 'R' else 'PF'}{fired}")  # 11.2.5 count token
    return out


Pos = Callable[[str], tuple[int, int]]


def build_view(state: MakState, whole: bool = False, viewer: str | None = None) -> HexMapView:
    """The hex map of the game: counters, the last marks, the focus on them.  ``viewer``
    None is the public picture; a side sees its own secrets on top (``view_for``): its units
    under concealment markers (15.4.1) and its minefields not yet found (19.1.1)."""
    field = battlefield(tuple(state.boards), field_key(state.scenario))
    boards, cells, sides = _static(tuple(state.boards), field_key(state.scenario))

    def pos(label: str) -> tuple[int, int]:
        return to_offset(field.parse(label))

    secret = {u.id: concealment.public_name(state, u) for u in concealment.hidden_units(state)
              if u.side != viewer}
    hidden_stacks = sorted({(u.side, u.hex or "") for u in state.units if u.id in secret})
    counters = _seen_counters(state, pos, secret) + _marker_counters(state, pos, hidden_stacks)
    counters += air_counters(state, pos)  # 10.4.1
    marks = _last_marks(state, pos, secret)
    focus = [p for m in marks for p in m.hexes]
    return HexMapView(header=_header(state, secret), boards=boards, cells=cells, hexsides=sides,
                      counters=counters, markers=_hex_markers(state, pos, viewer),
                      marks=marks, focus=focus, whole=whole or not focus, sides=SIDE_STYLES,
                      panel=air_panel(state, viewer), away=away_units(state),
                      legend=_legend(state, viewer, bool(hidden_stacks)),
                      lost=[u.id for u in state.units if u.status == "destroyed"])


def _seen_counters(state: MakState, pos: Pos, secret: dict[str, str]) -> list[HexCounterView]:
    """The counters of the units on the map the viewer may see (not those under an enemy
    concealment marker, 15.4.1)."""
    counters = []
    for u in state.units:
        if not u.on_map or u.id in secret:
            continue
        col, row = pos(u.hex or "")
        cover = [f"Concealed" for _ in concealment.markers_at(state, u.side, u.hex or "")[:1]]
        riders = land_view.counter_markers(state, u)
        counters.append(HexCounterView(id=u.id, label=unit_stats(u.type).short or u.type[:5], col=col, row=row,
                                       faction=u.side, markers=markers_of(u) + riders + cover,
                                       top=u.id == state.moving or (  # 13.1.2: riders under it
                                           state.moving is None and bool(riders) and not u.aboard)))
    return counters


def _marker_counters(state: MakState, pos: Pos,
                     hidden_stacks: list[tuple[str, str]]) -> list[HexCounterView]:
    """15.4.3: one counter a concealment marker, whatever is under them."""
    counters = []
    for side, label in hidden_stacks:
        col, row = pos(label)
        counters += [HexCounterView(id=m, label="?", col=col, row=row, faction=side, cover=True)
                     for m in concealment.markers_at(state, side, label)]
    return counters


def _last_marks(state: MakState, pos: Pos, secret: dict[str, str]) -> list[HexMark]:
    """The marks of the last thing that happened, hidden units' names masked (15.4.1)."""
    last = max((m.order for m in state.marks), default=-1)
    return [HexMark(kind=m.kind, hexes=[pos(h) for h in m.hexes if h], text=masked(m.text, secret),
                    side=m.side, by=[secret.get(b, b) for b in m.by])
            for m in state.marks if m.order == last]


def _phase_name(state: MakState) -> str:
    """The header's phase: set-up (19.1, 15.0: both at once), air commitment or a side's phase."""
    if state.over:
        return "game over"
    if state.setup:
        return "Set-up"
    if state.phase == "air":
        return "Air Commitment"
    return f"{SIDE_NAMES[state.active]} phase"


def _header(state: MakState, secret: dict[str, str]) -> Header:
    """Title, turn, phase and the count of each side's counters on the map."""
    return Header(title=state.title, turn=state.turn if not state.over else state.turns,
                  max_turn=state.turns, phase=_phase_name(state),
                  facts=[f"{SIDE_NAMES[s]}: {_on_map(state, s, secret)} on map"
                         for s in ("merc", "strahl")] + land_view.facts(state))


def _hex_markers(state: MakState, pos: Pos, viewer: str | None) -> list[HexMarkerView]:
    """Positions, depots, smoke, fire, the land markers, minefields and the AMUs (16.2.2) in
    their hexes."""
    def at(h: str, kind: str, text: str = "") -> HexMarkerView:
        return HexMarkerView(col=pos(h)[0], row=pos(h)[1], kind=kind, text=text)

    markers = [at(h, "position", str(p.rating)) for h, p in state.positions.items()]
    markers += [at(h, "depot") for h in state.depots]
    markers += [at(h, "smoke", str(n)) for h, n in state.smoke.items()]
    markers += [at(h, "fire") for h in state.fire]
    markers += [at(h, k, x) for h, k, x in land_view.hex_markers(state)]
    markers += _mine_markers(state, viewer, at)
    return markers + [at(h, "amu", str(n) if n > 1 else "") for h, n in state.amus.items()]


def _mine_markers(state: MakState, viewer: str | None,
                  at: Callable[[str, str, str], HexMarkerView]) -> list[HexMarkerView]:
    """19.1.1: a minefield is secret until discovered or entered: the public sees found ones
    and where artillery was seen to scatter mines (19.1.6, power unknown); its owner all."""
    markers = []
    for h, m in state.mines.items():
        if m.revealed:
            kind, text = "mine", str(m.attack)
        elif m.owner == viewer:
            kind, text = "mine_own", str(m.attack)
        elif m.suspected or h in state.scattered:  # 19.1.6: a lost round looks the same (issue 45)
            kind, text = "mine", "?"
        else:
            continue
        markers.append(at(h, kind, text))
    return markers


def _legend(state: MakState, viewer: str | None, hidden: bool) -> list[str]:
    """The legend lines this picture needs: concealment markers (15.0), own minefields (19.1.1)."""
    legend = ["? a concealment marker: what is under it is unseen (15.0)"] if hidden else []
    if viewer is not None and any(m.owner == viewer and not m.revealed for m in state.mines.values()):
        legend.append("OWN MINE: your minefield, unknown to your opponent (19.1.1)")
    return legend


def _on_map(state: MakState, side: str, secret: dict[str, str]) -> int:
    """The header's count: units seen, and one for each marker over unseen ones (15.4.3)."""
    seen = sum(1 for u in state.units if u.side == side and u.on_map and u.id not in secret)
    hid = {u.hex for u in state.units if u.id in secret and u.side == side}
    return seen + sum(len(concealment.markers_at(state, side, h or "")) for h in hid)
