"""The chain's canonical JSON (``bot/chain.py``, fast with orjson) is byte for byte the
verifier's (``tools/verify_dice.canonical``, the standard library's ``json``): keys sorted,
no spaces, UTF-8.  Issue 23 took the fast encoder for the seal; issue 29's promise is that
anyone can recompute every hash with Python alone, so the two must never differ."""

from __future__ import annotations

import json
import math
import random
import struct
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from bot import chain
from bot.ledger import Ledger
from rules.core import dumps
from tools import verify_dice

#: Floats where the two encoders' spellings differ (orjson ``1e16``, ``json`` ``1e+16``),
#: and their neighbours where both write plain decimals.
EDGES = [0.0, -0.0, 1e16, 1e15, 9999999999999998.0, 1e-4, 1e-5, 0.0001, 0.00011, 5e-324,
         1.7976931348623157e308, 2.0 ** 53, 123456789012345678.0, -1e-7, 12.5, 3.0]


def _same(value: object) -> None:
    assert chain.canonical(value) == verify_dice.canonical(value), value


@pytest.mark.parametrize("x", EDGES)
def test_edge_floats_encode_as_the_verifier_does(x: float) -> None:
    _same({"x": x, "list": [x, -x], "nested": {"y": [x]}})


def test_random_floats_of_every_magnitude_encode_as_the_verifier_does() -> None:
    rng = random.Random(23)
    for _ in range(20_000):
        bits = struct.unpack("d", struct.pack("Q", rng.getrandbits(64)))[0]
        x = rng.choice([bits, rng.uniform(-1, 1) * 10 ** rng.randint(-30, 30),
                        round(rng.uniform(-100, 100), rng.randint(0, 6))])
        if math.isfinite(x):
            _same([x])


def test_what_orjson_cannot_write_falls_back_to_the_standard_form() -> None:
    _same({"big": 2 ** 70, "neg": -(2 ** 65)})  # over 64 bits
    _same({1: "a", 2: "b"})  # keys that are not strings: json writes them as strings
    with pytest.raises(ValueError):  # no NaN in a hash, as before
        chain.canonical({"x": [float("nan")], "big": 2 ** 70})
    with pytest.raises(ValueError):
        chain.step_hash("p", {}, state_json='{"x": NaN}')


def test_strings_keys_and_their_order_encode_as_the_verifier_does() -> None:
    text = "".join(chr(c) for c in range(0, 0x3000)) + "\u2028\u2029\U0001F600\ue000\uffff"
    _same({text: text, "b": 1, "a": 2, "é": 3, "\U0001F600": 4, "\uffff": 5, "a\x00": 6,
           "hex": "3e9f1e5", "in a string :1e5": ",2E3"})


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2 ** 70), max_value=2 ** 70)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(), inner, max_size=5),
    max_leaves=30,
)


@settings(max_examples=400, deadline=None)
@given(json_values)
def test_any_json_value_encodes_as_the_verifier_does(value: object) -> None:
    _same(value)
    _same([value])
    # A stored text parsed for a step's hash reads as json reads it (orjson takes an
    # integer beyond 64 bits for a float).
    step = {"seq": 1, "kind": "order", "created_at": "now"}
    assert chain.step_hash("p", step, state_json=json.dumps(value)) == \
        verify_dice.record_hash("step", {**step, "state": value, "prev_hash": "p"})


@settings(max_examples=300, deadline=None)
@given(json_values, st.dictionaries(st.sampled_from([k for k in chain.STEP_FIELDS if k != "state"]),
                                    json_values, max_size=8))
def test_a_state_spliced_in_by_its_canonical_bytes_hashes_as_the_verifier_does(
        value: object, others: dict) -> None:
    # Issue 23: the seal splices the state's canonical bytes, made when its row was built,
    # between the record's other keys instead of parsing and encoding the stored text;
    # the verifier parses the export and encodes the whole record.
    expected = verify_dice.record_hash("step", {**others, "state": value, "prev_hash": "p"})
    step = {**others, "state": "anything: the bytes given stand for it"}
    assert chain.step_hash("p", step, state_canonical=chain.canonical(value)) == expected
    fast = chain.canonical_fast(value)
    if fast is not None:
        assert fast == verify_dice.canonical(value)
        assert chain.step_hash("p", step, state_canonical=fast) == expected


def test_a_splice_with_no_key_before_or_after_the_state_is_still_the_canonical_record() -> None:
    value = {"b": [1, 2.5, "é"], "a": None}
    for body in ({}, {"a": 1}, {"z": 2}, {"a": 1, "z": 2}, {"snapshot": True, "turn_part": "T"}):
        assert chain._spliced(body, "state", chain.canonical(value)) == \
            verify_dice.canonical({**body, "state": value}), body


class _AnyState(BaseModel):
    """A state holding any JSON value (a system's state is a tree of such values)."""

    value: Any
    at: float = 0.0


@settings(max_examples=300, deadline=None)
@given(json_values, st.floats(allow_nan=False, allow_infinity=False))
def test_a_step_row_seals_its_state_as_the_verifier_reads_the_stored_text(value: object, at: float) -> None:
    # Issue 23: Ledger.state_text writes the row's text and the seal's canonical bytes from
    # one dump; the verifier parses the exported text and encodes it itself.  The two must
    # agree for every state, and the next order's copy (from the same text) must equal
    # what a restart reads back from it.
    state = _AnyState(value=value, at=at)
    text, canonical = Ledger.state_text(state)
    fields = {"seq": 3, "kind": "order", "created_at": "now", "turn_part": "T"}
    expected = verify_dice.record_hash("step", {**fields, "state": json.loads(text), "prev_hash": "p"})
    assert chain.step_hash("p", fields, text, state_canonical=canonical) == expected
    assert chain.step_hash("p", fields, text) == expected
    assert dumps.copy(state) == _AnyState.model_validate_json(text)
