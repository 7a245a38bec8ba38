"""A Raid and Riposte scenario file must be playable (issue 46): a set-up the Soviets could
never finish (11.0) is refused by the check, naming the field and why, and a game stuck in
set-up says why in its status instead of an empty "Soviets can: "."""

from __future__ import annotations

import random

import pytest

from rules.core import scenariofile as sf
from rules.core.dice import SeededDice
from rules.core.playout import choose
from rules.rr import SYSTEM
from rules.rr.board import register_scenario
from rules.rr.scenario import Scenario
from rules.rr.state import RRState
from tests.scenarios.helpers import as_json, data


def refused(value: dict) -> list[sf.Problem]:
    """The problems ``referee scenario check`` reports for ``value``."""
    with pytest.raises(sf.ScenarioError) as caught:
        SYSTEM.scenario_from_file(as_json(value))
    return caught.value.problems


def test_a_required_area_in_no_soviet_setup_zone_is_refused_11_0() -> None:
    """11.0: "The Soviets must have at least one stacking point in area 7": an area no Soviet
    unit may set up in could never be filled, so the file is refused at that field."""
    value = data("rr")
    value["soviet_required_area"] = "1"  # NATO's set-up zone
    found = [p for p in refused(value) if p.path == "soviet_required_area"]
    assert len(found) == 1, [p.text() for p in refused(value)]
    assert found[0].message == (
        "the Soviets must set up at least one stacking point in area 1 (11.0), but area 1 is in "
        "no Soviet set-up zone; Soviet units set up in: 7, 10, 14, 15, 16, 19, 28; the game "
        "could never begin.")


def test_a_required_area_only_units_without_stacking_may_use_is_refused_11_0() -> None:
    """11.0: a zone of its own holding only units with no stacking points (a leader) cannot
    put a stacking point in the area either."""
    value = data("rr")
    value["soviet_required_area"] = "19"
    soviet = next(d for d in value["deployments"] if d["areas"] == ["19"])
    soviet["units"] = ["NIKOLAS"]
    first = next(d for d in value["deployments"] if d["side"] == "soviet")
    first["units"] = [u for u in first["units"] if u != "NIKOLAS"] + ["ASU85"]
    found = [p for p in refused(value) if p.path == "soviet_required_area"]
    assert [p.message for p in found] == [
        "the Soviets must set up at least one stacking point in area 19 (11.0), but no Soviet "
        "unit with stacking points may set up in area 19; the game could never begin."]


def setup_outcome(scenario: str, seed: int, bound: int = 80) -> RRState:
    """The state once random legal orders (the kit's own chooser) have played the set-up,
    at most ``bound`` orders; stops at turn 1 or when the side waited on has no order."""
    rng, dice = random.Random(seed), SeededDice(f"rr-setup-{seed}".encode())
    state = SYSTEM.setup(scenario, dict(SYSTEM.playout_hints.options), dice).state
    for _ in range(bound):
        side = SYSTEM.waiting_on(state)[0]
        legal = [a for a in SYSTEM.legal_actions(state, side, read_only=False) if not a.read_only]
        if state.phase != "deploy" or not legal:
            break
        state = SYSTEM.apply(state, side, choose(SYSTEM, legal, rng, None), dice).state
    return state


@pytest.mark.parametrize("seed", [3, 11])
def test_the_shipped_setup_is_finished_by_the_random_legal_player_11_0(seed: int) -> None:
    """11.0: both sides complete their set-up and turn 1 begins, with random legal orders."""
    state = setup_outcome("tannenbruck", seed)
    assert state.phase != "deploy" and state.turn == 1


def test_a_game_stuck_in_setup_says_why_not_an_empty_list_11_0() -> None:
    """A scenario that skipped the file check (built in code) dead-ends in set-up: status
    names the cause, never "Soviets can: " with nothing after it."""
    value = data("rr")
    value["key"], value["soviet_required_area"] = "stuck-setup", "1"
    register_scenario(Scenario.model_validate(value))
    state = setup_outcome("stuck-setup", 3)
    assert state.phase == "deploy" and SYSTEM.waiting_on(state) == ["soviet"]
    lines = SYSTEM.status(state)
    assert not any(line.rstrip().endswith("can:") for line in lines), lines
    assert ("Soviets have no legal order: The Soviets need at least one stacking point in area 1 "
            "(11.0).") in lines
