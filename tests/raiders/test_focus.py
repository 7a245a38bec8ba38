"""The phone-width picture's focus (issue 40): while recruiting it shows the Staging Areas."""

from __future__ import annotations

from rules.raiders import SYSTEM
from rules.raiders import actions as A
from tests.raiders.helpers import do, mission_state, put


def test_opening_focus_holds_the_staging_areas() -> None:
    """9.0: recruits are placed in a Staging Area, so the first picture shows all of them."""
    assert SYSTEM.view(mission_state("M2")).focus == ["siwa", "matruh", "kufra"]


def test_operation_focus_is_where_the_raiders_stand() -> None:
    """11.0: once the Ops begin, the focus is the raiders' spaces, not the Staging Areas."""
    state = put(mission_state("M1"), "siwa", "Cdo-1")
    state.phase = "ops"
    moved = do(state, A.Move(force="F1", to="jarabub"), [1]).state
    assert SYSTEM.view(moved).focus == ["jarabub"]
