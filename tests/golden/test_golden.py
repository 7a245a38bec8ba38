"""The golden transcripts still match: the same seeds give the same replies and pictures
(issue 23: the order path was rebuilt, and nothing may change for players).

Each system's short seeded game (``tests/golden/record.py``: seats, a pace, robot orders,
a reroll, a rollback, status, log, digest, map, a deadline passing, the end) is played again
through the Service and compared line by line with ``tests/golden/<system>.txt``: every
reply's text, who it pings, what the bot posts on its own, and the SHA-256 of every picture.

When a change is MEANT to change what players see (a rule's wording, a picture), look at
the diff this test prints, then record the transcripts again with one command and commit
them with the change:

    /work/venv/bin/python -m tests.golden.record            # all five systems
    /work/venv/bin/python -m tests.golden.record raiders    # one
"""

from __future__ import annotations

import asyncio
import difflib

import pytest

from tests.golden.record import SYSTEMS, path_of, record


@pytest.mark.parametrize("system_key", SYSTEMS)
def test_golden_transcript(system_key: str) -> None:
    """Replaying the seeded game gives the recorded transcript, line for line."""
    expected = path_of(system_key).read_text(encoding="utf-8").splitlines()
    actual = asyncio.run(record(system_key))
    if actual != expected:
        diff = "\n".join(difflib.unified_diff(expected, actual, f"golden/{system_key}.txt",
                                              "this run", lineterm="", n=2))
        pytest.fail(f"The {system_key} transcript changed (re-record with "
                    f"`python -m tests.golden.record {system_key}` if intended):\n{diff}")
