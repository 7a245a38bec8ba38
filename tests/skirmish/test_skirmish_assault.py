"""Assaults and Indirect Fire (barrages, smoke), with scripted dice (by heading)."""

from __future__ import annotations

import pytest

from rules.core import table
from rules.core.dice import ScriptedDice
from rules.core.errors import RuleError
from rules.skirmish import assault, barrage, terrain
from tests.skirmish.helpers import fresh, park, put


def _close():
    state = fresh()
    park(state)
    put(state, "sq1", 10, 30)
    put(state, "sq2", 13, 30)
    put(state, "g1", 10, 22)
    put(state, "g2", 13, 22)
    return state


def test_charge_moves_up_to_12_into_contact():
    # Assaults: "Move up to 12" as to be in base to base contact ... or as close as possible"
    state = _close()
    movers = [state.team("sq1"), state.team("sq2")]
    assault.charge(state, movers, state.unit("gren"))
    assert all(assault.in_contact(state, t, state.unit("gren").alive_teams) for t in movers)
    assert table.distance(state.team("sq1").pos, (10, 22)) == pytest.approx(1.5)


@pytest.mark.parametrize("hits,tank,armoured,expected", [
    (4, 0, False, False), (5, 0, False, True), (9, 1, True, False), (0, 2, True, True),
])
def test_assault_halted_at_5_hits_or_2_results_on_tanks(hits, tank, armoured, expected):
    assert assault.halted(hits, tank, armoured) is expected


def test_halted_teams_in_contact_fall_back_to_a_2_inch_gap():
    state = _close()
    put(state, "sq1", 10, 23.5)
    assault.fall_back(state, [state.team("sq1")], state.unit("gren"))
    assert table.distance(state.team("sq1").pos, (10, 22)) == pytest.approx(3.5)


def test_fight_each_team_within_2_checks_and_removes_no_saves():
    # Assaults: "each Team within 2" of an enemy makes a Training Check, removing an enemy
    # Team within 2" ... No saves are rolled."
    state = _close()
    put(state, "sq1", 10, 23.5)
    put(state, "sq2", 13, 23.5)
    events, killed = assault.fight(state, state.unit("1pl"), state.unit("gren"), ScriptedDice([4, 3]))
    assert killed == ["g1"]  # Trained 4+: the 4 kills, the 3 does not
    assert "no effect" in events[1].text


def test_infantry_against_a_tank_use_the_tank_assault_rating():
    # Assaults: "Infantry and Gun Teams roll a number of Training Checks equal to their Tank
    # Assault rating. For each success, the assaulted Tank Team will roll an armor save"
    state = fresh()
    park(state)
    put(state, "sherman", 20, 20, facing=270)
    put(state, "g1", 20, 21.5)  # behind it: +1 on the damage table
    # g1 rating 2: check 4 passes, armour save 2 fails (3+), damage 5 +1 = 6 destroyed
    events, killed = assault.fight(state, state.unit("gren"), state.unit("tank"), ScriptedDice([4, 2, 5]))
    assert killed == ["sherman"]


def test_tanks_never_assault_tanks():
    state = fresh()
    park(state)
    put(state, "sherman", 20, 20)
    put(state, "pak40", 20, 21.5)  # a gun, not a tank: fought
    events, killed = assault.fight(state, state.unit("tank"), state.unit("pak"), ScriptedDice([4]))
    assert killed == ["pak40"]


def test_break_off_and_the_caught_teams_die():
    # Assaults: break off 1d6" away, the attacker follows 1d6", teams within 2" destroyed
    state = _close()
    put(state, "sq1", 10, 23.5)
    put(state, "sq2", 13, 23.5)
    events, killed = assault.break_off(state, state.unit("gren"), state.unit("1pl"), ScriptedDice([1, 6]))
    assert set(killed) == {"g1", "g2"}


def test_break_off_far_enough_escapes():
    state = _close()
    put(state, "sq1", 10, 23.5)
    put(state, "sq2", 13, 23.5)
    events, killed = assault.break_off(state, state.unit("gren"), state.unit("1pl"), ScriptedDice([6, 1]))
    assert killed == []


def test_suppression_per_casualty_after_the_assault():
    state = _close()
    event = assault.after_assault(state.unit("gren"), 2)
    assert state.unit("gren").markers == 2 and "2 suppression" in event.text


@pytest.mark.parametrize("fp,guns,expected", [(3, 2, 1), (3, 3, 3), (3, 4, 3), (3, 5, 4)])
def test_barrage_fp_by_guns(fp, guns, expected):
    # Indirect Fire: "+1 FP if more than 4 guns firing, ½ FP, rounded down, if fewer than 3"
    assert barrage.barrage_fp(fp, guns) == expected


def test_single_guns_may_not_barrage():
    with pytest.raises(RuleError, match="Single guns"):
        barrage.barrage_fp(3, 1)


def test_template_aligned_to_the_firing_unit_and_teams_under_it():
    state = fresh()
    park(state)
    put(state, "sq1", 20, 30)
    put(state, "sq2", 22.5, 30)
    put(state, "sq3", 27, 30)
    square = barrage.template((20, 30), (20, 3))
    under = {t.id for t in barrage.under(state, square)}
    assert {"sq1", "sq2"} <= under and "sq3" not in under


def test_barrage_hits_saves_and_the_extra_suppression():
    # Indirect Fire: FP per team under it; "an additional suppression is added simply for
    # being attacked by artillery"
    state = fresh()
    park(state)
    put(state, "sq1", 20, 30)
    mortars = state.unit("mortars")
    # 3 mortars: FP 3 as printed; vs Trained 3+: 6 5 1 = 2 hits; saves 3+: 1 (fail), 4
    events = barrage.fire_barrage(state, mortars, (20, 30), barrage.centre_of(barrage.barrage_guns(state, mortars)),
                                  ScriptedDice([6, 5, 1, 1, 4]), state.team("fo"))
    assert not state.team("sq1").alive
    assert state.unit("1pl").markers == 1  # 2 hits: no marker for hits, +1 for artillery
    assert any("artillery" in e.text for e in events)


def test_ranging_in_plus_one_with_the_cc_observing():
    state = fresh()
    park(state)
    put(state, "sq1", 20, 30)
    put(state, "hptm", 20, 20)
    mortars = state.unit("mortars")
    ranging = barrage.range_in(state, mortars, state.team("hptm"), state.team("sq1"), (20, 30), ScriptedDice([3]))
    assert not ranging.hit and "CC observing" in ranging.events[0].text


def test_obstacle_height_rule():
    # Indirect Fire: "as far away from the obstacle as the obstacle is tall"
    state = fresh("hedgerow_village")
    gun = put(state, "m1", 18, 14, facing=90)  # 2" north of the church (5" tall)
    assert "tall" in barrage.obstacle_clear(state, gun, (18, 26))
    put(state, "m1", 18, 9.5, facing=90)
    gun.x, gun.y = 24, 8
    assert barrage.obstacle_clear(state, gun, (18, 26)) is None


def test_smoke_blocks_line_of_sight_and_needs_two_guns():
    # Smoke: "treated as area terrain, which conceals everything inside it, and blocks LOS"
    state = fresh()
    mortars = state.unit("mortars")
    barrage.lay_smoke(state, mortars, (20, 20), (30, 3))
    assert not terrain.line_of_sight(state, (20, 10), (20, 30))
    assert terrain.in_smoke(state, (20, 20))
    for gun in mortars.teams[1:3]:
        gun.alive = False
    with pytest.raises(RuleError, match="two guns"):
        barrage.lay_smoke(state, mortars, (20, 20), (30, 3))


def test_missed_template_moves_at_most_6():
    assert barrage.drift((10, 10), (16, 10)) == (16, 10)
    with pytest.raises(RuleError, match="at most 6"):
        barrage.drift((10, 10), (16.5, 10))


def _lone_sherman():
    """Issue 46: grenadiers in a file behind their Leutnant, assaulting a lone Sherman."""
    state = fresh()
    park(state)
    put(state, "sherman", 20, 20, facing=270)
    put(state, "ltn", 20, 23)
    put(state, "g3", 20, 26.1)
    put(state, "g2", 20, 29.1)
    return state


def _bases_apart(state):
    teams = state.teams()
    r = state.table.base_radius
    return all(table.distance(a.pos, b.pos) >= 2 * r - 1e-6
               for i, a in enumerate(teams) for b in teams[i + 1:])


def test_charge_goes_to_a_free_contact_place_beside_a_friend():
    # Assaults: "Move up to 12" as to be in base to base contact with the assaulted Unit,
    # or as close as possible": the Leutnant takes the nearest place; g3 and g2 go round
    # him to other places beside the Sherman, not to a stop behind him.
    state = _lone_sherman()
    movers = [state.team(t) for t in ("ltn", "g3", "g2")]
    starts = {t.id: t.pos for t in movers}
    events = assault.charge(state, movers, state.unit("tank"))
    tank = state.unit("tank").alive_teams
    assert all(assault.in_contact(state, t, tank) for t in movers)
    assert _bases_apart(state)
    marks = [m for m in state.marks if m.kind == "assault"]
    assert all(table.path_length(m.points) <= assault.CHARGE + 1e-6 for m in marks)
    assert all(m.points[0] == starts[m.by[0]] for m in marks)
    assert "into contact with sherman" in events[1].text


def test_charge_does_not_pass_through_other_bases():
    # Assaults: the move is a Move ("may Move up to 12""): no base goes through another.
    state = _lone_sherman()
    movers = [state.team(t) for t in ("ltn", "g3", "g2")]
    assault.charge(state, movers, state.unit("tank"))
    r = state.table.base_radius
    others = {t.id: t.pos for t in state.teams()}
    for mark in (m for m in state.marks if m.kind == "assault"):
        for a, b in zip(mark.points, mark.points[1:]):
            for key, centre in others.items():
                if key in mark.by:
                    continue
                # the moving base never overlaps a base standing where it was then
                assert table.distance_to_segment(centre, a, b) >= 2 * r - 0.01 or key in ("ltn", "g3", "g2")


def test_counter_attack_moves_4_to_contact_or_as_close_as_possible():
    # Assaults: counter attack: "move any Teams not in base to base contact up to 4", as to
    # be in base contact or as close as possible"; the reply says what stopped a short team.
    state = fresh()
    park(state)
    put(state, "sq1", 20, 20)
    put(state, "g1", 20, 23)   # 1.5" gap: in reach of 4"
    put(state, "g2", 20, 30)   # 8.5" gap: 4" leaves it 4.5" short
    events = assault.counter_move(state, state.unit("gren"), state.unit("1pl"))
    assert assault.in_contact(state, state.team("g1"), [state.team("sq1")])
    assert table.distance(state.team("g2").pos, (20, 20)) == pytest.approx(6.0, abs=0.01)
    said = next(e.text for e in events if e.text.startswith("g2 "))
    assert said == ('g2 charges 4.0" at sq1: 4.5" short, its 4.0" move does not reach '
                              '(Assaults)')


def test_charge_blocked_by_a_ring_of_friends_says_so():
    # Assaults: "or as close as possible": every place round sq1 taken, g3 closes up
    # against the ring and the reply names the base that stopped it.
    state = fresh()
    park(state)
    put(state, "sq1", 20, 20)
    ring = ["ltn", "g1", "g2", "mg", "hptm", "fo"]
    import math
    for i, tid in enumerate(ring):
        a = math.radians(i * 60)
        put(state, tid, 20 + 1.5 * math.cos(a), 20 + 1.5 * math.sin(a))
    put(state, "g3", 20, 26)
    events = assault.charge(state, [state.team("g3")], state.unit("1pl"))
    assert not assault.in_contact(state, state.team("g3"), [state.team("sq1")])
    assert events[0].text.endswith("short, g1's base is in the way (Assaults)")
    assert table.distance(state.team("g3").pos, (20, 20)) < 6 - 2.5  # it did close in
    assert _bases_apart(state)


def test_short_of_reach_a_team_behind_a_friend_still_closes_in():
    # Assaults: "or as close as possible": g3, 18.5" from sq1 with g1 touching it in front,
    # goes round g1 for its 12" instead of standing still.
    state = fresh()
    park(state)
    put(state, "sq1", 20, 10)
    for i, tid in enumerate(("lt", "sq2", "sq3", "bz")):  # the rest of 1pl further off
        put(state, tid, 14 + 4 * i, 4)
    put(state, "g3", 20, 30)
    put(state, "g1", 20, 28.5)
    events = assault.charge(state, [state.team("g3")], state.unit("1pl"))
    gone = table.path_length(next(m for m in state.marks if m.kind == "assault").points)
    assert gone == pytest.approx(12.0, abs=0.05)
    assert table.distance(state.team("g3").pos, (20, 10)) < 10  # from 20: round g1, 12" on
    assert "its 12.0\" move does not reach" in events[0].text
    assert _bases_apart(state)
