"""The shared tabletop geometry in inches (rules/core/table.py)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.core import table
from rules.core.errors import RuleError

SQUARE = table.rectangle(2, 2, 4, 4)


def test_distances_and_inches_text() -> None:
    """Distances are straight lines, shown to one decimal with an inch mark."""
    assert table.distance((0, 0), (3, 4)) == 5.0
    assert table.inches(18.44) == '18.4"'
    assert table.path_length([(0, 0), (3, 4), (3, 10)]) == 11.0


@pytest.mark.parametrize(("leg", "step", "actions"), [
    (0.0, 6, 0), (0.5, 6, 1), (6.0, 6, 1), (6.04, 6, 1), (6.06, 6, 2), (12.0, 6, 2),
    (18.4, 6, 4), (13, 12, 2),
])
def test_legs_needed(leg: float, step: float, actions: int) -> None:
    """One straight move of at most ``step`` per action."""
    assert table.legs_needed(leg, step) == actions


def test_headings_and_angles() -> None:
    """Compass bearings (0 = north = up the picture, clockwise) against table angles
    (0 = east, 90 = south: y grows down the picture, as the renderer draws)."""
    assert table.heading_to_angle(0) == 270
    assert table.heading_to_angle(90) == 0
    assert table.heading_to_angle(180) == 90
    assert table.angle_to_heading(180) == 270
    assert table.compass_name(90) == "S"
    assert table.compass_name(315) == "NE"
    assert table.angle_between(350, 10) == 20


def test_arcs() -> None:
    """A point is in a 180 degree arc when within 90 degrees of the facing; edges count."""
    north = 270.0
    assert table.in_arc((0, 0), north, 180, (0, -5))
    assert table.in_arc((0, 0), north, 180, (5, 0))  # on the edge
    assert not table.in_arc((0, 0), north, 180, (1, 1))
    assert table.in_arc((0, 0), north, 360, (0, 5))


def test_moving_away() -> None:
    """Directly away: the move heads along the line from the source through the mover."""
    assert table.moving_away((0, 5), (0, 10), (0, 0), 45)
    assert table.moving_away((0, 5), (3, 10), (0, 0), 45)
    assert not table.moving_away((0, 5), (6, 5), (0, 0), 45)


def test_point_in_polygon_and_distance_to_shape() -> None:
    """Inside counts 0; outside is the distance to the nearest edge or the circle."""
    assert table.point_in_polygon((3, 3), SQUARE)
    assert not table.point_in_polygon((5, 3), SQUARE)
    assert table.distance_to_shape((3, 3), SQUARE) == 0
    assert table.distance_to_shape((7, 3), SQUARE) == 3
    assert table.distance_to_shape((10, 0), table.Circle((0, 0), 4)) == 6


def test_first_contact_with_clearance() -> None:
    """A 0.5" disc moving along y=3 touches the square's x=2 side when its centre is at 1.5."""
    t = table.first_contact((0, 3), (10, 3), SQUARE, 0.5)
    assert t == pytest.approx(0.15)
    assert table.first_contact((0, 3), (0, 10), SQUARE, 0.5) is None


def test_first_contact_at_a_corner_is_round() -> None:
    """Past a corner the swept disc meets the rounded corner, not the extended side."""
    t = table.first_contact((0, 0), (10, 0), table.rectangle(5, 0.8, 6, 2), 1.0)
    assert t is not None
    x = 10 * t
    assert math.hypot(5 - x, 0.8) == pytest.approx(1.0)


def test_touching_shapes_slide_and_leave_but_do_not_enter() -> None:
    """A disc resting against a side may move along or away; moving in stops it at once."""
    assert table.first_contact((1.5, 3), (1.5, 10), SQUARE, 0.5) is None
    assert table.first_contact((1.5, 3), (0, 3), SQUARE, 0.5) is None
    assert table.first_contact((1.5, 3), (3, 3), SQUARE, 0.5) == 0.0


def test_circle_contact_and_segment_crossing() -> None:
    """Circle entry is exact; cover is a line through a shape's interior."""
    t = table.first_contact((0, 0), (10, 0), table.Circle((5, 0), 1), 0.5)
    assert t == pytest.approx(0.35)
    assert table.segment_crosses((0, 3), (10, 3), SQUARE)
    assert not table.segment_crosses((0, 5), (10, 5), SQUARE)
    assert table.segment_crosses((0, 0), (10, 0), table.Circle((5, 0.5), 1))
    assert table.segment_hits((0, 5), (10, 5), SQUARE, 1.5)
    assert not table.segment_hits((0, 6), (10, 6), SQUARE, 1.5)


def test_first_contact_among_picks_the_nearest() -> None:
    """The earliest contact along the path wins, keyed by id."""
    shapes = {"far": table.rectangle(8, -1, 9, 1), "near": table.Circle((4, 0), 0.5)}
    hit = table.first_contact_among((0, 0), (10, 0), shapes)
    assert hit is not None and hit.key == "near" and hit.t == pytest.approx(0.35)
    assert table.first_contact_among((0, 5), (10, 5), shapes) is None


def test_nearest_and_within() -> None:
    """Nearest-unit queries, optionally within a range."""
    items = [("a", (0.0, 5.0)), ("b", (3.0, 0.0)), ("c", (20.0, 0.0))]
    assert table.nearest((0, 0), items) == ("b", 3.0)
    assert table.nearest((0, 0), items, within=2) is None
    assert [i for i, _ in table.within((0, 0), items, 12)] == ["b", "a"]


def test_parse_place_forms() -> None:
    """A place: x,y; heading:distance (degrees or compass); a unit; a named point."""
    named = {"Pump house": (40.0, 14.0)}
    units = {"A1": (10.0, 10.0)}
    assert table.parse_place("12, 30.5", None, named, units).point == (12, 30.5)
    assert table.parse_place("N:6", (1, 7), named, units).point == pytest.approx((1, 1))
    assert table.parse_place("90:6", (1, 1), named, units).point == pytest.approx((7, 1))
    assert table.parse_place("sw:2", (0, 0), named, units).point == pytest.approx(
        (-math.sqrt(2), math.sqrt(2)))
    assert table.parse_place("a1", (0, 0), named, units).kind == "unit"
    assert table.parse_place("pump HOUSE", (0, 0), named, units).point == (40, 14)


@pytest.mark.parametrize("text", ["", "x,y", "1,2,3", "nan,1", "Q:6", "N:-3", "N:inf", "Moon"])
def test_parse_place_refuses_garbage(text: str) -> None:
    """Anything else is a RuleError naming the accepted forms."""
    with pytest.raises(RuleError):
        table.parse_place(text, (0, 0), {}, {})


def test_heading_needs_an_origin() -> None:
    """heading:distance is measured from a unit."""
    with pytest.raises(RuleError, match="needs a unit"):
        table.parse_place("N:6", None, {}, {})


coords = st.floats(min_value=-20, max_value=20, allow_nan=False)


@settings(max_examples=200, deadline=None)
@given(ax=coords, ay=coords, bx=coords, by=coords, clearance=st.floats(0.1, 2.0))
def test_first_contact_never_passes_through(
    ax: float, ay: float, bx: float, by: float, clearance: float
) -> None:
    """Property: up to the contact point the disc keeps its clearance; past it, it would not."""
    shape = table.Polygon.of([(-3, -2), (4, -3), (2, 5)])
    a, b = (ax, ay), (bx, by)
    if table.distance_to_shape(a, shape) < clearance:
        return
    t = table.first_contact(a, b, shape, clearance)
    end = 1.0 if t is None else t
    for i in range(21):
        p = table.lerp(a, b, end * i / 20)
        assert table.distance_to_shape(p, shape) >= clearance - 1e-6
    if t is not None and t < 1.0:
        beyond = table.lerp(a, b, min(1.0, t + 1e-3 / max(table.distance(a, b), 1e-9)))
        assert table.distance_to_shape(beyond, shape) <= clearance + 1e-6


def test_rules_compare_what_the_tape_shows() -> None:
    """A length printed as 6.0" is not "more than 6"" (a base stopped on the 6" line)."""
    assert table.inches(6.0009) == '6.0"'
    assert not table.beyond(6.0009, 6)
    assert table.beyond(6.06, 6)
    assert table.nearest((0, 0), [("a", (12.04, 0.0))], within=12) == ("a", 12.04)


# -- lines, sides and templates (added for the platoon skirmish) --------------------------------


def test_segment_intersection_finds_the_crossing() -> None:
    from rules.core.table import segment_intersection

    assert segment_intersection((0, 0), (4, 4), (0, 4), (4, 0)) == pytest.approx((2, 2))
    assert segment_intersection((0, 0), (1, 1), (3, 0), (3, 5)) is None


def test_in_front_of_uses_the_front_edge() -> None:
    from rules.core.table import in_front_of

    # facing east (0), base radius 1: the front line is x = 1
    assert in_front_of((0, 0), 0.0, 1.0, (5, 3))
    assert not in_front_of((0, 0), 0.0, 1.0, (0.5, 8))
    assert not in_front_of((0, 0), 0.0, 1.0, (-5, 0))


def test_oriented_square_faces_the_point() -> None:
    from rules.core.table import distance, oriented_square

    square = oriented_square((10, 10), (10, 0), 6)
    xs = sorted(round(p[0], 6) for p in square.points)
    ys = sorted(round(p[1], 6) for p in square.points)
    assert xs == [7, 7, 13, 13] and ys == [7, 7, 13, 13]
    diag = oriented_square((0, 0), (5, 5), 6)
    # turned 45 degrees: corners lie on the axes, 3*sqrt(2) from the centre
    assert all(distance((0, 0), p) == pytest.approx(18 ** 0.5) for p in diag.points)
