"""The map of a game: geomorphic boards side by side, with each hex's terrain and hexsides.

Built once per set of boards (cached) from ``data/boards.json`` on the core hex geometry
(:mod:`rules.core.hexes`).  Lookups are dictionaries keyed by :class:`~rules.core.hexes.Hex`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from rules.core.errors import RuleError
from rules.core.hexes import DIRECTION_NAMES, Hex, HexNumber, MapLayout, Side, neighbour, neighbours, side
from rules.mak.data import BoardSpec, TerrainStats, board_catalogue, charts, scenario


def expand(spec: str) -> list[tuple[int, int]]:
    """``"0405"`` -> [(4, 5)]; ``"0405..0709"`` -> every (col, row) of that rectangle."""
    if ".." in spec:
        a, b = spec.split("..")
        c0, r0, c1, r1 = int(a[:2]), int(a[2:]), int(b[:2]), int(b[2:])
        return [(c, r) for c in range(min(c0, c1), max(c0, c1) + 1) for r in range(min(r0, r1), max(r0, r1) + 1)]
    return [(int(spec[:2]), int(spec[2:]))]


@dataclass
class Battlefield:
    """Terrain, elevation, partial buildings, roads and hexside features of a whole map."""

    layout: MapLayout
    terrain: dict[Hex, str] = field(default_factory=dict)
    elevation: dict[Hex, int] = field(default_factory=dict)
    partial: set[Hex] = field(default_factory=set)
    roads: set[Hex] = field(default_factory=set)
    hexsides: dict[Side, str] = field(default_factory=dict)
    #: for drawing: (hex, direction, kind) as listed in the board data
    side_list: list[tuple[Hex, int, str]] = field(default_factory=list)
    hexes: frozenset[Hex] = frozenset()  # every hex of the map, for a fast contains()
    _costs: dict[tuple[str, int], dict[Hex, float | None]] = field(default_factory=dict)
    #: Each hex's label, worked out once (a move's reach labels every hex it covers).
    _labels: dict[Hex, str] = field(default_factory=dict)
    #: Each hex's six neighbours, worked out once (a move's reach asks for every hex's).
    _around: dict[Hex, list[Hex]] = field(default_factory=dict)

    def terrain_at(self, h: Hex) -> TerrainStats:
        """The Terrain Effects row of the hex (clear where the board says nothing)."""
        return charts().terrain_of(self.terrain.get(h, "clear"))

    def base_costs(self, form: str, unit_class: int) -> dict[Hex, float | None]:
        """7.1.3 / 7.1.7: the cost of entering each hex by terrain alone, for one movement
        form and unit type (a partial building hex is clear for Type II); built once."""
        key = (form, unit_class)
        table = self._costs.get(key)
        if table is None:
            clear = charts().terrain_of("clear").cost.get(form)  # type: ignore[call-overload]
            table = {}
            for h in self.hexes:
                terrain = self.terrain_at(h)
                if terrain.key == "building" and h in self.partial and unit_class == 2:
                    table[h] = clear
                else:
                    table[h] = terrain.cost.get(form)  # type: ignore[call-overload]
            self._costs[key] = table
        return table

    def height(self, h: Hex) -> int:
        """6.2.1: the hex's height level (its elevation, or its terrain's height)."""
        return max(self.elevation.get(h, 0), self.terrain_at(h).height)

    def feature(self, a: Hex, b: Hex) -> str | None:
        """The hexside feature (``ridge``, ``wall``) between adjacent ``a`` and ``b``."""
        return self.hexsides.get(side(a, b))

    def parse(self, text: str) -> Hex:
        """A hex of this map from ``5:1801`` / ``⑤1801``."""
        return self.layout.parse(text)

    def label(self, h: Hex) -> str:
        """``5:1801``."""
        label = self._labels.get(h)
        if label is None:
            label = self._labels[h] = self.layout.label(h)
        return label

    def around(self, h: Hex) -> list[Hex]:
        """The six hexes around ``h`` (:func:`~rules.core.hexes.neighbours`), looked up once."""
        near = self._around.get(h)
        if near is None:
            near = self._around[h] = neighbours(h)
        return near

    def contains(self, h: Hex) -> bool:
        """Whether the hex is on the map."""
        if self.hexes:
            return h in self.hexes
        return self.layout.contains(h)


def _add_board(field_: Battlefield, spec: BoardSpec) -> None:
    number = spec.number

    def at(col: int, row: int) -> Hex:
        return field_.layout.hex_of(HexNumber(number, col, row))

    for key, areas in spec.terrain.items():
        charts().terrain_of(key)  # a typo in the data fails here, not in play
        for area in areas:
            for col, row in expand(area):
                field_.terrain[at(col, row)] = key
    for area in spec.elevation:
        for col, row in expand(area):
            field_.elevation[at(col, row)] = 1
    for area in spec.partial:
        for col, row in expand(area):
            field_.partial.add(at(col, row))
    for area in spec.roads:
        for col, row in expand(area):
            field_.roads.add(at(col, row))
    for line in spec.hexsides:
        number_text, direction, kind = line.split()
        charts().hexside_of(kind)
        h = at(int(number_text[:2]), int(number_text[2:]))
        d = DIRECTION_NAMES.index(direction)
        field_.hexsides[side(h, neighbour(h, d))] = kind
        field_.side_list.append((h, d, kind))


def field_key(scenario_key: str) -> str:
    """The scenario key a map is built for: the scenario's own when it lays boards of its
    own (issue 46), else "" (every game on the shipped boards shares one cached map)."""
    try:
        return scenario_key if scenario(scenario_key).own_boards else ""
    except FileNotFoundError:  # a test's board made at run time: the shipped boards only
        return ""


@lru_cache(maxsize=16)
def battlefield(numbers: tuple[int, ...], scenario_key: str = "") -> Battlefield:
    """The map of these boards placed west to east (cached; treat it as read-only); with
    ``scenario_key``, that scenario's own boards may be among them."""
    known = board_catalogue(scenario_key)
    for n in numbers:
        if n not in known:
            raise RuleError(f"There is no board {n}; boards: {', '.join(map(str, sorted(known)))}.")
    first = known[numbers[0]]
    layout = MapLayout.side_by_side(numbers, columns=first.columns, rows=first.rows)
    out = Battlefield(layout=layout, hexes=frozenset(layout.all_hexes()))
    for n in numbers:
        _add_board(out, known[n])
    return out
