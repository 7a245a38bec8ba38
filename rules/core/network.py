"""Point-to-point maps: spaces joined by routes (Raiders 3.0, and any other such system).

A :class:`Network` knows only ids, route kinds and which spaces stop movement; it holds no
units.  Systems ask it three questions:

* who is next to a space (optionally along some route kinds only);
* which spaces a mover reaches within N steps, when some spaces stop it on entry
  (Raiders 12.0: STOP terrain and objective markers end the move);
* the shortest path between two spaces under the same constraints (for move arrows).

Routes are undirected.  A route's ``kind`` ("road", "track", "water", "air"...) lets a system
move along some kinds only, e.g. a water move along sea lanes.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Iterable

from pydantic import BaseModel, ConfigDict


class Route(BaseModel):
    """One route between two spaces, of a kind the system names."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    a: str
    b: str
    kind: str = "road"


class Network:
    """An undirected graph of spaces and kinded routes, with movement queries."""

    def __init__(self, spaces: Iterable[str], routes: Iterable[Route]) -> None:
        self.spaces: tuple[str, ...] = tuple(spaces)
        known = set(self.spaces)
        if len(known) != len(self.spaces):
            raise ValueError("space ids must be unique")
        self.routes: tuple[Route, ...] = tuple(routes)
        self._adjacent: dict[str, dict[str, set[str]]] = {s: {} for s in self.spaces}
        for route in self.routes:
            for end in (route.a, route.b):
                if end not in known:
                    raise ValueError(f"route {route.a}-{route.b} names unknown space {end!r}")
            if route.a == route.b:
                raise ValueError(f"route {route.a}-{route.b} joins a space to itself")
            self._adjacent[route.a].setdefault(route.b, set()).add(route.kind)
            self._adjacent[route.b].setdefault(route.a, set()).add(route.kind)

    def __contains__(self, space: object) -> bool:
        return space in self._adjacent

    def neighbours(self, space: str, kinds: Collection[str] | None = None) -> list[str]:
        """Spaces one route away from ``space`` (along ``kinds`` only, if given), in map order."""
        links = self._adjacent[space]
        return [
            other
            for other in self.spaces
            if other in links and (kinds is None or links[other] & set(kinds))
        ]

    def adjacent(self, a: str, b: str, kinds: Collection[str] | None = None) -> bool:
        """Whether a route (of one of ``kinds``, if given) joins ``a`` and ``b``."""
        return b in self.neighbours(a, kinds)

    def reachable(
        self,
        start: str,
        steps: int,
        *,
        stops: Collection[str] = (),
        kinds: Collection[str] | None = None,
    ) -> dict[str, int]:
        """Spaces reachable from ``start`` in at most ``steps`` routes, with their distance.

        A mover may enter a space in ``stops`` but goes no farther from it that move (the
        start itself never stops the mover: it is leaving).  ``start`` is in the result at 0.
        """
        distance = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            if distance[here] >= steps or (here != start and here in stops):
                continue
            for nxt in self.neighbours(here, kinds):
                if nxt not in distance:
                    distance[nxt] = distance[here] + 1
                    queue.append(nxt)
        return distance

    def path(
        self,
        start: str,
        goal: str,
        *,
        stops: Collection[str] = (),
        kinds: Collection[str] | None = None,
    ) -> list[str] | None:
        """A shortest path ``[start, ..., goal]`` honouring ``stops``, or None if there is none."""
        previous: dict[str, str | None] = {start: None}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            if here == goal:
                break
            if here != start and here in stops:
                continue
            for nxt in self.neighbours(here, kinds):
                if nxt not in previous:
                    previous[nxt] = here
                    queue.append(nxt)
        if goal not in previous:
            return None
        out = [goal]
        while (back := previous[out[-1]]) is not None:
            out.append(back)
        return out[::-1]

    def route_kinds(self, a: str, b: str) -> set[str]:
        """The kinds of the routes joining ``a`` and ``b`` (empty if none)."""
        return set(self._adjacent[a].get(b, set()))
