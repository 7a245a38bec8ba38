"""Assaults: the charge, halting it, the fight within 2", counter-attacks and breaking off.

"Teams that did not fire may Move up to 12" as to be in base to base contact with the
assaulted Unit, or as close as possible (at least one Team must make contact in order for the
assault to continue)."  "If during this fire, at least 5 FP's hit successfully, the assault is
halted, and assaulting teams either stop where they are, or if in base to base contact, move as
to provide a 2" gap ... If assaulted by Armored Tank Teams, the assaulted Unit must inflict 2
suppression and/or destroyed results".  "each Team within 2" of an enemy makes a Training
Check, removing an enemy Team within 2" of the assaulting Team. No saves are rolled."
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.core import table
from rules.core.contract import Event
from rules.core.dice import Dice
from rules.core.views import Mark
from rules.skirmish import contact, losses, saves, suppression
from rules.skirmish.losses import Claim
from rules.skirmish.state import SkirmishState, TeamState, UnitState
from rules.skirmish.training import training_check

RULE = "Assaults"
CHARGE = 12.0
CLOSE = 2.0
COUNTER_MOVE = 4.0
HALT_HITS = 5
HALT_TANK_RESULTS = 2


def contact_gap(state: SkirmishState) -> float:
    """Centre to centre distance of two bases in contact."""
    return 2 * state.table.base_radius


def nearest_enemy(team: TeamState, enemies: list[TeamState]) -> TeamState | None:
    """The enemy team nearest ``team``."""
    return min(enemies, key=lambda e: table.distance(team.pos, e.pos), default=None)


def in_contact(state: SkirmishState, team: TeamState, enemies: list[TeamState]) -> bool:
    """Base to base contact with any enemy team."""
    return any(table.distance(team.pos, e.pos) <= contact_gap(state) + 0.05 for e in enemies)


def charge(
    state: SkirmishState, movers: list[TeamState], target: UnitState, reach: float = CHARGE
) -> list[Event]:
    """Move the charging teams up to ``reach`` into base to base contact with ``target``, each
    to the nearest free contact place it can reach, or as close as possible (Assaults)."""
    events = []
    side = state.unit_of(movers[0]).side if movers else None
    for team in movers:
        if not target.alive_teams or team.kind == "gun":
            continue
        way = contact.approach(state, team, target.alive_teams, reach)
        enemy = state.team(way.enemy)
        team.x, team.y = way.end
        team.moved = True
        if way.length > 1e-6:
            team.facing = table.angle_of(table.sub(enemy.pos, way.end))  # it faces its foe
            if team.kind == "tank":
                team.turret = team.facing
        state.marks.append(Mark(kind="assault", points=list(way.path),
                                text=table.inches(way.length), side=side, by=[team.id]))
        events.append(Event(kind="charge", rule=RULE, text=charge_line(team, way, reach),
                            data={"team": team.id, "to": way.end, "contact": way.gap == 0.0}))
    return events


def charge_line(team: TeamState, way: contact.Approach, reach: float) -> str:
    """What one team's charge did, and what stopped it if it is short (Assaults)."""
    went = table.inches(way.length)
    if way.gap == 0.0:
        round_ = f", going round {way.around}" if way.around else ""
        return f"{team.id} charges {went} into contact with {way.enemy}{round_} ({RULE})"
    why = {
        "reach": f"its {table.inches(reach)} move does not reach",
        "full": f"no free place left beside {way.enemy}",
        "way": "no clear way closer",
    }.get(way.stopped, f"{way.stopped}'s base is in the way")
    return f"{team.id} charges {went} at {way.enemy}: {table.inches(way.gap)} short, {why} ({RULE})"


def halted(hits: int, tank_results: int, armoured_attack: bool) -> bool:
    """Whether the defender's fire stops the assault (5 FP hits; 2 results against armour)."""
    if armoured_attack:
        return tank_results >= HALT_TANK_RESULTS
    return hits >= HALT_HITS


def fall_back(state: SkirmishState, movers: list[TeamState], target: UnitState) -> list[Event]:
    """A halted assault: teams in contact move back to a 2" gap from the enemy."""
    events = []
    for team in movers:
        enemy = nearest_enemy(team, target.alive_teams)
        if enemy is None or not in_contact(state, team, target.alive_teams):
            continue
        span = table.distance(enemy.pos, team.pos)
        back = CLOSE + contact_gap(state)
        direction = table.sub(team.pos, enemy.pos) if span > 1e-6 else (0.0, 1.0)
        scale = back / max(table.length(direction), 1e-6)
        end = table.add(enemy.pos, table.scale(direction, scale))
        team.x, team.y = table.clamp_to_table(end, state.table.width, state.table.height, 0.75)
        events.append(Event(kind="halt", rule=RULE,
                            text=f"{team.id} falls back to a 2\" gap from {enemy.id} ({RULE})"))
    return events


def within_close(state: SkirmishState, team: TeamState, enemies: list[TeamState]) -> list[TeamState]:
    """Enemy teams within 2" of ``team`` (base edge to base edge), nearest first."""
    reach = CLOSE + contact_gap(state)
    near = [e for e in enemies if e.alive and not table.beyond(table.distance(team.pos, e.pos), reach)]
    return sorted(near, key=lambda e: table.distance(team.pos, e.pos))


@dataclass
class Strike:
    """What one unit's fight did: events, claims on enemy teams (the owner picks the losses,
    :mod:`losses`), tanks killed, and the teams whose Training Check failed (the CC may allow
    one of them a reroll, Leaders)."""

    events: list[Event] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)
    killed: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)


def strike(state: SkirmishState, side_unit: UnitState, enemy: UnitState, dice: Dice) -> Strike:
    """Each team within 2" of an enemy fights: a passed Training Check is a claim on the enemy
    teams within its 2" (no saves); against tanks, Tank Assault rating checks, then armour and
    damage."""
    out = Strike()
    for team in side_unit.alive_teams:
        near = within_close(state, team, enemy.alive_teams)
        if not near:
            continue
        if team.kind == "tank" and all(t.kind == "tank" for t in near):
            continue  # "Tank Teams my not assault Tank Teams"
        if any(not t.armoured for t in near):
            blow(state, team, side_unit, enemy, dice, out)
        elif team.kind != "tank":
            _tank_assault(state, team, side_unit, near[0], enemy, dice, out)
    return out


def blow(state: SkirmishState, team: TeamState, side_unit: UnitState, enemy: UnitState,
         dice: Dice, out: Strike, reroll: bool = False) -> None:
    """One team's Training Check in the fight (``reroll``: the CC's reroll of it), against
    the unarmoured teams within its 2", or against the nearest tank by its Tank Assault
    rating."""
    near = within_close(state, team, enemy.alive_teams)
    soft = [t for t in near if not t.armoured]
    reason = f"{team.id} assault" + (" CC reroll" if reroll else "")
    prefix = "CC reroll: " if reroll else ""
    if not soft:
        _tank_blow(state, team, side_unit, near[0], enemy, dice, out, prefix)
        return
    check = training_check(side_unit.training, dice, reason)
    if check.passed:
        out.claims.append(Claim(striker=team.id, within=[t.id for t in soft]))
    else:
        out.failed.append(team.id)
    verdict = (f"removes a team within 2\" ({', '.join(t.id for t in soft)})"
               if check.passed else "no effect")
    out.events.append(Event(kind="fight", rule=RULE,
                            text=f"{prefix}{check.text(team.id)}: {verdict} ({RULE})"))


def preference(state: SkirmishState, claims: list[Claim], protected: frozenset[str]) -> list[str]:
    """The owner's standing order of losses: unprotected teams first, then the nearest to a
    team that struck them."""
    def key(team_id: str) -> tuple[bool, float]:
        pos = state.team(team_id).pos
        reach = min(table.distance(pos, state.team(c.striker).pos)
                    for c in claims if team_id in c.within)
        return (team_id in protected, reach)

    return sorted(losses.candidates(claims), key=key)


def remove(state: SkirmishState, enemy: UnitState, team_ids: list[str], how: str) -> Event | None:
    """Take the chosen teams off the table (no saves in an assault)."""
    for team_id in team_ids:
        suppression.remove_team(enemy, state.team(team_id))
    if not team_ids:
        return None
    return Event(kind="fight", rule=RULE,
                 text=f"{enemy.id} loses {', '.join(team_ids)} ({how}) ({RULE})",
                 data={"unit": enemy.id, "removed": list(team_ids)})


def fight(state: SkirmishState, side_unit: UnitState, enemy: UnitState, dice: Dice) -> tuple[list[Event], list[str]]:
    """The fight with the owner's standing choice of losses: ``(events, teams removed)``."""
    out = strike(state, side_unit, enemy, dice)
    protected = suppression.protected_of(state.policies, enemy.side)
    picked = losses.default_pick(out.claims, preference(state, out.claims, protected))
    event = remove(state, enemy, picked, "standing choice")
    return out.events + ([event] if event else []), out.killed + picked


def _tank_assault(
    state: SkirmishState, team: TeamState, unit: UnitState, tank: TeamState, enemy: UnitState,
    dice: Dice, out: Strike,
) -> None:
    """Infantry and Gun teams against a tank: Tank Assault rating checks, armour, damage."""
    if team.tank_assault <= 0:
        out.events.append(Event(kind="fight", rule=RULE, text=(
            f"{team.id} has no Tank Assault rating: no effect on {tank.id} ({RULE})")))
        return
    for _ in range(team.tank_assault):
        if not tank.alive:
            break
        _tank_blow(state, team, unit, tank, enemy, dice, out)


def _tank_blow(
    state: SkirmishState, team: TeamState, unit: UnitState, tank: TeamState, enemy: UnitState,
    dice: Dice, out: Strike, prefix: str = "",
) -> None:
    """One Tank Assault Training Check: "For each success, the assaulted Tank Team will roll
    an armor save, followed by the attacker rolling on the Vehicle Damage Table"."""
    reason = f"{team.id} tank assault" + (" CC reroll" if prefix else "")
    check = training_check(unit.training, dice, reason)
    shown = prefix + check.text(team.id + " tank assault")
    if not check.passed:
        out.failed.append(team.id)
        out.events.append(Event(kind="fight", rule=RULE, text=f"{shown} ({RULE})"))
        return
    hit = saves.armour_hit(dice, tank, team.pos, state.table.base_radius)
    if hit.result == "destroyed":
        suppression.remove_team(enemy, tank)
        out.killed.append(tank.id)
    elif hit.result == "suppressed":
        tank.suppression += 1
    out.events.append(Event(kind="fight", rule=RULE, text=f"{shown}: {tank.id} {hit.text()} ({RULE})"))


def counter_move(state: SkirmishState, unit: UnitState, enemy: UnitState) -> list[Event]:
    """A counter-attacking unit moves teams not in contact up to 4" (not Gun teams)."""
    movers = [t for t in unit.alive_teams
              if t.kind != "gun" and not in_contact(state, t, enemy.alive_teams)]
    return charge(state, movers, enemy, COUNTER_MOVE)


def break_away(state: SkirmishState, breaking: UnitState, other: UnitState, dice: Dice) -> list[Event]:
    """"Units that break off move 1d6" away from the attacking Unit": one roll, each team
    straight away from the nearest enemy team (Gun teams do not move in assaults)."""
    away = dice.die(6, f"{breaking.id} breaks off")
    for team in breaking.alive_teams:
        if team.kind == "gun":
            continue
        enemy = nearest_enemy(team, other.alive_teams)
        if enemy is None:
            continue
        direction = table.sub(team.pos, enemy.pos)
        span = max(table.length(direction), 1e-6)
        end = table.add(team.pos, table.scale(direction, away / span))
        team.x, team.y = table.clamp_to_table(end, state.table.width, state.table.height, 0.75)
    return [Event(kind="break", rule=RULE,
                  text=f"{breaking.id} breaks off 🎲{away}\" away from {other.id} ({RULE})")]


def follow(state: SkirmishState, breaking: UnitState, other: UnitState, dice: Dice) -> list[Event]:
    """"The attacking Unit then may move 1d6"": one roll, each team towards the nearest."""
    if not other.alive_teams:
        return []
    chase = dice.die(6, f"{other.id} follows")
    events = [Event(kind="break", rule=RULE, text=f"{other.id} follows 🎲{chase}\" ({RULE})")]
    return events + charge(state, [t for t in other.alive_teams if t.kind != "gun"], breaking, chase)


def caught(state: SkirmishState, breaking: UnitState, other: UnitState) -> tuple[list[Event], list[str]]:
    """"Teams within 2" of an attacking Team (except armored Tank Teams) are immediately
    destroyed"."""
    killed = []
    for team in breaking.alive_teams:
        if team.armoured:
            continue
        if within_close(state, team, other.alive_teams):
            suppression.remove_team(breaking, team)
            killed.append(team.id)
    if not killed:
        return [], []
    return [Event(kind="break", rule=RULE,
                  text=f"Caught within 2\": {', '.join(killed)} destroyed ({RULE})")], killed


def break_off(
    state: SkirmishState, breaking: UnitState, other: UnitState, dice: Dice, chase: bool = True
) -> tuple[list[Event], list[str]]:
    """The whole break-off: 1d6" away, the other unit following 1d6" if ``chase``, then the
    breaking teams caught within 2" die."""
    events = break_away(state, breaking, other, dice)
    if chase:
        events += follow(state, breaking, other, dice)
    more, killed = caught(state, breaking, other)
    return events + more, killed


def after_assault(unit: UnitState, casualties: int, protected: frozenset[str] = frozenset()) -> Event | None:
    """"any Unit that takes at least one casualty during the assault takes 1 suppression
    marker for each casualty"."""
    placed = suppression.place_markers(unit, casualties, protected=protected)
    return suppression.suppression_event(unit, placed, f"{casualties} lost in the assault")
