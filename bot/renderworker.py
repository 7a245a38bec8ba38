"""What runs inside a render worker process (:mod:`bot.renderpool` starts them, issue 41).

Only this crosses the process boundary: a :class:`DrawRequest` in (the view to draw, a
pydantic model of plain data, and which picture), PNG bytes out.  Nothing live (no store, no
game, no event loop) is sent, so a request pickles in a few kilobytes and a worker can be
killed and replaced at any moment without losing anything but the picture it was drawing.
A worker's garbage collector is tuned as the bot's is (:func:`bot.runtime.tune_gc`, in
:func:`warm`): its caches are many small objects that live as long as it does.

A worker bounds itself (issue 45, point 9: a scenario file must not take the bot's memory):
:func:`draw` caps its address space at what it holds before each picture plus a budget
(``RLIMIT_AS``), so a render that would take more fails with ``MemoryError`` inside the
worker instead of swapping the machine.  Its caches of whole-map images hold at most the
settings' ``render_cache_mb`` (:func:`render.caches.set_budget`), and when its resident
memory has grown past what it held warm plus that much, the C heap's free pages go back
to the system (glibc's ``malloc_trim``: a picture's drawing-scale images are freed, but
glibc kept their pages, ~200 MB after every system's pictures; issue 41).  The time budget is kept by the pool, which kills a
worker whose picture runs past it (a worker cannot interrupt Pillow's C code itself).

Pillow and the renderers are imported inside the functions, not at the top: the bot's own
process imports this module to name its functions for the pool, and must not pay for Pillow.
"""

from __future__ import annotations

import ctypes
import functools
import json
import logging
import os
import resource
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, SerializeAsAny, TypeAdapter

from bot import parentwatch
from bot.runtime import tune_gc

log = logging.getLogger("referee.render")

#: Bytes in a megabyte, as the settings count them.
MB = 1024 * 1024


class DrawRequest(BaseModel):
    """One picture to draw: the view (any system's view model, as the service built it from
    the step just computed) and whether the whole map is wanted (else the focus picture)."""

    model_config = ConfigDict(frozen=True)

    view: SerializeAsAny[BaseModel]
    whole: bool = False

    def __reduce__(self) -> tuple[Callable[..., "DrawRequest"], tuple[object, ...]]:
        """Pickled as the view's class and JSON: pydantic's own JSON both ways is a third of
        the CPU of pickling the models field by field (a Maschinen Krieger view, 1,200 hexes:
        4.0 ms in the bot and the worker together against 1.6 ms), and gives the same view.

        A view's big lists (a hex map's 1,200 cells: 66 of its 68 kB) go as JSON of their
        own, which the worker validates once and keeps (:func:`_static_part`): they are the
        same in every picture of a game, and validating them was nearly all of the 2.2 ms a
        mak request cost the worker to unpickle.  So does a list whose items are the very
        models an earlier request's held (a view's static pieces, made once by the rules: a
        hex map's cells, an area map's areas), and its JSON is not made again either
        (:func:`_apart`).  Every request still carries them whole, so a worker that has not
        seen them (new, or replaced) needs nothing else."""
        big = _apart(self.view)
        rest = self.view.model_dump_json(exclude=set(big)) if big else self.view.model_dump_json()
        parts = tuple((name, text) for name, text in big.items())
        return (_request_of, (type(self.view), rest, self.whole, parts))


#: A view's list field this long or longer travels as JSON of its own (see
#: :meth:`DrawRequest.__reduce__`): a hex map's cells (about 1,200), not a table's few pieces.
BIG_LIST = 256


def _apart(view: BaseModel) -> dict[str, bytes]:
    """The JSON of each of ``view``'s list fields that travels apart: :data:`BIG_LIST` items
    or more, or items all shared with a list dumped before (:func:`_dumped`)."""
    out: dict[str, bytes] = {}
    for name in type(view).model_fields:
        value = getattr(view, name)
        if isinstance(value, list) and value and isinstance(value[0], BaseModel):
            text = _dumped(type(view), name, value)
            if text is not None:
                out[name] = text
    return out


#: The JSON of list fields made before, by view class, field and first item's identity,
#: with the items it was made of (held, so their identities stay theirs); bounded.
_DUMPED: "OrderedDict[tuple[type[BaseModel], str, int], tuple[list[Any], bytes]]" = OrderedDict()
#: Small lists seen once, not dumped apart yet: most (a view's counters, its marks) are new
#: models every picture and are never seen again; those seen twice are a view's pieces.
_ONCE: "OrderedDict[tuple[type[BaseModel], str, int], list[Any]]" = OrderedDict()
#: How many lists each keeps (a few games of each system at once).
DUMPED_KEPT = 32
#: Each executor's feeder thread pickles its requests: one lock for them all.
_DUMPED_LOCK = threading.Lock()


def _same(kept: list[Any] | None, items: list[Any]) -> bool:
    """Whether ``items`` are the very objects ``kept`` holds, in order."""
    return kept is not None and len(kept) == len(items) and all(a is b for a, b in zip(kept, items))


def _remember(table: "OrderedDict[Any, Any]", key: Any, value: Any) -> None:
    table[key] = value
    table.move_to_end(key)
    while len(table) > DUMPED_KEPT:
        table.popitem(last=False)


def _dumped(kind: type[BaseModel], name: str, items: list[Any]) -> bytes | None:
    """The JSON of list field ``name`` of a ``kind`` holding ``items``, when it travels
    apart: the text made before when every item is the same object as then (a view is
    never changed once built, so the same models dump the same); else made now for a big
    list, or for a small one seen once before (a view's pieces); else None (a small list
    of new models goes inline with the rest)."""
    key = (kind, name, id(items[0]))
    with _DUMPED_LOCK:
        hit = _DUMPED.get(key)
        if hit is not None and _same(hit[0], items):
            _DUMPED.move_to_end(key)
            return hit[1]
        again = _same(_ONCE.get(key), items)
        if len(items) < BIG_LIST and not again:
            _remember(_ONCE, key, list(items))
            return None
    text = _adapter(kind, name).dump_json(items)
    with _DUMPED_LOCK:
        _ONCE.pop(key, None)
        _remember(_DUMPED, key, (list(items), text))
    return text


@functools.cache
def _adapter(kind: type[BaseModel], name: str) -> TypeAdapter[Any]:
    """The pydantic adapter of field ``name`` of ``kind`` (made once per field), with the
    field's own constraints and serializers (``Annotated`` metadata), so the list dumps and
    validates apart as it does inside its model."""
    field = kind.model_fields[name]
    assert field.annotation is not None  # a list field of a model: always annotated
    if field.metadata:
        return TypeAdapter(Annotated[field.annotation, *field.metadata])  # type: ignore[arg-type]
    return TypeAdapter(field.annotation)


#: The big lists validated in this worker, by their JSON (a game's map: the same bytes in
#: every request); bounded, oldest first out.
_STATIC: "OrderedDict[tuple[type[BaseModel], str, bytes], Any]" = OrderedDict()
#: How many big lists a worker keeps (a few games' maps at once).
STATIC_KEPT = 16


def _static_part(kind: type[BaseModel], name: str, text: bytes) -> Any:
    """Field ``name`` of ``kind`` validated from ``text``, once per distinct JSON.  The
    models are shared between the views that hold them: a renderer never changes a view."""
    key = (kind, name, text)
    hit = _STATIC.get(key)
    if hit is None:
        hit = _adapter(kind, name).validate_json(text)
        _STATIC[key] = hit
        while len(_STATIC) > STATIC_KEPT:
            _STATIC.popitem(last=False)
    else:
        _STATIC.move_to_end(key)
    return hit


def _request_of(kind: type[BaseModel], text: str, whole: bool,
                parts: tuple[tuple[str, bytes], ...] = ()) -> DrawRequest:
    """A :class:`DrawRequest` from its pickled parts (:meth:`DrawRequest.__reduce__`): the
    view's JSON and its big lists, each validated once per worker."""
    if not parts:
        return DrawRequest(view=kind.model_validate_json(text), whole=whole)
    data = json.loads(text)
    for name, part in parts:
        # Already validated models: pydantic takes them as they are (no second validation).
        data[name] = list(_static_part(kind, name, part))
    return DrawRequest(view=kind.model_validate(data), whole=whole)


def address_space() -> int:
    """The bytes of address space this process holds now (``/proc/self/statm``'s first field)."""
    with open("/proc/self/statm", encoding="ascii") as statm:
        pages = int(statm.read().split()[0])
    return pages * os.sysconf("SC_PAGE_SIZE")


#: The worker's memory budget (MB), set by :func:`start` and applied by :func:`warm`.
_BUDGET: list[int] = []
#: The caches' budget (MB), set by :func:`start`; the resident bytes past which
#: :func:`release` gives the heap's free pages back: at least what the worker held warm
#: plus that budget (set by :func:`warm`), and after a trim :data:`TRIM_SLACK` above what
#: was left (what is left is in use: trimming again at once would free nothing).
_CACHE_MB: list[int] = []
_TRIM_AT: list[int] = []
#: How far the resident memory grows past what a trim left before the next (bytes): one
#: trim costs 2-8 ms, and the pages it gives back are faulted in again by the next big
#: picture (measured: trimming after every picture cost mak's focus pictures ~10%).
TRIM_SLACK = 96 * MB


def start(memory_mb: int, parent: int | None = None, cache_mb: int = 160) -> None:
    """The worker's initializer: keep its memory budget for :func:`warm` to apply, bound
    its image caches to ``cache_mb``, and watch the bot process ``parent``: a worker is a
    child of the forkserver, not of the bot, so it outlived a bot killed by SIGKILL (the
    crash tests left hundreds, until the machine ran out of memory).  It ends itself when
    the bot is gone (``bot/parentwatch.py``)."""
    from render.caches import set_budget  # noqa: PLC0415 - Pillow only in the worker

    _BUDGET[:] = [memory_mb]
    _CACHE_MB[:] = [cache_mb]
    set_budget(cache_mb * MB)
    if parent is not None:
        parentwatch.start_watching(parent)


def cap(memory_mb: int) -> None:
    """Cap the address space at what the worker holds now (its imports and warm caches)
    plus ``memory_mb``: a render needing more raises ``MemoryError`` here, not in the bot."""
    limit = address_space() + memory_mb * MB
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def recap() -> None:
    """Set the memory cap again from what the worker holds now (:func:`cap` of the budget
    :func:`start` kept; nothing without one): each job is bounded on its own."""
    if _BUDGET:
        cap(_BUDGET[0])


def draw(request: DrawRequest) -> bytes:
    """The PNG of ``request``: the whole map or the focus picture (:mod:`render`).

    The budget bounds this one picture: the cap is set again from what the worker holds
    now, so caches grown over a long life (a whole-map terrain layer per scenario and hex
    size) never eat it and make every later picture fail."""
    from render import focus, snapshot  # noqa: PLC0415 - Pillow only in the worker

    recap()
    png = (snapshot if request.whole else focus)(request.view).png
    release()
    return png


def resident() -> int:
    """The bytes of memory this process has resident now (``/proc/self/statm``'s second)."""
    with open("/proc/self/statm", encoding="ascii") as statm:
        pages = int(statm.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE")


def _trimmer() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None on a C library without it (musl: nothing to do)."""
    try:
        trim: Callable[[int], int] = ctypes.CDLL(None).malloc_trim
    except (AttributeError, OSError):
        return None
    return trim


_TRIM = _trimmer()


def trim() -> None:
    """Give every free page of the heap back (after a long job: a whole game's page)."""
    if _TRIM is not None:
        _TRIM(0)


def release() -> None:
    """Give the heap's free pages back when the worker holds more than it did warm plus
    its caches' budget (see the module doc; a few ms, only when past the mark)."""
    if _TRIM is not None and len(_TRIM_AT) == 2 and resident() > _TRIM_AT[1]:
        _TRIM(0)
        _TRIM_AT[1] = max(_TRIM_AT[0], resident() + TRIM_SLACK)


def warm(full: bool = True) -> int:
    """Return the worker's pid (the pool kills by it); with ``full``, first draw every
    registered system's opening, whole and focus, so the fonts, the renderers and the
    static layers of the usual scenarios are in this worker's caches before the first
    player's picture (a replacement skips it: it is needed now).  A system that fails to
    warm is logged and skipped: warming is a speed-up, never a reason to stop."""
    if full:
        _warm_every_system()
    # The bot's collector settings (``bot/runtime.py``): a worker holds thousands of cached
    # pieces, masks and fonts for its whole life, and with CPython's default thresholds a
    # full collection walked them every few pictures, about 4 ms a focus picture of a table
    # (a tenth of its drawing, measured over 36 commando pictures: 78 collections against 4).
    # What warming made is frozen out of the collector's sight with the modules.
    tune_gc()
    if _TRIM is not None:
        _TRIM(0)  # what warming freed
    mark = resident() + (_CACHE_MB[0] if _CACHE_MB else 160) * MB
    _TRIM_AT[:] = [mark, mark]
    if _BUDGET:
        cap(_BUDGET[0])
    return os.getpid()


def _warm_every_system() -> None:
    """Draw each registered system's opening, whole and focus (see :func:`warm`)."""
    from rules.core import registry  # noqa: PLC0415
    from rules.core.dice import SeededDice  # noqa: PLC0415
    from rules.core.playout import scenario_for  # noqa: PLC0415

    started = time.perf_counter()
    for key, system in sorted(registry.load_all().items()):
        try:
            state = system.setup(scenario_for(system, 1), dict(system.playout_hints.options),
                                 SeededDice(f"warm-{key}".encode())).state
            view = system.view(state)
            draw(DrawRequest(view=view, whole=True))
            draw(DrawRequest(view=view))
        except Exception:  # noqa: BLE001 - a cold cache is slower, not wrong
            log.exception("warming the renderer for %s failed", key)
    log.debug("render worker %s warm in %.2f s", os.getpid(), time.perf_counter() - started)


def resident_kb() -> int:
    """This worker's resident memory in kB (``VmRSS``), for the benchmark's memory row."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0
