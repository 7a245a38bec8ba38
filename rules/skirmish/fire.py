"""A unit's fire at one enemy unit, from the declared target to casualties (Firing; Saves).

Order: each firing team's line (range, long range, line of sight, arc, no friendly team in
the way), its To Hit with the Firing Modifiers, its FP dice; allocation; saves (armour and the
Vehicle Damage Table for armoured teams); casualties; suppression.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.core import table
from rules.core.contract import Event
from rules.core.dice import Dice
from rules.skirmish import allocation, saves, suppression, terrain, tohit
from rules.skirmish.scenario import TeamKind, Weapon
from rules.skirmish.state import SkirmishState, TeamState, UnitState

RULE = "Firing"


@dataclass(frozen=True)
class ShotLine:
    """How a team can fire at a unit: the nearest target team it sees, range, long range."""

    shooter: str
    weapon: str
    target_team: str
    distance: float
    long: bool


@dataclass
class FireResult:
    """What a round of fire did: events, hits, casualties, and results for halting assaults."""

    events: list[Event] = field(default_factory=list)
    hits: int = 0
    casualties: list[str] = field(default_factory=list)
    tank_results: int = 0  # suppression or destroyed results on armoured teams
    fired: list[str] = field(default_factory=list)
    back: dict[str, table.Point] = field(default_factory=dict)  # moved teams' true places


def arc_of(team: TeamState) -> float:
    """Infantry fire all round; guns and tanks in their forward 180 degrees (Firing)."""
    return 360.0 if team.kind == "infantry" else 180.0


def facing_for_fire(team: TeamState) -> float:
    """Tanks fire on their turret's facing ("A tank's turret follows these same rules")."""
    return team.turret_facing if team.kind == "tank" else team.facing


def friendly_in_the_way(state: SkirmishState, shooter: TeamState, target: table.Point) -> str | None:
    """A friendly team the line of fire passes through, or None (Firing).

    "Teams may not fire through friendly Teams, though Gun and Tank Teams may fire over
    Infantry Teams."
    """
    radius = state.table.base_radius
    side = state.unit_of(shooter).side
    for team in state.teams(side):
        if team.id == shooter.id:
            continue
        if shooter.kind in ("gun", "tank") and team.kind == "infantry":
            continue
        if table.distance_to_segment(team.pos, shooter.pos, target) < radius:
            return team.id
    return None


def sees(state: SkirmishState, shooter: TeamState, target: TeamState) -> bool:
    """Line of sight and no friendly team in the way."""
    return terrain.line_of_sight(state, shooter.pos, target.pos) and (
        friendly_in_the_way(state, shooter, target.pos) is None
    )


def shot_line(
    state: SkirmishState, shooter: TeamState, target: UnitState, weapon_key: str
) -> ShotLine | str:
    """The team's line of fire at ``target`` with ``weapon_key``, or why it cannot fire."""
    weapon = state.table.weapon(weapon_key)
    if shooter.suppression:
        return f"{shooter.id} is suppressed and may not fire (Suppression)"
    if shooter.fired_initiative:
        return f"{shooter.id} has already fired this Initiative (Reaction Fire)"
    seen = [t for t in target.alive_teams if sees(state, shooter, t)]
    if not seen:
        return _unseen(state, shooter, target)
    arc = arc_of(shooter)
    in_arc = [t for t in seen if table.in_arc(shooter.pos, facing_for_fire(shooter), arc, t.pos)]
    if not in_arc:
        return (f"{shooter.id}: {target.id} is outside its forward 180° arc; \"To fire outside "
                f"this arc would first require a Move action to rotate the firing Team\" (Firing)")
    nearest = min(in_arc, key=lambda t: table.distance(shooter.pos, t.pos))
    dist = table.measured(table.distance(shooter.pos, nearest.pos))
    if dist > reach(weapon):
        return out_of_reach(shooter, target, dist, weapon)
    return ShotLine(shooter.id, weapon_key, nearest.id, dist, dist > weapon.range)


def out_of_reach(shooter: TeamState, target: UnitState, dist: float, weapon: Weapon) -> str:
    """Why a team cannot fire that far: beyond twice its range ("Target at Long Range (up to
    2x range)"), or, for a weapon whose half FP rounds down to 0, beyond its range."""
    if reach(weapon) > weapon.range:
        return (f"{shooter.id}: {target.id} is {dist:.1f}\", beyond the {reach(weapon):g}\" long "
                f"range (twice the {weapon.range:g}\") of its {weapon.name} (Firing)")
    return (f"{shooter.id}: {target.id} is {dist:.1f}\", beyond the {weapon.range:g}\" range of its "
            f"{weapon.name}; at long range its {weapon.fp} FP halves to {tohit.long_range_fp(weapon.fp)} "
            f"(\"half FP rounded down\"), so it rolls no die (Firing)")


def _unseen(state: SkirmishState, shooter: TeamState, target: UnitState) -> str:
    """Why no team of ``target`` can be fired at by ``shooter``: the terrain or smoke, or a
    friendly team in the way of every line it has (Cover & Terrain; Firing)."""
    open_lines = [t for t in target.alive_teams if terrain.line_of_sight(state, shooter.pos, t.pos)]
    if not open_lines:
        return f"{shooter.id} has no line of sight to {target.id} (Cover & Terrain)"
    friend = friendly_in_the_way(state, shooter, open_lines[0].pos)
    return (f"{shooter.id}: {friend} is in the way of its fire at {target.id}: \"Teams may not fire "
            f"through friendly Teams\" (Firing)")


def reach(weapon: Weapon) -> float:
    """How far a weapon fires: twice its range at long range, unless half its FP is 0."""
    return 2 * weapon.range if tohit.long_range_fp(weapon.fp) >= 1 else weapon.range


def covers(state: SkirmishState, shooter: TeamState, point: table.Point) -> bool:
    """Whether ``point`` is in the team's field of fire: within a weapon's reach, inside its
    arc, in its line of sight and no friendly team in the way (Firing; Overwatch)."""
    if shooter.suppression or shooter.fired_initiative:
        return False
    if not table.in_arc(shooter.pos, facing_for_fire(shooter), arc_of(shooter), point):
        return False
    dist = table.measured(table.distance(shooter.pos, point))
    if not any(dist <= reach(state.table.weapon(w)) for w in shooter.weapons):
        return False
    return terrain.line_of_sight(state, shooter.pos, point) and (
        friendly_in_the_way(state, shooter, point) is None
    )


def best_weapon(state: SkirmishState, shooter: TeamState, target: UnitState,
                at_type: TeamKind | None = None) -> str:
    """The one weapon a team fires ("Each Team firing rolls a number of d6 equal to their
    weapon's Fire Points rating"): an AT weapon against armour or when the order declares a
    type for AT weapons (``at:``, "Weapons with the 'AT' trait may declare which type of Team
    they are shooting at"), else the most FP that reaches."""
    want_at = at_type is not None or any(t.armoured for t in target.alive_teams)
    options = []
    for key in shooter.weapons:
        line = shot_line(state, shooter, target, key)
        weapon = state.table.weapon(key)
        if isinstance(line, ShotLine):
            fp = tohit.long_range_fp(weapon.fp) if line.long else weapon.fp
            options.append(((weapon.at if want_at else True), fp, key))
    return max(options)[2] if options else shooter.weapons[0]


def at_problem(state: SkirmishState, shooters: list[TeamState], target: UnitState,
               at_type: TeamKind | None) -> str | None:
    """Why ``at:`` cannot be declared against ``target``, or None: "Weapons with the 'AT' trait
    may declare which type of Team they are shooting at in the targeted Unit" (Firing)."""
    if at_type is None:
        return None
    if not any(t.kind == at_type for t in target.alive_teams):
        return (f"{target.id} has no {at_type} team: at: declares a type of team in the "
                f"targeted unit (Firing).")
    if not any(state.table.weapon(w).at and isinstance(shot_line(state, s, target, w), ShotLine)
               for s in shooters for w in s.weapons):
        return (f"No firing team has an AT weapon that can fire at {target.id}: only "
                f"\"Weapons with the 'AT' trait\" declare at: (Firing).")
    return None


def gone_to_ground(state: SkirmishState, team: TeamState) -> bool:
    """A team is Gone to Ground (README reading; Forward Observers)."""
    unit = state.unit_of(team)
    if team.role == "fo" and terrain.team_cover(state, team, team.pos) != "none":
        return True  # "FOs in concealing terrain are considered Gone to Ground"
    return unit.gone_to_ground and not (team.moved or team.fired)


def unit_moved(state: SkirmishState, shooter: TeamState) -> bool:
    """"Firing Unit Moved +1" and "Move and Fire: Unit may Move and then Fire at a +1 penalty
    To Hit": the Unit's modifier (README), so every team of a unit fires at +1 once any of its
    teams has moved this turn, in its own action or before Reaction Fire.  A Forward Observer
    moving on its own ("may choose to execute different actions than the rest of the Unit")
    does not move its unit; it fires as moved itself."""
    if shooter.moved:
        return True
    unit = state.unit_of(shooter)
    return any(t.moved for t in unit.teams if t.role != "fo")


def unit_concealed(state: SkirmishState, shooters: list[TeamState], target: UnitState) -> bool:
    """"every Team in the Unit must be concealed from the Firing Unit" (Cover & Terrain)."""
    for team in target.alive_teams:
        for shooter in shooters:
            if sees(state, shooter, team) and not terrain.concealed(state, team, shooter.pos):
                return False
    return True


def unit_gone_to_ground(state: SkirmishState, shooters: list[TeamState], target: UnitState) -> bool:
    """The +1 holds unless a firing team sees a target team that is not Gone to Ground."""
    for team in target.alive_teams:
        if gone_to_ground(state, team):
            continue
        if any(sees(state, s, team) for s in shooters):
            return False
    return True


@dataclass(frozen=True)
class Fire:
    """How a unit fires: Aimed, Reaction, the firing unit having moved, AT declaration."""

    aimed: bool = False
    reaction: bool = False
    at_type: TeamKind | None = None
    directed: str | None = None  # a team whose missed dice a leader rerolls (Leaders)
    weapons: tuple[tuple[str, str], ...] = ()  # (team, weapon) choices


def resolve_fire(
    state: SkirmishState, shooters: list[TeamState], target: UnitState, dice: Dice, how: Fire
) -> FireResult:
    """Resolve one unit's fire at one enemy unit; ``shooters`` are its firing teams."""
    result, volley = roll_fire(state, shooters, target, dice, how)
    if volley is not None:
        land_volley(state, volley, dice, result)
    return result


def roll_fire(
    state: SkirmishState, shooters: list[TeamState], target: UnitState, dice: Dice, how: Fire
) -> tuple[FireResult, allocation.Volley | None]:
    """The To Hit part of a unit's fire: lines, modifiers, dice.  The hits wait in the
    returned volley (None when no team could fire) for :func:`land_volley`."""
    result = FireResult()
    declared = target.id  # the unit fired at (a CC's HQ is resolved with the unit he joins)
    target = join_cc(state, target, result)
    lines = _lines(state, shooters, target, how, result)
    if not lines:
        return result, None
    firing = [state.team(line.shooter) for line in lines]
    concealed = unit_concealed(state, firing, target)
    gtg = unit_gone_to_ground(state, firing, target)
    batches, reroll = [], target.running
    for line in lines:
        batch, need = _roll_team(state, line, target, dice, how, concealed, gtg, result)
        batches.append(batch)
        reroll = reroll or need <= 1
    volley = allocation.Volley(target=declared, firing=[t.id for t in firing], batches=batches,
                               reroll=reroll)
    return result, volley


def volley_candidates(state: SkirmishState, volley: allocation.Volley,
                      first: frozenset[str] = frozenset()) -> list[allocation.Candidate]:
    """The target's teams that may take the volley's hits (``first``: the owner's pick)."""
    target = join_cc(state, state.unit(volley.target), FireResult())
    firing = [state.team(t) for t in volley.firing]
    return _candidates(state, firing, target, {b.shooter: b for b in volley.batches}, first)


def land_volley(state: SkirmishState, volley: allocation.Volley, dice: Dice, result: FireResult,
                first: frozenset[str] = frozenset()) -> None:
    """Allocate the volley's hits (the owner's ``first`` teams first among equals), roll the
    saves, remove casualties, place suppression."""
    target = join_cc(state, state.unit(volley.target), FireResult())
    cands = volley_candidates(state, volley, first)
    _land_hits(state, target, cands, volley.batches, dice, volley.reroll, result)


def join_cc(state: SkirmishState, target: UnitState, result: FireResult) -> UnitState:
    """"When a CC is the target of an attack, he wil automatically join a Unit within 6" of
    his position, and is considered a part of that platoon until the end of the attack."

    The attack is resolved against that unit with the CC as one more of its teams (its
    Training, its allocation); casualties still leave their own units.
    """
    cc = target.pl if target.hq else None
    if cc is None:
        return target
    near = [
        u for u in state.live(target.side) if not u.hq and any(
            not table.beyond(table.distance(cc.pos, t.pos), 6.0) for t in u.alive_teams)
    ]
    if not near:
        return target
    host = min(near, key=lambda u: min(table.distance(cc.pos, t.pos) for t in u.alive_teams))
    result.events.append(Event(kind="join", rule="Leaders",
                               text=f"{cc.id} joins {host.id} for this attack (Leaders)"))
    fields = dict(host)
    fields["teams"] = [cc] + list(host.teams)
    return UnitState.model_construct(**fields)


def _lines(
    state: SkirmishState, shooters: list[TeamState], target: UnitState, how: Fire,
    result: FireResult,
) -> list[ShotLine]:
    chosen = dict(how.weapons)
    lines = []
    for shooter in shooters:
        key = chosen.get(shooter.id) or best_weapon(state, shooter, target, how.at_type)
        line = shot_line(state, shooter, target, key)
        if isinstance(line, str):
            result.events.append(Event(kind="no-fire", text=line, rule=RULE))
            continue
        lines.append(line)
    return lines


def _roll_team(
    state: SkirmishState, line: ShotLine, target: UnitState, dice: Dice, how: Fire,
    concealed: bool, gtg: bool, result: FireResult,
) -> tuple[allocation.Batch, int]:
    shooter = state.team(line.shooter)
    weapon: Weapon = state.table.weapon(line.weapon)
    fp = tohit.long_range_fp(weapon.fp) if line.long else weapon.fp
    need = tohit.to_hit(
        target.training, concealed=concealed, gone_to_ground=gtg, long_range=line.long,
        moved=unit_moved(state, shooter), reaction=how.reaction, aimed=how.aimed,
    )
    roll = tohit.roll_to_hit(dice, fp, need.need, f"{shooter.id} to hit",
                             reroll_misses=how.directed == shooter.id)
    shooter.fired = shooter.fired_initiative = True
    if shooter.kind == "tank":
        shooter.turret = table.angle_of(table.sub(state.team(line.target_team).pos, shooter.pos))
    result.fired.append(shooter.id)
    result.hits += roll.hits
    rng = f"{line.distance:.1f}\"" + (" long" if line.long else "")
    if weapon.at and how.at_type:
        rng += f", AT at {how.at_type} teams"
    result.events.append(Event(
        kind="fire",
        text=(f"{shooter.id} {weapon.name} {fp} FP at {target.id} ({rng}): "
              f"to hit {need.text()} {roll.text()} ({RULE})"),
        rule=RULE,
        data={"shooter": shooter.id, "target": target.id, "dice": roll.dice, "need": need.need,
              "hits": roll.hits, "from": shooter.pos, "to": state.team(line.target_team).pos},
    ))
    batch = allocation.Batch(shooter=shooter.id, weapon=line.weapon, hits=roll.hits, at=weapon.at,
                             declared=how.at_type if weapon.at else None, long=line.long)
    return batch, need.need


def _candidates(
    state: SkirmishState, firing: list[TeamState], target: UnitState,
    batches: dict[str, allocation.Batch], first: frozenset[str] = frozenset(),
) -> list[allocation.Candidate]:
    """The valid teams: "within range and line of sight of at least one firing Team"."""
    out = []
    shield = suppression.protected_of(state.policies, target.side)
    for team in target.alive_teams:
        seers = [s for s in firing
                 if s.id in batches and sees(state, s, team) and _reaches(state, s, team, batches[s.id])]
        if not seers:
            continue
        near = min(seers, key=lambda s: table.distance(s.pos, team.pos))
        out.append(allocation.Candidate(
            team=team.id, kind=team.kind, cover=terrain.team_cover(state, team, near.pos),
            gone_to_ground=gone_to_ground(state, team),
            distance=table.distance(near.pos, team.pos), armoured=team.armoured,
            protected=team.id in shield, first=team.id in first,
        ))
    return out


def _reaches(state: SkirmishState, shooter: TeamState, team: TeamState, batch: allocation.Batch) -> bool:
    """Within range of the weapon the team fired: "allocate one die to a Team ... that is
    within range and line of sight of at least one firing Team" (Firing).  Long range (up to
    2x) counts only for a team that fired at long range; one that fired at normal range
    reaches only its weapon's range."""
    weapon = state.table.weapon(batch.weapon or shooter.weapons[0])
    reach = 2 * weapon.range if batch.long else weapon.range
    return table.measured(table.distance(shooter.pos, team.pos)) <= reach


def _land_hits(
    state: SkirmishState, target: UnitState, cands: list[allocation.Candidate],
    batches: list[allocation.Batch], dice: Dice, reroll: bool, result: FireResult,
) -> None:
    given = allocation.allocate(cands, batches)
    lost = sum(b.hits for b in batches) - sum(len(d) for d in given.values())
    if lost and cands and all(c.armoured for c in cands if c.team not in given):
        result.events.append(Event(kind="allocate", rule="Armor Saves", text=(
            f"{lost} hit{'s' if lost != 1 else ''} cannot harm {target.id}'s armour: \"Armored "
            f"Teams may only be harmed by Teams firing 'AT' weapons\" (Armor Saves)")))
    if not given:
        return
    text = ", ".join(f"{team} {len(d)}" for team, d in given.items())
    result.events.append(Event(kind="allocate", text=f"Hits allocated: {text} ({RULE})", rule=RULE))
    counted = 0
    for team_id, shooters in given.items():
        team = state.team(team_id)
        counted += 0 if team.role == "fo" else len(shooters)
        cover = next(c.cover for c in cands if c.team == team_id)
        _save_team(state, team, shooters, cover, dice, reroll, result)
    placed = suppression.place_markers(target, suppression.markers_for_hits(counted),
                                       [t for t in given if state.team(t).alive],
                                       suppression.protected_of(state.policies, target.side))
    event = suppression.suppression_event(target, placed, f"{counted} FP hit")
    if event:
        result.events.append(event)


def _save_team(
    state: SkirmishState, team: TeamState, shooters: list[str], cover: str, dice: Dice,
    reroll: bool, result: FireResult,
) -> None:
    unit = state.unit_of(team)
    if team.armoured:
        _armour(state, team, shooters, dice, reroll, result)
        return
    need = saves.save_number(team, cover)  # type: ignore[arg-type]
    roll = saves.roll_saves(dice, team.id, len(shooters), need or 7, reroll)
    line = roll.text()
    if roll.failed:
        suppression.remove_team(unit, team)
        result.casualties.append(team.id)
        line += f": {team.id} is removed"
    result.events.append(Event(kind="save", text=f"{line} (Saves)", rule="Saves",
                               data={"team": team.id, "dice": roll.dice, "need": roll.need}))


def _armour(
    state: SkirmishState, team: TeamState, shooters: list[str], dice: Dice, reroll: bool,
    result: FireResult,
) -> None:
    unit = state.unit_of(team)
    for shooter_id in shooters:
        if not team.alive:
            break
        shooter = state.team(shooter_id)
        hit = saves.armour_hit(dice, team, shooter.pos, state.table.base_radius, reroll)
        if hit.result == "destroyed":
            suppression.remove_team(unit, team)
            result.casualties.append(team.id)
            result.tank_results += 1
        elif hit.result == "suppressed":
            team.suppression += 1
            result.tank_results += 1
        result.events.append(Event(
            kind="armour", text=f"{team.id} hit by {shooter_id}: {hit.text()} (Armor Saves)",
            rule="Armor Saves",
        ))
