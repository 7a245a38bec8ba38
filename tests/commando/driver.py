"""A random-legal driver for commando raids, checking the invariants after every order."""

from __future__ import annotations

import random

from rules.commando import SYSTEM, board
from rules.commando.state import RaidState
from rules.core import table
from rules.core.dice import RecordedDice, SeededDice


def check_invariants(state: RaidState) -> None:
    """Units on the table and out of water, wire and targets; actions within limits."""
    scen = state.table
    blockers = board.obstacles(state)
    for unit in state.alive():
        assert table.on_table(unit.pos, scen.width, scen.height, board.BASE_RADIUS - 1e-3), unit
        for key, shape in blockers.items():
            gap = table.distance_to_shape(unit.pos, shape)
            assert gap >= board.BASE_RADIUS - 1e-3, f"{unit.id} inside {key} ({gap:.3f})"
        assert 0 <= unit.actions <= 3
        if unit.kind == "pillbox":
            assert unit.actions <= 1
        if unit.kind == "searchlight":
            assert unit.actions == 0
    assert 1 <= state.turn <= state.max_turn + 1
    assert SYSTEM.load_state(state.model_dump_json()) == state


def play(seed: int, scenario: str = "st_nazaire", turns: int | None = None,
         replay_every: int = 0) -> tuple[RaidState, int]:
    """Play one game to the end with random legal orders; returns the final state and length."""
    rng = random.Random(seed)
    dice = SeededDice(f"commando-{seed}".encode())
    options = {} if turns is None else {"turns": turns}
    state = SYSTEM.setup(scenario, options, dice).state
    assert isinstance(state, RaidState)
    orders = 0
    while SYSTEM.waiting_on(state):
        side = SYSTEM.waiting_on(state)[0]
        legal = SYSTEM.legal_actions(state, side)
        assert legal, f"no legal order for {side} at {SYSTEM.turn_part(state)}"
        action = rng.choice(legal)
        before = state.model_dump_json()
        start = len(dice.rolls)
        step = SYSTEM.apply(state, side, action, dice)
        assert state.model_dump_json() == before, "apply changed its input"
        new = step.state
        assert isinstance(new, RaidState)
        check_invariants(new)
        if replay_every and orders % replay_every == 0:
            again = SYSTEM.apply(state, side, action, RecordedDice(dice.rolls[start:]))
            assert again.state == new, "replaying the recorded dice gave another state"
        state = new
        orders += 1
        assert orders < 5000, "the game does not end"
    assert SYSTEM.result(state) is not None
    return state, orders
