"""Every cache of the renderers, known in one place, so :func:`clear` empties them all (the
tests compare a picture drawn from cold caches with one drawn after others).

A cached function is declared with :func:`cached` (``functools.lru_cache`` that registers
itself); a module that keeps a cache of its own (a dict behind a lock) registers the function
that empties it with :func:`on_clear`.  Nothing here imports a renderer, so no renderer module
need be imported, or named, to clear the caches.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import lru_cache
from typing import Any, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])

_CLEARERS: list[Callable[[], None]] = []
_LOCK = threading.Lock()


def cached(maxsize: int) -> Callable[[F], F]:
    """``functools.lru_cache(maxsize)``, registered for :func:`clear`."""

    def wrap(fn: F) -> F:
        kept = lru_cache(maxsize=maxsize)(fn)
        on_clear(kept.cache_clear)
        # lru_cache's wrapper takes and returns what ``fn`` does; typeshed names it apart.
        return cast(F, kept)

    return wrap


def on_clear(clearer: Callable[[], None]) -> Callable[[], None]:
    """Register ``clearer``, a function that empties one cache, for :func:`clear`."""
    with _LOCK:
        _CLEARERS.append(clearer)
    return clearer


def clear() -> None:
    """Empty every registered cache (the next picture is drawn from scratch)."""
    with _LOCK:
        clearers = list(_CLEARERS)
    for clearer in clearers:
        clearer()
