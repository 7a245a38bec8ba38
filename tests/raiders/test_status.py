"""``/game status``, the picture's changes and the digest's words as the player reads them
(on a 40-column phone screen): only what stands on the map, only the orders legal now."""

from __future__ import annotations

from rules.raiders import SYSTEM
from rules.raiders import actions as A
from rules.raiders.state import RaidersState
from tests.raiders.helpers import do, mission, mission_state, put

PHONE = 40


def now_orders(state: RaidersState) -> set[str]:
    """The order names the status's ``Now:`` lines list."""
    status = SYSTEM.status(state)
    start = next(i for i, line in enumerate(status) if line.startswith("Now:"))
    text = " ".join(status[start:])[len("Now:"):]
    return {w.strip(" ,") for w in text.replace(" or ", ",").split(",") if w.strip(" ,")}


def legal_names(state: RaidersState) -> set[str]:
    """The names of the orders that change something, legal now."""
    return {a.name for a in SYSTEM.legal_actions(state, "raiders") if not a.read_only}


def test_status_in_a_battle_shows_only_the_raiders_standing_and_who_fires() -> None:
    """15.1 (3): "If the die roll is equal to or less than the raider's combat value, the
    hostile is eliminated" — a raider eliminated this round is gone from the force's list;
    the status shows the round, both lines and the raider whose die is next."""
    state = mission_state("M1")
    state = do(state, A.Recruit(unit="sas", at="matruh")).state
    state = do(state, A.Recruit(unit="commando", at="matruh")).state
    state = do(state, A.Begin()).state
    # C4 Ambush: AC-1, Ger-1, Ita-1; the hostiles have the Edge (see test_battle).
    step = do(state, A.Move(force="F1", to="sidi-rezegh"), [4, 7, 1, 11, 3, 4])
    step = do(step.state, A.Line(order="Cdo-1 SAS-1"), [5])
    step = do(step.state, A.Fire(target="AC-1"), [2, 3])  # AC-1 and Cdo-1 eliminated
    status = SYSTEM.status(step.state)
    assert "Battle at Sidi Rezegh · round 1 (15.1)" in status
    assert "Raiders: SAS-1" in status and "Hostiles: Ger-1 Ita-1" in status
    assert "Fires next: SAS-1" in status and "F1 (Sidi Rezegh, 1 unit)" in status
    assert "Cdo-1" not in " ".join(line for line in status if not line.startswith("Battle"))
    assert status[-1] == "Now: SAS-1 fires: pick a target (fire)"
    assert all(len(line) <= PHONE for line in status)


def test_status_camp_leaves_out_hostiles_killed_in_the_battle() -> None:
    """8.0 (1) (our reading): a camp's survivors stay; one eliminated in the battle under way
    is not listed in the camp any more."""
    state = put(mission_state("M4"), "kufra", "Cdo-1", "Cdo-2")
    step = do(state, A.Move(force="F1", to="gialo"), [1, 6, 1])  # C1; camp Ita-1 Ita-2
    m = mission(step)
    assert m.battle is not None
    m.battle.dead.append("Ita-1")
    status = SYSTEM.status(step.state)
    assert "Camp at Gialo: 1 hostile" in status and "  Ita-2" in status
    assert "  Ita-1 Ita-2" not in status


def test_now_lists_only_the_orders_legal_now() -> None:
    """11.0 (5): in the Objective segment "Now:" names only what is accepted (no carry
    without cargo, no drop without a carrier); at the start of an Op the same."""
    state = put(mission_state("M1"), "eladem", "Spr-1")
    m = mission(state)
    mk = next(mk for mk in m.markers if mk.space == "eladem")
    mk.revealed, mk.type, mk.garrison_faced = True, "aircraft", True
    m.segment, m.force, m.moved = "objective", "F1", True
    assert now_orders(state) == legal_names(state) == {"demolish", "end-op"}
    start = put(mission_state("M1"), "matruh", "Cdo-1")
    assert now_orders(start) == legal_names(start)
    assert all(len(line) <= PHONE for line in SYSTEM.status(start))
