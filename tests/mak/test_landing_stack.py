"""10.6 "When stacked in flight, they can land in adjacent hexes": several Hornisse named in one
``land`` order come down at once, each in its hex; 10.6.3 for each landing among the enemy,
with scripted dice."""

from __future__ import annotations

import pytest

from rules.core.dice import ScriptedDice
from rules.core.errors import RuleError
from rules.mak import SYSTEM as SYS
from rules.mak import air_actions as AA
from rules.mak.state import MakState
from tests.mak.test_air import game, hornisse


def two_hornisse(enemy_at: str = "5:1020") -> MakState:
    s = game([("M-AFS1", "AFS", "merc", enemy_at)],
             air=[("S-H1", "PK41", "strahl", "ground"), ("S-H2", "PK41", "strahl", "ground")],
             active="strahl", phase="second")
    hornisse(s, "S-H1")
    hornisse(s, "S-H2")
    return s


def test_10_6_stacked_in_flight_they_land_at_once_in_adjacent_hexes():
    s = two_hornisse()
    order = AA.Land(unit="S-H1,S-H2", at="5:1010,5:1011")
    step = SYS.apply(s, "strahl", order, ScriptedDice([]))
    st = step.state
    assert st.unit("S-H1").hex == st.unit("S-H1-PKA").hex == "5:1010"  # 10.6.1: each separates
    assert st.unit("S-H2").hex == st.unit("S-H2-PKA").hex == "5:1011"
    assert st.unit("S-H1-PKA").attacked and st.unit("S-H2-PKA").attacked  # neither attacks this phase
    assert "S-H1, S-H2 come down together in adjacent hexes (10.6)" in [e.text for e in step.events]
    # one hex for all: they land together in it (within the stacking limit, 10.6.5)
    st = SYS.apply(two_hornisse(), "strahl", AA.Land(unit="S-H1,S-H2", at="5:1010"), ScriptedDice([])).state
    assert st.unit("S-H1").hex == st.unit("S-H2").hex == "5:1010"


def test_10_6_the_hexes_must_be_adjacent_and_one_for_each():
    s = two_hornisse()
    with pytest.raises(RuleError, match=r"S-H2 cannot land in 5:1012: Hornisse stacked in flight land in "
                                        r"adjacent hexes, 5:1010 or next to it \(10\.6\)"):
        SYS.apply(s, "strahl", AA.Land(unit="S-H1,S-H2", at="5:1010,5:1012"), ScriptedDice([]))
    with pytest.raises(RuleError, match="one hex for each Hornisse in order: 2 units, 3 hexes"):
        SYS.apply(s, "strahl", AA.Land(unit="S-H1,S-H2", at="5:1010,5:1011,5:1009"), ScriptedDice([]))
    with pytest.raises(RuleError, match="named twice"):
        SYS.apply(s, "strahl", AA.Land(unit="S-H1,S-H1", at="5:1010"), ScriptedDice([]))
    s.air.duty["S-H2"] = "air"
    with pytest.raises(RuleError, match="S-H2 is not on a Ground Combat Mission"):
        SYS.apply(s, "strahl", AA.Land(unit="S-H1,S-H2", at="5:1010,5:1011"), ScriptedDice([]))


def test_10_6_autocomplete_offers_the_stack_coming_down_together():
    offers = [o for o in SYS.legal_actions(two_hornisse(), "strahl") if o.name == "land"]
    together = [o for o in offers if o.unit == "S-H1,S-H2"]
    assert together and all(len(o.at.split(",")) == 2 for o in together)
    assert AA.Land(unit="S-H1", at="5:1020") in offers  # each alone too


def test_10_6_3_each_landing_among_the_enemy_takes_its_anti_aircraft_fire():
    # S-H1 into the AFS's hex 5:1010, S-H2 next to it: the AFS fires at S-H1 first (class C,
    # laser 8 − 2 = 6: 2+2 hits, endurance C 3+3 = 6: A destroys both, 10.6.3); then S-H2 lands
    s = two_hornisse("5:1010")
    st = SYS.apply(s, "strahl", AA.Land(unit="S-H1,S-H2", at="5:1010,5:1011"), ScriptedDice([])).state
    assert SYS.phase_of(st) == "flak" and SYS.waiting_on(st) == ["merc"]
    assert st.unit("S-H2").status == "aloft"  # still coming down: it waits for the fire at S-H1
    st = SYS.apply(st, "merc", AA.Flak(unit="M-AFS1", target="S-H1"), ScriptedDice([2, 2, 3, 3])).state
    assert st.unit("S-H1").status == "destroyed" and st.unit("S-H1-PKA").status == "destroyed"
    assert st.unit("S-H2").hex == "5:1011" and st.unit("S-H2-PKA").hex == "5:1011"
    assert SYS.phase_of(st) == "act" and st.air.landings == []


def test_10_6_3_a_landing_next_to_the_enemy_first_then_the_one_among_them():
    # named the other way: S-H2 lands in 5:1011 at once; S-H1 comes in under fire and survives
    # (6+6 misses): it lands in close quarters (10.6.3)
    s = two_hornisse("5:1010")
    st = SYS.apply(s, "strahl", AA.Land(unit="S-H2,S-H1", at="5:1011,5:1010"), ScriptedDice([])).state
    assert st.unit("S-H2").hex == "5:1011" and SYS.phase_of(st) == "flak"
    st = SYS.apply(st, "merc", AA.Flak(unit="M-AFS1", target="S-H1"), ScriptedDice([6, 6])).state
    assert st.unit("S-H1-PKA").hex == "5:1010" and SYS.phase_of(st) == "act"


def test_10_6_a_landed_pk41_is_told_it_cannot_move_on_the_ground():
    st = SYS.apply(two_hornisse(), "strahl", AA.Land(unit="S-H1", at="5:1010"), ScriptedDice([])).state
    from rules.mak import actions as A

    with pytest.raises(RuleError, match=r"S-H1 is a PK41 on the ground and cannot move there.*\(10\.6"):
        SYS.apply(st, "strahl", A.Move(unit="S-H1", to="5:1011"), ScriptedDice([]))
