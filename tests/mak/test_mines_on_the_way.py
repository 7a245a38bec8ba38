"""19.1.4 land mines on every hex a unit crosses: infantry charges (14.2.2), assaults (9.1),
overruns (13.2) and booster flights (19.5.3), with scripted dice."""

from __future__ import annotations

from rules.core.dice import ScriptedDice
from rules.mak import SYSTEM as SYS
from rules.mak import actions as A
from rules.mak import land_actions as L
from rules.mak.resolve import charge_steps
from rules.mak.state import MakState, Minefield
from rules.mak.table import Table
from tests.mak.test_special_rules import safs
from tests.mak.test_system import game
from tests.mak.test_vehicles import overrun_game


def charge_game() -> MakState:
    """An infantry squad two hexes from a PKA, a Strahl minefield (9) in the one hex between."""
    s = game([("M-InfSQ1", "InfSQ", "merc", "5:1014"), ("S-PKA1", "PKA", "strahl", "5:1012")])
    s.mines["5:1013"] = Minefield(owner="strahl", attack=9)
    return s


def mine_lines(step) -> list[str]:  # type: ignore[no-untyped-def]
    return [e.text for e in step.events if e.kind == "mine"]


def test_19_1_4_a_charge_is_attacked_entering_and_leaving_the_hex_it_crosses_14_2_2():
    # "The land mine attack is resolved when a unit enters a minefield hex and when it exits"
    step = SYS.apply(charge_game(), "merc", A.Assault(unit="M-InfSQ1", hex="5:1012"), ScriptedDice([6, 6]))
    assert "attacks M-InfSQ1 as it enters" in mine_lines(step)[0] and step.state.unit("M-InfSQ1").hex == "5:1013"
    step = SYS.apply(step.state, "strahl", A.Pass(), ScriptedDice([6, 6]))  # the defenders let it come
    assert "attacks M-InfSQ1 as it leaves" in mine_lines(step)[0]
    assert step.state.unit("M-InfSQ1").hex == "5:1012" and step.state.assault.stage == "same"


def test_19_1_3_a_charge_destroyed_or_immobilised_in_the_hex_it_crosses_stops_there():
    # 1+1: D without the endurance chart (5.1.2)
    step = SYS.apply(charge_game(), "merc", A.Assault(unit="M-InfSQ1", hex="5:1012"), ScriptedDice([1, 1]))
    assert step.state.unit("M-InfSQ1").status == "destroyed" and step.state.assault is None
    assert step.state.window is None
    # hit 2+2 on 9; endurance D 4+4 = 8: M, for a squad its morale breaks (14.3): it stops
    # in the hex crossed, "can only move away from enemy units" (14.3.1 2)
    step = SYS.apply(charge_game(), "merc", A.Assault(unit="M-InfSQ1", hex="5:1012"), ScriptedDice([2, 2, 4, 4]))
    u = step.state.unit("M-InfSQ1")
    assert u.morale != "ok" and u.hex == "5:1013" and step.state.assault is None
    assert any("charge on 5:1012 stops in 5:1013" in e.text for e in step.events)
    # 7.2.4: it moved next to the PKA, which may fire at it as at any move
    assert step.state.window.reason == "move" and step.waiting_on == ["strahl"]


def test_14_4_1_an_engineer_charging_finds_the_minefield_and_stays_out():
    # "If a minefield is discovered, the player may cancel the unit's movement": it stays, and
    # may still move elsewhere
    s = charge_game()
    s.units[0].type = "EngSQ"
    step = SYS.apply(s, "merc", A.Assault(unit="M-InfSQ1", hex="5:1012"), ScriptedDice([1]))
    u = step.state.unit("M-InfSQ1")
    assert u.hex == "5:1014" and step.state.assault is None and not u.move_done
    assert step.state.mines["5:1013"].revealed
    assert any(a.name == "move" and a.unit == "M-InfSQ1" for a in SYS.legal_actions(step.state, "merc"))


def test_14_2_2_a_charge_goes_round_a_minefield_the_side_knows_of():
    s = game([("M-InfSQ1", "InfSQ", "merc", "5:1014"), ("S-PKA1", "PKA", "strahl", "5:1113")])
    t = Table(s)
    first, second = (t.label(h) for h in charge_steps(t, s.unit("M-InfSQ1"), "5:1113"))
    s.mines[first] = Minefield(owner="strahl", attack=9, revealed=True)
    assert [t.label(h) for h in charge_steps(Table(s), s.unit("M-InfSQ1"), "5:1113")] == [second, first]
    step = SYS.apply(s, "merc", A.Assault(unit="M-InfSQ1", hex="5:1113"), ScriptedDice([]))
    assert step.state.unit("M-InfSQ1").hex == second and not mine_lines(step)


def test_19_1_4_an_assault_from_a_minefield_hex_is_attacked_as_it_leaves_9_1():
    s = game([("M-AFS1", "AFS", "merc", "5:1013"), ("S-PKA1", "PKA", "strahl", "5:1012")])
    s.mines["5:1013"] = Minefield(owner="strahl", attack=9)
    step = SYS.apply(s, "merc", A.Assault(unit="M-AFS1", hex="5:1012"), ScriptedDice([]))
    step = SYS.apply(step.state, "strahl", A.Pass(), ScriptedDice([6, 6]))
    assert "attacks M-AFS1 as it leaves" in mine_lines(step)[0] and step.state.unit("M-AFS1").hex == "5:1012"


def test_19_1_4_an_overrun_meets_the_minefields_of_the_hex_overrun_and_the_hex_beyond_13_2():
    # the NutRocker overruns 5:1019 (a minefield) and drives out into 5:1018 (another):
    # enters 1019 (6+6 miss), the attack 6+6 misses, leaves 1019 (6+6), enters 1018 (6+6)
    s = overrun_game()
    s.units = [u for u in s.units if u.id != "S-PKA2"]
    s.mines["5:1019"] = Minefield(owner="strahl", attack=9)
    s.mines["5:1018"] = Minefield(owner="strahl", attack=9)
    step = SYS.apply(s, "merc", L.Overrun(unit="M-Nut1", target="S-PKA1"), ScriptedDice([]))
    step = SYS.apply(step.state, "strahl", A.Pass(), ScriptedDice([6, 6]))
    step = SYS.apply(step.state, "strahl", A.Pass(), ScriptedDice([6, 6, 6, 6, 6, 6]))
    lines = mine_lines(step)
    assert [("5:1019" in x, x.split("M-Nut1 ")[1].split(":")[0]) for x in lines] == [
        (True, "as it leaves"), (False, "as it enters")]
    assert step.state.unit("M-Nut1").hex == "5:1018"


def test_19_1_3_an_overrun_stopped_by_a_mine_before_the_hex_ends():
    # 1+1 on the way in: D; the overrun is over
    s = overrun_game()
    s.mines["5:1019"] = Minefield(owner="strahl", attack=9)
    step = SYS.apply(s, "merc", L.Overrun(unit="M-Nut1", target="S-PKA1"), ScriptedDice([]))
    step = SYS.apply(step.state, "strahl", A.Pass(), ScriptedDice([1, 1]))
    assert step.state.unit("M-Nut1").status == "destroyed" and step.state.overrun is None


def test_19_1_4_a_booster_flight_immobilised_leaving_a_minefield_stays_19_5_3():
    s = safs("5:1028")
    s.mines["5:1028"] = Minefield(owner="strahl", attack=9)
    # 2+2 hits (9 − 3), SAFS endurance A 3+3 = 6: M; immobilised as it leaves, it does not fly
    step = SYS.apply(s, "merc", A.Move(unit="M-SAFS1", to="5:1020", boost=True), ScriptedDice([2, 2, 3, 3]))
    u = step.state.unit("M-SAFS1")
    assert "as it leaves" in mine_lines(step)[0]
    assert u.immobilized and u.hex == "5:1028" and u.move_done


def test_19_1_3_a_carried_unit_is_attacked_separately_7_3_2():
    # 7.3.2 "both units involved are still targeted separately": the AFS carried meets the
    # minefield as it enters (1+1: D) and is gone; the carrier goes on (6+6 misses twice)
    s = game([("M-AFS1", "AFS", "merc", "5:1014"), ("M-AFS2", "AFS", "merc", "5:1014"),
              ("S-PKA1", "PKA", "strahl", "5:0101")])
    s.unit("M-AFS2").immobilized = True
    s.unit("M-AFS1").carrying = "M-AFS2"
    s.mines["5:1013"] = Minefield(owner="strahl", attack=9)
    step = SYS.apply(s, "merc", A.Move(unit="M-AFS1", to="5:1012"), ScriptedDice([6, 6, 1, 1, 6, 6]))
    lines = mine_lines(step)
    assert "attacks M-AFS2 as it enters, carried" in lines[1] and "destroyed" in lines[1]
    st = step.state
    assert st.unit("M-AFS2").status == "destroyed" and st.unit("M-AFS2").hex == "5:1013"
    assert st.unit("M-AFS1").hex == "5:1012" and st.unit("M-AFS1").carrying is None
