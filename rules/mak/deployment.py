"""Deployment and reinforcement (12.0) in the scenarios' own notation.

``1⑤N▷1801``: on turn 1, enter board ⑤ through its north edge, from hex 1801 and east
("Understanding the Scenarios" a).  ▷ east of, ◁ west of, ▽ south of, △ north of: that hex
and every hex in that direction along the edge.  A missing turn (``⑤⑥E``) leaves the turn to
the player (d); several boards (``⑤⑥E``) mean the edges of each.  ``⑤0606`` (our notation for
the book's "initial deployment", which the text describes but prints no code for) sets a unit
up in that hex before play.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rules.core.errors import RuleError
from rules.core.hexes import Hex, HexNumber, MapLayout, uncircle

_ENTRY = re.compile(r"^(\d{1,2})?([①-⑳]+)([NSEW])(?:([▷◁▽△])(\d{4}))?$")
_SETUP = re.compile(r"^([①-⑳])(\d{4})$")
ARROWS = {"▷": "east", "◁": "west", "▽": "south", "△": "north"}


@dataclass(frozen=True)
class DeploySpec:
    """A parsed deployment code."""

    turn: int | None  # None: the player's choice (d)
    boards: tuple[int, ...]
    edge: str | None  # N/S/E/W, None for a set-up hex
    arrow: str | None = None
    hex: str | None = None  # "1801"

    @property
    def setup(self) -> bool:
        """Whether the unit starts on the map (initial deployment) rather than entering."""
        return self.edge is None

    def text(self) -> str:
        """As a player reads it."""
        boards = "+".join(str(b) for b in self.boards)
        if self.setup:
            return f"set up in {boards}:{self.hex}"
        when = f"turn {self.turn}" if self.turn else "any turn"
        seg = f", from {self.hex} {ARROWS[self.arrow]}" if self.arrow else ""
        return f"enters board {boards} {self.edge} edge{seg}, {when}"


def parse_deploy(code: str) -> DeploySpec:
    """Parse ``1⑤N▷1801``, ``⑤⑥E`` or ``⑤0606``; a RuleError names what is wrong."""
    text = code.replace(" ", "")
    setup = _SETUP.match(text)
    if setup:
        board = uncircle(setup.group(1))
        assert board is not None
        return DeploySpec(turn=1, boards=(board,), edge=None, hex=setup.group(2))
    m = _ENTRY.match(text)
    if not m:
        raise RuleError(f"'{code[:20]}' is not a deployment code such as 1⑤N▷1801 or ⑤0606.")
    turn, circles, edge, arrow, number = m.groups()
    boards = tuple(uncircle(c) or 0 for c in circles)
    return DeploySpec(turn=int(turn) if turn else None, boards=boards, edge=edge, arrow=arrow, hex=number)


def _in_segment(spec: DeploySpec, number: HexNumber) -> bool:
    if spec.arrow is None or spec.hex is None:
        return True
    col, row = int(spec.hex[:2]), int(spec.hex[2:])
    return {
        "▷": number.col >= col, "◁": number.col <= col,
        "▽": number.row >= row, "△": number.row <= row,
    }[spec.arrow]


def entry_hexes(layout: MapLayout, spec: DeploySpec) -> list[Hex]:
    """The hexes a unit of ``spec`` may enter by (or set up in), west/north first."""
    if spec.setup:
        assert spec.hex is not None
        return [layout.hex_of(HexNumber(spec.boards[0], int(spec.hex[:2]), int(spec.hex[2:])))]
    out: list[Hex] = []
    for board in spec.boards:
        for h in layout.edge(board, spec.edge or "N"):
            number = layout.number_of(h)
            if number is not None and _in_segment(spec, number):
                out.append(h)
    return out


def may_enter_on(spec: DeploySpec, turn: int) -> bool:
    """12.1 / d: a reinforcement enters on its turn or later (a player may delay it)."""
    return spec.turn is None or turn >= spec.turn


AIRDROP_ENDURANCE = "C"  # 12.2: "a durability rating of 'C' for the attack"


def airdrop_result(result: str) -> str:
    """12.2: a dropped unit hit by anti-aircraft fire is destroyed by M as well as by D."""
    return "D" if result in ("D", "M") else result
