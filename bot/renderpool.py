"""Pictures drawn in worker processes, with a bounded queue (issue 41, point 1).

Why processes: Pillow's drawing holds the GIL, so a picture drawn in a thread of the bot's
process stalls its event loop; with other channels posting pictures at 10-60/s, channel A's
autocomplete p99 went from ~40 ms to 350-510 ms.  A worker process draws while the loop
answers.

What is used, and why: one ``concurrent.futures.ProcessPoolExecutor`` of **one** worker per
slot, not one executor of N workers.  The standard library does the process start, the
pickling and the crash detection (``BrokenProcessPool``); a slot of its own per worker lets
the pool (a) kill exactly the worker whose picture ran past the time budget, and replace it,
without failing the pictures the other workers are drawing (an N-worker executor breaks as a
whole when one worker dies), and (b) hand a worker a picture only when it is free, so the
queue is this module's, bounded, and never inside the executor.  (``pebble`` does the kill
too, but would be a new dependency for one function; this is ~200 lines of stdlib.)
Workers start by ``forkserver``: a clean process, not a fork of the bot's threads, and a
replacement is forked from a server that has Pillow and the renderers imported already.

The queue: :meth:`RenderPool.offer` starts a picture at once on a free worker, else puts it
in the queue (at most ``queue`` pictures wait), else refuses it (:class:`RenderBusy`).
The caller decides how long its reply waits (``bot/service.py``: not at all on a queue of
others' pictures beyond a short bound; the picture then follows).  A worker holds its own
caches (fonts, static layers) and is warmed at start (:func:`bot.renderworker.warm`).
A worker that dies is replaced; a picture that fails raises :class:`RenderFailed`, which
the service turns into an incident line: a reply is never lost to a picture.

Everything here is thread-safe and bound to no event loop: results are
``concurrent.futures.Future`` objects, which a coroutine awaits with ``asyncio.wrap_future``.
One pool per process serves every :class:`~bot.service.Service` opened with the same render
settings (:func:`shared`): the tests open hundreds of services, and start one worker.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures as cf
import functools
import heapq
import itertools
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections import deque
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Callable

from bot import renderworker
from bot.config import Settings
from bot.renderworker import DrawRequest

log = logging.getLogger("referee.render")

#: Modules the fork server imports once, so every worker forked from it has them.
PRELOAD = ["bot.renderworker", "render", "rules.core.registry"]
#: Times in a row a worker may fail to start before its slot is given up.
START_TRIES = 3


class RenderBusy(Exception):
    """Every worker is busy and the queue is full: the picture is not drawn now."""


class RenderFailed(Exception):
    """A picture its worker could not draw: past the time or memory budget, or the worker
    stopped.  The worker has been replaced."""


@dataclass(frozen=True)
class Ticket:
    """A picture offered to the pool: its PNG to come, and whether it had to queue behind
    other pictures (False: a worker started it at once)."""

    future: cf.Future[bytes]
    queued: bool


@dataclass
class PoolStats:
    """What the pool has done since it started (the benchmark and the tests read it)."""

    drawn: int = 0
    failed: int = 0
    refused: int = 0
    queued: int = 0
    replaced: int = 0


#: A picture waiting for a worker: the request, its PNG to come, and whether it is a second try.
_Waiting = tuple[DrawRequest, "cf.Future[bytes]", bool]


@dataclass(eq=False)
class _Slot:
    """One worker: its executor, the pid it reported, and the picture it is drawing."""

    index: int
    executor: cf.ProcessPoolExecutor | None = None
    pid: int | None = None
    busy: bool = True
    job: cf.Future[bytes] | None = None
    killed: bool = False
    tries: int = 0
    dead: bool = False
    warming: cf.Future[int] | None = field(default=None, repr=False)


class Watchdog:
    """One thread that calls ``expire(slot, job)`` for each picture still drawing past its
    deadline.  A ``threading.Timer`` a picture started a thread for every picture: ~3 ms of
    the bot's main thread waiting for it to start, and its CPU, for a budget that almost
    never runs out.  A finished picture is forgotten at once (its PNG is not held until
    its deadline)."""

    def __init__(self, expire: Callable[["_Slot", "cf.Future[bytes]"], None]) -> None:
        self._expire = expire
        self._due: list[tuple[float, int]] = []
        self._jobs: dict[int, tuple[_Slot, cf.Future[bytes]]] = {}
        self._tokens = itertools.count()
        self._wake = threading.Condition(threading.Lock())
        self._thread: threading.Thread | None = None
        self._stopped = False

    def watch(self, seconds: float, slot: "_Slot", job: "cf.Future[bytes]") -> int:
        """Call ``expire(slot, job)`` in ``seconds`` unless forgotten by then; the token
        that :meth:`forget` takes."""
        token = next(self._tokens)
        with self._wake:
            self._jobs[token] = (slot, job)
            heapq.heappush(self._due, (time.monotonic() + seconds, token))
            if self._thread is None:
                self._thread = threading.Thread(target=self._loop, name="referee-render-watchdog", daemon=True)
                self._thread.start()
            elif self._due[0][1] == token:
                self._wake.notify()  # the new deadline comes first: wait for it instead
        return token

    def forget(self, token: int) -> None:
        """The picture of ``token`` finished: no deadline for it any more."""
        with self._wake:
            self._jobs.pop(token, None)
            while self._due and self._due[0][1] not in self._jobs:
                heapq.heappop(self._due)  # keeps the heap as short as the pictures drawing

    def stop(self) -> None:
        """End the thread; deadlines still due are forgotten."""
        with self._wake:
            self._stopped, self._due, self._jobs = True, [], {}
            self._wake.notify()

    def _loop(self) -> None:
        while True:
            with self._wake:
                while not self._stopped and (not self._due or self._due[0][0] > time.monotonic()):
                    self._wake.wait(self._due[0][0] - time.monotonic() if self._due else None)
                if self._stopped:
                    return
                _, token = heapq.heappop(self._due)
                expired = self._jobs.pop(token, None)
            if expired is not None and not expired[1].done():
                self._expire(*expired)


class RenderPool:
    """``workers`` render processes and a queue of at most ``queue`` pictures; a picture
    running past ``timeout`` seconds has its worker killed and replaced; a worker may take
    ``memory_mb`` beyond what it holds at start, and hold ``cache_mb`` in its caches of
    whole-map images (:func:`render.caches.held`); with ``warm``, a worker's first start
    draws every system's opening before any picture (:func:`bot.renderworker.warm`)."""

    def __init__(self, workers: int, queue: int, timeout: float, memory_mb: int,
                 cache_mb: int = 160, warm: bool = True) -> None:
        self.workers, self.queue, self.timeout, self.memory_mb = workers, queue, timeout, memory_mb
        self.cache_mb, self.warm = cache_mb, warm
        self.stats = PoolStats()
        self._lock = threading.RLock()
        self._slots = [_Slot(i) for i in range(workers)]
        self._waiting: deque[_Waiting] = deque()
        self._started = False
        self._closed = False
        self._context = multiprocessing.get_context("forkserver")
        self._context.set_forkserver_preload(PRELOAD)
        self._watchdog = Watchdog(self._kill)

    # -- life cycle ------------------------------------------------------------------------

    def start(self) -> None:
        """Start (and warm) every worker that is not running; returns at once."""
        with self._lock:
            if self._started or self._closed:
                return
            self._started = True
            for slot in self._slots:
                self._launch(slot, full=self.warm)

    async def ready(self) -> None:
        """Start the workers and wait until each is warm (or has failed to start)."""
        self.start()
        with self._lock:
            warming = [s.warming for s in self._slots if s.warming is not None]
        await asyncio.gather(*(asyncio.wrap_future(w) for w in warming), return_exceptions=True)

    def close(self) -> None:
        """Stop every worker; pictures still waiting fail with :class:`RenderFailed`."""
        with self._lock:
            self._closed = True
            executors = [s.executor for s in self._slots if s.executor is not None]
            waiting, self._waiting = list(self._waiting), deque()
        for _, out, _ in waiting:
            _settle(out, error=RenderFailed("the renderer was stopped"))
        self._watchdog.stop()
        for executor in executors:
            executor.shutdown(wait=False, cancel_futures=True)

    def pids(self) -> list[int]:
        """The workers' process ids (those that are up)."""
        with self._lock:
            return [s.pid for s in self._slots if s.pid is not None]

    # -- pictures --------------------------------------------------------------------------

    def offer(self, request: DrawRequest) -> Ticket:
        """Draw ``request``: at once on a free worker, else after the pictures queued before
        it.  Raises :class:`RenderBusy` when the queue is full, :class:`RenderFailed` when
        no worker can be started."""
        out: cf.Future[bytes] = cf.Future()
        with self._lock:
            if self._closed or (self._slots and all(s.dead for s in self._slots)):
                raise RenderFailed("no render worker could be started")
            self.start()
            free = next((s for s in self._slots if not s.busy and not s.dead), None)
            if free is not None and not self._waiting:
                self._run(free, request, out)
                return Ticket(out, queued=False)
            if len(self._waiting) >= self.queue:
                self.stats.refused += 1
                raise RenderBusy(f"{self.workers} render worker(s) busy, {len(self._waiting)} pictures queued")
            self.stats.queued += 1
            self._waiting.append((request, out, False))
            return Ticket(out, queued=True)

    def waiting(self) -> int:
        """Pictures queued now (not yet started)."""
        with self._lock:
            return len(self._waiting)

    # -- the workers (called with the lock held, or from an executor's thread) -------------

    def _launch(self, slot: _Slot, *, full: bool) -> None:
        """A new worker in ``slot`` (the old one, if any, is let go), busy until it is warm:
        the first start draws every system's opening, a replacement only reports its pid."""
        old = slot.executor
        slot.executor = cf.ProcessPoolExecutor(
            max_workers=1, mp_context=self._context, initializer=renderworker.start,
            initargs=(self.memory_mb, os.getpid(), self.cache_mb))
        slot.busy, slot.pid, slot.job = True, None, None
        try:
            warming = slot.executor.submit(renderworker.warm, full)
        except RuntimeError as exc:  # the interpreter is shutting down: no new processes
            log.info("render worker %s not started: %s", slot.index, exc)
            slot.dead = True
            self._fail_waiting_if_none_left()
            return
        slot.warming = warming
        warming.add_done_callback(functools.partial(self._warmed, slot, slot.executor, full))
        if old is not None:
            self.stats.replaced += 1
            old.shutdown(wait=False, cancel_futures=True)

    def _warmed(self, slot: _Slot, executor: cf.ProcessPoolExecutor, full: bool,
                warming: cf.Future[int]) -> None:
        with self._lock:
            if executor is not slot.executor or self._closed:
                return
            error = warming.exception()
            if error is not None:
                slot.tries += 1
                log.error("render worker %s failed to start (%s, try %s of %s)", slot.index,
                          error, slot.tries, START_TRIES)
                if slot.tries < START_TRIES:
                    self._launch(slot, full=full)
                else:
                    slot.dead = True
                    self._fail_waiting_if_none_left()
                return
            slot.pid, slot.tries, slot.busy = warming.result(), 0, False
            self._next(slot)

    def _fail_waiting_if_none_left(self) -> None:
        if all(s.dead for s in self._slots):
            waiting, self._waiting = list(self._waiting), deque()
            for _, out, _ in waiting:
                _settle(out, error=RenderFailed("no render worker could be started"))

    def _run(self, slot: _Slot, request: DrawRequest, out: cf.Future[bytes], retried: bool = False) -> None:
        """Start ``request`` on ``slot`` (free), watched for its time budget; ``retried``:
        its first worker died under it (it is not tried a third time)."""
        assert slot.executor is not None
        slot.busy, slot.job, slot.killed = True, out, False
        try:
            job = slot.executor.submit(renderworker.draw, request)
        except BrokenProcessPool:  # the worker died while idle (killed from outside)
            self._waiting.appendleft((request, out, retried))
            self._launch(slot, full=False)
            return
        token = self._watchdog.watch(self.timeout, slot, job)
        job.add_done_callback(functools.partial(self._finished, slot, (request, out, retried), token))

    def _kill(self, slot: _Slot, job: cf.Future[bytes]) -> None:
        """The time budget ran out: kill the worker (its executor then reports it broken)."""
        with self._lock:
            if job.done() or slot.pid is None:
                return
            slot.killed = True
            pid = slot.pid
        log.warning("render worker %s took over %.0f s; killing it", pid, self.timeout)
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass  # it finished (or died) in between: the executor tells which

    def _finished(self, slot: _Slot, what: "_Waiting", token: int, job: cf.Future[bytes]) -> None:
        self._watchdog.forget(token)
        request, out, retried = what
        error = job.exception() if not job.cancelled() else RenderFailed("the renderer was stopped")
        replace = isinstance(error, (BrokenProcessPool, MemoryError))
        if isinstance(error, BrokenProcessPool) and not slot.killed and not retried and not self._closed:
            # The worker died under it (killed from outside, out of memory at the OS): the
            # picture is tried once more, first, on the worker that replaces it.
            with self._lock:
                self.stats.failed += 1
                self._waiting.appendleft((request, out, True))
                slot.busy, slot.job = False, None
                self._launch(slot, full=False)
            return
        if isinstance(error, BrokenProcessPool):
            error = RenderFailed(f"the picture took over {self.timeout:.0f} s and was stopped" if slot.killed
                                 else "the render worker stopped while drawing it")
        elif isinstance(error, MemoryError):
            # A MemoryError can leave the worker's heap in pieces: a fresh one is cheap.
            error = RenderFailed(f"the picture needed more than {self.memory_mb} MB")
        with self._lock:
            if error is None:
                self.stats.drawn += 1
            else:
                self.stats.failed += 1
            slot.busy, slot.job = False, None
            if replace and not self._closed:
                self._launch(slot, full=False)
            else:
                self._next(slot)
        _settle(out, result=None if error else job.result(), error=error)

    def _next(self, slot: _Slot) -> None:
        """Give a free ``slot`` the oldest waiting picture nobody gave up on."""
        while self._waiting and not slot.busy and not self._closed:
            request, out, retried = self._waiting.popleft()
            if out.cancelled() or not (out.running() or out.set_running_or_notify_cancel()):
                continue  # its caller stopped waiting before it started
            self._run(slot, request, out, retried)


def _settle(out: cf.Future[bytes], *, result: bytes | None = None, error: BaseException | None = None) -> None:
    """Resolve ``out`` (unless it was cancelled by a caller that stopped waiting)."""
    if out.done():
        return
    if error is not None:
        out.set_exception(error)
    elif result is not None:
        out.set_result(result)


def worker_count(settings: Settings) -> int:
    """The settings' render workers: as set, else the machine's cores less one, at least one."""
    if settings.render_workers is not None:
        return settings.render_workers
    return max(1, len(os.sched_getaffinity(0)) - 1)


_POOLS: dict[tuple[int, int, float, int, int, bool], RenderPool] = {}
_POOLS_LOCK = threading.Lock()


def shared(settings: Settings) -> RenderPool:
    """The process's pool for these settings' render parameters, made on first use."""
    key = (worker_count(settings), settings.render_queue, settings.render_timeout, settings.render_memory_mb,
           settings.render_cache_mb, settings.render_warm)
    with _POOLS_LOCK:
        pool = _POOLS.get(key)
        if pool is None:
            pool = _POOLS[key] = RenderPool(*key)
        return pool


@atexit.register
def _close_all() -> None:
    with _POOLS_LOCK:
        pools = list(_POOLS.values())
    for pool in pools:
        pool.close()
