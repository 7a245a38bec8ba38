"""The mak system played through its orders with scripted dice (4.0, 5.3-5.5, 7.2, 9.1-9.4, 12.1)."""

from __future__ import annotations

import json

import pytest

from rules.core.dice import ScriptedDice, SeededDice
from rules.core.errors import RuleError
from rules.core.registry import get
from rules.mak import SYSTEM
from rules.mak import actions as A
from rules.mak import special_actions as S
from rules.mak.state import MakState, UnitState

SYS = SYSTEM


def game(units: list[tuple[str, str, str, str]], method: str = "sum", active: str = "merc") -> MakState:
    """A one-board game (board 5) with ``(id, type, side, hex)`` units on the map."""
    made = [UnitState(id=i, type=t, side=s, deploy="⑤0101", hex=h, status="on") for i, t, s, h in units]
    return MakState(scenario="test", title="test", boards=[5], turns=3, first="merc", active=active,
                    method=method, units=made)


def test_registered_and_scenarios_start():
    assert get("mak") is SYS or get("mak").key == "mak"
    for key in SYS.scenarios:
        step = SYS.setup(key, None, SeededDice(b"s"))
        assert step.waiting_on == [step.state.first] or step.state.phase == "air" \
            or step.state.setup  # 10.1: both commit; 19.1: both lay their minefields
        assert step.state.units and any(u.status == "waiting" for u in step.state.units)


def test_options_pick_the_dice_method_and_refuse_nonsense():
    step = SYS.setup("patrol", "dice=product,turns=2", SeededDice(b"s"))
    assert step.state.method == "product" and step.state.turns == 2
    with pytest.raises(RuleError):
        SYS.setup("patrol", "dice=triple", SeededDice(b"s"))


def test_5_3_offensive_fire_then_5_4_defensive_window_for_the_target():
    # AFS in 5:1012 fires its laser at a PKA two hexes off in the open: 8 - 2 + 1 = 7.
    s = game([("M-AFS1", "AFS", "merc", "5:1012"), ("S-PKA1", "PKA", "strahl", "5:1014")])
    step = SYS.apply(s, "merc", A.Fire(unit="M-AFS1", target="S-PKA1"), ScriptedDice([4, 4]))
    assert "target 8 − 2 +1 range 2 = 7" in step.events[0].text and "miss" in step.events[0].text
    # the PKA survived an attack from within 3 hexes: the Strahl player is asked (5.4 1)
    assert step.waiting_on == ["strahl"] and step.state.window is not None
    legal = SYS.legal_actions(step.state, "strahl")
    assert A.Defend(unit="S-PKA1", target="M-AFS1", weapon="PF") in legal and A.Pass() in legal
    # PF 10 - AFS defence 3 + range 2 (0) = 7; 1+2 hits, endurance A rolls 2+2 = 4: A
    step2 = SYS.apply(step.state, "strahl", A.Defend(unit="S-PKA1", target="M-AFS1"), ScriptedDice([1, 2, 2, 2]))
    assert "Arm. Disabled" in step2.events[0].text
    assert step2.waiting_on == ["merc"] and step2.state.window is None
    afs = step2.state.unit("M-AFS1")
    pka = step2.state.unit("S-PKA1")
    assert afs.disarmed and pka.fired == {"PF": 1}  # 11.2.5: the "1" count token


def test_5_3_1_one_offensive_attack_and_7_2_1_no_move_after():
    s = game([("M-AFS1", "AFS", "merc", "5:1012"), ("S-PKA1", "PKA", "strahl", "5:1016")])
    step = SYS.apply(s, "merc", A.Fire(unit="M-AFS1", target="S-PKA1"), ScriptedDice([6, 6]))
    s2 = step.state
    assert s2.window is None  # 4 hexes: no defensive attack (5.4 1)
    assert s2.unit("M-AFS1").disarmed  # 11.2.1: 6+6 drains the laser
    with pytest.raises(RuleError, match="moved or attacked"):
        SYS.apply(s2, "merc", A.Fire(unit="M-AFS1", target="S-PKA1"), ScriptedDice([1, 1]))
    with pytest.raises(RuleError, match="7.2.1"):
        SYS.apply(s2, "merc", A.Move(unit="M-AFS1", to="5:1013"), ScriptedDice([]))


def test_5_1_1_product_method_in_play():
    s = game([("M-AFS1", "AFS", "merc", "5:1012"), ("S-PKA1", "PKA", "strahl", "5:1016")], method="product")
    step = SYS.apply(s, "merc", A.Fire(unit="M-AFS1", target="S-PKA1"), ScriptedDice([2, 3, 6, 6]))
    # target 8 - 2 + 0 (range 4) = 6; 2×3 = 6 hits; endurance B 12: no effect
    assert "2×3 = 6 vs 6: hit" in step.events[0].text and "no effect" in step.events[0].text


def test_7_2_4_moving_next_to_an_enemy_stops_for_defensive_fire():
    s = game([("M-AFS1", "AFS", "merc", "5:1020"), ("S-PKA1", "PKA", "strahl", "5:1016")])
    step = SYS.apply(s, "merc", A.Move(unit="M-AFS1", to="5:1017"), ScriptedDice([]))
    assert step.state.unit("M-AFS1").hex == "5:1017"  # the path ends adjacent: stops there
    assert step.waiting_on == ["strahl"] and step.state.window.reason == "move"
    step2 = SYS.apply(step.state, "strahl", A.Pass(), ScriptedDice([]))
    assert step2.waiting_on == ["merc"]


def test_7_2_4_interrupted_move_continues():
    # Figure 5: each hex entered next to the enemy is a new chance for defensive fire.
    s = game([("M-AFS1", "AFS", "merc", "5:1020"), ("S-PKA1", "PKA", "strahl", "5:0918")])
    step = SYS.apply(s, "merc", A.Move(unit="M-AFS1", to="5:1016"), ScriptedDice([]))
    assert step.state.window is not None and step.state.unit("M-AFS1").hex == "5:1018"
    step2 = SYS.apply(step.state, "strahl", A.Pass(), ScriptedDice([]))
    step3 = SYS.apply(step2.state, "merc", A.Move(unit="M-AFS1", to="5:1016"), ScriptedDice([]))
    assert step3.state.unit("M-AFS1").hex == "5:1017" and step3.state.window is not None
    step4 = SYS.apply(step3.state, "strahl", A.Pass(), ScriptedDice([]))
    step5 = SYS.apply(step4.state, "merc", A.Move(unit="M-AFS1", to="5:1016"), ScriptedDice([]))
    assert step5.state.unit("M-AFS1").hex == "5:1016" and step5.state.unit("M-AFS1").mp_spent == 4


def test_9_1_assault_defensive_fire_adjacent_then_enter_then_strike():
    s = game([("M-AFS1", "AFS", "merc", "5:1018"), ("S-PKA1", "PKA", "strahl", "5:1017")])
    assert A.Assault(unit="M-AFS1", hex="5:1017") in SYS.legal_actions(s, "merc")
    step = SYS.apply(s, "merc", A.Assault(unit="M-AFS1", hex="5:1017"), ScriptedDice([]))
    assert step.state.window.reason == "assault_adjacent" and step.waiting_on == ["strahl"]
    step = SYS.apply(step.state, "strahl", A.Pass(), ScriptedDice([]))
    # the AFS enters; the PKA passed in case 1 so may still fire in case 2 (same hex)
    assert step.state.unit("M-AFS1").hex == "5:1017"
    assert step.state.window.reason == "assault_same"
    step = SYS.apply(step.state, "strahl", A.Pass(), ScriptedDice([]))
    assert SYS.phase_of(step.state) == "strike"
    legal = SYS.legal_actions(step.state, "merc")
    assert A.Strike(target="S-PKA1", unarmed=True) in legal  # 9.5: Type I may fight unarmed
    step = SYS.apply(step.state, "merc", A.Strike(target="S-PKA1", unarmed=True), ScriptedDice([]))
    # 9.5: unarmed combat comes after the opponent's armed attacks: the PKA answers first
    assert step.waiting_on == ["strahl"] and step.state.window.targets == ["M-AFS1"]
    step = SYS.apply(step.state, "strahl", A.Pass(), ScriptedDice([2, 2, 1, 2]))
    blow = next(e.text for e in step.events if "strikes" in e.text)
    assert "4 − 0 = 4" in blow and "destroyed" in blow
    assert step.state.assault is None and step.waiting_on == ["merc"]


def test_9_5_a_type_i_unit_with_no_weapon_for_the_target_strikes_unarmed():
    # 9.5: "All Type 1 units may perform 'unarmed' combat": a disarmed AFS in close quarters
    # named with the default (armed) strike fights unarmed rather than being refused
    s = game([("M-AFS1", "AFS", "merc", "5:1018"), ("S-PKA1", "PKA", "strahl", "5:1017")])
    s.unit("M-AFS1").disarmed = True
    step = SYS.apply(s, "merc", A.Assault(unit="M-AFS1", hex="5:1017"), ScriptedDice([]))
    step = SYS.apply(step.state, "strahl", A.Pass(), ScriptedDice([]))
    step = SYS.apply(step.state, "strahl", A.Pass(), ScriptedDice([]))
    assert SYS.phase_of(step.state) == "strike"
    step = SYS.apply(step.state, "merc", A.Strike(target="S-PKA1"), ScriptedDice([]))
    assert "unarmed" in step.events[0].text and step.waiting_on == ["strahl"]
    # 9.5: "All unarmed combat is performed after resolution of attacks from opposing units":
    # the PKA may answer first; it passes, and the blow lands at an unmodified 4
    step = SYS.apply(step.state, "strahl", A.Pass(), ScriptedDice([2, 2, 1, 2]))
    blow = next(e.text for e in step.events if "4 − 0 = 4" in e.text)
    assert "destroyed" in blow and step.state.unit("S-PKA1").status == "destroyed"


def test_9_4_3_phasing_player_names_unpinned_units():
    # 9.4.1: one phasing AFS in close quarters with two Strahl units pins one of them; when a
    # second AFS moves next to the hex, the Merc player names which Strahl unit stays unpinned.
    s = game([("M-AFS1", "AFS", "merc", "5:1017"), ("S-PKA1", "PKA", "strahl", "5:1017"),
              ("S-PKA2", "PKA", "strahl", "5:1017"), ("M-AFS2", "AFS", "merc", "5:1020")])
    step = SYS.apply(s, "merc", A.Move(unit="M-AFS2", to="5:1018"), ScriptedDice([]))
    assert SYS.phase_of(step.state) == "pin" and step.waiting_on == ["merc"]
    assert {a.unit for a in SYS.legal_actions(step.state, "merc")} == {"S-PKA1", "S-PKA2"}
    step = SYS.apply(step.state, "merc", A.Unpin(unit="S-PKA2"), ScriptedDice([]))
    assert step.waiting_on == ["strahl"]
    defenders = {a.unit for a in SYS.legal_actions(step.state, "strahl") if a.name == "defend"}
    assert defenders == {"S-PKA2"}


def test_5_5_indirect_attack_single_roll_each_unit_its_own_endurance():
    # a Doll House fires rockets at a hex 9 away that a spotter sees; +1 endurance outside it
    s = game([("M-Doll1", "DollHouse", "merc", "5:1025"), ("M-AFS1", "AFS", "merc", "5:1019"),
              ("S-PKA1", "PKA", "strahl", "5:1016"), ("S-PKA2", "PKA", "strahl", "5:1015")])
    order = A.Indirect(unit="M-Doll1", at="5:1016", spotter="M-AFS1")
    assert order in SYS.legal_actions(s, "merc")
    step = SYS.apply(s, "merc", order, ScriptedDice([2, 3, 1, 2, 1, 2]))
    texts = " ".join(e.text for e in step.events)
    # 11 - 2 + 0 (range 9) - 3 indirect = 6 in both hexes; 2+3 hits both
    assert "S-PKA1 in 5:1016: target 11 − 2 −3 indirect = 6: hit; endurance 3: D" in texts
    assert "S-PKA2 in 5:1015: target 11 − 2 −3 indirect = 6: hit; endurance 3+1: A" in texts
    assert step.state.unit("S-PKA1").status == "destroyed"  # endurance 3 in the target hex: D
    assert step.state.unit("S-PKA2").status == "on"  # 3 + 1 outside the target hex: A
    assert step.state.unit("S-PKA2").disarmed
    assert step.state.unit("M-Doll1").fired == {"R": 1} and step.state.unit("M-AFS1").spotted


def test_5_5_4_no_indirect_fire_next_to_friends():
    s = game([("M-Doll1", "DollHouse", "merc", "5:1025"), ("M-AFS1", "AFS", "merc", "5:1017"),
              ("S-PKA1", "PKA", "strahl", "5:1016")])
    with pytest.raises(RuleError, match="5.5.4"):
        SYS.apply(s, "merc", A.Indirect(unit="M-Doll1", at="5:1016", spotter="M-AFS1"), ScriptedDice([]))


def test_12_1_reinforcements_enter_on_their_turn_and_4_0_phases_turns():
    step = SYS.setup("patrol", None, SeededDice(b"s"))
    enters = [a for a in SYS.legal_actions(step.state, "merc") if a.name == "enter"]
    assert {a.at for a in enters} == {f"5:{c:02d}30" for c in range(1, 11)}
    assert all(a.unit.startswith("M-AFS") for a in enters)
    state = step.state
    state = SYS.apply(state, "merc", A.End(), SeededDice(b"t")).state
    assert state.active == "strahl" and state.turn == 1
    assert not any(a.name == "enter" for a in SYS.legal_actions(state, "strahl"))  # Gustav: turn 2
    state = SYS.apply(state, "strahl", A.End(), SeededDice(b"t")).state
    assert state.turn == 2 and state.active == "merc"


def test_game_ends_after_the_last_turn_with_a_result():
    step = SYS.setup("patrol", "turns=1", SeededDice(b"s"))
    state = SYS.apply(step.state, "merc", A.End(), SeededDice(b"t")).state
    last = SYS.apply(state, "strahl", A.End(), SeededDice(b"t"))
    assert last.game_over and last.result.startswith("A draw")



def test_4_0_after_the_last_turn_status_and_header_say_game_over_with_the_result():
    step = SYS.setup("patrol", "turns=1", SeededDice(b"s"))
    state = SYS.apply(step.state, "merc", A.End(), SeededDice(b"t")).state
    over = SYS.apply(state, "strahl", A.End(), SeededDice(b"t")).state
    result = SYS.result(over)
    assert result and over.turn == 2  # the turn counter has moved past the last turn
    assert SYS.status(over)[0].endswith(f": game over after turn 1/1: {result}")
    assert SYS.turn_part(over) == f"Turn 1/1 · game over: {result}"
    header = SYS.view(over).header
    assert header.turn == 1 and header.phase == f"game over: {result}"


def test_autocomplete_labels_show_cost_and_roll_needed():
    s = game([("M-AFS1", "AFS", "merc", "5:1012"), ("S-PKA1", "PKA", "strahl", "5:1014")])
    targets = SYS.choices(s, "merc", "fire", "target", {"unit": "M-AFS1"})
    assert targets and "needs 7 (sum)" in targets[0].label
    hexes = SYS.choices(s, "merc", "move", "to", {"unit": "M-AFS1"})
    assert hexes and " MP" in hexes[0].label
    other = SYS.choices(s, "strahl", "fire", "unit", {})
    assert other[0].info  # not their turn: said in the list


def test_bad_input_is_a_sentence_and_changes_nothing():
    s = game([("M-AFS1", "AFS", "merc", "5:1012"), ("S-PKA1", "PKA", "strahl", "5:1014")])
    before = s.model_dump_json()
    for order in (A.Move(unit="M-AFS1", to="9:9999"), A.Fire(unit="nobody", target="S-PKA1"),
                  A.Fire(unit="M-AFS1", target="M-AFS1"), A.Move(unit="S-PKA1", to="5:1013")):
        with pytest.raises(RuleError):
            SYS.apply(s, "merc", order, ScriptedDice([]))
    assert s.model_dump_json() == before


def test_state_round_trips_through_json_and_renders():
    from render import snapshot

    step = SYS.setup("ridge", None, SeededDice(b"s"))
    text = step.state.model_dump_json()
    assert SYS.load_state(text) == step.state
    json.loads(text)
    shot = snapshot(SYS.view(step.state))
    assert shot.png.startswith(b"\x89PNG")


def test_14_2_2_infantry_charge_two_hexes_and_14_2_3_plus_1_against_it():
    s = game([("M-InfSQ1", "InfSQ", "merc", "5:1019"), ("S-PKA1", "PKA", "strahl", "5:1017")])
    assert A.Assault(unit="M-InfSQ1", hex="5:1017") in SYS.legal_actions(s, "merc")
    step = SYS.apply(s, "merc", A.Assault(unit="M-InfSQ1", hex="5:1017"), ScriptedDice([]))
    assert step.state.unit("M-InfSQ1").hex == "5:1018" and step.state.assault.charge
    # PF 10 - 0 + 1 (range 1) + 1 (charge) = 12
    step = SYS.apply(step.state, "strahl", A.Defend(unit="S-PKA1", target="M-InfSQ1"), ScriptedDice([6, 5, 6, 6]))
    assert "10 − 0 +1 range 1 +1 charge = 12" in step.events[0].text
    assert "morale broken" not in step.events[0].text  # endurance 12: no effect


def test_12_3_defensive_position_adds_its_rating_for_its_holder():
    from rules.mak.state import Position

    s = game([("M-AFS1", "AFS", "merc", "5:1012"), ("S-PKA1", "PKA", "strahl", "5:1014")])
    s.positions["5:1014"] = Position(rating=-2, holder="strahl")
    step = SYS.apply(s, "merc", A.Fire(unit="M-AFS1", target="S-PKA1"), ScriptedDice([6, 5]))
    assert "8 − 2 −2 position +1 range 2 = 5" in step.events[0].text


def test_12_3_a_position_is_taken_by_moving_in_and_not_if_the_enemy_holds_it():
    from rules.mak.state import Position

    s = game([("M-AFS1", "AFS", "merc", "5:1020"), ("S-PKA1", "PKA", "strahl", "5:0812")])
    s.positions["5:1018"] = Position(rating=-1)
    step = SYS.apply(s, "merc", A.Move(unit="M-AFS1", to="5:1018"), ScriptedDice([]))
    assert step.state.positions["5:1018"].holder == "merc"
    assert any("12.3" in e.text for e in step.events)
    moved = SYS.apply(step.state, "merc", A.End(), ScriptedDice([])).state
    assert moved.positions["5:1018"].holder == "merc"


def test_11_3_1_pf_reloads_at_a_depot():
    s = game([("S-PKA1", "PKA", "strahl", "5:1014"), ("M-AFS1", "AFS", "merc", "5:0101")], active="strahl")
    pka = s.unit("S-PKA1")
    pka.fired = {"PF": 2}
    pka.weapons_out = ["PF"]
    pka.disarmed = True
    s.depots["5:1016"] = "strahl"
    step = SYS.apply(s, "strahl", A.Move(unit="S-PKA1", to="5:1016"), ScriptedDice([]))
    after = step.state.unit("S-PKA1")
    assert after.fired == {} and not after.disarmed and "11.3.1" in step.events[-1].text


def test_7_3_carrying_an_immobilised_unit_and_7_3_3_dropping_it_when_hit():
    s = game([("M-AFS1", "AFS", "merc", "5:1020"), ("M-AFS2", "AFS", "merc", "5:1020"),
              ("S-PKA1", "PKA", "strahl", "5:0301")])
    s.unit("M-AFS2").immobilized = True
    order = A.Carry(unit="M-AFS1", load="M-AFS2")
    assert order in SYS.legal_actions(s, "merc")
    assert A.Carry(unit="M-AFS2", load="M-AFS1") not in SYS.legal_actions(s, "merc")
    step = SYS.apply(s, "merc", order, ScriptedDice([]))
    assert step.state.unit("M-AFS1").mp_spent == 1 and step.state.unit("M-AFS1").carrying == "M-AFS2"
    step = SYS.apply(step.state, "merc", A.Move(unit="M-AFS1", to="5:1017"), ScriptedDice([]))
    assert step.state.unit("M-AFS2").hex == "5:1017"  # they move together (7.3.1)
    state = step.state
    state.active = "strahl"
    state.unit("S-PKA1").hex = "5:1015"
    state.moving = None
    # PF 10 - 3 + 0 = 7: 2+2 hits; endurance A 3+3 = 6: M, and the carried AFS is dropped
    hit = SYS.apply(state, "strahl", A.Fire(unit="S-PKA1", target="M-AFS1"), ScriptedDice([2, 2, 3, 3]))
    assert hit.state.unit("M-AFS1").carrying is None
    assert any("7.3.3" in e.text for e in hit.events)


def _stacked_pair() -> MakState:
    return game([("M-AFS1", "AFS", "merc", "5:1012"), ("M-AFS2", "AFS", "merc", "5:1012"),
                 ("M-AFS3", "AFS", "merc", "5:1011"),
                 ("S-PKA1", "PKA", "strahl", "5:1014"), ("S-PKA2", "PKA", "strahl", "5:1014")])


def test_5_3_3_simultaneous_attack_then_5_4_2_one_defensive_attack_each_on_the_stack():
    s = _stacked_pair()
    offers = SYS.legal_actions(s, "merc")
    assert A.Volley(units="M-AFS1,M-AFS2", target="S-PKA1") in offers
    assert not [o for o in offers if isinstance(o, A.Volley) and "M-AFS3" in o.units]  # not stacked
    # 5.3.3 "still resolved individually": laser 8 - 2 + 1 (range 2) = 7 each.
    # AFS1 rolls 4+4 = 8: miss; AFS2 rolls 3+3: hit, endurance B 6+6: no effect.
    step = SYS.apply(s, "merc", A.Volley(units="M-AFS1,M-AFS2", target="S-PKA1"),
                     ScriptedDice([4, 4, 3, 3, 6, 6]))
    texts = [e.text for e in step.events]
    assert "Simultaneous Attack" in texts[0]
    assert "M-AFS1 (L) fires at S-PKA1" in texts[1] and "miss" in texts[1]
    assert "M-AFS2 (L) fires at S-PKA1" in texts[2] and "no effect" in texts[2]
    s2 = step.state
    assert s2.unit("M-AFS1").attacked and s2.unit("M-AFS2").attacked  # 5.3.1: their one attack
    # 5.4.2: after all the attacks, one window: each defender against one unit of the stack
    assert s2.window is not None and sorted(s2.window.targets) == ["M-AFS1", "M-AFS2"]
    assert step.waiting_on == ["strahl"]
    d = SYS.legal_actions(s2, "strahl")
    assert A.Defend(unit="S-PKA1", target="M-AFS2", weapon="PF") in d
    assert A.Defend(unit="S-PKA2", target="M-AFS1", weapon="PF") in d
    # PF 10 - 3 + 0 = 7: S-PKA1 rolls 5+5 = 10, a miss; it may not fire again in this window
    s3 = SYS.apply(s2, "strahl", A.Defend(unit="S-PKA1", target="M-AFS2"), ScriptedDice([5, 5])).state
    assert s3.window is not None and s3.window.used == ["S-PKA1"]
    assert not [o for o in SYS.legal_actions(s3, "strahl") if isinstance(o, A.Defend) and o.unit == "S-PKA1"]
    s4 = SYS.apply(s3, "strahl", A.Defend(unit="S-PKA2", target="M-AFS1"), ScriptedDice([6, 5])).state
    assert s4.window is None  # every defender has had its one attack on the stack


def test_5_3_3_simultaneous_attack_refusals_change_nothing():
    s = _stacked_pair()
    before = s.model_dump_json()
    for units, match in (("M-AFS1,M-AFS3", "not stacked"), ("M-AFS1", "two or more"),
                         ("M-AFS1,M-AFS1", "named twice"), ("M-AFS1,S-PKA2", "not yours")):
        with pytest.raises(RuleError, match=match):
            SYS.apply(s, "merc", A.Volley(units=units, target="S-PKA1"), ScriptedDice([]))
    assert s.model_dump_json() == before


def test_5_3_4_volley_every_named_unit_rolls_after_the_target_is_destroyed():
    s = _stacked_pair()
    # AFS1 rolls 1+1: D without the endurance chart (5.1.2); AFS2 still rolls (5.3.4, Figure 5):
    # 6+6 drains its laser (11.2.1) and it has made its one offensive attack (5.3.1)
    step = SYS.apply(s, "merc", A.Volley(units="M-AFS1,M-AFS2", target="S-PKA1"), ScriptedDice([1, 1, 6, 6]))
    s2 = step.state
    assert s2.unit("S-PKA1").status == "destroyed"
    assert s2.unit("M-AFS1").attacked and s2.unit("M-AFS2").attacked
    assert s2.unit("M-AFS2").disarmed
    assert any("M-AFS2 (L)" in e.text and "already destroyed" in e.text and "5.3.4" in e.text
               for e in step.events)
    # 5.4 2: S-PKA2, stacked with the destroyed target, may answer; it passes
    assert s2.window is not None and s2.window.defenders == ["S-PKA2"]
    s2 = SYS.apply(s2, "strahl", A.Pass(), ScriptedDice([])).state
    with pytest.raises(RuleError, match="moved or attacked"):
        SYS.apply(s2, "merc", A.Fire(unit="M-AFS2", target="S-PKA2"), ScriptedDice([2, 2]))


#: 11.3.3: razing a Depot is ``lay what:raze`` naming the unit's own hex.
RAZE = S.Lay(unit="M-AFS1", what="raze", at="5:1016")


def test_11_3_3_a_unit_unopposed_in_an_enemy_depot_destroys_it_for_1_mp_and_its_attack():
    s = game([("M-AFS1", "AFS", "merc", "5:1015"), ("S-PKA1", "PKA", "strahl", "5:0101")])
    s.depots["5:1016"] = "strahl"
    s.depots["5:1015"] = "merc"
    assert not [o for o in SYS.legal_actions(s, "merc") if getattr(o, "what", None) == "raze"]  # its own depot
    with pytest.raises(RuleError, match="enemy Depot"):
        SYS.apply(s, "merc", RAZE, ScriptedDice([]))
    s1 = SYS.apply(s, "merc", A.Move(unit="M-AFS1", to="5:1016"), ScriptedDice([])).state
    spent = s1.unit("M-AFS1").mp_spent
    assert RAZE in SYS.legal_actions(s1, "merc")
    step = SYS.apply(s1, "merc", RAZE, ScriptedDice([]))
    s2 = step.state
    assert "5:1016" not in s2.depots and s2.depots == {"5:1015": "merc"}  # the token is removed
    afs = s2.unit("M-AFS1")
    assert afs.mp_spent == spent + 1 and afs.attacked  # (1) one MP, (2) its attack
    assert "11.3.3" in step.events[-1].text and step.snapshot
    # a unit that has not moved: razing is its one attack of the phase (5.3.1)
    still = game([("M-AFS1", "AFS", "merc", "5:1016"), ("S-PKA1", "PKA", "strahl", "5:1014")])
    still.depots["5:1016"] = "strahl"
    assert A.Fire(unit="M-AFS1", target="S-PKA1", weapon="L") in SYS.legal_actions(still, "merc")
    razed = SYS.apply(still, "merc", RAZE, ScriptedDice([])).state
    assert not [o for o in SYS.legal_actions(razed, "merc") if isinstance(o, A.Fire)]


def test_11_3_3_lay_raze_names_the_units_own_hex():
    s = game([("M-AFS1", "AFS", "merc", "5:1016"), ("S-PKA1", "PKA", "strahl", "5:0101")])
    s.depots["5:1016"] = "strahl"
    before = s.model_dump_json()
    with pytest.raises(RuleError, match="own hex: at:5:1016"):
        SYS.apply(s, "merc", S.Lay(unit="M-AFS1", what="raze", at="5:1017"), ScriptedDice([]))
    assert s.model_dump_json() == before
    assert [o for o in SYS.legal_actions(s, "merc") if getattr(o, "what", None) == "raze"] == [RAZE]
    assert SYS.choices(s, "merc", "lay", "at", {"unit": "M-AFS1", "what": "raze"})[0].label == "5:1016 · enemy Depot"


def test_11_3_3_not_while_opposed_nor_without_a_weapon():
    s = game([("M-AFS1", "AFS", "merc", "5:1016"), ("S-PKA1", "PKA", "strahl", "5:1016")])
    s.depots["5:1016"] = "strahl"
    with pytest.raises(RuleError, match="not unopposed"):
        SYS.apply(s, "merc", RAZE, ScriptedDice([]))
    s.units = [u for u in s.units if u.id != "S-PKA1"]
    s.unit("M-AFS1").disarmed = True  # "must be able to do so"
    before = s.model_dump_json()
    with pytest.raises(RuleError, match="no weapon"):
        SYS.apply(s, "merc", RAZE, ScriptedDice([]))
    assert s.model_dump_json() == before and RAZE not in SYS.legal_actions(s, "merc")


def _crowded() -> MakState:
    """M-AFS1 next to a hex holding four Mercenary units (8.2: the limit is 4 stack points)."""
    return game([("M-AFS1", "AFS", "merc", "5:1719")]
                + [(f"M-AFS{n}", "AFS", "merc", "5:1720") for n in range(2, 6)]
                + [("S-PKA1", "PKA", "strahl", "5:0101")])


def test_8_2_1_a_move_may_stop_in_a_full_hex_the_limit_holds_when_the_phase_ends():
    # 8.2.1: "At any other time, such as during movement, it does not matter how many units
    # are stacked": M-AFS1 moves into the full hex; the phase cannot end until one unit leaves.
    s = SYS.apply(_crowded(), "merc", A.Move(unit="M-AFS1", to="5:1720"), ScriptedDice([])).state
    assert s.unit("M-AFS1").hex == "5:1720"
    with pytest.raises(RuleError, match=r"5:1720 is over the stacking limit when the phase ends: "
                                        r"5 stack points is over the limit of 4 \(8\.2\)\. Move "
                                        r"M-AFS1 or M-AFS2 or M-AFS3 or M-AFS4 out first \(8\.2\.1\)\."):
        SYS.apply(s, "merc", A.End(), ScriptedDice([]))
    s = SYS.apply(s, "merc", A.Move(unit="M-AFS2", to="5:1721"), ScriptedDice([])).state
    SYS.apply(s, "merc", A.End(), ScriptedDice([]))


def test_8_2_1_the_last_unit_that_can_leave_an_overfull_hex_leaves_before_it_attacks():
    # 8.2.1: the limit holds when the phase ends; M-AFS2 is the only unit in 5:1720 still free
    # to leave it, so it may not spend its phase attacking (a move out is open).
    s = _crowded()
    s.unit("S-PKA1").hex = "5:1723"
    for n in range(3, 6):
        s.unit(f"M-AFS{n}").moved = s.unit(f"M-AFS{n}").move_done = True
    s.unit("M-AFS1").mp_spent = 3  # 1 MP: it stops in the hex
    s = SYS.apply(s, "merc", A.Move(unit="M-AFS1", to="5:1720"), ScriptedDice([])).state
    fire = A.Fire(unit="M-AFS2", target="S-PKA1")
    with pytest.raises(RuleError, match=r"M-AFS2 is the last unit that can still leave 5:1720, over "
                                        r"the stacking limit \(5 stack points is over the limit of 4 "
                                        r"\(8\.2\)\): move it out first.*\(8\.2\.1\)"):
        SYS.apply(s, "merc", fire, ScriptedDice([4, 4]))
    assert fire not in SYS.legal_actions(s, "merc")
    s = SYS.apply(s, "merc", A.Move(unit="M-AFS2", to="5:1721"), ScriptedDice([])).state
    SYS.apply(s, "merc", A.End(), ScriptedDice([]))


def test_8_2_1_no_stop_in_a_full_hex_that_nobody_could_leave():
    s = _crowded()
    for n in range(2, 6):
        s.unit(f"M-AFS{n}").moved = s.unit(f"M-AFS{n}").move_done = True
    s.unit("M-AFS1").mp_spent = s.unit("M-AFS1").mp_spent + 3  # 1 MP left: no step beyond
    with pytest.raises(RuleError, match=r"M-AFS1 cannot stop in 5:1720: 5 stack points is over the "
                                        r"limit of 4 \(8\.2\), and neither it nor a unit there could "
                                        r"still leave before the phase ends \(8\.2\.1\)"):
        SYS.apply(s, "merc", A.Move(unit="M-AFS1", to="5:1720"), ScriptedDice([]))


@pytest.mark.parametrize("to", ["banana", "5:0000", "7:1021", "5:9999"])
def test_7_0_a_move_to_no_hex_of_the_map_says_so_and_how_hexes_are_written(to: str):
    with pytest.raises(RuleError, match=rf"'{to}' is not a hex on this map.*e\.g\. 5:1801\.$"):
        SYS.apply(_crowded(), "merc", A.Move(unit="M-AFS1", to=to), ScriptedDice([]))


def test_7_0_the_in_reach_list_says_how_many_more_it_leaves_out():
    with pytest.raises(RuleError, match=r"with 4 MP left \(7\.1\.3\); in reach: (5:\d{4}, ){4}5:\d{4} and \d+ more\.$"):
        SYS.apply(_crowded(), "merc", A.Move(unit="M-AFS1", to="5:0130"), ScriptedDice([]))


def test_9_5_strike_unarmed_is_echoed_as_typed_lower_case():
    # 9.5: ``strike ... unarmed:true``; the order is echoed the way it is typed.
    from bot.replies import step_action_text  # noqa: PLC0415 - the shared echo of a stored step
    from bot.store import StepRow  # noqa: PLC0415

    order = A.Strike(target="S-PKA1", unarmed=True)
    assert order.summary() == "strike target:S-PKA1 unarmed:true"
    step = StepRow(game_id=1, seq=2, parent_seq=1, kind="order", state_json="{}",
                   action={"name": "strike", "options": {"target": "S-PKA1", "unarmed": True}})
    assert step_action_text(step) == "strike target:S-PKA1 unarmed:true"


def test_8_2_1_a_reinforcement_may_enter_a_full_hex_that_another_unit_can_leave():
    # 12.1: a reinforcement "spends movement points to enter that hex": entering is movement,
    # so 8.2.1 lets it into a full hex; the phase then ends only once the stack is right.
    s = SYS.setup("ridge", None, ScriptedDice([])).state
    s.active = "merc"
    for uid in ("M-InfSQ1", "M-InfSQ2"):
        s.unit(uid).hex = "5:2030"
    s = SYS.apply(s, "merc", A.Enter(unit="M-AFS1", at="5:2030"), ScriptedDice([])).state
    with pytest.raises(RuleError, match=r"5:2030 is over the stacking limit when the phase ends"):
        SYS.apply(s, "merc", A.End(), ScriptedDice([]))
    s = SYS.apply(s, "merc", A.Move(unit="M-AFS1", to="5:1930"), ScriptedDice([])).state
    SYS.apply(s, "merc", A.End(), ScriptedDice([]))
