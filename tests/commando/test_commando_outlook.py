"""What the computer reads into a raid before its end (issue 43, rules/commando/outlook.py):
the demolitions and the fire to come, and the orders it tries first."""

from __future__ import annotations

import pytest

from rules.commando import SYSTEM, outlook
from rules.commando.actions import Demolish, End, Move, Roll, Shoot
from tests.commando.helpers import arrange


def test_the_activation_dice_give_one_two_or_three_actions() -> None:
    """Activation Roll: 1-2 one, 3-4 two, 5+ three; -2 in a searchlight, +1 directed."""
    assert outlook.spread(0) == pytest.approx((0, 2 / 6, 2 / 6, 2 / 6))
    assert outlook.spread(-2) == pytest.approx((2 / 6, 2 / 6, 2 / 6, 0))
    assert outlook.spread(1) == pytest.approx((0, 1 / 6, 2 / 6, 3 / 6))


def test_a_party_in_contact_sets_its_charges_on_two_actions_half_the_time() -> None:
    """Demolition: two actions in contact, 4+: one turn left, a roll of two or more."""
    assert outlook.blow_chance(0, 1, 0, 1.0) == pytest.approx(4 / 6 * 0.5)
    # A move away needs three actions the same turn; more turns, more chances.
    assert outlook.blow_chance(1, 1, 0, 1.0) == pytest.approx(2 / 6 * 0.5)
    assert outlook.blow_chance(1, 3, 0, 1.0) > outlook.blow_chance(1, 1, 0, 1.0)
    assert outlook.blow_chance(0, 3, 0, 0.5) < outlook.blow_chance(0, 3, 0, 1.0)
    assert outlook.blow_chance(5, 1, 0, 1.0) == 0.0


def test_a_party_beside_a_target_looks_better_than_one_far_off() -> None:
    near = arrange({"D1": (5, 28.9), "G1": (40, 10)})  # touching the bunker (4-6, 30-32)
    far = arrange({"D1": (30, 4), "G1": (40, 10)})
    assert SYSTEM.evaluate(near, "commandos") > SYSTEM.evaluate(far, "commandos")
    assert SYSTEM.evaluate(near, "germans") < SYSTEM.evaluate(far, "germans")


def test_the_standing_is_between_zero_and_one_and_shared() -> None:
    state = arrange({"D1": (5, 28.9), "A1": (20, 14), "G1": (24, 18)}, actions={"A1": 2})
    mine, theirs = SYSTEM.evaluate(state, "commandos"), SYSTEM.evaluate(state, "germans")
    assert 0.0 < mine < 1.0 and mine + theirs == pytest.approx(1.0)


def test_an_enemy_in_reach_is_a_loss_to_come() -> None:
    """Shooting: 4+ hits, saves 4+: two shots at 4" eliminate with 1 - (3/4)^2."""
    state = arrange({"A1": (24, 14), "G1": (24, 18)}, actions={"A1": 2})
    danger = outlook.losses_to_come(state, "commandos", acting=True)
    assert danger["G1"] == pytest.approx(1 - 0.75 ** 2)
    assert "G1" not in outlook.losses_to_come(arrange({"A1": (4, 4), "G1": (40, 30)},
                                                      actions={"A1": 2}), "commandos", True)


def test_demolitions_first_and_the_end_of_a_turn_last() -> None:
    state = arrange({"D1": (5, 28.9), "A1": (20, 14), "G1": (24, 18)},
                    actions={"D1": 2, "A1": 2})
    prior = SYSTEM.order_prior
    demolish = prior(state, "commandos", Demolish(unit="D1", target="bunker"))
    shoot = prior(state, "commandos", Shoot(unit="A1", target="G1"))
    wander = prior(state, "commandos", Move(unit="A1", to="N:6"))
    end = prior(state, "commandos", End())
    assert demolish > shoot > wander > end
    fresh = arrange({"D1": (5, 28.9), "G1": (24, 18)})
    assert prior(fresh, "commandos", Roll()) > prior(fresh, "commandos", End())
