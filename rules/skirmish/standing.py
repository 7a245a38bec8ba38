"""Standing answers (``defaults``): the questions a player answers in advance (Turns).

Each question of the other player's activation (reaction fire, going to ground, the assault's
answers, hits among equal teams, the CC's rerolls) is asked unless a standing answer gives it;
``protect`` names the teams to put hits and markers on last.
"""

from __future__ import annotations

from collections.abc import Iterator

from rules.core.errors import RuleError
from rules.core.orders import Ctx, order
from rules.skirmish import prompts
from rules.skirmish.orders import Defaults
from rules.skirmish.state import SIDE_NAMES, SkirmishState

#: The standing answers a player may set (``defaults``), each ask unless set.
STANDING = ("reaction", "ground", "counter", "follow", "losses", "allocate", "morale", "reroll")


def _own_teams(state: SkirmishState, side: str, text: str) -> str:
    """Team ids of ``side`` from what a player typed ("none" clears), checked."""
    words = [w for w in text.replace(",", " ").split() if w.casefold() != "none"]
    ids = []
    for word in words:
        team = state.team(word)
        if state.unit_of(team).side != side:
            raise RuleError(f"{team.id} is not one of your teams.")
        ids.append(team.id)
    return " ".join(ids)


def defaults_offers(state: SkirmishState, side: str) -> Iterator[Defaults]:
    """Standing answers: all asked, all given, and the leaders protected."""
    yield Defaults(reaction="ask", ground="ask", counter="ask", follow="ask", losses="ask",
                   allocate="ask", morale="ask", reroll="ask")
    yield Defaults(reaction="yes", ground="no", counter="yes", follow="yes", losses="auto",
                   allocate="auto", morale="yes", reroll="yes")
    leaders_ = [t.id for t in state.teams(side) if t.leader]
    yield Defaults(protect=prompts.team_list(leaders_))


@order(Defaults, offers=defaults_offers)
def defaults(ctx: Ctx[SkirmishState], order: Defaults) -> None:
    """Turns: set standing answers (ask / yes / no), shown back in full."""
    mine = ctx.state.policies.setdefault(ctx.side, {})
    for key in STANDING:
        value = getattr(order, key)
        if value is not None:
            mine[key] = value
    if order.protect is not None:
        mine["protect"] = _own_teams(ctx.state, ctx.side, order.protect)
    shown = ", ".join(f"{k} {mine.get(k, 'auto' if k == 'allocate' else 'ask')}" for k in STANDING)
    shown += f"; protect {mine.get('protect') or 'none'}"
    ctx.say("defaults", f"{SIDE_NAMES[ctx.side]} standing answers: {shown}")
