"""Operations (11.0-13.0), alert (17.0), special moves (18.0), objectives (19.0-22.0), gear (23-24)."""

from __future__ import annotations

import pytest

from rules.core.errors import RuleError
from rules.raiders import SYSTEM
from rules.raiders import actions as A
from rules.raiders.cards import alert_change
from rules.raiders.state import RaidersState
from tests.raiders.helpers import ctx, do, give, mission, mission_state, put, texts


def objective_ready(state: RaidersState, space: str, marker_type: str) -> RaidersState:
    """The operating force F1 stands in its Objective segment next to a revealed marker."""
    m = state.mission
    assert m is not None
    mk = next(mk for mk in m.markers if mk.space == space)
    mk.revealed, mk.type, mk.garrison_faced = True, marker_type, True
    m.segment, m.force, m.moved = "objective", "F1", True
    return state


# -- set-up and recruiting -----------------------------------------------------------------


def test_mission_card_sets_up_the_mission() -> None:
    """7.0/8.0: alert, Ops (= draw deck), RP, command and face-down markers from the card."""
    state = mission_state("M1")
    m = state.mission
    assert m is not None and (m.alert, len(m.deck), m.rp, m.command) == (2, 9, 12, 4)
    assert all(mk.type is None and not mk.revealed for mk in m.markers)
    view = SYSTEM.view(state)
    assert {s.objective for s in view.spaces if s.objective} == {"?"}


def test_recruit_costs_rp_and_goes_to_a_staging_area() -> None:
    """9.0: pay the Recruit Table cost; place in a Staging Area only."""
    state = mission_state("M1")
    step = do(state, A.Recruit(unit="sas", at="siwa"))
    assert mission(step).rp == 8
    with pytest.raises(RuleError, match="Staging Area"):
        do(state, A.Recruit(unit="sas", at="tobruk"))
    poor = step.state
    for _ in range(2):
        poor = do(poor, A.Recruit(unit="sas", at="siwa")).state
    with pytest.raises(RuleError, match="costs 4 RP and you have 0"):
        do(poor, A.Recruit(unit="sas", at="siwa"))
    with pytest.raises(RuleError, match="at least one raider"):
        do(state, A.Begin())


def test_banked_rp_recruits_in_an_operation_but_not_with_scouting() -> None:
    """9.1, 11.0 (1): recruit or scout in the first segment, not both."""
    state = mission_state("M1", scouting=True)
    state = do(state, A.Recruit(unit="lrdg", at="matruh")).state
    state = do(state, A.Begin()).state
    assert mission(state).rp == 9  # 9.1 banked
    after = do(state, A.Recruit(unit="commando", at="siwa")).state
    assert mission(after).rp == 7 and mission(after).segment_action == "recruit"
    with pytest.raises(RuleError):
        do(after, A.Scout(force="F1", target="sidi-rezegh"))


def test_gear_capacity_and_trading() -> None:
    """23.2: two items for a mobile unit, one for a leader, none for a static unit; trade in-force."""
    state = put(mission_state("M1"), "siwa", "Cdo-1", "Ldr-1", "VN-1")
    put(state, "siwa", "Cdo-2", force="F2")
    state.phase = "recruit"
    state = do(state, A.BuyGear(item="supply", unit="Cdo-1")).state
    state = do(state, A.BuyGear(item="explosives", unit="Cdo-1")).state
    with pytest.raises(RuleError, match="full"):
        do(state, A.BuyGear(item="supply", unit="Cdo-1"))
    with pytest.raises(RuleError, match="static: it carries no gear"):
        do(state, A.BuyGear(item="supply", unit="VN-1"))
    state = do(state, A.Trade(gear="Sup-1", to="Ldr-1")).state
    with pytest.raises(RuleError, match="full"):
        do(state, A.Trade(gear="Exp-1", to="Ldr-1"))
    with pytest.raises(RuleError, match="another unit of F1"):
        do(state, A.Trade(gear="Exp-1", to="Cdo-2"))
    state = do(state, A.Abandon(gear="Exp-1")).state
    assert next(g for g in mission(state).gear if g.id == "Exp-1").holder is None


# -- movement --------------------------------------------------------------------------------


def test_stop_terrain_ends_the_move() -> None:
    """12.0: Sidi Rezegh (escarpment) is STOP: the force may enter it but not pass through."""
    state = put(mission_state("M3"), "matruh", "SAS-1")
    with pytest.raises(RuleError, match=r"must stop at Sidi Rezegh \(Escarpment: STOP\) on the way to El Adem \(12.0\)"):
        do(state, A.Move(force="F1", to="el-adem"))
    step = do(state, A.Move(force="F1", to="sidi-rezegh"), [1])  # card C1 quiet night
    assert mission(step).last_move == ["matruh", "sidi-rezegh"]


def test_objective_markers_stop_the_move() -> None:
    """12.0: a force entering a space with a marker stops (Martuba holds one in M1, not in M3)."""
    blocked = put(mission_state("M1"), "gazala", "SAS-1")
    with pytest.raises(RuleError, match=r"must stop at Martuba \(objective marker\) on the way to Derna \(12.0\)"):
        do(blocked, A.Move(force="F1", to="derna"))
    free = put(mission_state("M3"), "gazala", "SAS-1")
    assert mission(do(free, A.Move(force="F1", to="derna"), [1])).last_move[-1] == "derna"


def test_slowest_unit_and_forced_march() -> None:
    """12.0: the slowest unit sets the pace; 24.0 (1): Supplies buy one extra space."""
    alone = put(mission_state("M3"), "kufra", "LRDG-1")
    assert "mechili" in [c.value for c in SYSTEM.choices(alone, "raiders", "move", "to", {"force": "F1"})]
    state = put(mission_state("M3"), "kufra", "LRDG-1", "Cdo-1")
    with pytest.raises(RuleError, match="Mechili is more than 2 spaces away; F1 moves 2 \\(12.0\\)"):
        do(state, A.Move(force="F1", to="mechili"))
    with pytest.raises(RuleError, match="no Supplies"):
        do(state, A.Move(force="F1", to="mechili", march=True))
    give(state, "Cdo-1", "Sup-1")
    step = do(state, A.Move(force="F1", to="mechili", march=True), [1])
    # Gialo and Msus hold M3 markers (12.0 stop), so the way is by the wadi.
    assert mission(step).last_move == ["kufra", "wadi", "bir-hakeim", "mechili"]
    assert next(g for g in mission(step).gear if g.id == "Sup-1").holder is None


def test_static_units_never_move() -> None:
    """4.0: movement 0 is static, even with Supplies."""
    state = put(mission_state("M3"), "siwa", "VN-1", "Cdo-1")
    give(state, "Cdo-1", "Sup-1")
    with pytest.raises(RuleError, match=r"static unit \(movement 0\): it does not move \(4.0, 12.0\)\. .split unit:VN-1. leaves it behind"):
        do(state, A.Move(force="F1", to="jarabub", march=True))


def test_stacking_checked_at_the_end_of_the_move() -> None:
    """10.2: the command limit holds outside Staging Areas; leaders do not count."""
    state = put(mission_state("M2"), "siwa", "Cdo-1", "Cdo-2", "Cdo-3", "Cdo-4")  # command 3
    with pytest.raises(RuleError, match="command limit is 3"):
        do(state, A.Move(force="F1", to="jarabub"))
    state = put(mission_state("M2"), "siwa", "Cdo-1", "Cdo-2", "Cdo-3", "Ldr-1")
    assert mission(do(state, A.Move(force="F1", to="jarabub"), [1])).units[0].space == "jarabub"
    # Staging Areas take any number.
    big = put(mission_state("M2"), "siwa", "Cdo-1", "Cdo-2", "Cdo-3", "Cdo-4")
    moved = mission(do(big, A.Move(force="F1", to="matruh")))
    assert len([u for u in moved.units if u.space == "matruh"]) == 4 and len(moved.deck) == 8


def test_no_card_on_a_move_into_a_staging_area() -> None:
    """13.0 exception: moving into a Staging Area draws no Ops card (no dice used)."""
    state = put(mission_state("M1"), "sidi-rezegh", "Cdo-1")
    step = do(state, A.Move(force="F1", to="matruh"))
    assert len(mission(step).deck) == 9 and "no Ops card" in " ".join(texts(step))
    assert mission(step).op == 2


def test_split_and_join_forces() -> None:
    """12.0 / 10.3: leave units behind as a new force; merge forces in one space."""
    state = put(mission_state("M1"), "siwa", "Cdo-1", "Cdo-2")
    state = do(state, A.Split(unit="Cdo-2")).state
    assert {u.force for u in mission(state).units if u.space} == {"F1", "F2"}
    state = do(state, A.Move(force="F1", to="jarabub"), [1]).state
    with pytest.raises(RuleError, match="same space"):
        do(state, A.Join(force="F2", into="F1"))


# -- cards, alert, variable Ops --------------------------------------------------------------


def test_card_drawn_played_and_discarded() -> None:
    """13.0, 13.1: the card is picked after the move and discarded at the end of the Op."""
    state = put(mission_state("M1"), "siwa", "Cdo-1")
    step = do(state, A.Move(force="F1", to="jarabub"), [1])
    m = mission(step)
    assert m.discards == ["C1"] and len(m.deck) == 8 and step.reveals and step.snapshot


def test_alert_check_success_and_failure() -> None:
    """17.1: a die at or under the alert level triggers the alert event; higher fails."""
    state = put(mission_state("M1"), "siwa", "Cdo-1")
    # C3 (pick 3); check 5 vs alert 2 fails: the sentries doze.
    quiet = do(state, A.Move(force="F1", to="jarabub"), [3, 5])
    assert mission(quiet).alert == 2 and "fails" in " ".join(texts(quiet))
    # Check 2 succeeds: hostiles = alert 2 (read before the +1), alert 3.
    # Picks Ita-1, Ita-2; edge 6 v 1; Cdo-1 waits for a target.
    loud = do(state, A.Move(force="F1", to="jarabub"), [3, 2, 1, 1, 6, 1])
    m = mission(loud)
    assert m.alert == 3 and m.battle is not None and m.battle.hostile_line == ["Ita-1", "Ita-2"]


def test_alert_stays_between_one_and_five() -> None:
    """17.0: never lower than one nor higher than five."""
    c = ctx(mission_state("M1"))
    alert_change(c, +9, "test")
    assert c.m.alert == 5
    alert_change(c, +1, "Alert sentries")  # at 5 a raise changes nothing, and says so
    assert c.m.alert == 5
    alert_change(c, -9, "test")
    assert c.m.alert == 1
    alert_change(c, -1, "calm")
    said = [e.text for e in c.events]
    assert "Alert stays 5: Alert sentries; it never goes above 5 (17.0)" in said
    assert "Alert stays 1: calm; it never goes below 1 (17.0)" in said


def test_lose_and_gain_ops() -> None:
    """11.3: loss discards the top card face down; gain adds a reserve card at the bottom."""
    state = put(mission_state("M1"), "siwa", "Cdo-1")
    lost = do(state, A.Move(force="F1", to="jarabub"), [11])  # C11; the lost card: no die
    assert len(mission(lost).deck) == 7 and mission(lost).discards == ["C11"]
    assert mission(lost).blind_discards == 1  # discarded face down, nobody knows which
    gained = do(state, A.Move(force="F1", to="jarabub"), [5, 6])  # C5 air recon, check 6 fails
    assert len(mission(gained).deck) == 9


def test_losing_the_last_card_ends_the_mission() -> None:
    """11.3: no card left to lose: the mission ends after this Op."""
    state = put(mission_state("M1"), "siwa", "Cdo-1")
    state.mission.deck = [None]
    step = do(state, A.Move(force="F1", to="jarabub"), [11])
    assert step.state.phase == "between" and mission(step).result == "lost"


def test_reinforcement_card_gives_a_free_unit() -> None:
    """13.0 (1), 9.2: C6 brings a free Commando to the operating force."""
    state = put(mission_state("M1"), "siwa", "Cdo-1")
    m = mission(do(state, A.Move(force="F1", to="jarabub"), [6]))
    assert [u.id for u in m.units if u.space == "jarabub"] == ["Cdo-1", "Cdo-2"] and m.rp == 12


def test_keep_card_then_play_it() -> None:
    """13.1: a 'Keep this card' card goes to the hand; later one of its events, then discard."""
    state = put(mission_state("M5"), "siwa", "Cdo-1")  # alert 3
    state = do(state, A.Move(force="F1", to="jarabub"), [8]).state  # C8 desert guide
    assert mission(state).hand == ["C8"]
    state = do(state, A.PlayCard(card="C8", event="calm")).state
    assert mission(state).alert == 2 and mission(state).hand == [] and "C8" in mission(state).discards
    with pytest.raises(RuleError):
        do(state, A.PlayCard(card="C8", event="calm"))


def test_guide_swaps_the_drawn_card_once() -> None:
    """22.0: with a guide the drawn card may go to the bottom; a substitute is drawn; once."""
    state = put(mission_state("M1"), "siwa", "LRDG-1")
    waiting = do(state, A.Move(force="F1", to="jarabub"), [4])  # C4 Ambush drawn
    assert mission(waiting).segment == "card" and mission(waiting).in_play == "C4"
    assert {a.name for a in SYSTEM.legal_actions(waiting.state, "raiders") if not a.read_only} == {"accept", "swap"}
    step = do(waiting.state, A.Swap(), [1])  # substitute: C1 quiet night
    m = mission(step)
    assert m.deck[-1] == "C4" and m.discards == ["C1"] and len(m.deck) == 8
    no_guide = put(mission_state("M1"), "siwa", "Cdo-1")
    with pytest.raises(RuleError, match="not an order of this phase"):
        do(no_guide, A.Swap())


# -- special moves ---------------------------------------------------------------------------


def test_air_and_water_moves_need_a_kept_card() -> None:
    """18.1/18.2/18.3: airfield to airfield, port to port, then an Ops card as usual."""
    state = put(mission_state("M3"), "kufra", "Cdo-1")
    with pytest.raises(RuleError, match="kept card"):
        do(state, A.Move(force="F1", to="martuba", how="air"))
    state.mission.hand = ["C9"]
    step = do(state, A.Move(force="F1", to="martuba", how="air"), [1])
    assert mission(step).units[0].space == "martuba" and "C9" in mission(step).discards
    sea = put(mission_state("M3"), "matruh", "Cdo-1")
    sea.mission.hand = ["C9"]
    with pytest.raises(RuleError, match="port"):
        do(sea, A.Move(force="F1", to="jarabub", how="water"))
    assert mission(do(sea, A.Move(force="F1", to="benghazi", how="water"), [1])).units[0].space == "benghazi"


# -- objectives --------------------------------------------------------------------------------


def test_marker_turned_in_the_objective_segment_with_its_garrison() -> None:
    """19.0, 11.0 (5): the marker is turned where the Op ends; its garrison is fought."""
    state = put(mission_state("M1"), "sidi-rezegh", "SAS-1")
    # C1; marker type 1 of 4 (aircraft); garrison 1: Ita-1; edge 6 v 1; SAS hits on 1; leader 5.
    step = do(state, A.Move(force="F1", to="el-adem"), [1, 1, 1, 6, 1, 1, 5])
    m = mission(step)
    mk = next(mk for mk in m.markers if mk.space == "el-adem")
    assert mk.revealed and mk.type == "aircraft" and mk.garrison_faced
    assert m.last_battle is not None and m.last_battle.source == "marker"
    assert step.reveals and m.op == 2  # no pioneer: nothing to decide, the Op ends


def test_demolition_one_pioneer_at_a_time() -> None:
    """21.1: each pioneer rolls on the Demolition Table, declared one at a time."""
    state = put(mission_state("M1"), "el-adem", "Spr-1", "Spr-2")
    give(state, "Spr-2", "Exp-1")
    state = objective_ready(state, "el-adem", "aircraft")
    step = do(state, A.Demolish(unit="Spr-1", marker="Obj-2"), [2])  # 2: damp fuses
    assert "no effect" in " ".join(texts(step)) and mission(step).segment == "objective"
    with pytest.raises(RuleError, match="already tried"):
        do(step.state, A.Demolish(unit="Spr-1", marker="Obj-2"))
    done = do(step.state, A.Demolish(unit="Spr-2", marker="Obj-2", explosives=True), [2])  # 2+2
    m = mission(done)
    assert next(mk for mk in m.markers if mk.id == "Obj-2").destroyed and m.alert == 3
    assert m.op == 2  # nothing left to do: the Op ends
    lost = do(state, A.Demolish(unit="Spr-1", marker="Obj-2"), [1])
    assert next(u for u in mission(lost).units if u.id == "Spr-1").space is None


def test_non_pioneers_cannot_demolish() -> None:
    """21.1: only pioneers."""
    state = objective_ready(put(mission_state("M1"), "el-adem", "Cdo-1", "Spr-1"), "el-adem", "aircraft")
    with pytest.raises(RuleError, match="not a pioneer"):
        do(state, A.Demolish(unit="Cdo-1", marker="Obj-2"))


def test_cargo_carried_to_a_staging_area_wins() -> None:
    """18.4: the transport picks it up, carries it, delivers it in a Staging Area; 11.1 early end."""
    state = objective_ready(put(mission_state("M3"), "jebel", "LRDG-1", "Cdo-1"), "jebel", "pow")
    step = do(state, A.Carry(unit="LRDG-1", marker="Obj-1"))
    m = mission(step)
    carrier = next(u for u in m.units if u.id == "LRDG-1")
    assert carrier.carrying == "Obj-1" and m.markers[0].space is None
    carrier.space = "sidi-rezegh"
    next(u for u in m.units if u.id == "Cdo-1").space = "sidi-rezegh"
    home = do(step.state, A.Move(force="F1", to="matruh"))
    assert next(mk for mk in mission(home).markers if mk.id == "Obj-1").delivered
    over = do(home.state, A.EndMission())
    assert over.state.phase == "between" and mission(over).result == "won"


def test_end_mission_early_needs_the_objective() -> None:
    """11.1: you may stop early only once you have won."""
    state = put(mission_state("M3"), "siwa", "Cdo-1")
    with pytest.raises(RuleError, match="cannot end yet"):
        do(state, A.EndMission())


# -- optional rules ----------------------------------------------------------------------------


def test_scouting_reveals_on_an_even_roll() -> None:
    """27.0: a scouting unit next to a face-down marker: even reveals, odd does nothing."""
    state = put(mission_state("M1", scouting=True), "sidi-rezegh", "LRDG-1")
    put(state, "siwa", "Cdo-1", force="F2")
    odd = do(state, A.Scout(force="F1", target="el-adem"), [3])
    assert not any(mk.revealed for mk in mission(odd).markers)
    even = do(state, A.Scout(force="F1", target="el-adem"), [4, 4])  # 4th type left: empty
    mk = next(mk for mk in mission(even).markers if mk.space == "el-adem")
    assert mk.revealed and mk.type == "empty" and even.reveals
    with pytest.raises(RuleError, match="scouted"):
        do(even.state, A.Move(force="F2", to="siwa"))
    plain = put(mission_state("M1"), "sidi-rezegh", "LRDG-1")
    with pytest.raises(RuleError, match="option"):
        do(plain, A.Scout(force="F1", target="el-adem"))


def test_coordinated_operation_of_two_leader_forces() -> None:
    """26.0: two forces, each with a leader, end in one marker space; one card for both."""
    state = put(mission_state("M1", coordinated=True), "sidi-rezegh", "Ldr-1", "Cdo-1")
    put(state, "tobruk", "Ldr-2", "Cdo-2", force="F2")
    step = do(state, A.Move(force="F1", to="el-adem", with_force="F2"), [1, 4])  # C1; marker empty
    m = mission(step)
    assert {u.id for u in m.units if u.space == "el-adem"} == {"Ldr-1", "Cdo-1", "Ldr-2", "Cdo-2"}
    assert {u.force for u in m.units if u.space == "el-adem"} == {"F1"}
    assert len(m.deck) == 8
    no_leader = put(mission_state("M1", coordinated=True), "sidi-rezegh", "Ldr-1", "Cdo-1")
    put(no_leader, "tobruk", "Cdo-2", force="F2")
    with pytest.raises(RuleError, match="leader"):
        do(no_leader, A.Move(force="F1", to="el-adem", with_force="F2"))


# -- player-facing helpers ---------------------------------------------------------------------


def test_choices_are_short_and_labelled() -> None:
    """Autocomplete: at most 25, best first, readable labels."""
    state = put(mission_state("M1"), "siwa", "Cdo-1", "Cdo-2", "SAS-1")
    forces = SYSTEM.choices(state, "raiders", "move", "force", {})
    assert forces[0].label == "F1 (Siwa, 3 units)"
    to = SYSTEM.choices(state, "raiders", "move", "to", {"force": "F1"})
    assert 0 < len(to) <= 25 and to[0].value == "siwa"
    assert SYSTEM.choices(state, "raiders", "move", "to", {"force": "F1", "to": "jar"})[0].value == "jarabub"
    assert all(len(line) <= 60 for line in SYSTEM.status(state))


def test_view_renders_a_battle_round_to_png() -> None:
    """The NetworkView carries the battle panel and draws to a real PNG."""
    import io

    from PIL import Image

    from render import snapshot

    state = put(mission_state("M1"), "siwa", "Cdo-1", "SAS-1")
    step = do(state, A.Move(force="F1", to="jarabub"), [4, 1, 1, 1, 3, 5])  # C4, edge 3+1 v 5
    view = SYSTEM.view(step.state)
    assert view.battle is not None and view.battle.tactical_edge == "hostile"
    assert [c.id for c in view.battle.lines[1].units] == ["Ita-1", "Ita-2", "Ita-3"]
    assert [t.label for t in view.tracks] == ["Alert", "Ops left", "RP"]
    assert any(f.faction == "hostile" for f in view.forces)
    assert view.marks and view.marks[0].kind == "move"
    image = Image.open(io.BytesIO(snapshot(view).png))
    assert image.format == "PNG" and image.width > 100


def test_card_returns_discards_to_the_deck() -> None:
    """13.1: C12 shuffles two discards back into the draw deck."""
    state = put(mission_state("M1"), "siwa", "Cdo-1")
    state.mission.discards = ["C1", "C2", "C3"]
    state.mission.deck = [None, "C5"]
    # The blind slot is drawn from C4, C6..C12 (C5's place is known): C12 is the 8th.
    # Discards shuffled (d3, d2, d1): C1 and C2 go back; the known C5 becomes blind again.
    step = do(state, A.Move(force="F1", to="jarabub"), [8, 1, 1, 1])
    m = mission(step)
    assert m.discards == ["C3", "C12"] and m.deck == ["*"] * 3
    assert sorted(m.shuffled) == ["C1", "C2", "C5"]  # the deck is these three, in no known order
    assert m.rp == 13


def test_gain_op_reshuffles_discards_when_the_reserve_is_empty() -> None:
    """11.3: no reserve left → the discards form a new reserve deck."""
    c = ctx(put(mission_state("M1"), "siwa", "Cdo-1"))
    c.m.deck = [None] * 10
    c.m.discards = ["C11", "C12"]
    from rules.raiders.cards import gain_ops, reserve_size

    assert reserve_size(c) == 0
    gain_ops(c, 1, "test")
    assert c.m.discards == [] and len(c.m.deck) == 11


def test_units_already_in_the_space_join_the_battle() -> None:
    """15.0: raiders already in the space fight beside the moving force."""
    state = put(mission_state("M1"), "siwa", "Cdo-1")
    put(state, "jarabub", "Cdo-2", force="F2")
    step = do(state, A.Move(force="F1", to="jarabub"), [4, 1, 1, 1, 6, 1])
    b = mission(step).battle
    assert b is not None and set(b.raider_line) == {"Cdo-1", "Cdo-2"}


def test_psyop_card_swaps_without_a_guide() -> None:
    """22.0: a kept PSYOP card allows one swap; it is then discarded."""
    state = put(mission_state("M1"), "siwa", "Cdo-1")
    state.mission.hand = ["C8"]
    waiting = do(state, A.Move(force="F1", to="jarabub"), [4])
    assert mission(waiting).segment == "card"
    step = do(waiting.state, A.Swap(), [1])
    m = mission(step)
    assert m.hand == [] and "C8" in m.discards and m.deck[-1] == "C4"


def test_forced_march_with_a_kept_card() -> None:
    """13.1/24.0: a kept card's forced march instead of Supplies."""
    state = put(mission_state("M3"), "kufra", "Cdo-1")
    state.mission.hand = ["C8"]
    step = do(state, A.Move(force="F1", to="mechili", march=True), [1])
    assert mission(step).units[0].space == "mechili" and mission(step).hand == []


def test_carrier_eliminated_loses_the_cargo() -> None:
    """18.4: if the transporting unit is eliminated the item is lost for the mission."""
    state = objective_ready(put(mission_state("M3"), "jebel", "LRDG-1"), "jebel", "pow")
    state = do(state, A.Carry(unit="LRDG-1", marker="Obj-1")).state
    c = ctx(state)
    from rules.raiders.forces import remove_unit

    remove_unit(c, next(u for u in c.m.units if u.id == "LRDG-1"))
    assert next(mk for mk in c.m.markers if mk.id == "Obj-1").lost


def test_mission_ends_when_every_raider_is_gone() -> None:
    """10.1: the last raider falls: the mission ends at once (and is lost)."""
    state = put(mission_state("M1"), "siwa", "Cdo-1")
    # C4 Ambush: 3 hostiles (picks 1,1,1); edge 1 v 6; Ita-1 hits on 1; C4 costs an Op (d11).
    step = do(state, A.Move(force="F1", to="jarabub"), [4, 1, 1, 1, 1, 6, 1])
    assert step.state.phase == "between" and mission(step).result == "lost"
    assert step.state.campaign.record[-1].won is False


def test_cargo_can_be_set_down_and_picked_up_again() -> None:
    """18.4: a transported item may be debarked at the end of a move (or kept)."""
    state = objective_ready(put(mission_state("M3"), "jebel", "LRDG-1", "Cdo-1"), "jebel", "pow")
    state = do(state, A.Carry(unit="LRDG-1", marker="Obj-1")).state
    assert mission(state).op == 2  # nothing else to do: the Op ended
    step = do(state, A.Drop(unit="LRDG-1"))  # before the next move
    m = mission(step)
    assert m.markers[0].space == "jebel" and next(u for u in m.units if u.id == "LRDG-1").carrying is None
    with pytest.raises(RuleError, match="carries nothing"):
        do(step.state, A.Drop(unit="LRDG-1"))


def test_no_reinforcement_when_none_is_left() -> None:
    """9.2: if there are no units available, there is no further effect."""
    state = put(mission_state("M1"), "siwa", "Cdo-1", "Cdo-2", "Cdo-3", "Cdo-4")
    put(state, "matruh", "Cdo-5", "Cdo-6", force="F2")
    step = do(state, A.Move(force="F2", to="sidi-rezegh"), [6])
    assert "No Commando left to join: no effect (9.2)" in texts(step)
    assert sum(1 for u in mission(step).units if u.space) == 6


def test_supplies_bonus_offered_by_a_card() -> None:
    """24.0 (3): C1 pays +1 Op for a Supplies gear expended as it is played."""
    state = put(mission_state("M1"), "siwa", "Cdo-1")
    give(state, "Cdo-1", "Sup-1")
    waiting = do(state, A.Move(force="F1", to="jarabub"), [1])
    assert mission(waiting).segment == "card"
    assert [a.summary() for a in SYSTEM.legal_actions(waiting.state, "raiders") if not a.read_only] == [
        "accept", "accept supply:true"]
    spent = mission(do(waiting.state, A.Accept(supply=True)))
    assert len(spent.deck) == 9 and next(g for g in spent.gear if g.id == "Sup-1").holder is None
    kept = mission(do(waiting.state, A.Accept()))
    assert len(kept.deck) == 8 and next(g for g in kept.gear if g.id == "Sup-1").holder == "Cdo-1"
    no_bonus = put(mission_state("M1"), "siwa", "Cdo-1")
    give(no_bonus, "Cdo-1", "Sup-1")
    step = do(no_bonus, A.Move(force="F1", to="jarabub"), [11])  # C11 pays nothing: played
    assert mission(step).op == 2


def test_gear_and_kept_events_are_named_as_the_menus_name_them_23_1_13_1() -> None:
    """23.1 buy gear: the menu says "Supplies: 1 RP", so ``item:supplies`` buys it as
    ``item:supply`` does; 13.1 a kept card's event: the reply says what the menu said
    ("alert −1"), not the order's id, and the menu's words are accepted for it."""
    state = put(mission_state("M1"), "siwa", "Cdo-1")
    state.phase = "recruit"
    bought = do(state, A.BuyGear(item="Supplies", unit="Cdo-1"))
    assert "Sup-1 Supplies to Cdo-1" in texts(bought)[0]
    with pytest.raises(RuleError, match=r"gear: Supplies \(supply\), Explosives"):
        do(state, A.BuyGear(item="rations", unit="Cdo-1"))
    kept = put(mission_state("M5"), "siwa", "Cdo-1")
    kept = do(kept, A.Move(force="F1", to="jarabub"), [8]).state  # C8 desert guide, kept
    played = do(kept, A.PlayCard(card="C8", event="alert −1"))
    assert "C8 Desert guide played (13.1): alert −1 (17.0)" in texts(played)
    assert mission(played).alert == 2


def test_a_counter_recruited_again_after_it_fell_gets_a_name_of_its_own_9_0() -> None:
    """3.0 the Recruit Box holds units "destroyed due to combat ... These units may sometimes
    be returned to play" and 9.0 recruits them again: the counter comes back, but not as a
    second "Cdo-1" in the same game's log."""
    from rules.raiders.forces import remove_unit

    state = put(mission_state("M1"), "siwa", "Cdo-1")
    state.phase = "recruit"
    m = mission(state)
    for u in [u for u in m.units if u.type == "commando"][1:]:
        u.space, u.force = "siwa", "F9"  # every other Commando counter in play
    remove_unit(ctx(state), next(u for u in m.units if u.id == "Cdo-1"))
    step = do(state, A.Recruit(unit="commando", at="siwa"))
    ids = [u.id for u in mission(step).units]
    assert len(ids) == len(set(ids)) and "Cdo-1" not in ids
    number = max(int(i.split("-")[1]) for i in ids if i.startswith("Cdo-"))
    assert f"Cdo-{number} recruited at Siwa" in texts(step)[0]
