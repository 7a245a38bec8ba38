"""What recent steps' pictures showed, kept for "what changed since your last order".

A focus picture marks what changed for the pinged side since its last order: the units
seen at that order against the units now, and who fired in between
(:func:`rules.core.views.changes_seen_over`).  Those facts come from the views of earlier
steps; building them again for every picture cost ~2.5 views a picture (issue 23).  A step
row is written once and never changed (``UNIQUE (game_id, seq)``; rollbacks only mark it),
and a view is a pure function of the step's state, so what a view showed is kept here by
``(game id, step number)`` the first time it is built, usually when that step's own
picture is drawn, and every later comparison reads it.  Only the small facts are kept
(:class:`~rules.core.views.Seen`), not the view (a big map's is ~100 kB).

Of the steps in between only who fired is read.  A system that knows it from the state
(``GameSystem.fired``: Commando and Skirmish, whose pictures are rarer than their orders)
is asked from the stored states, read in one query, with no view built.

A cached game also carries what its own commits left (:class:`Made`, kept as the game goes):
who each new step showed firing, asked of the state just computed (a few microseconds), and
each side's last orders' states as committed, so a picture of Commando or the skirmish reads
no stored state for them (issue 41: 2-3 states a picture, ~2.4 ms in the skirmish).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from pydantic import BaseModel

from bot.store import BaseStore, StepRow
from rules.core.contract import GameSystem
from rules.core.views import Seen, seen

#: Steps whose facts are kept: a picture compares the side's last order and the few steps
#: since, so a handful a channel covers every active game of a busy bot.
SEEN_CACHE_SIZE = 2048


#: Steps whose "who fired" a cached game keeps (a side's last order is mostly a few steps back).
KEPT_FIRED = 64


def reads_fire(system: GameSystem[Any]) -> bool:
    """Whether ``system`` tells who fired from the state (``GameSystem.fired`` overridden:
    Commando, Skirmish), not by building the view."""
    return type(system).fired is not GameSystem.fired


class MadeStep(NamedTuple):
    """A step a commit just made, as :meth:`Made.after` takes it."""

    seq: int
    side: str | None
    order: bool  # a side's own order (the step has an action)
    state: BaseModel
    state_json: str
    #: The step posts a picture (``Step.snapshot``): drawing it keeps its facts, who fired
    #: included, so they are not asked of the state here (Raid and Riposte: every step).
    pictured: bool = False


@dataclass(frozen=True)
class Made:
    """What the commits on a cached game's head left for "what changed", by step number: who
    each step showed firing (for a system that reads it from the state, ``GameSystem.fired``)
    and each side's last two orders with their states.  Empty for a game read from the store; a
    change off the head re-reads the game, and so starts it empty again."""

    #: Who each recent step showed firing, by step number (the last :data:`KEPT_FIRED`).
    fired: dict[int, frozenset[str]] = field(default_factory=dict)
    #: Each side's last two orders, oldest first: step number and the JSON of the state it
    #: left, as committed (two: the head may be the side's own order, and its picture
    #: compares with the one before).  The text, not the model: a parsed state is 5x its
    #: JSON in memory (35-70 kB), and four of them a game of 256 cached would be 70 MB.
    orders: dict[str, tuple[tuple[int, str], ...]] = field(default_factory=dict)

    def after(self, system: GameSystem[Any], made: Sequence[MadeStep]) -> "Made":
        """These facts once the steps ``made`` follow the head."""
        from_state = reads_fire(system)
        fired = dict(self.fired)
        orders = dict(self.orders)
        for step in made:
            if from_state and not step.pictured:
                fired[step.seq] = system.fired(step.state)
            if step.order and step.side is not None:
                orders[step.side] = (*orders.get(step.side, ())[-1:], (step.seq, step.state_json))
        while len(fired) > KEPT_FIRED:  # steps come in order: the first is the oldest
            del fired[next(iter(fired))]
        return Made(fired, orders)



class SeenSteps:
    """The facts of recent steps' views, by ``(game id, step number)``, least recent dropped."""

    def __init__(self, size: int = SEEN_CACHE_SIZE) -> None:
        self.size = size
        self._seen: OrderedDict[tuple[int, int], Seen] = OrderedDict()
        #: Who fired at steps never viewed, from ``GameSystem.fired`` of their states.
        self._fired: OrderedDict[tuple[int, int], frozenset[str]] = OrderedDict()

    def keep(self, game_id: int, seq: int, view: BaseModel) -> Seen:
        """Remember what ``view``, the view of step ``seq``, shows."""
        return self._kept(game_id, seq, seen(view))

    def _kept(self, game_id: int, seq: int, facts: Seen) -> Seen:
        self._seen[(game_id, seq)] = facts
        self._seen.move_to_end((game_id, seq))
        while len(self._seen) > self.size:
            self._seen.popitem(last=False)
        return facts

    async def fired(self, store: BaseStore, system: GameSystem[Any], steps: list[StepRow],
                    made: Made | None = None) -> list[frozenset[str]]:
        """Who each of ``steps`` (one game's, read with or without states) showed firing: the
        kept facts (``made``: what the game's commits left), else ``system.fired`` of the
        stored states (read together), else (a system that reads fire from its view) the
        facts of a view built once."""
        if not reads_fire(system):  # the default builds the view: keep its facts
            return [(await self.of(store, system, step, made)).fired for step in steps]
        found: dict[int, frozenset[str]] = {}
        left = made.fired if made is not None else {}
        for step in steps:
            facts = self._seen.get((step.game_id, step.seq))
            fired = facts.fired if facts is not None else left.get(step.seq, self._fired.get((step.game_id, step.seq)))
            if fired is not None:
                found[step.seq] = fired
        missing = [s for s in steps if s.seq not in found]
        if missing:
            texts = await store.states(missing[0].game_id, [s.seq for s in missing])
            for step in missing:
                text = step.state_json or texts.get(step.seq)
                if text is None:
                    raise KeyError(f"step {step.game_id}:{step.seq}")
                found[step.seq] = self._fired[(step.game_id, step.seq)] = system.fired(system.load_state(text))
            while len(self._fired) > self.size:
                self._fired.popitem(last=False)
        return [found[step.seq] for step in steps]

    async def of(self, store: BaseStore, system: GameSystem[Any], step: StepRow, made: Made | None = None) -> Seen:
        """What step ``step`` showed: kept, or from its state (``GameSystem.seen``: a view
        built, unless the system reads the facts from the state): the state's JSON ``made``
        holds when the step is one of a side's last orders committed here, else the stored
        one, read once (``step`` may come without its state, as :meth:`BaseStore.log_steps` reads it)."""
        facts = self._seen.get((step.game_id, step.seq))
        if facts is not None:
            self._seen.move_to_end((step.game_id, step.seq))
            return facts
        left = made.orders.get(step.side or "", ()) if made is not None else ()
        text = next((text for seq, text in left if seq == step.seq), None)
        if text is not None:
            return self._kept(step.game_id, step.seq, system.seen(system.load_state(text)))
        if not step.state_json:
            stored = await store.step(step.game_id, step.seq)
            if stored is None:
                raise KeyError(f"step {step.game_id}:{step.seq}")
            step = stored
        return self._kept(step.game_id, step.seq, system.seen(system.load_state(step.state_json)))


__all__ = ["KEPT_FIRED", "SEEN_CACHE_SIZE", "Made", "MadeStep", "SeenSteps", "reads_fire"]
