"""Raiders' free orders (issue 43): the computer stalled seed 1020's single mission (M2, three
fuel dumps and a road block) on gear trades, 23.2 ("You can trade items of gear between raider
units in the same operating force at the start of a movement segment": no card, no Op), as
every real move looked worse than standing still; 360 orders were traced without an end.
Raiders now declares its free orders (``rules/raiders/outlook.py``: 23.2 trade, 12.0 split,
10.3 join, 15.1 (4) line, 13.0 a move between Staging Areas) and the computer gives at most
``FREE_IN_A_ROW`` of them in a row.
"""

from __future__ import annotations

import pytest

from rules.core import registry
from rules.core.matches import play_match
from rules.raiders import SYSTEM
from rules.raiders import actions as A
from rules.raiders.outlook import FREE_IN_A_ROW
from tests.raiders.helpers import mission, mission_state, put


@pytest.fixture
def single(monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    """Raiders as tools/raiders_single.py plays it: one mission (6.0) a game."""
    system = registry.get("raiders")
    monkeypatch.setattr(system, "playout_hints", system.playout_hints.model_copy(
        update={"options": {**system.playout_hints.options, "single": True}}))
    return system


def test_seed_1020_first_orders_reach_the_cap_and_never_pass_it(single) -> None:  # type: ignore[no-untyped-def]
    # The loop began at the mission's first orders: the 14th decision already comes after
    # FREE_IN_A_ROW free ones.  The whole mission, to its end, runs behind ``slow`` (18 s).
    game = play_match(single, 1020, {"raiders": "normal"}, max_orders=20)
    assert game.illegal == 0
    runs = [t.free_run for t in game.thoughts]
    # The guard bound (the loop was there) and was never passed.
    assert max(runs) == FREE_IN_A_ROW


@pytest.mark.slow
def test_seed_1020_single_mission_ends_and_no_free_run_passes_the_cap(single) -> None:  # type: ignore[no-untyped-def]
    game = play_match(single, 1020, {"raiders": "normal"}, max_orders=400)
    assert game.finished and game.illegal == 0
    runs = [t.free_run for t in game.thoughts]
    assert max(runs) == FREE_IN_A_ROW


def test_free_orders_are_the_declared_ones_and_a_move_only_into_another_staging_area() -> None:
    state = put(mission_state("M1"), "siwa", "Cdo-1")  # Siwa, Matruh, Kufra: Staging Areas (3.0)
    assert SYSTEM.search_hints.free_in_a_row == FREE_IN_A_ROW
    for action in (A.Trade(gear="x1", to="u1"), A.Split(unit="Cdo-1"), A.Join(force="F1", into="F2"),
                   A.Line(order="Cdo-1")):
        assert SYSTEM.free_order(state, "raiders", action), action
    # 13.0: "When an operating force completes a move into a Staging Area, you do not pick an
    # operations card"; staying put, or moving anywhere else, draws one.
    assert SYSTEM.free_order(state, "raiders", A.Move(force="F1", to="matruh"))
    assert not SYSTEM.free_order(state, "raiders", A.Move(force="F1", to="siwa"))
    assert not SYSTEM.free_order(state, "raiders", A.Move(force="F1", to="gazala"))
    assert not SYSTEM.free_order(state, "raiders", A.EndOp())
    # Cargo carried in is delivered (18.4): progress, not a free order.
    mission(state).units[[u.id for u in mission(state).units].index("Cdo-1")].carrying = "m1"
    assert not SYSTEM.free_order(state, "raiders", A.Move(force="F1", to="matruh"))
