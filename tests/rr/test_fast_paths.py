"""Issue 23: the order path's shortcuts must give exactly the answers of the slow, plain
reading they replace, on every state of seeded random games, for every unit, area and side:

* a frozen :class:`~rules.rr.board.Board` reads who-is-where once (by area, by side, riders,
  a side's groups in map order) instead of scanning the units for each question;
* :func:`can_move`, :func:`can_fire` and :func:`can_assault` read the counter checks from
  sets built once per scenario instead of calling the problem functions that name the
  rule (9.3, 9.6, 9.7-9.9, 10.2, 7.3.5);
* a deployment is looked up by unit instead of searched (11.0).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from rules.core import registry
from rules.core.playout import play
from rules.rr.arrivals import deployment_of
from rules.rr.assault import assault_problem, can_assault
from rules.rr.board import Board, can_move, move_problem
from rules.rr.combat import can_fire, firer_problem
from rules.rr.state import SIDES, RRState

RR = registry.load_all()["rr"]


def states(seed: int) -> Iterator[RRState]:
    """Every state of one seeded random game, the opening included."""
    game = play(RR, seed)
    yield game.opening.state
    for played in game.steps:
        yield played.step.state


@pytest.mark.parametrize("seed", range(3))
def test_the_frozen_index_reads_what_the_scans_read(seed: int) -> None:
    seen_riders = 0
    for state in states(seed):
        frozen, plain = Board(state, frozen=True), Board(state)
        for side in (None, *SIDES):
            assert frozen.on_map(side) == state.on_map(side)
            for area in frozen.g.ids:
                assert frozen.in_area(area, side) == state.in_area(area, side), (area, side)
        for side in SIDES:
            expected = [(a, state.in_area(a, side)) for a in frozen.g.ids if state.in_area(a, side)]
            assert frozen.groups(side) == expected == plain.groups(side)
        for uid in state.units:
            assert frozen.riders(uid) == state.riders(uid)
            seen_riders += bool(state.riders(uid))
    assert seen_riders  # ATGM teams and the Kastet rode with their companies (9.3, 9.4)


@pytest.mark.parametrize("seed", range(3))
def test_the_quick_unit_checks_agree_with_the_problems_they_stand_for(seed: int) -> None:
    answers: dict[str, set[bool]] = {"move": set(), "fire": set(), "assault": set()}
    for state in states(seed):
        b = Board(state, frozen=True)
        for unit in state.units.values():
            pairs = {
                "move": (can_move(b, unit), move_problem(b, unit) is None),
                "fire": (can_fire(b, unit), firer_problem(b, unit) is None),
                "assault": (can_assault(b, unit), assault_problem(b, unit) is None),
            }
            for name, (quick, slow) in pairs.items():
                assert quick == slow, (name, unit.id, state.turn, state.phase)
                answers[name].add(quick)
    assert all(seen == {True, False} for seen in answers.values())  # both answers occur


def test_a_deployment_is_the_first_that_names_the_unit() -> None:
    state = next(states(0))
    b = Board(state)
    for uid in state.units:
        searched = next((d for d in b.sc.deployments if uid in d.units), None)
        assert deployment_of(b, uid) is searched
    assert deployment_of(b, "NO-SUCH-UNIT") is None
