"""Where the computer thinks (issue 43): a small pool of worker processes, off the event loop.

A search costs up to seconds of CPU (:mod:`rules.core.computer`); run on the event loop it
would hold every channel's replies, and in a thread it would hold the interpreter's lock.  So
it runs in a worker process: :func:`think` sends the system's key, the side's *observation*
(as JSON: :meth:`GameSystem.observe`, never the state), the side, the seed and the level,
and awaits the :class:`~rules.core.computer.Decision`.  The pool is this module's own (one
process by default, ``REFEREE_COMPUTER_WORKERS``), started on first use and shared by every
service of the process; ``workers=0`` thinks in a thread instead (a host that cannot fork).

Kept small and apart from the render workers on purpose, so the two pools can be made one
later without touching the callers: both are a ``ProcessPoolExecutor`` behind one coroutine.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from bot import parentwatch
from rules.core import registry
from rules.core.computer import Decision, Level, think as search

#: Worker processes of the pool (``REFEREE_COMPUTER_WORKERS``; 0: a thread of this process).
DEFAULT_WORKERS = 1

_pool: Executor | None = None


def workers() -> int:
    """How many worker processes think (the environment's, else :data:`DEFAULT_WORKERS`)."""
    raw = os.environ.get("REFEREE_COMPUTER_WORKERS", "")
    return int(raw) if raw.isdigit() else DEFAULT_WORKERS


def pool() -> Executor | None:
    """The process pool, started on first use (None: think in a thread)."""
    global _pool
    if _pool is None and workers() > 0:
        # spawn, not fork: the bot's process holds threads (the database's) and a loop.
        # Each worker watches the bot (bot/parentwatch.py): one killed outright left it waiting.
        _pool = ProcessPoolExecutor(max_workers=workers(), mp_context=multiprocessing.get_context("spawn"),
                                    initializer=parentwatch.start_watching, initargs=(os.getpid(),))
    return _pool


def decide(system_key: str, observed_json: str, side: str, seed: str, level: Level,
           free_run: int = 0) -> Decision:
    """The worker's job: rebuild the observation and search (a module-level function, so it
    can be sent to a process); ``free_run``: the side's free orders in a row just before."""
    system = registry.get(system_key)
    observed = system.load_state(observed_json)
    return search(system, observed, side, seed, level, free_run)


async def think(system_key: str, observed_json: str, side: str, seed: str, level: Level,
                free_run: int = 0) -> Decision:
    """The computer's order for ``side``, thought in a worker process (``free_run``: the
    side's free orders in a row at the head, ``LiveGame.free_run``)."""
    global _pool
    loop = asyncio.get_running_loop()
    executor = pool()
    asked = (system_key, observed_json, side, seed, level, free_run)
    try:
        return await loop.run_in_executor(executor, decide, *asked)
    except BrokenProcessPool:
        # A worker died (killed, out of memory): a fresh pool, and the same question again.
        _pool = None
        return await loop.run_in_executor(pool(), decide, *asked)


def shutdown() -> None:
    """Stop the pool's workers (at the bot's exit; a later :func:`think` starts a new one)."""
    global _pool
    if isinstance(_pool, ProcessPoolExecutor):
        _pool.shutdown(wait=False, cancel_futures=True)
    _pool = None


__all__ = ["DEFAULT_WORKERS", "decide", "pool", "shutdown", "think", "workers"]
