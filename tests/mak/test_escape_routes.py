"""18.2.3 escaping towards the side's artillery and 18.2.4 escaping in a vehicle (13.1), with
scripted dice."""

from __future__ import annotations

import pytest

from rules.core.dice import ScriptedDice
from rules.core.errors import RuleError
from rules.mak import SYSTEM as SYS
from rules.mak import air_actions as AA
from rules.mak import pilots
from rules.mak.artillery import make_batteries
from rules.mak.escape import artillery_area
from rules.mak.state import MakState, Minefield, UnitState
from rules.mak.table import Table
from tests.mak.test_pilots import seat

SOUTH_GUNS = "Type I … ⑤S−40×3 (1)"  # 17.0: 40 hexes south of board 5


def escape_map(units: list[tuple[str, str, str]], boards: tuple[int, ...] = (5,),
               guns: str = SOUTH_GUNS) -> MakState:
    """Strahl entered by the north edge of board 5 (S-PKA9, 12.1) and have a battery south of
    it; ``(id, type, hex)`` Strahl units, ``id@vehicle`` aboard."""
    made = [UnitState(id="S-PKA9", type="PKA", side="strahl", deploy="1⑤N", hex="5:1010", status="on")]
    for uid, kind, where in units:
        uid, _, vehicle = uid.partition("@")
        made.append(UnitState(id=uid, type=kind, side="strahl", deploy="⑤0101", hex=where, status="on",
                              aboard=vehicle or None))
    s = MakState(scenario="test", title="test", boards=list(boards), turns=4, turn=2, first="strahl",
                 active="strahl", units=made, batteries=make_batteries("strahl", [guns]))  # type: ignore[arg-type]
    s.crew.escape = True
    return s


def pilot(s: MakState, uid: str, number: int) -> None:
    """The token ``uid`` is pilot ``number`` on foot (18.2.1)."""
    seat(s, uid, "strahl", number).status = "afoot"


# -- 18.2.3 towards the artillery ---------------------------------------------------------------


def test_18_2_3_a_pilot_escapes_in_the_direction_of_his_sides_artillery():
    # "Pilots can also escape in the direction of that player's artillery": the battery is
    # south of board 5, the side entered by the north; the south edge is safe too
    s = escape_map([("S-Pilot10", "Pilot", "5:1030"), ("S-Pilot2", "Pilot", "5:2015")])
    pilot(s, "S-Pilot10", 10)
    pilot(s, "S-Pilot2", 2)
    step = SYS.apply(s, "strahl", AA.Escape(unit="S-Pilot10"), ScriptedDice([]))
    assert step.state.crew.pilots["strahl-10"].status == "escaped"
    assert "towards its artillery" in step.events[-1].text
    # "Leaving the board any other direction, the pilot gets lost and is captured"
    st = SYS.apply(step.state, "strahl", AA.Escape(unit="S-Pilot2"), ScriptedDice([])).state
    assert st.crew.pilots["strahl-2"].status == "captured"
    assert SYS.score(st)["merc"] == pilots.pilot_points(st.crew.pilots["strahl-2"])


def test_18_2_3_only_the_batterys_board_edge_where_it_opens_off_the_map():
    # boards 5 and 6 side by side: a battery east of board 5 is beyond board 6, not off the
    # map at board 5's east edge (that edge is inside the map)
    s = escape_map([], boards=(5, 6), guns="Type I … ⑤E−40×3 (1)")
    assert artillery_area(Table(s), "strahl") == set()
    s = escape_map([], boards=(5, 6), guns="Type I … ⑥E−40×3 (1)")
    t = Table(s)
    assert t.hex_of("6:2015") in artillery_area(t, "strahl") and t.hex_of("5:2015") not in artillery_area(t, "strahl")
    assert artillery_area(t, "merc") == set()  # the enemy's guns are no way out


# -- 18.2.4 in a vehicle ---------------------------------------------------------------------------


def truck_game(at: str = "5:1030") -> MakState:
    s = escape_map([("S-Trk1", "Truck", at), ("S-Pilot10@S-Trk1", "Pilot", at)])
    pilot(s, "S-Pilot10", 10)
    return s


def test_18_2_4_a_vehicle_carries_its_pilot_off_by_a_safe_edge_and_leaves_the_battle():
    # "A pilot may escape the board while being transported by a vehicle (see [13.1])"
    s = truck_game()
    assert AA.Escape(unit="S-Trk1") in SYS.legal_actions(s, "strahl")
    step = SYS.apply(s, "strahl", AA.Escape(unit="S-Trk1"), ScriptedDice([]))
    st = step.state
    assert st.crew.pilots["strahl-10"].status == "escaped"
    assert st.unit("S-Trk1").status == "withdrawn" and st.unit("S-Pilot10").status == "withdrawn"
    assert SYS.score(st)["merc"] == 0  # the truck is not destroyed, the pilot not captured
    assert any("drives off the map at 5:1030" in e.text and "not destroyed" in e.text for e in step.events)


def test_18_2_4_a_vehicle_leaves_by_no_other_edge_and_the_rider_goes_with_it():
    s = truck_game("5:2015")  # the east edge: neither the entry area nor the guns
    assert AA.Escape(unit="S-Trk1") not in SYS.legal_actions(s, "strahl")
    with pytest.raises(RuleError, match="may leave the map only to carry its pilot away: from an edge hex "
                                        "of the area its side entered by or of the board edge towards its "
                                        "artillery"):
        SYS.apply(s, "strahl", AA.Escape(unit="S-Trk1"), ScriptedDice([]))
    with pytest.raises(RuleError, match=r"rides in S-Trk1: it leaves with the vehicle, pilot escape unit:S-Trk1"):
        SYS.apply(truck_game(), "strahl", AA.Escape(unit="S-Pilot10"), ScriptedDice([]))
    s = truck_game()
    s.units = [u for u in s.units if u.id != "S-Pilot10"]
    with pytest.raises(RuleError, match="not a pilot on foot nor a vehicle transporting one"):
        SYS.apply(s, "strahl", AA.Escape(unit="S-Trk1"), ScriptedDice([]))


def test_18_2_4_13_1_2_not_in_the_turn_it_loads_nor_when_immobilised():
    s = truck_game()
    s.unit("S-Trk1").loaded_turn = s.turn
    with pytest.raises(RuleError, match="loaded this turn"):
        SYS.apply(s, "strahl", AA.Escape(unit="S-Trk1"), ScriptedDice([]))
    s = truck_game()
    s.unit("S-Trk1").immobilized = True
    assert AA.Escape(unit="S-Trk1") not in SYS.legal_actions(s, "strahl")


def test_19_1_4_leaving_the_map_from_a_minefield_is_leaving_the_hex():
    # "resolved when a unit enters a minefield hex and when it exits": 2+2 hits the truck
    # (mine 9 − truck defence), endurance 1+1: D; truck and pilot are destroyed, not escaped
    s = truck_game()
    s.mines["5:1030"] = Minefield(owner="merc", attack=9)
    step = SYS.apply(s, "strahl", AA.Escape(unit="S-Trk1"), ScriptedDice([2, 2, 1, 1]))
    st = step.state
    assert any("as it leaves" in e.text for e in step.events)
    assert st.unit("S-Trk1").status == "destroyed" and st.unit("S-Pilot10").status == "destroyed"
