"""Issue 39: "a reviewer following one /rr fire crosses at most 12 module boundaries on the
main thread before the reply".  Followed as a reviewer reads it, from ``Service.handle``
down: the longest chain of modules one inside the other on a call stack
(``tools/trace_order.py``); the modules merely entered (each a call or two into a small
helper module) are printed by the tool, and bounded by the import-layer gate."""

from __future__ import annotations

import asyncio

from tools.trace_order import trace

MOST_BOUNDARIES = 12


def test_one_fire_is_followed_through_at_most_12_modules_deep() -> None:
    found, reply = asyncio.run(trace(delivery=True))
    assert not reply.error, reply.text
    boundaries = len(found.deepest) - 1
    assert found.deepest[0] == "bot.service"
    assert 3 <= boundaries <= MOST_BOUNDARIES, " → ".join(found.deepest)
