"""The registry of game systems, by key (``rr``, ``raiders``, ``commando``...).

Systems register themselves when their package is imported; :func:`load_all` imports the
packages listed in :data:`SYSTEM_PACKAGES`, so adding a system is one line here and no change
in ``bot/``.
"""

from __future__ import annotations

import importlib

from rules.core.contract import GameSystem
from rules.core.errors import RuleError

#: Packages that define a system; each calls :func:`register` on import.
SYSTEM_PACKAGES: tuple[str, ...] = ("rules.rr", "rules.raiders", "rules.commando")

_SYSTEMS: dict[str, GameSystem] = {}


def register(system: GameSystem) -> GameSystem:
    """Add a system under its key; registering the same key twice is a programming error."""
    if system.key in _SYSTEMS and _SYSTEMS[system.key] is not system:
        raise ValueError(f"system key {system.key!r} is already registered")
    _SYSTEMS[system.key] = system
    return system


def load_all() -> dict[str, GameSystem]:
    """Import every system package that exists and return the systems by key."""
    for name in SYSTEM_PACKAGES:
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            # A system not written yet is simply absent; a broken import inside one is not.
            if exc.name != name:
                raise
    return dict(_SYSTEMS)


def get(key: str) -> GameSystem:
    """The system registered as ``key``, or a RuleError listing the keys there are."""
    systems = load_all()
    if key not in systems:
        known = ", ".join(sorted(systems)) or "none"
        raise RuleError(f"There is no game system '{key[:40]}'; systems: {known}.")
    return systems[key]
