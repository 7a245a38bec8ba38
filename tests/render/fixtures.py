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
    BattleLine,
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
    SideStyle(key="nato_de", label="NATO (W. German)", letter="G", colour="#5d6d7e"),
    SideStyle(key="nato_us", label="NATO (US)", letter="A", colour="#3f7a3a"),
    SideStyle(key="soviet", label="Soviet", letter="S", colour="#b8322a"),
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
                entrance="NATO 2" if n in (25, 30) else ("Soviet 1" if n == 6 else None),
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


RAIDER_SIDES = [
    SideStyle(key="raider", label="Raiders", letter="R", colour="#2f5f99"),
    SideStyle(key="hostile", label="Hostiles", letter="H", colour="#a8432e"),
]


def network_view(battle: bool = True) -> NetworkView:
    """A 20-space desert network with forces, tracks and a 4 v 5 battle round."""
    names = ["Base", "Siwa", "Jalo", "Gialo Rd", "Bir Hakeim", "Tobruk", "Derna", "Barce",
             "Benghazi", "Msus", "Mechili", "Gazala", "El Adem", "Sidi Rezegh", "Bardia",
             "Sollum", "Agedabia", "Ajdabiya AF", "Marsa", "Cyrene"]
    spaces = []
    for k, name in enumerate(names):
        col, row = k % 5, k // 5
        x = 80 + col * 200 + (row % 2) * 60
        y = 70 + row * 160 + (col % 2) * 30
        spaces.append(SpaceView(
            id=f"S{k + 1}", name=name, position=(x, y),
            terrain=["clear", "hills", "town", "clear", "marsh"][k % 5],
            staging=k in (0, 1), airfield=k in (8, 17), port=k in (5, 14, 18),
            objective="?" if k in (7, 11, 16) else ("Fuel dump" if k == 9 else None),
            objective_done=k == 9,
        ))
    routes = []
    for k in range(20):
        if k % 5 < 4:
            routes.append(RouteView(a=f"S{k + 1}", b=f"S{k + 2}", kind="road"))
        if k < 15:
            routes.append(RouteView(a=f"S{k + 1}", b=f"S{k + 6}", kind="water" if k % 5 == 4 else "road"))
    routes.append(RouteView(a="S1", b="S18", kind="air"))
    forces = [
        ForceView(id="F1", space="S8", faction="raider", units=[
            UnitChip(id="LRDG-1", label="LRDG-1", faction="raider", detail="c3 m4 scout · Sup-1"),
            UnitChip(id="SAS-2", label="SAS-2", faction="raider", detail="c4 m3 elite · Exp-2"),
            UnitChip(id="Lt Stirling", label="Lt Stirling", faction="raider", detail="c3 m3 leader"),
        ]),
        ForceView(id="F2", space="S13", faction="raider", units=[
            UnitChip(id="LRDG-2", label="LRDG-2", faction="raider", detail="c3 m4 guide"),
        ]),
    ]
    if battle:
        forces.append(ForceView(id="hostiles", space="S8", faction="hostile", units=[
            UnitChip(id=f"H{k}", label=f"H{k}", faction="hostile", detail=f"c{2 + k % 3}")
            for k in range(1, 5)]))
    panel = BattlePanel(
        space="S8", round=2, tactical_edge="raider",
        lines=[BattleLine(label="Raiders", faction="raider", units=[
                   UnitChip(id=u, label=u, faction="raider", detail=d, eliminated=u == "SAS-3")
                   for u, d in (("LRDG-1", "c3 m4 scout · Sup-1 Exp-2 · carries Obj-1"),
                                ("SAS-2", "c4 m3 elite · Exp-2"), ("Lt Stirling", "c3 m3 leader"),
                                ("SAS-3", "c4 m3 elite"))]),
               BattleLine(label="Hostiles", faction="hostile", units=[
                   UnitChip(id=f"H{k}", label=f"H{k}", faction="hostile",
                            detail=f"c{2 + k % 3}{' elite' if k == 5 else ''}", eliminated=k == 5)
                   for k in range(1, 6)])],
        shots=[BattleShot(unit="LRDG-1", target="H5", die=6, result="hit H5"),
               BattleShot(unit="SAS-2", target="H2", die=2, result="miss"),
               BattleShot(unit="Lt Stirling", die=4, result="miss"),
               BattleShot(unit="H1", target="SAS-3", die=5, result="hit SAS-3"),
               BattleShot(unit="H2", die=1, result="miss"),
               BattleShot(unit="H3", die=3, result="miss")],
    ) if battle else None
    header = Header(title="Desert Raiders · M2 Barce", turn=3, phase="M2 · Op 3 · battle round 2",
                    facts=["Objectives 1/3", "Alert 3"])
    return NetworkView(
        header=header, width=1100, height=700, spaces=spaces, routes=routes, forces=forces,
        tracks=[Track(label="Alert", value=3, minimum=1, maximum=5),
                Track(label="Ops left", value=7), Track(label="RP", value=4, minimum=0, maximum=10)],
        battle=panel, marks=[Mark(kind="move", points=[(80, 70), (340, 230), (720, 230)], text="F1",
                                  side="raider")],
        sides=RAIDER_SIDES, legend=["Campaign: won M1 · lost - · 3 to win"],
    )


def table_view() -> TableView:
    """A 48" x 36" table: buildings, wire, cover, pillbox arcs, 25 units, moves and shots."""
    terrain = [
        TerrainShape(id="river", kind="water", polygon=[(0, 0), (48, 0), (48, 3), (0, 3)], label="River"),
        TerrainShape(id="dock", kind="water", polygon=[(30, 10), (38, 10), (38, 36), (30, 36)], label="Dry dock"),
        TerrainShape(id="quay", kind="quay", polygon=[(0, 3), (48, 3), (48, 7), (0, 7)], label="Quay"),
        TerrainShape(id="b1", kind="building", polygon=[(6, 12), (12, 12), (12, 17), (6, 17)], label="Warehouse"),
        TerrainShape(id="b2", kind="building", polygon=[(20, 26), (27, 26), (27, 31), (20, 31)], label="Workshops"),
        TerrainShape(id="w1", kind="wire", polygon=[(16, 8), (28, 8), (28, 8.8), (16, 8.8)], label="Wire W1"),
        TerrainShape(id="c1", kind="cover", circle=(15.0, 20.0, 1.5), label="Crates"),
        TerrainShape(id="t1", kind="target", polygon=[(39, 12), (44, 12), (44, 16), (39, 16)], label="Pump house (3)"),
    ]
    units = []
    for k in range(12):
        units.append(TableUnit(id=f"C{k + 1}", label=f"C{k + 1}", faction="commando",
                               x=4 + k * 3.4, y=5 + (k % 3) * 1.2,
                               markers=["officer"] if k in (0, 6) else (["demolition"] if k % 4 == 1 else []),
                               eliminated=k == 11))
    for k in range(13):
        units.append(TableUnit(id=f"G{k + 1}", label=f"G{k + 1}", faction="german",
                               x=5 + (k * 7.3) % 40, y=12 + (k * 5) % 20,
                               facing=270.0 if k < 3 else None, arc=180.0 if k < 3 else None,
                               markers=["armoured"] if k == 12 else []))
    marks = [
        Mark(kind="move", points=[(4, 5), (8.5, 9.0)], text='6.0"', side="commando"),
        Mark(kind="move", points=[(14.2, 7.4), (17.0, 10.5)], text='4.2"', side="commando"),
        Mark(kind="shot", points=[(7.4, 6.2), (12.3, 17.0)], text='11.9" hit', side="commando"),
        Mark(kind="miss", points=[(17.6, 5), (26.9, 22)], text='19.4" miss', side="commando"),
        Mark(kind="blast", points=[(39.5, 14)], text="Pump house 5+", side="commando"),
    ]
    circles = [RangeCircle(x=19, y=14, radius=12, label='SL1 12"'),
               RangeCircle(x=12.3, y=17, radius=3, label='G2 3"')]
    points = [NamedPoint(name="Old Mole", x=12, y=5), NamedPoint(name="Bridge G", x=28, y=22)]
    header = Header(title="St Nazaire raid", turn=2, max_turn=8, phase="Commandos · actions",
                    facts=["Targets 1/5", "Commandos 7 VP"])
    return TableView(header=header, width=48, height=36, terrain=terrain, units=units,
                     points=points, circles=circles, marks=marks,
                     sides=[SideStyle(key="commando", label="Commandos", letter="C", colour="#2f5f99"),
                            SideStyle(key="german", label="Germans", letter="G", colour="#5c5c5c")],
                     legend=['Move 6" per action; shoot 12", 4+ hits'])
