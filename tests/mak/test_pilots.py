"""Pilots of Maschinen Krieger (18.0) and the scenarios' crew notation, with scripted dice."""

from __future__ import annotations

import pytest

from rules.core.dice import ScriptedDice, SeededDice
from rules.core.errors import RuleError
from rules.mak import SYSTEM as SYS
from rules.mak import actions as A
from rules.mak import air_actions as AA
from rules.mak import pilots
from rules.mak.aircrew import Command, PilotState
from rules.mak.combat import AttackTarget
from rules.mak.data import units
from rules.mak.state import MakState, UnitState
from rules.mak.table import Table


def game(units_: list[tuple[str, str, str, str]], active: str = "merc") -> MakState:
    made = [UnitState(id=i, type=t, side=s, deploy="⑤0101", hex=h, status="on") for i, t, s, h in units_]
    return MakState(scenario="test", title="test", boards=[5], turns=3, first="merc", active=active,
                    units=made)  # type: ignore[arg-type]


def seat(state: MakState, uid: str, side: str, number: int, **abilities: int) -> PilotState:
    """Seat a pilot (the printed one, abilities overridden) in ``uid``."""
    p = pilots.token(side, number).model_copy(update=abilities)
    p.unit = uid
    state.crew.pilots[pilots.key(side, number)] = p
    state.unit(uid).pilot = number
    return p


# -- 18.1 modifiers ----------------------------------------------------------------------------


def test_18_1_2_example_ten_minus_one_minus_five_plus_one_is_three():
    # "if Isao is attacking with a power of 10, and his correction is -1, and the defense of
    # the target is 5, with a correction of +1, the result is (10-1) – (5+1) = 3"
    s = game([("M-A", "AFS", "merc", "5:1010"), ("S-B", "PKA", "strahl", "5:1012")])
    seat(s, "M-A", "merc", 1, name="Isao", attack=-1)
    seat(s, "S-B", "strahl", 2, defence=1)
    mods = pilots.modifiers(s, s.unit("M-A"), s.unit("S-B"))
    assert mods == [("Isao attack", -1), ("Nor defence", -1)]
    assert AttackTarget(attack=10, defense=5, modifiers=mods).value == 3


def test_18_1_2_pilots_modify_every_attack_in_play_in_addition_to_terrain():
    # AFS laser 8 at a PKA 2 hexes off (+1 range) in the open: 7; pilot attack +2, the PKA's
    # pilot defence +2 (Heinrich Gieger): 8 - 2 + 1 + 2 - 2 = 7
    s = game([("M-AFS1", "AFS", "merc", "5:1012"), ("S-PKA1", "PKA", "strahl", "5:1014")])
    seat(s, "M-AFS1", "merc", 7)  # Richalt Katze, attack +2 (stand-in)
    seat(s, "S-PKA1", "strahl", 10)  # Heinrich Gieger, 1 / 2 / 0 (printed)
    at = Table(s).target_of(s.unit("M-AFS1"), units()["AFS"].weapons[0], s.unit("S-PKA1"))
    assert at.text() == "8 − 2 +1 range 2 +2 Katze attack −2 Gieger defence = 7"
    step = SYS.apply(s, "merc", A.Fire(unit="M-AFS1", target="S-PKA1"), ScriptedDice([4, 4]))
    assert "Katze attack" in step.events[0].text and "miss" in step.events[0].text


def test_18_1_1_air_war_power_adds_the_dog_fight_modifier():
    s = game([])
    s.units.append(UnitState(id="M-F", type="Falke", side="merc", deploy="1⑤S", status="aloft"))
    seat(s, "M-F", "merc", 10)  # George Conan, dog-fight +2 (stand-in)
    assert pilots.air_rating(s, s.unit("M-F"), units()["Falke"]) == 6
    s.crew.pilots["merc-10"].dogfight = -5 + 1  # never below 0
    assert pilots.air_rating(s, s.unit("M-F"), units()["Falke"]) == 0


def test_18_1_3_a_hornisse_flies_with_its_riders_pilot():
    s = game([])
    s.units += [UnitState(id="S-H", type="PK41", side="strahl", deploy="1⑤N", status="aloft", rider="S-H-PKA"),
                UnitState(id="S-H-PKA", type="PKA", side="strahl", deploy="1⑤N", status="aboard")]
    seat(s, "S-H-PKA", "strahl", 7, dogfight=1)
    assert pilots.air_rating(s, s.unit("S-H"), units()["PK41"]) == 4


# -- 18.2.5 victory points ---------------------------------------------------------------------


def test_18_2_5_example_heinrich_giger_is_worth_six():
    # "Heinrich Giger, a lieutenant junior grade, has ability modifiers adding up to
    # 1 + 2 + 0 = 3. Because his rank has a value of 3 ... his total value is 6"
    assert pilots.victory_points((1, 2, 0), 3) == 6
    gieger = pilots.token("strahl", 10)
    assert (gieger.attack, gieger.defence, gieger.dogfight, gieger.rank_points) == (1, 2, 0, 3)
    assert pilots.pilot_points(gieger) == 6
    assert pilots.victory_points((-1, 0, 2), 1) == 2  # -1 for each negative point


def test_18_2_5_rank_points_are_the_printed_table():
    ranks = pilots.book().ranks
    assert ranks["Corporal"] == 1 and ranks["2nd Lieutenant"] == 2 and ranks["1st Lieutenant"] == 3
    assert ranks["Captain"] == 4 and ranks["Major"] == 5 and ranks["Lieutenant Colonel"] == 6
    assert pilots.token("strahl", 16).rank_points == 6  # Kraus Brinkman, Lieutenant Colonel
    assert len(pilots.book().pilots) == 32


# -- the crew notation and command (scenario notes b, 16.1) ------------------------------------


def test_notes_b_crew_codes():
    c = pilots.parse_crew("(Ld 1①) (Ld 2⑤) ⑪")
    assert (c.primary, c.secondary, c.others, c.controller) == (1, 5, [11], None)
    c = pilots.parse_crew("Ld③")
    assert (c.primary, c.secondary, c.others) == (3, None, [])
    c = pilots.parse_crew("PC④")
    assert (c.primary, c.controller) == (None, 4)
    c = pilots.parse_crew("PC = Ld 2⑤")
    assert (c.secondary, c.controller, c.others) == (5, 5, [])


def test_notes_b_pilots_seated_by_the_scenario_and_recorded():
    s = SYS.setup("air", None, SeededDice(b"s")).state
    assert s.unit("M-AFS1").pilot == 4 and s.unit("M-AFS2").pilot == 7
    assert s.crew.pilots["strahl-10"].unit == "S-PKA2"
    assert s.crew.command["strahl"] == Command(primary=5, secondary=None)
    assert s.unit("S-PK411-PKA").status == "aboard" and s.unit("S-PK411").rider == "S-PK411-PKA"
    assert any("Heinrich Gieger" in line for line in SYS.status(s))


def test_notes_b_secondary_takes_command_then_units_are_left_without():
    s = game([("M-A", "AFS", "merc", "5:1010"), ("M-B", "AFS", "merc", "5:1012")])
    pilots.crew_line(s, "merc", ["M-A", "M-B"], "(Ld 1①) (Ld 2⑤)")
    assert pilots.commander(s, "merc").id == "M-A"
    s.unit("M-A").status = "destroyed"
    assert pilots.commander(s, "merc").id == "M-B" and not pilots.without_command(s, "merc")
    s.unit("M-B").status = "destroyed"
    assert pilots.commander(s, "merc") is None and pilots.without_command(s, "merc")
    assert any("without a command unit" in line for line in SYS.status(s))


def test_16_1_1_a_pc_unit_spots_without_a_command_unit():
    s = game([("M-Doll", "DollHouse", "merc", "5:1028"), ("M-Nut", "NutRocker", "merc", "5:1018"),
              ("S-PKA1", "PKA", "strahl", "5:1016")])
    order = A.Indirect(unit="M-Doll", at="5:1016", spotter="M-Nut")
    with pytest.raises(RuleError, match="unmanned"):
        SYS.apply(s, "merc", order, ScriptedDice([6, 6]))
    pilots.crew_line(s, "merc", ["M-Nut"], "PC④")
    assert pilots.manned(s, s.unit("M-Nut"))
    SYS.apply(s, "merc", order, ScriptedDice([6, 6]))


def test_notes_b_a_commanders_unit_commands_unmanned_spotters():
    s = game([("M-Doll", "DollHouse", "merc", "5:1028"), ("M-Nut", "NutRocker", "merc", "5:1018"),
              ("M-AFS1", "AFS", "merc", "5:1029"), ("S-PKA1", "PKA", "strahl", "5:1016")])
    pilots.crew_line(s, "merc", ["M-AFS1"], "Ld③")
    SYS.apply(s, "merc", A.Indirect(unit="M-Doll", at="5:1016", spotter="M-Nut"), ScriptedDice([6, 6]))


# -- 18.2 escaping (optional) ------------------------------------------------------------------


def escape_game() -> MakState:
    s = game([("M-AFS1", "AFS", "merc", "5:1012"), ("S-PKA1", "PKA", "strahl", "5:1014")])
    seat(s, "S-PKA1", "strahl", 10)
    s.crew.escape = True
    return s


def test_18_2_1_destroyed_the_pilot_dies_on_four_or_more():
    s = escape_game()
    # 8 - 2 + 1 - 2 (Gieger) = 5: 1+2 hits; endurance 1+1 = 2: D; escape roll 2+2 = 4: killed
    step = SYS.apply(s, "merc", A.Fire(unit="M-AFS1", target="S-PKA1"), ScriptedDice([1, 2, 1, 1, 2, 2]))
    st = step.state
    assert st.crew.pilots["strahl-10"].status == "killed" and st.unit("S-PKA1").status == "destroyed"
    assert SYS.score(st)["merc"] == 2 + 6  # the PKA (stand-in 2) and Gieger (6)
    # the escape roll is said after the hit and its result, in the attack's own line
    assert "D → destroyed; pilot Heinrich Gieger: 🎲 4 ≥ 4: killed (18.2.1)" in step.events[0].text


def test_18_2_1_an_aircraft_hit_by_flak_its_pilot_rolls_after_the_hit_is_said():
    s = game([("S-PKA1", "PKA", "strahl", "5:0506")], active="merc")
    s.units.append(UnitState(id="M-Falke1", type="Falke", side="merc", deploy="1⑤S", status="aloft"))
    s.air.duty["M-Falke1"] = "ground"
    seat(s, "M-Falke1", "merc", 10)
    s.crew.escape = True
    st = SYS.apply(s, "merc", AA.Airstrike(units="M-Falke1", hex="5:0506"), ScriptedDice([])).state
    # PF 10 - Falke 3 = 7: 1+1 hits (the same dice read for endurance C: D); escape 1+2 = 3 < 4
    step = SYS.apply(st, "strahl", AA.Flak(unit="S-PKA1", target="M-Falke1"), ScriptedDice([1, 1, 1, 2]))
    line = next(e.text for e in step.events if e.text.startswith("S-PKA1 (PF) fires"))
    assert line.index("hit") < line.index("pilot George Conan: 🎲 3 < 4: escapes as M-Pilot10 in 5:0506")
    assert step.state.unit("M-Pilot10").hex == "5:0506" and step.state.unit("M-Falke1").status == "destroyed"


def test_18_2_1_destroyed_the_pilot_escapes_on_three_and_18_2_2_moves_one_hex():
    s = escape_game()
    step = SYS.apply(s, "merc", A.Fire(unit="M-AFS1", target="S-PKA1"), ScriptedDice([1, 2, 1, 1, 1, 2]))
    st = step.state
    p = st.crew.pilots["strahl-10"]
    assert p.status == "afoot" and p.unit == "S-Pilot10"
    token = st.unit("S-Pilot10")
    assert token.hex == "5:1014" and units()["Pilot"].defense == 0 and units()["Pilot"].points == 0
    assert st.unit("S-PKA1").status == "destroyed"
    assert SYS.score(st)["merc"] == 2  # the pilot is not lost (yet)
    st.active = "strahl"
    from rules.mak.legal import move_targets

    reach = move_targets(Table(st), token)
    assert reach and all(cost == 1.0 for cost in reach.values())


def test_18_2_1_disarmed_or_immobilised_killed_on_seven_else_the_unit_is_removed():
    s = escape_game()
    # hit 1+2; endurance B 4: A; escape roll 3+3 = 6 < 7: escapes, the unit removed
    st = SYS.apply(s, "merc", A.Fire(unit="M-AFS1", target="S-PKA1"), ScriptedDice([1, 2, 2, 2, 3, 3])).state
    assert st.unit("S-PKA1").status == "destroyed" and st.crew.pilots["strahl-10"].status == "afoot"
    s = escape_game()
    st = SYS.apply(s, "merc", A.Fire(unit="M-AFS1", target="S-PKA1"), ScriptedDice([1, 2, 2, 2, 3, 4])).state
    assert st.unit("S-PKA1").disarmed and st.crew.pilots["strahl-10"].status == "killed"


def test_18_2_2_a_pilot_on_foot_is_killed_by_any_result_and_scores():
    s = game([("M-AFS1", "AFS", "merc", "5:1012"), ("S-Pilot10", "Pilot", "strahl", "5:1014")])
    p = seat(s, "S-Pilot10", "strahl", 10)
    p.status = "afoot"
    # 8 - 0 + 1 = 9: 3+3 hits; endurance E 9: M -> the pilot is killed anyway
    step = SYS.apply(s, "merc", A.Fire(unit="M-AFS1", target="S-Pilot10"), ScriptedDice([3, 3, 4, 5]))
    assert "pilot Heinrich Gieger killed: 6 points" in step.events[0].text
    assert step.state.unit("S-Pilot10").status == "destroyed" and SYS.score(step.state)["merc"] == 6


def test_18_2_without_the_option_no_escape_roll():
    s = escape_game()
    s.crew.escape = False
    st = SYS.apply(s, "merc", A.Fire(unit="M-AFS1", target="S-PKA1"), ScriptedDice([1, 2, 1, 1])).state
    assert st.unit("S-PKA1").status == "destroyed" and st.crew.pilots["strahl-10"].status == "in"


def test_18_2_and_18_3_are_game_options():
    s = SYS.setup("air", "escape=true,creation=true", SeededDice(b"s")).state
    assert s.crew.escape and s.crew.creation
    s = SYS.setup("air", None, SeededDice(b"s")).state
    assert not s.crew.escape and not s.crew.creation


# -- 18.3 creation (optional) ------------------------------------------------------------------


def test_18_3_1_recruit_two_dice_on_the_creation_chart():
    assert pilots.recruit_values(1, 1) == (-1, -1)
    assert pilots.recruit_values(2, 2) == (-1, 0)
    assert pilots.recruit_values(4, 5) == (0, 1)
    assert pilots.recruit_values(6, 6) == (2, 2)
    assert pilots.divide(2, "even") == (1, 1) and pilots.divide(1, "even") == (1, 0)
    assert pilots.divide(2, "defence") == (0, 2) and pilots.divide(-1, "attack") == (-1, 0)
    s = game([("M-AFS1", "AFS", "merc", "5:1012")])
    with pytest.raises(RuleError, match="game option"):
        SYS.apply(s, "merc", AA.Recruit(unit="M-AFS1"), ScriptedDice([6, 6]))
    s.crew.creation = True
    assert AA.Recruit(unit="M-AFS1", favour="attack") in SYS.legal_actions(s, "merc")
    st = SYS.apply(s, "merc", AA.Recruit(unit="M-AFS1", favour="attack"), ScriptedDice([6, 5])).state
    p = pilots.pilot_of(st, st.unit("M-AFS1"))
    assert p is not None and (p.attack, p.defence, p.dogfight) == (2, 0, 1) and p.recruited
    with pytest.raises(RuleError, match="already has a pilot"):
        SYS.apply(st, "merc", AA.Recruit(unit="M-AFS1"), ScriptedDice([6, 6]))


def test_18_3_3_five_kills_raise_one_ability_die_plus_one_at_most_four():
    assert pilots.raise_amount(6, "attack") == 2  # a roll of seven counts as six
    assert pilots.raise_amount(1, "attack") == 0  # 2: -1, treated as 0
    assert pilots.raise_amount(4, "dogfight") == 1
    assert pilots.raised(3, 2) == 4
    s = game([("M-AFS1", "AFS", "merc", "5:1012")])
    s.crew.creation = True
    p = seat(s, "M-AFS1", "merc", 4)  # attack +1 (stand-in)
    with pytest.raises(RuleError, match="every 5"):
        SYS.apply(s, "merc", AA.Train(unit="M-AFS1", ability="attack"), ScriptedDice([6]))
    p.kills = 5
    st = SYS.apply(s, "merc", AA.Train(unit="M-AFS1", ability="attack"), ScriptedDice([6])).state
    assert st.crew.pilots["merc-4"].attack == 3 and st.crew.pilots["merc-4"].raises == 1
    with pytest.raises(RuleError, match="every 5"):
        SYS.apply(st, "merc", AA.Train(unit="M-AFS1", ability="attack"), ScriptedDice([6]))


def test_18_3_3_kills_of_non_infantry_units_are_counted():
    s = game([("M-AFS1", "AFS", "merc", "5:1012"), ("S-PKA1", "PKA", "strahl", "5:1014"),
              ("S-Inf", "InfSQ", "strahl", "5:1013")])
    seat(s, "M-AFS1", "merc", 3)  # Gairy Noodson, dog-fight -1, no attack modifier
    st = SYS.apply(s, "merc", A.Fire(unit="M-AFS1", target="S-PKA1"), ScriptedDice([1, 2, 1, 1])).state
    assert st.crew.pilots["merc-3"].kills == 1


def test_18_3_3_kills_by_indirect_fire_count_too():
    s = game([("M-Doll", "DollHouse", "merc", "5:1028"), ("M-AFS1", "AFS", "merc", "5:1018"),
              ("S-PKA1", "PKA", "strahl", "5:1016")])
    seat(s, "M-Doll", "merc", 3)
    st = SYS.apply(s, "merc", A.Indirect(unit="M-Doll", at="5:1016", spotter="M-AFS1"),
                   ScriptedDice([1, 2, 1, 1])).state
    assert st.unit("S-PKA1").status == "destroyed" and st.crew.pilots["merc-3"].kills == 1


def test_18_2_3_a_pilot_leaving_through_its_sides_entry_area_escapes_elsewhere_is_captured():
    s = game([("S-Pilot10", "Pilot", "strahl", "5:0101"), ("S-Pilot2", "Pilot", "strahl", "5:2030"),
              ("S-PKA9", "PKA", "strahl", "5:1010")], active="strahl")
    s.unit("S-PKA9").deploy = "1⑤N"  # the Strahl entered by the north edge of board 5
    seat(s, "S-Pilot10", "strahl", 10).status = "afoot"
    seat(s, "S-Pilot2", "strahl", 2).status = "afoot"
    assert AA.Escape(unit="S-Pilot10") in SYS.legal_actions(s, "strahl")
    st = SYS.apply(s, "strahl", AA.Escape(unit="S-Pilot10"), ScriptedDice([])).state
    assert st.crew.pilots["strahl-10"].status == "escaped" and not st.unit("S-Pilot10").on_map
    st = SYS.apply(st, "strahl", AA.Escape(unit="S-Pilot2"), ScriptedDice([])).state
    assert st.crew.pilots["strahl-2"].status == "captured"
    assert SYS.score(st)["merc"] == pilots.pilot_points(st.crew.pilots["strahl-2"])
    with pytest.raises(RuleError, match="not a pilot on foot"):
        SYS.apply(st, "strahl", AA.Escape(unit="S-PKA9"), ScriptedDice([]))
    s.unit("S-Pilot10").hex = "5:1011"
    with pytest.raises(RuleError, match="edge"):
        SYS.apply(s, "strahl", AA.Escape(unit="S-Pilot10"), ScriptedDice([]))


def test_18_2_1_the_pilot_of_a_hornisse_shot_down_rolls_to_escape_too():
    # the pilot sits in the PKA the PK41 carries (10.6): the Hornisse destroyed by flak, the
    # pilot rolls like any other (18.2.1); 1+2 = 3 < 4: on foot in the hex attacked
    s = game([("M-AFS1", "AFS", "merc", "5:0506")], active="strahl")
    s.units += [UnitState(id="S-H", type="PK41", side="strahl", deploy="1⑤N", status="aloft", rider="S-H-PKA"),
                UnitState(id="S-H-PKA", type="PKA", side="strahl", deploy="1⑤N", status="aboard")]
    s.air.duty["S-H"] = "ground"
    seat(s, "S-H-PKA", "strahl", 10)
    s.crew.escape = True
    st = SYS.apply(s, "strahl", AA.Airstrike(units="S-H", hex="5:0506"), ScriptedDice([])).state
    step = SYS.apply(st, "merc", AA.Flak(unit="M-AFS1", target="S-H"), ScriptedDice([1, 1, 1, 2]))
    st = step.state
    assert st.crew.pilots["strahl-10"].status == "afoot" and st.unit("S-Pilot10").hex == "5:0506"
    assert st.unit("S-H").status == "destroyed" and st.unit("S-H-PKA").status == "destroyed"


def test_18_1_3_the_dog_fight_says_which_pilot_modifies_which_rating():
    # 18.1.3: "When the pilot's abilities are used, show which pilot is involved"
    s = game([], active="merc")
    s.phase = "air"
    s.units += [UnitState(id="M-F", type="Falke", side="merc", deploy="1⑤S", status="aloft"),
                UnitState(id="S-P", type="PK40", side="strahl", deploy="1⑤N", status="aloft")]
    s.air.duty.update({"M-F": "air", "S-P": "air"})
    seat(s, "M-F", "merc", 10, dogfight=2)
    st = SYS.apply(s, "merc", AA.Commit(), ScriptedDice([])).state
    step = SYS.apply(st, "strahl", AA.Commit(), ScriptedDice([5]))
    said = [e.text for e in step.events]
    assert "Dog-fight ratings: Mercenary M-F 4 +2 Conan = 6; Strahl S-P 2 = 2 (10.2.1, 18.1.1)" in said
