"""19.3 night on every attack path: anti-aircraft fire (10.4.3, 10.6.3, 19.5.3), air attacks
(10.4.2), off-board artillery (17.2.2) and pilot-controlled unmanned units (16.1.1), with
scripted dice."""

from __future__ import annotations

from rules.core.dice import ScriptedDice
from rules.mak import SYSTEM as SYS
from rules.mak import actions as A
from rules.mak import air_actions as AA
from rules.mak import pilots
from rules.mak.air_orders import flak_attack
from rules.mak.table import Table
from tests.mak.test_air import strike_game
from tests.mak.test_artillery import game as artillery_game
from tests.mak.test_special_rules import safs
from tests.mak.test_system import game


def test_19_3_anti_aircraft_fire_at_night_takes_the_darkness_penalty():
    # 19.3 "Manned units fighting at night receive the darkness penalty"; 10.4.3 "not
    # modified by terrain or range": darkness is neither.  PF 10 − Falke 3 − 2 = 5.
    s = strike_game()
    s.night = True
    st = SYS.apply(s, "merc", AA.Airstrike(units="M-Falke1", hex="5:0506"), ScriptedDice([])).state
    st = SYS.apply(st, "strahl", AA.Flak(unit="S-PKA1", target="M-Falke1"), ScriptedDice([])).state
    step = SYS.apply(st, "strahl", A.Pass(), ScriptedDice([3, 3]))  # 6 > 5: a miss at night
    shot = next(e.text for e in step.events if "S-PKA1" in e.text and "M-Falke1" in e.text)
    assert "target 10 − 3 −2 night = 5" in shot and "miss" in shot


def test_19_3_an_unmanned_unit_fires_at_aircraft_without_the_penalty_16_1_1_unless_pc():
    s = game([("S-Nut1", "NutRocker", "strahl", "5:0506")])
    s.night = True
    falke = strike_game().unit("M-Falke1")
    s.units.append(falke)
    t = Table(s)
    assert not any(k == "night" for k, _ in flak_attack(t, s.unit("S-Nut1"), falke)[1].modifiers)
    pilots.crew_line(s, "strahl", ["S-Nut1"], "PC④")  # 16.1.1: controlled by its pilot: manned
    assert ("night", -2) in flak_attack(Table(s), s.unit("S-Nut1"), falke)[1].modifiers


def test_19_3_a_pc_unmanned_unit_takes_the_penalty_on_the_ground_too():
    s = game([("M-Nut1", "NutRocker", "merc", "5:1011"), ("S-PKA1", "PKA", "strahl", "5:1014")])
    s.night = True
    nut = s.unit("M-Nut1")
    assert not any(k == "night" for k, _ in Table(s).target_of(nut, Table(s).stats(nut).weapons[0],
                                                             s.unit("S-PKA1")).modifiers)
    pilots.crew_line(s, "merc", ["M-Nut1"], "PC④")
    t = Table(s)
    assert ("night", -2) in t.target_of(nut, t.stats(nut).weapons[0], s.unit("S-PKA1")).modifiers


def test_19_3_air_attacks_at_night_take_the_penalty_10_4_2():
    # laser 9 − PKA 2, forest −2, night −2 = 3: 2+2 misses
    s = strike_game()
    s.night = True
    st = SYS.apply(s, "merc", AA.Airstrike(units="M-Falke1", hex="5:0506"), ScriptedDice([])).state
    st = SYS.apply(st, "strahl", A.Pass(), ScriptedDice([])).state
    step = SYS.apply(st, "merc", AA.Strafe(unit="M-Falke1", target="S-PKA1"), ScriptedDice([2, 2]))
    hit = next(e.text for e in step.events if "from the air" in e.text)
    assert "target 9 − 2 −2 forest −2 night = 3" in hit and "miss" in hit


def test_19_3_anti_aircraft_fire_at_the_booster_at_night_19_5_3():
    s = safs("5:1024")
    s.night = True
    step = SYS.apply(s, "merc", A.Move(unit="M-SAFS1", to="5:1013", boost=True), ScriptedDice([]))
    step = SYS.apply(step.state, "strahl", A.Defend(unit="S-PKA1", target="M-SAFS1"), ScriptedDice([6, 6]))
    assert any("10 − 3 −2 night = 5" in e.text for e in step.events)


def test_19_3_off_board_artillery_at_night_17_2_2():
    # the battery's crews are manned: attack 12 − 2 − 3 indirect − 2 night = 5; 3+3 misses
    s = artillery_game([("M-PltHQ1", "PltHQ", "merc", "5:1020"), ("S-PKA1", "PKA", "strahl", "5:1016")])
    s.night = True
    s = SYS.apply(s, "merc", A.Indirect(unit="M-Art1", at="5:1016", spotter="M-PltHQ1"), ScriptedDice([])).state
    s = SYS.apply(s, "merc", A.End(), ScriptedDice([])).state
    step = SYS.apply(s, "strahl", A.End(), ScriptedDice([2, 2, 3, 3]))
    line = next(e.text for e in step.events if "S-PKA1" in e.text and "target" in e.text)
    assert "−2 night = 5" in line and step.state.unit("S-PKA1").status == "on"
