"""9.0 Close quarters; 11.0 Weapons; 12.0 Deployment; 14.0 Infantry; 16.0 Unmanned units."""

from __future__ import annotations

import pytest

from rules.core.dice import ScriptedDice
from rules.core.errors import RuleError
from rules.mak.battlefield import battlefield
from rules.mak.closequarters import pinned_count, unpinned_choice_needed
from rules.mak.combat import UNARMED_TARGET
from rules.mak.data import Weapon, units
from rules.mak.deployment import airdrop_result, entry_hexes, may_enter_on, parse_deploy
from rules.mak.infantry import (
    arson_modifier,
    arson_succeeds,
    combined_attack,
    detects_mines,
    morale_effect,
    recovery_modifier,
    roll_recovery,
)
from rules.mak.unmanned import allowance_with_amu, may_collect_amu, may_destroy_amu, may_spot
from rules.mak.weapons import can_reload, expend, phase_limit, rounds_left


def test_9_4_1_two_phasing_units_pin_two_of_four():
    # 9.4.1 example: 2 phasing units, 4 anti-phasing: 2 pinned, 2 unpinned.
    assert pinned_count([True, True], 4) == 2
    assert unpinned_choice_needed([True, True], 4) == 2


def test_9_4_2_immobilised_or_unarmed_phasing_units_do_not_pin():
    assert pinned_count([True, False], 4) == 1
    assert pinned_count([True, True, True], 2) == 2


def test_9_5_unarmed_is_an_unmodified_4():
    assert UNARMED_TARGET == 4


def test_11_2_1_laser_drained_on_5_6_and_6_6():
    afs = units()["AFS"]
    laser = afs.weapons[0]
    assert expend(afs, laser, (5, 6), 0).disabled
    assert expend(afs, laser, (6, 6), 0).disabled
    assert not expend(afs, laser, (6, 4), 0).disabled


def test_11_2_2_mg_breaks_on_6_6_but_14_2_4_never_for_infantry():
    inf = units()["InfSQ"]
    mg = inf.weapons[0]
    assert mg.type == Weapon.MG and not expend(inf, mg, (6, 6), 0).disabled
    tank_like = units()["InfSQ"].model_copy(update={"infantry": False})
    assert expend(tank_like, mg, (6, 6), 0).disabled


def test_14_4_4_aar_rifle_drained_for_a_turn_only():
    aar = units()["AARSQ"]
    spent = expend(aar, aar.weapons[0], (5, 6), 0)
    assert spent.drained_one_turn and not spent.disabled


def test_11_2_4_rounds_printed():
    rounds = {key: [w.rounds for w in units()[key].weapons if w.rounds] for key in
              ("DollHouse", "Goblin", "PKA", "Gustav", "Konrad")}
    assert rounds == {"DollHouse": [4], "Goblin": [2], "PKA": [2], "Gustav": [2], "Konrad": [2]}
    # 11.1.2: the Gustav's PF is the PKA's: attack 10, range 4
    pf = [w for w in units()["Gustav"].weapons if w.type == Weapon.PF][0]
    assert (pf.attack, pf.range) == (10, 4)


def test_11_2_5_rocket_count_tokens_then_arm_disabled():
    # 11.2.5: "if a unit has fired 3 rounds, place the 3 token"; at the maximum, Arm. Disabled.
    doll = units()["DollHouse"]
    rockets = doll.weapons[0]
    tokens = []
    fired = 0
    for _ in range(4):
        spent = expend(doll, rockets, (3, 4), fired)
        fired = spent.rounds_fired
        tokens.append(spent.token if not spent.disabled else "Arm. Disabled")
    assert tokens == ["R1", "R2", "R3", "Arm. Disabled"]
    assert rounds_left(rockets, 3) == 1


def test_11_2_4_rockets_once_a_phase_pf_twice_only_in_defence():
    goblin, pka = units()["Goblin"], units()["PKA"]
    assert phase_limit(goblin.weapons[1], defensive=True) == 1
    assert phase_limit(pka.weapons[0], defensive=True) == 2
    assert phase_limit(pka.weapons[0], defensive=False) == 1
    assert phase_limit(goblin.weapons[0], defensive=False) is None


def test_11_3_1_pf_reload_in_a_depot_without_enemies():
    pka = units()["PKA"]
    assert can_reload(pka, pka.weapons[0], in_depot=True, enemy_in_hex=False)
    assert not can_reload(pka, pka.weapons[0], in_depot=True, enemy_in_hex=True)
    assert not can_reload(pka, pka.weapons[0], in_depot=False, enemy_in_hex=False)


def test_12_1_deployment_notation_1_5_n_east_of_1801():
    spec = parse_deploy("1⑤N▷1801")
    assert (spec.turn, spec.boards, spec.edge, spec.arrow, spec.hex) == (1, (5,), "N", "▷", "1801")
    field = battlefield((5, 6))
    hexes = [field.label(h) for h in entry_hexes(field.layout, spec)]
    assert hexes == ["5:1801", "5:1901", "5:2001"]  # that hex and all hexes east of it
    assert spec.text() == "enters board 5 N edge, from 1801 east, turn 1"


def test_12_1_notation_without_turn_and_several_boards():
    spec = parse_deploy("⑤⑥E")
    assert spec.turn is None and spec.boards == (5, 6) and may_enter_on(spec, 4)
    assert len(entry_hexes(battlefield((5, 6)).layout, spec)) == 60
    setup = parse_deploy("⑤0606")
    assert setup.setup and [battlefield((5,)).label(h) for h in entry_hexes(battlefield((5,)).layout, setup)] == ["5:0606"]
    west = parse_deploy("2⑥E△2010")
    assert not may_enter_on(west, 1) and may_enter_on(west, 3)
    assert len(entry_hexes(battlefield((5, 6)).layout, west)) == 10
    with pytest.raises(RuleError, match="deployment code"):
        parse_deploy("north edge")


def test_12_2_airdrop_m_destroys():
    assert airdrop_result("M") == "D" and airdrop_result("A") == "A"


def test_14_2_1_stacked_infantry_add_attack():
    assert combined_attack([4, 4, 3]) == 11


def test_14_3_morale_breaks_on_m_or_a_and_recovers_on_1_to_4():
    assert morale_effect("M") == "broken" and morale_effect("A") == "broken"
    assert morale_effect("D") == "D"
    assert recovery_modifier(True, "forest", False, True, True) == -1 - 2 + 1 + 1
    assert recovery_modifier(False, "clear", True, False, False) == -1
    assert recovery_modifier(False, "forest", True, False, False) == -2 - 1  # 14.3.2: cumulative
    assert roll_recovery(ScriptedDice([4]), 0, "r").recovered
    assert not roll_recovery(ScriptedDice([5]), 0, "r").recovered
    assert roll_recovery(ScriptedDice([6]), -2, "r").recovered


def test_14_4_engineers_detect_mines_and_set_fires():
    assert detects_mines(5) and not detects_mines(6)
    assert [arson_modifier(n) for n in (1, 2, 3, 4)] == [0, -2, -3, -4]
    assert arson_succeeds(5, 1) and not arson_succeeds(6, 1) and arson_succeeds(7, 2)


def test_16_unmanned_need_command_and_the_amu():
    nut, afs, spotter, inf = units()["NutRocker"], units()["AFS"], units()["NeuSpotter"], units()["InfSQ"]
    assert not may_spot(nut, commanded=False) and may_spot(nut, commanded=True) and may_spot(afs, False)
    assert may_collect_amu(afs, "strahl") and may_collect_amu(inf, "strahl")
    assert not may_collect_amu(units()["DollHouse"], "strahl") and not may_collect_amu(afs, "merc")
    assert may_destroy_amu("merc") and not may_destroy_amu("strahl")
    assert allowance_with_amu(spotter, True) == spotter.movement // 2
    assert allowance_with_amu(afs, True) == afs.movement
