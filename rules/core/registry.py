"""The registry of game systems, by key (``rr``, ``raiders``, ``commando``...), discovered.

A system is found without being named anywhere else, in two ways:

* a package under ``rules/`` (any but ``rules.core``) whose ``__init__`` exposes its
  :class:`GameSystem` instance as ``SYSTEM``;
* a system published as its own Python distribution declares an entry point in the group
  ``referee.systems`` (the ecosystem's plugin convention), pointing at the instance, its
  class or its package::

      [project.entry-points."referee.systems"]
      chess = "referee_chess:SYSTEM"

Every system found is checked once (:meth:`GameSystem.check_declarations`): an order or an
option the front ends cannot express stops the start-up with the system's name, rather than
reaching a player.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import logging
import pkgutil
import types
from typing import Any

import rules
from rules.core.contract import GameSystem
from rules.core.errors import RuleError

#: The entry-point group that installed system distributions register under.
ENTRY_POINT_GROUP = "referee.systems"

log = logging.getLogger("referee.registry")

_SYSTEMS: dict[str, GameSystem[Any]] = {}


def register(system: GameSystem[Any]) -> GameSystem[Any]:
    """Add a system under its key; registering another system under a taken key is an error."""
    known = _SYSTEMS.get(system.key)
    if known is not None and type(known) is type(system):
        return known  # found again (an entry point naming a class gives a new instance)
    if known is not None:
        raise ValueError(f"system key {system.key!r} is already registered by {type(known).__name__}")
    system.check_declarations()
    _SYSTEMS[system.key] = system
    return system


def unregister(key: str) -> None:
    """Forget a system (a test that installed a throwaway one cleans up with this)."""
    _SYSTEMS.pop(key, None)


def _as_system(obj: Any, origin: str) -> GameSystem[Any]:
    """The instance an entry point or a package names (a module's ``SYSTEM``, a class)."""
    if isinstance(obj, types.ModuleType):
        obj = getattr(obj, "SYSTEM", None)
    if isinstance(obj, type) and issubclass(obj, GameSystem):
        obj = obj()
    if not isinstance(obj, GameSystem):
        raise TypeError(f"{origin} does not name a GameSystem (found {type(obj).__name__})")
    return obj


def _package_systems() -> list[GameSystem[Any]]:
    """The ``SYSTEM`` of every package under ``rules/`` except ``rules.core``."""
    found = []
    for info in pkgutil.iter_modules(rules.__path__, prefix="rules."):
        if not info.ispkg or info.name == "rules.core":
            continue
        module = importlib.import_module(info.name)
        if hasattr(module, "SYSTEM"):
            found.append(_as_system(module, info.name))
    return found


def _entry_point_systems() -> list[GameSystem[Any]]:
    """The systems that installed distributions declare under :data:`ENTRY_POINT_GROUP`."""
    found = []
    for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        found.append(_as_system(entry.load(), f"entry point {entry.name!r} ({entry.value})"))
    return found


def load_all() -> dict[str, GameSystem[Any]]:
    """Discover every system (packages under ``rules/``, then entry points) and return them
    by key.  Cheap to call again: imported packages are cached by Python."""
    for system in _package_systems() + _entry_point_systems():
        register(system)
    return dict(sorted(_SYSTEMS.items()))


def get(key: str) -> GameSystem[Any]:
    """The system registered as ``key``, or a RuleError listing the keys there are."""
    systems = load_all() if key not in _SYSTEMS else _SYSTEMS
    if key not in systems:
        known = ", ".join(sorted(systems)) or "none"
        raise RuleError(f"There is no game system '{key[:40]}'; systems: {known}.")
    return systems[key]
