"""Drawings of many maps in a process of their own: an ended game's HTML page, a replay GIF
(issue 41: pictures never in the way of anyone else).

Why a process, and not the render workers: a whole Tannenbruck game's page draws ~330 maps
and cuts them into tiles, ~40 s of CPU.  In a thread of the bot (``asyncio.to_thread``) that
held the GIL for most of it, so every channel's replies and autocomplete waited behind it
(Pillow's drawing holds the GIL, as ``bot/renderpool.py`` says).  On a render worker it would
hold the worker past its 30-second budget and leave the live pictures queued behind it.  So
these jobs have a worker of their own, started when first needed, lowered in priority
(``nice``), so a player's order and picture take the CPU before it; one job at a time, the
others queued in order, each in a fresh process that ends with it, so no memory is held
between jobs.  Its memory is bounded as a render worker's is (:func:`bot.renderworker.start`:
a budget, and the bot's death ends it).  A worker that dies is replaced at the next job;
the job it was drawing fails with :class:`LongDrawFailed`.

What crosses to the worker is small and plain: the system's key and the steps' rows (their
stored states), and what comes back is bytes or a page's data; the functions run there are
module-level in the modules that own them (:func:`bot.export_html.page_of`,
:func:`bot.replaycmds.replay_of`), so that they pickle by name and this module imports
neither.
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import concurrent.futures as cf
import multiprocessing
import os
import threading
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable, TypeVar

from bot import renderworker
from bot.config import Settings

T = TypeVar("T")

#: How much the worker's priority is lowered: live pictures and orders come first.
NICENESS = 10


class LongDrawFailed(Exception):
    """The worker drawing a long job stopped (out of memory at the OS, killed): the job is
    not done.  The next job starts a new worker."""


def _start(memory_mb: int, parent: int, cache_mb: int) -> None:
    """The worker's initializer: a render worker's budget and parent watch, at low priority."""
    renderworker.start(memory_mb, parent, cache_mb)
    try:
        os.nice(NICENESS)
    except OSError as exc:  # a container that forbids it: the job still runs, at normal priority
        logging.getLogger("referee.render").info("long drawings at normal priority: %s", exc)


class LongDraws:
    """One worker process for drawings of many maps, made when first needed; ``run`` a
    module-level function there and await its result."""

    def __init__(self, memory_mb: int, cache_mb: int) -> None:
        self.memory_mb, self.cache_mb = memory_mb, cache_mb
        self._executor: cf.ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        self._closed = False

    def _worker(self) -> cf.ProcessPoolExecutor:
        with self._lock:
            if self._closed:
                raise LongDrawFailed("the bot is stopping")
            if self._executor is None:
                # A fresh process each job (forked from the server that has the renderers
                # imported: ~0.2 s against a job's 10-40 s): a 108-map page left its worker
                # holding 220 MB, which the bot's memory bound has no room for between jobs.
                self._executor = cf.ProcessPoolExecutor(
                    max_workers=1, mp_context=multiprocessing.get_context("forkserver"),
                    initializer=_start, initargs=(self.memory_mb, os.getpid(), self.cache_mb),
                    max_tasks_per_child=1)
            return self._executor

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the worker (after the jobs before it); ``fn`` is a module-level
        function (it is pickled by name), its arguments and result plain data."""
        executor = self._worker()
        try:
            return await asyncio.wrap_future(executor.submit(_bounded, fn, *args))
        except BrokenProcessPool as exc:
            with self._lock:
                if self._executor is executor:
                    self._executor = None  # the next job gets a new worker
            executor.shutdown(wait=False, cancel_futures=True)
            raise LongDrawFailed("the drawing worker stopped while drawing it") from exc
        except MemoryError as exc:
            raise LongDrawFailed(f"the drawing needed more than {self.memory_mb} MB") from exc

    def pids(self) -> list[int]:
        """The worker's process id, when it is up (the tests and the benchmark read it)."""
        with self._lock:
            processes = getattr(self._executor, "_processes", None) or {}
            return list(processes)

    def close(self) -> None:
        """Stop the worker; jobs still waiting fail."""
        with self._lock:
            self._closed = True
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)


_SHARED: dict[tuple[int, int], LongDraws] = {}
_SHARED_LOCK = threading.Lock()


def shared(settings: Settings) -> LongDraws:
    """The process's long-drawing worker for these settings' memory budgets (the tests
    open hundreds of services: one worker serves them all)."""
    key = (settings.render_memory_mb, settings.render_cache_mb)
    with _SHARED_LOCK:
        draws = _SHARED.get(key)
        if draws is None:
            draws = _SHARED[key] = LongDraws(*key)
        return draws


@atexit.register
def _close_all() -> None:
    with _SHARED_LOCK:
        every = list(_SHARED.values())
    for draws in every:
        draws.close()


def _bounded(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` in the worker, under the memory cap set again from what it holds now,
    and the heap's free pages given back after it."""
    renderworker.recap()
    try:
        return fn(*args)
    finally:
        renderworker.trim()


__all__ = ["LongDrawFailed", "LongDraws", "NICENESS", "shared"]
