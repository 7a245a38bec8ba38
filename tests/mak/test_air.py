"""The air war of Maschinen Krieger (10.0), rule by rule, with scripted dice.

The Dog-Fight Resolution Chart is not printed in the text; the tests that roll on it use our
stand-in chart (``data/dogfight.json``) and say which cell they use.
"""

from __future__ import annotations

import pytest

from rules.core.dice import ScriptedDice
from rules.core.errors import RuleError
from rules.mak import SYSTEM as SYS
from rules.mak import actions as A
from rules.mak import air_actions as AA
from rules.mak.air import (
    aggressor,
    breakers,
    breakthrough,
    breakthrough_count,
    choose_losses,
    dogfight,
    dogfight_chart,
    flying_result,
    may_withdraw,
)
from rules.mak.state import MakState, UnitState


def game(units: list[tuple[str, str, str, str]], air: list[tuple[str, str, str, str]] = (),  # type: ignore[assignment]
         active: str = "merc", phase: str = "first", turn: int = 1) -> MakState:
    """Board 5 with ``(id, type, side, hex)`` ground units and ``(id, type, side, duty)``
    aircraft in the air."""
    made = [UnitState(id=i, type=t, side=s, deploy="⑤0101", hex=h, status="on") for i, t, s, h in units]
    made += [UnitState(id=i, type=t, side=s, deploy="1⑤N", status="aloft") for i, t, s, _ in air]
    state = MakState(scenario="test", title="test", boards=[5], turns=3, first="merc", active=active,
                     units=made, phase=phase, turn=turn)  # type: ignore[arg-type]
    for i, _, _, duty in air:
        state.air.duty[i] = duty  # type: ignore[assignment]
        state.air.arrived[i] = 1
    return state


def hornisse(state: MakState, uid: str, side: str = "strahl") -> None:
    """Put a PKA aboard the PK41 ``uid`` (10.6)."""
    rider = UnitState(id=f"{uid}-PKA", type="PKA", side=side, deploy="1⑤N", status="aboard")  # type: ignore[arg-type]
    state.units.append(rider)
    state.unit(uid).rider = rider.id


# -- 10.2.1 the dog-fight ----------------------------------------------------------------------


def test_10_2_1_example_losses_as_close_as_possible_without_going_over():
    # "If the Mercenary Troops only have the Falke remaining (dog-fight rating of 4), and
    # receive a loss of 3 points, no units are affected."
    assert choose_losses([("Falke", 4)], 3) == []
    # "three PK40's (dog-fight rating of 2) and two Hornisse (dog-fight rating of 3) ... a
    # loss of 3 points, a single Hornisse is lost. If the loss is 4 points, two PK40's"
    strahl = [("PK40a", 2), ("PK40b", 2), ("PK40c", 2), ("HornA", 3), ("HornB", 3)]
    assert choose_losses(strahl, 3) == ["HornA"]
    assert choose_losses(strahl, 4) == ["PK40a", "PK40b"]
    assert sorted(choose_losses(strahl, 5)) == ["HornA", "PK40a"]
    assert choose_losses(strahl, 0) == []


def test_10_2_1_example_ratings_are_the_printed_ones():
    from rules.mak.data import units

    assert units()["Falke"].dogfight == 4 and units()["PK40"].dogfight == 2 and units()["PK41"].dogfight == 3


def test_10_2_1_the_higher_rating_is_the_aggressor_ties_go_to_the_attacking_player():
    assert aggressor({"merc": 4, "strahl": 6}, "merc") == "strahl"
    assert aggressor({"merc": 5, "strahl": 5}, "merc") == "merc"
    assert aggressor({"merc": 5, "strahl": 5}, "strahl") == "strahl"


def test_10_2_1_ratio_column_rounded_in_the_other_sides_favour():
    chart = dogfight_chart()
    assert chart.stand_in  # not printed: ours
    assert chart.column(4, 4).name == "1:1"
    assert chart.column(6, 4).name == "3:2"
    assert chart.column(7, 4).name == "3:2"
    assert chart.column(8, 4).name == "2:1"
    assert chart.column(11, 4).name == "2:1"
    assert chart.column(12, 4).name == "3:1"
    assert chart.column(30, 4).name == "5:1"


def test_10_2_1_dogfight_totals_one_die_and_losses_per_side():
    # Strahl 2 PK40 + a Hornisse = 7 against the Falke's 4: 7:4 is column 3:2; our chart's
    # row 1 is (2, 3): Strahl lose 2 (a PK40), the Mercenaries 3 (the Falke is 4: nothing).
    df = dogfight({"merc": [("F", 4)], "strahl": [("P1", 2), ("P2", 2), ("H", 3)]}, "merc", 1)
    assert df.aggressor == "strahl" and df.column == "3:2" and df.totals == {"merc": 4, "strahl": 7}
    assert df.points == {"strahl": 2, "merc": 3}
    assert df.lost == {"strahl": ["P1"], "merc": []}


def _commit(state: MakState, orders: list[tuple[str, object]], dice: list[int]) -> MakState:
    """Give commitment orders in turn (each side's last is ``commit`` alone: done)."""
    script = ScriptedDice(dice)
    for side, action in orders:
        state = SYS.apply(state, side, action, script).state  # type: ignore[arg-type]
    assert script.left == 0
    return state


def test_10_1_1_assignments_hidden_until_both_ready_then_10_2_dogfight_10_2_2_no_durability():
    s = game([("M-AFS1", "AFS", "merc", "5:1020"), ("S-PKA1", "PKA", "strahl", "5:0818")],
             air=[("M-Falke1", "Falke", "merc", "ready"), ("S-PK401", "PK40", "strahl", "ready"),
                  ("S-PK402", "PK40", "strahl", "ready")], phase="air")
    assert SYS.phase_of(s) == "air" and sorted(SYS.waiting_on(s)) == ["merc", "strahl"]
    step = SYS.apply(s, "merc", AA.Commit(unit="M-Falke1", mission="air"), ScriptedDice([]))
    assert "air" not in step.events[0].text.split("(")[0].replace("aircraft", "")  # 10.1.1: secret
    step = SYS.apply(step.state, "merc", AA.Commit(), ScriptedDice([]))
    assert SYS.waiting_on(step.state) == ["strahl"]
    with pytest.raises(RuleError, match="not your turn"):
        SYS.apply(step.state, "merc", AA.Commit(unit="M-Falke1", mission="ground"), ScriptedDice([]))
    s2 = _commit(step.state, [("strahl", AA.Commit(unit="S-PK401", mission="air")),
                              ("strahl", AA.Commit(unit="S-PK402", mission="air"))], [])
    # 4 against 4: the attacking player (the first, merc, here) is the aggressor; column 1:1,
    # die 3 is (2, 2): the Falke (4) loses nothing, Strahl lose one PK40. One die only (10.2.2).
    step = SYS.apply(s2, "strahl", AA.Commit(), ScriptedDice([3]))
    texts = " | ".join(e.text for e in step.events)
    assert "Air Combat M-Falke1" in texts and "Air Combat S-PK401, S-PK402" in texts  # revealed
    assert "Ground Combat none; not flying none" in texts and " -;" not in texts  # an empty space
    assert "column 1:1" in texts and "🎲 3" in texts
    st = step.state
    assert st.unit("S-PK401").status == "destroyed" and st.unit("S-PK402").status == "aloft"
    assert st.unit("M-Falke1").status == "aloft"
    # 10.1.3: the survivors of the air combat mission are Used; the first phase begins
    assert st.air.duty == {"M-Falke1": "used", "S-PK402": "used"}
    assert st.phase == "first" and SYS.waiting_on(st) == ["merc"] and step.reveals


# -- 10.3 breakthrough -------------------------------------------------------------------------


def test_10_3_example_six_against_three_three_break_through():
    assert breakthrough_count(6, 3) == 3  # "three units (6 – 3 = 3) may breakthrough"
    assert breakthrough_count(5, 3) == 0  # not double
    assert breakthrough_count(2, 0) == 2  # no opposing air combat units
    assert breakthrough_count(0, 0) == 0
    assert breakthrough_count(3, 6) == 0
    assert [u for u, _ in breakers([("a", 2), ("b", 3), ("c", 2)], 2)] == ["a", "b"]


def test_10_3_1_breakthrough_is_a_dogfight_against_rating_0():
    bt = breakthrough("strahl", [("P1", 2), ("P2", 2)], [("F", 4)], 1)
    assert bt.column == dogfight_chart().columns[-1].name  # against 0: the last column
    assert bt.totals == {"strahl": 4, "merc": 0}
    # our 5:1 row 1 is (0, 6): the Falke (4) is lost
    assert bt.lost == {"strahl": [], "merc": ["F"]}


def test_10_3_2_breakthrough_damage_at_once_the_ground_mission_is_lost():
    s = game([("M-AFS1", "AFS", "merc", "5:1020"), ("S-PKA1", "PKA", "strahl", "5:0818")],
             air=[("M-Falke1", "Falke", "merc", "ready"), ("S-PK401", "PK40", "strahl", "ready"),
                  ("S-PK402", "PK40", "strahl", "ready")], phase="air")
    # the Falke goes to ground attack, both PK40 to air combat: no opposing air units, so both
    # break through (10.3), 4 against 0, our 5:1 row 2 is (0, 5): the Falke is destroyed.
    s = _commit(s, [("merc", AA.Commit(unit="M-Falke1", mission="ground")), ("merc", AA.Commit()),
                    ("strahl", AA.Commit(unit="S-PK401", mission="air")),
                    ("strahl", AA.Commit(unit="S-PK402", mission="air")), ("strahl", AA.Commit())], [2])
    assert s.unit("M-Falke1").status == "destroyed"
    assert not [a for a in SYS.legal_actions(s, "merc") if a.path() == "air strike"]


def test_10_3_breakthrough_without_targets_is_only_said():
    s = game([("M-AFS1", "AFS", "merc", "5:1020")],
             air=[("S-PK401", "PK40", "strahl", "ready")], phase="air")
    s.air.committed = ["merc"]
    step = SYS.apply(s, "strahl", AA.Commit(unit="S-PK401", mission="air"), ScriptedDice([]))
    step = SYS.apply(step.state, "strahl", AA.Commit(), ScriptedDice([]))
    assert any("no enemy aircraft is on a ground mission" in e.text for e in step.events)


# -- 10.1.3 / 10.1.4 the duty chart ------------------------------------------------------------


def test_10_1_3_used_aircraft_come_back_next_turn_and_arrivals_join():
    s = game([("M-AFS1", "AFS", "merc", "5:1020"), ("S-PKA1", "PKA", "strahl", "5:0818")],
             air=[("M-Falke1", "Falke", "merc", "used")], active="strahl", phase="second")
    s.units.append(UnitState(id="S-PK401", type="PK40", side="strahl", deploy="2⑤N"))
    step = SYS.apply(s, "strahl", A.End(), ScriptedDice([]))
    st = step.state
    assert st.turn == 2 and st.phase == "air"
    assert st.air.duty == {"M-Falke1": "ready", "S-PK401": "ready"} and st.air.arrived["S-PK401"] == 2
    assert any("S-PK401 arrives" in e.text for e in step.events)


def test_air_phase_is_skipped_without_aircraft():
    s = game([("M-AFS1", "AFS", "merc", "5:1020")], active="strahl", phase="second")
    step = SYS.apply(s, "strahl", A.End(), ScriptedDice([]))
    assert step.state.phase == "first" and step.state.turn == 2


def test_10_1_4_withdraw_not_in_the_turn_it_arrived():
    assert not may_withdraw(1, 1) and not may_withdraw(2, 2) and may_withdraw(1, 2)
    s = game([], air=[("M-Falke1", "Falke", "merc", "ready")], phase="air")
    with pytest.raises(RuleError, match="10.1.4"):
        SYS.apply(s, "merc", AA.Commit(unit="M-Falke1", mission="withdraw"), ScriptedDice([]))
    s.turn = 2
    step = SYS.apply(s, "merc", AA.Commit(unit="M-Falke1", mission="withdraw"), ScriptedDice([]))
    st = SYS.apply(step.state, "merc", AA.Commit(), ScriptedDice([])).state
    st = SYS.apply(st, "strahl", AA.Commit(), ScriptedDice([])).state
    assert st.unit("M-Falke1").status == "withdrawn"
    assert SYS.score(st) == {"merc": 0, "strahl": 0}  # withdrawn is not destroyed


def test_10_1_4_a_withdrawal_is_secret_until_both_are_ready_and_may_be_changed():
    # 4.0 1: "Each player secretly divides the aerial power in hand": a withdrawal is one of
    # the assignments, said only when both are ready, and changeable until then.
    s = game([], air=[("M-Falke1", "Falke", "merc", "ready"), ("M-Falke2", "Falke", "merc", "ready"),
                      ("S-PK401", "PK40", "strahl", "ready")], phase="air", turn=2)
    step = SYS.apply(s, "merc", AA.Commit(unit="M-Falke1", mission="withdraw"), ScriptedDice([]))
    assert not [e for e in step.events if e.to is None]  # a sealed order: only its owner reads it
    assert [e.text for e in step.events if e.to == "merc"][0].startswith("M-Falke1: withdrawn (10.1.4)")
    st = step.state
    assert st.unit("M-Falke1").status == "aloft"
    assert any("M-Falke1, M-Falke2 (being assigned)" in line for line in SYS.status(st))
    assert AA.Commit(unit="M-Falke1", mission="ground") in SYS.legal_actions(st, "merc")
    assert AA.Commit(unit="M-Falke1", mission="withdraw") not in SYS.legal_actions(st, "merc")
    st = SYS.apply(st, "merc", AA.Commit(), ScriptedDice([])).state
    step = SYS.apply(st, "strahl", AA.Commit(), ScriptedDice([]))
    said = " | ".join(e.text for e in step.events)
    assert "withdrawn M-Falke1 (10.1.4)" in said
    assert step.state.unit("M-Falke1").status == "withdrawn" and step.state.unit("M-Falke2").status == "aloft"


def test_10_1_1_the_turn_line_names_every_side_waited_on():
    s = game([], air=[("M-Falke1", "Falke", "merc", "ready"), ("S-PK401", "PK40", "strahl", "ready")],
             phase="air")
    assert SYS.turn_part(s).endswith("Air Commitment (10.1) · Mercenary and Strahl")
    st = SYS.apply(s, "merc", AA.Commit(), ScriptedDice([])).state
    assert SYS.turn_part(st).endswith("Air Commitment (10.1) · Strahl")


def test_10_1_1_the_picture_after_the_air_war_shows_no_old_marks():
    from rules.mak.state import Mark

    s = game([("S-PKA1", "PKA", "strahl", "5:0818")],
             air=[("M-Falke1", "Falke", "merc", "ready"), ("S-PK401", "PK40", "strahl", "ready")], phase="air")
    s.marks.append(Mark(kind="fire", hexes=["5:0818"], side="merc", text="last turn's strafe", order=3))
    st = SYS.apply(s, "merc", AA.Commit(), ScriptedDice([])).state
    step = SYS.apply(st, "strahl", AA.Commit(), ScriptedDice([]))
    view = SYS.view(step.state)
    assert step.snapshot and not view.marks and view.whole


def test_10_1_1_commit_alone_is_done_and_a_half_order_is_refused():
    """``commit`` alone says the side is done (10.1.1); a unit without a mission, or a mission
    without a unit, gets a sentence and changes nothing."""
    s = game([], air=[("M-Falke1", "Falke", "merc", "ready")], phase="air")
    before = s.model_dump_json()
    with pytest.raises(RuleError, match="mission: air, ground, none or withdraw"):
        SYS.apply(s, "merc", AA.Commit(unit="M-Falke1"), ScriptedDice([]))
    with pytest.raises(RuleError, match="Name a unit and a mission"):
        SYS.apply(s, "merc", AA.Commit(mission="air"), ScriptedDice([]))
    assert s.model_dump_json() == before
    assert AA.Commit() in SYS.legal_actions(s, "merc")
    st = SYS.apply(s, "merc", AA.Commit(), ScriptedDice([])).state
    assert st.air.committed == ["merc"] and not [o for o in SYS.legal_actions(st, "merc") if o.name == "commit"]


# -- 10.4 air-to-ground ------------------------------------------------------------------------


def strike_game() -> MakState:
    return game([("M-AFS1", "AFS", "merc", "5:1020"), ("S-PKA1", "PKA", "strahl", "5:0506"),
                 ("S-PKA2", "PKA", "strahl", "5:0506")],
                air=[("M-Falke1", "Falke", "merc", "ground"), ("M-Falke2", "Falke", "merc", "ground")])


def test_10_4_1_flak_from_every_unit_in_the_hex_then_the_attack_then_used():
    s = strike_game()
    assert AA.Airstrike(units="M-Falke1", hex="5:0506") in SYS.legal_actions(s, "merc")
    step = SYS.apply(s, "merc", AA.Airstrike(units="M-Falke1,M-Falke2", hex="5:0506"), ScriptedDice([]))
    st = step.state
    assert SYS.phase_of(st) == "flak" and step.waiting_on == ["strahl"]
    assert ("Strahl may fire at the aircraft with S-PKA1, S-PKA2: air flak for each that fires, pass to fire "
            "no more (10.4.1 2)") in [e.text for e in step.events]
    offers = SYS.legal_actions(st, "strahl")
    assert AA.Flak(unit="S-PKA1", target="M-Falke2") in offers and A.Pass() in offers
    st = SYS.apply(st, "strahl", AA.Flak(unit="S-PKA1", target="M-Falke1"), ScriptedDice([])).state
    with pytest.raises(RuleError, match="may fire at the aircraft: S-PKA2"):  # once each
        SYS.apply(st, "strahl", AA.Flak(unit="S-PKA1", target="M-Falke2"), ScriptedDice([]))
    with pytest.raises(RuleError, match=r"S-AFS9 is not over 5:0506; S-PKA2 may fire at M-Falke1, M-Falke2"):
        SYS.apply(st, "strahl", AA.Flak(unit="S-PKA2", target="S-AFS9"), ScriptedDice([]))
    # 10.4.3: PF 10 - Falke 3 = 7 in a forest hex: no terrain, no range. PKA1 rolls 6+6
    # (miss); PKA2 rolls 2+2 (hit), endurance C 5: A: the Falke is disarmed.
    step = SYS.apply(st, "strahl", AA.Flak(unit="S-PKA2", target="M-Falke2"), ScriptedDice([6, 6, 2, 2, 3, 2]))
    texts = [e.text for e in step.events]
    assert "target 10 − 3 = 7" in texts[1] and "miss" in texts[1]
    assert "Arm. Disabled" in texts[2]
    st = step.state
    assert st.unit("S-PKA1").fired == {"PF": 1}  # 10.4.6: the rounds are counted
    # only the armed Falke attacks; 10.4.2: forest -2 against the laser, no range:
    # 9 - 2 - 2 = 5; 1+3 hits, endurance B 3: D
    assert SYS.phase_of(st) == "strafe" and SYS.waiting_on(st) == ["merc"]
    assert "M-Falke1 over 5:0506: air strafe each at a unit there (10.4.1 3)" in texts
    assert {a.unit for a in SYS.legal_actions(st, "merc")} == {"M-Falke1"}
    step = SYS.apply(st, "merc", AA.Strafe(unit="M-Falke1", target="S-PKA1"), ScriptedDice([1, 3, 1, 2]))
    hit = next(e.text for e in step.events if "from the air" in e.text)
    assert "target 9 − 2 −2 forest = 5" in hit and "range" not in hit and "destroyed" in hit
    st = step.state
    assert st.unit("S-PKA1").status == "destroyed" and st.air.strike is None
    assert st.air.duty == {"M-Falke1": "used", "M-Falke2": "used"}  # 10.4.1 4
    assert SYS.phase_of(st) == "act"


def test_10_4_1_at_most_four_over_a_hex_and_only_ground_missions():
    s = strike_game()
    with pytest.raises(RuleError, match="At most 4"):
        SYS.apply(s, "merc", AA.Airstrike(units="a,b,c,d,e", hex="5:0506"), ScriptedDice([]))
    s.air.duty["M-Falke1"] = "used"
    with pytest.raises(RuleError, match="already flown its ground mission"):
        SYS.apply(s, "merc", AA.Airstrike(units="M-Falke1", hex="5:0506"), ScriptedDice([]))
    s.air.duty["M-Falke1"] = "air"
    with pytest.raises(RuleError, match="not on a Ground Combat Mission"):
        SYS.apply(s, "merc", AA.Airstrike(units="M-Falke1", hex="5:0506"), ScriptedDice([]))
    with pytest.raises(RuleError, match="no enemy unit"):
        SYS.apply(s, "merc", AA.Airstrike(units="M-Falke2", hex="5:1010"), ScriptedDice([]))


def test_10_4_5_each_attack_placed_alone_draws_flak_from_each_unit_10_4_6_ammunition():
    s = strike_game()
    s.units = [u for u in s.units if u.id != "S-PKA2"]
    # two attacks placed one by one, both on the same hex: the PKA fires at each (10.4.5);
    # PF twice a phase in anti-aircraft fire (11.2.4), and each round counts (10.4.6)
    st = SYS.apply(s, "merc", AA.Airstrike(units="M-Falke1", hex="5:0506"), ScriptedDice([])).state
    st = SYS.apply(st, "strahl", AA.Flak(unit="S-PKA1", target="M-Falke1"), ScriptedDice([6, 6])).state
    st = SYS.apply(st, "merc", AA.Strafe(unit="M-Falke1", target="S-PKA1"), ScriptedDice([6, 6])).state
    st = SYS.apply(st, "merc", AA.Airstrike(units="M-Falke2", hex="5:0506"), ScriptedDice([])).state
    assert SYS.phase_of(st) == "flak"
    st = SYS.apply(st, "strahl", AA.Flak(unit="S-PKA1", target="M-Falke2"), ScriptedDice([6, 6])).state
    assert st.unit("S-PKA1").fired == {"PF": 2} and "PF" in st.unit("S-PKA1").weapons_out


def test_5_1_2_a_flying_unit_immobilised_is_destroyed():
    assert flying_result("M", landing=False) == "D"
    assert flying_result("A", landing=False) == "A"
    assert flying_result("A", landing=True) == "D"  # 10.6.3
    s = strike_game()
    st = SYS.apply(s, "merc", AA.Airstrike(units="M-Falke1", hex="5:0506"), ScriptedDice([])).state
    # PF 7: 3+3 hits; endurance C 7: M -> destroyed; nothing left to attack
    st = SYS.apply(st, "strahl", AA.Flak(unit="S-PKA1", target="M-Falke1"), ScriptedDice([])).state
    st = SYS.apply(st, "strahl", A.Pass(), ScriptedDice([3, 3, 4, 3])).state
    assert st.unit("M-Falke1").status == "destroyed" and st.air.strike is None
    assert SYS.score(st)["strahl"] == 4  # the Falke's points (stand-in)


def test_pass_resolves_the_declared_flak():
    s = strike_game()
    st = SYS.apply(s, "merc", AA.Airstrike(units="M-Falke1", hex="5:0506"), ScriptedDice([])).state
    st = SYS.apply(st, "strahl", AA.Flak(unit="S-PKA1", target="M-Falke1"), ScriptedDice([])).state
    step = SYS.apply(st, "strahl", A.Pass(), ScriptedDice([6, 5]))
    assert any("miss" in e.text for e in step.events) and SYS.phase_of(step.state) == "strafe"


# -- 10.5 spotting -----------------------------------------------------------------------------


def test_10_5_a_ground_mission_aircraft_spots_one_indirect_attack_then_used():
    s = game([("M-Doll1", "DollHouse", "merc", "5:1028"), ("S-PKA1", "PKA", "strahl", "5:1016")],
             air=[("M-Falke1", "Falke", "merc", "ground")])
    order = A.Indirect(unit="M-Doll1", at="5:1016", spotter="M-Falke1")
    assert order in SYS.legal_actions(s, "merc")
    step = SYS.apply(s, "merc", order, ScriptedDice([6, 6]))
    assert step.state.air.duty["M-Falke1"] == "used"
    assert order not in SYS.legal_actions(step.state, "merc")
    s.air.duty["M-Falke1"] = "air"
    with pytest.raises(RuleError, match="10.5"):
        SYS.apply(s, "merc", order, ScriptedDice([6, 6]))


# -- 10.6 landing ------------------------------------------------------------------------------


def test_10_6_1_the_hornisse_lands_and_separates_the_pka_waits_this_phase():
    s = game([("M-AFS1", "AFS", "merc", "5:1020")], air=[("S-PK411", "PK41", "strahl", "ground")],
             active="strahl", phase="second")
    hornisse(s, "S-PK411")
    step = SYS.apply(s, "strahl", AA.Land(unit="S-PK411", at="5:1010"), ScriptedDice([]))
    st = step.state
    pk41, pka = st.unit("S-PK411"), st.unit("S-PK411-PKA")
    assert pk41.hex == pka.hex == "5:1010" and pk41.on_map and pka.on_map and pk41.rider is None
    assert "S-PK411" not in st.air.duty
    with pytest.raises(RuleError, match=r"left its PK41 this phase.*\(10\.6\.1\)"):
        SYS.apply(st, "strahl", A.Move(unit="S-PK411-PKA", to="5:1011"), ScriptedDice([]))
    with pytest.raises(RuleError, match=r"\(10\.6\.1\)"):
        SYS.apply(st, "strahl", A.Fire(unit="S-PK411-PKA", target="M-AFS1"), ScriptedDice([]))


def test_10_6_only_a_hornisse_on_a_ground_mission_lands_where_its_rider_can_go():
    s = game([], air=[("S-PK411", "PK41", "strahl", "air"), ("S-PK401", "PK40", "strahl", "ground")],
             active="strahl", phase="second")
    hornisse(s, "S-PK411")
    with pytest.raises(RuleError, match="Ground Combat Mission"):
        SYS.apply(s, "strahl", AA.Land(unit="S-PK411", at="5:1010"), ScriptedDice([]))
    with pytest.raises(RuleError, match="not a Hornisse"):
        SYS.apply(s, "strahl", AA.Land(unit="S-PK401", at="5:1010"), ScriptedDice([]))


def test_10_6_3_landing_among_the_enemy_class_c_and_a_destroys_both():
    s = game([("M-AFS1", "AFS", "merc", "5:1010")], air=[("S-PK411", "PK41", "strahl", "ground")],
             active="strahl", phase="second")
    hornisse(s, "S-PK411")
    st = SYS.apply(s, "strahl", AA.Land(unit="S-PK411", at="5:1010"), ScriptedDice([])).state
    assert SYS.phase_of(st) == "flak" and SYS.waiting_on(st) == ["merc"]
    # laser 8 - 2 = 6: 2+2 hits; class C endurance 6: A -> destroys the PK41 and the PKA
    step = SYS.apply(st, "merc", AA.Flak(unit="M-AFS1", target="S-PK411"), ScriptedDice([2, 2, 3, 3]))
    st = step.state
    assert st.unit("S-PK411").status == "destroyed" and st.unit("S-PK411-PKA").status == "destroyed"
    assert any("(10.6.3)" in e.text for e in step.events)


def test_10_6_3_a_surviving_hornisse_lands_in_close_quarters():
    s = game([("M-AFS1", "AFS", "merc", "5:1010")], air=[("S-PK411", "PK41", "strahl", "ground")],
             active="strahl", phase="second")
    hornisse(s, "S-PK411")
    st = SYS.apply(s, "strahl", AA.Land(unit="S-PK411", at="5:1010"), ScriptedDice([])).state
    st = SYS.apply(st, "merc", AA.Flak(unit="M-AFS1", target="S-PK411"), ScriptedDice([6, 6])).state
    assert st.unit("S-PK411-PKA").hex == "5:1010" and st.unit("S-PK411-PKA").attacked


def test_10_6_2_launch_from_a_stack_that_stood_since_the_turn_began():
    s = game([("S-PK411", "PK41", "strahl", "5:1010"), ("S-PKA1", "PKA", "strahl", "5:1010"),
              ("M-AFS1", "AFS", "merc", "5:1020")], active="strahl", phase="second", turn=2)
    order = AA.Land(unit="S-PK411", way="up", rider="S-PKA1")
    assert order in SYS.legal_actions(s, "strahl")
    s.air.landed["S-PKA1"] = 2
    with pytest.raises(RuleError, match="landed this turn"):
        SYS.apply(s, "strahl", order, ScriptedDice([]))
    s.air.landed.clear()
    step = SYS.apply(s, "strahl", order, ScriptedDice([]))
    st = step.state
    assert st.unit("S-PK411").status == "aloft" and st.unit("S-PKA1").status == "aboard"
    assert st.air.duty["S-PK411"] == "used" and st.unit("S-PK411").rider == "S-PKA1"


def test_10_6_2_land_way_up_needs_a_rider_and_no_hex_and_down_needs_a_hex():
    s = game([("S-PK411", "PK41", "strahl", "5:1010"), ("S-PKA1", "PKA", "strahl", "5:1010"),
              ("M-AFS1", "AFS", "merc", "5:1020")], active="strahl", phase="second", turn=2)
    before = s.model_dump_json()
    with pytest.raises(RuleError, match="Name the rider"):
        SYS.apply(s, "strahl", AA.Land(unit="S-PK411", way="up"), ScriptedDice([]))
    with pytest.raises(RuleError, match="leave out at"):
        SYS.apply(s, "strahl", AA.Land(unit="S-PK411", way="up", rider="S-PKA1", at="5:1011"), ScriptedDice([]))
    assert s.model_dump_json() == before
    offers = [o for o in SYS.legal_actions(s, "strahl") if o.name == "land"]
    assert offers == [AA.Land(unit="S-PK411", way="up", rider="S-PKA1")]  # on the ground: only up
    flying = game([("M-AFS1", "AFS", "merc", "5:1020")], air=[("S-PK411", "PK41", "strahl", "ground")],
                  active="strahl", phase="second")
    hornisse(flying, "S-PK411")
    with pytest.raises(RuleError, match="Name the hex"):
        SYS.apply(flying, "strahl", AA.Land(unit="S-PK411"), ScriptedDice([]))
    assert all(o.way == "down" and o.at for o in SYS.legal_actions(flying, "strahl") if o.name == "land")


def test_10_6_4_taking_off_from_an_enemy_hex_draws_flak():
    s = game([("S-PK411", "PK41", "strahl", "5:1010"), ("S-PKA1", "PKA", "strahl", "5:1010"),
              ("M-AFS1", "AFS", "merc", "5:1010")], active="strahl", phase="second", turn=2)
    st = SYS.apply(s, "strahl", AA.Land(unit="S-PK411", way="up", rider="S-PKA1"), ScriptedDice([])).state
    assert SYS.phase_of(st) == "flak"
    st = SYS.apply(st, "merc", A.Pass(), ScriptedDice([])).state
    assert st.unit("S-PK411").status == "aloft"


# -- item 8: the snapshot ----------------------------------------------------------------------


def test_snapshot_side_panel_shows_the_duty_chart_and_pilots_and_aircraft_over_the_hex():
    import io

    from PIL import Image

    from render import snapshot
    from render.layout import overlapping_pairs

    s = strike_game()
    s.units[1].pilot = 10
    from rules.mak import pilots

    s.crew.pilots["strahl-10"] = pilots.token("strahl", 10).model_copy(update={"unit": "S-PKA1"})
    st = SYS.apply(s, "merc", AA.Airstrike(units="M-Falke1", hex="5:0506"), ScriptedDice([])).state
    view = SYS.view(st)
    titles = [p.title for p in view.panel]
    assert titles == ["Mercenary duty chart (10.1)", "Strahl pilots (18.1.3)"]
    assert [e.text for e in view.panel[0].entries] == ["M-Falke1 · Ground Combat · over 5:0506",  # 10.4.1 1
                                                       "M-Falke2 · Ground Combat"]
    assert view.panel[1].entries[0].text == "Gieger +1/+2/+0 · S-PKA1"
    assert any(c.id == "M-Falke1" and c.faction == "merc" for c in view.counters)  # over the hex
    snap = snapshot(view)
    image = Image.open(io.BytesIO(snap.png))
    image.load()
    assert image.size == (snap.width, snap.height)
    blocks = snap.layout.of_kind("panel")
    assert [b.id for b in blocks] == titles
    assert not overlapping_pairs(blocks)
    assert all(0 <= b.box[0] and b.box[2] <= snap.width and b.box[3] <= snap.height for b in blocks)
    legend = snap.layout.of_kind("legend")
    assert legend and legend[0].box[1] >= snap.layout.get("side_panel", "panel").box[3] - 0.5


def test_panel_hides_assignments_until_both_sides_are_ready():
    s = game([], air=[("M-Falke1", "Falke", "merc", "air")], phase="air")
    view = SYS.view(s)
    assert view.panel[0].entries[0].text == "M-Falke1 · being assigned"


def test_autocomplete_for_the_air_orders_says_duty_and_the_roll_needed():
    s = strike_game()
    units_ = [c.label for c in SYS.choices(s, "merc", "air strike", "units", {})]
    assert "M-Falke1 (Falke) in the air · Ground Combat" in units_
    hexes = [c.label for c in SYS.choices(s, "merc", "air strike", "hex", {"units": "M-Falke1"})]
    assert hexes == ["5:0506 · S-PKA1, S-PKA2"]
    st = SYS.apply(s, "merc", AA.Airstrike(units="M-Falke1", hex="5:0506"), ScriptedDice([])).state
    flak = [c.label for c in SYS.choices(st, "strahl", "flak", "target", {"unit": "S-PKA1"})]
    assert flak == ["M-Falke1 (Falke) · needs 7 (sum)"]  # 10.4.3: PF 10 - 3, no terrain
    st = SYS.apply(st, "strahl", A.Pass(), ScriptedDice([])).state
    strafe = [c.label for c in SYS.choices(st, "merc", "strafe", "target", {"unit": "M-Falke1"})]
    assert "S-PKA1 (P.K.A.) 5:0506 · needs 5 (sum)" in strafe  # 10.4.2: 9 - 2 - 2 forest


def test_5_1_2_an_immobilised_hornisse_lands_within_5_hexes_and_separates():
    s = game([("M-AFS1", "AFS", "merc", "5:1010"), ("M-AFS2", "AFS", "merc", "5:1210")],
             air=[("S-PK411", "PK41", "strahl", "ground")], active="strahl", phase="second")
    hornisse(s, "S-PK411")
    st = SYS.apply(s, "strahl", AA.Airstrike(units="S-PK411", hex="5:1010"), ScriptedDice([])).state
    # laser 8 - 2 = 6: 3+3 hits; endurance C 7: M -> it lands within 5 hexes of 5:1010,
    # as far from the Mercenaries as it can (5 hexes), and separates; the PK41 stays immobilised
    step = SYS.apply(st, "merc", AA.Flak(unit="M-AFS1", target="S-PK411"), ScriptedDice([3, 3, 3, 4]))
    text = next(e.text for e in step.events if "fires at S-PK411" in e.text)
    assert "lands in" in text and "(5.1.2, 10.6.1)" in text
    st = step.state
    pk41, pka = st.unit("S-PK411"), st.unit("S-PK411-PKA")
    assert pk41.on_map and pka.on_map and pk41.hex == pka.hex and pk41.immobilized
    from rules.core.hexes import distance

    t = __import__("rules.mak.table", fromlist=["Table"]).Table(st)
    assert distance(t.hex(pk41), t.hex_of("5:1010")) == 5
    assert st.air.strike is None and SYS.phase_of(st) == "act"  # nothing left to attack
    assert not t.weapons(pk41, False)  # a landed PK41 does not fire (10.4)


def test_10_1_status_says_the_duty_chart_spaces_in_words():
    s = game([], air=[("M-Falke1", "Falke", "merc", "ground"), ("M-Falke2", "Falke", "merc", "used"),
                      ("S-PK401", "PK40", "strahl", "ready")])
    lines = SYS.status(s)
    assert "Mercenary duty chart: M-Falke1 Ground Combat, M-Falke2 Used" in lines
    assert "Strahl duty chart: S-PK401 not flying" in lines
    assert "Mercenary: M-Falke1@air, M-Falke2@air" in lines  # 10.0: in the air, not "off"


def test_10_1_1_autocomplete_names_the_missions_and_shows_only_your_own_assignments():
    s = game([], air=[("M-Falke1", "Falke", "merc", "ground"), ("S-PK401", "PK40", "strahl", "air")],
             phase="air", turn=2)
    missions = [c.label for c in SYS.choices(s, "merc", "commit", "mission", {"unit": "M-Falke1"})]
    assert "air · Air Combat Mission (dog-fight, 10.2)" in missions
    assert "withdraw · leaves the battle for good (10.1.4)" in missions
    mine = [c.label for c in SYS.choices(s, "merc", "commit", "unit", {})]
    assert mine == ["M-Falke1 (Falke) in the air · Ground Combat"]  # your own: shown to you
    assert SYS.label(s, "strahl", "commit", "unit", "M-Falke1", {}) == "M-Falke1 (Falke) in the air"
