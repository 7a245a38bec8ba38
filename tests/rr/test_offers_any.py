"""7.0 "Players must pass if they have no remaining actions to use": the bot asks after every
order whether the side to act has any order left (``menus.has_impulse``).  Each impulse
order's :meth:`~rules.rr.impulse.Offers.any` stops at its first offer (issue 23: building
every offer cost most of an order's CPU); here it must say exactly what the full list says,
on every state of random games, for both sides."""

from __future__ import annotations

import pytest

from rules.core import registry
from rules.core.playout import play
from rules.rr import menus, movement
from rules.rr.board import Board
from tests.rr.helpers import board, game, spec

RR = registry.load_all()["rr"]


@pytest.mark.parametrize("seed", range(3))
def test_any_offer_agrees_with_the_whole_list(seed: int) -> None:
    game = play(RR, seed)
    states = [game.opening.state, *(p.step.state for p in game.steps)]
    ops = 0
    for state in states:
        b = Board(state, frozen=True)
        for side in RR.sides:
            for offers in menus.IMPULSE_OFFERS:
                assert offers.any(b, side) == bool(offers(state, side)), (offers.__name__, side, state.turn)
            listed = any(offers(state, side) for offers in menus.IMPULSE_OFFERS)
            assert menus.has_impulse(state, side) == listed
        ops += state.phase == "ops"
    assert ops > 10  # the operations phase (7.0) was played, not only the setup


@pytest.mark.parametrize("seed", range(3, 6))
def test_the_sure_sign_of_a_move_never_promises_a_move_the_menu_lacks(seed: int) -> None:
    """``surely_moves`` (a mover next to an empty area: 5.1, 7.2) is checked before the
    menus: whenever it says yes, the move menu has an offer (it may say no when there is)."""
    said = set()
    for played in play(RR, seed).steps:
        b = Board(played.step.state, frozen=True)
        for side in RR.sides:
            sure = menus.surely_moves(b, side)
            if sure:
                assert movement.move_orders.any(b, side), (side, played.step.state.turn)
            said.add(sure)
    assert said == {True, False}


def test_the_sure_sign_needs_an_empty_area_next_to_a_mover() -> None:
    """On a row of three areas (1-2-3): a NATO unit in 1 with an empty 2 surely moves; with
    a friend in 2 it may still move there (5.1: 4 stacking points) but the sign leaves that
    to the menu; with an enemy in 2 there is no move at all (5.1)."""
    scenario = board("sure-move", 3, 1, [spec("A"), spec("B"), spec("R", "soviet")])
    alone = game(scenario, {"A": "1", "R": "3"})
    friend = game(scenario, {"A": "1", "B": "2", "R": "3"})
    enemy = game(scenario, {"A": "1", "R": "2"})
    answers = []
    for state in (alone, friend, enemy):
        b = Board(state, frozen=True)
        answers.append((menus.surely_moves(b, "nato"), movement.move_orders.any(b, "nato")))
    assert answers == [(True, True), (False, True), (False, False)]


def test_a_side_with_orders_left_is_told_so_and_one_without_passes() -> None:
    """Both answers occur in play: the check is not always true (or always false)."""
    seen = set()
    for seed in range(3):
        game = play(RR, seed)
        for p in game.steps:
            if p.step.state.phase == "ops" and not p.step.state.pending:
                seen |= {menus.has_impulse(p.step.state, side) for side in RR.sides}
    assert seen == {True, False}
