"""The CC's reroll of any Training Check but the activation and Morale ones (Leaders).

"Company Commanders (CCs) also have these abilities. In addition, once per Initiative, they
may allow a Unit to reroll a single Training Check. If the result of a failed rerolled
Training Check is that the Unit is removed from the table, the CC will be removed as well."

Offered after a failed counter-attack check, a failed check of a team in a fight (its own or
a Tank Assault one) and a tank's failed Very Difficult Terrain check: asked of the unit's
player (``decide choice:reroll`` / ``decide choice:accept``) unless the standing ``defaults reroll:``
answers it.  The limit is the one of the activation reroll (:func:`play.reroll`): once per
Initiative per side, wherever the CC stands.  (The activation reroll is the active player's
own ``reroll`` order, Morale rerolls are asked at the end of the turn, :mod:`morale`.)
"""

from __future__ import annotations

from rules.core.dice import Dice
from rules.core.orders import Ctx
from rules.skirmish import morale, prompts
from rules.skirmish.state import Pending, SkirmishState, UnitState
from rules.skirmish.training import Check, training_check

RULE = "Leaders"


def may_allow(state: SkirmishState, side: str) -> bool:
    """The side's CC is on the table and has not allowed a reroll this Initiative."""
    return morale.commander(state, side) is not None and side not in state.cc_reroll_used


def answer(state: SkirmishState, side: str) -> str:
    """After a failed check: ``ask`` the player, ``yes`` reroll (standing), or ``no``."""
    if not may_allow(state, side):
        return "no"
    return state.policies.get(side, {}).get("reroll", "ask")


def ask(ctx: Ctx[SkirmishState], pending: Pending, what: str) -> None:
    """Ask the unit's player whether the CC allows the reroll; play waits for the answer."""
    state = ctx.state
    state.pending, state.phase = pending, "decide"
    rerolled = [prompts.answer("reroll", teams=t) for t in pending.options] if pending.check == "fight" else []
    answers = " or ".join(rerolled or [prompts.answer("reroll")]) + " or " + prompts.answer("accept")
    ctx.say("ask", f"{what}: your CC may allow a reroll (once per Initiative): {answers} ({RULE})",
            RULE)


def use(state: SkirmishState, side: str) -> None:
    """The CC's reroll of this Initiative is spent."""
    state.cc_reroll_used.append(side)  # type: ignore[arg-type]


def reroll(state: SkirmishState, unit: UnitState, dice: Dice, what: str, markers: int = 0) -> Check:
    """Spend the CC's reroll and roll the unit's Training Check again, with the suppression
    markers that weighed on the first roll (``markers``: the same check, Suppression)."""
    use(state, unit.side)
    return training_check(unit.training, dice, f"{unit.id} {what} CC reroll", markers)
