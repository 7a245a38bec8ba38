"""The snapshot of a Maschinen Krieger game as a :class:`~rules.core.views.HexMapView`."""

from __future__ import annotations

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
from rules.mak import land_view
from rules.mak.battlefield import battlefield
from rules.mak.data import units
from rules.mak.state import SIDE_NAMES, MakState, UnitState

SIDE_STYLES = [SideStyle(key="merc", label="Mercenary", letter="M", colour="raider"),
               SideStyle(key="strahl", label="Strahl", letter="S", colour="hostile")]


@lru_cache(maxsize=8)
def _static(boards: tuple[int, ...]) -> tuple[list[HexBoardView], list[HexCellView], list[HexSideView]]:
    """Boards, cells and hexsides of a map (the same for every snapshot of a game)."""
    field = battlefield(boards)
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


def build_view(state: MakState, whole: bool = False) -> HexMapView:
    """The hex map of the game: counters, the last marks, the focus on them."""
    field = battlefield(tuple(state.boards))
    boards, cells, sides = _static(tuple(state.boards))

    def pos(label: str) -> tuple[int, int]:
        return to_offset(field.parse(label))

    counters = []
    for u in state.units:
        if not u.on_map:
            continue
        col, row = pos(u.hex or "")
        counters.append(HexCounterView(id=u.id, label=units()[u.type].short or u.type[:5], col=col, row=row,
                                       faction=u.side, markers=markers_of(u) + land_view.counter_markers(state, u),
                                       top=u.id == state.moving or (  # 13.1.2: riders under it
                                           state.moving is None and bool(land_view.counter_markers(state, u))
                                           and not u.aboard)))
    counters += air_counters(state, pos)  # 10.4.1
    last = max((m.order for m in state.marks), default=-1)
    marks = [HexMark(kind=m.kind, hexes=[pos(h) for h in m.hexes if h], text=m.text, side=m.side, by=m.by)
             for m in state.marks if m.order == last]
    focus = [p for m in marks for p in m.hexes]
    who = SIDE_NAMES[state.active]
    header = Header(title=state.title, turn=state.turn if not state.over else state.turns,
                    max_turn=state.turns,
                    phase="game over" if state.over else f"{who} phase" if state.phase != "air" else "Air Commitment",
                    facts=[f"{SIDE_NAMES[s]}: {sum(1 for u in state.units if u.side == s and u.on_map)} on map"
                           for s in ("merc", "strahl")] + land_view.facts(state))
    markers = [HexMarkerView(col=pos(h)[0], row=pos(h)[1], kind="position", text=str(p.rating))
               for h, p in state.positions.items()]
    markers += [HexMarkerView(col=pos(h)[0], row=pos(h)[1], kind="depot") for h in state.depots]
    markers += [HexMarkerView(col=pos(h)[0], row=pos(h)[1], kind="smoke", text=str(n)) for h, n in state.smoke.items()]
    markers += [HexMarkerView(col=pos(h)[0], row=pos(h)[1], kind="fire") for h in state.fire]
    markers += [HexMarkerView(col=pos(h)[0], row=pos(h)[1], kind=k, text=x) for h, k, x in land_view.hex_markers(state)]
    # 19.1.1: a minefield is secret until discovered or entered; the snapshot is public
    markers += [HexMarkerView(col=pos(h)[0], row=pos(h)[1], kind="mine", text=str(m.attack))
                for h, m in state.mines.items() if m.revealed]
    markers += [HexMarkerView(col=pos(h)[0], row=pos(h)[1], kind="amu", text=str(n) if n > 1 else "")
                for h, n in state.amus.items()]  # 16.2.2
    return HexMapView(header=header, boards=boards, cells=cells, hexsides=sides, counters=counters,
                      markers=markers, marks=marks, focus=focus, whole=whole or not focus, sides=SIDE_STYLES,
                      panel=air_panel(state), away=away_units(state))
