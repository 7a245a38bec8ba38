"""The commands running right now, so a shutdown lets them finish before the client closes.

An order committed while the bot is being stopped must still get its reply: the client
closes its HTTP session only after the commands in flight finished, or after a bounded wait
(the step is committed either way; a reply cut off by the wait is the only loss).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import AsyncIterator

log = logging.getLogger("referee.discord")


class InFlight:
    """A count of running commands and an event set whenever none runs."""

    def __init__(self) -> None:
        self.running = 0
        #: Set when the bot is stopping: new commands are turned away.
        self.closing = False
        self._idle = asyncio.Event()
        self._idle.set()

    @contextlib.asynccontextmanager
    async def track(self) -> AsyncIterator[None]:
        """Count the enclosed command as running."""
        self.running += 1
        self._idle.clear()
        try:
            yield
        finally:
            self.running -= 1
            if self.running == 0:
                self._idle.set()

    async def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for every running command; True if all finished."""
        if self.running == 0:
            return True
        log.info("waiting up to %.0f s for %d command(s) in flight", timeout, self.running)
        try:
            await asyncio.wait_for(self._idle.wait(), timeout)
        except asyncio.TimeoutError:
            log.warning("%d command(s) still running after %.0f s; closing anyway",
                        self.running, timeout)
            return False
        return True
