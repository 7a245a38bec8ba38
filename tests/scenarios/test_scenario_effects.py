"""What a scenario's fields do in play, as docs/scenarios.md says (issue 27, point 1): a
commando unit's ``facing`` is an angle *on the table* (0 east, 90 south) or a compass letter,
while an order's ``to:0:18`` is a compass bearing (0 north); the page and the code agree."""

from __future__ import annotations

import pytest

from rules.commando import shooting
from rules.core import table
from rules.core.dice import SeededDice
from rules.core.errors import RuleError
from rules.core.registry import get
from tests.scenarios.helpers import as_yaml, data


def _pillbox_game(facing):
    """The training table with its pillbox PB1 facing ``facing``, and commando A1 moved 6"
    east of it; returns the state, PB1 and A1."""
    value = data("commando")
    pillbox = next(u for u in value["units"] if u["id"] == "PB1")
    pillbox["facing"] = facing
    system = get("commando")
    checked = system.scenario_from_file(as_yaml(value))
    state = system.setup(checked.key, None, SeededDice(b"facing")).state
    pillbox = state.unit("PB1")
    pillbox.actions = 1  # its activation rolled (Unit Activation)
    return state, pillbox, state.unit("A1")


@pytest.mark.parametrize("facing", [0, "E", "e"])
def test_a_pillbox_facing_0_or_E_faces_east_on_the_table_pillboxes(facing) -> None:
    # Pillboxes fire only into their 180° front arc: facing 0 (or E) is east.
    state, pillbox, commando = _pillbox_game(facing)
    assert pillbox.facing == 0.0 and table.compass_name(pillbox.facing) == "E"
    commando.x, commando.y = pillbox.x + 6, pillbox.y  # due east: in the arc
    assert shooting.check_reach(state, pillbox, commando, "shooting") == pytest.approx(6)
    commando.x = pillbox.x - 6  # due west: behind it
    with pytest.raises(RuleError, match="outside PB1's 180° arc \\(facing E\\)"):
        shooting.check_reach(state, pillbox, commando, "shooting")


def test_facing_90_is_south_and_270_north_as_the_letters_say() -> None:
    for degrees, letter in ((90, "S"), (270, "N"), (180, "W")):
        _, by_degrees, _ = _pillbox_game(degrees)
        _, by_letter, _ = _pillbox_game(letter)
        assert by_degrees.facing == by_letter.facing == degrees


def test_an_orders_heading_is_a_compass_bearing_0_north_not_a_table_angle() -> None:
    # What the club member saw: ``move to:0:18`` goes north (up the picture, y falls), since
    # an order's heading is a compass bearing; a file's facing 0 is east.
    place = table.parse_place("0:18", (20.0, 30.0), {}, {})
    assert place.point == pytest.approx((20.0, 12.0))
    assert table.parse_place("N:18", (20.0, 30.0), {}, {}).point == pytest.approx(place.point)
    assert table.parse_place("90:6", (20.0, 30.0), {}, {}).point == pytest.approx((26.0, 30.0))


def test_a_facing_that_is_neither_a_letter_nor_degrees_is_located() -> None:
    from rules.core import scenariofile as sf

    value = data("commando")
    next(u for u in value["units"] if u["id"] == "PB1")["facing"] = "up"
    with pytest.raises(sf.ScenarioError) as caught:
        get("commando").scenario_from_file(as_yaml(value))
    (problem,) = caught.value.problems
    assert problem.path.endswith(".facing") and problem.line is not None
    assert "is not a facing; give a compass letter (N, NE, E" in problem.message
    assert "0 east, 90 south" in problem.message and "\"up\"" in problem.message
