"""The Raiders rulings of issue 12 (points 8-14), each by its rule number, with scripted dice."""

from __future__ import annotations

import pytest

from rules.core.dice import ScriptedDice
from rules.core.errors import RuleError
from rules.raiders import SYSTEM
from rules.raiders import actions as A
from rules.raiders import battle
from rules.raiders.campaign import end_mission
from rules.raiders.cards import MIXED, gain_ops, return_discards, rp_change, take_top
from rules.raiders.state import RaidersState
from tests.raiders.helpers import ctx, do, give, mission, mission_state, put, texts

SC_CARDS = [f"C{i}" for i in range(1, 13)]


def orders(state: RaidersState) -> list[str]:
    """The summaries of the orders the player may give now (read-only ones left out)."""
    return [a.summary() for a in SYSTEM.legal_actions(state, "raiders") if not a.read_only]


# -- 13.1, 11.3: the decks ------------------------------------------------------------------


def test_13_1_returned_discards_are_drawn_with_the_deck_not_the_reserve() -> None:
    """13.1 "reshuffle them into the deck": the next draw is one of the deck's cards or the
    returned ones, never a reserve card (issue 12 point 8)."""
    c = ctx(put(mission_state("M1"), "siwa", "Cdo-1"), [1, 1, 1, 3, 1])
    c.m.deck = [None, None]
    c.m.discards = ["C1", "C2", "C3"]
    return_discards(c, c.sc.card["C12"], 2)  # shuffle d3 d2 d1: C1 and C2 go back
    assert c.m.deck == [MIXED] * 4 and c.m.shuffled == ["C1", "C2"] and c.m.discards == ["C3"]
    # Four slots: the two returned cards and the deck's two blind ones, a d4 (the reserve's
    # seven cards are not among them); 3 is a blind deck card, then picked among the unseen
    # cards (deck and reserve were dealt at random from the same cards: the same odds).
    drawn = take_top(c, "Ops card draw (13.0)")
    assert [r.sides for r in c.dice.rolls[3:]] == [4, 9] and drawn == "C4"
    assert c.m.shuffled == ["C1", "C2"] and c.m.deck == [MIXED] * 3


def test_13_1_a_returned_card_comes_first_when_the_die_says_so() -> None:
    """13.1: with one blind slot and one returned card, a d2 of 1 draws the returned card."""
    c = ctx(put(mission_state("M1"), "siwa", "Cdo-1"), [1, 1])
    c.m.deck = [None]
    c.m.discards = ["C7"]
    return_discards(c, c.sc.card["C12"], 1)
    assert take_top(c, "Ops card draw (13.0)") == "C7"  # a d2: C7 or the deck's blind card
    assert c.dice.rolls[1].sides == 2 and c.m.shuffled == [] and c.m.deck == [MIXED]


def test_11_3_a_rebuilt_reserve_leaves_the_draw_deck_as_it_was() -> None:
    """11.3: the discards form a new *reserve*; the draw deck's cards stay the same, so its
    top card is never one of the old discards (issue 12 point 9)."""
    c = ctx(put(mission_state("M1"), "siwa", "Cdo-1"), [2, 5])
    c.m.deck = [None, None, None]
    c.m.discards = SC_CARDS[3:]  # C4..C12: the reserve is empty, the deck holds C1..C3
    gain_ops(c, 1, "test")
    assert "Reserve empty: 9 discards reshuffled (11.3)" in [e.text for e in c.events]
    assert c.m.deck == [MIXED, MIXED, MIXED, None] and sorted(c.m.shuffled) == ["C1", "C2", "C3"]
    c.m.in_play = take_top(c, "Ops card draw (13.0)")
    assert c.m.in_play == "C2" and c.dice.rolls[0].sides == 3  # a d3: C1..C3 only
    # The gained card at the bottom comes from the new reserve (C4..C12): a d9.
    c.m.deck = [None]
    assert take_top(c, "Ops card draw (13.0)") == "C8" and c.dice.rolls[1].sides == 9


def test_11_3_a_card_lost_face_down_is_never_picked() -> None:
    """11.3 "discard it, face down": no die picks it, so nothing in the log tells which card it
    was (issue 12 point 14); it is counted among the unseen cards."""
    state = put(mission_state("M1"), "siwa", "Cdo-1")
    step = do(state, A.Move(force="F1", to="jarabub"), [11])  # C11 Lost bearings: one die
    m = mission(step)
    assert m.blind_discards == 1 and m.discards == ["C11"] and len(m.deck) == 7
    assert "−1 Op: Lost bearings → 7 Ops left (11.3)" in texts(step)


# -- 25.1 (3): the alert bonus ----------------------------------------------------------------


def finish(state: RaidersState, won: bool) -> RaidersState:
    """End the mission in play, won (its targets destroyed) or lost."""
    c = ctx(state)
    if won:
        for mk in c.m.markers:
            mk.revealed, mk.destroyed = True, True
            mk.delivered = True
    c.m.units[0].space = c.m.units[0].space or "siwa"
    end_mission(c)
    return c.state


def test_25_1_3_the_alert_bonus_is_for_the_next_scenario_only() -> None:
    """25.1 (3) "For the next scenario, add one to the starting alert level": +1 after each
    win, never +2 after two (issue 12 point 10); nothing after a loss."""
    state = put(mission_state("M1"), "siwa", "Cdo-1")
    after_one = finish(state, won=True)
    m5 = do(after_one, A.NextMission(), [4]).state  # M5: alert 3 + 1
    assert mission(m5).alert == 4 and m5.campaign.alert_bonus == 0
    after_two = finish(put(m5, "siwa", "Cdo-1"), won=True)
    assert after_two.campaign.alert_bonus == 1
    m3 = do(after_two, A.NextMission(), [2]).state  # M3 (of M2, M3, M4, M6): alert 1 + 1
    assert mission(m3).card == "M3" and mission(m3).alert == 2
    lost = finish(put(m3, "siwa", "Cdo-1"), won=False)
    again = do(lost, A.NextMission(), [2]).state  # M3 again, after a loss: no bonus
    assert mission(again).card == "M3" and mission(again).alert == 1


# -- 15.1, 24.0 (2): battle decisions -------------------------------------------------------


def two_rounds_battle() -> RaidersState:
    """Cdo-1 and SAS-1 against Ita-1 and Ita-2 at Msus; raiders edge; round 1 all miss."""
    state = put(mission_state("M1"), "msus", "Cdo-1", "SAS-1")
    c = ctx(state, [6, 1])  # Edge 6 +1 elite vs 1: raiders
    battle.start(c, "msus", ["Ita-1", "Ita-2"], "card")
    c.m.segment = "battle"
    return c.state


def test_15_1_4_the_line_stands_until_the_player_changes_it() -> None:
    """15.1 (4) a second round "repeats the procedure of the first round", in which the player
    lines up "in any order you prefer": the preferred line stands from round to round until the
    player changes it (issue 25 point 8); a change before a round's first die is that round's
    line, a change after it stands from the next round."""
    state = two_rounds_battle()
    assert SYSTEM.phase_of(state) == "line-up"
    state = do(state, A.Line(order="Cdo-1 SAS-1")).state
    # Cdo-1 misses Ita-1 (6), Ita-1 misses (6), SAS-1 misses Ita-1 (6), Ita-2 misses (6).
    step = do(state, A.Fire(target="Ita-1"), [6, 6])
    step = do(step.state, A.Fire(target="Ita-1"), [6, 6])
    b = mission(step).battle
    assert b is not None and b.round == 2 and b.lined and b.raider_line == ["Cdo-1", "SAS-1"]
    assert "Round 2, same line (15.1 (4)):" in texts(step)
    assert SYSTEM.phase_of(step.state) == "fire"  # no fresh line needed: fire straight on
    assert "line order:SAS-1 Cdo-1" in orders(step.state)  # a change is still offered
    # Before round 2's first die a new line is this round's line.
    again = do(step.state, A.Line(order="SAS-1"))
    assert mission(again).battle.raider_line == ["SAS-1", "Cdo-1"]
    with pytest.raises(RuleError, match="The line stands"):
        do(again.state, A.Line())
    # SAS-1 misses Ita-1 (6), Ita-1 misses SAS-1 (6): now a change waits for round 3.
    mid = do(again.state, A.Fire(target="Ita-1"), [6, 6])
    changed = do(mid.state, A.Line(order="Cdo-1"))
    assert mission(changed).battle.raider_line == ["SAS-1", "Cdo-1"]
    assert "Raider line from round 3 (15.1 (4)):" in texts(changed)
    # Cdo-1 misses (6), Ita-2 misses (6): two quiet rounds, a break-off (15.2).
    end = do(changed.state, A.Fire(target="Ita-2"), [6, 6])
    assert mission(end).battle is None and mission(end).last_battle.outcome == "draw"


def test_15_1_4_a_changed_line_fires_from_the_next_round() -> None:
    """A line given after round 1's first die is round 2's line, said at round 2's start, and
    the hostiles' fire goes to its first raider."""
    state = two_rounds_battle()
    state = do(state, A.Line(order="Cdo-1 SAS-1")).state
    # Cdo-1 misses Ita-1 (6); Ita-1 misses Cdo-1 (6); SAS-1 waits for its target.
    step = do(state, A.Fire(target="Ita-1"), [6, 6])
    step = do(step.state, A.Line(order="SAS-1 Cdo-1"))
    assert mission(step).battle.raider_line == ["Cdo-1", "SAS-1"]  # round 1 is not re-fought
    # SAS-1 hits Ita-1 (1); Ita-2 misses Cdo-1 (6). Round 2 in the new line, one target left,
    # so the bot fires: SAS-1 6, Ita-2 at SAS-1 6, Cdo-1 6; round 3 the same: break-off (15.2).
    step = do(step.state, A.Fire(target="Ita-1"), [1, 6, 6, 6, 6, 6, 6, 6])
    assert "Round 2, same line (15.1 (4)):" in texts(step)
    assert "SAS-1 › Cdo-1" in texts(step)
    b = mission(step).last_battle
    assert b is not None and b.outcome == "draw" and b.raider_line == ["SAS-1", "Cdo-1"]
    round2 = next(r for r in b.earlier if r.round == 2)
    assert [(s.unit, s.target) for s in round2.shots] == [
        ("SAS-1", "Ita-2"), ("Ita-2", "SAS-1"), ("Cdo-1", "Ita-2")]


def test_15_1_3_equal_hostiles_in_the_order_the_player_wants() -> None:
    """15.1 (3) "If more than one unit has the same value, place them in any order you
    want"; strongest first still holds (issue 12 point 12)."""
    state = put(mission_state("M1"), "msus", "Cdo-1", "SAS-1")
    c = ctx(state, [1, 6])  # hostiles' edge: nothing fires until the line is set
    battle.start(c, "msus", ["Ita-1", "Ger-1", "Ita-2"], "card")
    c.m.segment = "battle"
    assert c.m.battle.hostile_line == ["Ger-1", "Ita-1", "Ita-2"]
    assert "line order:SAS-1 Cdo-1 hostiles:Ger-1 Ita-2 Ita-1" in orders(c.state)
    with pytest.raises(RuleError, match="strongest first"):
        do(c.state, A.Line(order="SAS-1", hostiles="Ita-2 Ger-1"))
    # Ger-1 fires first at SAS-1 (6 misses), then SAS-1's turn waits for its target.
    step = do(c.state, A.Line(order="SAS-1", hostiles="Ger-1 Ita-2"), [6])
    assert mission(step).battle.hostile_line == ["Ger-1", "Ita-2", "Ita-1"]


def test_24_0_2_each_firepower_die_goes_where_the_player_says() -> None:
    """24.0 (2) "roll the die two times for each raider unit"; 15.1 (3) "The player fires ...
    at any hostile unit": the second die gets its own target (issue 12 point 12)."""
    state = two_rounds_battle()
    give(state, "SAS-1", "Sup-1")
    state = do(state, A.Line(order="Cdo-1 SAS-1")).state
    # Cdo-1's first die misses Ita-1 (6): the second die waits for the player's target.
    step = do(state, A.Fire(target="Ita-1", firepower=True), [6])
    b = mission(step).battle
    assert b is not None and b.second_die == "Cdo-1" and b.turn == "raider"
    assert [o for o in orders(step.state) if o.startswith("fire")] == [
        "fire target:Ita-1", "fire target:Ita-2"]
    # The second die at Ita-2 hits (1); Ita-1 misses Cdo-1 (6); SAS-1 has one target left.
    # Round 2 keeps the line (15.1 (4)): Cdo-1 hits Ita-1 (1); leader roll 5 (20.2).
    step = do(step.state, A.Fire(target="Ita-2"), [1, 6, 6, 6, 1, 5])
    shots = next(r for r in mission(step).last_battle.earlier if r.round == 1).shots
    assert (shots[0].unit, shots[0].dice, shots[0].hits) == ("Cdo-1", [6, 1], ["Ita-2"])
    assert (shots[2].unit, shots[2].dice) == ("SAS-1", [6, 6])  # both dice at the last one


# -- 9.0, 9.2: recruits -----------------------------------------------------------------------


def test_9_2_a_free_recruit_over_the_command_limit_goes_where_the_player_says() -> None:
    """9.0 "Place recruited raider units in any Staging Area": a free Commando (C6) that would
    break the command limit waits for the player's Staging Area (issue 12 point 13)."""
    state = put(mission_state("M2"), "siwa", "Cdo-1", "Cdo-2", "SAS-1")  # command 3
    step = do(state, A.Move(force="F1", to="jarabub"), [6])  # C6 Reinforcements
    m = mission(step)
    assert m.pending_place == "Cdo-3" and SYSTEM.phase_of(step.state) == "place"
    assert "Place it: /raiders place unit:Cdo-3 at:<Staging Area> (9.0)" in texts(step)
    assert orders(step.state) == ["place unit:Cdo-3 at:siwa", "place unit:Cdo-3 at:matruh",
                                  "place unit:Cdo-3 at:kufra"]
    with pytest.raises(RuleError, match="Staging Area"):
        do(step.state, A.Place(unit="Cdo-3", at="jarabub"))
    placed = do(step.state, A.Place(unit="cdo-3", at="Kufra"))
    cdo = next(u for u in mission(placed).units if u.id == "Cdo-3")
    assert cdo.space == "kufra" and cdo.force not in (None, "F1")
    assert mission(placed).pending_place is None and SYSTEM.phase_of(placed.state) == "op-start"


def test_9_0_a_static_recruit_never_freezes_a_force() -> None:
    """12.0 a force uses "the movement of the slowest unit": a static Vickers nest (4.0)
    recruited where a force stands is a force of its own; every recruit's force is said
    (issue 12 point 13)."""
    first = do(mission_state("M1"), A.Recruit(unit="commando", at="siwa"))
    assert "Cdo-1 is force F1 (10.3)" in texts(first)
    step = do(first.state, A.Recruit(unit="nest", at="siwa"))
    assert "VN-1 is static: force F2 on its own (4.0, 12.0)" in texts(step)
    more = do(step.state, A.Recruit(unit="commando", at="siwa"))
    assert "Cdo-2 joins F1; 'split' takes it out (10.3)" in texts(more)
    m = mission(more)
    assert {u.id: u.force for u in m.units if u.space} == {"Cdo-1": "F1", "Cdo-2": "F1", "VN-1": "F2"}


# -- 14: what the player reads ---------------------------------------------------------------


def test_22_0_the_drawn_card_is_shown_whole_before_accept_or_swap() -> None:
    """22.0 "after drawing an operations card, but before playing it": its whole text."""
    state = put(mission_state("M1"), "siwa", "LRDG-1")
    lines = texts(do(state, A.Move(force="F1", to="jarabub"), [4]))  # C4 Ambush
    assert "🃏 C4 Ambush! · 8 Ops left (13.0)" in lines
    assert "Effect: 3 hostiles" in lines
    assert "Battle won: +1 Op · lost: −1 Op (16.0)" in lines
    assert "Now: accept or swap (22.0)" in lines


def test_24_0_3_a_supplies_bonus_card_is_shown_whole() -> None:
    """24.0 (3) "Certain Ops cards provide bonuses for expending supplies": shown with it."""
    state = put(mission_state("M1"), "siwa", "Cdo-1")
    give(state, "Cdo-1", "Sup-1")
    lines = texts(do(state, A.Move(force="F1", to="jarabub"), [1]))  # C1 Quiet night
    assert "Supplies: expend one for +1 Op (24.0 (3))" in lines
    assert "Now: accept or accept supply:true (24.0 (3))" in lines


def test_8_0_the_mission_card_is_read_whole_at_the_start() -> None:
    """8.0 (6) Success: what winning gives is said at the start."""
    step = SYSTEM.setup("desert", {"mission": "M2"}, ScriptedDice([1, 1]))
    assert "Success: A leader joins (8.0 (6))" in texts(step)


def test_5_0_any_card_is_shown_by_id_read_only() -> None:
    """``/raiders card id:`` shows any Ops or Mission card, to anyone, changing nothing."""
    state = mission_state("M1")
    step = do(state, A.CardInfo(id="c8"))
    assert step.state is state
    assert texts(step) == ["🃏 C8 Desert guide", "Keep this card; later, one of (13.1):",
                           "• PSYOP: swap a drawn card (22.0)", "• forced march, +1 space (24.0)",
                           "• alert −1 (17.0)"]
    assert "Battle won: +1 Op · lost: −1 Op (16.0)" in texts(do(state, A.CardInfo(id="C2")))
    assert "• Road block at Bir Hakeim: 2 hostiles" in texts(do(state, A.CardInfo(id="M2")))
    with pytest.raises(RuleError, match="no card 'Z9'; cards: C1"):
        do(state, A.CardInfo(id="Z9"))
    assert [c.value for c in SYSTEM.choices(state, "raiders", "card", "id", {"id": "m"})][:2] == ["M1", "M2"]


def test_10_2_the_stacking_refusal_counts_what_would_stand() -> None:
    """10.2: the refusal names how many raiders the space would hold (5, not 4 or 0)."""
    state = put(mission_state("M1"), "siwa", "Cdo-1", "Cdo-2", "Cdo-3")  # command 4
    put(state, "jarabub", "SAS-1", "SAS-2", force="F2")
    with pytest.raises(RuleError, match="Jarabub would hold 5 raiders; the command limit is 4"):
        do(state, A.Move(force="F1", to="jarabub"))


def test_space_ids_are_read_in_any_case() -> None:
    """Spaces by id or name, any case: ``to:JARABUB``, ``at:Siwa``."""
    state = do(mission_state("M1"), A.Recruit(unit="commando", at="Siwa")).state
    state = do(state, A.Begin()).state
    step = do(state, A.Move(force="f1", to="JARABUB"), [1])
    assert next(u for u in mission(step).units if u.id == "Cdo-1").space == "jarabub"


def test_13_1_kept_card_effects_are_named_in_words() -> None:
    """13.1 "implement one of the listed special events": each named with its amount."""
    state = put(mission_state("M1"), "siwa", "Cdo-1")
    step = do(state, A.Move(force="F1", to="jarabub"), [7])  # C7 Supply drop: kept
    assert "• +2 RP (13.0)" in texts(step) and "• +1 Op (11.3)" in texts(step)
    labels = [c.label for c in SYSTEM.choices(step.state, "raiders", "play", "card", {})]
    assert labels == ["C7 Supply drop: +2 RP (13.0) / +1 Op (11.3)"]


def test_13_0_4_the_rp_cap_says_what_it_drops() -> None:
    """13.0 (4) "You can not go above the scenario max": the points lost are said."""
    c = ctx(put(mission_state("M1"), "siwa", "Cdo-1"))
    c.m.rp = 19
    rp_change(c, 3, "Regroup")
    assert c.m.rp == 20
    assert [e.text for e in c.events] == ["RP 19 → 20: Regroup (13.0)",
                                          "2 RP lost: the RP Index stops at 20 (13.0 (4))"]


def test_11_1_end_mission_is_suggested_once_the_objective_is_met() -> None:
    """11.1 "You do not have to use your full number of operations ... if you win before":
    once the objective is met, the next operation starts with the suggestion."""
    state = put(mission_state("M1"), "martuba", "Spr-1")
    m = state.mission
    for mk in m.markers[:2]:
        mk.revealed, mk.type, mk.destroyed = True, "aircraft", True
    m.segment, m.force, m.moved = "objective", "F1", True
    step = do(state, A.EndOp())
    assert "Objective met: /raiders end-mission ends it now (11.1)" in texts(step)
    assert "end-mission" in orders(step.state)


def test_10_3_join_offers_only_another_force() -> None:
    """10.3 (issue 11): ``/raiders join into:`` never offers the joining force itself."""
    state = put(mission_state("M1"), "siwa", "Cdo-1")
    put(state, "siwa", "SAS-1", force="F2")
    values = [c.value for c in SYSTEM.choices(state, "raiders", "join", "into", {"force": "F1"})]
    assert values == ["F2"]
