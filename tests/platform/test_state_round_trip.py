"""Every system's state survives its JSON round trip without loss.

The service caches the state object the rules returned instead of re-parsing the JSON it
just stored (``Service.commit_step``); that is sound only while ``load_state(dump(state))``
equals ``state`` for every state a game can reach.  Random legal play in each registered
system checks it at every step.

A step's seal hashes its stored JSON parsed and encoded by ``bot/chain.py`` (orjson where
that gives the same bytes, issue 23): the same play checks that this is byte for byte what
the verifier's standard-library parse-and-encode gives (``tools/verify_dice.canonical``),
and seals to the same hash.
"""

from __future__ import annotations

import json
import random

import pytest

from bot import chain
from rules.core import registry
from rules.core.dice import SeededDice
from tools import verify_dice

STEPS = 120


@pytest.mark.parametrize("key", sorted(registry.load_all()))
def test_every_state_of_random_play_round_trips(key: str) -> None:
    system = registry.get(key)
    rng = random.Random(key)
    dice = SeededDice(b"round-trip-" + key.encode(), 0)
    step = system.setup(system.scenarios[0], {}, dice)
    games = 1
    for checked in range(STEPS):
        state = step.state
        assert system.load_state(state.model_dump_json()) == state, f"{key}, state {checked}"
        stored = state.model_dump_json()
        parsed = json.loads(stored)
        assert chain.canonical(parsed) == verify_dice.canonical(parsed), f"{key}, canonical state {checked}"
        fields = {"seq": checked, "kind": "order", "action": {"name": "x", "options": {"a": "é"}},
                  "state": parsed, "turn_part": "T", "created_at": "now"}
        assert chain.step_hash("p", {**fields, "state": None}, state_json=stored) == \
            chain.step_hash("p", fields) == verify_dice.record_hash("step", {**fields, "prev_hash": "p"})
        waiting = system.waiting_on(state)
        side = rng.choice(waiting) if waiting else None
        actions = system.legal_actions(state, side) if side else []
        if not actions:  # over: the next game, so short games still give STEPS states
            step, games = system.setup(system.scenarios[0], {}, dice), games + 1
            continue
        step = system.apply(state, side, rng.choice(actions), dice)
    assert games < STEPS // 4, f"{key}: games too short to say much ({games} games)"
