"""Whose CPU a benchmark window used (issue 23: can two bot processes on two cores beat one
by 1.6× when the database server runs on the same cores?).

A thread samples, every :data:`EVERY` seconds, the CPU seconds of the database server's
processes (the PostgreSQL postmaster and every child of it: backends, WAL writer,
checkpointer; from ``/proc/<pid>/stat``) and the whole machine's busy time (``/proc/stat``).
:meth:`CpuWatch.between` then gives both for a window, such as the timed part of child
processes that started at an agreed instant.  A backend that exits after the window still
counts, and so does one that exits inside it (as its last sample saw it).  Linux only;
elsewhere the figures are zero.
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path

#: Seconds between two samples, and between two looks for new server processes (a look at
#: every process costs ~4 ms of CPU here, which the measured bots would miss).
EVERY = 0.1
RESCAN = 0.5
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


@dataclass(frozen=True)
class Spent:
    """CPU seconds spent in a window of ``wall`` seconds."""

    server: float
    machine: float
    wall: float


def _stat(pid: str) -> tuple[int, float] | None:
    """``(parent pid, CPU seconds)`` of a process, or None if it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / _TICK


def _machine_busy() -> float:
    """CPU seconds the machine has been busy (every core; idle and I/O wait left out)."""
    try:
        values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except OSError:
        return 0.0
    return (sum(values) - values[3] - values[4]) / _TICK


class CpuWatch:
    """Use as ``with CpuWatch(server_pid) as watch:``; then :meth:`between` (``server_pid``:
    the postmaster's, None when no server runs beside the bench)."""

    def __init__(self, server_pid: int | None) -> None:
        self._server = server_pid
        self._samples: list[tuple[float, float, dict[int, float]]] = []
        self._pids: set[int] = set()
        self._rescan_at = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample_until_stopped, daemon=True)

    def __enter__(self) -> "CpuWatch":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()

    def _sample_until_stopped(self) -> None:
        while True:
            self._samples.append((time.time(), _machine_busy(), self._server_cpu()))
            if self._stop.wait(EVERY):
                return

    def _server_cpu(self) -> dict[int, float]:
        if self._server is None or not Path("/proc").is_dir():
            return {}
        if time.monotonic() >= self._rescan_at:  # new backends: a look at every process
            self._pids = {int(pid) for pid in os.listdir("/proc") if pid.isdigit()
                          and (int(pid) == self._server or (_stat(pid) or (0, 0.0))[0] == self._server)}
            self._rescan_at = time.monotonic() + RESCAN
        found = {}
        for pid in list(self._pids):
            stat = _stat(str(pid))
            if stat is None:
                self._pids.discard(pid)
            else:
                found[pid] = stat[1]
        return found

    def between(self, start: float, end: float) -> Spent:
        """What was spent from ``start`` to ``end`` (``time.time()`` instants), as the last
        samples at or before each saw it; a server process that exited in between (the
        backends of a bot process that finished first) counts as its last sample saw it."""
        before = [s for s in self._samples if s[0] <= start] or self._samples[:1]
        if not before:
            return Spent(0.0, 0.0, end - start)
        began, busy0, server0 = before[-1]
        busy1, last = busy0, dict(server0)
        for at, busy, server in self._samples:
            if began < at <= end:
                busy1 = busy
                last.update(server)
        server = sum(cpu - server0.get(pid, 0.0) for pid, cpu in last.items())
        return Spent(server=server, machine=busy1 - busy0, wall=end - start)
