"""19.0 special rules by number: land mines (19.1), smoke screens (19.2), night (19.3), fire
(19.4), special units (19.5), with scripted dice; and their markers on the snapshot."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from rules.core.dice import ScriptedDice, SeededDice
from rules.core.errors import RuleError
from rules.mak import SYSTEM as SYS
from rules.mak import actions as A
from rules.mak import special_actions as S
from rules.mak.hazards import MINE_CAP, lay_by_artillery
from rules.mak.state import Minefield
from rules.mak.table import Table
from tests.seeds import seed_split
from tests.mak.test_system import game

# -- 19.1 land mines -------------------------------------------------------------------------


def test_19_1_1_a_scenario_minefield_is_5_to_13_and_secret_until_found():
    from pydantic import ValidationError

    from rules.mak.data import MineSpec

    with pytest.raises(ValidationError):
        MineSpec(owner="strahl", attack=14)
    step = SYS.setup("pioneers", None, SeededDice(b"m"))
    view = SYS.view(step.state)
    assert not any(m.kind == "mine" for m in view.markers)  # none revealed: none drawn


def test_19_1_6_artillery_mines_add_up_to_20_and_19_1_7_spare_the_units_there():
    s = game([("M-AFS1", "AFS", "merc", "5:1013")])
    lay_by_artillery(s, "5:1013", "strahl", 8)
    lay_by_artillery(s, "5:1013", "strahl", 8)
    field = lay_by_artillery(s, "5:1013", "strahl", 8)
    assert field.attack == MINE_CAP and field.spared == ["M-AFS1"]
    # "not attacked as long as it does not move": moving out, it is attacked as it leaves
    step = SYS.apply(s, "merc", A.Move(unit="M-AFS1", to="5:1014"), ScriptedDice([6, 6, 4, 4, 6, 6]))
    assert [e.text for e in step.events if e.kind == "mine"][0].count("as it leaves") == 1
    assert step.state.mines["5:1013"].spared == []


def test_19_5_2_the_krote_pioneer_finds_mines_like_an_engineer():
    s = game([("S-Krote1", "Krote", "strahl", "5:1012"), ("M-AFS1", "AFS", "merc", "5:0101")], active="strahl")
    s.mines["5:1013"] = Minefield(owner="merc", attack=7)
    step = SYS.apply(s, "strahl", A.Move(unit="S-Krote1", to="5:1013"), ScriptedDice([1]))
    assert step.state.unit("S-Krote1").hex == "5:1012" and step.state.mines["5:1013"].revealed


# -- 19.2 smoke ------------------------------------------------------------------------------


def smoky():
    return game([("M-EngSQ1", "EngSQ", "merc", "5:1012"), ("M-AFS1", "AFS", "merc", "5:1011"),
                 ("M-InfSQ1", "InfSQ", "merc", "5:1014"), ("S-PKA1", "PKA", "strahl", "5:1015"),
                 ("S-PKA2", "PKA", "strahl", "5:1013")])


def test_19_2_smoke_laid_in_range_blocks_sight_and_19_2_6_modifies_fire_into_it():
    s = smoky()
    offers = {a.at for a in SYS.legal_actions(s, "merc") if a.name == "lay" and a.what == "smoke" and a.unit == "M-EngSQ1"}
    assert "5:1013" in offers and "5:1015" not in offers  # the squad's range is 1 (stand-in)
    step = SYS.apply(s, "merc", S.Lay(unit="M-EngSQ1", what="smoke", at="5:1013"), ScriptedDice([]))
    s2 = step.state
    assert s2.smoke == {"5:1013": 2}
    t = Table(s2)
    # 19.2.5: the AFS in 5:1011 cannot see the PKA in 5:1015 through the smoke in 5:1013 ...
    assert not t.sees(s2.unit("M-AFS1"), s2.unit("S-PKA1"))
    # ... but may fire at the PKA standing in the smoke: laser -1; the squad's MG -4 (19.2.6)
    laser = t.target_of(s2.unit("M-AFS1"), t.stats(s2.unit("M-AFS1")).weapons[0], s2.unit("S-PKA2"))
    mg = t.target_of(s2.unit("M-InfSQ1"), t.stats(s2.unit("M-InfSQ1")).weapons[0], s2.unit("S-PKA2"))
    assert ("smoke", -1) in laser.modifiers and ("smoke", -4) in mg.modifiers
    # 19.2.1: the unit that laid the smoke may still move and attack
    assert any(a.name == "move" and a.unit == "M-EngSQ1" for a in SYS.legal_actions(s2, "merc"))


def test_19_2_3_smoke_shows_2_then_1_then_goes_at_the_owners_phases():
    step = SYS.apply(smoky(), "merc", S.Lay(unit="M-EngSQ1", what="smoke", at="5:1013"), ScriptedDice([]))
    step = SYS.apply(step.state, "merc", A.End(), ScriptedDice([]))  # Strahl phase: still 2
    assert step.state.smoke == {"5:1013": 2}
    step = SYS.apply(step.state, "strahl", A.End(), ScriptedDice([]))  # turn 2, Merc phase: 1
    assert step.state.smoke == {"5:1013": 1}
    step = SYS.apply(step.state, "merc", A.End(), ScriptedDice([]))
    step = SYS.apply(step.state, "strahl", A.End(), ScriptedDice([]))  # turn 3, Merc phase: gone
    assert step.state.smoke == {} and any("19.2.3" in e.text for e in step.events)


def test_19_2_2_uses_and_per_turn_and_19_2_4_the_doll_house_smokes_its_own_hex_forever():
    s = game([("M-EngSQ1", "EngSQ", "merc", "5:1012"), ("M-Doll1", "DollHouse", "merc", "5:1020")])
    step = SYS.apply(s, "merc", S.Lay(unit="M-EngSQ1", what="smoke", at="5:1012"), ScriptedDice([]))
    with pytest.raises(RuleError, match="19.2.2"):  # one screen a turn (stand-in chart)
        SYS.apply(step.state, "merc", S.Lay(unit="M-EngSQ1", what="smoke", at="5:1013"), ScriptedDice([]))
    doll = {a.at for a in SYS.legal_actions(s, "merc") if a.name == "lay" and a.what == "smoke" and a.unit == "M-Doll1"}
    assert doll == {"5:1020"}
    s.unit("M-Doll1").smoke_laid = {1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 1, 8: 1, 9: 1, 10: 1, 11: 1, 12: 1, 13: 1}
    s.turn = 14
    assert S.Lay(unit="M-Doll1", what="smoke", at="5:1020") in SYS.legal_actions(s, "merc")  # unlimited uses


# -- 19.3 night ------------------------------------------------------------------------------


def test_19_3_night_is_a_game_option_and_only_manned_units_take_the_penalty():
    step = SYS.setup("patrol", "night=true", SeededDice(b"n"))
    assert step.state.night and "19.3" in step.events[0].text
    assert not SYS.setup("pioneers", "night=false", SeededDice(b"n")).state.night
    s = game([("M-AFS1", "AFS", "merc", "5:1012"), ("M-Nut1", "NutRocker", "merc", "5:1011"),
              ("S-PKA1", "PKA", "strahl", "5:1014")])
    s.night = True
    t = Table(s)
    afs = t.target_of(s.unit("M-AFS1"), t.stats(s.unit("M-AFS1")).weapons[0], s.unit("S-PKA1"))
    nut = t.target_of(s.unit("M-Nut1"), t.stats(s.unit("M-Nut1")).weapons[0], s.unit("S-PKA1"))
    assert ("night", -2) in afs.modifiers and not any(k == "night" for k, _ in nut.modifiers)


# -- 19.4 fire -------------------------------------------------------------------------------


def test_19_4_1_a_rocket_d_in_a_building_hex_lights_a_fire_on_4_or_less():
    s = game([("M-Gob1", "Goblin", "merc", "5:1717"), ("S-PKA1", "PKA", "strahl", "5:1417")])
    step = SYS.apply(s, "merc", A.Fire(unit="M-Gob1", target="S-PKA1", weapon="R"), ScriptedDice([1, 1, 1, 3]))
    assert step.state.unit("S-PKA1").status == "destroyed" and step.state.fire == ["5:1417"]
    assert any("19.4.1" in e.text for e in step.events)
    # 19.4.3: no line of sight through the fire, nor out of it
    t = Table(step.state)
    assert not t.sees(step.state.unit("M-Gob1"), step.state.unit("M-Gob1").model_copy(update={"hex": "5:1117"}))


def test_19_4_1_a_laser_d_lights_nothing_and_5_on_the_dice_is_no_fire():
    s = game([("M-Gob1", "Goblin", "merc", "5:1717"), ("S-PKA1", "PKA", "strahl", "5:1417"),
              ("S-PKA2", "PKA", "strahl", "5:1417")])
    step = SYS.apply(s, "merc", A.Fire(unit="M-Gob1", target="S-PKA1", weapon="L"), ScriptedDice([1, 1]))
    assert step.state.fire == [] and not any("19.4.1" in e.text for e in step.events)
    s.unit("M-Gob1").weapons_out = ["L"]
    step = SYS.apply(s, "merc", A.Fire(unit="M-Gob1", target="S-PKA1", weapon="R"), ScriptedDice([1, 1, 2, 3]))
    assert step.state.fire == [] and any("> 4: no fire" in e.text for e in step.events)


def test_19_4_2_infantry_in_a_fire_hex_are_attacked_in_the_enemy_phase_and_19_4_4_it_burns_on():
    s = game([("S-InfSQ1", "InfSQ", "strahl", "5:1417"), ("S-PKA1", "PKA", "strahl", "5:1417"),
              ("M-AFS1", "AFS", "merc", "5:0101")], active="strahl")
    s.phase, s.fire = "second", ["5:1417"]
    # the Merc phase begins: 3+3 = power 6 - defence 0 = 6; 1+2 hits; endurance D 12: no effect
    step = SYS.apply(s, "strahl", A.End(), ScriptedDice([3, 3, 1, 2, 6, 6]))
    burns = [e.text for e in step.events if "19.4.2" in e.text]
    assert len(burns) == 1 and "S-InfSQ1" in burns[0] and "6 − 0 = 6" in burns[0]  # the PKA is immune
    assert step.state.fire == ["5:1417"]


# -- 19.5 special units ----------------------------------------------------------------------


def test_19_5_1_eddy_moves_one_hex_and_does_nothing_else():
    s = game([("M-Eddy1", "Eddy", "merc", "5:1012"), ("S-PKA1", "PKA", "strahl", "5:1013"),
              ("M-Doll1", "DollHouse", "merc", "5:1025")])
    eddy = [a for a in SYS.legal_actions(s, "merc") if getattr(a, "unit", "") == "M-Eddy1"
            or getattr(a, "spotter", "") == "M-Eddy1"]
    assert eddy and all(a.name == "move" for a in eddy)
    t = Table(s)
    assert all(t.field.parse(a.to) in __import__("rules.core.hexes", fromlist=["neighbours"]).neighbours(t.hex_of("5:1012"))
               for a in eddy)


def safs(at: str = "5:1028"):
    return game([("M-SAFS1", "SAFS", "merc", at), ("S-PKA1", "PKA", "strahl", "5:1010")])


def test_19_5_3_the_booster_flies_12_hexes_ignoring_terrain_twice_a_scenario():
    s = safs()
    targets = {a.to for a in SYS.legal_actions(s, "merc") if a.name == "move" and a.boost}
    assert "5:1016" in targets and "5:1015" not in targets  # 12 hexes, not 13
    assert "5:1116" not in targets  # 13 hexes away
    assert "5:0922" in targets  # a building hex: terrain ignored, 1 hex per point
    step = SYS.apply(s, "merc", A.Move(unit="M-SAFS1", to="5:1020", boost=True), ScriptedDice([]))
    flown = step.state.unit("M-SAFS1")
    assert flown.hex == "5:1020" and flown.boosts == [1] and flown.mp_spent == 8
    assert not any(a.name in ("move", "assault") and a.unit == "M-SAFS1" for a in SYS.legal_actions(step.state, "merc"))
    s2 = safs()
    s2.unit("M-SAFS1").boosts = [1, 2]
    s2.turn = 3
    assert not any(a.name == "move" and a.boost for a in SYS.legal_actions(s2, "merc"))


def test_19_5_3_anti_aircraft_fire_where_it_comes_into_range_without_range_or_terrain():
    step = SYS.apply(safs("5:1024"), "merc", A.Move(unit="M-SAFS1", to="5:1013", boost=True), ScriptedDice([]))
    # the PKA's PF reaches 4 hexes: the flight stops at 5:1014, where it comes into range
    safs_ = step.state.unit("M-SAFS1")
    assert safs_.hex == "5:1014" and step.state.window.reason == "boost" and step.waiting_on == ["strahl"]
    step = SYS.apply(step.state, "strahl", A.Defend(unit="S-PKA1", target="M-SAFS1"), ScriptedDice([6, 6]))
    assert any("10 − 3 = 7" in e.text for e in step.events)  # PF 10 - SAFS 3, nothing else (10.4)
    # it flies on with the 2 hexes left of 12 (10 flown)
    boosts = {a.to for a in SYS.legal_actions(step.state, "merc") if a.name == "move" and a.boost}
    assert "5:1013" in boosts and "5:1011" not in boosts and step.state.unit("M-SAFS1").mp_spent == 10


# -- the snapshot ----------------------------------------------------------------------------


def test_mines_smoke_fire_and_amus_are_drawn_on_the_snapshot(tmp_path):
    from render import snapshot

    s = game([("M-AFS1", "AFS", "merc", "5:1012"), ("S-PKA1", "PKA", "strahl", "5:1016")])
    s.mines = {"5:1014": Minefield(owner="strahl", attack=9, revealed=True),
               "5:1015": Minefield(owner="strahl", attack=7)}
    s.smoke, s.fire, s.amus = {"5:1013": 2}, ["5:1417"], {"5:1011": 1}
    s.unit("M-AFS1").amu = True
    view = SYS.view(s)
    kinds = {(m.kind, m.text) for m in view.markers}
    assert {("mine", "9"), ("smoke", "2"), ("fire", ""), ("amu", "")} <= kinds
    assert ("mine", "7") not in kinds  # 19.1.1: the unrevealed minefield stays secret
    assert "AMU" in next(c for c in view.counters if c.id == "M-AFS1").markers
    status = "\n".join(SYS.status(s))
    assert "Minefields found: 5:1014 (9, Strahl)" in status and "5:1015" not in status
    assert "Burning: 5:1417" in status and "Smoke: 5:1013 (2)" in status and "AMUs: 5:1011" in status
    png = snapshot(view).png
    (tmp_path / "special.png").write_bytes(png)
    assert Image.open(io.BytesIO(png)).size[0] > 100


@seed_split(2, 4)
def test_random_pioneers_games_play_the_part_2_orders_to_the_end(seeds: range):
    """The conformance kit plays ``pioneers`` at random; here biased to the new orders, every
    game ends and between them they fight out close quarters, drop, burn, smoke and boost."""
    from collections import Counter

    from tests.mak.test_playouts import play

    wanted = ("engage", "enter", "lay", "amu", "assault", "strike", "fire", "defend")
    used: Counter[str] = Counter()
    for seed in seeds:
        orders, result = play(seed, "pioneers", prefer=wanted)
        used += orders
        assert result
    assert {"engage", "enter", "lay"} <= set(used)
