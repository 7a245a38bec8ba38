"""Hits waiting for their owner: "the target Unit must allocate one die to a Team in that
Unit" (Firing).

With ``defaults allocate:ask`` the owner of the unit hit is asked, after the To Hit roll, which
of its equal teams take hits first; this is so for every fire that allocates hits: a ``fire``
order, Reaction and Overwatch fire, an assault's supporting fire and the defender's fire at the
charging teams.  The question interrupts the order that caused the fire; ``Pending.then`` says
how it goes on once the hits have landed (:func:`rules.skirmish.decisions._allocate`).
"""

from __future__ import annotations

from itertools import combinations

from rules.core.orders import Ctx
from rules.core.views import Mark
from rules.skirmish import fire, prompts
from rules.skirmish.allocation import Volley, allocate
from rules.skirmish.state import SIDE_NAMES, Pending, SkirmishState, TeamState, UnitState


def allocation_choices(state: SkirmishState, volley: Volley) -> dict[str, str]:
    """The owner's distinct allocations of a volley: ``teams first -> what each team takes``,
    the standing order first (each way of putting the equal teams first that gives each team
    other dice, at most 20)."""
    cands = fire.volley_candidates(state, volley)
    ids = [c.team for c in cands]
    out: dict[str, str] = {}
    seen: set[frozenset[tuple[str, tuple[str, ...]]]] = set()
    for size in range(len(ids) + 1):
        for picked in combinations(ids, size):
            chosen = [c.model_copy(update={"first": c.team in picked}) for c in cands]
            given = allocate(chosen, volley.batches)
            same = frozenset((team, tuple(sorted(d))) for team, d in given.items())  # order aside
            if same not in seen and len(out) < 20:
                seen.add(same)
                out[prompts.team_list(picked)] = ", ".join(f"{team} {len(d)}" for team, d in given.items())
    return out


def ask(ctx: Ctx[SkirmishState], firer: str, volley: Volley, pending: Pending) -> bool:
    """Ask the owner of the unit hit to allocate (``defaults allocate:ask`` and more than one
    way to do it): ``pending`` (kind allocate) waits with the volley.  True when asked."""
    state = ctx.state
    target = state.unit(volley.target)
    policy = state.policies.get(target.side, {}).get("allocate", "auto")
    if policy != "ask" or len(allocation_choices(state, volley)) < 2:
        return False
    state.pending = pending.model_copy(update={
        "kind": "allocate", "side": target.side, "unit": target.id, "firer": firer,
        "volley": volley})
    state.phase = "decide"
    offered = [f"{prompts.answer('allocate', teams=first)} ({shown})"
               for first, shown in allocation_choices(state, volley).items()]
    ctx.say("ask", f"{target.id}: allocate the hits (teams: the teams to take hits first among "
                   f"equals): {prompts.listed(offered)} (Firing)", "Firing")
    return True


def fire_at(ctx: Ctx[SkirmishState], firer: UnitState, shooters: list[TeamState],
            target: UnitState, how: fire.Fire, pending: Pending) -> fire.FireResult | None:
    """Roll the fire; the owner allocates (asked: None, the order waits as ``pending``) or
    its standing order does, and the hits land: the whole result."""
    state = ctx.state
    result, volley = fire.roll_fire(state, shooters, target, ctx.dice, how)
    ctx.extend(result.events)
    mark_fire(state, firer.side, result)
    if volley is None:
        return result
    if ask(ctx, firer.id, volley, pending):
        return None
    rolled = len(result.events)
    choice = had_choice(state, volley)
    fire.land_volley(state, volley, ctx.dice, result)
    ctx.extend(result.events[rolled:])
    if choice:
        say_standing_choice(ctx, target)
    return result


def had_choice(state: SkirmishState, volley: Volley) -> bool:
    """Whether the owner, not yet told that its standing order allocates, could have
    allocated the volley more than one way (told once: the order is then its own)."""
    side = state.unit(volley.target).side
    if "allocate" in state.policies.get(side, {}):
        return False
    return len(allocation_choices(state, volley)) >= 2


def say_standing_choice(ctx: Ctx[SkirmishState], target: UnitState) -> None:
    """Firing: "the target Unit must allocate one die to a Team"; Suppression: "that Unit must
    place a suppression marker next to one of its Teams": the choice among equals is the
    target player's.  Play does not stop to ask by default (``defaults allocate:auto``), so
    the reply says the standing order made it and how the player makes it instead, once:
    the standing order is then recorded as the player's own."""
    ctx.state.policies.setdefault(target.side, {})["allocate"] = "auto"
    ctx.say("allocate", f"{SIDE_NAMES[target.side]}: which of the equal teams took the hits was "
                        f"your choice, made by your standing order (allocate:auto); to be asked: "
                        f"defaults allocate:ask; teams to hit last: defaults protect:… (Firing)",
            "Firing", unit=target.id)


def mark_fire(state: SkirmishState, side: str, result: fire.FireResult) -> None:
    """A line on the map for each team that rolled To Hit, by that team (a fire order,
    Reaction and Overwatch fire, an assault's supporting and defending fire alike)."""
    for event in result.events:
        if event.kind == "fire":
            hits = event.data["hits"]
            state.marks.append(Mark(kind="fire", points=[event.data["from"], event.data["to"]],
                                    text=f"{hits} hit" + ("" if hits == 1 else "s"),
                                    side=side, by=[event.data["shooter"]]))


def land(ctx: Ctx[SkirmishState], volley: Volley, first: frozenset[str],
         standing: bool = False) -> fire.FireResult:
    """The owner's answer: allocate (its ``first`` teams first among equals), save, remove
    casualties, place suppression.  The result counts the volley's hits.  ``standing``: the
    standing order answered, and the reply says so where the owner had a choice."""
    choice = standing and had_choice(ctx.state, volley)
    result = fire.FireResult(hits=sum(b.hits for b in volley.batches))
    fire.land_volley(ctx.state, volley, ctx.dice, result, first)
    ctx.extend(result.events)
    if choice:
        say_standing_choice(ctx, ctx.state.unit(volley.target))
    return result
