"""The rest of a scenario file once its refused parts are set aside (issue 46): so that one
check reports every problem of a file, not the first kind only.

Pydantic lists every field it refuses at once, but a system's cross-field checks (ids,
references, the map) need a whole valid model.  So the parts pydantic refused are set
aside: a misspelt or unknown field is dropped, a list entry with a bad value is taken out
(the innermost entry holding the fault), a bad top-level value is left to its default; the
rest is validated again and cross-checked.  What is found on that rest is reported at the
paths of the file as written (indices counted in the original lists), and nothing is
reported about a part that was set aside (its container, an id it held): that would only
echo the first problem.

Plain data in, plain data out: nothing here knows a system or a model.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from collections.abc import Mapping, Sequence
from typing import Any

Loc = tuple[str | int, ...]


@dataclass
class SetAside:
    """What was set aside from a file's data: entries taken out of lists (by the list's path
    in the original data, original indices), fields dropped, and the ids they held."""

    removed: dict[Loc, set[int]] = field(default_factory=dict)
    dropped: list[Loc] = field(default_factory=list)
    ids: set[str] = field(default_factory=set)
    texts: set[str] = field(default_factory=set)

    def original(self, loc: Loc) -> Loc:
        """A path in the repaired data as a path in the file as written."""
        out: list[str | int] = []
        for part in loc:
            if isinstance(part, int):
                gone = self.removed.get(tuple(out), set())
                index = -1
                for _ in range(part + 1):
                    index += 1
                    while index in gone:
                        index += 1
                part = index
            out.append(part)
        return tuple(out)

    def touches(self, loc: Loc, message: str) -> bool:
        """Whether a problem found on the rest is about a part set aside: at an ancestor of
        it (the list that lost an entry, the unit that lost a team), or naming an id it held."""
        aside = [p + (i,) for p, indices in self.removed.items() for i in indices] + self.dropped
        if any(loc == a[:len(loc)] for a in aside):
            return True
        if any(f"'{text}'" in message for text in self.texts):
            return True
        return any(f" {ident} " in f" {message} " for ident in self.ids)

    @property
    def empty(self) -> bool:
        """Nothing was set aside."""
        return not self.removed and not self.dropped


def _walk(data: Any, loc: Loc) -> Any:
    for part in loc:
        data = data[part]
    return data


def _entry_of(data: Any, loc: Loc) -> tuple[Loc, str | int] | None:
    """The innermost entry on ``loc`` that can be set aside: a list's item, or an item of a
    mapping below the top (``weapons.mg42``, ``positions.5:2099``); its container's path
    and its index or key."""
    best: tuple[Loc, str | int] | None = None
    value = data
    for depth, part in enumerate(loc):
        if isinstance(value, list) and isinstance(part, int) and 0 <= part < len(value):
            best = (loc[:depth], part)
        elif isinstance(value, dict) and depth >= 1 and part in value:
            best = (loc[:depth], part)
        try:
            value = value[part]
        except (KeyError, IndexError, TypeError):
            break
    return best


def _ids_of(item: Any) -> set[str]:
    if isinstance(item, dict):
        return {str(item[k]) for k in ("id", "key") if isinstance(item.get(k), (str, int))}
    return set()


def _texts_of(item: Any) -> set[str]:
    """Every text an entry holds (the weapon keys a team carries): a check of the rest that
    quotes one of them ('mg42' carried by no team) is about the entry set aside."""
    if isinstance(item, dict):
        return {t for v in item.values() for t in _texts_of(v)}
    if isinstance(item, list):
        return {t for v in item for t in _texts_of(v)}
    return {item} if isinstance(item, str) else set()


def _first_choice(error: Mapping[str, Any]) -> str | None:
    """The first value a refused choice allows (``'merc' or 'strahl'``: merc), if any."""
    if error["type"] not in ("literal_error", "enum"):
        return None
    found = re.search(r"'([^']*)'", str(error.get("ctx", {}).get("expected", "")))
    return found.group(1) if found else None


def repair(data: dict[str, Any], errors: Sequence[Mapping[str, Any]], aside: SetAside,
           defaults: set[str]) -> dict[str, Any] | None:
    """``data`` (as repaired so far) without the parts ``errors`` refused, recording them in
    ``aside`` (in the file's own paths); None when a fault cannot be set aside (a required
    top-level field, the whole file)."""
    out = copy.deepcopy(data)
    drops: list[Loc] = []
    takes: dict[Loc, set[Any]] = {}
    for error in errors:
        loc = tuple(error["loc"])
        entry = _entry_of(out, loc)
        if error["type"] == "extra_forbidden" or (entry is None and len(loc) >= 1 and loc[0] in defaults):
            drops.append(loc if error["type"] == "extra_forbidden" else loc[:1])
        elif entry is not None:
            takes.setdefault(entry[0], set()).add(entry[1])
        elif len(loc) == 1 and _first_choice(error) is not None:
            # A required choice misspelt (``first: mrec``): its first allowed value stands
            # in, so the rest is still checked; the problem itself is already reported.
            out[str(loc[0])] = _first_choice(error)
            aside.dropped.append(loc)
        else:
            return None
    for loc in drops:
        try:
            parent = _walk(out, loc[:-1])
        except (KeyError, IndexError, TypeError):
            continue
        if isinstance(parent, dict) and loc[-1] in parent:
            del parent[loc[-1]]
            aside.dropped.append(aside.original(loc))
    for path, indices in takes.items():
        try:
            items = _walk(out, path)
        except (KeyError, IndexError, TypeError):
            return None
        original = aside.original(path)
        for index in sorted(indices, key=lambda i: (isinstance(i, str), i), reverse=True):
            aside.ids |= _ids_of(items[index]) | ({index} if isinstance(index, str) else set())
            aside.texts |= _texts_of(items[index])
            if isinstance(index, str):  # a mapping's item: no index after it moves
                aside.dropped.append(original + (index,))
            else:
                at = aside.original(path + (index,))[-1]
                assert isinstance(at, int)
                aside.removed.setdefault(original, set()).add(at)
            del items[index]
    return out


__all__ = ["SetAside", "repair"]
