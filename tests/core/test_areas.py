"""The shared area graph on small hand-made maps: adjacency (7.2), range (7.3.1), LOS (7.3.2).

Rule numbers are Raid and Riposte's, the first system on an area map.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.core.areas import AreaGraph, AreaShape, segment_through_interior
from rules.core.table import Polygon


def box(
    area: str, x0: float, y0: float, x1: float, y1: float, blocks: bool = False,
    centre: tuple[float, float] | None = None,
) -> AreaShape:
    """An axis-aligned rectangular area, its dot in the middle unless given."""
    dot = centre or ((x0 + x1) / 2, (y0 + y1) / 2)
    return AreaShape.of(area, [(x0, y0), (x1, y0), (x1, y1), (x0, y1)], dot, blocks)


def grid(blocking: set[str] = frozenset()) -> AreaGraph:
    """A 3 x 3 grid of unit squares named by column and row, "00" .. "22"."""
    return AreaGraph(
        [box(f"{x}{y}", x, y, x + 1, y + 1, f"{x}{y}" in blocking)
         for y in range(3) for x in range(3)],
        tolerance=1e-6,
    )


# -- adjacency (7.2) ---------------------------------------------------------------------------


def test_7_2_a_shared_side_or_a_shared_vertex_makes_areas_adjacent() -> None:
    g = grid()
    assert g.adjacent("00") == {"10", "01", "11"}  # 11 touches 00 at one corner only
    assert g.is_adjacent("00", "11") and g.is_adjacent("11", "00")
    assert not g.is_adjacent("00", "20") and not g.is_adjacent("00", "22")
    assert len(g.adjacent("11")) == 8
    assert "11" not in g.adjacent("11")


def test_7_2_neighbours_come_in_map_order() -> None:
    assert grid().neighbours("11") == ["00", "10", "20", "01", "21", "02", "12", "22"]


def test_7_2_a_corner_resting_on_the_middle_of_a_side_is_adjacent() -> None:
    # "top" spans both lower squares; their shared corner (1, 1) lies mid-way along its side.
    g = AreaGraph([box("left", 0, 0, 1, 1), box("right", 1, 0, 2, 1), box("top", 0, 1, 2, 2)],
                  tolerance=1e-6)
    assert g.adjacent("top") == {"left", "right"}
    assert g.adjacent("left") == {"right", "top"}


def test_7_2_a_gap_wider_than_the_tolerance_separates_areas() -> None:
    near = AreaGraph([box("a", 0, 0, 10, 10), box("b", 10.3, 0, 20, 10)], tolerance=0.5)
    far = AreaGraph([box("a", 0, 0, 10, 10), box("b", 11, 0, 20, 10)], tolerance=0.5)
    assert near.is_adjacent("a", "b")
    assert not far.is_adjacent("a", "b")


# -- range (7.3.1) -----------------------------------------------------------------------------


def test_7_3_1_range_counts_the_target_area_not_the_attacker_area() -> None:
    row = AreaGraph([box(str(i), i, 0, i + 1, 1) for i in range(5)], tolerance=1e-6)
    assert [row.distance("0", str(i)) for i in range(5)] == [0, 1, 2, 3, 4]
    assert row.within("0", 0) == {"0"}
    assert row.within("2", 1) == {"1", "2", "3"}
    assert row.path("0", "4") == ["0", "1", "2", "3", "4"]
    assert row.path("3", "3") == ["3"]


def test_7_3_1_diagonal_steps_count_one_through_a_shared_corner() -> None:
    g = grid()
    assert g.distance("00", "22") == 2
    assert g.path("00", "22") == ["00", "11", "22"]


def test_a_map_in_pieces_has_no_range_between_the_pieces() -> None:
    g = AreaGraph([box("a", 0, 0, 1, 1), box("b", 5, 0, 6, 1)], tolerance=0.1)
    assert not g.reachable("a", "b")
    with pytest.raises(ValueError, match="cannot be reached"):
        g.distance("a", "b")
    assert g.within("a", 10) == {"a"}


# -- line of sight (7.3.2) ---------------------------------------------------------------------


def test_7_3_2_an_intervening_wood_blocks_the_line_between_dots() -> None:
    assert grid({"11"}).blockers("01", "21") == ("11",)
    assert not grid({"11"}).los("01", "21")
    assert not grid({"11"}).los("00", "22")  # the diagonal runs through 11's middle too
    assert grid().los("01", "21")  # the same line over open ground


def test_7_3_2_the_attacker_and_target_areas_never_block() -> None:
    g = grid({"00", "10"})
    assert g.los("00", "10")  # woods to woods, side by side
    assert g.los("00", "00")
    assert g.blockers("10", "20") == ()


def test_7_3_2_los_is_the_same_both_ways() -> None:
    g = grid({"11"})
    assert g.blockers("21", "01") == g.blockers("01", "21") == ("11",)


def strip(target_dot: tuple[float, float]) -> AreaGraph:
    """Attacker | (woods over clear) | target: the line at y = 1 runs along the middle border."""
    return AreaGraph(
        [
            box("attacker", 0, 0, 1, 2, centre=(0.5, 1.0)),
            box("woods", 1, 1, 2, 2, blocks=True),
            box("clear", 1, 0, 2, 1),
            box("target", 2, 0, 3, 2, centre=target_dot),
        ],
        tolerance=1e-6,
    )


def test_7_3_2_a_line_along_the_border_of_a_wood_is_not_blocked() -> None:
    assert strip((2.5, 1.0)).los("attacker", "target")


def test_7_3_2_a_line_that_cuts_into_the_wood_is_blocked() -> None:
    assert strip((2.5, 1.2)).blockers("attacker", "target") == ("woods",)


def test_7_3_2_a_line_through_one_corner_only_is_not_blocked() -> None:
    # The dots' line passes exactly through the wood's corner (1, 1), touching nothing else.
    g = AreaGraph(
        [
            box("a", 0, 0, 1, 1, centre=(0.5, 0.5)),
            box("woods", 1, 1, 2, 2, blocks=True),
            AreaShape.of("b", [(1, 0), (3, 0), (3, 1), (2, 1), (2, 2), (1, 1)], (1.5, 0.5)),
        ],
        tolerance=1e-6,
    )
    assert g.los("a", "b")
    square = Polygon.of([(1, 1), (2, 1), (2, 2), (1, 2)])
    assert not segment_through_interior((0, 0), (1, 1), square, 1e-6)
    assert segment_through_interior((0, 0), (3, 3), square, 1e-6)
    assert not segment_through_interior((0, 1), (3, 1), square, 1e-6)  # along the bottom


# -- points and degenerate input ---------------------------------------------------------------


def test_area_at_finds_the_area_and_gives_borders_to_the_first_in_map_order() -> None:
    g = grid()
    assert g.area_at((2.5, 0.5)) == "20"
    assert g.area_at((1.0, 0.5)) == "00"  # the border of 00 and 10
    assert g.area_at((7.0, 7.0)) is None


def test_duplicate_ids_are_refused() -> None:
    with pytest.raises(ValueError, match="unique"):
        AreaGraph([box("a", 0, 0, 1, 1), box("a", 1, 0, 2, 1)])


def test_outlines_without_a_surface_are_refused() -> None:
    with pytest.raises(ValueError, match="three corners"):
        AreaGraph([AreaShape.of("a", [(0, 0), (1, 1)], (0.5, 0.5))])
    with pytest.raises(ValueError, match="no surface"):
        AreaGraph([AreaShape.of("a", [(0, 0), (5, 5), (10, 10)], (5, 5))])


def test_a_centre_dot_outside_its_area_is_refused() -> None:
    with pytest.raises(ValueError, match="centre dot"):
        AreaGraph([box("a", 0, 0, 10, 10, centre=(12.0, 5.0))])


def test_unknown_areas_raise_key_error_naming_them() -> None:
    g = grid()
    assert "99" not in g and "00" in g and len(g) == 9
    with pytest.raises(KeyError, match="99"):
        g.adjacent("99")
    with pytest.raises(KeyError, match="99"):
        g.los("00", "99")
    with pytest.raises(KeyError, match="99"):
        g.within("99", 1)


def test_an_empty_map_is_an_empty_graph() -> None:
    g = AreaGraph([])
    assert len(g) == 0 and g.area_at((0, 0)) is None


# -- properties on jittered lattices -----------------------------------------------------------


@st.composite
def lattices(draw: st.DrawFn) -> tuple[int, int, AreaGraph]:
    """A cols x rows lattice of quadrilaterals whose corners are jittered (shared exactly)."""
    cols = draw(st.integers(1, 5))
    rows = draw(st.integers(1, 4))
    jitter = st.floats(-0.2, 0.2, allow_nan=False)
    corner = {
        (i, j): (i * 10 + draw(jitter) * 10, j * 10 + draw(jitter) * 10)
        for i in range(cols + 1) for j in range(rows + 1)
    }
    blocking = draw(st.sets(st.tuples(st.integers(0, cols - 1), st.integers(0, rows - 1))))
    shapes = []
    for j in range(rows):
        for i in range(cols):
            ring = [corner[i, j], corner[i + 1, j], corner[i + 1, j + 1], corner[i, j + 1]]
            dot = (sum(p[0] for p in ring) / 4, sum(p[1] for p in ring) / 4)
            shapes.append(AreaShape.of(f"{i},{j}", ring, dot, (i, j) in blocking))
    return cols, rows, AreaGraph(shapes, tolerance=1e-6)


def cell(area: str) -> tuple[int, int]:
    """Column and row from an id "i,j"."""
    i, j = area.split(",")
    return int(i), int(j)


@settings(max_examples=40, deadline=None)
@given(lattices())
def test_7_2_on_a_lattice_every_side_and_corner_neighbour_is_adjacent(
    lattice: tuple[int, int, AreaGraph],
) -> None:
    """Side or vertex (7.2) on a lattice is a king's move; range is the king's distance."""
    _, _, g = lattice
    for a in g.ids:
        ia, ja = cell(a)
        for b in g.ids:
            ib, jb = cell(b)
            king = max(abs(ia - ib), abs(ja - jb))
            assert g.is_adjacent(a, b) == (king == 1)
            assert g.distance(a, b) == king
        assert g.within(a, 1) == g.adjacent(a) | {a}


@settings(max_examples=40, deadline=None)
@given(lattices())
def test_7_3_2_los_is_symmetric_and_neighbours_in_a_row_see_each_other(
    lattice: tuple[int, int, AreaGraph],
) -> None:
    """Blockers are the same both ways; side neighbours have nothing between them to block."""
    cols, rows, g = lattice
    for a in g.ids:
        for b in g.ids:
            assert g.blockers(a, b) == g.blockers(b, a)
            assert a not in g.blockers(a, b) and b not in g.blockers(a, b)
    for j in range(rows):
        for i in range(cols - 1):
            assert g.los(f"{i},{j}", f"{i + 1},{j}")
