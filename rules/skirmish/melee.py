"""An assault from the order to its end: supporting fire, the charge, the defender's fire, the
fight and the rounds of counter-attacks until one unit breaks off or is gone (Assaults).

The decisions belong to the players: the defender fires at the incoming teams or not, and each
side in turn counter-attacks or breaks off; each is asked of that player unless a standing
answer (``defaults``) says it.
"""

from __future__ import annotations

from collections.abc import Iterator

from rules.core import table
from rules.core.errors import RuleError
from rules.core.orders import Ctx, order
from rules.skirmish import (
    assault, contact, fire, flow, losses, morale, play, prompts, reactions, rerolls, suppression,
    volleys,
)
from rules.skirmish.orders import Assault
from rules.skirmish.state import AssaultState, Pending, SkirmishState, TeamState, UnitState
from rules.skirmish.training import unit_check

RULE = "Assaults"


def stay_teams(state: SkirmishState, unit: UnitState, stay: str) -> list[TeamState]:
    """Teams that stay behind to fire: those named, and every Gun team."""
    names = {w.casefold() for w in stay.replace(",", " ").split()} - {"none", ""}
    for name in names:
        team = state.team(name)
        if team.unit != unit.id:
            raise RuleError(f"{team.id} is not a team of {unit.id}: stay: names the assaulting "
                            f"unit's teams that stay behind to fire (Assaults).")
    return [t for t in unit.alive_teams if t.id.casefold() in names or t.kind == "gun"]


def chargers(unit: UnitState, target: UnitState, staying: list[TeamState]) -> list[TeamState]:
    """Teams that charge: not staying, not guns, no tank against a unit of only tanks."""
    only_tanks = all(t.kind == "tank" for t in target.alive_teams)
    return [t for t in unit.alive_teams
            if t not in staying and t.kind != "gun" and not (only_tanks and t.kind == "tank")]


def assault_problem(state: SkirmishState, unit: UnitState, order: Assault, side: str) -> str | None:
    """Why an assault order is refused, or None."""
    why = play.open_step(unit, "assault")
    if why:
        return why
    try:
        target = state.enemy_unit(side, order.target)
        staying = stay_teams(state, unit, order.stay)
    except RuleError as exc:
        return str(exc)
    movers = chargers(unit, target, staying)
    if not movers:
        return _no_charger(unit, target, staying)
    # "at least one Team must make contact in order for the assault to continue": an
    # assault nobody can carry into contact (too far, or every way in blocked) is refused
    reach = assault.CHARGE + assault.contact_gap(state) + 0.05
    near = [m for m in movers
            if any(table.distance(m.pos, e.pos) <= reach for e in target.alive_teams)]
    if not any(contact.can_reach(state, m, target.alive_teams, assault.CHARGE) for m in near):
        return (f"No charging team of {unit.id} can reach base to base contact with {target.id} "
                f"within 12\" (Assaults).")
    return None


def _no_charger(unit: UnitState, target: UnitState, staying: list[TeamState]) -> str:
    """Why no team of ``unit`` is left to charge ``target``, naming the rule that keeps each
    kind of team back, and what may be ordered instead (Assaults)."""
    why, instead = [], []
    if any(t in staying and t.kind != "gun" for t in unit.alive_teams):
        why.append("the teams named in stay: stay behind")
        instead.append("name fewer teams in stay:")
    if any(t.kind == "gun" for t in unit.alive_teams):
        why.append("\"Gun Teams must stay behind\"")
    if any(t.kind == "tank" and t not in staying for t in unit.alive_teams):
        why.append(f"{target.id} is all tanks and \"Tank Teams my not assault Tank Teams\"")
        instead.append("assault a unit that is not all tanks")
    tail = f" Instead: {'; '.join(instead)}." if instead else ""
    return f"No team of {unit.id} is left to charge {target.id}: {'; '.join(why)} (Assaults).{tail}"


def assault_offers(state: SkirmishState, side: str) -> Iterator[Assault]:
    """Assault each enemy unit within reach (no team staying)."""
    return play.at_enemy_units(state, side, Assault, assault_problem)


@order(Assault, phases="orders", offers=assault_offers)
def start(ctx: Ctx[SkirmishState], order: Assault) -> None:
    """Assaults: supporting fire, then the charge; the defender may fire at the incoming teams."""
    state = ctx.state
    unit = state.unit(state.active or "")
    why = assault_problem(state, unit, order, ctx.side)
    if why:
        raise RuleError(why)
    target = state.enemy_unit(ctx.side, order.target)
    staying = stay_teams(state, unit, order.stay)
    movers = chargers(unit, target, staying)
    unit.steps = []
    state.assault = AssaultState(
        attacker=unit.id, defender=target.id, movers=[m.id for m in movers],
        armoured=all(m.armoured for m in movers),
        before={unit.id: len(unit.alive_teams), target.id: len(target.alive_teams)},
    )
    shooters = [t for t in staying if not t.suppression and not t.fired_initiative]
    if shooters:
        ctx.say("assault", f"{unit.id} supporting fire at {target.id} (Assaults)", RULE)
        after = Pending(kind="allocate", side=target.side, then="support")
        if volleys.fire_at(ctx, unit, shooters, target, fire.Fire(), after) is None:
            return  # the owner allocates the hits; the charge follows (charge_in)
    charge_in(ctx)


def _sides(state: SkirmishState) -> tuple[AssaultState, UnitState, UnitState]:
    """The assault in progress, its attacker and its defender."""
    fight = state.assault
    assert fight is not None
    return fight, state.unit(fight.attacker), state.unit(fight.defender)


def _charging(state: SkirmishState, fight: AssaultState) -> list[TeamState]:
    """The attacker's charging teams still on the table."""
    return [state.team(m) for m in fight.movers if state.team(m).alive]


def charge_in(ctx: Ctx[SkirmishState]) -> None:
    """After the supporting fire: the charge; the defender may fire at the incoming teams."""
    state = ctx.state
    fight, unit, target = _sides(state)
    movers = [state.team(m) for m in fight.movers]
    fight.starts = {m.id: m.pos for m in movers}
    ctx.extend(assault.charge(state, movers, target))
    fight.losses = {k: fight.before[k] - len(state.unit(k).alive_teams) for k in fight.before}
    if not any(assault.in_contact(state, m, target.alive_teams) for m in movers if m.alive):
        ctx.say("assault", f"No team of {unit.id} reached contact: the assault does not go in (Assaults)", RULE)
        finish(ctx)
        return
    defender_fire(ctx)


def defender_fire(ctx: Ctx[SkirmishState]) -> None:
    """Offer the defender its Overwatch or Reaction fire at the incoming teams."""
    state = ctx.state
    fight, attacker, defender = _sides(state)
    movers = _charging(state, fight)
    if not reactions.reacting_teams(state, defender, attacker, movers, fight.starts):
        land(ctx)
        return
    policy = state.policies.get(defender.side, {}).get("reaction", "ask")
    if policy == "ask":
        state.pending = Pending(kind="assault-fire", side=defender.side, unit=defender.id)
        state.phase = "decide"
        ctx.say("ask", f"{defender.id} may fire at the charging teams of {attacker.id}: "
                       f"{prompts.either('fire', 'hold')} (Assaults)", RULE)
        return
    defender_fires(ctx, policy == "yes")


def defender_fires(ctx: Ctx[SkirmishState], shoot: bool) -> None:
    """The defender's answer: fire (its hits allocated by its owner) or hold."""
    state = ctx.state
    fight, attacker, defender = _sides(state)
    movers = _charging(state, fight)
    if not shoot:
        land(ctx)
        return
    fight.before = {attacker.id: len(attacker.alive_teams)}
    after = Pending(kind="allocate", side=attacker.side, then="defend")
    result = play.reaction_fire(ctx, defender, attacker, movers, fight.starts, after, stay=True)
    if result is not None:
        defence_landed(ctx, result)


def defence_landed(ctx: Ctx[SkirmishState], result: fire.FireResult) -> None:
    """The defender's fire has landed: 5 FP hits (2 results against armour) halt the
    assault, else it lands.  The charging teams were fired on at the first point of their
    charge within 8" (or in the Overwatch field of fire): halted, "assaulting teams either
    stop where they are, or if in base to base contact, move as to provide a 2" gap"; else
    they go on into contact (``result.back``)."""
    state = ctx.state
    fight, attacker, defender = _sides(state)
    lost = fight.before[attacker.id] - len(attacker.alive_teams)
    fight.losses[attacker.id] = fight.losses.get(attacker.id, 0) + lost
    scored = _scored(result, fight.armoured)
    if assault.halted(result.hits, result.tank_results, fight.armoured):
        ctx.say("halt", f"{defender.id}'s fire halts the assault: {scored} (Assaults)", RULE)
        stopped = [t for t in result.back if state.team(t).alive]
        if stopped:
            ctx.say("halt", f"{', '.join(stopped)} stop where they were fired on (Assaults)", RULE)
        ctx.extend(assault.fall_back(state, _charging(state, fight), defender))
        finish(ctx)
        return
    ctx.say("halt", f"{defender.id}'s fire does not halt the assault: {scored} (Assaults)", RULE)
    reactions.put_back(state, result.back)
    land(ctx)


def _scored(result: fire.FireResult, armoured: bool) -> str:
    """What the defender's fire scored against what halts the charge: "If during this fire,
    at least 5 FP's hit successfully, the assault is halted ... If assaulted by Armored Tank
    Teams, the assaulted Unit must inflict 2 suppression and/or destroyed results"."""
    if armoured:
        n = result.tank_results
        return (f"{n} suppression/destroyed result{'s' if n != 1 else ''} on the armour "
                f"({assault.HALT_TANK_RESULTS} halt it)")
    n = result.hits
    return f"{n} FP hit{'s' if n != 1 else ''} ({assault.HALT_HITS} halt it)"


def land(ctx: Ctx[SkirmishState]) -> None:
    """The assault lands: the attacker fights, then the defender chooses."""
    state = ctx.state
    fight, attacker, defender = _sides(state)
    ctx.say("assault", f"The assault of {attacker.id} lands on {defender.id} (Assaults)", RULE)
    _strike(ctx, attacker, defender)


def _strike(ctx: Ctx[SkirmishState], side_unit: UnitState, enemy: UnitState) -> None:
    """``side_unit`` fights; a failed check may be rerolled by its CC; then the struck unit's
    owner picks its losses."""
    state = ctx.state
    fight = state.assault
    assert fight is not None
    out = assault.strike(state, side_unit, enemy, ctx.dice)
    ctx.extend(out.events)
    fight.losses[enemy.id] = fight.losses.get(enemy.id, 0) + len(out.killed)
    fight.struck, fight.claims = enemy.id, out.claims
    failed = [t for t in dict.fromkeys(out.failed)
              if assault.within_close(state, state.team(t), enemy.alive_teams)]
    how = rerolls.answer(state, side_unit.side) if failed else "no"
    if how == "ask":
        rerolls.ask(ctx, Pending(kind="reroll", check="fight", side=side_unit.side,
                                 unit=side_unit.id, options=failed),
                    f"{side_unit.id}: {', '.join(failed)} failed their Training Check in the fight")
        return
    if how == "yes":
        fight_reroll(ctx, failed[0])
    pick_losses(ctx)


def fight_reroll(ctx: Ctx[SkirmishState], team_id: str) -> None:
    """The CC lets one team of the fight reroll its failed Training Check (Leaders)."""
    state = ctx.state
    fight = state.assault
    assert fight is not None
    team = state.team(team_id)
    side_unit, enemy = state.unit_of(team), state.unit(fight.struck)
    rerolls.use(state, side_unit.side)
    out = assault.Strike()
    assault.blow(state, team, side_unit, enemy, ctx.dice, out, reroll=True)
    ctx.extend(out.events)
    fight.losses[enemy.id] = fight.losses.get(enemy.id, 0) + len(out.killed)
    fight.claims += out.claims


def pick_losses(ctx: Ctx[SkirmishState]) -> None:
    """The struck unit's owner picks the teams the passed checks remove (asked, or its
    standing choice), then it counter-attacks or breaks off."""
    state = ctx.state
    fight = state.assault
    assert fight is not None
    enemy, claims = state.unit(fight.struck), fight.claims
    policy = state.policies.get(enemy.side, {}).get("losses", "ask")
    if policy == "ask" and losses.has_choice(claims):
        state.pending = Pending(kind="losses", side=enemy.side, unit=enemy.id)
        state.phase = "decide"
        names = ", ".join(losses.candidates(claims))
        offered = [prompts.answer("remove", teams=prompts.team_list(picked))
                   for picked in losses.choices(claims, loss_order(state, enemy, claims))]
        ctx.say("ask", f"{enemy.id} loses {losses.removals(claims)} of {names} (teams within 2\" "
                       f"of a team that passed): {prompts.listed(offered)} (Assaults)", RULE)
        return
    picked = losses.default_pick(claims, loss_order(state, enemy, claims))
    take_losses(ctx, picked, "standing choice" if policy == "auto" else "no other choice")


def loss_order(state: SkirmishState, unit: UnitState, claims: list[losses.Claim]) -> list[str]:
    """The owner's standing order of losses (its ``protect`` list last, nearest first)."""
    return assault.preference(state, claims, suppression.protected_of(state.policies, unit.side))


def losses_problem(state: SkirmishState, teams: list[str]) -> str | None:
    """Why the owner's pick of losses is refused, or None."""
    fight = state.assault
    if fight is None or not fight.claims:
        return "No assault losses are waiting to be chosen."
    need = losses.removals(fight.claims)
    names = ", ".join(losses.candidates(fight.claims))
    try:
        teams = [state.team(t).id for t in teams]
    except RuleError as exc:
        return f"{exc} Name {need} of {names} (Assaults)."
    if not losses.valid(fight.claims, teams):
        return (f"Name {need} different team{'s' if need > 1 else ''} of {names}, each within "
                f"2\" of a different team that passed (Assaults).")
    return None


def take_losses(ctx: Ctx[SkirmishState], picked: list[str], how: str) -> None:
    """Remove the chosen teams; then the struck unit counter-attacks or breaks off."""
    state = ctx.state
    fight = state.assault
    assert fight is not None
    enemy = state.unit(fight.struck)
    event = assault.remove(state, enemy, picked, how)
    if event:
        ctx.extend([event])
    fight.losses[enemy.id] = fight.losses.get(enemy.id, 0) + len(picked)
    fight.claims = []
    ask_choice(ctx, enemy)


def ask_choice(ctx: Ctx[SkirmishState], chooser: UnitState) -> None:
    """The unit just attacked counter-attacks or breaks off (asked unless a standing answer)."""
    state = ctx.state
    fight = state.assault
    assert fight is not None
    other_id = fight.attacker if chooser.id == fight.defender else fight.defender
    if not chooser.on_table or not state.unit(other_id).on_table:
        finish(ctx)
        return
    fight.chooser = chooser.id
    policy = state.policies.get(chooser.side, {}).get("counter", "ask")
    if policy == "ask":
        state.pending = Pending(kind="assault-choice", side=chooser.side, unit=chooser.id)
        state.phase = "decide"
        ctx.say("ask", f"{chooser.id}: counter-attack or break off? "
                       f"{prompts.either('counter', 'break')} (Assaults)", RULE)
        return
    choose(ctx, policy == "yes")


def _chooser_and_enemy(state: SkirmishState) -> tuple[UnitState, UnitState]:
    """The unit that counter-attacks or breaks off now, and the other unit of the assault."""
    fight = state.assault
    assert fight is not None
    unit = state.unit(fight.chooser)
    return unit, state.unit(fight.attacker if unit.id == fight.defender else fight.defender)


def choose(ctx: Ctx[SkirmishState], counter: bool) -> None:
    """Counter-attack (a Training Check, which the CC may let it reroll) or break off."""
    state = ctx.state
    unit, _ = _chooser_and_enemy(state)
    if not counter:
        break_off(ctx)
        return
    check = unit_check(unit, ctx.dice, f"{unit.id} counter-attack")  # +1 per marker (Suppression)
    verdict = "it counter-attacks" if check.passed else "it must break off"
    ctx.say("counter", f"{check.text(unit.id)}: {verdict} (Assaults)", RULE)
    how = "no" if check.passed else rerolls.answer(state, unit.side)
    if how == "ask":
        rerolls.ask(ctx, Pending(kind="reroll", check="counter", side=unit.side, unit=unit.id),
                    f"{unit.id} failed its Training Check to counter-attack")
        return
    counter_check_done(ctx, check.passed or (how == "yes" and counter_reroll(ctx)))


def counter_reroll(ctx: Ctx[SkirmishState]) -> bool:
    """The CC's reroll of the failed counter-attack check: whether it passes.  A failed
    reroll is remembered: if the break-off then removes the unit, the CC goes with it."""
    state = ctx.state
    fight = state.assault
    assert fight is not None
    unit, _ = _chooser_and_enemy(state)
    check = rerolls.reroll(state, unit, ctx.dice, "counter-attack", unit.markers)
    verdict = "it counter-attacks" if check.passed else "it must break off"
    ctx.say("counter", f"CC reroll: {check.text(unit.id)}: {verdict} (Leaders)", "Leaders")
    if not check.passed:
        fight.rerolled_fail = unit.id
    return check.passed


def counter_check_done(ctx: Ctx[SkirmishState], passed: bool) -> None:
    """After the counter-attack check (and any reroll): the 4" move and the fight, or the
    break-off."""
    state = ctx.state
    unit, enemy = _chooser_and_enemy(state)
    # Suppression: the check (and any reroll of it) settled, passed clears every marker and
    # failed removes one.
    cleared = suppression.unsuppress(unit, passed)
    if cleared:
        ctx.say("suppression", f"{unit.id}: {cleared} (Suppression)", "Suppression", unit=unit.id)
    if not passed:
        break_off(ctx)
        return
    ctx.extend(assault.counter_move(state, unit, enemy))
    _strike(ctx, unit, enemy)


def break_off(ctx: Ctx[SkirmishState]) -> None:
    """The chooser moves 1d6" away; the other unit's player says whether it follows."""
    state = ctx.state
    unit, enemy = _chooser_and_enemy(state)
    ctx.extend(assault.break_away(state, unit, enemy, ctx.dice))
    policy = state.policies.get(enemy.side, {}).get("follow", "ask")
    if policy == "ask" and any(t.kind != "gun" for t in enemy.alive_teams):
        state.pending = Pending(kind="follow", side=enemy.side, unit=enemy.id)
        state.phase = "decide"
        ctx.say("ask", f"{unit.id} breaks off: does {enemy.id} follow 1d6\"? "
                       f"{prompts.either('follow', 'stay')} (Assaults)", RULE)
        return
    follow_up(ctx, policy != "no")


def follow_up(ctx: Ctx[SkirmishState], chase: bool) -> None:
    """"The attacking Unit then may move 1d6"": it follows (or not); teams of the breaking
    unit within 2" of it die; the assault is over."""
    state = ctx.state
    unit, enemy = _chooser_and_enemy(state)
    if chase:
        ctx.extend(assault.follow(state, unit, enemy, ctx.dice))
    else:
        ctx.say("break", f"{enemy.id} stays where it is (Assaults)", RULE)
    events, killed = assault.caught(state, unit, enemy)
    ctx.extend(events)
    fight = state.assault
    assert fight is not None
    fight.losses[unit.id] = fight.losses.get(unit.id, 0) + len(killed)
    if fight.rerolled_fail == unit.id and not unit.on_table:
        ctx.extend(morale.cc_removed(state, unit.side))
    finish(ctx)


def finish(ctx: Ctx[SkirmishState]) -> None:
    """One suppression per casualty to each unit that lost teams; the activation ends."""
    state = ctx.state
    fight = state.assault
    if fight is not None:
        for unit_id, lost in fight.losses.items():
            unit = state.unit(unit_id)
            if lost and unit.on_table:
                event = assault.after_assault(
                    unit, lost, suppression.protected_of(state.policies, unit.side))
                if event:
                    ctx.extend([event])
    state.assault = None
    state.pending = None
    state.phase = "orders"
    ctx.extend(flow.end_activation(state, ctx.dice))
    ctx.snapshot = True
