"""Orders by choosing (issue 30), held for every system: what the menus and buttons offer is
exactly the legal orders, nothing more and nothing less.

For positions of seeded random-legal games of every registered system:

* walking every path of :class:`OrderBuilder` (order, then each field's menu) yields every
  order of :func:`acting_orders` and only those, each accepted by ``apply``;
* :func:`quick_answers` are offered only to a side waited on, at most 25, each a legal
  order whose label fits a button or a menu entry.
"""

from __future__ import annotations

import functools
import random
from typing import Any, Callable

import pytest

from rules.core import answers, registry
from rules.core.answers import (
    MAX_ANSWERS, OPTION_LABEL, OrderBuilder, acting_orders, quick_answers,
)
from rules.core.contract import Action
from rules.core.dice import SeededDice
from rules.core.playout import play

SYSTEMS = sorted(registry.load_all())
#: Positions sampled per system (the first ones, then spread over the game).
POSITIONS = 12


@functools.cache
def _positions(key: str) -> list[tuple[Any, str]]:
    """The sampled positions of ``key``'s seeded game (played once per module: the rules are
    pure, so no test changes a state it reads)."""
    system = registry.get(key)
    game = play(system, seed=7)
    steps = game.steps
    rng = random.Random(key)
    picked = steps[:4] + rng.sample(steps[4:], min(POSITIONS - 4, max(0, len(steps) - 4)))
    return [(s.before, s.side) for s in picked]


def _all_paths(builder: OrderBuilder) -> list[list[int]]:
    """Every complete path through the builder's menus (depth first)."""
    menu = builder.menu()
    if menu is None:
        return [list(builder.path)]
    out: list[list[int]] = []
    for i in range(len(menu.values)):
        out += _all_paths(OrderBuilder(builder.system, builder.state, builder.side, builder.path + [i]))
    return out


@pytest.fixture
def remembered_orders(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each builder of the walk derives the position's legal orders afresh, as a press does;
    :func:`acting_orders` is a pure function of its arguments, so the walk remembers each
    answer per position: one derivation per position, not one per node of the menus' tree
    (mak's walk took 80 s).  The builders still read every menu from those orders."""
    real: Callable[..., list[Action]] = answers.acting_orders
    seen: dict[tuple[Any, ...], list[Action]] = {}
    held: list[Any] = []  # the states keyed by id stay alive, so no id is reused

    def remembered(system: Any, state: Any, side: str, limit: int | None = None,
                   standing: bool = True) -> list[Action]:
        key = (system.key, id(state), side, limit, standing)
        if key not in seen:
            held.append(state)
            seen[key] = real(system, state, side, limit, standing)
        return list(seen[key])

    monkeypatch.setattr(answers, "acting_orders", remembered)


@pytest.mark.parametrize("key", SYSTEMS)
def test_the_menus_build_exactly_the_legal_orders(key: str, remembered_orders: None) -> None:
    system = registry.get(key)
    for state, side in _positions(key):
        legal = {a.model_dump_json() + a.path() for a in acting_orders(system, state, side)}
        built = set()
        paths = _all_paths(OrderBuilder(system, state, side))
        for path in paths:
            action = OrderBuilder(system, state, side, path).action()
            assert action is not None, (key, path)
            built.add(action.model_dump_json() + action.path())
        assert built == legal, f"{key}: menus and legal orders differ at {system.turn_part(state)}"
        if not paths:
            continue  # every legal order is sealed (issue 28): typed privately, never built
        # Each built order is accepted by the rules (one sample per position keeps it quick).
        sample = OrderBuilder(system, state, side, random.Random(len(paths)).choice(paths)).action()
        assert sample is not None
        system.apply(state, side, sample, SeededDice(b"answers", 0))


@pytest.mark.parametrize("key", SYSTEMS)
def test_quick_answers_are_legal_orders_for_the_side_waited_on(key: str) -> None:
    system = registry.get(key)
    offered = 0
    for state, side in _positions(key):
        answers = quick_answers(system, state, side)
        legal = {(a.path(), a.summary()) for a in acting_orders(system, state, side)}
        assert len(answers) <= MAX_ANSWERS
        for answer in answers:
            assert 0 < len(answer.label) <= OPTION_LABEL
            action = system.parse(answer.order, dict(answer.options))
            assert (action.path(), action.summary()) in legal
        offered += bool(answers)
        others = [s for s in system.sides if s not in system.waiting_on(state)]
        for other in others:
            assert quick_answers(system, state, other) == []
    assert offered, f"{key}: no position offered answers to tap"


def test_a_builder_path_that_does_not_fit_the_state_is_refused() -> None:
    system = registry.get("rr")
    state, side = _positions("rr")[0]
    with pytest.raises(IndexError):
        OrderBuilder(system, state, side, [999]).menu()

