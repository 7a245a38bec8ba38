"""A state's JSON text, kept while the state lives, for the next order's copy (issue 23).

An order costs two whole-state passes besides its rules: its step row writes the new state
as JSON, and the next order resolves on a deep copy of that same state
(:meth:`rules.core.contract.GameSystem.copy_state`).  The text the step row stores is the
state already encoded, so :func:`remember` keeps it with the state (``Ledger.state_text``)
and :func:`copy` validates the copy from it in one pass (``model_validate_json``) instead of
dumping the state again and validating the dump (~74 against ~98 µs on a Raid and Riposte
state).

Text, not the JSON-mode dict it was encoded from: validating the dict is a little faster,
but a dict kept per live game is hundreds of containers the garbage collector must walk
and promote; with 200 channels every young collection found them all alive (measured:
more and slower collections, and their pauses in the 330 orders/s row's p99).  A string
is one object the collector never looks at.

Sound because a state is never changed in place once an order's step holds it: ``apply``
resolves every order on a copy (``contract.py``), read-only orders only read, and views and
pictures only read.  The copy equals the state: ``tests/platform/test_state_round_trip.py``
holds every system's state to a lossless JSON round trip at every state of random play
(tuples, integer keys and enums are validated back into their types).
"""

from __future__ import annotations

import functools
import weakref
from typing import TypeVar

from pydantic import BaseModel

S = TypeVar("S", bound=BaseModel)

#: Remembered texts by the state's ``id``: the state's weak reference (which of two states
#: that shared an id over time the entry is for) and its JSON text.  The reference's
#: callback drops the entry when the state goes, so the table holds only states in use.
_TEXTS: dict[int, tuple[weakref.ref[BaseModel], str]] = {}


def remember(state: BaseModel, text: str) -> None:
    """Keep ``text`` (``state`` as JSON, written for its step row) while ``state`` lives, for
    :func:`copy`."""
    key = id(state)
    _TEXTS[key] = (weakref.ref(state, functools.partial(_drop, key)), text)


def copy(state: S) -> S:
    """A deep copy of ``state``: validated from its remembered JSON text when it has one,
    from a Python-mode dump otherwise (a round trip: ~4x deepcopy's speed)."""
    entry = _TEXTS.get(id(state))
    if entry is not None and entry[0]() is state:
        return type(state).model_validate_json(entry[1])
    return type(state).model_validate(state.model_dump())


def remembered(state: BaseModel) -> bool:
    """Whether :func:`copy` would start from a remembered text of ``state``."""
    entry = _TEXTS.get(id(state))
    return entry is not None and entry[0]() is state


def _drop(key: int, ref: weakref.ref[BaseModel]) -> None:
    """The state behind ``ref`` is gone: forget its text (unless the entry is already
    another state's)."""
    entry = _TEXTS.get(key)
    if entry is not None and entry[0] is ref:
        del _TEXTS[key]


__all__ = ["copy", "remember", "remembered"]
