"""Firing: To Hit and its modifiers, allocation, saves, armour, suppression (by heading)."""

from __future__ import annotations

import pytest

from rules.core.dice import ScriptedDice
from rules.skirmish import allocation, fire, saves, tohit
from rules.skirmish.fire import Fire, resolve_fire
from tests.skirmish.helpers import fresh, park, put


def _duel():
    """sq1 (BAR 3 FP, 12") 10" south of g1 and the grenadier PL; everyone else far away."""
    state = fresh()
    park(state)
    put(state, "sq1", 10, 30)
    put(state, "g1", 10, 20)
    put(state, "ltn", 14, 20)
    return state


def test_firing_hits_allocated_nearest_first_and_failed_save_removes():
    # Firing: FP dice vs the target's To Hit (Trained 3+); Saves: infantry 3+
    state = _duel()
    dice = ScriptedDice([3, 2, 5, 2, 4])
    result = resolve_fire(state, [state.team("sq1")], state.unit("gren"), dice, Fire())
    assert result.hits == 2
    assert result.casualties == ["g1"]
    assert not state.team("g1").alive and state.team("ltn").alive
    assert state.unit("gren").casualties_turn == 1
    text = " | ".join(e.text for e in result.events)
    assert "to hit 3+ 🎲3 2 5 → 2 hits" in text
    assert "Hits allocated: g1 1, ltn 1" in text
    assert dice.left == 0


def test_firing_modifiers_concealed_moved_aimed():
    # Firing Modifiers: concealed +1, firing unit moved +1, aimed -1
    state = _duel()
    for team in state.unit("gren").teams:  # Cover & Terrain: concealed in the open
        team.still_last_activation = True
    state.team("sq1").moved = True
    dice = ScriptedDice([3, 3, 3] + [6, 6])
    result = resolve_fire(state, [state.team("sq1")], state.unit("gren"), dice, Fire(aimed=True))
    assert result.events[0].data["need"] == 4
    assert "3+ +1 concealed +1 moved -1 aimed = 4+" in result.events[0].text
    assert result.hits == 0


def test_one_unconcealed_team_reveals_the_unit():
    # Cover & Terrain: "If even one Team is not concealed, that Team will reveal ... the Unit"
    state = _duel()
    state.team("g1").still_last_activation = True
    result = resolve_fire(state, [state.team("sq1")], state.unit("gren"), ScriptedDice([1, 1, 1]), Fire())
    assert result.events[0].data["need"] == 3


def test_long_range_halves_fp_and_adds_one():
    # Firing Modifiers: Target at Long Range (up to 2x range) +1 (half FP rounded down)
    state = _duel()
    put(state, "g1", 10, 12)  # 18" from sq1: long for a 12" BAR
    put(state, "ltn", 11, 12)
    result = resolve_fire(state, [state.team("sq1")], state.unit("gren"), ScriptedDice([6, 6]), Fire())
    event = result.events[0]
    assert "1 FP" in event.text and "long" in event.text and event.data["need"] == 4


def test_beyond_twice_range_cannot_fire():
    state = _duel()
    put(state, "g1", 10, 4)
    put(state, "ltn", 11, 4)
    result = resolve_fire(state, [state.team("sq1")], state.unit("gren"), ScriptedDice([]), Fire())
    assert result.hits == 0 and "beyond" in result.events[0].text


def test_seven_or_more_fails_without_a_roll():
    # "If the To Hit number is 7 or more, the shooting will automatically fail."
    assert tohit.to_hit("veteran", concealed=True, gone_to_ground=True, long_range=True).impossible
    roll = tohit.roll_to_hit(ScriptedDice([]), 3, 7, "t")
    assert roll.hits == 0 and roll.dice == []


def test_one_or_less_ones_still_fail_and_saves_are_rerolled():
    # "If 1 or less, rolls of 1 will still fail, however that unit will need to reroll
    # successful Saves for that round of shooting."
    need = tohit.to_hit("green", aimed=True)
    assert need.need == 1 and need.rerolls_saves
    roll = tohit.roll_to_hit(ScriptedDice([1, 2, 1]), 3, 1, "t")
    assert roll.hits == 1
    state = _duel()
    state.unit("gren").training = "green"
    # hits: 1 fails, 6 and 2 hit; saves g1 4 (rerolled: 1 fails), ltn 5 (reroll 6 holds)
    dice = ScriptedDice([1, 6, 2, 4, 1, 5, 6])
    result = resolve_fire(state, [state.team("sq1")], state.unit("gren"), dice, Fire(aimed=True))
    assert result.casualties == ["g1"] or result.casualties == ["ltn"]
    assert len(result.casualties) == 1 and dice.left == 0


def test_gone_to_ground_needs_every_visible_team_down():
    # Gone to Ground: the +1 is lost if a firing team sees a team not Gone to Ground
    state = _duel()
    gren = state.unit("gren")
    gren.gone_to_ground = True
    assert fire.unit_gone_to_ground(state, [state.team("sq1")], gren)
    state.team("g1").fired = True  # fired (e.g. Reaction Fire): no longer Gone to Ground
    assert not fire.unit_gone_to_ground(state, [state.team("sq1")], gren)


def test_allocation_order_open_soft_hard_gone_to_ground():
    # Firing: "Teams in the open, Teams in Soft Cover, Teams in Hard Cover, Teams that are
    # Gone to Ground"; "not adding a second die to a Team until all valid Teams ... have one"
    c = allocation.Candidate
    cands = [
        c(team="gtg", kind="infantry", cover="none", gone_to_ground=True, distance=1),
        c(team="hard", kind="infantry", cover="hard", gone_to_ground=False, distance=2),
        c(team="soft", kind="infantry", cover="soft", gone_to_ground=False, distance=3),
        c(team="open", kind="infantry", cover="none", gone_to_ground=False, distance=9),
    ]
    got = allocation.allocate(cands, [allocation.Batch(shooter="s", hits=3)])
    assert list(got) == ["hard", "soft", "open"] or set(got) == {"open", "soft", "hard"}
    assert "gtg" not in got
    got = allocation.allocate(cands, [allocation.Batch(shooter="s", hits=6)])
    assert sorted(len(v) for v in got.values()) == [1, 1, 2, 2]
    assert len(got["open"]) == 2 and len(got["gtg"]) == 1


def test_at_hits_go_to_one_team_of_the_declared_type():
    # Firing: AT hits "must be allocated to a single Team"; declared type first
    c = allocation.Candidate
    cands = [
        c(team="inf", kind="infantry", cover="none", gone_to_ground=False, distance=1),
        c(team="gun", kind="gun", cover="hard", gone_to_ground=False, distance=5),
    ]
    got = allocation.allocate(cands, [allocation.Batch(shooter="at", hits=2, at=True, declared="gun")])
    assert got == {"gun": ["at", "at"]}


def test_suppression_per_three_hits_saved_or_not():
    # Suppression: "For every 3 FP's that successfully hit a Unit (regardless of whether or
    # not the Team successfully Saved them)"
    state = _duel()
    put(state, "mg", 30, 30)  # MG 42, 5 FP, unit gren -> shoots at 1pl
    park_us = state.unit("1pl")
    put(state, "sq1", 30, 20)
    put(state, "sq2", 32, 20)
    state.team("lt").x, state.team("lt").y = 34, 20
    dice = ScriptedDice([6, 6, 6, 6, 6] + [6, 6, 6, 6, 6])  # 5 hits, all saved
    result = resolve_fire(state, [state.team("mg")], park_us, dice, Fire())
    assert result.hits == 5 and not result.casualties
    assert park_us.markers == 1
    assert any("1 suppression" in e.text for e in result.events)


def test_suppressed_team_may_not_fire():
    state = _duel()
    state.team("sq1").suppression = 1
    line = fire.shot_line(state, state.team("sq1"), state.unit("gren"), "bar")
    assert isinstance(line, str) and "suppressed" in line


@pytest.mark.parametrize("moved,fired,cover,need", [
    (False, False, "none", 3), (True, False, "none", 5), (False, True, "hard", 3),
    (False, False, "hard", 2),
])
def test_gun_saves_and_the_footnote(moved, fired, cover, need):
    # Saves: Gun 5+/3+; "*Gun Teams that did not Move or Fire use Infantry Saves"
    state = fresh()
    gun = state.team("pak40")
    gun.moved, gun.fired = moved, fired
    assert saves.save_number(gun, cover) == need


def test_infantry_saves_three_and_two_in_hard_cover():
    state = fresh()
    assert saves.save_number(state.team("g1"), "none") == 3
    assert saves.save_number(state.team("g1"), "hard") == 2


def test_vehicle_damage_table():
    # Vehicle Damage Table: 1-3 No Effect, 4-5 1 Suppression, 6 Destroyed
    assert [saves.damage_result(n) for n in (1, 3, 4, 5, 6, 7)] == [
        "none", "none", "suppressed", "suppressed", "destroyed", "destroyed"]


def test_armour_only_at_harms_and_behind_adds_one():
    # Armor Saves: only AT weapons harm armoured teams; +1 from behind the front line
    state = fresh()
    park(state)
    put(state, "sherman", 20, 20, facing=270)  # facing north
    put(state, "mg", 20, 28)  # behind it
    put(state, "g1", 24, 27)
    put(state, "g2", 25, 27)
    tank = state.unit("tank")
    result = resolve_fire(state, [state.team("mg")], tank, ScriptedDice([6] * 5), Fire())
    assert result.hits == 5 and not result.casualties  # MG hits cannot be allocated to armour
    sherman = state.team("sherman")
    hit = saves.armour_hit(ScriptedDice([2, 5]), sherman, (20, 28), 0.75)
    assert hit.part == "hull" and hit.behind and hit.result == "destroyed"  # 5 +1 = 6
    hit = saves.armour_hit(ScriptedDice([2, 3]), sherman, (20, 10), 0.75)
    assert not hit.behind and hit.result == "none"


def test_hull_or_turret_die_when_they_face_apart():
    # "If the target tank is exposing the front of its hull but the rear of its turret ...
    # roll a die to see which it hits; 1-3=Hull, 4-6= Turret."
    state = fresh()
    tank = put(state, "sherman", 20, 20, facing=270)
    tank.turret = 90  # turret turned to the rear
    hit = saves.armour_hit(ScriptedDice([5, 1, 4]), tank, (20, 10), 0.75)
    assert hit.part == "turret" and hit.part_die == 5 and hit.behind and hit.result == "suppressed"


def test_no_fire_through_friends_but_guns_over_infantry():
    # Firing: "Teams may not fire through friendly Teams, though Gun and Tank Teams may fire
    # over Infantry Teams."
    state = _duel()
    put(state, "sq2", 10, 25)
    assert fire.friendly_in_the_way(state, state.team("sq1"), (10, 20)) == "sq2"
    put(state, "sherman", 10, 32, facing=270)
    assert fire.friendly_in_the_way(state, state.team("sherman"), (10, 20)) is None


def test_guns_fire_only_in_their_forward_arc():
    # Firing: "All other Teams may only fire within their forward 180° arc"
    state = fresh()
    park(state)
    put(state, "pak40", 20, 20, facing=90)  # facing south
    put(state, "sherman", 20, 10, facing=90)  # north of it: behind
    line = fire.shot_line(state, state.team("pak40"), state.unit("tank"), "pak40")
    assert isinstance(line, str) and "arc" in line
    put(state, "sherman", 20, 30)
    assert isinstance(fire.shot_line(state, state.team("pak40"), state.unit("tank"), "pak40"), fire.ShotLine)


def test_area_terrain_seen_into_not_beyond():
    # Cover & Terrain: "Units may see into Area Terrain ... but not beyond it."
    state = fresh("hedgerow_village")
    from rules.skirmish import terrain
    assert terrain.line_of_sight(state, (40, 40), (40, 30))  # into the wood
    assert not terrain.line_of_sight(state, (40, 40), (40, 20))  # through it
    # tall bocage blocks, unless a team touches it
    assert not terrain.line_of_sight(state, (10, 36), (10, 26))
    assert terrain.line_of_sight(state, (10, 31.8), (10, 26))


def test_the_owners_standing_choice_among_equals_protects_a_team():
    # Firing: the target allocates; among teams of the same class the owner may keep hits off
    # a team (defaults protect), here the PL, though it is the nearest
    state = _duel()
    put(state, "ltn", 10, 21)  # nearer than g1 now
    put(state, "g1", 12, 20)
    state.policies["germans"] = {"protect": "ltn"}
    dice = ScriptedDice([3, 6, 1] + [6, 6])
    result = resolve_fire(state, [state.team("sq1")], state.unit("gren"), dice, Fire())
    assert "Hits allocated: g1 1, ltn 1" in " ".join(e.text for e in result.events)
    state = _duel()
    state.policies["germans"] = {"protect": "g1"}
    dice = ScriptedDice([3, 1, 1] + [6])
    result = resolve_fire(state, [state.team("sq1")], state.unit("gren"), dice, Fire())
    assert "Hits allocated: ltn 1" in " ".join(e.text for e in result.events)
