"""Rules of the text not covered elsewhere, each by its heading, with scripted dice: Run,
Suppression (double suppression, markers moving on, unsuppressing), soft-skinned saves,
linear obstacles and tall walls (Cover & Terrain), Forward Observers."""

from __future__ import annotations

from rules.skirmish import fire, saves, suppression, terrain
from rules.skirmish.fire import Fire, resolve_fire
from tests.skirmish.helpers import LoadedDice, fresh, park, put


def test_run_rerolls_successful_saves_when_hit():
    # Actions: "Run: Unit may Move twice (but must reroll successful Saves when hit)"
    state = fresh()
    park(state)
    put(state, "g1", 20, 20)
    put(state, "sq1", 20, 26)
    state.unit("1pl").running = True
    # g1 2 FP: 6 6 both hit sq1 (the only team in range); saves 5 5 pass, rerolled 1 5
    result = resolve_fire(state, [state.team("g1")], state.unit("1pl"),
                          LoadedDice([6, 6, 5, 5, 1, 5], 1), Fire())
    save = next(e.text for e in result.events if e.kind == "save")
    assert save.startswith("sq1 saves 3+ 🎲5 5 (successes rerolled: 1 5) → 1 failed")


def test_double_suppression_only_when_every_team_is_suppressed():
    # Suppression: "If every Team in a Unit is suppressed, Teams may become double suppressed"
    unit = fresh().unit("gren")
    placed = suppression.place_markers(unit, len(unit.teams) + 1)
    assert sorted(t.suppression for t in unit.teams) == [1] * (len(unit.teams) - 1) + [2]
    assert placed[-1] == placed[0]  # the second marker goes round again from the first


def test_markers_move_on_when_a_suppressed_team_becomes_a_casualty():
    # Suppression: "When a suppressed Team becomes a casualty, simply move their suppression
    # markers to another Team in the Unit."
    state = fresh()
    unit = state.unit("gren")
    state.team("g1").suppression = 2
    suppression.remove_team(unit, state.team("g1"))
    assert unit.markers == 2 and not state.team("g1").alive


def test_unsuppressing_a_passed_check_clears_all_a_failed_one_takes_one_off():
    # Suppression: "If a suppressed Unit successfully makes its next Training Check, all
    # suppression is removed. If it fails, one suppression marker is removed and the Unit
    # may only choose from the Fail Actions list."
    state = fresh()
    unit = state.unit("gren")
    state.team("g1").suppression, state.team("g2").suppression = 2, 1
    assert "one suppression marker removed (g1)" in suppression.unsuppress(unit, False)
    assert unit.markers == 2
    assert suppression.unsuppress(unit, True) == "all suppression removed" and unit.markers == 0


def test_soft_skinned_teams_save_like_guns():
    # Saves: "Soft Skinned Teams roll for saves like Gun Teams": 5+, 3+ in hard cover
    truck = fresh().team("sherman").model_copy(update={"armoured": False})
    assert saves.save_number(truck, "none") == 5 and saves.save_number(truck, "hard") == 3
    # the Gun footnote is for guns: a soft-skinned team that did not move still saves 5+
    assert not truck.moved and saves.save_number(truck, "soft") == 5


def test_a_linear_obstacle_covers_only_from_the_far_side():
    # Cover & Terrain: teams lining an obstacle have its cover only against fire across it
    state = fresh("hedgerow_village")
    park(state)
    behind = put(state, "sq1", 10, 31.8)  # touching the west hedge (y = 31), south of it
    assert terrain.team_cover(state, behind, (10, 20)) == "soft"  # fired on across the hedge
    assert terrain.team_cover(state, behind, (10, 40)) == "none"  # from its own side


def test_tall_walls_and_bocage_block_line_of_sight():
    # Cover & Terrain: "Walls or bocage that are taller than Teams block line of site"
    state = fresh("hedgerow_village")
    assert not terrain.line_of_sight(state, (10, 25), (10, 37))  # the hedge, 2" tall
    assert terrain.line_of_sight(state, (10, 31.8), (10, 25))  # a team touching it sees over
    assert terrain.line_of_sight(state, (18, 20.5), (18, 26))  # the wall is 0.5" (under 1")


def test_forward_observers_are_never_suppressed_and_gone_to_ground_in_cover():
    # Forward Observers: "Firing at FOs will never result in suppression. Lastly, FOs in
    # concealing terrain are considered Gone to Ground, even if they move, fire, or observe."
    state = fresh("hedgerow_village")
    park(state)
    fo = put(state, "fo", 40, 28)  # in the wood (soft cover)
    fo.moved = True
    assert fire.gone_to_ground(state, fo)
    put(state, "fo", 24, 40)
    put(state, "sq1", 24, 34)
    put(state, "sq2", 26, 34)
    # 6 FP hit the lone FO (3 from each squad): no suppression for them; saves 6 all pass
    result = resolve_fire(state, [state.team("sq1"), state.team("sq2")], state.unit("mortars"),
                          LoadedDice([6] * 6 + [6] * 6, 6), Fire())
    assert result.hits == 6 and state.team("fo").alive
    assert state.unit("mortars").markers == 0
