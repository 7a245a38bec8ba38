"""Movement and Barbed Wire (commando-raid.txt)."""

from __future__ import annotations

import pytest

from rules.core import table
from rules.core.errors import RuleError
from tests.commando.helpers import arrange, order, texts


def test_six_inches_per_action_in_a_straight_line() -> None:
    """Movement: commandos move 6" per action; 11" is two actions."""
    state = arrange({"A1": (24, 4), "G1": (4, 33)}, actions={"A1": 3})
    step = order(state, "move", unit="A1", to="35,4")
    unit = step.state.unit("A1")
    assert (unit.x, unit.y) == (35, 4)
    assert unit.actions == 1 and unit.moved
    assert 'A1 moves 11.0" → 35,4 (2 actions, Movement)' in texts(step)
    assert step.state.marks[-1].text == '11.0"'


def test_too_far_is_refused_with_the_figure() -> None:
    """Movement: an illegal order is refused with the distance measured."""
    state = arrange({"A1": (10, 4), "G1": (4, 33)}, actions={"A1": 2})
    with pytest.raises(RuleError, match='A1 can move at most 12" with 2 actions \\(Movement\\); that is 18.4"\\.'):
        order(state, "move", unit="A1", to="28.4,4")


def test_each_leg_is_a_straight_line() -> None:
    """Movement: each action is a straight line; two 4" legs cost two actions."""
    state = arrange({"A1": (24, 4), "G1": (4, 33)}, actions={"A1": 1})
    with pytest.raises(RuleError, match='A1 has 1 action; 8.0" in 2 legs needs 2 \\(one per 6" or part of each straight leg'):
        order(state, "move", unit="A1", to="28,8", via="28,4")
    state = arrange({"A1": (24, 4), "G1": (4, 33)}, actions={"A1": 2})
    step = order(state, "move", unit="A1", to="28,8", via="28,4")
    assert step.state.unit("A1").pos == (28, 8)
    assert step.state.marks[-1].points == [(24, 4), (28, 4), (28, 8)]


@pytest.mark.parametrize("vehicle", ["HT1", "AC1", "T1", "MC1"])
def test_vehicles_move_12_inches(vehicle: str) -> None:
    """Movement: armoured cars, trucks, motor-cycles and half-tracks move 12" per action."""
    state = arrange({vehicle: (30, 34), "A1": (4, 4)}, actions={vehicle: 1}, side="germans")
    step = order(state, "move", unit=vehicle, to="W:12")
    assert step.state.unit(vehicle).pos == pytest.approx((18, 34))


@pytest.mark.parametrize("vehicle", ["HT1", "AC1", "T1", "MC1"])
def test_vehicles_drive_round_buildings_not_into_them(vehicle: str) -> None:
    """Movement: "Commando units and German infantry units move 6 inches ... There are no
    deductions for moving in built up areas" is leave for men on foot; "Armoured cars,
    trucks, motor-cycles, and half-tracks move 12 inches" has none: a vehicle sent into the
    hut stops at its wall, and is refused without confirm:yes."""
    state = arrange({vehicle: (16, 22), "A1": (4, 4)}, actions={vehicle: 1}, side="germans")
    with pytest.raises(RuleError, match=f"{vehicle} would stop after 3.5\" at 19.5,22.0, "
                                        "1 action: stopped at Hut"):
        order(state, "move", unit=vehicle, to="22,22")
    step = order(state, "move", unit=vehicle, to="22,22", confirm="yes")
    assert step.state.unit(vehicle).pos == pytest.approx((19.5, 22), abs=0.01)


def test_men_on_foot_move_into_buildings() -> None:
    """Movement: "There are no deductions for moving in built up areas": G1 walks into the hut."""
    state = arrange({"G1": (16, 22), "A1": (4, 4)}, actions={"G1": 1}, side="germans")
    assert order(state, "move", unit="G1", to="22,22").state.unit("G1").pos == (22, 22)


def test_all_moves_in_one_order() -> None:
    """Movement: a unit cannot move, shoot and move again: one move order a turn."""
    state = arrange({"A1": (24, 4), "G1": (24, 20)}, actions={"A1": 3})
    moved = order(state, "move", unit="A1", to="E:6").state
    with pytest.raises(RuleError, match="already moved this turn"):
        order(moved, "move", unit="A1", to="E:6")


def test_pass_through_friends() -> None:
    """Movement: units may pass through friendly units without penalty."""
    state = arrange({"A1": (20, 4), "D1": (23, 4), "G1": (4, 33)}, actions={"A1": 1})
    step = order(state, "move", unit="A1", to="26,4")
    assert step.state.unit("A1").pos == (26, 4)


def test_stop_within_6_inches_of_an_enemy() -> None:
    """Movement: "Units must cease movement when within 6" of enemy units": the move is cut
    short on the 6" line, and only with confirm:yes (honest moves)."""
    state = arrange({"A1": (24, 4), "G1": (24, 20)}, actions={"A1": 3})
    with pytest.raises(RuleError, match='A1 would stop after 10.0" at 24.0,14.0, 2 actions: stopped 6" '
                                        'from G1 \\(Movement\\). Send to:24.0,14.0, or add confirm:yes'):
        order(state, "move", unit="A1", to="24,18")
    assert state.unit("A1").actions == 3  # refused: nothing spent
    step = order(state, "move", unit="A1", to="24,18", confirm=True)
    unit = step.state.unit("A1")
    assert table.distance(unit.pos, (24, 20)) == pytest.approx(6.0, abs=0.01)
    assert unit.actions == 1  # 10" travelled: two actions
    assert 'A1 moves 10.0" → 24.0,14.0 (2 actions, Movement)' in texts(step)
    assert 'A1 stopped 6" from G1 (Movement)' in texts(step)
    exact = order(state, "move", unit="A1", to="24,14")  # sent to the stopping point: accepted
    assert exact.state.unit("A1").actions == 1 and "stopped" not in texts(exact)


def test_pillboxes_stop_movement_too() -> None:
    """Movement: cease within 6" of enemy units or pillboxes."""
    state = arrange({"A1": (24, 20), "PB1": (24, 33)}, actions={"A1": 3})
    step = order(state, "move", unit="A1", to="24,32", confirm=True)
    assert step.state.unit("A1").y == pytest.approx(27.0, abs=0.01)


def test_searchlights_are_units_and_stop_movement() -> None:
    """Searchlights "can be eliminated just like any other unit": they are enemy units, so a
    move ceases within 6" of one, as it is shot and assaulted like one."""
    state = arrange({"A1": (30, 34), "SL1": (46, 34), "G1": (4, 4)}, actions={"A1": 3})
    step = order(state, "move", unit="A1", to="45,34", confirm=True)
    assert step.state.unit("A1").x == pytest.approx(40.0, abs=0.01)
    assert 'stopped 6" from SL1' in texts(step)


def test_a_later_activation_may_close_in() -> None:
    """Movement, Pillboxes: the 6" stop ends the move that comes within 6"; next turn the unit
    may close to within 3" of the pillbox ("They can only be attacked from within 3"")."""
    state = arrange({"A1": (24, 20), "PB1": (24, 33)}, actions={"A1": 3})
    stopped = order(state, "move", unit="A1", to="24,27").state  # on PB1's 6" line
    assert not table.beyond(table.distance(stopped.unit("A1").pos, (24, 33)), 6.0)
    stopped.unit("A1").moved, stopped.unit("A1").actions = False, 2  # its next activation
    closer = order(stopped, "move", unit="A1", to="24,30.5").state
    assert closer.unit("A1").pos == (24, 30.5)
    closer.unit("A1").shot = False
    step = order(closer, "shoot", unit="A1", target="PB1", dice=[6, 1])
    assert not step.state.unit("PB1").alive


def test_within_6_inches_a_unit_moves_freely_but_not_onto_the_next_enemy() -> None:
    """Movement: a unit already within 6" of an enemy is not halted by it again (it may move
    away, across or closer) but a move that comes within 6" of another enemy ceases there."""
    state = arrange({"A1": (24, 15), "G1": (24, 20), "T1": (40, 15)}, actions={"A1": 2})
    assert order(state, "move", unit="A1", to="N:6").state.unit("A1").pos == pytest.approx(
        (24, 9))
    assert order(state, "move", unit="A1", to="W:6").state.unit("A1").pos == pytest.approx(
        (18, 15))
    with pytest.raises(RuleError, match='stopped 6" from T1'):
        order(state, "move", unit="A1", to="E:12")
    with pytest.raises(RuleError, match="stopped in contact with G1"):
        order(state, "move", unit="A1", to="24,22")


def test_up_to_three_straight_legs_one_order() -> None:
    """Movement: "units must move in a straight line for each action": with three actions a
    move may turn twice (via, via2), each leg its own straight line."""
    state = arrange({"A1": (24, 4), "G1": (4, 33)}, actions={"A1": 3})
    step = order(state, "move", unit="A1", via="E:6", via2="S:6", to="E:6")
    assert step.state.unit("A1").pos == pytest.approx((36, 10))
    corners = [(round(x, 6), round(y, 6)) for x, y in step.state.marks[-1].points]
    assert corners == [(24, 4), (30, 4), (30, 10), (36, 10)]
    assert step.state.unit("A1").actions == 0
    two = arrange({"A1": (24, 4), "G1": (4, 33)}, actions={"A1": 2})
    with pytest.raises(RuleError, match='A1 has 2 actions; 18.0" in 3 legs needs 3'):
        order(two, "move", unit="A1", via="E:6", via2="S:6", to="E:6")


def test_bases_never_end_a_move_overlapping_another_base() -> None:
    """Movement: units pass through friends, but a move never ends on another base; a move
    sent onto a friend is cut short beside it, and a unit sent *to* a friend stops touching."""
    state = arrange({"A1": (20, 4), "D1": (26, 4), "G1": (4, 33)}, actions={"A1": 2})
    with pytest.raises(RuleError, match="would stop .* at 25.0,4.0, 1 action: stopped short of D1's base"):
        order(state, "move", unit="A1", to="26.5,4")
    beside = order(state, "move", unit="A1", to="D1").state
    assert table.distance(beside.unit("A1").pos, (26, 4)) == pytest.approx(1.0, abs=0.01)
    through = order(state, "move", unit="A1", to="30,4").state
    assert through.unit("A1").pos == (30, 4)


def test_wire_cannot_be_crossed_then_cut_with_two_actions() -> None:
    """Barbed Wire: units cannot cross it; a unit touching it removes it with 2 actions."""
    state = arrange({"A1": (14, 6), "G1": (4, 33)}, actions={"A1": 3})
    with pytest.raises(RuleError, match="stopped at Wire W1"):
        order(state, "move", unit="A1", to="14,14")
    step = order(state, "move", unit="A1", to="14,14", confirm=True)
    unit = step.state.unit("A1")
    assert unit.y == pytest.approx(9.5, abs=0.01)
    assert "A1 stopped at Wire W1 (Movement)" in texts(step)
    step = order(step.state, "cut-wire", unit="A1", wire="w1")
    assert "w1" in step.state.wire_removed
    assert step.state.unit("A1").actions == 0
    assert "A1 removes Wire W1 (2 actions, Barbed Wire)" in texts(step)


def test_wire_cutting_needs_contact_and_two_actions() -> None:
    """Barbed Wire: the unit must touch the wire and spend two actions."""
    state = arrange({"A1": (14, 6), "G1": (4, 33)}, actions={"A1": 3})
    with pytest.raises(RuleError, match='A1 is 3.5" from Wire W1; it must touch it'):
        order(state, "cut-wire", unit="A1", wire="w1")
    touching = arrange({"A1": (14, 9.5), "G1": (4, 33)}, actions={"A1": 1})
    with pytest.raises(RuleError, match="A1 has 1 action left; removing wire needs 2"):
        order(touching, "cut-wire", unit="A1", wire="w1")


def test_a_unit_against_wire_can_walk_off() -> None:
    """Barbed Wire blocks crossing only: a base touching it may move along or away."""
    state = arrange({"A1": (14, 9.5), "G1": (4, 33)}, actions={"A1": 2})
    assert order(state, "move", unit="A1", to="W:3").state.unit("A1").pos == pytest.approx(
        (11, 9.5))
    assert order(state, "move", unit="A1", to="N:3").state.unit("A1").pos == pytest.approx(
        (14, 6.5))


def test_water_blocks_and_table_edge_refuses() -> None:
    """Our table: water cannot be entered; places off the table are refused."""
    state = arrange({"A1": (40, 22), "G1": (4, 4)}, actions={"A1": 2})
    step = order(state, "move", unit="A1", to="40,28", confirm=True)
    assert step.state.unit("A1").y == pytest.approx(26.5, abs=0.01)  # pond r3 at (40,30)
    with pytest.raises(RuleError, match="off the 48\"x36\" table"):
        order(state, "move", unit="A1", to="S:20")


def test_places_named_point_unit_heading() -> None:
    """Orders take a named point, a unit, x,y or heading:distance."""
    state = arrange({"A1": (24, 4), "D1": (30, 8), "G1": (4, 33)}, actions={"A1": 2})
    assert order(state, "move", unit="A1", to="Landing").state.unit("A1").pos == (24, 2)
    beside = order(state, "move", unit="A1", to="d1").state.unit("A1").pos  # touching D1
    assert table.distance(beside, (30, 8)) == pytest.approx(1.0, abs=0.01)
    assert order(state, "move", unit="A1", to="SE:6").state.unit("A1").pos == pytest.approx(
        (28.243, 8.243), abs=0.01)
    with pytest.raises(RuleError, match="not a place here"):
        order(state, "move", unit="A1", to="Berlin")


def test_static_units_never_move() -> None:
    """Pillboxes and searchlights stay where they are."""
    state = arrange({"PB1": (24, 33), "A1": (4, 4)}, actions={"PB1": 1}, side="germans")
    with pytest.raises(RuleError, match="never moves"):
        order(state, "move", unit="PB1", to="S:3")


def test_no_move_shoot_move() -> None:
    """Movement: a unit cannot split its move actions to move, shoot, and move again."""
    state = arrange({"A1": (24, 4), "G1": (30, 14)}, actions={"A1": 3})
    moved = order(state, "move", unit="A1", to="E:6").state
    shot = order(moved, "shoot", unit="A1", target="G1", shots=1, dice=[1]).state
    with pytest.raises(RuleError, match="already moved this turn"):
        order(shot, "move", unit="A1", to="E:6")


def test_no_action_no_move() -> None:
    """Activation Roll: below 1, no action allowed."""
    state = arrange({"A1": (24, 4), "G1": (24, 30)})
    rolled = order(state, "roll", dice=[1]).state
    assert order(rolled, "move", unit="A1", to="E:6").state.unit("A1").actions == 0
    searched = arrange({"A1": (40, 30), "SL1": (46, 34), "G1": (4, 4)})
    dark = order(searched, "roll", dice=[2]).state  # 2 - 2 = 0: no action
    with pytest.raises(RuleError, match="A1 has no actions left this turn"):
        order(dark, "move", unit="A1", to="W:6")


def test_measure_shows_where_a_move_really_stops() -> None:
    """Movement, honest moves: the tape measure says where a move there would stop (the 6"
    line, wire, water) and the move's autocomplete offers that stopping point."""
    from rules.commando import SYSTEM

    state = arrange({"A1": (24, 4), "G1": (24, 20)}, actions={"A1": 3})
    step = order(state, "measure", unit="A1", to="24,18")
    assert texts(step).splitlines()[1] == (
        'Move: 3 actions at 6" each; stops after 10.0" at 24.0,14.0: stopped 6" from G1 '
        "(Movement)")
    wired = arrange({"A1": (14, 6), "G1": (4, 33)}, actions={"A1": 3})
    assert 'stopped at Wire W1' in texts(order(wired, "measure", unit="A1", to="14,14"))
    got = SYSTEM.choices(wired, "commandos", "move", "to", {"unit": "A1"})
    south = [c for c in got if c.value == "14.0,9.5"]
    assert south and south[0].label == '14.0,9.5 · 3.5", 1 action, ends at Wire W1'
    assert all(c.value != "S:18" for c in got)  # the full move south is not offered as such


def test_every_first_suggestion_of_move_is_accepted() -> None:
    """Movement, honest moves: filling each option of ``move`` with its first autocomplete
    suggestion gives a move the rules accept (the path and the 6" rule are checked by the
    suggestions: before the kit 94 of 710 were refused), on the St Nazaire table after each
    side's activation."""
    from rules.commando import SYSTEM
    from rules.core.dice import SeededDice
    from rules.core.playout import play

    sent = 0
    for seed in (0, 2):
        for played in play(SYSTEM, seed).steps:
            state, side = played.step.state, played.side
            if not any(a.name == "move" for a in SYSTEM.legal_actions(state, side)):
                continue
            partial: dict[str, str] = {}
            for name in ("unit", "to", "via", "via2"):
                offered = SYSTEM.choices(state, side, "move", name, dict(partial))
                if offered:
                    partial[name] = offered[0].value
            SYSTEM.apply(state, side, SYSTEM.parse("move", partial), SeededDice(b"m"))
            sent += 1
    assert sent > 10


def test_a_6_inch_stop_on_a_friends_base_says_both() -> None:
    """Movement: "Units must cease movement when within 6" of enemy units" and bases never
    overlap: where the 6" line falls on a friend's base, the reply names the 6" stop first,
    then the backing off (not a blocking friend: "Units may pass through friendly units")."""
    state = arrange({"A1": (24, 4), "D1": (24, 14), "G1": (24, 20)}, actions={"A1": 3})
    with pytest.raises(RuleError, match='stopped 6" from G1; backed off D1\'s base'):
        order(state, "move", unit="A1", to="24,18")


def test_every_suggested_destination_is_accepted_with_what_its_label_names() -> None:
    """Movement: a dog-leg move ("a straight line for each action") is offered as its
    destination, but it is legal only through its turning point: the suggestion ``to:E:6``
    was refused as cut short 6" from D3 (issue 40).  Each suggested ``to`` is accepted as
    typed, or with the options its label names (``· with via:N:6``)."""
    from rules.commando import SYSTEM
    from rules.core.dice import SeededDice
    from rules.core.playout import play

    checked = needing = 0
    for played in play(SYSTEM, 0).steps[:60]:
        state, side = played.step.state, played.side
        units = SYSTEM.choices(state, side, "move", "unit", {})
        for unit in [u.value for u in units if not u.info][:2]:
            for choice in SYSTEM.choices(state, side, "move", "to", {"unit": unit}):
                options = {"unit": unit, "to": choice.value}
                if " · with " in choice.label:
                    needing += 1
                    options |= dict(word.split(":", 1) for word in
                                    choice.label.split(" · with ", 1)[1].split())
                SYSTEM.apply(state, side, SYSTEM.parse("move", options), SeededDice(b"m"))
                checked += 1
    assert checked > 50 and needing > 0
