"""Every cache of the renderers, known in one place, so :func:`clear` empties them all (the
tests compare a picture drawn from cold caches with one drawn after others).

A cached function is declared with :func:`cached` (``functools.lru_cache`` that registers
itself); a module that keeps a cache of its own (a dict behind a lock) registers the function
that empties it with :func:`on_clear`.  Nothing here imports a renderer, so no renderer module
need be imported, or named, to clear the caches.

The caches of whole-map images (a terrain layer per map and hex size, a table's cloth, a
network's routes at drawing scale: 1-60 MB each) are :func:`held` instead: besides its own
count, each entry is weighed in bytes (:func:`footprint`) and all of them share one budget
(:func:`set_budget`, from ``REFEREE_RENDER_CACHE_MB`` in a render worker), the least
recently used going first.  Counts alone let one worker that had drawn every system reach
800 MB (issue 41: 500 cached games and the workers must fit in 600 MB).  An entry is a pure
function of its key, so one evicted is drawn again, the same pixels.
"""

from __future__ import annotations

import dataclasses
import functools
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from functools import lru_cache
from typing import Any, TypeVar, cast

from PIL import Image

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


#: The bytes the :func:`held` caches may hold together unless :func:`set_budget` says
#: otherwise (a render worker sets it from the settings).
DEFAULT_BUDGET = 160 * 1024 * 1024
#: Bytes a pixel takes in memory by image mode (Pillow keeps RGB in four bytes).
_PIXEL_BYTES = {"1": 1, "L": 1, "P": 1, "I;16": 2, "I": 4, "F": 4}


@dataclasses.dataclass
class _Held:
    """The :func:`held` entries, least recently used first: ``(cache, key) -> (value,
    bytes)``; their bytes in all, and how many each cache holds."""

    budget: int = DEFAULT_BUDGET
    entries: OrderedDict[tuple[str, Hashable], tuple[Any, int]] = dataclasses.field(default_factory=OrderedDict)
    total: int = 0
    counts: dict[str, int] = dataclasses.field(default_factory=dict)


_HELD = _Held()
_HELD_LOCK = threading.Lock()
#: What a miss returns (a cached value may be None).
MISSING: Any = object()


def footprint(value: Any) -> int:
    """The bytes an entry's images take: an image's pixels, summed through the tuples,
    lists and objects that hold them (one level of attributes deep); other values count 0
    (their keys and texts are small beside a picture)."""
    if isinstance(value, Image.Image):
        return value.width * value.height * _PIXEL_BYTES.get(value.mode, 4)
    if isinstance(value, (tuple, list)):
        return sum(footprint(v) for v in value)
    if isinstance(value, (bytes, bytearray)):
        return len(value)
    if hasattr(value, "__dict__") and not isinstance(value, type):
        return sum(footprint(v) for v in vars(value).values() if isinstance(v, (Image.Image, tuple, list, bytes)))
    return 0


def set_budget(nbytes: int) -> None:
    """Let the :func:`held` caches hold ``nbytes`` together (the oldest go at once)."""
    with _HELD_LOCK:
        _HELD.budget = nbytes
        _evict(None, 0)


def held_bytes() -> tuple[int, int]:
    """``(bytes held, budget)`` of the :func:`held` caches (the tests and the bench)."""
    with _HELD_LOCK:
        return _HELD.total, _HELD.budget


def recall(cache: str, key: Hashable) -> Any:
    """The value ``cache`` holds for ``key`` (now the most recently used), or :data:`MISSING`."""
    with _HELD_LOCK:
        entry = _HELD.entries.get((cache, key))
        if entry is None:
            return MISSING
        _HELD.entries.move_to_end((cache, key))
        return entry[0]


def keep(cache: str, key: Hashable, value: Any, maxsize: int) -> Any:
    """Hold ``value`` for ``key`` in ``cache`` (at most ``maxsize`` entries of it), within the
    shared budget: the least recently used entries go first, of this cache while it holds
    more than ``maxsize``, of any while all hold more than the budget (the new one stays,
    whatever its size: it is about to be used)."""
    weight = footprint(value)
    with _HELD_LOCK:
        old = _HELD.entries.pop((cache, key), None)
        if old is not None:
            _HELD.total -= old[1]
            _HELD.counts[cache] -= 1
        _HELD.entries[(cache, key)] = (value, weight)
        _HELD.total += weight
        _HELD.counts[cache] = _HELD.counts.get(cache, 0) + 1
        _evict(cache, maxsize)
    return value


def _evict(cache: str | None, maxsize: int) -> None:
    """Drop the oldest entries (of ``cache`` past ``maxsize``; of any past the budget),
    never the newest.  Called with the lock held."""
    entries = _HELD.entries
    while cache is not None and _HELD.counts.get(cache, 0) > maxsize:
        _drop(next(k for k in entries if k[0] == cache))
    while _HELD.total > _HELD.budget and len(entries) > 1:
        _drop(next(iter(entries)))


def _drop(ident: tuple[str, Hashable]) -> None:
    _, weight = _HELD.entries.pop(ident)
    _HELD.total -= weight
    _HELD.counts[ident[0]] -= 1


@on_clear
def _forget_held() -> None:
    """Empty every :func:`held` cache."""
    with _HELD_LOCK:
        _HELD.entries.clear()
        _HELD.total = 0
        _HELD.counts.clear()


def held(maxsize: int) -> Callable[[F], F]:
    """Cache a function of hashable positional arguments returning images: at most
    ``maxsize`` results, and all :func:`held` caches within one budget in bytes (see the
    module doc).  Two threads missing at once both draw; the pixels are the same."""

    def wrap(fn: F) -> F:
        name = f"{fn.__module__}.{fn.__qualname__}"

        @functools.wraps(fn)
        def kept(*args: Hashable) -> Any:
            value = recall(name, args)
            if value is MISSING:
                value = keep(name, args, fn(*args), maxsize)
            return value

        return cast(F, kept)

    return wrap
