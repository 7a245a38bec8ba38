"""Renderers by view kind: ``@renderer("areamap")`` on a function from a view to a Scene.

A renderer module registers itself when imported::

    from render.registry import renderer
    from render.scene import Scene

    @renderer("hexmap")
    def hexmap_scene(view: HexMapView) -> Scene:
        ...

:func:`find` looks a kind up; on a miss it imports every module of the ``render`` package
once (``pkgutil``), so a new module such as ``render/hexmap.py`` is found with no edit to
``render/__init__.py`` or anywhere else.  Renderers outside the package register the same
way once their module is imported.
"""

from __future__ import annotations

import importlib
import pkgutil
import threading
from pathlib import Path
from typing import Any, Callable, TypeVar

SceneFn = Callable[[Any], Any]
F = TypeVar("F", bound=SceneFn)

_RENDERERS: dict[str, SceneFn] = {}
_LOCK = threading.Lock()
_SCANNED = False


def renderer(kind: str) -> Callable[[F], F]:
    """Register the decorated function as the renderer of views whose ``kind`` is ``kind``."""

    def register(fn: F) -> F:
        with _LOCK:
            _RENDERERS[kind] = fn
        return fn

    return register


def _scan() -> None:
    """Import every module of the ``render`` package once, so each registers itself."""
    global _SCANNED
    with _LOCK:
        if _SCANNED:
            return
        _SCANNED = True
    # The folder is listed, not the package imported: the package's __init__ imports this
    # module, and the registry must not import back up.
    for info in pkgutil.iter_modules([str(Path(__file__).parent)]):
        if not info.name.startswith("_"):
            importlib.import_module(f"render.{info.name}")


def find(kind: str) -> SceneFn:
    """The renderer of ``kind``; TypeError if none is registered."""
    if kind not in _RENDERERS:
        _scan()
    try:
        return _RENDERERS[kind]
    except KeyError:
        raise TypeError(f"no renderer for a view of kind {kind!r}") from None


def kinds() -> list[str]:
    """Every registered kind (after loading the package's modules)."""
    _scan()
    return sorted(_RENDERERS)
