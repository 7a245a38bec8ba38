"""What changed for each unit between views (the ping, ``/game status``) and along a run of
them (the digest): pure functions of the views, the same on every geometry."""

from __future__ import annotations

from rules.core.views import Header, TableUnit, TableView, change_lines, changes_along, changes_between


def table(*units: tuple[str, float, bool], away: dict[str, str] | None = None) -> TableView:
    """A bare table with bases ``(id, x, eliminated)``."""
    return TableView(header=Header(title="t"), width=48, height=36, away=away or {},
                     units=[TableUnit(id=i, label=i, faction="a", x=x, y=1, eliminated=e)
                            for i, x, e in units])


def test_a_unit_gone_from_the_map_was_eliminated_unless_the_view_says_it_is_away():
    before = table(("A", 1, False), ("B", 2, False))
    gone = table(("A", 1, False))
    assert [(c.id, c.what) for c in changes_between(before, gone)] == [("B", "eliminated")]
    left = table(("A", 1, False), away={"B": "aboard"})
    assert [(c.id, c.what, c.why) for c in changes_between(before, left)] == [("B", "left", "aboard")]
    assert change_lines(changes_between(before, left)) == ["Off the map: B (aboard)"]


def test_along_a_run_nothing_is_missed_that_the_ends_alone_would_hide():
    start = table(("A", 1, False))
    arrived = table(("A", 5, False), ("S", 3, False))  # A moves, S arrives
    back = table(("A", 1, False), ("S", 3, True))  # A moves back, S falls
    ends = changes_between(start, back)
    assert ends == []  # the ends alone: A where it was, S never seen alive
    along = changes_along([start, arrived, back])
    assert [(c.id, c.what) for c in along] == [("A", "moved"), ("S", "arrived"), ("S", "eliminated")]
    assert changes_along([start]) == []
