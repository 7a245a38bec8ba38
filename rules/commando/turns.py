"""Turns: the commandos take their whole turn, then the Germans; ``end`` hands the table over.

Turns (rulebook): "the side may always end its turn".  Ending it keeps the turn's measured
lines for the snapshot, names the units that did not activate (Unit Activation), and opens
the other side's turn with its pillboxes' shot and its searchlights (Pillboxes, Searchlights).
The raid itself ends after the last turn (see :meth:`CommandoRaid.after_order`).
"""

from __future__ import annotations

from collections.abc import Iterator

from rules.commando.actions import End
from rules.commando.activation import reset_turn, standing_lines, unrolled_lines
from rules.commando.state import SIDE_NAMES, RaidState, other
from rules.core.orders import Ctx, order


def end_offers(state: RaidState, side: str) -> Iterator[End]:
    """The side may always end its turn."""
    yield End()


@order(End, offers=end_offers)
def end(ctx: Ctx[RaidState], action: End) -> None:
    """Turns: keep the side's measured lines for the snapshot, pass the table over."""
    state, side = ctx.state, ctx.side
    ctx.extend(unrolled_lines(state, side))
    state.last_marks, state.marks = state.marks, []
    if side == "germans":
        state.turn += 1
    state.side = other(side)
    state.phase = "command"
    reset_turn(state)
    text = f"{SIDE_NAMES[side]}' turn ends; {SIDE_NAMES[state.side]} next (Turns)"
    if state.turn > state.max_turn:
        text = f"{SIDE_NAMES[side]} end the last turn (Turns)"
    ctx.say("end", text, "Turns", turn=state.turn)
    if state.turn <= state.max_turn:
        ctx.extend(standing_lines(state))
    ctx.snapshot = True
