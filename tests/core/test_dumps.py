"""A state's JSON text kept while the state lives, for the next order's copy
(``rules/core/dumps.py``, issue 23)."""

from __future__ import annotations

import gc

from pydantic import BaseModel, Field

from rules.core import dumps, registry
from rules.core.dice import SeededDice


class Unit(BaseModel):
    hexes: list[str] = Field(default_factory=list)
    at: tuple[float, float] = (0.0, 0.0)


class State(BaseModel):
    units: dict[str, Unit] = Field(default_factory=dict)
    smoke: dict[int, int] = Field(default_factory=dict)


def _state() -> State:
    return State(units={"b": Unit(hexes=["0101"], at=(1.5, 2.0)), "a": Unit()}, smoke={10: 1, 2: 3})


def test_a_copy_from_the_text_is_the_state_with_its_types_and_order() -> None:
    state = _state()
    dumps.remember(state, state.model_dump_json())
    copy = dumps.copy(state)
    assert copy == state and copy is not state
    assert list(copy.units) == ["b", "a"] and list(copy.smoke) == [10, 2]  # order kept
    assert copy.units["b"].at == (1.5, 2.0)  # a tuple again, not the text's list


def test_a_copy_shares_nothing_with_the_next_copy() -> None:
    state = _state()
    dumps.remember(state, state.model_dump_json())
    first = dumps.copy(state)
    first.units["b"].hexes.append("0202")
    first.units["c"] = Unit()
    first.smoke[2] = 0
    assert dumps.copy(state) == _state() == state


def test_the_text_goes_with_its_state() -> None:
    state = _state()
    dumps.remember(state, state.model_dump_json())
    assert dumps.remembered(state)
    gc.collect()  # earlier tests' dead states go first, so only this one is counted below
    before = len(dumps._TEXTS)
    del state
    gc.collect()
    assert len(dumps._TEXTS) == before - 1


def test_a_state_never_dumped_is_copied_from_a_python_dump() -> None:
    state = _state()
    assert not dumps.remembered(state)
    assert dumps.copy(state) == state


def test_an_order_resolves_on_a_copy_and_leaves_the_remembered_state_as_it_was() -> None:
    # The text stays valid only because apply never changes its input (contract.py).
    system = registry.get("rr")
    dice = SeededDice(b"dumps", 0)
    state = system.setup(system.scenarios[0], {}, dice).state
    dumps.remember(state, state.model_dump_json())
    text = state.model_dump_json()
    side = system.waiting_on(state)[0]
    for action in system.legal_actions(state, side, read_only=False)[:5]:
        system.apply(state, side, action, SeededDice(b"dumps", 1))
        assert state.model_dump_json() == text
        assert dumps.copy(state).model_dump_json() == text
