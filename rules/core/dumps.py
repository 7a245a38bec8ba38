"""A state's JSON-mode dump, made once and kept while the state lives (issue 23).

An order costs two whole-state passes besides its rules: its step row writes the new state
as JSON, and the next order resolves on a deep copy of that same state
(:meth:`rules.core.contract.GameSystem.copy_state`).  Both can start from one JSON-mode dump:
:func:`json_dump` makes it (the store writes the state's text from it) and remembers it for
as long as the state object lives, and :func:`copy` validates a new state from it instead
of dumping the state a second time (about 40 % of a copy's cost on a Raid and Riposte
state, ``bench/run.py``).

Sound because a state is never changed in place once an order's step holds it: ``apply``
resolves every order on a copy (``contract.py``), read-only orders only read, and views and
pictures only read.  The copy is the same as a copy through a Python-mode dump:
``tests/platform/test_state_round_trip.py`` holds the two equal at every state of random play
in every system (JSON-mode values are re-validated into the same types: tuples, integer
keys, enums).  Pydantic builds new containers when it validates, so a copy never shares a
list or dict with the remembered dump (no state model has an untyped field), and the dump
is never handed to anything that writes to it (no state model has a ``mode="before"``
validator, which could).
"""

from __future__ import annotations

import weakref
from typing import Any, TypeVar

from pydantic import BaseModel

S = TypeVar("S", bound=BaseModel)

#: Remembered dumps by the state's ``id``: the state's weak reference (which of two states
#: that shared an id over time the entry is for) and its dump.  The reference's callback
#: drops the entry when the state goes, so the table holds only states still in use.
_DUMPS: dict[int, tuple[weakref.ref[BaseModel], dict[str, Any]]] = {}


def json_dump(state: BaseModel) -> dict[str, Any]:
    """``state.model_dump(mode="json")``, remembered while ``state`` lives for :func:`copy`.

    The caller must not change the dict it gets (it is the copy's source)."""
    data = state.model_dump(mode="json")
    key = id(state)
    _DUMPS[key] = (weakref.ref(state, lambda ref, key=key: _drop(key, ref)), data)
    return data


def copy(state: S) -> S:
    """A deep copy of ``state``: validated from its remembered JSON-mode dump when it has
    one, from a Python-mode dump otherwise (a JSON-mode round trip: ~4x deepcopy's speed)."""
    entry = _DUMPS.get(id(state))
    if entry is not None and entry[0]() is state:
        return type(state).model_validate(entry[1])
    return type(state).model_validate(state.model_dump())


def remembered(state: BaseModel) -> bool:
    """Whether :func:`copy` would start from a remembered dump of ``state``."""
    entry = _DUMPS.get(id(state))
    return entry is not None and entry[0]() is state


def _drop(key: int, ref: weakref.ref[BaseModel]) -> None:
    """The state behind ``ref`` is gone: forget its dump (unless the entry is already
    another state's)."""
    entry = _DUMPS.get(key)
    if entry is not None and entry[0] is ref:
        del _DUMPS[key]


__all__ = ["copy", "json_dump", "remembered"]
