"""A worker process that ends itself when the bot that started it is gone.

A worker of a ``ProcessPoolExecutor`` waits on its call queue, and it holds both ends of
that queue's pipe: a bot killed outright (SIGKILL, the out-of-memory killer) never closes
it, so the worker waited for ever, orphaned (the render workers' crash tests left hundreds).
A pool's initializer calls :func:`start_watching` with the bot's process id; a daemon thread
looks every :data:`WATCH_EVERY` seconds and ends the worker once the bot is gone.
"""

from __future__ import annotations

import os
import threading
import time

#: How often a worker looks whether the bot that started it is still there (seconds).
WATCH_EVERY = 1.0


def start_watching(parent: int) -> None:
    """Watch process ``parent`` from a daemon thread of this (worker) process."""
    threading.Thread(target=watch, args=(parent,), name="watch-bot", daemon=True).start()


def watch(parent: int) -> None:
    """End this process as soon as process ``parent`` no longer exists."""
    while True:
        time.sleep(WATCH_EVERY)
        try:
            os.kill(parent, 0)
        except ProcessLookupError:
            os._exit(0)
        except PermissionError:
            continue  # there, under another user: alive


__all__ = ["WATCH_EVERY", "start_watching", "watch"]
