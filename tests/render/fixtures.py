"""Hand-built views of realistic size for the renderer tests (no rules engine needed).

* :func:`area_view`: 30 jittered areas in a 6 x 5 tiling, a river with two bridges, 35
  counters (two areas crowded with 7 and 8), leaders attached, every marker, and an
  impulse's marks (a move, a fire line, an assault).
* :func:`network_view`: 20 spaces of every type, routes by kind, forces, tracks, and a battle
  panel of 4 raiders against 5 hostiles.
* :func:`table_view`: a 48" x 36" table with buildings, wire, a pillbox arc, 25 units, and
  measured moves and shots.
"""

from __future__ import annotations

import random

from rules.core.views import (
    AreaMapView,
    AreaView,
    BattlePanel,
    BattleShot,
    CounterView,
    ForceView,
    Header,
    LineFeature,
    Mark,
    NamedPoint,
    NetworkView,
    RangeCircle,
    RouteView,
    SideStyle,
    SpaceView,
    TableUnit,
    TableView,
    TerrainShape,
    Track,
    UnitChip,
)

COLS, ROWS = 6, 5
CELL_W, CELL_H = 170.0, 150.0

RR_SIDES = [
    SideStyle(key="nato_de", label="NATO (W. German)", letter="G", colour="nato_de"),
    SideStyle(key="nato_us", label="NATO (US)", letter="A", colour="nato_us"),
    SideStyle(key="soviet", label="Soviet", letter="S", colour="soviet"),
]


def _grid_vertices(seed: int) -> list[list[tuple[float, float]]]:
    rng = random.Random(seed)
    rows = []
    for j in range(ROWS + 1):
        row = []
        for i in range(COLS + 1):
            x, y = i * CELL_W, j * CELL_H
            if 0 < i < COLS:
                x += rng.uniform(-35, 35)
            if 0 < j < ROWS:
                y += rng.uniform(-30, 30)
            row.append((round(x, 1), round(y, 1)))
        rows.append(row)
    return rows


def area_view(crowded: bool = True) -> AreaMapView:
    """A Tannenbruck-sized area map with 35 counters and one impulse of marks."""
    v = _grid_vertices(7)
    terrains = ["clear", "woods", "fields", "city", "hills"]
    areas: list[AreaView] = []
    for j in range(ROWS):
        for i in range(COLS):
            n = j * COLS + i + 1
            a, b, c, d = v[j][i], v[j][i + 1], v[j + 1][i + 1], v[j + 1][i]
            # A mid-edge vertex on the top edge makes the areas less boxy.
            top = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2 - (8 if j else 0))
            cx = (a[0] + b[0] + c[0] + d[0]) / 4
            cy = (a[1] + b[1] + c[1] + d[1]) / 4 - 22
            terrain = "city" if n in (14, 15, 20, 21) else terrains[(n * 7) % 5]
            areas.append(AreaView(
                id=str(n), polygon=[a, top, b, c, d], centre=(round(cx, 1), round(cy, 1)),
                terrain=terrain, tm=1 if terrain in ("woods", "city") else 0,
                objective="main" if n == 20 else ("secondary" if n in (26, 28, 29, 30) else None),
                controller="soviet" if n in (20, 26) else ("nato_de" if n == 29 else None),
            ))
    river = [(3.5 * CELL_W, 0.0), (3.3 * CELL_W, 1.5 * CELL_H), (3.6 * CELL_W, 3.2 * CELL_H),
             (3.4 * CELL_W, ROWS * CELL_H)]
    lines = [
        LineFeature(kind="river", points=river, label="Aller"),
        LineFeature(kind="bridge", points=[(3.2 * CELL_W, 1.45 * CELL_H), (3.45 * CELL_W, 1.55 * CELL_H)]),
        LineFeature(kind="bridge", points=[(3.45 * CELL_W, 3.25 * CELL_H), (3.72 * CELL_W, 3.2 * CELL_H)]),
        LineFeature(kind="road", points=[(0, 2.5 * CELL_H), (2.5 * CELL_W, 2.4 * CELL_H), (COLS * CELL_W, 2.7 * CELL_H)]),
    ]
    counters: list[CounterView] = []

    def put(cid: str, area: str, faction: str, ap: int | None = 4, ap_max: int | None = 4,
            reduced: bool = False, markers: list[str] | None = None,
            attached_to: str | None = None) -> None:
        counters.append(CounterView(id=cid, label=cid, area=area, faction=faction, ap=ap,
                                    ap_max=ap_max, reduced=reduced, markers=markers or [],
                                    attached_to=attached_to))

    # Soviets: VDV battalion, recon, mortar, sniper-hunters, the Hind.
    for k, area in enumerate(["2", "3", "8", "9", "9", "10", "16", "4"]):
        put(f"VDV-{k + 1}", area, "soviet", ap=4 - k % 3, reduced=k in (2, 5),
            markers=["suppressed"] if k == 4 else (["recovering"] if k == 6 else []))
    put("Koval", "9", "soviet", ap=3, ap_max=3, attached_to="VDV-4")
    put("BMD-1", "8", "soviet", ap=5, ap_max=5)
    put("BMD-2", "3", "soviet", ap=0, ap_max=5, markers=["suppressed"])
    put("Mortar", "1", "soviet", ap=2, ap_max=2)
    put("Sagger", "9", "soviet", ap=None, ap_max=None, attached_to="VDV-5")
    put("Hind", "11", "soviet", ap=3, ap_max=3, markers=["hind"])
    put("Spetsnaz", "15", "soviet", ap=4, markers=["airstrike"])
    # NATO: Germans in town, Americans arriving from the south.
    for k, area in enumerate(["14", "20", "21", "22", "26", "27", "28", "20"]):
        put(f"PzG-{k + 1}", area, "nato_de", ap=3, ap_max=3, reduced=k == 3,
            markers=["suppressed"] if k == 5 else [])
    put("Nikolas", "20", "nato_de", ap=3, ap_max=3, attached_to="PzG-2")
    put("Luchs", "22", "nato_de", ap=6, ap_max=6)
    put("TOW", "22", "nato_de", ap=None, ap_max=None, attached_to="Luchs")
    put("Terr-1", "21", "nato_de", ap=2, ap_max=2)
    put("Terr-2", "15", "nato_de", ap=2, ap_max=2, markers=["recovering"])
    put("M113-1", "29", "nato_us", ap=5, ap_max=5)
    put("M113-2", "30", "nato_us", ap=5, ap_max=5)
    put("Boyes", "29", "nato_us", ap=3, ap_max=3, attached_to="M113-1")
    put("Inf-1", "29", "nato_us", ap=4, reduced=True)
    put("Inf-2", "30", "nato_us", ap=4)
    put("Sniper", "20", "nato_de", ap=None, ap_max=None)
    put("HQ", "27", "nato_de", ap=2, ap_max=2)
    if crowded:
        # Area 20 is the Soviet objective and fills up: 8 counters (stacking is by points).
        put("PzG-9", "20", "nato_de", ap=1, ap_max=3)
        put("Terr-3", "20", "nato_de", ap=2, ap_max=2, markers=["suppressed"])
        put("Mortar-US", "20", "nato_us", ap=2, ap_max=2)
        # Area 9: 7 counters with the leader and the Sagger.
        put("VDV-9", "9", "soviet", ap=4)
        put("VDV-10", "9", "soviet", ap=2, reduced=True, markers=["recovering"])
    put("VDV-11", None, "soviet")  # off map: a reinforcement, not drawn
    header = Header(title="Tannenbruck 1985", turn=3, max_turn=7, phase="Operations",
                    facts=["Initiative: Soviet", "Impulse: NATO", "Airstrike: Soviet",
                           "Hind: available"])
    marks = [
        Mark(kind="move", points=[areas[27].centre, areas[21].centre, areas[20].centre],
             text="Inf-2 moved 2 AP", side="nato_us"),
        Mark(kind="fire", points=[areas[21].centre, areas[8].centre], text="VDV-5: 1 hit SUP",
             side="nato_de"),
        Mark(kind="assault", points=[areas[9].centre, areas[15].centre], text="assault +2: 1 hit",
             side="soviet"),
    ]
    return AreaMapView(header=header, width=COLS * CELL_W, height=ROWS * CELL_H, areas=areas,
                       lines=lines, counters=counters, marks=marks, sides=RR_SIDES,
                       legend=["Stand-in map for tests"])
