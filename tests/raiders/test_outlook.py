"""The computer player's reading of a Raiders mission (issue 43): rules/raiders/outlook.py.

Scripted states of the stand-in desert scenario, each asking one thing of the evaluation or
the order prior, quoting the rule it rests on.
"""

from __future__ import annotations

from rules.core.computer import think
from rules.raiders import SYSTEM
from rules.raiders import actions as A
from rules.raiders.campaign import prospects
from rules.raiders.outlook import mission_value, op_distances, order_prior, stop_spaces
from rules.raiders.scenario import load_scenario
from rules.raiders.state import Battle, RaidersState, Record
from tests.raiders.helpers import give, mission, mission_state, put


def value(state: RaidersState) -> float:
    """The mission's standing."""
    return mission_value(state)


def test_a_move_stops_at_stop_terrain_and_markers() -> None:
    """12.0: a force stops on entering STOP terrain or a space with an objective marker, so
    the operations to a space count those halts (Kufra to Siwa over the Great Sand Sea)."""
    state = mission_state("M1")
    sc, m = load_scenario(state.scenario), mission(state)
    free = op_distances(state.scenario, "kufra", 3, frozenset())
    halted = op_distances(state.scenario, "kufra", 3, stop_spaces(sc, m))
    assert free["siwa"] == 1
    assert halted["siwa"] == 2  # sand-sea (STOP) or wadi then on


def test_pioneers_nearer_a_target_stand_better() -> None:
    """8.0 (2), 12.0, 21.1: the same sapper party one Op from Martuba (a face-down marker of
    M1, 3 of 4 of them aircraft) stands better than one still in a far Staging Area."""
    near = put(mission_state("M1"), "gazala", "Spr-1", "SAS-1")
    far = put(mission_state("M1"), "kufra", "Spr-1", "SAS-1")
    assert value(near) > value(far)


def test_no_pioneer_no_demolition() -> None:
    """21.1: only pioneers demolish; a force without one does not bring a target closer."""
    sappers = put(mission_state("M1"), "gazala", "Spr-1", "SAS-1")
    others = put(mission_state("M1"), "gazala", "Cdo-1", "SAS-1")
    assert value(sappers) > value(others)


def test_explosives_raise_the_chance() -> None:
    """21.1, 23.4 (stand-in table): Explosives add 2 to the demolition roll."""
    plain = put(mission_state("M1"), "gazala", "Spr-1", "SAS-1")
    charged = put(mission_state("M1"), "gazala", "Spr-1", "SAS-1")
    give(charged, "Spr-1", "Exp-1")
    assert value(charged) > value(plain)


def test_a_destroyed_target_counts_more_than_a_chance() -> None:
    """6.0, 8.0 (2): one of M1's two targets destroyed is worth more than a party at it."""
    at_it = put(mission_state("M1"), "martuba", "Spr-1", "SAS-1")
    done = put(mission_state("M1"), "martuba", "Spr-1", "SAS-1")
    mark = mission(done).markers[0]
    mark.type, mark.revealed, mark.destroyed = "aircraft", True, True
    assert value(done) > value(at_it)


def test_the_objective_met_is_the_top() -> None:
    """11.1: the objective met, the mission can end won: the standing is 1."""
    state = put(mission_state("M1"), "martuba", "Spr-1")
    for mark in mission(state).markers[:2]:
        mark.type, mark.revealed, mark.destroyed = "aircraft", True, True
    assert value(state) == 1.0


def test_cargo_aboard_and_nearer_home_stands_better() -> None:
    """18.4, 8.0 (2) recover: the prisoners carried stand better than left in their space,
    and nearer a Staging Area better than farther."""
    state = put(mission_state("M3"), "msus", "Cdo-1", "SAS-1")
    mark = mission(state).markers[1]  # Msus
    mark.type, mark.revealed, mark.garrison_faced = "pow", True, True
    left = value(state)
    carried = state.model_copy(deep=True)
    cm = mission(carried)
    cm.markers[1].space = None
    next(u for u in cm.units if u.id == "Cdo-1").carrying = cm.markers[1].id
    aboard = value(carried)
    farther = carried.model_copy(deep=True)
    for u in mission(farther).units:
        if u.id in ("Cdo-1", "SAS-1"):
            u.space = "mechili"  # two Ops from Kufra at movement 2, Msus one
    assert left < aboard and value(farther) < aboard


def test_holding_the_space_beats_standing_next_to_it() -> None:
    """6.0, 8.0 (1), M4 "Hold Gialo at the end": a force in Gialo with its camp beaten holds
    it; one at Kufra still has the camp to beat."""
    outside = put(mission_state("M4"), "kufra", "SAS-1", "Cdo-1", "Cdo-2")
    inside = put(mission_state("M4"), "gialo", "SAS-1", "Cdo-1", "Cdo-2")
    mission(inside).camps.pop("gialo", None)
    assert value(inside) > value(outside)


def test_a_battle_going_well_stands_better() -> None:
    """15.1: a battle with more raiders left against the same hostiles is likelier won."""
    def fight(raiders: list[str]) -> RaidersState:
        state = put(mission_state("M1"), "gazala", "Spr-1", "SAS-1", "Cdo-1")
        m = mission(state)
        m.battle = Battle(space="gazala", source="card", raider_line=["Spr-1", "SAS-1", "Cdo-1"],
                          hostile_line=["Ger-1", "Ger-2"], lined=True,
                          dead=[r for r in ("Spr-1", "SAS-1", "Cdo-1") if r not in raiders])
        return state

    assert value(fight(["Spr-1", "SAS-1", "Cdo-1"])) > value(fight(["Spr-1"]))


def test_order_prior_tries_what_a_careful_player_would() -> None:
    """11.1 ending a met mission first; 12.0 a move towards a marker before one away; 10.3
    reshuffling forces last (it changes nothing by itself)."""
    state = put(mission_state("M1"), "bir-hakeim", "Spr-1", "SAS-1")
    towards = order_prior(state, "raiders", A.Move(force="F1", to="gazala"))
    away = order_prior(state, "raiders", A.Move(force="F1", to="jarabub"))
    assert order_prior(state, "raiders", A.EndMission()) == 1.0
    assert towards > away > order_prior(state, "raiders", A.Split(unit="SAS-1"))
    assert order_prior(state, "raiders", A.Demolish(unit="Spr-1", marker="Obj-1", explosives=True)) > towards


def test_prospects_single_and_between_missions() -> None:
    """6.0 alone for a single mission (its standing unscaled by a campaign); 25.3 between
    missions: the one just won stands far above the one just lost."""
    single = put(mission_state("M1", single=True), "gazala", "Spr-1", "SAS-1")
    assert abs(prospects(single) - (0.05 + 0.9 * value(single))) < 1e-9
    won = mission_state("M1")
    won.phase = "between"
    won.campaign.record.append(Record(mission="M1", won=True))
    lost = won.model_copy(deep=True)
    lost.campaign.record[-1].won = False
    assert prospects(won) > 0.75 > 0.25 > prospects(lost)


def test_the_computer_demolishes_a_target_in_reach() -> None:
    """21.1: a sapper with Explosives at a turned aircraft marker, in its Objective segment:
    the computer rolls the demolition (with the Explosives), not end-op."""
    state = put(mission_state("M1"), "martuba", "Spr-1", "SAS-1")
    give(state, "Spr-1", "Exp-1")
    m = mission(state)
    m.segment, m.force, m.moved = "objective", "F1", True
    mark = m.markers[0]
    mark.type, mark.revealed, mark.garrison_faced = "aircraft", True, True
    decision = think(SYSTEM, SYSTEM.observe(state, "raiders"), "raiders", "outlook-test", "normal")
    assert decision.path == "demolish" and decision.action.get("explosives") is True
