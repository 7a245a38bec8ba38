"""Locks shared by every bot process on one SQLite file: a channel's turn and a lease.

Why: a deployment may shard its guilds over several processes on one SQLite file (WAL), and
a channel can be served by two of them for a moment (a reshard, a rolling restart).  SQLite
itself only serializes writes; without taking turns per channel, a process ordering as fast
as it can kept winning the version guard and the other's orders were refused after
``CONFLICT_RETRIES`` conflicts (issue 23, two processes in one channel).  PostgreSQL has
advisory locks for this (``bot/pgstore.py``); here they are byte-range locks on a file
beside the database, ``<db>-locks``, which holds no data.

The locks are Linux open-file-description locks (``F_OFD_SETLK``): held by this store's
open file, so two stores in one process exclude each other as two processes do, and the
kernel releases them when the process dies, however it dies.  Where the platform has no
OFD locks the classic per-process ``fcntl`` locks are used (processes still exclude each
other; two stores in one process do not), and without ``fcntl`` at all (Windows) the locks
are this process's only.  Each name is one byte at an offset hashed from it (64 bits: two
names sharing a byte would only take turns needlessly).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import functools
import hashlib
import os
import struct
import threading
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows: one process per file
    fcntl = None  # type: ignore[assignment]

#: Linux's open-file-description locks, if this platform has them.
_OFD = fcntl is not None and hasattr(fcntl, "F_OFD_SETLK")
#: Linux's ``struct flock``: type, whence, start, length, pid (0 for OFD locks).
_FLOCK = struct.Struct("hhqqi4x")
#: Hashed offsets stay below this (a positive ``off_t`` with room for the byte).
_SPAN = 1 << 62


@functools.lru_cache(maxsize=4096)  # a channel is locked once per command
def offset_of(name: str) -> int:
    """The byte that stands for ``name`` in the lock file."""
    digest = hashlib.blake2b(name.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big") % _SPAN


class FileLocks:
    """Exclusive one-byte locks on ``<db>-locks``, by name."""

    def __init__(self, database: Path) -> None:
        self.path = database.with_name(database.name + "-locks")
        self._fd: int | None = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600) if fcntl else None

    def try_lock(self, name: str) -> bool:
        """Take ``name`` if no other store holds it; never waits."""
        return self._fcntl(offset_of(name), lock=True, wait=False)

    async def lock(self, name: str) -> None:
        """Take ``name``, waiting for whoever holds it.  The wait is the kernel's, on a
        thread of its own, so the holder's release wakes us at once (no polling); if this
        task is cancelled meanwhile, the lock is given back as soon as the wait ends."""
        if self.try_lock(name):
            return
        loop = asyncio.get_running_loop()
        taken: asyncio.Future[None] = loop.create_future()
        offset = offset_of(name)

        def settle(error: OSError | None) -> None:
            if taken.cancelled():
                if error is None:
                    self._unlock(offset)  # nobody wants it any more
            elif error is None:
                taken.set_result(None)
            else:
                taken.set_exception(error)

        def wait() -> None:
            try:
                self._fcntl(offset, lock=True, wait=True)
                error: OSError | None = None
            except OSError as exc:
                error = exc
            try:
                loop.call_soon_threadsafe(settle, error)
            except RuntimeError:  # the loop is closed: the process is ending
                self._unlock(offset)

        # A daemon thread: a wait for a lock held by a hung process must not hold up exit.
        threading.Thread(target=wait, name="referee-lock-wait", daemon=True).start()
        await taken

    def unlock(self, name: str) -> None:
        """Give ``name`` back."""
        self._unlock(offset_of(name))

    def close(self) -> None:
        """Close the lock file: every lock still held is given back."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def _unlock(self, offset: int) -> None:
        with contextlib.suppress(OSError):  # closed meanwhile: closing gave it back
            self._fcntl(offset, lock=False, wait=False)

    def _fcntl(self, offset: int, *, lock: bool, wait: bool) -> bool:
        """Take (``lock``) or give back the byte at ``offset``; False if another holds it."""
        if fcntl is None:
            return True  # no fcntl: the service's own per-channel lock is all there is
        if self._fd is None:
            raise OSError(errno.EBADF, "the lock file is closed")
        try:
            if _OFD:
                command = fcntl.F_OFD_SETLKW if lock and wait else fcntl.F_OFD_SETLK
                kind = fcntl.F_WRLCK if lock else fcntl.F_UNLCK
                fcntl.fcntl(self._fd, command, _FLOCK.pack(kind, os.SEEK_SET, offset, 1, 0))
            else:  # lockf packs the platform's own struct flock
                how = (fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB)) if lock else fcntl.LOCK_UN
                fcntl.lockf(self._fd, how, 1, offset, os.SEEK_SET)
        except OSError as exc:
            if exc.errno in (errno.EAGAIN, errno.EACCES):
                return False
            raise
        return True
