"""A hex map view for the renderer tests: two boards side by side with every kind of thing."""

from __future__ import annotations

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


def _terrain(col: int, row: int) -> tuple[str, int, bool]:
    if 3 <= col <= 6 and 4 <= row <= 9:
        return "forest", 0, False
    if 10 <= col <= 13 and 12 <= row <= 16:
        return "hill", 1, False
    if col in (8, 9) and 18 <= row <= 22:
        return "building", 0, (row == 22)
    if col == 30:
        return "water", 0, False
    return "clear", 0, False


def hex_view(focus: bool = True) -> HexMapView:
    """Boards 5 and 6 (20 x 30 each), a forest, a hill, buildings, a river, ridges, units."""
    boards = [HexBoardView(board=5, col=0, row=0, columns=20, rows=30),
              HexBoardView(board=6, col=20, row=0, columns=20, rows=30)]
    cells = []
    for b in boards:
        for c in range(b.columns):
            for r in range(b.rows):
                terrain, level, partial = _terrain(b.col + c, b.row + r)
                cells.append(HexCellView(col=b.col + c, row=b.row + r, number=f"{c + 1:02d}{r + 1:02d}",
                                         terrain=terrain, elevation=level, partial=partial,
                                         road=(r == 25)))
    sides = [HexSideView(col=7, row=r, direction=d, kind="ridge") for r in range(5, 10) for d in (1, 2)]
    sides.append(HexSideView(col=15, row=3, direction=3, kind="wall"))
    counters = [
        HexCounterView(id="afs1", label="AFS", col=9, row=7, faction="merc", top=True),
        HexCounterView(id="afs2", label="SAFS", col=9, row=7, faction="merc"),
        HexCounterView(id="afs3", label="AFS", col=9, row=7, faction="merc"),
        HexCounterView(id="pka1", label="PKA", col=5, row=6, faction="strahl",
                       markers=["Immobilized"]),
        HexCounterView(id="gus1", label="Gus", col=6, row=8, faction="strahl",
                       markers=["Arm. Disabled"], facing=5),
        HexCounterView(id="inf1", label="Inf", col=12, row=14, faction="merc", markers=["R3"]),
        HexCounterView(id="far", label="PKA", col=35, row=25, faction="strahl"),
    ]
    markers = [HexMarkerView(col=7, row=11, kind="smoke", text="2"),
               HexMarkerView(col=8, row=19, kind="fire")]
    marks = [HexMark(kind="move", hexes=[(12, 9), (11, 9), (10, 8), (9, 8), (9, 7)], text="AFS moved 3"),
             HexMark(kind="fire", hexes=[(9, 7), (5, 6)], text="hit: M (needs 5, rolled 2+3)")]
    return HexMapView(
        header=Header(title="Ma.K. test map", turn=2, max_turn=8, phase="Mercenary phase",
                      facts=["Mercenary: 3 units", "Strahl: 3 units"]),
        boards=boards, cells=cells, hexsides=sides, counters=counters, markers=markers,
        marks=marks, focus=[(9, 7), (5, 6)] if focus else [],
        sides=[SideStyle(key="merc", label="Mercenary", letter="M", colour="raider"),
               SideStyle(key="strahl", label="Strahl", letter="S", colour="hostile")],
    )
