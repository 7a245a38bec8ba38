"""Moving, Unit Cohesion, Morale and Leaders, with scripted dice (by heading)."""

from __future__ import annotations

import pytest

from rules.core.dice import ScriptedDice
from rules.core.errors import RuleError
from rules.skirmish import cohesion, leaders, morale, movement
from tests.skirmish.helpers import fresh, park, put


@pytest.mark.parametrize("team,budget", [("sq1", 6), ("pak40", 3), ("sherman", 12)])
def test_moving_distances(team, budget):
    # Moving: Infantry 6", Gun 3", Tank 12"
    assert movement.SPEED[fresh().team(team).kind] == budget


def test_moving_too_far_is_refused_with_the_figure():
    state = fresh()
    park(state)
    put(state, "sq1", 10, 30)
    with pytest.raises(RuleError, match='7.0" is too far'):
        movement.move_team(state, state.team("sq1"), (10, 23), ScriptedDice([]), 6)
    assert state.team("sq1").pos == (10, 30)


def test_guns_never_through_very_difficult_terrain():
    state = fresh("hedgerow_village")
    put(state, "pak40", 18, 14)  # on the road between the inn and the church
    with pytest.raises(RuleError, match="Very Difficult"):
        movement.move_team(state, state.team("pak40"), (18, 16.5), ScriptedDice([]), 3)


def test_tank_difficult_terrain_fails_on_a_one_and_is_suppressed_at_contact():
    # Moving: "Tank teams must roll a 2+ when moving through Difficult Terrain ... A failure
    # ... causes the Team to become suppressed at the point of contact"
    state = fresh("hedgerow_village")
    tank = put(state, "sherman", 40, 42, facing=270)
    result = movement.move_team(state, tank, (40, 32), ScriptedDice([1]), 12)
    assert result.bogged and tank.suppression == 1
    assert tank.y > 35  # stopped at the wood's edge
    tank = put(state, "sherman", 40, 42, facing=270)
    tank.suppression = 0
    result = movement.move_team(state, tank, (40, 32), ScriptedDice([2]), 12)
    assert not result.bogged and tank.pos == (40, 32)


def test_tank_very_difficult_needs_a_training_check():
    state = fresh("hedgerow_village")
    tank = put(state, "sherman", 10, 36, facing=270)  # south of the west bocage
    result = movement.move_team(state, tank, (10, 27), ScriptedDice([3]), 12)  # Trained 4+
    assert result.bogged and tank.suppression == 1


def test_no_move_into_contact_without_an_assault():
    state = fresh()
    park(state)
    put(state, "sq1", 10, 30)
    put(state, "g1", 10, 25)
    with pytest.raises(RuleError, match="Assault"):
        movement.move_team(state, state.team("sq1"), (10, 26.5), ScriptedDice([]), 6)


def test_cohesion_chains_through_teams_and_half_may_be_out():
    # Unit Cohesion: within 6" of the PL, or of a team within 6" of the PL; 50% rule
    state = fresh()
    unit = state.unit("1pl")
    put(state, "lt", 10, 30)
    put(state, "sq1", 15, 30)
    put(state, "sq2", 20, 30)  # 5" from sq1: chained
    put(state, "sq3", 40, 40)
    put(state, "bz", 40, 44)
    assert cohesion.in_cohesion(unit) == {"lt", "sq1", "sq2"}
    assert cohesion.enough(unit)  # 3 of 5
    put(state, "sq2", 30, 30)
    assert not cohesion.enough(unit)  # 2 of 5


def test_out_of_cohesion_team_takes_the_shortest_way_back():
    state = fresh()
    park(state)
    put(state, "lt", 10, 30)
    put(state, "sq1", 11, 33)
    put(state, "sq3", 10, 45)  # 15" away: out of cohesion
    with pytest.raises(RuleError, match="shortest path"):
        movement.move_team(state, state.team("sq3"), (16, 45), ScriptedDice([]), 6)
    movement.move_team(state, state.team("sq3"), (10, 39), ScriptedDice([]), 6)


def test_morale_below_half_with_casualties_checks_and_failing_removes():
    # Morale: "less than 50% of its starting number of Teams ... Training Check"
    state = fresh()
    unit = state.unit("gren")
    for team in unit.teams[:3]:
        team.alive = False
    unit.casualties_turn = 3
    assert morale.needs_check(unit)  # 2 of 5 left
    events = morale.end_of_turn(state, ScriptedDice([3]))  # Trained 4+: fails
    assert unit.destroyed and not unit.alive_teams
    assert "failed" in events[0].text and "retreats and is removed" in events[1].text


def test_morale_not_checked_without_new_casualties():
    state = fresh()
    unit = state.unit("gren")
    for team in unit.teams[:3]:
        team.alive = False
    unit.casualties_turn = 0
    assert not morale.needs_check(unit)


def test_company_retreat_at_half_units_lost():
    # Leaders: "If at least 50% of a Company's starting number of Units are destroyed ..."
    state = fresh()
    assert not morale.company_broken(state, "us")
    state.unit("1pl").destroyed = True
    assert morale.company_broken(state, "us")  # 1 of 2 (the HQ is not counted)
    holds, event = morale.company_check(state, "us", ScriptedDice([2]))  # Veteran 3+
    assert not holds and "retreat" in event.text
    state.unit("us-hq").teams[0].alive = False
    holds, event = morale.company_check(state, "us", ScriptedDice([]))
    assert not holds and "not on the table" in event.text


def test_leader_moves_suppression_once_per_initiative():
    # Leaders: "move suppression from a Team within 2" of the PL to another Team"
    state = fresh()
    put(state, "lt", 10, 30)
    put(state, "sq1", 11.5, 30)
    state.team("sq1").suppression = 1
    leaders.shift_suppression(state, state.team("lt"), state.team("sq1"), state.team("sq3"))
    assert state.team("sq3").suppression == 1 and state.team("sq1").suppression == 0
    with pytest.raises(RuleError, match="already"):
        leaders.shift_suppression(state, state.team("lt"), state.team("sq3"), state.team("sq1"))


def test_cc_appoints_a_new_pl():
    state = fresh()
    state.team("lt").alive = False
    put(state, "cpt", 10, 30)
    put(state, "sq1", 11.5, 30)
    leaders.appoint(state, state.team("cpt"), state.team("sq1"))
    assert state.unit("1pl").pl.id == "sq1"


def test_leaderless_unit_may_not_move_towards_visible_enemy():
    # Leaders: "Units without PLs may not move towards visible enemy."
    state = fresh()
    park(state)
    state.team("lt").alive = False
    put(state, "sq1", 10, 30)
    put(state, "g1", 10, 10)
    with pytest.raises(RuleError, match="no PL"):
        movement.move_team(state, state.team("sq1"), (10, 26), ScriptedDice([]), 6)
    movement.move_team(state, state.team("sq1"), (10, 34), ScriptedDice([]), 6)
