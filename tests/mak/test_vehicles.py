"""13.0 Vehicle units: transporting (13.1) and overrun attacks (13.2), with scripted dice."""

from __future__ import annotations

import pytest

from rules.core.dice import ScriptedDice
from rules.core.errors import RuleError
from rules.mak import SYSTEM as SYS
from rules.mak import actions as A
from rules.mak import special_actions as S
from rules.mak import land_actions as L
from rules.mak.data import units
from rules.mak.state import MakState, UnitState
from rules.mak.vehicles import capacity, ride_problem


def game(spec: list[tuple[str, str, str, str]], active: str = "merc", turn: int = 1) -> MakState:
    """Board 5 with ``(id, type, side, hex)`` units; ``id@vehicle`` puts a unit aboard."""
    made = []
    for uid, kind, side, where in spec:
        uid, _, vehicle = uid.partition("@")
        made.append(UnitState(id=uid, type=kind, side=side, deploy="⑤0101", hex=where, status="on",
                              aboard=vehicle or None))
    return MakState(scenario="test", title="test", boards=[5], turns=4, turn=turn, first="merc",
                    active=active, units=made)


def test_13_1_1_and_13_1_5_who_carries_how_much():
    assert capacity(units()["Truck"]) == 2  # 13.1.5: two stack points
    assert capacity(units()["NutRocker"]) == 2  # a hover tank (13.1.1)
    assert capacity(units()["DollHouse"]) == 0  # a crawler: not a truck or hover tank
    assert capacity(units()["Sph69p"]) == 6 and units()["Sph69p"].transport_type1_only
    assert capacity(units()["GreenBuffalo"]) == 10
    assert ride_problem(units()["Sph69p"], units()["InfSQ"]) is not None  # "no infantry"
    assert ride_problem(units()["Sph69p"], units()["PKA"]) is None
    assert ride_problem(units()["Truck"], units()["NutRocker"]) is not None  # Type II vehicles do not ride
    assert ride_problem(units()["Truck"], units()["InfSQ"]) is None
    assert ride_problem(units()["Truck"], units()["Pilot"]) is None  # "and pilot units"
    assert ride_problem(units()["Sph69p"], units()["Pilot"]) is not None  # Type I only
    assert ride_problem(units()["Truck"], units()["Falke"]) is not None  # aircraft do not ride


def test_13_1_2_load_then_the_vehicle_stays_put_this_turn():
    s = game([("M-Truck1", "Truck", "merc", "5:1020"), ("M-InfSQ1", "InfSQ", "merc", "5:1020")])
    assert L.Load(unit="M-Truck1", rider="M-InfSQ1") in SYS.legal_actions(s, "merc")
    step = SYS.apply(s, "merc", L.Load(unit="M-Truck1", rider="M-InfSQ1"), ScriptedDice([]))
    s2 = step.state
    assert s2.unit("M-InfSQ1").aboard == "M-Truck1"
    with pytest.raises(RuleError, match="13.1.2"):
        SYS.apply(s2, "merc", A.Move(unit="M-Truck1", to="5:1022"), ScriptedDice([]))
    with pytest.raises(RuleError, match="13.1.2"):  # nor may the rider get out again this turn
        SYS.apply(s2, "merc", L.Load(unit="M-Truck1", rider="M-InfSQ1", way="out"), ScriptedDice([]))


def test_13_1_2_a_vehicle_that_moved_may_not_load():
    s = game([("M-Truck1", "Truck", "merc", "5:1021"), ("M-InfSQ1", "InfSQ", "merc", "5:1020")])
    s = SYS.apply(s, "merc", A.Move(unit="M-Truck1", to="5:1020"), ScriptedDice([])).state
    with pytest.raises(RuleError, match="may not move on the turn it loads"):
        SYS.apply(s, "merc", L.Load(unit="M-Truck1", rider="M-InfSQ1"), ScriptedDice([]))


def test_13_1_2_next_turn_it_moves_its_allowance_with_the_rider_who_unloads_for_half():
    s = game([("M-Truck1", "Truck", "merc", "5:1020"), ("M-AFS1@M-Truck1", "AFS", "merc", "5:1020")], turn=2)
    step = SYS.apply(s, "merc", A.Move(unit="M-Truck1", to="5:1028"), ScriptedDice([]))
    s2 = step.state
    assert s2.unit("M-Truck1").hex == "5:1028" and s2.unit("M-AFS1").hex == "5:1028"
    assert s2.unit("M-Truck1").mp_spent == 8  # its regular allowance, 8 (stand-in)
    with pytest.raises(RuleError, match="unload it first"):
        SYS.apply(s2, "merc", A.Move(unit="M-AFS1", to="5:1027"), ScriptedDice([]))
    s3 = SYS.apply(s2, "merc", L.Load(unit="M-Truck1", rider="M-AFS1", way="out"), ScriptedDice([])).state
    afs = s3.unit("M-AFS1")
    assert afs.aboard is None and afs.mp_spent == 2  # half of 4 MP (13.1.2)
    assert "5:1027" in SYS.legal_actions(s3, "merc").__repr__()  # 2 MP left to walk on
    s4 = SYS.apply(s3, "merc", A.Move(unit="M-AFS1", to="5:1026"), ScriptedDice([])).state
    assert s4.unit("M-AFS1").hex == "5:1026"


def test_14_1_infantry_unloading_moves_no_further_but_may_still_assault():
    s = game([("M-Truck1", "Truck", "merc", "5:1020"), ("M-InfSQ1@M-Truck1", "InfSQ", "merc", "5:1020"),
              ("S-PKA1", "PKA", "strahl", "5:1019")], turn=2)
    s2 = SYS.apply(s, "merc", L.Load(unit="M-Truck1", rider="M-InfSQ1", way="out"), ScriptedDice([])).state
    offers = SYS.legal_actions(s2, "merc")
    assert not [a for a in offers if a.name == "move" and a.unit == "M-InfSQ1"]
    assert A.Assault(unit="M-InfSQ1", hex="5:1019") in offers  # 13.1.2: close quarters possible


def test_13_1_3_one_target_destroyed_together_or_damaged_alone():
    s = game([("M-Truck1", "Truck", "merc", "5:1020"), ("M-InfSQ1@M-Truck1", "InfSQ", "merc", "5:1020"),
              ("S-PKA1", "PKA", "strahl", "5:1022")], active="strahl")
    with pytest.raises(RuleError, match="13.1.3"):
        SYS.apply(s, "strahl", A.Fire(unit="S-PKA1", target="M-InfSQ1"), ScriptedDice([1, 1]))
    # PF 10 - truck defence 0 + range 2 (0) = 10; 2+3 hits; endurance D, 2+2 = 4: D
    step = SYS.apply(s, "strahl", A.Fire(unit="S-PKA1", target="M-Truck1"), ScriptedDice([2, 3, 2, 2]))
    assert step.state.unit("M-Truck1").status == "destroyed"
    assert step.state.unit("M-InfSQ1").status == "destroyed"
    assert any("13.1.3" in e.text for e in step.events)
    # endurance D, 3+3 = 6: A: only the vehicle is affected
    step = SYS.apply(s, "strahl", A.Fire(unit="S-PKA1", target="M-Truck1"), ScriptedDice([2, 3, 3, 3]))
    assert step.state.unit("M-Truck1").disarmed
    inf = step.state.unit("M-InfSQ1")
    assert inf.status == "on" and inf.morale == "ok" and not inf.disarmed


def test_13_1_4_riders_may_fire_but_not_fire_and_unload():
    s = game([("M-Truck1", "Truck", "merc", "5:1020"), ("M-InfSQ1@M-Truck1", "InfSQ", "merc", "5:1020"),
              ("S-PKA1", "PKA", "strahl", "5:1018")], turn=2)
    step = SYS.apply(s, "merc", A.Fire(unit="M-InfSQ1", target="S-PKA1"), ScriptedDice([6, 6]))
    with pytest.raises(RuleError, match="13.1.4"):
        SYS.apply(step.state if step.state.window is None else
                  SYS.apply(step.state, "strahl", A.Pass(), ScriptedDice([])).state,
                  "merc", L.Load(unit="M-Truck1", rider="M-InfSQ1", way="out"), ScriptedDice([]))


def test_13_1_5_capacity_in_stack_points_and_riders_outside_the_stacking_count():
    s = game([("M-Truck1", "Truck", "merc", "5:1020"), ("M-InfSQ1@M-Truck1", "InfSQ", "merc", "5:1020"),
              ("M-AFS1", "AFS", "merc", "5:1020")])
    with pytest.raises(RuleError, match="13.1.5"):
        SYS.apply(s, "merc", L.Load(unit="M-Truck1", rider="M-AFS1"), ScriptedDice([]))
    # 8.2: truck 2 + AFS 1 on the map; the squad inside does not count, so a PKA-sized friend fits
    from rules.mak.table import Table

    assert Table(s).stacking("merc", "5:1020") is None


def overrun_game(**kw) -> MakState:  # type: ignore[no-untyped-def]
    return game([("M-Nut1", "NutRocker", "merc", "5:1020"), ("S-PKA1", "PKA", "strahl", "5:1019"),
                 ("S-PKA2", "PKA", "strahl", "5:1019")], **kw)


def test_13_2_1_overrun_defensive_fire_then_attack_and_out_through_the_far_side():
    s = overrun_game()
    o = L.Overrun(unit="M-Nut1", target="S-PKA1")
    assert o in SYS.legal_actions(s, "merc")
    step = SYS.apply(s, "merc", o, ScriptedDice([]))
    assert step.waiting_on == ["strahl"]  # 9.1 2: the defenders fire as it approaches
    # S-PKA1 fires while it is adjacent (case 1): PF 10 - 3 + 1 (range 1) = 8; 6+6 misses
    step = SYS.apply(step.state, "strahl", A.Defend(unit="S-PKA1", target="M-Nut1"), ScriptedDice([6, 6]))
    assert step.waiting_on == ["strahl"]  # S-PKA2 may still fire now or once it is in
    step = SYS.apply(step.state, "strahl", A.Pass(), ScriptedDice([]))
    # it enters: only S-PKA2, which did not fire in case 1, may fire (9.2)
    assert step.state.unit("M-Nut1").hex == "5:1019" and step.state.window is not None
    assert step.state.window.defenders == ["S-PKA2"]
    # S-PKA2 misses (6+6); then the overrun attack: G 10 - 2 + 1 (range 0) = 9; 2+2 hits;
    # PKA endurance B rolls 1+1 = 2: D.
    step = SYS.apply(step.state, "strahl", A.Defend(unit="S-PKA2", target="M-Nut1"),
                     ScriptedDice([6, 6, 2, 2, 1, 1]))
    s2 = step.state
    assert s2.unit("S-PKA1").status == "destroyed"
    nut = s2.unit("M-Nut1")
    assert nut.hex == "5:1018" and nut.mp_spent == 2  # 13.2.2: no extra points, 1 + 1
    assert s2.window is None and step.waiting_on == ["merc"]  # 13.2.1: no more defensive fire
    assert s2.overrun is None
    # 13.2.2: points left, it may move on
    assert any(a.name == "move" and a.unit == "M-Nut1" for a in SYS.legal_actions(s2, "merc"))


def test_13_2_1_immobilised_before_the_hex_the_overrun_ends():
    s = overrun_game()
    step = SYS.apply(s, "merc", L.Overrun(unit="M-Nut1", target="S-PKA1"), ScriptedDice([]))
    # PF 8 needed; 2+2 hits; NutRocker endurance B 3+4 = 7: M
    step = SYS.apply(step.state, "strahl", A.Defend(unit="S-PKA1", target="M-Nut1"), ScriptedDice([2, 2, 3, 4]))
    step = SYS.apply(step.state, "strahl", A.Pass(), ScriptedDice([]))
    nut = step.state.unit("M-Nut1")
    assert nut.immobilized and nut.hex == "5:1020" and step.state.overrun is None


def test_13_2_2_it_must_be_able_to_move_into_the_hex_beyond():
    # an enemy in the hex beyond: refused
    s = game([("M-Nut1", "NutRocker", "merc", "5:1020"), ("S-PKA1", "PKA", "strahl", "5:1019"),
              ("S-PKA2", "PKA", "strahl", "5:1018")])
    with pytest.raises(RuleError, match="13.2.2"):
        SYS.apply(s, "merc", L.Overrun(unit="M-Nut1", target="S-PKA1"), ScriptedDice([]))
    # the hex beyond is off the map (row 00): refused
    s = game([("M-Nut1", "NutRocker", "merc", "5:1002"), ("S-PKA1", "PKA", "strahl", "5:1001")])
    with pytest.raises(RuleError, match="off the map"):
        SYS.apply(s, "merc", L.Overrun(unit="M-Nut1", target="S-PKA1"), ScriptedDice([]))
    # not enough movement points for both hexes
    s = overrun_game()
    s.units[0].mp_spent = 3
    with pytest.raises(RuleError, match="13.2.2"):
        SYS.apply(s, "merc", L.Overrun(unit="M-Nut1", target="S-PKA1"), ScriptedDice([]))


def test_13_2_only_an_armed_vehicle_overruns_and_vehicles_never_assault():
    s = overrun_game()
    s.units[0].disarmed = True
    with pytest.raises(RuleError, match="not armed"):
        SYS.apply(s, "merc", L.Overrun(unit="M-Nut1", target="S-PKA1"), ScriptedDice([]))
    s = overrun_game()
    assert not [a for a in SYS.legal_actions(s, "merc") if a.name == "assault"]
    s = game([("M-AFS1", "AFS", "merc", "5:1020"), ("S-PKA1", "PKA", "strahl", "5:1019")])
    with pytest.raises(RuleError, match="only vehicles overrun"):
        SYS.apply(s, "merc", L.Overrun(unit="M-AFS1", target="S-PKA1"), ScriptedDice([]))


def test_13_2_a_vehicle_in_close_quarters_only_receives_attacks():
    s = game([("M-Nut1", "NutRocker", "merc", "5:1019"), ("S-PKA1", "PKA", "strahl", "5:1019")],
             active="strahl")
    assert not [a for a in SYS.legal_actions(s, "strahl") if a.name == "fire" and a.target != "M-Nut1"]
    # close quarters are fought out by engage (9.3.2); the vehicle has no attack to answer with
    step = SYS.apply(s, "strahl", S.Engage(unit="S-PKA1", target="M-Nut1"), ScriptedDice([6, 6]))
    assert step.state.window is None and step.state.exchange is None


def test_13_2_3_riders_join_the_overrun_and_then_may_not_unload():
    s = game([("M-Nut1", "NutRocker", "merc", "5:1020"), ("M-AFS1@M-Nut1", "AFS", "merc", "5:1020"),
              ("S-PKA1", "PKA", "strahl", "5:1019")])
    o = L.Overrun(unit="M-Nut1", target="S-PKA1", riders=True)
    assert o in SYS.legal_actions(s, "merc")
    step = SYS.apply(s, "merc", o, ScriptedDice([]))
    step = SYS.apply(step.state, "strahl", A.Pass(), ScriptedDice([]))  # case 1: no shot
    assert step.state.window is not None and step.state.unit("M-Nut1").hex == "5:1019"
    # case 2, no shot either; the vehicle misses (G 9 needed, 6+6), then the AFS attacks from
    # the overrun: laser 8 - 2 + 2 (range 0) = 8; 3+3 hits; PKA endurance B rolls 2+2 = 4: A.
    step = SYS.apply(step.state, "strahl", A.Pass(), ScriptedDice([6, 6, 3, 3, 2, 2]))
    s2 = step.state
    assert s2.unit("S-PKA1").disarmed
    assert s2.unit("M-AFS1").attacked and s2.unit("M-AFS1").hex == "5:1018"
    with pytest.raises(RuleError, match="13.2.3"):
        SYS.apply(s2, "merc", L.Load(unit="M-Nut1", rider="M-AFS1", way="out"), ScriptedDice([]))


def test_scenario_riders_set_up_aboard_and_enter_with_their_vehicle():
    from rules.core.dice import SeededDice

    s = SYS.setup("assault", None, SeededDice(b"v")).state
    assert s.unit("M-InfSQ1").aboard == "M-Truck1" and s.unit("M-InfSQ1").hex == s.unit("M-Truck1").hex
    assert s.unit("S-PKA4").aboard == "S-Sph69p1"
    rider = s.unit("M-InfSQ2")
    assert rider.aboard == "M-GreenBuffalo1" and rider.status == "waiting"
    s.turn, s.phase = 2, "first"  # past the Air Commitment phase
    assert not [a for a in SYS.legal_actions(s, "merc") if a.name == "enter" and a.unit == "M-InfSQ2"]
    enter = next(a for a in SYS.legal_actions(s, "merc") if a.name == "enter" and a.unit == "M-GreenBuffalo1")
    s2 = SYS.apply(s, "merc", enter, ScriptedDice([])).state
    assert s2.unit("M-InfSQ2").status == "on" and s2.unit("M-InfSQ2").hex == enter.at
