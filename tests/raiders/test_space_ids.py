"""Space ids are one style, words joined by hyphens (issue 40: ``el-adem``, as ``bir-hakeim``);
a former id is still accepted in orders and read in a stored game."""

from __future__ import annotations

import re

from rules.raiders import SYSTEM
from rules.raiders.actions import Move
from rules.raiders.scenario import load_scenario, problems
from tests.raiders.helpers import do, mission, mission_state, put


def test_every_space_id_is_lowercase_words_joined_by_hyphens() -> None:
    """3.0: one id style for the map's spaces."""
    sc = load_scenario("desert")
    assert all(re.fullmatch(r"[a-z]+(-[a-z]+)*", s.id) for s in sc.spaces)
    assert sc.find_space("el-adem") == sc.find_space("eladem") == sc.find_space("El Adem") == "el-adem"


def test_a_stored_game_with_the_former_id_reads_on() -> None:
    """A game saved while El Adem was ``eladem``: its units, markers and camps are in el-adem."""
    state = put(mission_state("M6"), "el-adem", "Cdo-1")  # M6 camps at El Adem (8.0 (1))
    old = state.model_dump_json()
    assert '"el-adem"' in old
    loaded = SYSTEM.load_state(old.replace('"el-adem"', '"eladem"'))
    m = mission(loaded)
    assert "eladem" not in loaded.model_dump_json()
    assert "el-adem" in m.camps and m.units[0].space == "el-adem"


def test_an_order_with_the_former_id_is_obeyed() -> None:
    """12.0: ``move to:eladem`` (an old message, a replayed step) moves to El Adem."""
    state = put(mission_state("M1"), "sidi-rezegh", "Cdo-1")
    moved = mission(do(state, Move(force="F1", to="eladem"), [1, 1, 1, 6, 1, 1, 5]))
    assert moved.units[0].space == "el-adem"


def test_a_former_id_that_names_another_space_is_refused() -> None:
    """An alias equal to another space's id would make an order ambiguous."""
    sc = load_scenario("desert")
    assert problems(sc) == []
    spaces = [sc.spaces[0].model_copy(update={"aliases": ["tobruk"]}), *sc.spaces[1:]]
    found = problems(sc.model_copy(update={"spaces": spaces}))
    assert found == [(("spaces", 0, "aliases", 0), "'tobruk' names another space already; "
                      "a former id names one space only.")]
