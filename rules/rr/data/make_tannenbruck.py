"""Builds the geometry of ``tannenbruck.json``: the areas' outlines, the river and bridges.

The rulebook has no map art, so the Tannenbruck map is ours (a stand-in).  To get a clean
planar subdivision (neighbours share exact corners, no gaps, no overlaps) the outlines are
*computed*, not typed: each area is the set of points nearer its centre dot than any other
(a Voronoi cell of the dots below, clipped to the map), and every inner border is then bent
a little, the same way for both areas that share it, so the map reads like a map and not a
honeycomb.  The river is the chain of borders between the west-bank and east-bank areas, so
every area lies wholly on one bank.

Only the geometry lives here: ``polygon``, ``centre`` and ``east_of_river`` of each area,
``rivers``, ``bridges``, ``width`` and ``height``.  Everything else in the JSON (terrain, TM,
names, counters, deployments) is typed in the JSON itself.  After changing a dot, run::

    .venv/bin/python -m rules.rr.data.make_tannenbruck

``tests/rr/test_map.py`` fails when the JSON and this script disagree.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

Point = tuple[float, float]

WIDTH = 1600.0
HEIGHT = 1000.0  # y grows southward (image axes): north is the top edge

#: The centre dots (7.3.2), which also seed the outlines.  NATO comes from the west, the
#: Soviets hold the bridgehead and the town, their reinforcements come from the east.
DOTS: dict[str, Point] = {
    # West bank: NATO setup and entrances on the west edge (11.0: 1-4), 9 north, 13 south.
    "1": (120, 150),
    "2": (95, 410),
    "3": (130, 650),
    "4": (110, 885),
    "5": (345, 110),
    "6": (330, 355),
    "7": (655, 455),  # the bridge meadows: the paratroopers' drop zone (11.0)
    "8": (355, 600),
    "9": (585, 70),
    "10": (535, 250),
    "11": (330, 865),
    "12": (560, 715),
    "13": (590, 935),
    "14": (760, 285),  # Tannenbruck, west bank
    "15": (745, 610),
    # East bank: the town's heart around 19 (12.0), the east edge entrances 27, 29, 30.
    "16": (905, 140),
    "17": (925, 410),
    "18": (915, 690),
    "19": (1075, 545),
    "20": (1090, 290),
    "21": (1065, 820),
    "22": (1235, 100),
    # 23, 28, 24 and 29 stand on one circle, so their four outlines meet at one corner:
    # 23 and 29 (and 24 and 28) touch only there, and are still adjacent (7.2).
    "23": (1265, 345),
    "24": (1265, 585),
    "25": (1240, 870),
    "26": (1390, 735),
    "27": (1510, 120),
    "28": (1435, 345),
    "29": (1435, 585),
    "30": (1500, 885),
}

#: The areas on the east bank of the river; the rest are on the west bank.
EAST = {str(n) for n in range(16, 31)}

#: Bridges, each over the river border between two areas (west, east).
BRIDGES: list[tuple[str, str]] = [("7", "17"), ("15", "18")]

#: How far (as a share of a border's length) a border is bent, and into how many pieces.
BEND = 0.06
PIECES = 5
#: Corners nearer than this (map units) are one corner.
SNAP = 0.5


def clip(polygon: list[Point], keep: Point, other: Point) -> list[Point]:
    """The part of a convex ``polygon`` nearer to ``keep`` than to ``other`` (one half-plane)."""
    nx, ny = other[0] - keep[0], other[1] - keep[1]
    c = (other[0] ** 2 + other[1] ** 2 - keep[0] ** 2 - keep[1] ** 2) / 2.0

    def side(p: Point) -> float:
        """Negative (or zero) on ``keep``'s side of the bisector."""
        return p[0] * nx + p[1] * ny - c

    out: list[Point] = []
    for i, p in enumerate(polygon):
        q = polygon[(i + 1) % len(polygon)]
        sp, sq = side(p), side(q)
        if sp <= 0:
            out.append(p)
        if (sp < 0 < sq) or (sq < 0 < sp):
            t = sp / (sp - sq)
            out.append((p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t))
    return out


def cells(dots: dict[str, Point]) -> dict[str, list[Point]]:
    """Each dot's Voronoi cell, clipped to the map's rectangle."""
    frame = [(0.0, 0.0), (WIDTH, 0.0), (WIDTH, HEIGHT), (0.0, HEIGHT)]
    out = {}
    for area, dot in dots.items():
        polygon = list(frame)
        for other, far in dots.items():
            if other != area:
                polygon = clip(polygon, dot, far)
        out[area] = polygon
    return out


def snap(outlines: dict[str, list[Point]]) -> tuple[list[Point], dict[str, list[int]]]:
    """One list of corners shared by all areas; each outline as indices into it."""
    corners: list[Point] = []
    rings: dict[str, list[int]] = {}
    for area, polygon in outlines.items():
        ring: list[int] = []
        for p in polygon:
            index = next(
                (i for i, c in enumerate(corners) if math.dist(c, p) <= SNAP), None
            )
            if index is None:
                corners.append(p)
                index = len(corners) - 1
            if not ring or ring[-1] != index:
                ring.append(index)
        while len(ring) > 1 and ring[0] == ring[-1]:
            ring.pop()
        rings[area] = ring
    return corners, rings


def on_frame(p: Point) -> bool:
    """Whether a corner lies on the map's edge."""
    return min(p[0], p[1], WIDTH - p[0], HEIGHT - p[1]) <= SNAP


def bend(a: Point, b: Point) -> list[Point]:
    """The inner points of the border ``a -> b``, bent the same way whichever end comes first."""
    if (round(b[0], 1), round(b[1], 1)) < (round(a[0], 1), round(a[1], 1)):
        return list(reversed(bend(b, a)))
    rng = random.Random(f"{a[0]:.1f},{a[1]:.1f}-{b[0]:.1f},{b[1]:.1f}")
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    nx, ny = -dy / length, dx / length
    points = []
    for k in range(1, PIECES):
        t = k / PIECES
        off = rng.uniform(-BEND, BEND) * length
        points.append((a[0] + dx * t + nx * off, a[1] + dy * t + ny * off))
    return points


def outline(ring: list[int], corners: list[Point]) -> list[Point]:
    """An area's outline with its inner borders bent (edges of the map stay straight)."""
    out: list[Point] = []
    for i, index in enumerate(ring):
        a, b = corners[index], corners[ring[(i + 1) % len(ring)]]
        out.append(a)
        along_frame = abs(a[0] - b[0]) < SNAP or abs(a[1] - b[1]) < SNAP
        if not (on_frame(a) and on_frame(b) and along_frame):
            out.extend(bend(a, b))
    return out


def rounded(points: list[Point]) -> list[list[float]]:
    """Points as JSON pairs, to a tenth of a map unit."""
    return [[round(p[0], 1), round(p[1], 1)] for p in points]


def border(
    west: str, east: str, rings: dict[str, list[int]], corners: list[Point]
) -> list[Point]:
    """The shared border of two areas, bent, walked in the west area's order."""
    ring, other = rings[west], set(rings[east])
    for i, index in enumerate(ring):
        following = ring[(i + 1) % len(ring)]
        if index in other and following in other:
            a, b = corners[index], corners[following]
            return [a, *bend(a, b), b]
    raise ValueError(f"areas {west} and {east} share no border")


def river(rings: dict[str, list[int]], corners: list[Point]) -> list[Point]:
    """The river: every border between a west-bank and an east-bank area, north to south."""
    edges: dict[int, set[int]] = {}
    for west in rings:
        if west in EAST:
            continue
        for east in EAST:
            ring, other = rings[west], set(rings[east])
            for i, index in enumerate(ring):
                following = ring[(i + 1) % len(ring)]
                if index in other and following in other:
                    edges.setdefault(index, set()).add(following)
                    edges.setdefault(following, set()).add(index)
    start = min(edges, key=lambda i: corners[i][1])
    chain, previous = [start], None
    while True:
        ahead = [n for n in edges[chain[-1]] if n != previous]
        if not ahead:
            break
        previous = chain[-1]
        chain.append(ahead[0])
    points: list[Point] = []
    for a, b in zip(chain, chain[1:]):
        points.extend([corners[a], *bend(corners[a], corners[b])])
    points.append(corners[chain[-1]])
    return points


def bridge(west: str, east: str, rings: dict[str, list[int]], corners: list[Point]) -> list[Point]:
    """A bridge across the middle of the border of two areas, square to the river."""
    line = border(west, east, rings, corners)
    a, b = line[len(line) // 2 - 1], line[len(line) // 2]
    mx, my = (a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    half = 30.0
    nx, ny = -dy / length * half, dx / length * half
    return [(mx - nx, my - ny), (mx + nx, my + ny)]


def geometry() -> dict[str, object]:
    """Everything this script owns in the JSON, as JSON values."""
    corners, rings = snap(cells(DOTS))
    return {
        "width": WIDTH,
        "height": HEIGHT,
        "areas": {
            area: {
                "polygon": rounded(outline(rings[area], corners)),
                "centre": [float(DOTS[area][0]), float(DOTS[area][1])],
                "east_of_river": area in EAST,
            }
            for area in DOTS
        },
        "rivers": [rounded(river(rings, corners))],
        "bridges": [rounded(bridge(w, e, rings, corners)) for w, e in BRIDGES],
    }


def compact(value: object, indent: int = 0) -> str:
    """JSON with one line per area, counter and value table, so people can edit it by hand."""
    pad = " " * indent
    if isinstance(value, dict):
        flat = all(not isinstance(v, (dict, list)) or _flat_list(v) for v in value.values())
        if flat and len(json.dumps(value, ensure_ascii=False)) <= 100:
            return json.dumps(value, ensure_ascii=False)
        inner = ",\n".join(
            f'{pad}  {json.dumps(k)}: {compact(v, indent + 2)}' for k, v in value.items()
        )
        return "{\n" + inner + f"\n{pad}}}"
    if isinstance(value, list) and not _flat_list(value):
        inner = ",\n".join(f"{pad}  {compact(v, indent + 2)}" for v in value)
        return "[\n" + inner + f"\n{pad}]"
    return json.dumps(value, ensure_ascii=False)


def _flat_list(value: object) -> bool:
    """A list of scalars or of lists of scalars (points, polygons): written on one line."""
    return isinstance(value, list) and all(
        not isinstance(v, (dict, list)) or (isinstance(v, list) and _flat_list(v)) for v in value
    )


def main() -> None:
    """Rewrite the geometry fields of ``tannenbruck.json`` in place."""
    path = Path(__file__).with_name("tannenbruck.json")
    data = json.loads(path.read_text("utf-8"))
    shapes = geometry()
    data["width"], data["height"] = shapes["width"], shapes["height"]
    data["rivers"], data["bridges"] = shapes["rivers"], shapes["bridges"]
    for area in data["areas"]:
        area.update(shapes["areas"][area["id"]])  # type: ignore[index]
    path.write_text(compact(data) + "\n", "utf-8")


if __name__ == "__main__":
    main()
