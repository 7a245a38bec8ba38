"""The decisions asked of a player in the middle of the other's activation (``decide``).

react: fire a unit's Overwatch or Reaction fire at the unit that moved, or hold;
ground: go to ground before the To Hit roll, or stand; assault-fire: fire at the charging
teams, or hold; assault-choice: counter-attack or break off; losses: which teams an assault
removes; follow: follow a unit that breaks off, or stay; drift: move the missed template
(at most 6") or leave it; morale: the CC rerolls a failed Morale check, or the unit goes;
reroll: the CC rerolls a failed counter-attack, fight or terrain check, or not.
"""

from __future__ import annotations

from collections.abc import Iterator

from rules.core.errors import RuleError
from rules.core.orders import Ctx, order
from rules.skirmish import (
    artillery, fire, flow, losses, melee, morale, play, prompts, reactions, volleys,
)
from rules.skirmish.orders import Decide, Fire
from rules.skirmish.state import Pending, SkirmishState

#: The answers each kind of decision takes.
ANSWERS: dict[str, tuple[str, ...]] = {
    "react": ("fire", "hold"),
    "ground": ("ground", "stand"),
    "allocate": ("allocate",),
    "assault-fire": ("fire", "hold"),
    "assault-choice": ("counter", "break"),
    "losses": ("remove",),
    "follow": ("follow", "stay"),
    "drift": ("place", "leave"),
    "morale": ("reroll", "accept"),
    "reroll": ("reroll", "accept"),
}


def decide_problem(state: SkirmishState, order: Decide) -> str | None:
    """Why an answer does not fit the question now, or None."""
    pending = state.pending
    if pending is None:
        return "Nothing is being asked of you now."
    allowed = ANSWERS[pending.kind]
    if order.choice not in allowed:
        return f"The question is {pending.kind}: answer {' or '.join(allowed)}."
    if pending.kind == "react" and order.choice == "fire":
        unit = order.unit or (pending.options[0] if len(pending.options) == 1 else "")
        if unit.casefold() not in {o.casefold() for o in pending.options}:
            return f"Name the unit that fires: unit:{' or unit:'.join(pending.options)}."
    if pending.kind == "allocate":
        return _allocate_problem(state, pending, order)
    if pending.kind == "reroll" and order.choice == "reroll" and pending.check == "fight":
        return _reroll_problem(pending, order)
    if pending.kind == "losses":
        return melee.losses_problem(state, order.teams.replace(",", " ").split())
    if pending.kind == "drift" and order.choice == "place" and not order.to:
        return "Say where the template goes: to:x,y (at most 6\" from where it fell)."
    return None


def decide_offers(state: SkirmishState, side: str) -> Iterator[Decide]:
    """The answers to the question asked now."""
    pending = state.pending
    if pending is None or pending.side != side:
        return
    for choice in ANSWERS[pending.kind]:
        if pending.kind == "react" and choice == "fire":
            for unit in pending.options:
                yield Decide(choice="fire", unit=unit)
        elif pending.kind == "allocate" and pending.volley is not None:
            for first in volleys.allocation_choices(state, pending.volley):
                yield Decide(choice="allocate", teams=first)
        elif pending.kind == "losses":
            fight = state.assault
            if fight is not None:
                ranked = melee.loss_order(state, state.unit(fight.struck), fight.claims)
                for picked in losses.choices(fight.claims, ranked):
                    yield Decide(choice="remove", teams=prompts.team_list(picked))
        elif pending.kind == "reroll" and pending.check == "fight" and choice == "reroll":
            for team in pending.options:
                yield Decide(choice="reroll", teams=team)
        elif pending.kind == "drift" and choice == "place":
            for spot in artillery.drift_spots(state):
                yield Decide(choice="place", to=spot)
        else:
            yield Decide(choice=choice)  # type: ignore[arg-type]


@order(Decide, phases="decide", offers=decide_offers)
def decide(ctx: Ctx[SkirmishState], order: Decide) -> None:
    """Answer the question asked of you (the rule of each question), and let play go on."""
    state = ctx.state
    why = decide_problem(state, order)
    if why:
        raise RuleError(why)
    pending = state.pending
    assert pending is not None
    handler = {
        "react": _react, "ground": _ground, "allocate": _allocate, "assault-fire": _assault_fire,
        "assault-choice": _assault_choice, "losses": _losses, "follow": _follow,
        "drift": _drift, "morale": _morale, "reroll": _reroll,
    }[pending.kind]
    handler(ctx, pending, order)


def _back_to_orders(state: SkirmishState) -> None:
    state.pending = None
    state.phase = "orders" if state.active else "activate"


def _react(ctx: Ctx[SkirmishState], pending: Pending, order: Decide) -> None:
    state = ctx.state
    mover = state.unit(pending.unit or "")
    _back_to_orders(state)
    if order.choice == "hold":
        ctx.say("hold", f"No more fire at {mover.id} (Reaction Fire)", "Reaction Fire")
        return
    unit = state.unit(order.unit or pending.options[0])
    left = [u for u in pending.options if u != unit.id]
    moved = play.moved_teams(state, mover, pending.paths)
    after = Pending(kind="allocate", side=mover.side, then="react", paths=pending.paths, options=left)
    if play.reaction_fire(ctx, unit, mover, moved, pending.paths or None, after) is not None:
        play.more_reactions(ctx, mover, pending.paths, left)


def _ground(ctx: Ctx[SkirmishState], pending: Pending, order: Decide) -> None:
    state = ctx.state
    target = state.unit(pending.unit or "")
    if order.choice == "ground":
        ctx.extend([reactions.go_to_ground(target)])
    _back_to_orders(state)
    firer = state.unit(pending.firer or "")
    fire_order = Fire.model_validate(pending.fire or {})
    play.resolve_fire_order(ctx, firer, fire_order)


def _first(order: Decide) -> list[str]:
    return [w for w in order.teams.replace(",", " ").split() if w.casefold() != "none"]


def _allocate_problem(state: SkirmishState, pending: Pending, order: Decide) -> str | None:
    volley = pending.volley
    assert volley is not None
    ids = [c.team for c in fire.volley_candidates(state, volley)]
    wrong = [w for w in _first(order) if w.casefold() not in {i.casefold() for i in ids}]
    if wrong:
        return (f"{wrong[0][:20]} may not take these hits; name teams of {', '.join(ids)} to take "
                f"hits first among equals, or none (Firing).")
    return None


def _allocate(ctx: Ctx[SkirmishState], pending: Pending, order: Decide) -> None:
    """The owner's allocation lands the hits; the order the fire interrupted goes on."""
    state = ctx.state
    volley = pending.volley
    assert volley is not None
    _back_to_orders(state)
    result = volleys.land(ctx, volley, frozenset(state.team(w).id for w in _first(order)))
    if pending.then == "react":
        reactions.put_back(state, pending.back)
        play.more_reactions(ctx, state.unit(pending.unit or ""), pending.paths, pending.options)
    elif pending.then == "support":
        melee.charge_in(ctx)
    elif pending.then == "defend":
        result.back = pending.back
        melee.defence_landed(ctx, result)
    else:
        play.after_fire(ctx, state.unit(pending.firer or ""))


def _assault_fire(ctx: Ctx[SkirmishState], pending: Pending, order: Decide) -> None:
    ctx.state.pending = None
    melee.defender_fires(ctx, order.choice == "fire")


def _assault_choice(ctx: Ctx[SkirmishState], pending: Pending, order: Decide) -> None:
    ctx.state.pending = None
    melee.choose(ctx, order.choice == "counter")


def _losses(ctx: Ctx[SkirmishState], pending: Pending, order: Decide) -> None:
    ctx.state.pending = None
    teams = [ctx.state.team(t).id for t in order.teams.replace(",", " ").split()]
    melee.take_losses(ctx, teams, "owner's choice")


def _follow(ctx: Ctx[SkirmishState], pending: Pending, order: Decide) -> None:
    ctx.state.pending = None
    melee.follow_up(ctx, order.choice == "follow")


def _morale(ctx: Ctx[SkirmishState], pending: Pending, order: Decide) -> None:
    """The CC's reroll of a failed Morale check, or the unit retreats; the turn then ends."""
    state = ctx.state
    state.pending, state.phase = None, "activate"
    unit = state.unit(pending.unit or "")
    ctx.extend(morale.resolve_failure(state, unit, ctx.dice, order.choice == "reroll"))
    ctx.extend(flow.end_turn(state, ctx.dice))
    ctx.snapshot = True


def _reroll_team(pending: Pending, order: Decide) -> str:
    """The team of a fight whose failed check is rerolled: the one named, or the only one."""
    named = _first(order)
    return named[0] if named else pending.options[0]


def _reroll_problem(pending: Pending, order: Decide) -> str | None:
    team = _reroll_team(pending, order)
    if len(_first(order)) > 1 or team.casefold() not in {o.casefold() for o in pending.options}:
        return f"Name one team that failed its check: teams:{' or teams:'.join(pending.options)} (Leaders)."
    return None


def _reroll(ctx: Ctx[SkirmishState], pending: Pending, order: Decide) -> None:
    """The CC's reroll of a failed counter-attack, fight or terrain check, or not; the
    interrupted resolution goes on."""
    state = ctx.state
    again = order.choice == "reroll"
    state.pending, state.phase = None, "orders"
    if pending.check == "counter":
        melee.counter_check_done(ctx, again and melee.counter_reroll(ctx))
    elif pending.check == "fight":
        if again:
            melee.fight_reroll(ctx, state.team(_reroll_team(pending, order)).id)
        melee.pick_losses(ctx)
    else:
        play.terrain_answer(ctx, pending, again)


def _drift(ctx: Ctx[SkirmishState], pending: Pending, order: Decide) -> None:
    artillery.drift(ctx, order.to if order.choice == "place" else None)
