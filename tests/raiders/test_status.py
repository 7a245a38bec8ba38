"""``/game status``, the picture's changes and the digest's words as the player reads them
(on a 40-column phone screen): only what stands on the map, only the orders legal now."""

from __future__ import annotations

import pytest

from bot.pacing.digest import digest_lines, turn_key, turn_name
from bot.store import StepRow
from render import focus, snapshot
from render.chrome import header_turn
from rules.core.errors import RuleError
from rules.core.views import Header, change_lines, changes_between
from rules.raiders import SYSTEM
from rules.raiders import actions as A
from rules.raiders.campaign import end_mission
from rules.raiders.state import RaidersState
from tests.raiders.helpers import ctx, do, give, mission, mission_state, put, texts

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
    assert "Battle at Sidi Rezegh · round 1" in status
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
    state = put(mission_state("M1"), "el-adem", "Spr-1")
    m = mission(state)
    mk = next(mk for mk in m.markers if mk.space == "el-adem")
    mk.revealed, mk.type, mk.garrison_faced = True, "aircraft", True
    m.segment, m.force, m.moved = "objective", "F1", True
    assert now_orders(state) == legal_names(state) == {"demolish", "end-op"}
    start = put(mission_state("M1"), "matruh", "Cdo-1")
    assert now_orders(start) == legal_names(start)
    # 22.0: a guide may swap the drawn card (LRDG-1 is one).
    card = do(put(mission_state("M1"), "siwa", "LRDG-1"), A.Move(force="F1", to="jarabub"), [4]).state
    assert legal_names(card) == {"accept", "swap"}
    assert SYSTEM.status(card)[-1] == "Now: swap or accept C4"
    assert all(len(line) <= PHONE for line in SYSTEM.status(start))


def row(seq: int, state: RaidersState, side: str | None = "raiders") -> StepRow:
    """A log row of ``state`` (for the digest)."""
    return StepRow(game_id=1, seq=seq, parent_seq=seq - 1 if seq else None, kind="order", side=side,
                   state_json=state.model_dump_json())


def test_a_lost_battle_sends_its_survivors_back_to_the_bin_not_eliminated() -> None:
    """14.0: "Hostile units are automatically removed from the map after the battle
    concludes, and placed back in the Hostiles Bin" — the survivors of a lost battle are off
    the map, not eliminated; the raiders that fell are."""
    state = mission_state("M1")
    state = do(state, A.Recruit(unit="sas", at="matruh")).state
    state = do(state, A.Recruit(unit="commando", at="matruh")).state
    state = do(state, A.Begin()).state
    step = do(state, A.Move(force="F1", to="sidi-rezegh"), [4, 7, 1, 11, 3, 4])
    mid = do(step.state, A.Line(order="Cdo-1 SAS-1"), [5]).state
    step = do(mid, A.Fire(target="AC-1"), [6, 1])  # Cdo-1 misses, Ger-1 eliminates it
    lost = do(step.state, A.Fire(target="Ger-1"), [6, 1]).state  # SAS-1 misses, Ita-1 hits
    lines = change_lines(changes_between(SYSTEM.view(mid), SYSTEM.view(lost)))
    assert lines == ["Eliminated: Cdo-1, SAS-1",
                     "Off the map: AC-1 (back in the bin), Ger-1 (back in the bin), Ita-1 (back in the bin)"]
    digest = digest_lines(SYSTEM, row(0, mid), [row(1, lost)], "d")
    assert "Losses: eliminated Cdo-1, SAS-1" in digest
    assert any(line.startswith("Off the map: AC-1 (back in the bin)") for line in digest)


def test_next_mission_returns_the_units_to_the_pool_not_eliminated() -> None:
    """25.0: "At the conclusion of a scenario, return all of your units to the Recruit
    Pool. You keep any leaders who survived that scenario." — not losses."""
    state = put(mission_state("M1"), "siwa", "Cdo-1", "Ldr-1")
    c = ctx(state)
    end_mission(c)
    ended = c.state
    nxt = do(ended, A.NextMission(), [1]).state  # lost, M1 drawn again
    lines = change_lines(changes_between(SYSTEM.view(ended), SYSTEM.view(nxt)))
    assert lines == ["Off the map: Cdo-1 (in the pool), Ldr-1 (kept leader)"]
    digest = digest_lines(SYSTEM, row(0, ended), [row(1, nxt)], "d")
    assert "Losses: none." in digest
    assert "Off the map: Cdo-1 (in the pool), Ldr-1 (kept leader)" in digest


def test_pictures_and_digests_count_ops_of_the_mission() -> None:
    """11.0: "The number of Ops is tallied by the number of Ops cards remaining" — Raiders
    counts Ops, one set per mission: the header and the digest say "M1 Op 1", not "Turn 1";
    other systems keep "Turn"."""
    state = put(mission_state("M1"), "matruh", "Cdo-1")
    header = SYSTEM.view(state).header
    assert header_turn(header) == "M1 Op 1" and turn_name(SYSTEM, state, 1) == "M1 Op 1"
    assert header_turn(Header(title="x", turn=3, max_turn=7)) == "Turn 3/7"
    # A new mission's Op 1 is a new turn for the digest, though the number is the same.
    assert turn_key(SYSTEM, state) == (1, "M1 Op") != turn_key(SYSTEM, mission_state("M4"))


def test_join_says_which_force_joins_which() -> None:
    """10.3: merging forces in one space: "F2 joins F1", not a unit "… of F2 join F1"."""
    state = put(mission_state("M1"), "siwa", "Cdo-1", "Cdo-2")
    state = do(state, A.Split(unit="Cdo-2")).state
    step = do(state, A.Join(force="F2", into="F1"))
    assert texts(step) == ["F2 joins F1: F1 has 2 units now (10.3)"]


def test_a_static_unit_carries_no_gear() -> None:
    """23.2: "each leader can transport (and use) one item of gear, while each mobile unit
    can transport and use two" — a static unit none: say so, not "can hold 0 and is full"."""
    state = put(mission_state("M1"), "matruh", "VN-1", "Cdo-1")
    give(state, "Cdo-1", "Sup-1")
    with pytest.raises(RuleError, match=r"^VN-1 is static: it carries no gear \(23.2\)\.$"):
        do(state, A.BuyGear(item="supply", unit="VN-1"))
    with pytest.raises(RuleError, match="VN-1 is static: it carries no gear"):
        do(state, A.Trade(gear="Sup-1", to="VN-1"))


def test_a_delivered_marker_reads_delivered() -> None:
    """18.4: cargo delivered in a Staging Area leaves the map: ``Obj-1: delivered``."""
    state = put(mission_state("M3"), "matruh", "LRDG-1")
    mk = mission(state).markers[0]
    mk.revealed, mk.type, mk.space, mk.delivered = True, "pow", None, True
    assert "Obj-1: delivered" in SYSTEM.status(state)


def test_hold_objective_is_not_held_while_hostiles_stand_there_and_never_ends_early() -> None:
    """M4 "Hold Gialo at the end": 6.0 "If you have fulfilled this mission by the end of
    the game, you win"; 11.1 lets a mission stop early only "if you win before then", and a
    hold objective is won only at the end (11.2) — no ✓ while a battle or a camp is in the
    space, no end-mission after winning there in Op 1 of 7."""
    state = put(mission_state("M4"), "kufra", "Cdo-1")
    step = do(state, A.Move(force="F1", to="gialo"), [1, 6, 1])  # C1; the Well guard camp
    status = SYSTEM.status(step.state)
    assert "Gialo not held (at the end, 11.2)" in status
    assert not any("✓" in line for line in status)
    # Cdo-1 wipes the camp out (see test_situation); the Op ends, the next one starts.
    won = do(step.state, A.Fire(target="Ita-1"), [1, 6, 1, 1, 2])
    m = mission(won)
    assert m.op == 2 and not m.camps
    assert "Gialo held (at the end, 11.2) ✓" in SYSTEM.status(won.state)
    assert "end-mission" not in legal_names(won.state)
    assert not any("end-mission" in t for t in texts(won))
    with pytest.raises(RuleError, match=r"cannot end yet \(Gialo held"):
        do(won.state, A.EndMission())
    c = ctx(won.state, [1])  # the Success leader's pick (8.0)
    end_mission(c)  # 11.2: judged at the end
    assert c.m.result == "won"


def test_a_camp_left_in_the_space_means_it_is_not_held_at_the_end() -> None:
    """6.0 with 8.0 (1): raiders and a camp's survivors sharing the space (a break-off,
    15.2) do not hold it."""
    state = put(mission_state("M4"), "gialo", "Cdo-1")
    c = ctx(state)
    assert c.m.camps == {"gialo": ["Ita-1", "Ita-2"]}
    end_mission(c)
    assert c.m.result == "lost"


def test_a_water_move_names_its_force_once_on_the_picture() -> None:
    """18.2 water move: the arrow carries no label of its own; the force's block at Tobruk
    is headed "F3" (the label was drawn twice)."""
    state = put(mission_state("M1"), "matruh", "Cdo-1", "SAS-1", force="F3")
    state.mission.hand = ["C9"]
    # C4 Ambush: three hostiles, the Edge rolled; the battle (and the Op) goes on.
    step = do(state, A.Move(force="F3", to="tobruk", how="water"), [4, 7, 1, 11, 3, 4])
    assert mission(step).battle is not None and mission(step).force == "F3"
    view = SYSTEM.view(step.state)
    assert [mk.kind for mk in view.marks] == ["move"] and view.marks[0].text == ""
    texts_drawn = snapshot(view).layout.texts
    assert sum(1 for text, _ in texts_drawn if text == "F3") == 1


def test_the_phone_picture_of_a_battle_shows_the_force_that_arrived() -> None:
    """15.1: the battle at Tobruk; F1's three chips find no room by the crowded coastal
    space and go to the strip under the map — the phone crop shows them under its board
    (it showed only the arrow)."""
    state = put(mission_state("M1"), "gazala", "Cdo-1", "SAS-1", "Cdo-2")
    # C2 Patrol contact: 1 hostile (Ger-1); Edge 1 +1 elite vs 3: hostiles first.
    step = do(state, A.Move(force="F1", to="tobruk"), [2, 1, 7, 1, 3])
    view = SYSTEM.view(step.state)
    full = snapshot(view).layout
    assert any(i.kind == "force" and i.id == "F1" and i.in_panel for i in full.items)
    phone = focus(view)
    shown = {(i.kind, i.id) for i in phone.layout.items}
    assert {("force", "F1"), ("unit", "Cdo-1"), ("unit", "SAS-1"), ("unit", "Cdo-2")} <= shown
    assert phone.width <= 750


def test_one_op_left_is_singular() -> None:
    """11.0: the Ops deck counts the Operations still to play: "1 Op left", "3 Ops left"."""
    from rules.raiders.cards import ops_left

    assert (ops_left(1), ops_left(0), ops_left(3)) == ("1 Op left", "0 Ops left", "3 Ops left")
