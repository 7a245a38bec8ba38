"""Shooting, Pillboxes, 2" Mortar, Hand to Hand and Demolition (commando-raid.txt)."""

from __future__ import annotations

import pytest

from rules.core import table
from rules.core.errors import RuleError
from tests.commando.checks import check_invariants
from tests.commando.helpers import arrange, order, texts


def test_worked_example_half_track_ambush() -> None:
    """Shooting, worked example: a 5 gives three shots; the half-track is armoured so 5+ is
    needed; two hits; saves on 4+, one saved and one failed, so it is eliminated."""
    state = arrange({"A1": (24, 20), "HT1": (29, 20)})  # 5" away: no range modifier
    rolled = order(state, "roll", dice=[5]).state  # the black die
    assert rolled.unit("A1").actions == 3
    step = order(rolled, "shoot", unit="A1", target="HT1", dice=[5, 6, 3, 4, 2])
    lines = texts(step)
    assert "🎲 5 6 3 -1 armoured: need 5+ → 2 hits" in lines  # the red dice
    assert "HT1 saves 🎲 4 2: need 4+ → 1 fail: eliminated" in lines  # the green dice
    assert not step.state.unit("HT1").alive
    assert step.state.unit("A1").actions == 0


def test_save_on_4_plus_keeps_the_target() -> None:
    """Shooting: the target saves on 4+; 1-3 eliminates it."""
    state = arrange({"A1": (24, 14), "G1": (24, 18)}, actions={"A1": 1})
    step = order(state, "shoot", unit="A1", target="G1", dice=[4, 4])
    assert step.state.unit("G1").alive
    assert "G1 saves 🎲 4: need 4+ → 0 fails: all saved" in texts(step)
    step = order(state, "shoot", unit="A1", target="G1", dice=[4, 3])
    assert not step.state.unit("G1").alive


def test_miss_needs_no_save() -> None:
    """Shooting: a modified score under 4 misses."""
    state = arrange({"A1": (24, 14), "G1": (24, 18)}, actions={"A1": 2})
    step = order(state, "shoot", unit="A1", target="G1", shots=2, dice=[3, 1])
    assert "need 4+ → 0 hits" in texts(step)
    assert step.state.unit("G1").alive


def test_minus_one_beyond_6_inches_and_range_12() -> None:
    """Shooting: -1 if more than 6"; all ranges are 12"."""
    state = arrange({"A1": (24, 4), "G1": (24, 14)}, actions={"A1": 1})
    step = order(state, "shoot", unit="A1", target="G1", dice=[4])
    assert '🎲 4 -1 over 6": need 5+ → 0 hits' in texts(step)
    far = arrange({"A1": (24, 4), "G1": (24, 16.5)}, actions={"A1": 1})
    with pytest.raises(RuleError, match='G1 is 12.5" away; shooting range is 12"'):
        order(far, "shoot", unit="A1", target="G1")


def test_cover_minus_one_when_the_target_is_in_a_building() -> None:
    """Shooting: "-1 if the target unit in cover": G1's base touches the hut."""
    inside = arrange({"A1": (22, 16), "G1": (22, 19.6)}, actions={"A1": 1})
    step = order(inside, "shoot", unit="A1", target="G1", dice=[4])
    assert 'A1 shoots G1 at 3.6", in Hut (Shooting)' in texts(step)
    assert "-1 cover: need 5+" in texts(step)
    clear = arrange({"A1": (18, 26), "G1": (23, 26)}, actions={"A1": 1})
    assert "need 4+" in texts(order(clear, "shoot", unit="A1", target="G1", dice=[1]))


@pytest.mark.parametrize(("shooter_at", "target_at"), [
    ((28, 8), (39, 8)),  # the line of fire crosses the crates, G1 stands clear beyond them
    ((18, 22), (26, 22)),  # the line of fire crosses the hut, G1 stands clear beyond it
    ((19.6, 22), (25, 22)),  # A1's base touches the hut's wall; G1 clear on the far side
])
def test_cover_only_on_the_line_of_fire_gives_no_minus_one(
    shooter_at: tuple[float, float], target_at: tuple[float, float]
) -> None:
    """Shooting: "-1 if the target unit in cover".  The rule counts cover the *target* is in:
    a piece the shot passes over, the target standing clear of it, gives no -1."""
    state = arrange({"A1": shooter_at, "G1": target_at}, actions={"A1": 1})
    lines = texts(order(state, "shoot", unit="A1", target="G1", dice=[5, 4]))
    assert "-1 cover" not in lines and "through" not in lines
    assert "→ 1 hit" in lines


def test_cover_is_named_when_the_target_stands_in_it() -> None:
    """Shooting: "-1 if the target unit in cover": the line names the piece it is in."""
    state = arrange({"A1": (28, 8), "G1": (36, 8)}, actions={"A1": 1})
    lines = texts(order(state, "shoot", unit="A1", target="G1", dice=[4]))
    assert 'A1 shoots G1 at 8.0", in Crates (Shooting)' in lines and "-1 cover" in lines


def test_pillbox_only_from_within_3_inches_at_minus_one() -> None:
    """Pillboxes: they can only be attacked from within 3"; -1 for a pillbox."""
    state = arrange({"A1": (24, 29), "PB1": (24, 33)}, actions={"A1": 2})
    with pytest.raises(RuleError, match='PB1 is 4.0" away; pillboxes can only be attacked'):
        order(state, "shoot", unit="A1", target="PB1")
    close = arrange({"A1": (24, 30.5), "PB1": (24, 33)}, actions={"A1": 1})
    step = order(close, "shoot", unit="A1", target="PB1", dice=[5, 3])
    assert "-1 pillbox: need 5+ → 1 hit" in texts(step)
    assert not step.state.unit("PB1").alive


def test_pillbox_fires_once_in_its_180_degree_arc() -> None:
    """Pillboxes: one shooting action, a 180 degree arc (PB1 faces south)."""
    rolled = arrange({"PB1": (24, 20), "A1": (24, 12), "D1": (24, 26)}, side="germans")
    with pytest.raises(RuleError, match="outside PB1's 180° arc"):
        order(rolled, "shoot", unit="PB1", target="D1")
    step = order(rolled, "shoot", unit="PB1", target="A1", dice=[6, 1])
    assert not step.state.unit("A1").alive
    with pytest.raises(RuleError, match="already fired"):
        order(step.state, "shoot", unit="PB1", target="D1")


def test_all_shots_together() -> None:
    """Shooting: all of a unit's shots are one order; it cannot shoot again."""
    state = arrange({"A1": (24, 14), "G1": (24, 18), "T1": (20, 14)}, actions={"A1": 3})
    step = order(state, "shoot", unit="A1", target="G1", shots=1, dice=[1])
    with pytest.raises(RuleError, match="already fired this turn"):
        order(step.state, "shoot", unit="A1", target="T1")


def test_searchlights_can_be_shot() -> None:
    """Searchlights can be eliminated just like any other unit."""
    state = arrange({"A1": (42, 30), "SL1": (46, 34)}, actions={"A1": 1})
    step = order(state, "shoot", unit="A1", target="SL1", dice=[4, 1])
    assert not step.state.unit("SL1").alive


def test_mortar_two_actions_five_or_six_no_save() -> None:
    """2" Mortar: two actions; 5 or 6 eliminates with no save roll."""
    state = arrange({"M1": (24, 4), "AC1": (24, 14)}, actions={"M1": 2})
    step = order(state, "mortar", unit="M1", target="AC1", dice=[5])
    assert not step.state.unit("AC1").alive
    assert texts(step) == (
        'M1 mortars AC1 at 10.0" (2" Mortar)\n🎲 5 need 5+ → AC1 eliminated, no save')

    miss = order(state, "mortar", unit="M1", target="AC1", dice=[4])
    assert miss.state.unit("AC1").alive and miss.state.unit("M1").actions == 0
    short = arrange({"M1": (24, 4), "AC1": (24, 14)}, actions={"M1": 1})
    with pytest.raises(RuleError, match='M1 has 1 action left; the 2" mortar needs 2'):
        order(short, "mortar", unit="M1", target="AC1")
    other = arrange({"A1": (24, 4), "AC1": (24, 14)}, actions={"A1": 3})
    with pytest.raises(RuleError, match='A1 has no 2" mortar'):
        order(other, "mortar", unit="A1", target="AC1")


def test_worked_example_assault_best_of_two_5_beats_4() -> None:
    """Hand to Hand, worked example: the commandos' best of two dice, 5, beats the German 4."""
    state = arrange({"A1": (22, 14), "G1": (22, 19)}, actions={"A1": 1})
    step = order(state, "assault", unit="A1", target="G1", dice=[2, 5, 4])
    assert not step.state.unit("G1").alive
    assert step.state.unit("A1").alive
    assert "🎲 A1 2,5 → 5 vs G1 4\nG1 eliminated, no save (Hand to Hand)" in texts(step)
    assert table.distance(step.state.unit("A1").pos, (22, 19)) == pytest.approx(1.0, abs=0.01)


def test_assault_draws_rerolled_and_the_defender_can_win() -> None:
    """Hand to Hand: draws are re-rolled with one die each; the higher eliminates the other."""
    state = arrange({"A1": (22, 18), "G1": (22, 19)}, actions={"A1": 1})
    step = order(state, "assault", unit="A1", target="G1", dice=[3, 4, 4, 2, 6])
    assert not step.state.unit("A1").alive and step.state.unit("G1").alive
    lines = texts(step)
    assert "🎲 A1 3,4 → 4 vs G1 4\ndraw: re-roll 🎲 A1 2 vs G1 6\nA1 eliminated" in lines


def test_assault_ignores_the_6_inch_halt_but_needs_reach() -> None:
    """Movement/Hand to Hand: a move to assault is not stopped 6" out; it must reach contact."""
    state = arrange({"A1": (22, 8), "G1": (22, 19)}, actions={"A1": 2})
    step = order(state, "assault", unit="A1", target="G1", dice=[6, 1, 1])
    assert step.state.unit("A1").actions == 0  # 10" charge: two actions
    short = arrange({"A1": (22, 4), "G1": (22, 19)}, actions={"A1": 2})
    with pytest.raises(RuleError, match='A1 can move at most 12" with 2 actions \\(Movement\\); that is 14.0"'):
        order(short, "assault", unit="A1", target="G1")
    wired = arrange({"A1": (14, 6), "G1": (14, 14)}, actions={"A1": 2})
    with pytest.raises(RuleError, match="cannot reach G1 .* stopped at Wire W1"):
        order(wired, "assault", unit="A1", target="G1")


def test_assault_only_by_commando_assault_units_never_on_pillboxes() -> None:
    """Hand to Hand: only commando assault units, against all units except pillboxes."""
    state = arrange({"A1": (24, 31), "D1": (23, 31), "PB1": (24, 33), "G1": (4, 20)},
                    actions={"A1": 1, "D1": 1})
    with pytest.raises(RuleError, match="pillboxes cannot be assaulted"):
        order(state, "assault", unit="A1", target="PB1")
    with pytest.raises(RuleError, match="Only commando assault units"):
        order(state, "assault", unit="D1", target="G1")


def test_demolition_success_bang_and_3_inch_withdrawal() -> None:
    """Demolition: two actions in contact; 4-6 destroys the target and the unit moves 3"."""
    state = arrange({"D1": (6.5, 31), "G1": (40, 4)}, actions={"D1": 2})
    step = order(state, "demolish", unit="D1", target="bunker", dice=[4])
    assert "bunker" in step.state.destroyed
    assert step.state.unit("D1").pos == pytest.approx((9.5, 31), abs=0.01)
    assert texts(step) == (
        "D1 sets charges: Bunker (Demolition)\n🎲 4 need 4+ → 💥 BANG! Bunker destroyed\n"
        'D1 falls back 3.0" (Demolition)')
    assert step.state.unit("D1").actions == 0


def _fell_back(keep: dict[str, tuple[float, float]], target: str = "bunker") -> (
    tuple[str, float, tuple[float, float]]
):
    """Blow ``target`` with D1 (placed in ``keep``) on a 6: (fall-back line, inches, end)."""
    state = arrange(keep, actions={"D1": 2})
    step = order(state, "demolish", unit="D1", target=target, dice=[6])
    check_invariants(step.state)  # clear of every base, on the table, out of obstacles
    line = texts(step).splitlines()[-1]
    end = step.state.unit("D1").pos
    return line, table.distance(keep["D1"], end), end


def test_demolition_fall_back_passes_through_friends_the_full_3_inches() -> None:
    """Demolition: "the unit moves 3 inches away"; Movement: "Units may pass through friendly
    units without penalty".  A friend on the 3" point does not cut the fall-back short: the
    unit goes on along the line to the first clear ground (bases never overlap)."""
    line, moved, end = _fell_back({"D1": (6.5, 31), "A1": (9.5, 31), "G1": (40, 4)})
    assert line == ('D1 falls back 4.0" (Demolition): on through A1\'s base to clear ground '
                    "(bases never overlap)")
    assert end == pytest.approx((10.5, 31), abs=0.01) and moved >= 3.0


def test_demolition_fall_back_turns_off_the_line_when_straight_on_is_blocked() -> None:
    """Demolition: when the 3" point is a friend's and an enemy base stands behind it, the
    unit takes the nearest clear point on the 3" arc instead (still 3" away, not short)."""
    line, moved, end = _fell_back({"D1": (6.5, 31), "A1": (9.5, 31), "G1": (11, 31)})
    assert line == ("D1 falls back 3.0\" (Demolition): turned 19° off straight back to clear "
                    "A1's base")
    assert moved == pytest.approx(3.0, abs=0.01) and table.distance(end, (9.5, 31)) >= 0.999


def test_demolition_fall_back_stops_short_only_for_what_blocks_a_move() -> None:
    """Demolition, Movement: the fall-back stops short at the table edge or an enemy base
    (no move crosses them), and the line says why."""
    line, _, _ = _fell_back({"D1": (44, 2.5), "G1": (4, 20)}, target="gun")
    assert line == 'D1 falls back 2.0" (Demolition): short of 3", stopped at the table edge'
    line, _, _ = _fell_back({"D1": (6.5, 31), "G1": (8.5, 31)})
    assert line == 'D1 falls back 1.0" (Demolition): short of 3", stopped in contact with G1'
    line, _, _ = _fell_back({"D1": (6.5, 31), "A1": (8.5, 31), "G1": (10, 31)})
    assert line == ('D1 falls back 1.0" (Demolition): short of 3", stopped in contact with G1, '
                    "then back clear of A1's base (bases never overlap)")


def test_demolition_failure_stays_put() -> None:
    """Demolition: on 1-3 the charges fail and the unit remains in place."""
    state = arrange({"D1": (6.5, 31), "G1": (40, 4)}, actions={"D1": 3})
    step = order(state, "demolish", unit="D1", target="Bunker", dice=[3])
    assert step.state.destroyed == [] and step.state.unit("D1").pos == (6.5, 31)
    assert "🎲 3 need 4+ → failed; D1 stays put" in texts(step)


def test_demolition_needs_contact_a_demolition_unit_and_two_actions() -> None:
    """Demolition: in contact, demolition units only, two actions."""
    state = arrange({"D1": (9, 31), "A1": (6.5, 30), "G1": (40, 4)},
                    actions={"D1": 2, "A1": 3})
    with pytest.raises(RuleError, match='D1 is 2.5" from Bunker; it must be in contact'):
        order(state, "demolish", unit="D1", target="bunker")
    with pytest.raises(RuleError, match="Only commando demolition units"):
        order(state, "demolish", unit="A1", target="bunker")
    one = arrange({"D1": (6.5, 31), "G1": (40, 4)}, actions={"D1": 1})
    with pytest.raises(RuleError, match="D1 has 1 action left; a demolition needs 2"):
        order(one, "demolish", unit="D1", target="bunker")


def test_moving_onto_a_target_stops_in_contact() -> None:
    """Demolition: a unit sent to a target stops touching it, ready to set charges."""
    state = arrange({"D1": (12, 31), "G1": (40, 4)}, actions={"D1": 3})
    moved = order(state, "move", unit="D1", to="bunker").state
    assert moved.unit("D1").x == pytest.approx(6.5, abs=0.01)
    step = order(moved, "demolish", unit="D1", target="bunker", dice=[6])
    assert "bunker" in step.state.destroyed


def test_gun_emplacements_are_targets_that_never_fire() -> None:
    """Shooting: gun emplacements cannot fire at ground units; they are targets to put out
    of action (demolished like the others)."""
    germans = arrange({"D1": (44, 6.5), "T1": (2, 20)}, actions={"T1": 1}, side="germans")
    with pytest.raises(RuleError, match="There is no unit 'gun'"):
        order(germans, "shoot", unit="gun", target="D1")
    state = arrange({"D1": (44, 5.5), "T1": (2, 20)}, actions={"D1": 2})
    step = order(state, "demolish", unit="D1", target="gun", dice=[6])
    assert "gun" in step.state.destroyed


def test_searchlights_are_assaulted_like_any_other_unit() -> None:
    """Searchlights "can be eliminated just like any other unit": hand to hand too (only
    pillboxes are spared), and the charge ignores the 6" halt like any assault."""
    state = arrange({"A1": (40, 34), "SL1": (46, 34)}, actions={"A1": 1})
    step = order(state, "assault", unit="A1", target="SL1", dice=[5, 2, 3])
    assert not step.state.unit("SL1").alive
    assert "SL1 eliminated, no save (Hand to Hand)" in texts(step)
