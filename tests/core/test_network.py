"""The shared point-to-point graph: neighbours, reach with STOP spaces, shortest paths."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.core.network import Network, Route


def line_with_branch() -> Network:
    """a - b - c - d, b - e (track), a ~ d by water."""
    return Network(
        ["a", "b", "c", "d", "e"],
        [
            Route(a="a", b="b"),
            Route(a="b", b="c"),
            Route(a="c", b="d"),
            Route(a="b", b="e", kind="track"),
            Route(a="a", b="d", kind="water"),
        ],
    )


def test_neighbours_in_map_order_and_by_kind() -> None:
    net = line_with_branch()
    assert net.neighbours("b") == ["a", "c", "e"]
    assert net.neighbours("b", kinds={"road"}) == ["a", "c"]
    assert net.neighbours("a", kinds={"water"}) == ["d"]
    assert net.adjacent("a", "d") and not net.adjacent("a", "c")
    assert net.route_kinds("d", "a") == {"water"}


def test_reachable_counts_steps() -> None:
    net = line_with_branch()
    assert net.reachable("a", 1, kinds={"road"}) == {"a": 0, "b": 1}
    assert net.reachable("a", 2, kinds={"road", "track"}) == {"a": 0, "b": 1, "c": 2, "e": 2}
    assert net.reachable("a", 0) == {"a": 0}


def test_stop_space_may_be_entered_but_not_left() -> None:
    # Raiders 12.0: a force entering a STOP space moves no farther.
    net = line_with_branch()
    reach = net.reachable("a", 3, stops={"b"}, kinds={"road", "track"})
    assert reach == {"a": 0, "b": 1}
    # The start is being left, so a STOP start does not hold the mover.
    assert "c" in net.reachable("b", 1, stops={"b"})


def test_path_shortest_and_blocked() -> None:
    net = line_with_branch()
    assert net.path("a", "c", kinds={"road"}) == ["a", "b", "c"]
    assert net.path("a", "d") == ["a", "d"]
    assert net.path("a", "d", kinds={"road"}) == ["a", "b", "c", "d"]
    assert net.path("a", "c", stops={"b"}, kinds={"road"}) is None
    assert net.path("a", "a") == ["a"]


def test_bad_routes_refused() -> None:
    with pytest.raises(ValueError):
        Network(["a"], [Route(a="a", b="z")])
    with pytest.raises(ValueError):
        Network(["a"], [Route(a="a", b="a")])
    with pytest.raises(ValueError):
        Network(["a", "a"], [])


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7)), max_size=20),
    st.integers(0, 7),
    st.integers(0, 4),
    st.sets(st.integers(0, 7)),
)
def test_reachable_agrees_with_path(
    edges: list[tuple[int, int]], start: int, steps: int, stops: set[int]
) -> None:
    """Every reachable space has a path no longer than its distance, and vice versa."""
    names = [f"s{i}" for i in range(8)]
    routes = [Route(a=names[x], b=names[y]) for x, y in edges if x != y]
    net = Network(names, routes)
    stop_names = {names[i] for i in stops}
    reach = net.reachable(names[start], steps, stops=stop_names)
    for goal in names:
        path = net.path(names[start], goal, stops=stop_names)
        if goal in reach:
            assert path is not None and len(path) - 1 == reach[goal]
        elif path is not None:
            assert len(path) - 1 > steps
