"""Drawings of many maps in a process of their own: an ended game's HTML page, a replay GIF
(issue 41: pictures never in the way of anyone else).

Why a process, and not the render workers: a whole Tannenbruck game's page draws ~330 maps
and cuts them into tiles, ~40 s of CPU.  In a thread of the bot (``asyncio.to_thread``) that
held the GIL for most of it, so every channel's replies and autocomplete waited behind it
(Pillow's drawing holds the GIL, as ``bot/renderpool.py`` says).  On a render worker it would
hold the worker past its 30-second budget and leave the live pictures queued behind it.  So
these jobs have a worker of their own, started when first needed, lowered in priority
(``nice``), so a player's order and picture take the CPU before it; one job at a time, the
others queued in order (here, not in the worker).  A worker is kept for the next job only
while it holds little: one that grew past :data:`KEEP_MB` over what it held fresh (a 79-map
page leaves ~116 MB, whether its job succeeded or not) is replaced after its job, and an idle worker
ends after :data:`IDLE_SECONDS`, so no page's memory is held between jobs; a small replay's worker is kept, since a fresh process costs a
job ~1.4 s of imports and cold caches (measured: a 5-map replay 1.9 s fresh, 0.5 s kept).
Its memory is bounded as a render worker's is (:func:`bot.renderworker.start`: a budget, and
the bot's death ends it).  A worker that dies is replaced at the next job;
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
import concurrent.futures as cf
import functools
import logging
import multiprocessing
import os
import threading
from collections import deque
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable, NamedTuple, TypeVar

from bot import renderworker
from bot.config import Settings

T = TypeVar("T")

log = logging.getLogger("referee.render")

#: How much the worker's priority is lowered: live pictures and orders come first.
NICENESS = 10
#: A worker grown by more than this (MB of resident memory, after its job and the heap's
#: trim) over what it held fresh is replaced before the next job.
KEEP_MB = 64
#: An idle worker ends after this many seconds (the next job starts a new one).
IDLE_SECONDS = 120.0
#: What the worker held when it started (bytes resident), set by :func:`_start`.
_FRESH: list[int] = []


class LongDrawFailed(Exception):
    """The worker drawing a long job stopped (out of memory at the OS, killed): the job is
    not done.  The next job starts a new worker."""


def _start(memory_mb: int, parent: int, cache_mb: int) -> None:
    """The worker's initializer: a render worker's budget and parent watch, at low priority."""
    renderworker.start(memory_mb, parent, cache_mb)
    _FRESH[:] = [renderworker.resident()]
    try:
        os.nice(NICENESS)
    except OSError as exc:  # a container that forbids it: the job still runs, at normal priority
        log.info("long drawings at normal priority: %s", exc)


def _watch(started: list[tuple["cf.Future[Any]", Callable[["cf.Future[Any]"], None]]]) -> None:
    """Attach each started job's ending to it (no lock held: see :meth:`LongDraws._next`)."""
    for running, ending in started:
        running.add_done_callback(ending)


class LongDraws:
    """One worker process for drawings of many maps, made when first needed; ``run`` a
    module-level function there and await its result.  ``keep_mb`` and ``idle_seconds``:
    when the worker is let go (:data:`KEEP_MB`, :data:`IDLE_SECONDS`).

    The jobs wait here, not in the executor: the worker is given one job at a time, and
    whether it is kept is decided when that job ends, before it is given the next (a job
    queued in a worker being let go would run there beside a new worker: two at once)."""

    def __init__(self, memory_mb: int, cache_mb: int, keep_mb: int = KEEP_MB,
                 idle_seconds: float = IDLE_SECONDS) -> None:
        self.memory_mb, self.cache_mb = memory_mb, cache_mb
        self.keep_mb, self.idle_seconds = keep_mb, idle_seconds
        self._executor: cf.ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        self._closed = False
        self._waiting: deque[_Job] = deque()
        self._busy = False  # a job is in the worker
        #: Counts the worker's jobs: an idle timer ends the worker only if none came since
        #: (a timer that fired while a job was being given finds the count moved on).
        self._given = 0
        self._idle: threading.Timer | None = None

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the worker (after the jobs before it); ``fn`` is a module-level
        function (it is pickled by name), its arguments and result plain data.  Raises
        :class:`LongDrawFailed` when the worker stopped under it."""
        out: cf.Future[Any] = cf.Future()
        with self._lock:
            if self._closed:
                raise LongDrawFailed("the bot is stopping")
            self._waiting.append(_Job(fn, args, out))
            started = self._next()
        _watch(started)
        result: T = await asyncio.wrap_future(out)
        return result

    def _next(self) -> list[tuple["cf.Future[Any]", Callable[["cf.Future[Any]"], None]]]:
        """Give the free worker the oldest job its caller still waits for; with none, the
        worker ends after ``idle_seconds`` unless a job comes first (lock held).

        Returns the job started with its ending (:meth:`_finished`), for the caller to
        attach once it has let the lock go (:func:`_watch`): a job that is over already
        runs its callback at once, in the attaching thread, and :meth:`_finished` takes the
        lock, which is not re-entrant: attached under it, a fast job on a slow machine
        deadlocked the event loop (seen in CI, tests/replay/test_longdraw.py)."""
        started: list[tuple[cf.Future[Any], Callable[[cf.Future[Any]], None]]] = []
        while self._waiting and not self._busy and not self._closed:
            job = self._waiting.popleft()
            if not job.out.set_running_or_notify_cancel():
                continue  # its caller stopped waiting before it started
            executor = self._worker()
            try:
                running = executor.submit(_bounded, job.fn, *job.args)
            except BrokenProcessPool:  # the kept worker died while idle (killed from outside)
                self._let_go(executor, cancel=True)
                executor = self._worker()
                running = executor.submit(_bounded, job.fn, *job.args)
            self._busy, self._given = True, self._given + 1
            self._stop_idle()
            started.append((running, functools.partial(self._finished, executor, job.out)))
        if not self._busy and not self._waiting and self._executor is not None and not self._closed:
            self._stop_idle()
            self._idle = threading.Timer(self.idle_seconds, self._idle_end, (self._executor, self._given))
            self._idle.daemon = True
            self._idle.start()
        return started

    def _stop_idle(self) -> None:
        """Cancel the idle timer, if one is set (lock held)."""
        if self._idle is not None:
            self._idle.cancel()
            self._idle = None

    def _finished(self, executor: cf.ProcessPoolExecutor, out: "cf.Future[Any]",
                  running: "cf.Future[tuple[Any, int]]") -> None:
        """A job ended (in the executor's thread): the worker is let go when it grew past
        ``keep_mb`` (a job that raised says how much it had grown), or died, or ran out of
        memory (a MemoryError may leave the heap in pieces; a fresh worker is cheap); then
        the job's caller gets its result or its own error, and the next job its turn."""
        error = running.exception() if not running.cancelled() else LongDrawFailed("the bot is stopping")
        grown = running.result()[1] if error is None else 0
        if isinstance(error, _Grew):  # the job's own error: the worker is sound
            grown = error.grown
            error = error.error
        broken = isinstance(error, (BrokenProcessPool, MemoryError, LongDrawFailed))
        with self._lock:
            self._busy = False
            if broken or grown > self.keep_mb * renderworker.MB:
                self._let_go(executor, cancel=isinstance(error, BrokenProcessPool))
        if isinstance(error, BrokenProcessPool):
            error = LongDrawFailed("the drawing worker stopped while drawing it")
        elif isinstance(error, MemoryError):
            error = LongDrawFailed(f"the drawing needed more than {self.memory_mb} MB")
        if not out.done():
            if error is not None:
                out.set_exception(error)
            else:
                out.set_result(running.result()[0])
        with self._lock:
            started = self._next()
        _watch(started)

    def _idle_end(self, executor: cf.ProcessPoolExecutor, given: int) -> None:
        """The idle timer: the worker ends if it got no job since the timer was set."""
        with self._lock:
            if self._busy or self._waiting or self._given != given:
                return
            self._let_go(executor)

    def _worker(self) -> cf.ProcessPoolExecutor:
        """The worker, made now if there is none (lock held)."""
        if self._executor is None:
            # Forked from the server that has the renderers imported.
            self._executor = cf.ProcessPoolExecutor(
                max_workers=1, mp_context=multiprocessing.get_context("forkserver"),
                initializer=_start, initargs=(self.memory_mb, os.getpid(), self.cache_mb))
        return self._executor

    def _let_go(self, executor: cf.ProcessPoolExecutor, cancel: bool = False) -> None:
        """Let ``executor``'s worker go if it is still the current one (lock held): it holds
        no job (one at a time), so it ends now; the next job starts a new one."""
        if self._executor is executor:
            self._executor = None
            executor.shutdown(wait=False, cancel_futures=cancel)

    def pids(self) -> list[int]:
        """The worker's process id, when it is up (the tests and the benchmark read it)."""
        with self._lock:
            processes = getattr(self._executor, "_processes", None) or {}
            return list(processes)

    def close(self) -> None:
        """Stop the worker; jobs still waiting fail."""
        with self._lock:
            self._closed = True
            self._stop_idle()
            executor, self._executor = self._executor, None
            waiting, self._waiting = list(self._waiting), deque()
        for job in waiting:
            if job.out.set_running_or_notify_cancel():
                job.out.set_exception(LongDrawFailed("the bot is stopping"))
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)


class _Job(NamedTuple):
    """A job waiting for the worker: the function, its arguments, and its caller's future."""

    fn: Callable[..., Any]
    args: tuple[Any, ...]
    out: "cf.Future[Any]"


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


def _bounded(fn: Callable[..., T], *args: Any) -> tuple[T, int]:
    """``fn(*args)`` in the worker, under the memory cap set again from what it holds now,
    and the heap's free pages given back after it; with the bytes the worker has grown by
    since it started (:meth:`LongDraws._done` decides from them whether to keep it)."""
    renderworker.recap()
    try:
        result = fn(*args)
    except Exception as exc:
        renderworker.trim()
        raise _Grew(exc, _grown()) from exc
    renderworker.trim()
    return result, _grown()


def _grown() -> int:
    """The bytes this worker has grown by since it started."""
    return renderworker.resident() - (_FRESH[0] if _FRESH else 0)


class _Grew(Exception):
    """A job's own error, with the bytes the worker had grown by when it failed: a page
    that failed after drawing half its maps lets its worker go as one that succeeded would."""

    def __init__(self, error: Exception, grown: int) -> None:
        super().__init__(error, grown)
        self.error, self.grown = error, grown


__all__ = ["IDLE_SECONDS", "KEEP_MB", "LongDrawFailed", "LongDraws", "NICENESS", "shared"]
