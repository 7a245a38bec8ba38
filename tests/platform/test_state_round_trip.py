"""Every system's state survives its JSON round trip without loss.

The service caches the state object the rules returned instead of re-parsing the JSON it
just stored (``Service.commit_step``); that is sound only while ``load_state(dump(state))``
equals ``state`` for every state a game can reach.  Random legal play in each registered
system checks it at every step.

A step's seal hashes its stored JSON parsed and encoded by ``bot/chain.py`` (orjson where
that gives the same bytes, issue 23): the same play checks that this is byte for byte what
the verifier's standard-library parse-and-encode gives (``tools/verify_dice.canonical``),
and seals to the same hash.

Issue 23 writes a step row's state text and its canonical bytes from one JSON-mode dump
(``Ledger.state_text``), seals with those bytes spliced in, and copies the next order's
state from that dump (``rules/core/dumps.py``): the same play checks that the text reads
back to the same state with its dicts in the same order, that the spliced seal is the
verifier's hash, and that the copy from the dump is the copy from a Python-mode dump.
"""

from __future__ import annotations

import json
import random

import pytest

from bot import chain
from bot.ledger import Ledger
from rules.core import dumps
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
        _check_one_dump(system, state, fields, f"{key}, state {checked}")
        waiting = system.waiting_on(state)
        side = rng.choice(waiting) if waiting else None
        actions = system.legal_actions(state, side) if side else []
        if not actions:  # over: the next game, so short games still give STEPS states
            step, games = system.setup(system.scenarios[0], {}, dice), games + 1
            continue
        step = system.apply(state, side, rng.choice(actions), dice)
    assert games < STEPS // 4, f"{key}: games too short to say much ({games} games)"


def _check_one_dump(system, state, fields: dict, where: str) -> None:
    """The step row's text and its seal from one dump, and the next copy from that text (issue 23)."""
    text, canonical = Ledger.state_text(state)
    assert canonical is not None, where  # no state needs the slow encoder (floats, ints)
    # Read back: the same state, field and key order kept (pydantic's own text is the
    # reference: a dict read back iterates as the rules built it).
    back = system.load_state(text)
    assert back == state and back.model_dump_json() == state.model_dump_json(), where
    assert canonical == verify_dice.canonical(json.loads(text)), where
    expected = verify_dice.record_hash("step", {**fields, "state": json.loads(text), "prev_hash": "p"})
    assert chain.step_hash("p", fields, text, state_canonical=canonical) == expected, where
    assert dumps.remembered(state), where
    copy = system.copy_state(state)
    assert copy is not state and copy == state, where
    assert copy.model_dump_json() == state.model_dump_json(), where
    assert copy.model_dump() == state.model_dump(), where  # the same Python types (tuples)
    for name in type(copy).model_fields:  # a copy changed in place shares nothing...
        value = getattr(copy, name)
        if isinstance(value, list):
            value.append(None)
        elif isinstance(value, dict):
            value["changed"] = None
    again = system.copy_state(state)  # ...with the text the next copy is made from
    assert again == state and again.model_dump_json() == state.model_dump_json(), where
