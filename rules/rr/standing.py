"""Standing answers (7.3.3, 7.3.5.2, 9.7, 9.8): what a side answers, without being asked each
time, to the decisions the rules would put to it: a retreat after hits, and Nikolas's or
Boyes's help before a rally roll.  Given at any time; the bot then answers for the side."""

from __future__ import annotations

from rules.core.contract import Action
from rules.core.errors import RuleError
from rules.core.orders import Ctx, order
from rules.rr.actions import StandingChoice
from rules.rr.state import SIDE_NAMES, RRState


def standing_orders(state: RRState, side: str) -> list[Action]:
    """Each standing answer to retreats, and each to rally help."""
    return [*(StandingChoice(retreat=r) for r in ("ask", "never", "always")),
            *(StandingChoice(rally=r) for r in ("ask", "never"))]


@order(StandingChoice, offers=standing_orders)
def standing_order(ctx: Ctx[RRState], action: StandingChoice) -> None:
    """7.3.3, 7.3.5.2: the standing answer to retreat decisions; 9.7/9.8: to rally help."""
    if action.retreat is None and action.rally is None:
        raise RuleError("Give retreat:ask|never|always, rally:ask|never, or both.")
    name = SIDE_NAMES[ctx.side]
    if action.retreat is not None:
        ctx.state.standing[ctx.side] = action.retreat
        ctx.say("standing", f"{name}: retreats: {action.retreat} (7.3.3, 7.3.5.2)", "7.3.3")
    if action.rally is not None:
        ctx.state.rally_help[ctx.side] = action.rally
        ctx.say("standing", f"{name}: Nikolas/Boyes before the rally: {action.rally} (9.7, 9.8)", "9.7")
