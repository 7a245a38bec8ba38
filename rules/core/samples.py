"""Sample pictures of any system: the views of a seeded random legal game, as posted.

One source of realistic views for the docs gallery (``tools/gallery.py``), the benchmark
(``bench/snapshots.py``) and the renderer's tests, so that ``bench/`` and ``tests/`` do not
import each other and no system needs a hand-written sample.  The game is a
:func:`rules.core.playout.play` of the system (seeded: the same pictures every time); a
picture is a view of a state whose step asked for a snapshot, marked, as the service marks
the picture that pings a player, with what changed since that player's last order
(:func:`rules.core.views.changes_over`).  Pure: no I/O, nothing system-specific.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from rules.core.playout import PlayedStep, play
from rules.core.views import changes_over

if TYPE_CHECKING:
    from rules.core.contract import GameSystem


@dataclass
class Order:
    """One accepted order of a sample game: who gave it, its name, the state after it, and
    whether its step asked for a picture."""

    side: str
    name: str
    state: BaseModel
    picture: bool


class _Enough(Exception):
    """Stops a playout once it has given the pictures asked for."""


def orders(system: "GameSystem[Any]", pictures: int | None = None, seed: int = 1,
           wanted: tuple[str, ...] = ()) -> tuple[BaseModel, list[Order]]:
    """``(opening state, orders)`` of a seeded random legal game, up to the ``pictures``-th
    order that asked for a picture (``None``: to the game's end).  With ``wanted`` order
    names, only pictures after one of those orders count (e.g. ``("fire", "assault")``)."""
    out: list[Order] = []
    counted = 0

    def keep(_system: object, played: PlayedStep) -> None:
        nonlocal counted
        out.append(Order(played.side, played.action.path(), played.step.state, played.step.snapshot))
        if played.step.snapshot and (not wanted or played.action.path() in wanted):
            counted += 1
            if pictures is not None and counted >= pictures:
                raise _Enough

    opening = None
    with contextlib.suppress(_Enough):  # enough pictures: the game stops early
        opening = play(system, seed, check=keep, keep_steps=False).opening.state
    if opening is None:  # stopped early: set the same game up again for its opening
        from rules.core.dice import SeededDice  # noqa: PLC0415
        from rules.core.playout import scenario_for  # noqa: PLC0415

        opening = system.setup(scenario_for(system, seed), dict(system.playout_hints.options),
                               SeededDice(f"{system.key}-{seed}".encode())).state
    return opening, out


def marked_view(system: "GameSystem[Any]", game: list[Order], index: int) -> BaseModel:
    """The view after order ``index``, marked with what changed since the last order of the
    side it now waits on (the player its picture pings), as the service marks it."""
    state = game[index].state
    view = system.view(state)
    waiting = system.waiting_on(state)
    side = waiting[0] if waiting else game[index].side
    mine = [k for k in range(index) if game[k].side == side]
    if not mine:
        return view
    last = mine[-1]
    changes = changes_over(system.view(game[last].state),
                           (system.view(game[k].state) for k in range(last + 1, index)), view)
    return view.model_copy(update={"changes": changes})


def pictures(system: "GameSystem[Any]", count: int, seed: int = 1) -> list[BaseModel]:
    """The views of the first ``count`` pictures of a seeded game, each marked with what
    changed since the pinged player's last order (fewer if the game ends first)."""
    _, game = orders(system, count, seed)
    return [marked_view(system, game, k) for k, o in enumerate(game) if o.picture]


def final_view(system: "GameSystem[Any]", seed: int = 1) -> BaseModel:
    """The view of a seeded game's last state: the final picture, with its result banner."""
    _, game = orders(system, None, seed)
    return marked_view(system, game, len(game) - 1)
