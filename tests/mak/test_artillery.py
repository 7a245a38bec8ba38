"""17.0 Artillery: the scenarios' notation, the initial order (17.1), resolving the fire (17.2)."""

from __future__ import annotations

import pytest

from rules.core.dice import ScriptedDice
from rules.core.errors import RuleError
from rules.mak import SYSTEM as SYS
from rules.mak import actions as A
from rules.mak.artillery import chart, deviation, make_batteries, parse_battery, range_to, request_kind, vp_used
from rules.mak.battlefield import battlefield
from rules.mak.state import MakState, UnitState
from rules.mak.victory import ogp


def game(spec: list[tuple[str, str, str, str]], artillery: str = "Type II … ⑤S−60×4 (2)") -> MakState:
    """Board 5, Mercenary first, with ``(id, type, side, hex)`` units and one Mercenary battery."""
    made = [UnitState(id=i, type=t, side=s, deploy="⑤0101", hex=h, status="on") for i, t, s, h in spec]
    return MakState(scenario="test", title="test", boards=[5], turns=4, first="merc", active="merc",
                    units=made, batteries=make_batteries("merc", [artillery]))


def test_scenario_notation_type_board_edge_distance_rounds():
    # "Type II … ⑥W−80×5 (2) Meaning: Type II artillery, 80 hexes west of map board 6. Two
    # rounds can be fired in a turn, and 5 total rounds are available."
    b = parse_battery("Type II … ⑥W−80×5 (2)")
    assert (b.type, b.board, b.edge, b.distance, b.total, b.per_turn) == ("II", 6, "W", 80, 5, 2)
    assert parse_battery("Type III ... ⑤N-40x3 (1)").edge == "N"
    for bad in ("Type IV … ⑥W−80×5 (2)", "Type II ⑥Q−80×5 (2)", "II … ⑥W−80×5", "Type I … ⑥W−80×1 (2)"):
        with pytest.raises(RuleError):
            parse_battery(bad)


def test_distance_is_hexes_off_the_edge_plus_hexes_in():
    layout = battlefield((5, 6)).layout
    [b] = make_batteries("merc", ["Type II … ⑥W−80×5 (2)"])
    assert range_to(layout, b, layout.parse("6:0110")) == 81
    assert range_to(layout, b, layout.parse("6:2010")) == 100
    # board 5 lies west of board 6, between it and the battery: nearer
    assert range_to(layout, b, layout.parse("5:2010")) == 80
    assert range_to(layout, b, layout.parse("5:0110")) == 61


def test_17_1_4_the_five_combinations():
    # group 1 command, 2 reconnaissance, 3 others; None: the observer requests itself
    assert request_kind(1, None) == "a"
    assert request_kind(2, 1) == "b"
    assert request_kind(2, None) == "c"
    assert request_kind(3, 1) == "d"
    assert request_kind(3, None) == "e"
    # "all other combinations of units cannot request artillery attacks"
    assert request_kind(1, 1) is None and request_kind(3, 2) is None and request_kind(2, 3) is None


def test_17_2_1_deviation_on_target_adjacent_or_failed():
    need = chart().deviation["a"]
    assert deviation(ScriptedDice([need - 3, 3]), "a", "t")[0] is None  # at the number: on target
    way, text = deviation(ScriptedDice([need - 4, 5, 4]), "a", "t")  # one over: a die for direction
    assert way == chart().directions[3] and "one hex" in text
    assert deviation(ScriptedDice([need - 4, 6, 1]), "a", "t")[0] == chart().directions[0]  # two over
    assert deviation(ScriptedDice([need - 3, 6]), "a", "t")[0] == -1  # three over: fails


def test_17_1_request_then_fire_at_the_start_of_the_next_own_phase():
    s = game([("M-PltHQ1", "PltHQ", "merc", "5:1020"), ("S-PKA1", "PKA", "strahl", "5:1016"),
              ("S-PKA2", "PKA", "strahl", "5:1015")])
    o = A.Indirect(unit="M-Art1", at="5:1016", spotter="M-PltHQ1", requester="M-PltHQ1", rounds=2)
    assert o in SYS.legal_actions(s, "merc")
    step = SYS.apply(s, "merc", o, ScriptedDice([]))
    s1 = step.state
    [r] = s1.requests
    assert (r.kind, r.turn, r.hex, r.rounds) == ("a", 1, "5:1016", 2)  # 17.1.5: the record sheet
    # 17.1.3: the spotting unit may not move or attack this turn
    assert not [a for a in SYS.legal_actions(s1, "merc") if getattr(a, "unit", "") == "M-PltHQ1"]
    # 17.1.5: the battery's two rounds of this turn are asked for
    assert not [a for a in SYS.legal_actions(s1, "merc") if a.name == "indirect"]
    s2 = SYS.apply(s1, "merc", A.End(), ScriptedDice([])).state
    assert s2.requests[0].state == "pending"  # not in the Strahl phase
    # Turn 2, Mercenary phase: the rounds land before anything moves (17.1.6, 17.2.1).
    # Round 1: deviation 3+3 = 6 ≤ 9 (type a): on target; attack 12 − 2 −3 indirect = 7;
    # 2+2 hits both PKAs: S-PKA1 (target hex) endurance B 1+2 = 3: D; S-PKA2 (next hex)
    # 4+4 +1 = 9: no effect (5.5.3).  Round 2: 5+6 = 11, two over: one hex, die 4 (S) to
    # 5:1017; attack roll 6+6 (nobody left there).
    step = SYS.apply(s2, "strahl", A.End(), ScriptedDice([3, 3, 2, 2, 1, 2, 4, 4, 5, 6, 4, 6, 6]))
    s3 = step.state
    assert s3.unit("S-PKA1").status == "destroyed"
    assert s3.unit("S-PKA2").status == "on" and not s3.unit("S-PKA2").immobilized
    assert any("endurance 8+1" in e.text for e in step.events)
    assert any("one hex S" in e.text for e in step.events)
    assert s3.batteries[0].fired == 2 and s3.requests[0].state == "done"
    # O.G.P.: ① PKA 2 points, ② two Type II rounds used
    assert vp_used(s3, "merc") == 2 * chart().types["II"].vp
    assert ogp(s3)["merc"].total == 2 - 2 * chart().types["II"].vp


def test_17_1_3_the_observer_must_see_the_target_and_not_have_moved():
    s = game([("M-PltHQ1", "PltHQ", "merc", "5:1020"), ("S-PKA1", "PKA", "strahl", "5:1016"),
              ("M-AFS1", "AFS", "merc", "5:1022")])
    s = SYS.apply(s, "merc", A.Move(unit="M-AFS1", to="5:1021"), ScriptedDice([])).state
    with pytest.raises(RuleError, match="17.1.3"):
        SYS.apply(s, "merc", A.Indirect(unit="M-Art1", at="5:1016", spotter="M-AFS1"), ScriptedDice([]))
    with pytest.raises(RuleError, match="sees no enemy"):
        SYS.apply(s, "merc", A.Indirect(unit="M-Art1", at="5:1010", spotter="M-PltHQ1"), ScriptedDice([]))


def test_17_1_4_another_units_request_comes_from_a_command_unit():
    s = game([("M-PltHQ1", "PltHQ", "merc", "5:1025"), ("M-AFS1", "AFS", "merc", "5:1020"),
              ("M-AFS2", "AFS", "merc", "5:1021"), ("S-PKA1", "PKA", "strahl", "5:1016")])
    # d) a unit in group 3 observes, a unit in group 1 requests
    step = SYS.apply(s, "merc", A.Indirect(unit="M-Art1", at="5:1016", spotter="M-AFS1",
                                            requester="M-PltHQ1"), ScriptedDice([]))
    assert step.state.requests[0].kind == "d"
    # an AFS asking for another AFS is not one of a-e
    with pytest.raises(RuleError, match="17.1.4"):
        SYS.apply(s, "merc", A.Indirect(unit="M-Art1", at="5:1016", spotter="M-AFS1",
                                         requester="M-AFS2"), ScriptedDice([]))
    # 17.1.5: a unit takes part in a single attack
    with pytest.raises(RuleError, match="17.1.5"):
        SYS.apply(step.state, "merc", A.Indirect(unit="M-Art1", at="5:1016", spotter="M-AFS2",
                                                  requester="M-PltHQ1"), ScriptedDice([]))
    # e) the AFS observes and requests itself
    step = SYS.apply(s, "merc", A.Indirect(unit="M-Art1", at="5:1016", spotter="M-AFS1"), ScriptedDice([]))
    assert step.state.requests[0].kind == "e"


def test_17_1_3_the_requester_may_not_have_moved_nor_move_or_attack_after():
    # 17.1.3 "The spotting unit may not move or attack on the turn it requests the strike":
    # in b) and d) the unit that requests is the group-1 unit (17.1.4), bound like the observer.
    s = game([("M-PltHQ1", "PltHQ", "merc", "5:1025"), ("M-AFS1", "AFS", "merc", "5:1020"),
              ("S-PKA1", "PKA", "strahl", "5:1016")])
    order = A.Indirect(unit="M-Art1", at="5:1016", spotter="M-AFS1", requester="M-PltHQ1")
    moved = SYS.apply(s, "merc", A.Move(unit="M-PltHQ1", to="5:1024"), ScriptedDice([])).state
    before = moved.model_dump_json()
    with pytest.raises(RuleError, match=r"M-PltHQ1 has moved or attacked.*requests.*\(17\.1\.3\)"):
        SYS.apply(moved, "merc", order, ScriptedDice([]))
    assert moved.model_dump_json() == before
    assert order not in SYS.legal_actions(moved, "merc")
    after = SYS.apply(s, "merc", order, ScriptedDice([])).state
    hq = after.unit("M-PltHQ1")
    assert hq.attacked and hq.move_done
    with pytest.raises(RuleError):
        SYS.apply(after, "merc", A.Move(unit="M-PltHQ1", to="5:1024"), ScriptedDice([]))


def test_17_1_2_reconnaissance_units_are_group_2():
    s = game([("M-PltHQ1", "PltHQ", "merc", "5:1025"), ("M-Neu1", "NeuSpotter", "merc", "5:1020"),
              ("S-PKA1", "PKA", "strahl", "5:1016")])
    step = SYS.apply(s, "merc", A.Indirect(unit="M-Art1", at="5:1016", spotter="M-Neu1",
                                            requester="M-PltHQ1"), ScriptedDice([]))
    assert step.state.requests[0].kind == "b"
    step = SYS.apply(s, "merc", A.Indirect(unit="M-Art1", at="5:1016", spotter="M-Neu1"), ScriptedDice([]))
    assert step.state.requests[0].kind == "c"


def test_5_5_4_no_request_on_friends_and_17_1_5_rounds_per_turn_and_in_all():
    s = game([("M-PltHQ1", "PltHQ", "merc", "5:1020"), ("S-PKA1", "PKA", "strahl", "5:1016"),
              ("M-AFS1", "AFS", "merc", "5:1017")])
    with pytest.raises(RuleError, match="5.5.4"):
        SYS.apply(s, "merc", A.Indirect(unit="M-Art1", at="5:1016", spotter="M-PltHQ1"), ScriptedDice([]))
    s = game([("M-PltHQ1", "PltHQ", "merc", "5:1020"), ("S-PKA1", "PKA", "strahl", "5:1016")],
             artillery="Type I … ⑤S−40×3 (1)")
    with pytest.raises(RuleError, match="1 round"):
        SYS.apply(s, "merc", A.Indirect(unit="M-Art1", at="5:1016", spotter="M-PltHQ1", rounds=2),
                  ScriptedDice([]))
    s.batteries[0].fired = 3
    with pytest.raises(RuleError, match="0 round"):
        SYS.apply(s, "merc", A.Indirect(unit="M-Art1", at="5:1016", spotter="M-PltHQ1"), ScriptedDice([]))


def test_17_1_6_postponed_while_a_friend_is_in_the_target_hex():
    s = game([("M-PltHQ1", "PltHQ", "merc", "5:1020"), ("S-PKA1", "PKA", "strahl", "5:1016")])
    s = SYS.apply(s, "merc", A.Indirect(unit="M-Art1", at="5:1016", spotter="M-PltHQ1"), ScriptedDice([])).state
    s = SYS.apply(s, "merc", A.End(), ScriptedDice([])).state
    s.units.append(UnitState(id="M-AFS9", type="AFS", side="merc", deploy="⑤0101", hex="5:1016", status="on"))
    step = SYS.apply(s, "strahl", A.End(), ScriptedDice([]))
    assert step.state.requests[0].state == "pending" and step.state.batteries[0].fired == 0
    assert any("postponed" in e.text for e in step.events)


def test_17_1_3_a_request_dies_with_its_observer_before_the_end_of_the_turn():
    s = game([("M-PltHQ1", "PltHQ", "merc", "5:1020"), ("S-PKA1", "PKA", "strahl", "5:1016")])
    s = SYS.apply(s, "merc", A.Indirect(unit="M-Art1", at="5:1016", spotter="M-PltHQ1"), ScriptedDice([])).state
    s = SYS.apply(s, "merc", A.End(), ScriptedDice([])).state
    # Strahl phase: the PKA's PF 10 − 0 − 1 (range 4) = 9: 1+2 hits; squad endurance D 1+2: D
    s = SYS.apply(s, "strahl", A.Fire(unit="S-PKA1", target="M-PltHQ1"), ScriptedDice([1, 2, 1, 2])).state
    assert s.unit("M-PltHQ1").status == "destroyed"
    step = SYS.apply(s, "strahl", A.End(), ScriptedDice([]))
    assert step.state.requests[0].state == "cancelled" and step.state.batteries[0].fired == 0


def test_17_2_2_a_vehicle_and_its_riders_are_one_target():
    s = game([("M-PltHQ1", "PltHQ", "merc", "5:1020"), ("S-Trk1", "Truck", "strahl", "5:1016")])
    s.units.append(UnitState(id="S-PKA1", type="PKA", side="strahl", deploy="⑤0101", hex="5:1016",
                             status="on", aboard="S-Trk1"))
    s = SYS.apply(s, "merc", A.Indirect(unit="M-Art1", at="5:1016", spotter="M-PltHQ1"), ScriptedDice([])).state
    s = SYS.apply(s, "merc", A.End(), ScriptedDice([])).state
    # on target (2+2); attack 12 − 0 − 3 = 9: 3+3 hits the truck only; endurance D 2+2: D
    step = SYS.apply(s, "strahl", A.End(), ScriptedDice([2, 2, 3, 3, 2, 2]))
    assert step.state.unit("S-Trk1").status == "destroyed" and step.state.unit("S-PKA1").status == "destroyed"


def test_artillery_chart_is_a_stand_in_with_every_type():
    assert chart().stand_in and set(chart().types) == {"I", "II", "III"}
    assert chart().types["III"].radius == 2  # 5.5.2: "up to two hexes away"
    assert sorted(chart().directions) == [0, 1, 2, 3, 4, 5]


def test_17_1_2_the_scenarios_commander_is_group_1_and_ground_support_aircraft_group_2():
    from rules.core.dice import SeededDice
    from rules.mak.artillery import group_of
    from rules.mak.pilots import commander

    s = SYS.setup("assault", None, SeededDice(b"g")).state
    lead = commander(s, "merc")
    assert lead is not None and lead.type == "AFS" and group_of(s, lead) == 1  # "(Ld 1④)"
    other_afs = next(u for u in s.units if u.type == "AFS" and u.id != lead.id)
    assert group_of(s, other_afs) == 3
    assert group_of(s, s.unit("S-NeuSpotter1")) == 2
    falke = s.unit("M-Falke1")
    falke.status = "aloft"
    s.air.duty[falke.id] = "ground"
    assert group_of(s, falke) == 2  # "All aeronautical units assigned to ground support"
    s.air.duty[falke.id] = "air"
    assert group_of(s, falke) == 3


def _falke_on_ground_mission() -> MakState:
    """The assault scenario in the Mercenary phase with M-Falke1 aloft on a Ground Combat Mission."""
    from rules.core.dice import SeededDice

    s = SYS.setup("assault", None, SeededDice(b"g")).state
    s.phase = "first"
    s.unit("M-Falke1").status = "aloft"
    s.air.duty["M-Falke1"] = "ground"
    return s


def test_17_1_2_an_aircraft_on_a_ground_mission_observes_from_the_air():
    s = _falke_on_ground_mission()
    o = A.Indirect(unit="M-Art1", at="5:0818", spotter="M-Falke1", requester="M-Falke1")
    assert o in SYS.legal_actions(s, "merc")
    step = SYS.apply(s, "merc", o, ScriptedDice([]))
    assert step.state.requests[0].kind == "c"
    o = A.Indirect(unit="M-Art1", at="5:0818", spotter="M-Falke1", requester="M-PltHQ1")
    assert SYS.apply(s, "merc", o, ScriptedDice([])).state.requests[0].kind == "b"


def test_10_5_an_aircraft_that_spotted_for_artillery_is_used_and_may_not_airstrike():
    # 10.5: "after the indirect attack is resolved, move the aeronautical unit to the 'Used'
    # space"; 10.1.2: an aircraft on a ground mission does one of attack, spot or land.
    from rules.mak import air_actions as AA

    s = _falke_on_ground_mission()
    o = A.Indirect(unit="M-Art1", at="5:0818", spotter="M-Falke1", requester="M-PltHQ1")
    after = SYS.apply(s, "merc", o, ScriptedDice([])).state
    assert after.air.duty["M-Falke1"] == "used"
    assert not [a for a in SYS.legal_actions(after, "merc") if isinstance(a, AA.Airstrike) and "M-Falke1" in a.units]
    with pytest.raises(RuleError, match=r"already flown its ground mission.*\(10\.1\.2"):
        SYS.apply(after, "merc", AA.Airstrike(units="M-Falke1", hex="5:0818"), ScriptedDice([]))
