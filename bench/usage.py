"""What a bench process spent in the timed part of a run (issue 23: what limits two bot
processes on two cores): CPU of the whole process and of its event loop's thread, and, on
SQLite, how long its writer waited for the file's write lock (held by the other process)
and how many orders each commit (one fsync) carried.

The writer's two functions are wrapped in the bench process only (:func:`install`); the bot
is measured as it runs, with a counter around each call.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from bot import writer

_lock = threading.Lock()
#: Seconds the writer spent taking the write lock; group commits (one fsync each), the
#: units (orders) they carried and the seconds they took, lock wait included.
_totals = {"begin": 0.0, "commits": 0, "units": 0, "committing": 0.0}


def _counted(fn: Callable[..., Any], before: Callable[[tuple], None],
             after: Callable[[float], None]) -> Callable[..., Any]:
    def wrapper(*args: Any) -> Any:
        before(args)
        start = time.perf_counter()
        try:
            return fn(*args)
        finally:
            after(time.perf_counter() - start)
    return wrapper


def _add(key: str, value: float) -> None:
    with _lock:
        _totals[key] += value


def install() -> None:
    """Count the writer's lock waits and commits in this process (once)."""
    if getattr(writer._begin, "counted", False):
        return
    begin = _counted(writer._begin, lambda args: None, lambda took: _add("begin", took))
    begin.counted = True  # type: ignore[attr-defined]
    writer._begin = begin
    writer._commit_units = _counted(
        writer._commit_units,
        lambda args: (_add("commits", 1), _add("units", len(args[1]))),
        lambda took: _add("committing", took))


@dataclass
class Usage:
    """Start it when the timed part begins, stop it when it ends; :meth:`figures` then."""

    _start: dict[str, float] = field(default_factory=dict)
    _spent: dict[str, float] = field(default_factory=dict)
    _started_at: float = 0.0

    def _now(self) -> dict[str, float]:
        with _lock:
            totals = dict(_totals)
        return {"wall": time.perf_counter(), "cpu": time.process_time(),
                "loop": time.thread_time(), **totals}

    def start(self) -> None:
        """The timed part begins (on the event loop's thread)."""
        self._start = self._now()
        self._started_at = time.time()

    def stop(self) -> None:
        """The timed part ends (on the event loop's thread)."""
        end = self._now()
        self._spent = {k: end[k] - self._start[k] for k in end}

    def figures(self) -> dict[str, float]:
        """``wall``, ``cpu`` (every thread), ``loop`` (the event loop's thread) in seconds,
        ``begin`` (seconds waiting for the write lock), ``commits``, ``units`` and
        ``committing`` (seconds in group commits); ``started_at``, the ``time.time()`` the
        timed part began (a process that was late for the agreed start says so)."""
        return {**self._spent, "started_at": self._started_at}
