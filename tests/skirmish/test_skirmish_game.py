"""The whole game loop through the system: Initiatives, activations, actions, decisions asked
of the other player, assaults, barrages (scripted dice, by heading)."""

from __future__ import annotations

import pytest

from rules.core.dice import ScriptedDice
from rules.core.errors import RuleError
from rules.skirmish import SYSTEM
from rules.skirmish.state import SkirmishState
from tests.skirmish.helpers import LoadedDice, park, put


def new(dice: list[int]) -> SkirmishState:
    return SYSTEM.setup("open_field", None, ScriptedDice(dice)).state


def go(state, side, name, dice=(), default=4, **options):
    order = SYSTEM.parse(name, {k: str(v) for k, v in options.items()})
    step = SYSTEM.apply(state, side, order, LoadedDice(list(dice), default))
    return step.state, step


def test_turns_highest_roll_has_the_first_initiative_ties_rerolled():
    # Turns: "both Players roll a die ... highest has the first Initiative. Reroll ties."
    step = SYSTEM.setup("open_field", None, ScriptedDice([3, 3, 2, 5]))
    assert step.state.initiative == "germans" and step.waiting_on == ["germans"]
    assert "reroll" in step.events[-1].text


def test_failed_check_gives_fail_actions_only_and_passes_the_initiative():
    # Actions: "If the check is failed, only the Fail actions are available."; Turns: "until a
    # Unit 'fails' to activate. At that point the opposing player then begins a new Initiative"
    state = new([6, 1])
    state, step = go(state, "us", "activate", [2], unit="1pl")  # Trained 4+: fails
    assert "failed" in step.events[0].text
    with pytest.raises(RuleError, match="not open"):
        go(state, "us", "action", kind="run")
    state, step = go(state, "us", "action", kind="overwatch")
    assert state.initiative == "germans" and step.waiting_on == ["germans"]
    with pytest.raises(RuleError):
        go(state, "germans", "activate", unit="1pl")


def test_each_unit_activates_once_and_the_turn_ends_when_all_have_acted():
    # Turns: "Each Unit may only activate once per turn"; the turn ends when all have acted
    state = new([6, 1])
    for unit in ("us-hq", "1pl", "tank"):
        state, _ = go(state, "us", "activate", [6], unit=unit)
        state, _ = go(state, "us", "action", kind="overwatch")
    assert state.initiative == "germans"
    state, _ = go(state, "germans", "activate", [1], unit="gren")
    state, _ = go(state, "germans", "action", kind="overwatch")
    with pytest.raises(RuleError, match="already acted"):
        go(state, "germans", "activate", unit="gren")
    state = new([6, 1])
    for unit in ("us-hq", "1pl", "tank"):
        state, _ = go(state, "us", "activate", [6], unit=unit)
        state, _ = go(state, "us", "action", kind="overwatch")
    for unit in ("de-hq", "gren", "pak", "mortars"):
        state, step = go(state, "germans", "activate", [6, 5, 2], unit=unit)
        state, step = go(state, "germans", "action", [5, 2], kind="overwatch")
    assert state.turn == 2 and "End of turn 1" in " ".join(e.text for e in step.events)
    assert not any(u.activated or u.overwatch for u in state.units)


def _facing_off(state: SkirmishState) -> SkirmishState:
    park(state)
    for i, team in enumerate(state.unit("1pl").teams):
        put(state, team.id, 10 + 2 * i, 36)
    for i, team in enumerate(state.unit("gren").teams):
        put(state, team.id, 10 + 2 * i, 24)
    return state


def test_reaction_fire_is_asked_of_the_other_player_at_plus_one():
    # Reaction Fire: "Teams may fire at an enemy Unit moving within 8" of them ... +1"
    state = _facing_off(new([6, 1]))
    state, _ = go(state, "us", "activate", [6], unit="1pl")
    state, _ = go(state, "us", "action", kind="move")
    state, step = go(state, "us", "move", who="sq1", to="12,31")
    assert step.waiting_on == ["germans"] and state.pending.kind == "react"
    state, step = go(state, "germans", "decide", [6] * 20, choice="fire", unit="gren")
    fire = [e for e in step.events if e.kind == "fire"]
    assert fire and all("+1 reaction" in e.text for e in fire)
    assert step.waiting_on == ["us"]
    with pytest.raises(RuleError, match="not your turn"):
        go(state, "germans", "decide", choice="fire", unit="gren")


def test_going_to_ground_is_asked_before_the_to_hit_roll():
    # Gone to Ground: "Before rolling To Hit, if the targeted Unit has not been activated ...
    # it may declare that the Unit is Going to Ground ... its To Hit number is increased by 1"
    state = _facing_off(new([6, 1]))
    state, _ = go(state, "us", "activate", [6], unit="1pl")
    state, _ = go(state, "us", "action", kind="fire")
    state, step = go(state, "us", "fire", target="gren")
    assert state.pending.kind == "ground" and step.waiting_on == ["germans"]
    state, step = go(state, "germans", "decide", [1] * 30, choice="ground")
    fire = [e for e in step.events if e.kind == "fire"]
    assert fire and all("+1 gone to ground" in e.text for e in fire)
    assert state.unit("gren").activated  # "may not move or fire for the rest of the turn"


def test_standing_answers_skip_the_question():
    state = _facing_off(new([6, 1]))
    state, _ = go(state, "germans", "defaults", ground="no", reaction="no", counter="yes")
    state, _ = go(state, "us", "activate", [6], unit="1pl")
    state, _ = go(state, "us", "action", kind="fire")
    state, step = go(state, "us", "fire", [1] * 30, target="gren")
    assert state.pending is None and any(e.kind == "fire" for e in step.events)


def test_an_assault_with_its_decisions_to_the_break_off():
    # Assaults: the defender's fire, the fight, counter-attack or break off, suppression after
    state = _facing_off(new([6, 1]))
    for i, team in enumerate(state.unit("gren").teams):
        put(state, team.id, 10 + 2 * i, 30)
    state, _ = go(state, "us", "defaults", reroll="no")  # no CC reroll of the failed checks
    state, _ = go(state, "us", "activate", [6], unit="1pl")
    state, _ = go(state, "us", "action", kind="assault")
    state, step = go(state, "us", "assault", target="gren")
    assert state.pending.kind == "assault-fire"
    # the defender holds its fire; every attacker passes its check (6s): gren loses teams
    state, step = go(state, "germans", "decide", [6, 1, 1, 1, 1], choice="hold")
    # lt passed with ltn and g1 within 2": the Germans choose which one goes
    assert state.pending.kind == "losses" and state.pending.side == "germans"
    state, step = go(state, "germans", "decide", choice="remove", teams="g1")
    assert state.pending.kind == "assault-choice" and state.pending.side == "germans"
    assert [t.id for t in state.unit("gren").teams if not t.alive] == ["g1"]
    state, step = go(state, "germans", "decide", [6], choice="break")
    # "The attacking Unit then may move 1d6"": asked of the Americans
    assert state.pending.kind == "follow" and state.pending.side == "us"
    state, step = go(state, "us", "decide", [1], default=1, choice="follow")
    text = " | ".join(e.text for e in step.events)
    assert "follows" in text and state.assault is None
    assert state.unit("gren").markers >= 1 or not state.unit("gren").on_table


def test_a_missed_barrage_is_moved_by_the_opponent():
    # Indirect Fire: "If the roll fails, the opponent may move the template up to 6""
    state = new([1, 6])
    park(state)
    put(state, "sq1", 30, 30)
    put(state, "fo", 30, 22)
    state, _ = go(state, "germans", "activate", [6], unit="mortars")
    state, _ = go(state, "germans", "action", kind="barrage")
    state, step = go(state, "germans", "barrage", [2], target="sq1")  # 3+ needed: missed
    assert state.pending.kind == "drift" and step.waiting_on == ["us"]
    with pytest.raises(RuleError, match="at most 6"):
        go(state, "us", "decide", choice="place", to="30,40")
    state, step = go(state, "us", "decide", [6, 6, 6], choice="place", to="30,36")
    assert state.team("sq1").alive  # the template no longer covers it
    assert any(e.kind == "drift" for e in step.events)


def test_cc_rerolls_a_failed_training_check_once_per_initiative():
    # Leaders: "once per Initiative, they may allow a Unit to reroll a single Training Check"
    state = new([6, 1])
    state, _ = go(state, "us", "activate", [1], unit="1pl")
    state, step = go(state, "us", "reroll", [5])
    assert state.check_passed
    state, _ = go(state, "us", "action", kind="overwatch")
    state, _ = go(state, "us", "activate", [1], unit="tank")
    with pytest.raises(RuleError, match="already"):
        go(state, "us", "reroll")


def test_every_offer_is_accepted_and_the_input_never_changes():
    state = _facing_off(new([6, 1]))
    before = state.model_dump_json()
    for order in SYSTEM.legal_actions(state, "us"):
        SYSTEM.apply(state, "us", order, LoadedDice([], 4))
    assert state.model_dump_json() == before


def test_cc_joins_a_unit_within_6_when_attacked():
    # Leaders: "When a CC is the target of an attack, he wil automatically join a Unit within
    # 6" of his position, and is considered a part of that platoon until the end of the attack."
    from rules.skirmish.fire import Fire, resolve_fire

    state = _facing_off(new([6, 1]))
    put(state, "cpt", 12, 37)  # 1" behind sq1 of the rifle platoon
    result = resolve_fire(state, [state.team("mg")], state.unit("us-hq"), LoadedDice([], 6), Fire())
    assert "cpt joins 1pl for this attack (Leaders)" in result.events[0].text
    allocated = next(e.text for e in result.events if e.kind == "allocate")
    assert "sq" in allocated  # the platoon's teams share the hits


def test_infantry_pl_moves_freely_through_its_ranks():
    # Leaders: "Infantry PLs can move freely throughout their ranks, being placed any where on
    # the table as long as Unit cohesion is maintained."
    state = _facing_off(new([6, 1]))
    state, _ = go(state, "us", "activate", [6], unit="1pl")
    state, _ = go(state, "us", "action", kind="move")
    state, step = go(state, "us", "move", who="sq1", to="12,31")
    state, step = go(state, "germans", "decide", choice="hold") if state.pending else (state, step)
    with pytest.raises(RuleError, match="too far"):
        go(state, "us", "move", who="lt", to="40,40")  # nowhere near its ranks
    state, step = go(state, "us", "move", who="lt", to="20,40")  # 10" but within 6" of bz
    assert state.team("lt").pos == (20.0, 40.0)


def test_forward_observer_moves_whatever_its_unit_does():
    # Forward Observers: "may choose to execute different actions than the rest of the Unit"
    state = new([1, 6])
    state, _ = go(state, "germans", "activate", [6], unit="mortars")
    state, _ = go(state, "germans", "action", kind="barrage")
    state, step = go(state, "germans", "move", who="fo", to="29,24")
    assert state.team("fo").pos == (29.0, 24.0)
    with pytest.raises(RuleError, match="allows barrage"):
        go(state, "germans", "move", who="m2", to="36,5")


def test_autocomplete_labels_say_what_a_player_needs():
    # Autocomplete: only legal values, labelled with the check needed and the targets in range
    state = _facing_off(new([6, 1]))
    state.team("sq1").suppression = 1
    units = SYSTEM.choices(state, "us", "activate", "unit", {})
    label = next(c.label for c in units if c.value == "1pl")
    assert label == "1pl: 1st Rifle Platoon, 5 teams, check 5+ +1 supp"
    state, _ = go(state, "us", "activate", [6], unit="1pl")
    state, _ = go(state, "us", "action", kind="fire-and-move")
    targets = SYSTEM.choices(state, "us", "fire", "target", {})
    assert [c.value for c in targets] == ["gren"]
    assert "teams can fire" in targets[0].label and "To Hit 3+" in targets[0].label
    moves = SYSTEM.choices(state, "us", "move", "to", {"who": "sq2"})
    # issue 40: how far, which way, towards what, the move left, then the place as typed
    assert moves and all(c.label.endswith(c.value) and '" left · ' in c.label for c in moves)
    assert any("towards g" in c.label for c in moves)
    assert SYSTEM.choices(state, "germans", "activate", "unit", {})[0].info


def test_leader_extra_four_inches_ending_within_2_of_the_pl():
    # Leaders: "command a Team to move an additional 4", as to end their Move within 2" of the PL"
    state = _facing_off(new([6, 1]))
    put(state, "lt", 12, 30)
    state.policies["germans"] = {"reaction": "no"}
    state, _ = go(state, "us", "activate", [6], unit="1pl")
    state, _ = go(state, "us", "action", kind="move")
    with pytest.raises(RuleError, match="too far"):
        go(state, "us", "move", who="sq2", to="13.5,28.5")  # 9.9": more than 6"
    state, step = go(state, "us", "move", who="sq2", to="13.5,28.5", extra="true")
    assert state.team("sq2").pos == (13.5, 28.5) and "lt" in state.leader_used
    with pytest.raises(RuleError, match="within 2|already"):
        go(state, "us", "move", who="sq3", to="12,32.5", extra="true")


def test_leader_directs_fire_rerolling_misses():
    # Leaders: "direct a Team's fire, rerolling missed To Hit dice from a Team within 2" of the PL"
    state = _facing_off(new([6, 1]))
    put(state, "lt", 12, 34)
    put(state, "sq2", 12, 32.5)
    state.policies["germans"] = {"ground": "no"}
    state, _ = go(state, "us", "activate", [6], unit="1pl")
    state, _ = go(state, "us", "action", kind="fire")
    state, step = go(state, "us", "fire", [1, 1, 1, 6, 6, 6], default=1, target="gren",
                     teams="sq2", directed="sq2")
    fire = next(e for e in step.events if e.kind == "fire")
    assert "rerolled misses: 6 6 6" in fire.text and fire.data["hits"] == 3


def test_split_fire_between_two_enemy_units():
    # Firing: "Units may split their fire amongst more than one enemy Unit."
    state = _facing_off(new([6, 1]))
    put(state, "pak40", 24, 30, facing=90)
    state.policies["germans"] = {"ground": "no"}
    state, _ = go(state, "us", "activate", [6], unit="1pl")
    state, _ = go(state, "us", "action", kind="fire")
    state, step = go(state, "us", "fire", default=1, target="gren", teams="sq1 sq2")
    assert {e.data["shooter"] for e in step.events if e.kind == "fire"} == {"sq1", "sq2"}
    state, step = go(state, "us", "fire", default=1, target="pak", teams="sq3")
    assert [e.data["target"] for e in step.events if e.kind == "fire"] == ["pak"]


def test_a_move_rotates_a_gun_to_fire_outside_its_arc():
    # Firing: "To fire outside this arc would first require a Move action to rotate"
    state = new([1, 6])
    park(state)
    put(state, "pak40", 20, 20, facing=90)
    put(state, "sherman", 20, 8, facing=90)
    state.policies["us"] = {"ground": "no", "reaction": "no"}
    state, _ = go(state, "germans", "activate", [6], unit="pak")
    state, _ = go(state, "germans", "action", kind="move-and-fire")
    with pytest.raises(RuleError, match="arc"):
        go(state, "germans", "fire", target="tank")
    state, step = go(state, "germans", "move", who="pak40", to="pak40", face="N")
    assert "pak40 turns to face N (Moving)" in step.events[0].text
    state, step = go(state, "germans", "fire", default=1, target="tank")
    assert any(e.kind == "fire" and "+1 moved" in e.text for e in step.events)
