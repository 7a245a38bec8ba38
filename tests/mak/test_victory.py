"""Computing Operational Goal Points: O.G.P. = ① + ③ − ② (③ applied when negative too)."""

from __future__ import annotations

from rules.core.dice import SeededDice
from rules.mak import SYSTEM as SYS
from rules.mak.artillery import chart
from rules.mak.data import scenario, units
from rules.mak.victory import OGP, ogp


def start():  # type: ignore[no-untyped-def]
    return SYS.setup("assault", None, SeededDice(b"v")).state


def test_the_formula_is_1_plus_3_minus_2():
    assert OGP(enemy=5, artillery=2, scenario=4).total == 7
    assert OGP(enemy=5, artillery=2, scenario=-3).total == 0  # ※ ③ applied when negative
    assert OGP(enemy=5, artillery=2, scenario=4).text() == "7 (① 5 + ③ 4 − ② 2)"


def test_item_1_enemy_units_destroyed_immobilised_or_disarmed():
    s = start()
    pka1, pka2, neu = s.unit("S-PKA1"), s.unit("S-PKA2"), s.unit("S-NeuSpotter1")
    pka1.status = "destroyed"
    pka2.immobilized = True
    neu.disarmed = True
    expected = units()["PKA"].vp * 2 + units()["NeuSpotter"].vp
    assert ogp(s)["merc"].enemy == expected and ogp(s)["strahl"].enemy == 0


def test_item_2_friendly_artillery_used_costs_its_victory_points():
    s = start()
    merc = next(b for b in s.batteries if b.side == "merc")
    merc.fired = 3
    assert ogp(s)["merc"].artillery == 3 * chart().types[merc.type].vp
    assert ogp(s)["merc"].total == -3 * chart().types[merc.type].vp


def test_item_3_scenario_points_hold_and_a_lost_depot_counts_negative():
    s = start()
    spec = scenario("assault")
    assert {(p.kind, p.side, p.points) for p in spec.points} == {
        ("hold", "merc", 3), ("hold", "strahl", 2), ("depot", "strahl", -2)}
    assert ogp(s)["merc"].scenario == 0
    afs = s.unit("M-AFS1")
    afs.status, afs.hex = "on", "5:0912"  # in the Strahl Depot hex, no enemy there
    assert ogp(s)["merc"].scenario == 3
    del s.depots["5:0912"]  # raze (11.3.3)
    assert ogp(s)["strahl"].scenario == -2 and ogp(s)["strahl"].total == -2
    s.units.append(s.unit("S-PKA1").model_copy(update={"id": "S-PKA9", "hex": "5:0912"}))
    assert ogp(s)["merc"].scenario == 0  # an enemy in the hex: not held


def test_the_result_names_the_higher_ogp_and_the_status_shows_the_items():
    s = start()
    s.unit("S-PKA1").status = "destroyed"
    s.over = True
    assert SYS.result(s) == f"Mercenary win, {units()['PKA'].vp} to 0 O.G.P."
    assert any("① 2 + ③ 0 − ② 0" in line for line in SYS.status(s))


def test_item_1_counts_enemy_pilots_killed():
    from rules.mak.pilots import pilot_points

    s = start()
    pilot = next(p for p in s.crew.pilots.values() if p.side == "strahl")
    pilot.status = "killed"  # 18.2.2: "The opposing player receives ... victory points"
    assert ogp(s)["merc"].enemy == pilot_points(pilot) > 0
