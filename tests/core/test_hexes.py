"""The hex core (rules/core/hexes.py): coordinates, the book's numbers, boards, lines of sight."""

from __future__ import annotations

import pytest

from rules.core.errors import RuleError
from rules.core.hexes import (
    BoardPlacement,
    Hex,
    HexNumber,
    MapLayout,
    circled,
    direction_to,
    distance,
    from_offset,
    line,
    line_clear,
    neighbours,
    parse_number,
    ring,
    side,
    sides_crossed,
    sight_pairs,
    to_offset,
    uncircle,
    within,
)

ORIGIN = Hex(0, 0)


def test_distance_does_not_count_the_attackers_hex():
    # 5.1.1 / Figure 1: the attacker's hex is not counted, so a neighbour is at 1.
    assert distance(ORIGIN, ORIGIN) == 0
    for n in neighbours(ORIGIN):
        assert distance(ORIGIN, n) == 1
    assert distance(ORIGIN, Hex(3, -1)) == 3
    assert distance(Hex(-2, 5), Hex(4, -3)) == 8


def test_distance_is_symmetric_and_a_metric_on_a_patch():
    patch = within(ORIGIN, 3)
    assert len(patch) == 37
    for a in patch[:12]:
        for b in patch:
            assert distance(a, b) == distance(b, a)
            for c in patch[:7]:
                assert distance(a, b) <= distance(a, c) + distance(c, b)


def test_neighbours_ring_and_direction():
    assert len(set(neighbours(ORIGIN))) == 6
    assert len(ring(ORIGIN, 2)) == 12 and all(distance(ORIGIN, h) == 2 for h in ring(ORIGIN, 2))
    assert direction_to(ORIGIN, Hex(0, -1)) == 0  # north
    assert direction_to(ORIGIN, Hex(1, 0)) == 2  # south-east
    assert direction_to(ORIGIN, Hex(2, 0)) is None


def test_offset_round_trip_and_column_parity():
    # Even-numbered book columns (0-based odd) sit half a hex lower: 0201 is south-east of 0101.
    for col in range(6):
        for row in range(6):
            assert to_offset(from_offset(col, row)) == (col, row)
    a, b = from_offset(0, 0), from_offset(1, 0)
    assert direction_to(a, b) == 2  # 0101 -> 0201 is SE
    c, d = from_offset(1, 0), from_offset(2, 0)
    assert direction_to(c, d) == 1  # 0201 -> 0301 is NE


def test_book_numbers_parse_in_both_spellings():
    assert parse_number("5:1801") == HexNumber(5, 18, 1)
    assert parse_number("⑤1801") == HexNumber(5, 18, 1)
    assert parse_number("1801", default_board=3) == HexNumber(3, 18, 1)
    assert HexNumber(5, 18, 1).label() == "5:1801"
    assert circled(5) == "⑤" and uncircle("⑤") == 5 and uncircle("5") is None
    with pytest.raises(RuleError, match="not a hex"):
        parse_number("18-1")
    with pytest.raises(RuleError, match="needs its board"):
        parse_number("1801")


def test_boards_side_by_side():
    layout = MapLayout.side_by_side([5, 6])
    assert layout.width == 40 and layout.height == 30
    east_of_5 = layout.parse("5:2001")
    west_of_6 = layout.parse("6:0101")
    assert distance(east_of_5, west_of_6) == 1  # the boards join edge to edge
    assert layout.label(west_of_6) == "6:0101"
    assert layout.number_of(from_offset(40, 0)) is None
    with pytest.raises(RuleError, match="off board 5"):
        layout.parse("5:2101")
    with pytest.raises(RuleError, match="not on this map"):
        layout.parse("7:0101")
    assert [layout.label(h) for h in layout.edge(5, "N")[:2]] == ["5:0101", "5:0201"]
    assert len(layout.all_hexes()) == 1200


def test_boards_may_not_overlap_or_break_parity():
    with pytest.raises(ValueError, match="overlap"):
        MapLayout(boards=[BoardPlacement(board=1), BoardPlacement(board=2, col=10)])
    with pytest.raises(ValueError, match="even"):
        BoardPlacement(board=1, col=3)


def test_line_inside_hexes():
    a, b = ORIGIN, Hex(5, -2)
    pairs = sight_pairs(a, b)
    assert len(pairs) == distance(a, b) + 1
    assert pairs[0] == (a, a) and pairs[-1] == (b, b)
    path = line(a, b)
    assert all(distance(path[i], path[i + 1]) == 1 for i in range(len(path) - 1))
    assert len(sides_crossed(path)) == 5


def test_line_along_a_hexside_offers_both_hexes():
    # 6.1.1: "a straight line from any part of the hex ... to any part of the target's hex".
    # Centre to centre two hexes apart NE+SE runs exactly along the side between the two
    # middle hexes: both are offered, and the line is blocked only when both block.
    a, b = ORIGIN, Hex(2, -1)
    pairs = sight_pairs(a, b)
    assert set(pairs[1]) == {Hex(1, -1), Hex(1, 0)}
    forest = {Hex(1, -1)}
    assert line_clear(a, b, lambda i, h: h not in forest)
    forest = {Hex(1, -1), Hex(1, 0)}
    assert not line_clear(a, b, lambda i, h: h not in forest)


def test_line_along_hexsides_may_change_side_step_by_step():
    a, b = ORIGIN, Hex(4, -2)
    pairs = sight_pairs(a, b)
    left = {p[0] for p in pairs[1:-1]}
    right = {p[1] for p in pairs[1:-1]}
    # one block on each side, at different steps: still clear (take the other side each time)
    blocked = {pairs[1][0], pairs[3][1]}
    assert left != right
    assert line_clear(a, b, lambda i, h: h not in blocked)


def test_ends_do_not_block_and_sides_are_checked():
    # 6.1.2: the viewer's and the target's own hexes never obstruct.
    a, b = ORIGIN, Hex(0, 3)
    assert line_clear(a, b, lambda i, h: h not in {a, b})
    ridge = {side(Hex(0, 1), Hex(0, 2))}
    assert not line_clear(a, b, lambda i, h: True, lambda i, x, y: side(x, y) not in ridge)
    assert line_clear(a, b, lambda i, h: True, lambda i, x, y: True)
    assert line_clear(a, a, lambda i, h: False)
