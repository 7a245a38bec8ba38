"""5.0 Attacking: the Attack Target, both dice methods, the endurance chart; the book's examples."""

from __future__ import annotations

from rules.core.dice import ScriptedDice
from rules.core.hexes import DIRECTIONS, Hex
from rules.mak.battlefield import Battlefield, battlefield
from rules.mak.combat import AttackTarget, attack_target, blast_area, defensive_trigger, roll_damage, roll_hit
from rules.mak.data import Weapon, charts, units
from rules.core.hexes import MapLayout, neighbour, side


def open_field() -> Battlefield:
    return Battlefield(layout=MapLayout.side_by_side([1]))


def test_figure_3_basic_attack_target_is_5():
    # Figure 3: AFS laser 8 vs PKA defence 2, range 2 hexes +1, laser through forest -2 = 5.
    field = open_field()
    src = field.parse("1:0505")
    dst = field.parse("1:0705")
    field.terrain[dst] = "forest"
    target = attack_target(field, attack=units()["AFS"].weapons[0].attack, weapon=Weapon.LASER,
                           source=src, target_hex=dst, target=units()["PKA"])
    assert target.attack == 8 and target.defense == 2
    assert dict(target.modifiers) == {"range 2": 1, "forest": -2}
    assert target.value == 5


def test_figure_3_dice_by_sum_and_by_product():
    # 5.1.1 3 and its special note: by sum 2+3 hits, 1+5 misses; by product 2x3 misses, 1x5 hits.
    results = {}
    for method in ("sum", "product"):
        for dice in ((2, 3), (1, 5)):
            results[(method, dice)] = roll_hit(ScriptedDice(dice), 5, method, "test").hit
    assert results == {("sum", (2, 3)): True, ("sum", (1, 5)): False,
                       ("product", (2, 3)): False, ("product", (1, 5)): True}


def test_armour_endurance_example_pka_rolls_3_destroyed():
    # 5.1.2 example: a PKA (endurance B) hit, rolls 3: destroyed.
    assert units()["PKA"].endurance == "B"
    hit = roll_hit(ScriptedDice([2, 2]), 5, "sum", "hit")
    damage = roll_damage(ScriptedDice([1, 2]), "B", hit, "endurance")
    assert damage.roll == 3 and damage.result == "D"


def test_a_hit_rolled_1_and_1_is_always_destroyed():
    # 5.1.2: "If the attack roll result is a 1 (a one on each die), the result is a D".
    hit = roll_hit(ScriptedDice([1, 1]), 3, "sum", "hit")
    dice = ScriptedDice([])  # no endurance roll is made
    assert hit.hit and roll_damage(dice, "A", hit, "endurance").result == "D"
    assert dice.rolls == []


def test_5_1_2_a_roll_of_1_and_1_is_destroyed_on_a_target_of_0_or_1():
    # 5.1.2: 1+1 is "D" without the chart; 5.1.1 3: only a target "below zero" is ineffective.
    for method in ("sum", "product"):
        for target in (0, 1):
            hit = roll_hit(ScriptedDice([1, 1]), target, method, "hit")
            assert hit.hit and "hit" in hit.text()
            assert roll_damage(ScriptedDice([]), "A", hit, "endurance").result == "D"
    assert not roll_hit(ScriptedDice([1, 2]), 1, "sum", "hit").hit


def test_target_below_zero_never_hits_but_is_rolled():
    # 5.1.1 3: below zero the attack is ineffective (the roll still checks the weapon).
    assert not roll_hit(ScriptedDice([1, 1]), -1, "sum", "hit").hit
    assert not roll_hit(ScriptedDice([1, 1]), -1, "product", "hit").hit


def test_laser_into_forest_beyond_a_ridgeline_is_minus_4():
    # 5.1.3 1: "(-2) + (-2) = -4".
    field = open_field()
    src, dst = field.parse("1:0505"), field.parse("1:0507")
    mid = field.parse("1:0506")
    field.terrain[dst] = "forest"
    field.hexsides[side(mid, dst)] = "ridge"
    target = attack_target(field, attack=8, weapon=Weapon.LASER, source=src, target_hex=dst,
                           target=units()["PKA"], use_range=False)
    assert dict(target.modifiers) == {"forest": -2, "ridge": -2}
    assert sum(v for _, v in target.modifiers) == -4


def test_indirect_rocket_example_target_5():
    # 5.1.3 example: rocket, 9 hexes, target in forest: 9 - 1 (forest) - 3 (indirect) = 5.
    field = open_field()
    src, dst = field.parse("1:0501"), field.parse("1:0510")
    field.terrain[dst] = "forest"
    doll = units()["DollHouse"].weapons[0]
    target = attack_target(field, attack=doll.attack, weapon=Weapon.ROCKET, source=src,
                           target_hex=dst, target=units()["PKA"], indirect=True)
    assert doll.attack - units()["PKA"].defense == 9
    assert dict(target.modifiers) == {"forest": -1, "range 9": 0, "indirect": -3}
    assert target.value == 5


def test_immobilized_target_plus_2_and_terrain_of_the_target_only():
    # 5.1.3 4: +2 against an immobilised target; 5.1.3 1: the attacker's terrain does not count.
    field = open_field()
    src, dst = field.parse("1:0505"), field.parse("1:0508")
    field.terrain[src] = "forest"
    target = attack_target(field, attack=8, weapon=Weapon.LASER, source=src, target_hex=dst,
                           target=units()["PKA"], immobilized=True)
    assert dict(target.modifiers) == {"range 3": 0, "immobilized": 2}


def test_partial_building_helps_type_i_only():
    # 5.1.3 1 / 7.1.7: a Type II unit in a partial building hex gets no building modifier.
    field = open_field()
    src, dst = field.parse("1:0505"), field.parse("1:0508")
    field.terrain[dst] = "building"
    field.partial.add(dst)
    type1 = attack_target(field, attack=8, weapon=Weapon.LASER, source=src, target_hex=dst, target=units()["PKA"])
    type2 = attack_target(field, attack=8, weapon=Weapon.LASER, source=src, target_hex=dst, target=units()["InfSQ"])
    assert ("building", -3) in type1.modifiers and all(label != "building" for label, _ in type2.modifiers)


def test_indirect_blast_and_defensive_trigger():
    # 5.5.2: the target hex and the six around it; 5.4 1: an attack from within 3 hexes.
    centre = Hex(3, 3)
    area = blast_area(centre)
    assert len(area) == 7 and centre in area and neighbour(centre, 0) in area
    assert defensive_trigger(Hex(0, 0), Hex(3, 0)) and not defensive_trigger(Hex(0, 0), Hex(4, 0))
    # 5.5.3: +1 to the endurance roll outside the target hex
    assert roll_damage(ScriptedDice([1, 2]), "B", None, "e", modifier=1).result == "A"


def test_endurance_chart_is_monotone():
    for letter in "ABCDE":
        seen = [charts().endurance_result(letter, roll) for roll in range(2, 13)]
        order = "DAM-"
        assert [order.index(r) for r in seen] == sorted(order.index(r) for r in seen)
    assert len(DIRECTIONS) == 6 and battlefield((5, 6)).contains(battlefield((5, 6)).parse("6:2030"))


def test_5_1_3_attack_target_lines_use_one_minus_sign():
    # 5.1.3: the modifiers add up; every minus in the line is the same sign (U+2212).
    at = AttackTarget(attack=9, defense=2, modifiers=[("building", -3), ("position", -1), ("Gieger defence", -2)])
    assert at.text() == "9 − 2 −3 building −1 position −2 Gieger defence = 1"
    below = AttackTarget(attack=3, defense=4, modifiers=[("range 5", 1), ("forest", -2)])
    assert below.text() == "3 − 4 +1 range 5 −2 forest = −2" and "-" not in below.text()
    assert "vs −2: miss" in roll_hit(ScriptedDice([1, 1]), below.value, "sum", "hit").text()
