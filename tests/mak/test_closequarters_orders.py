"""9.3 continuing close quarters combat, 9.5 unarmed combat's order, 12.2 airdrop, 14.4
engineers (mines and arson) and 16.2 the AMU, played through the orders with scripted dice."""

from __future__ import annotations

import pytest

from rules.core.dice import ScriptedDice
from rules.core.errors import RuleError
from rules.mak import SYSTEM as SYS
from rules.mak import actions as A
from rules.mak import special_actions as S
from rules.mak.state import MakState, Minefield, UnitState
from tests.mak.test_system import game


def melee_pair(**pka: object) -> MakState:
    """An AFS and a PKA in close quarters in 5:1017 at the start of the Mercenary phase."""
    s = game([("M-AFS1", "AFS", "merc", "5:1017"), ("S-PKA1", "PKA", "strahl", "5:1017")])
    for key, value in pka.items():
        setattr(s.unit("S-PKA1"), key, value)
    return s


# -- 9.3 -------------------------------------------------------------------------------------


def test_9_3_1_the_phasing_player_is_offered_the_close_combat_and_fire_is_refused():
    s = melee_pair()
    legal = SYS.legal_actions(s, "merc")
    assert S.Engage(unit="M-AFS1", target="S-PKA1") in legal  # 9.3.1 1: fight it as it is
    assert not any(a.name == "fire" and a.target == "S-PKA1" for a in legal)
    with pytest.raises(RuleError, match="engage"):
        SYS.apply(s, "merc", A.Fire(unit="M-AFS1", target="S-PKA1"), ScriptedDice([]))
    assert SYS.legal_actions(s, "strahl") == []  # 9.3.5: the other player does nothing meanwhile


def test_9_3_2_the_exchange_is_simultaneous_both_destroyed():
    # AFS laser 8 - 2 +2 range 0 = 8: 1+2 hits; the PKA (endurance B) rolls 3: D ...
    step = SYS.apply(melee_pair(), "merc", S.Engage(unit="M-AFS1", target="S-PKA1"), ScriptedDice([1, 2, 1, 2]))
    assert SYS.phase_of(step.state) == "melee"
    assert any("endurance 3: D" in e.text for e in step.events)
    # ... but the result waits: the Strahl player now names targets, with the PKA (9.3.2)
    assert step.waiting_on == ["strahl"] and step.state.unit("S-PKA1").on_map
    assert S.Engage(unit="S-PKA1", target="M-AFS1") in SYS.legal_actions(step.state, "strahl")
    # PF 10 - 3 +1 range 0 = 8: 1+2 hits; the AFS (endurance A) rolls 2: D
    step = SYS.apply(step.state, "strahl", S.Engage(unit="S-PKA1", target="M-AFS1"), ScriptedDice([1, 2, 1, 1]))
    assert step.state.unit("M-AFS1").status == "destroyed"
    assert step.state.unit("S-PKA1").status == "destroyed"
    assert step.state.exchange is None and step.waiting_on == ["merc"]


def test_9_3_2_phasing_units_that_fought_do_nothing_else_this_phase():
    step = SYS.apply(melee_pair(), "merc", S.Engage(unit="M-AFS1", target="S-PKA1"), ScriptedDice([5, 5]))
    step = SYS.apply(step.state, "strahl", A.Pass(), ScriptedDice([]))  # no attack (9.3.2)
    assert step.state.exchange is None
    legal = SYS.legal_actions(step.state, "merc")
    assert not any(getattr(a, "unit", "") == "M-AFS1" for a in legal)
    with pytest.raises(RuleError):
        SYS.apply(step.state, "merc", A.Move(unit="M-AFS1", to="5:1019"), ScriptedDice([]))


def test_9_5_unarmed_comes_after_the_opposing_armed_attacks():
    # The AFS fights unarmed; the PKA's armed attack lands first and destroys it: no blow.
    step = SYS.apply(melee_pair(), "merc", S.Engage(unit="M-AFS1", target="S-PKA1", unarmed=True), ScriptedDice([]))
    assert step.waiting_on == ["strahl"]
    step = SYS.apply(step.state, "strahl", S.Engage(unit="S-PKA1", target="M-AFS1"), ScriptedDice([1, 2, 1, 1]))
    assert step.state.unit("M-AFS1").status == "destroyed" and step.state.unit("S-PKA1").on_map
    assert not any("(unarmed)" in e.text for e in step.events)


def test_9_5_opposing_unarmed_attacks_are_simultaneous():
    # The PKA's PanzerFaust is out (A): it still fights unarmed (5.1.2); both blows at 4.
    step = SYS.apply(melee_pair(disarmed=True), "merc", S.Engage(unit="M-AFS1", target="S-PKA1", unarmed=True),
                     ScriptedDice([]))
    assert S.Engage(unit="S-PKA1", target="M-AFS1", unarmed=True) in SYS.legal_actions(step.state, "strahl")
    step = SYS.apply(step.state, "strahl", S.Engage(unit="S-PKA1", target="M-AFS1", unarmed=True),
                     ScriptedDice([1, 2, 1, 2, 2, 2, 1, 1]))
    blows = [e.text for e in step.events if "(unarmed)" in e.text]
    assert len(blows) == 2 and all("4 − 0 = 4" in b for b in blows)
    assert step.state.unit("M-AFS1").status == "destroyed" and step.state.unit("S-PKA1").status == "destroyed"


def test_9_3_3_reinforcing_a_close_combat_no_same_hex_defensive_fire():
    s = melee_pair()
    s.units.append(UnitState(id="M-AFS2", type="AFS", side="merc", deploy="⑤0101", hex="5:1018", status="on"))
    step = SYS.apply(s, "merc", A.Assault(unit="M-AFS2", hex="5:1017"), ScriptedDice([]))
    # the PKA is pinned by M-AFS1 (9.4.1): it may not fire into the adjacent hex (9.3.3), and
    # there is no same-hex defensive fire: M-AFS2 joins the combat, fought with melee
    assert step.state.window is None and step.state.unit("M-AFS2").hex == "5:1017"
    assert any("9.3.3" in e.text for e in step.events)
    assert {a.unit for a in SYS.legal_actions(step.state, "merc") if a.name == "engage"} == {"M-AFS1", "M-AFS2"}
    # the first target named opens the combat; the second unit is still asked for its target
    step = SYS.apply(step.state, "merc", S.Engage(unit="M-AFS1", target="S-PKA1"), ScriptedDice([]))
    assert step.waiting_on == ["merc"] and {a.unit for a in SYS.legal_actions(step.state, "merc")
                                            if a.name == "engage"} == {"M-AFS2"}


def test_9_3_4_retreating_units_draw_defensive_fire_once_adjacent():
    step = SYS.apply(melee_pair(), "merc", A.Move(unit="M-AFS1", to="5:1019"), ScriptedDice([]))
    assert step.state.unit("M-AFS1").hex == "5:1018" and step.waiting_on == ["strahl"]
    assert A.Defend(unit="S-PKA1", target="M-AFS1", weapon="PF") in SYS.legal_actions(step.state, "strahl")


# -- 12.2 ------------------------------------------------------------------------------------


def dropping(into_enemy: bool = True) -> MakState:
    s = game([("S-PKA1", "PKA", "strahl", "5:1017")])
    s.units.append(UnitState(id="M-NutRocker1", type="NutRocker", side="merc", deploy="1⑤N", airdrop=True))
    return s


def test_12_2_airdrop_is_its_own_order_into_any_hex_it_could_occupy():
    s = dropping()
    legal = SYS.legal_actions(s, "merc")
    drops = {a.at for a in legal if a.name == "enter" and a.unit == "M-NutRocker1"}
    assert {"5:1017", "5:0101", "5:2030"} <= drops  # not only the map's edge
    step = SYS.apply(s, "merc", A.Enter(unit="M-NutRocker1", at="5:0202"), ScriptedDice([]))
    nut = step.state.unit("M-NutRocker1")
    assert nut.hex == "5:0202" and not any(getattr(a, "unit", "") == "M-NutRocker1" and a.name == "move"
                                           for a in SYS.legal_actions(step.state, "merc"))


def test_12_2_anti_aircraft_fire_endurance_c_and_m_destroys():
    step = SYS.apply(dropping(), "merc", A.Enter(unit="M-NutRocker1", at="5:1017"), ScriptedDice([]))
    assert step.state.window.reason == "airdrop" and step.waiting_on == ["strahl"]
    # PF 10 - 3 +1 range 0 = 8, 1+2 hits; endurance rolled 8: "C" gives M (the NutRocker's own
    # B would give no effect), and M destroys a dropped unit (12.2)
    step = SYS.apply(step.state, "strahl", A.Defend(unit="S-PKA1", target="M-NutRocker1"), ScriptedDice([1, 2, 3, 5]))
    assert step.state.unit("M-NutRocker1").status == "destroyed" and step.state.drop is None


def test_12_2_a_dropped_unit_that_survives_stays_and_fights_on_next_phase():
    step = SYS.apply(dropping(), "merc", A.Enter(unit="M-NutRocker1", at="5:1017"), ScriptedDice([]))
    step = SYS.apply(step.state, "strahl", A.Pass(), ScriptedDice([]))
    assert step.state.drop is None and step.state.unit("M-NutRocker1").hex == "5:1017"
    legal = SYS.legal_actions(step.state, "merc")
    assert not any(getattr(a, "unit", "") == "M-NutRocker1" and a.name in ("move", "fire", "assault", "indirect")
                   for a in legal)  # "cannot attack or move during the current phase"
    step = SYS.apply(step.state, "merc", A.End(), ScriptedDice([]))
    assert any(a.name == "engage" for a in SYS.legal_actions(step.state, "strahl"))  # continuing (12.2)


# -- 14.4 / 19.1 -----------------------------------------------------------------------------


def mined(*hexes: str, units: list | None = None) -> MakState:
    s = game(units or [("M-EngSQ1", "EngSQ", "merc", "5:1012"), ("S-PKA1", "PKA", "strahl", "5:0101")])
    for h in hexes:
        s.mines[h] = Minefield(owner="strahl", attack=9)
    return s


def test_14_4_1_an_engineer_finds_the_minefield_on_1_to_5_and_stays_out():
    step = SYS.apply(mined("5:1013"), "merc", A.Move(unit="M-EngSQ1", to="5:1013"), ScriptedDice([5]))
    assert step.state.unit("M-EngSQ1").hex == "5:1012" and step.state.mines["5:1013"].revealed
    assert any("14.4.1" in e.text for e in step.events)
    # "the player may cancel the unit's movement, and chose to move to a different hex"
    assert "5:1112" in {a.to for a in SYS.legal_actions(step.state, "merc") if a.name == "move"}


def test_14_4_1_on_a_6_the_engineer_walks_in_and_19_1_3_is_attacked():
    # minefield 9 - squad defence 0 = 9: 1+2 hits; endurance D rolls 12: no effect
    step = SYS.apply(mined("5:1013"), "merc", A.Move(unit="M-EngSQ1", to="5:1013"),
                     ScriptedDice([6, 1, 2, 6, 6]))
    assert step.state.unit("M-EngSQ1").hex == "5:1013"
    assert any("9 − 0 = 9" in e.text and "19.1.3" in e.text for e in step.events)


def test_19_1_4_passing_through_two_minefields_is_four_attacks():
    s = mined("5:1013", "5:1014", units=[("M-AFS1", "AFS", "merc", "5:1012"), ("S-PKA1", "PKA", "strahl", "5:0101")])
    step = SYS.apply(s, "merc", A.Move(unit="M-AFS1", to="5:1015"), ScriptedDice([6, 5] * 4))
    attacks = [e.text for e in step.events if e.kind == "mine"]
    assert len(attacks) == 4 and sum("enters" in a for a in attacks) == 2 and sum("leaves" in a for a in attacks) == 2
    assert step.state.unit("M-AFS1").hex == "5:1015"


def test_19_1_8_friendly_minefields_attack_too_and_are_revealed():
    s = mined(units=[("S-PKA2", "PKA", "strahl", "5:1012"), ("M-AFS1", "AFS", "merc", "5:0101")])
    s.mines["5:1013"] = Minefield(owner="strahl", attack=9)
    s.active = "strahl"
    step = SYS.apply(s, "strahl", A.Move(unit="S-PKA2", to="5:1013"), ScriptedDice([6, 6]))
    assert step.state.mines["5:1013"].revealed and any(e.kind == "mine" for e in step.events)


def engineers() -> MakState:
    s = game([("M-EngSQ1", "EngSQ", "merc", "5:0823"), ("M-EngSQ2", "EngSQ", "merc", "5:0823"),
              ("S-PKA1", "PKA", "strahl", "5:0822")])
    s.depots["5:0822"] = "strahl"
    return s


def test_14_4_2_stacked_engineers_roll_once_with_minus_2_and_19_4_5_the_depot_explodes():
    s = engineers()
    assert S.Lay(unit="M-EngSQ1", what="fire", at="5:0822") in SYS.legal_actions(s, "merc")
    step = SYS.apply(s, "merc", S.Lay(unit="M-EngSQ1", what="fire", at="5:0822"), ScriptedDice([]))
    step = SYS.apply(step.state, "merc", S.Lay(unit="M-EngSQ2", what="fire", at="5:0822"), ScriptedDice([]))
    assert len(step.state.arson) == 1 and step.state.arson[0].units == ["M-EngSQ1", "M-EngSQ2"]
    with pytest.raises(RuleError):  # "cannot move or make any other attacks on that turn"
        SYS.apply(step.state, "merc", A.Move(unit="M-EngSQ1", to="5:0824"), ScriptedDice([]))
    # end of the troop phase: 4+3 -2 = 5: fire; the depot explodes: 1 attack of 6+6 = 12
    # on the PKA (12 - 2 = 10): 1+2 hits, endurance 12: no effect
    step = SYS.apply(step.state, "merc", A.End(), ScriptedDice([4, 3, 1, 6, 6, 1, 2, 6, 6]))
    texts = [e.text for e in step.events]
    assert any("2 squad(s): 🎲 4+3-2 = 5" in t for t in texts)
    assert "5:0822" in step.state.fire and "5:0822" not in step.state.depots
    assert any("19.4.5" in t for t in texts) and step.state.arson == []


def test_14_4_2_a_failed_attempt_and_only_adjacent_building_hexes():
    s = engineers()
    offers = {a.at for a in SYS.legal_actions(s, "merc") if a.name == "lay" and a.what == "fire"}
    assert offers == {"5:0822"}  # the only building hex next to 5:0823
    step = SYS.apply(s, "merc", S.Lay(unit="M-EngSQ1", what="fire", at="5:0822"), ScriptedDice([]))
    step = SYS.apply(step.state, "merc", A.End(), ScriptedDice([3, 3]))
    assert step.state.fire == [] and any("> 5: it fails" in e.text for e in step.events)


def test_14_4_3_fired_upon_without_damage_an_engineer_may_try_arson_instead():
    s = game([("M-EngSQ1", "EngSQ", "merc", "5:0823"), ("S-PKA1", "PKA", "strahl", "5:1023")], active="strahl")
    step = SYS.apply(s, "strahl", A.Fire(unit="S-PKA1", target="M-EngSQ1"), ScriptedDice([6, 5]))
    assert step.waiting_on == ["merc"]
    assert S.Lay(unit="M-EngSQ1", what="fire", at="5:0822") in SYS.legal_actions(step.state, "merc")
    step = SYS.apply(step.state, "merc", S.Lay(unit="M-EngSQ1", what="fire", at="5:0822"), ScriptedDice([2, 2]))
    assert "5:0822" in step.state.fire and step.state.window is None  # alone: no assistance


# -- 16.2 ------------------------------------------------------------------------------------


def test_16_2_2_a_destroyed_neuspotter_drops_its_amu_16_2_3_collected_and_carried_off():
    s = game([("M-AFS1", "AFS", "merc", "5:1015"), ("S-NeuSpotter1", "NeuSpotter", "strahl", "5:1017"),
              ("S-PKA1", "PKA", "strahl", "5:0117")])
    s.amu_rule = True
    step = SYS.apply(s, "merc", A.Fire(unit="M-AFS1", target="S-NeuSpotter1"), ScriptedDice([1, 1]))
    assert step.state.amus == {"5:1017": 1}
    s2 = step.state
    s2.unit("S-PKA1").hex = "5:1017"
    s2.active = "strahl"
    s2.unit("M-AFS1").hex = "5:0505"
    assert S.Amu(unit="S-PKA1", do="collect") in SYS.legal_actions(s2, "strahl")
    step = SYS.apply(s2, "strahl", S.Amu(unit="S-PKA1", do="collect"), ScriptedDice([]))
    pka = step.state.unit("S-PKA1")
    assert pka.amu and step.state.amus == {} and pka.move_done
    assert S.Amu(unit="S-PKA1", do="leave") not in SYS.legal_actions(step.state, "strahl")  # not on the edge
    s3 = step.state
    s3.unit("S-PKA1").hex, s3.unit("S-PKA1").move_done = "5:0110", False
    step = SYS.apply(s3, "strahl", S.Amu(unit="S-PKA1", do="leave"), ScriptedDice([]))
    assert step.state.unit("S-PKA1").status == "withdrawn" and step.state.amu_points == 1
    assert SYS.score(step.state)["strahl"] == 1 + 0  # the AMU point (the NeuSpotter scores for merc)


def test_16_2_4_a_mercenary_unit_destroys_the_amu_and_16_2_3_only_strahl_collect():
    s = game([("M-AFS1", "AFS", "merc", "5:1017"), ("S-PKA1", "PKA", "strahl", "5:0101")])
    s.amus["5:1017"] = 1
    legal = SYS.legal_actions(s, "merc")
    assert S.Amu(unit="M-AFS1", do="destroy") in legal and S.Amu(unit="M-AFS1", do="collect") not in legal
    step = SYS.apply(s, "merc", S.Amu(unit="M-AFS1", do="destroy"), ScriptedDice([]))
    assert step.state.amus == {}


def test_16_2_5_a_neuspotter_carrying_an_amu_moves_at_half():
    from rules.mak.resolve import allowance
    from rules.mak.table import Table

    s = game([("S-NeuSpotter1", "NeuSpotter", "strahl", "5:1017")], active="strahl")
    t = Table(s)
    assert allowance(t, s.unit("S-NeuSpotter1")) == 5
    s.unit("S-NeuSpotter1").amu = True
    assert allowance(t, s.unit("S-NeuSpotter1")) == 2


def test_the_pioneers_scenario_sets_up_mines_airdrop_engineers_and_amus():
    from rules.core.dice import SeededDice

    step = SYS.setup("pioneers", None, SeededDice(b"p"))
    s = step.state
    assert s.night and s.amu_rule and len(s.mines) == 4 and not any(m.revealed for m in s.mines.values())
    assert s.unit("M-NutRocker1").airdrop
    names = {a.name for a in SYS.legal_actions(s, "merc")}
    assert {"lay", "enter"} <= names


def test_14_4_2_a_squad_that_tried_arson_makes_no_defensive_attack_that_turn():
    s = engineers()
    s.unit("S-PKA1").hex = "5:1023"  # two hexes off in the open, within the squads' MG range
    step = SYS.apply(s, "merc", S.Lay(unit="M-EngSQ1", what="fire", at="5:0822"), ScriptedDice([]))
    step = SYS.apply(step.state, "merc", A.End(), ScriptedDice([6, 6]))
    step = SYS.apply(step.state, "strahl", A.Fire(unit="S-PKA1", target="M-EngSQ1"), ScriptedDice([6, 5]))
    assert step.state.window is not None and step.state.window.defenders == ["M-EngSQ2"]


def test_19_1_3_a_reinforcement_entering_a_mined_hex_is_attacked():
    s = game([("S-PKA1", "PKA", "strahl", "5:0101")])
    s.units.append(UnitState(id="M-AFS1", type="AFS", side="merc", deploy="1⑤S◁1030"))
    s.mines["5:1030"] = Minefield(owner="strahl", attack=9)
    step = SYS.apply(s, "merc", A.Enter(unit="M-AFS1", at="5:1030"), ScriptedDice([6, 6]))
    assert any(e.kind == "mine" and "as it enters" in e.text for e in step.events)
    assert step.state.mines["5:1030"].revealed


def test_14_4_3_offered_even_when_the_squad_could_not_fire_back():
    # the PKA fires from 3 hexes, beyond the squad's MG (2): the window opens for the arson alone
    s = game([("M-EngSQ1", "EngSQ", "merc", "5:0823"), ("S-PKA1", "PKA", "strahl", "5:0826")], active="strahl")
    step = SYS.apply(s, "strahl", A.Fire(unit="S-PKA1", target="M-EngSQ1"), ScriptedDice([6, 5]))
    assert step.waiting_on == ["merc"]
    legal = SYS.legal_actions(step.state, "merc")
    assert S.Lay(unit="M-EngSQ1", what="fire", at="5:0822") in legal and not any(a.name == "defend" for a in legal)
    step = SYS.apply(step.state, "merc", A.Pass(), ScriptedDice([]))
    assert step.state.window is None and step.state.fire == []
