"""What every order of an impulse shares (7.0): the impulse passing, the order's offers made
one at a time, and the check that an order names an area of the map.

The chapter modules (:mod:`rules.rr.movement`, :mod:`rules.rr.combat`, ...) declare their
orders with these; this module sits under all of them, so none needs another's resolver.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from rules.core.contract import Action, Event
from rules.core.errors import RuleError
from rules.core.orders import Ctx
from rules.rr.board import Board
from rules.rr.state import RRState, other


def end_impulse(b: Board) -> None:
    """7.0: after an order the impulse goes to the opponent."""
    b.s.passes = 0
    b.s.active = other(b.s.active)
    b.s.nikolas_spent = False


def impulse(ctx: Ctx[RRState], resolve: Callable[[Board], list[Event]]) -> None:
    """7.0: the marks of the last impulse go, the order is resolved, the impulse passes."""
    ctx.state.marks = []
    b = Board(ctx.state)
    ctx.extend(resolve(b))
    end_impulse(b)


def area_named(b: Board, area: str) -> str:
    """An area id that exists, or a RuleError."""
    if area not in b.g:
        raise RuleError(f"There is no area '{area[:10]}'; areas are 1-{len(b.g)}.")
    return area


class Offers:
    """One impulse order's offers, generated one at a time: called with the state, every
    offer (a list, in the same order as always); :meth:`any`, whether there is at least one,
    found without building the rest (7.0 asks that after every order: "Players must pass if
    they have no remaining actions to use").  Both read the one generator, so they cannot
    disagree."""

    def __init__(self, generate: Callable[[Board, str], Iterator[Action]]) -> None:
        self.generate = generate
        self.__doc__ = generate.__doc__
        self.__name__ = generate.__name__

    def __call__(self, state: RRState, side: str) -> list[Action]:
        """Every offer of this order to ``side`` now."""
        return list(self.generate(Board(state, frozen=True), side))

    def any(self, b: Board, side: str) -> bool:
        """Whether ``side`` has at least one offer of this order now (``b`` a frozen board,
        shared by every order asked: :func:`rules.rr.menus.has_impulse`)."""
        return next(self.generate(b, side), None) is not None


__all__ = ["Offers", "area_named", "end_impulse", "impulse"]
