"""What a system may tell the kit's players about how to play it: the random legal player's
:class:`PlayoutHints` (``GameSystem.playout_hints``).  A plain model with no dependency, so
the contract (which holds it as a default) and the player (which reads it) both import it."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field


class PlayoutHints(BaseModel):
    """How a random legal player should play one system (all optional)."""

    #: ``/game new`` options of the games played (a short campaign, a few turns).
    options: dict[str, Any] = Field(default_factory=dict)
    #: Scenarios played in turn by seed; empty means every scenario of the system.
    scenarios: tuple[str, ...] = ()
    #: Order names (or paths, ``air strike``) drawn with :attr:`rare_weight` (passes, housekeeping that loops).
    rare: frozenset[str] = frozenset()
    rare_weight: float = 0.2
    #: A game still going after this many orders fails the playout (it would never end).
    max_orders: int = 4000


class SearchHints(BaseModel):
    """How the computer player (``rules/core/computer.py``) should spend its budget on one
    system (all optional): a system whose orders are costly to list (every reachable point
    of a table) thinks fewer iterations and shorter rollouts for the same level, so that a
    level costs about the same CPU in every system."""

    #: The level's iterations are multiplied by this (at least one is run).
    iterations: float = Field(default=1.0, gt=0, le=4)
    #: The level's rollout length is multiplied by this.
    rollout: float = Field(default=1.0, ge=0, le=4)
    #: Order names (or paths) the rules let a side give without moving the game on (no
    #: card, no Op, no turn): :meth:`GameSystem.free_order` reads them, and a system whose
    #: free orders depend on the state (a move that is free only into some space) says so
    #: there.  The search counts nothing of them, so where no real move looks better it
    #: could give them for ever (issue 43: Raiders' gear trades).
    free: frozenset[str] = frozenset()
    #: At most this many free orders in a row (then the computer's next decision leaves them
    #: out, if anything else is legal); None: no limit.
    free_in_a_row: int | None = Field(default=None, ge=0)
