"""Only finite numbers go into JSON: a float NaN or infinity is refused where it is dumped.

JSON has no NaN and no infinity.  orjson writes either as ``null`` and pydantic does the same
by default, so a state holding one was stored (on SQLite and PostgreSQL alike, the text is
written above the store) as something other than what the rules computed, silently, and
the hash chain sealed the ``null``; the chain's canonical form (``bot/chain.py``, the
verifier's ``json.dumps(allow_nan=False)``) has no spelling for one at all.  So the step row
is refused where it is built (``Ledger.step_row``): :func:`require_finite` raises
:class:`NonFiniteNumber` naming the field (``state.units['a1'].x is nan``), the order
stores nothing, and the player gets the usual "something went wrong on our side" sentence
while the log says which field of which rule's result was not a number.  The conformance
kit asserts the same of every state of random play (``tests/conformance``), so a system that
can compute one is caught before a game ever does.

Checked on every order, so it must cost next to nothing.  A pydantic model is checked by
the fields JSON writes (by annotation, as pydantic writes them), planned once per model
class: a field whose type cannot hold a float is skipped (a state without float fields costs
one dictionary look-up), and the floats of the others are *added up*, in C where the shape
allows (``sum`` over a tuple of coordinates, ``map`` over a list of them): a NaN or an
infinity anywhere makes the sum NaN or infinite.  Only then is the value walked, to name the
place; a sum that overflowed from finite numbers alone finds none, and passes.  Values typed
``Any`` (or a type not planned: ``object``, a union holding a float and something else) are
walked whole.
"""

from __future__ import annotations

import enum
import math
import types
import typing
from collections.abc import Callable, Mapping
from operator import attrgetter
from typing import Any

from pydantic import BaseModel

#: The sum of the floats a value holds, for one declared type (NaN or infinite when it
#: holds a NaN or an infinity; finite numbers alone may overflow to infinity, rarely).
Total = Callable[[Any], float]


class NonFiniteNumber(ValueError):
    """A value to be written as JSON holds a float NaN or infinity (:attr:`path` names it)."""

    def __init__(self, path: str, value: float) -> None:
        self.path, self.value = path, value
        super().__init__(f"{path} is {value!r}: JSON has no NaN or infinity, so it cannot be"
                         " stored or sealed as computed (a rule produced a number that is"
                         " not one)")


def require_finite(value: Any, name: str = "state") -> None:
    """Raise :class:`NonFiniteNumber` naming the first place in ``value`` (called ``name``)
    holding a float NaN or infinity: a pydantic model by the fields JSON writes (planned
    once per class), anything else walked whole."""
    total = _model_total(type(value)) if isinstance(value, BaseModel) else _any_total
    if total is None or math.isfinite(total(value)):
        return
    path, bad = _find(value, name)
    if path:  # else finite numbers whose sum overflowed
        raise NonFiniteNumber(path, bad)


# -- the sums, planned from the annotations ------------------------------------------------

#: A model class's sum (None: none of its fields can hold a float); filled on first use.
_MODELS: dict[type[BaseModel], Total | None] = {}
_SCALARS = (int, str, bool, bytes, type(None))
#: Types a walk passes over at once (the ``isinstance`` checks that follow are slow on them).
_LEAVES = frozenset(_SCALARS)
_SEQUENCES = frozenset((list, tuple, set, frozenset))
#: Members of a union with a float that a sum of floats takes as they are.
_NUMBERS = (int, bool)


def _model_total(cls: type[BaseModel]) -> Total | None:
    """The sum of an instance of ``cls``, or None when none of its fields can hold a float."""
    if cls in _MODELS:
        return _MODELS[cls]
    _MODELS[cls] = _recursive(cls)  # a model that contains itself, while it is planned
    plain: list[str] = []  # fields declared ``float`` or ``float | None``: added in C
    others: list[tuple[str, Total]] = []
    for name, info in cls.model_fields.items():
        total = _total(info.annotation)
        if total is _float or total is _optional_float:
            plain.append(name)
        elif total is not None:
            others.append((name, total))
    others += [(name, _any_total) for name in cls.model_computed_fields]  # written too
    extra = cls.model_config.get("extra") == "allow"
    if not plain and not others and not extra:
        _MODELS[cls] = None
        return None
    # Fetched at once; ``filter(None, …)`` drops the Nones (and zeros, which add nothing).
    fetch = attrgetter(*plain, *plain[:1]) if plain else None  # two names or more: a tuple
    if fetch is not None and not others and not extra:  # the usual: a point, a unit's place
        planned: Total = lambda model: sum(filter(None, fetch(model)))  # noqa: E731
    else:
        def planned(model: Any) -> float:
            out = 0.0 if fetch is None else sum(filter(None, fetch(model)))
            for name, total in others:
                out += total(getattr(model, name))
            return out + _any_total(model.__pydantic_extra__) if extra else out
    _MODELS[cls] = planned
    return planned


def _recursive(cls: type[BaseModel]) -> Total:
    """The sum of a model met again while it is planned: its finished sum, at call time."""
    return lambda model: (_MODELS[cls] or _nothing)(model)


def _nothing(value: Any) -> float:
    return 0.0


def _float(value: float) -> float:
    return value


def _optional_float(value: float | None) -> float:
    return 0.0 if value is None else value


def _total(annotation: Any) -> Total | None:
    """The sum of a value declared ``annotation``, or None when it cannot hold a float."""
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Annotated:
        return _total(args[0])
    if origin is typing.Literal or annotation in _SCALARS:
        return None
    if annotation is float:
        return _float
    if isinstance(annotation, type) and origin is None:
        return _class_total(annotation)
    if origin in (list, set, frozenset) or (origin is tuple and len(args) == 2 and args[1] is ...):
        return _each(_total(args[0]) if args else _any_total)
    if origin is tuple and args:
        return _tuple_total(args)
    if origin in (dict, Mapping) and len(args) == 2:
        return _dict_total(args[0], args[1])
    if origin in (typing.Union, types.UnionType):
        return _union_total(args)
    return _any_total  # Any, object, a type not planned: walked whole


def _class_total(annotation: type) -> Total | None:
    """A plain class: a model's planned sum; an enum is written as its value (which its
    members fix); anything else is walked whole."""
    if issubclass(annotation, BaseModel):
        return _model_total(annotation)
    if issubclass(annotation, enum.Enum) and not issubclass(annotation, float):
        return None
    return _any_total


def _tuple_total(args: tuple[Any, ...]) -> Total | None:
    """A fixed tuple: the sum of its items that can hold a float."""
    items = [_total(a) for a in args]
    if all(t is None for t in items):
        return None
    if all(t is _float for t in items):
        return sum  # a point: (x, y)
    return lambda v: sum(t(x) for t, x in zip(items, v) if t is not None)


def _dict_total(key_type: Any, value_type: Any) -> Total | None:
    """A mapping: its values' sum, and its keys' where they are floats (JSON writes them as
    text, "nan" too)."""
    key, values = _total(key_type), _each(_total(value_type))
    if key is None:
        if values is None:
            return None
        sum_values = values
        return lambda v: sum_values(v.values())
    keys = _each(key)
    assert keys is not None
    return lambda v: keys(v.keys()) + (0.0 if values is None else values(v.values()))


def _union_total(args: tuple[Any, ...]) -> Total | None:
    """A union: added up as its one kind only where every other member adds up too (an int,
    a bool) or is None (``float | str`` holding its text is walked, not added to a float)."""
    kinds = [a for a in args if a is not type(None)]
    members = {_total(a) for a in kinds} - {None}
    if not members:
        return None
    if members == {_float} and all(a in _NUMBERS or _total(a) is _float for a in kinds):
        return _optional_float
    if len(members) == 1 and len(kinds) == 1:  # ``Model | None``, ``list[...] | None``
        inner = members.pop()
        assert inner is not None
        return lambda v: 0.0 if v is None else inner(v)
    return _any_total  # a union of several kinds: walked whole


def _each(item: Total | None) -> Total | None:
    """The sum over a collection whose items sum as ``item``."""
    if item is None:
        return None
    if item is _float:
        return sum
    return lambda v: sum(map(item, v))


def _any_total(value: Any) -> float:
    """0.0 when a value of no declared type holds no NaN or infinity (walked whole), else NaN."""
    stack = [value]
    pop, push = stack.pop, stack.extend
    while stack:
        v = pop()
        kind = type(v)
        if kind in _LEAVES:
            continue
        if kind is dict:
            push(v.values())  # its keys: text in JSON (orjson writes no other)
        elif kind in _SEQUENCES:
            push(v)
        elif isinstance(v, float):
            if not math.isfinite(v):
                return math.nan
        elif isinstance(v, BaseModel):
            total = _model_total(type(v))
            if total is not None and not math.isfinite(total(v)):
                return math.nan
        elif isinstance(v, Mapping):
            stack.extend(v.values())
    return 0.0


# -- the place, found once a check failed --------------------------------------------------

def _find(value: Any, path: str) -> tuple[str, float]:
    """The path and the value of the first NaN or infinity in ``value`` (which holds one)."""
    if isinstance(value, float):
        return (path, value) if not math.isfinite(value) else ("", 0.0)
    if isinstance(value, BaseModel):
        parts = [(f"{path}.{name}", getattr(value, name))
                 for name in (*type(value).model_fields, *type(value).model_computed_fields)]
        parts += [(f"{path}.{k}", v) for k, v in (value.__pydantic_extra__ or {}).items()]
    elif isinstance(value, Mapping):
        parts = [(f"{path}[{k!r}]", k) for k in value if isinstance(k, float)]
        parts += [(f"{path}[{k!r}]", v) for k, v in value.items()]
    elif isinstance(value, (list, tuple)):
        parts = [(f"{path}[{n}]", v) for n, v in enumerate(value)]
    elif isinstance(value, (set, frozenset)):
        parts = [(f"{path}{{…}}", v) for v in value]
    else:
        return "", 0.0
    for where, part in parts:
        found = _find(part, where)
        if found[0]:
            return found
    return "", 0.0


__all__ = ["NonFiniteNumber", "require_finite"]
