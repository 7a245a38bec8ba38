"""Hex geometry shared by every hex-map system: coordinates, numbers, boards, lines of sight.

Conventions (the usual hex-and-counter ones, as in Maschinen Krieger, [2.1]):

* **Flat-topped hexes in columns.**  A hex number is four digits ``CCRR``: column then row,
  ``0101`` the north-west corner of its board, columns counted west to east, rows north to
  south.  Even-numbered columns (``02``, ``04`` ...) sit half a hex lower than odd ones.
* **Axial coordinates** :class:`Hex` ``(q, r)`` for the arithmetic (cube ``s = -q - r``):
  constant-time distance, neighbours, lines.  Offset coordinates ``(col, row)`` (0-based,
  over the whole map) are what boards, data files and renderers use.
* **Geomorphic boards side by side.**  A :class:`MapLayout` places numbered boards at
  offsets; a hex is named on the map as ``5:1801`` (or with the book's circled digit,
  ``⑤1801``).  Column offsets are even so every board keeps its own column parity.
* **Hexsides** are named by the two hexes they separate, :func:`side` (ordered, hashable):
  ridgelines and walls are hexside features.
* **Lines** (:func:`sight_pairs`): the centre-to-centre line drawn twice, nudged a hair to
  either side.  Where both copies agree the line is inside one hex; where they differ the
  line runs exactly along the hexside between the two, and the viewer may take either side
  (:func:`line_clear`): it is blocked there only if both hexes block.

Building a layout is a few objects (no per-hex tables), and a line of sight is ``O(distance)``
with small constants; ``bench/hexes.py`` measures both.
"""

from __future__ import annotations

import re
from typing import Callable, Iterable, NamedTuple

from pydantic import BaseModel, Field, model_validator

from rules.core.errors import RuleError


class Hex(NamedTuple):
    """A hex in axial coordinates (flat-topped): ``q`` the column, ``r`` the slanted row."""

    q: int
    r: int

    @property
    def s(self) -> int:
        """The third cube coordinate (``q + r + s == 0``)."""
        return -self.q - self.r


#: The six directions, clockwise from north: N, NE, SE, S, SW, NW.
DIRECTIONS: tuple[Hex, ...] = (
    Hex(0, -1), Hex(1, -1), Hex(1, 0), Hex(0, 1), Hex(-1, 1), Hex(-1, 0),
)
DIRECTION_NAMES: tuple[str, ...] = ("N", "NE", "SE", "S", "SW", "NW")


def distance(a: Hex, b: Hex) -> int:
    """Hexes between ``a`` and ``b``, not counting ``a`` (the count of [5.1.1], Figure 1)."""
    dq = a.q - b.q
    dr = a.r - b.r
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def neighbour(h: Hex, direction: int) -> Hex:
    """The hex next to ``h`` in ``direction`` (0..5, clockwise from north)."""
    d = DIRECTIONS[direction % 6]
    return Hex(h.q + d.q, h.r + d.r)


def neighbours(h: Hex) -> list[Hex]:
    """The six hexes around ``h``, clockwise from north."""
    return [Hex(h.q + d.q, h.r + d.r) for d in DIRECTIONS]


def direction_to(a: Hex, b: Hex) -> int | None:
    """The direction (0..5) from ``a`` to an adjacent ``b``, or None if they are not adjacent."""
    delta = Hex(b.q - a.q, b.r - a.r)
    try:
        return DIRECTIONS.index(delta)
    except ValueError:
        return None


def ring(centre: Hex, radius: int) -> list[Hex]:
    """Every hex at exactly ``radius`` from ``centre`` (the centre itself for radius 0)."""
    if radius == 0:
        return [centre]
    out: list[Hex] = []
    h = Hex(centre.q + DIRECTIONS[4].q * radius, centre.r + DIRECTIONS[4].r * radius)
    for direction in range(6):
        for _ in range(radius):
            out.append(h)
            h = neighbour(h, direction)
    return out


def within(centre: Hex, radius: int) -> list[Hex]:
    """Every hex at most ``radius`` from ``centre``, the centre first."""
    out: list[Hex] = []
    for dq in range(-radius, radius + 1):
        for dr in range(max(-radius, -dq - radius), min(radius, -dq + radius) + 1):
            out.append(Hex(centre.q + dq, centre.r + dr))
    out.sort(key=lambda h: distance(centre, h))
    return out


Side = tuple[Hex, Hex]


def side(a: Hex, b: Hex) -> Side:
    """The hexside between adjacent ``a`` and ``b``, named the same whichever way it is crossed."""
    return (a, b) if a <= b else (b, a)


# -- offset coordinates ----------------------------------------------------------------------


def to_offset(h: Hex) -> tuple[int, int]:
    """Axial to 0-based ``(col, row)``; odd 0-based columns (book columns 02, 04...) sit lower."""
    col = h.q
    return col, h.r + (col - (col & 1)) // 2


def from_offset(col: int, row: int) -> Hex:
    """0-based ``(col, row)`` to axial (inverse of :func:`to_offset`)."""
    return Hex(col, row - (col - (col & 1)) // 2)


# -- lines -----------------------------------------------------------------------------------

_NUDGE = (1e-6, 2e-6, -3e-6)


def _cube_round(x: float, y: float, z: float) -> Hex:
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    return Hex(int(rx), int(ry))


def _nudged_line(a: Hex, b: Hex, sign: float) -> list[Hex]:
    n = distance(a, b)
    ax, ay, az = a.q + sign * _NUDGE[0], a.r + sign * _NUDGE[1], a.s + sign * _NUDGE[2]
    bx, by, bz = b.q + sign * _NUDGE[0], b.r + sign * _NUDGE[1], b.s + sign * _NUDGE[2]
    step = 1.0 / n
    return [
        _cube_round(ax + (bx - ax) * i * step, ay + (by - ay) * i * step, az + (bz - az) * i * step)
        for i in range(n + 1)
    ]


def sight_pairs(a: Hex, b: Hex) -> list[tuple[Hex, Hex]]:
    """The hexes a straight line from ``a``'s centre to ``b``'s passes, as pairs.

    Each entry is ``(left, right)``: the same hex twice where the line is inside one hex, two
    different (adjacent) hexes where the line runs exactly along the hexside between them.
    The first entry is ``(a, a)``, the last ``(b, b)``; there are ``distance + 1`` entries.
    """
    if a == b:
        return [(a, a)]
    return list(zip(_nudged_line(a, b, 1.0), _nudged_line(a, b, -1.0)))


def line(a: Hex, b: Hex) -> list[Hex]:
    """One hex per step from ``a`` to ``b`` (the left-hand choice along hexsides), for drawing."""
    return [left for left, _ in sight_pairs(a, b)]


HexTest = Callable[[int, Hex], bool]
SideTest = Callable[[int, Hex, Hex], bool]


def line_clear(a: Hex, b: Hex, hex_ok: HexTest, side_ok: SideTest | None = None) -> bool:
    """Whether some reading of the line from ``a`` to ``b`` is clear.

    ``hex_ok(i, h)`` is asked of the hexes strictly between ``a`` and ``b`` (``i`` the step,
    1..distance-1); ``side_ok(i, h_from, h_to)`` of every hexside crossed, ``i`` the step of
    ``h_to`` (1..distance).  Where the line runs along a hexside the viewer takes whichever
    side is clear, step by step (a two-state walk, so still ``O(distance)``).
    """
    pairs = sight_pairs(a, b)
    last = len(pairs) - 1
    reach: dict[Hex, bool] = {a: True}
    for i in range(1, last + 1):
        options = {pairs[i][0], pairs[i][1]}
        nxt: dict[Hex, bool] = {}
        for h in options:
            if i < last and not hex_ok(i, h):
                continue
            for prev in reach:
                if distance(prev, h) == 1 and (side_ok is None or side_ok(i, prev, h)):
                    nxt[h] = True
                    break
        if not nxt:
            return False
        reach = nxt
    return True


def sides_crossed(path: list[Hex]) -> list[Side]:
    """The hexsides a path of adjacent hexes crosses, in order."""
    return [side(path[i - 1], path[i]) for i in range(1, len(path))]


# -- hex numbers and boards ------------------------------------------------------------------

CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳"


def circled(n: int) -> str:
    """The book's circled digit for 1..20 (board numbers, pilots): ``5`` -> ``⑤``."""
    if not 1 <= n <= len(CIRCLED):
        raise ValueError(f"no circled digit for {n}")
    return CIRCLED[n - 1]


def uncircle(ch: str) -> int | None:
    """``⑤`` -> 5; None for anything that is not a circled digit."""
    index = CIRCLED.find(ch)
    return index + 1 if index >= 0 and len(ch) == 1 else None


class HexNumber(NamedTuple):
    """A hex as the book names it: board, column, row (1-based), e.g. board 5, ``1801``."""

    board: int
    col: int
    row: int

    def label(self) -> str:
        """``5:1801``."""
        return f"{self.board}:{self.col:02d}{self.row:02d}"

    @property
    def local(self) -> str:
        """``1801``, the number printed in the hex."""
        return f"{self.col:02d}{self.row:02d}"


_NUMBER = re.compile(r"^\s*(?:(\d{1,2})\s*[:/-]\s*|([①-⑳])\s*)?(\d{2})(\d{2})\s*$")


def parse_number(text: str, default_board: int | None = None) -> HexNumber:
    """``5:1801``, ``⑤1801`` or (with ``default_board``) ``1801`` to a :class:`HexNumber`."""
    match = _NUMBER.match(text or "")
    if not match:
        raise RuleError(
            f"'{(text or '')[:20]}' is not a hex: write the board and the four-digit number, "
            "e.g. 5:1801."
        )
    plain, circ, col, row = match.groups()
    board = int(plain) if plain else uncircle(circ) if circ else default_board
    if board is None:
        raise RuleError(f"'{text[:20]}' needs its board too, e.g. 5:{col}{row}.")
    return HexNumber(board, int(col), int(row))


class BoardPlacement(BaseModel):
    """One geomorphic board on the table: its number and where its ``0101`` hex lies."""

    board: int = Field(ge=1, le=20)
    col: int = Field(default=0, ge=0)  # 0-based map column of the board's column 01 (even)
    row: int = Field(default=0, ge=0)  # 0-based map row of the board's row 01
    columns: int = Field(default=20, ge=2, le=99)
    rows: int = Field(default=30, ge=2, le=99)

    @model_validator(mode="after")
    def _even_column(self) -> "BoardPlacement":
        if self.col % 2:
            raise ValueError("a board's column offset must be even (it keeps column parity)")
        return self


class MapLayout(BaseModel):
    """Boards placed side by side (or above one another) to make one map.

    Everything is arithmetic on the placements (a handful), so building a layout costs
    nothing per hex.
    """

    boards: list[BoardPlacement]

    @model_validator(mode="after")
    def _no_overlap(self) -> "MapLayout":
        seen: set[int] = set()
        for i, a in enumerate(self.boards):
            if a.board in seen:
                raise ValueError(f"board {a.board} is placed twice")
            seen.add(a.board)
            for b in self.boards[i + 1:]:
                if (a.col < b.col + b.columns and b.col < a.col + a.columns
                        and a.row < b.row + b.rows and b.row < a.row + a.rows):
                    raise ValueError(f"boards {a.board} and {b.board} overlap")
        return self

    @classmethod
    def side_by_side(cls, numbers: Iterable[int], columns: int = 20, rows: int = 30) -> "MapLayout":
        """Boards in a row from west to east, in the order given."""
        placed = [
            BoardPlacement(board=n, col=i * (columns + columns % 2), row=0, columns=columns, rows=rows)
            for i, n in enumerate(numbers)
        ]
        return cls(boards=placed)

    @property
    def width(self) -> int:
        """Map columns (0-based extent)."""
        return max(p.col + p.columns for p in self.boards)

    @property
    def height(self) -> int:
        """Map rows (0-based extent)."""
        return max(p.row + p.rows for p in self.boards)

    def placement(self, board: int) -> BoardPlacement:
        """The placement of board ``board`` (a RuleError naming the boards in play if absent)."""
        for p in self.boards:
            if p.board == board:
                return p
        used = ", ".join(str(p.board) for p in self.boards)
        raise RuleError(f"Board {board} is not on this map; boards: {used}.")

    def hex_of(self, number: HexNumber) -> Hex:
        """The axial hex of a book number, refusing numbers off their board."""
        p = self.placement(number.board)
        if not (1 <= number.col <= p.columns and 1 <= number.row <= p.rows):
            raise RuleError(
                f"Hex {number.label()} is off board {number.board} "
                f"(columns 01-{p.columns:02d}, rows 01-{p.rows:02d})."
            )
        return from_offset(p.col + number.col - 1, p.row + number.row - 1)

    def parse(self, text: str) -> Hex:
        """A hex from ``5:1801`` / ``⑤1801`` (or ``1801`` on a one-board map)."""
        default = self.boards[0].board if len(self.boards) == 1 else None
        return self.hex_of(parse_number(text, default))

    def number_of(self, h: Hex) -> HexNumber | None:
        """The board and number of ``h``, or None if it is off the map."""
        col, row = to_offset(h)
        for p in self.boards:
            c, r = col - p.col, row - p.row
            if 0 <= c < p.columns and 0 <= r < p.rows:
                return HexNumber(p.board, c + 1, r + 1)
        return None

    def label(self, h: Hex) -> str:
        """``5:1801`` for a hex on the map, ``off map`` otherwise."""
        number = self.number_of(h)
        return number.label() if number else "off map"

    def contains(self, h: Hex) -> bool:
        """Whether ``h`` lies on one of the boards."""
        return self.number_of(h) is not None

    def edge(self, board: int, edge: str) -> list[Hex]:
        """The hexes along one edge of a board: ``N``, ``S``, ``E`` or ``W``, west/north first."""
        p = self.placement(board)
        key = edge.upper()
        if key in ("N", "S"):
            row = 1 if key == "N" else p.rows
            return [self.hex_of(HexNumber(board, c, row)) for c in range(1, p.columns + 1)]
        if key in ("E", "W"):
            col = 1 if key == "W" else p.columns
            return [self.hex_of(HexNumber(board, col, r)) for r in range(1, p.rows + 1)]
        raise RuleError(f"'{edge[:5]}' is not a board edge; edges: N, S, E, W.")

    def all_hexes(self) -> list[Hex]:
        """Every hex of every board (for rendering and exhaustive tests, not the hot path)."""
        out: list[Hex] = []
        for p in self.boards:
            for c in range(p.columns):
                for r in range(p.rows):
                    out.append(from_offset(p.col + c, p.row + r))
        return out
