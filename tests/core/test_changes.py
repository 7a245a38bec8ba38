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


def test_a_unit_hit_and_moved_in_between_was_hit():
    """Hit, then retreated (rr 7.3.5): the graver change is the one said and tagged."""
    before = table(("A", 1, False))
    after = table(("A", 4, False))
    after.units[0].markers = ["Suppressed"]
    assert [(c.id, c.what) for c in changes_between(before, after)] == [("A", "hit")]


def test_the_digest_leaves_out_a_visit_and_lists_a_mover_once():
    """An aircraft over the hex it struck came and went: neither arrived nor left; a unit
    that entered and then moved is one "Moved" entry."""
    from bot.pacing.digest import without_visits
    from rules.core.views import Change

    changes = [Change(id="F", what="arrived"), Change(id="A", what="arrived"), Change(id="A", what="moved"),
               Change(id="F", what="left", why="aloft"), Change(id="H", what="left", why="aloft")]
    assert [(c.id, c.what) for c in without_visits(changes)] == [("A", "arrived"), ("A", "moved"), ("H", "left")]


def test_fire_still_shown_from_the_players_own_turn_is_not_a_change_since_their_order():
    """Commando keeps a side turn's marks on the map after it ends (the Shooting lines of
    the last turn): PB2 and AC1 fired in the Germans' own turn before their last order, and
    were still drawn when the Germans were pinged, "changed since your last order".  A unit
    fired since when a view shows it firing and the one before did not."""
    from rules.core.views import Mark, changes_over

    def shown(*by: str) -> TableView:
        view = table(("PB2", 1, False), ("AC1", 2, False), ("C1", 3, False))
        view.marks = [Mark(kind="shot", points=[(1, 1), (3, 1)], by=[uid]) for uid in by]
        return view

    at_order = shown("PB2", "AC1")  # the Germans' last order: their own turn's fire drawn
    between = [shown("PB2", "AC1"), shown("C1")]  # the commandos' turn: C1 fires
    after = shown("C1")
    assert [(c.id, c.what) for c in changes_over(at_order, between, after)] == [("C1", "fired")]
    again = [shown("PB2", "AC1"), shown(), shown("PB2")]  # PB2 fires again later: it counts
    assert ("PB2", "fired") in [(c.id, c.what) for c in changes_over(at_order, again, shown("PB2"))]
