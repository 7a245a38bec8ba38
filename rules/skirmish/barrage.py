"""Indirect Fire: barrages and smoke from artillery units, observers and the template.

"Artillery have the ability to attack Units outside of their line of sight (though still within
range and their forward arc) by firing a 'barrage'. Teams firing a barrage over an obstacle must
be as far away from the obstacle as the obstacle is tall. If not observing for themselves, the
enemy must be in line of sight of either the Unit's PL, Observer, or the CC."  Ranging in is "a
simple To Hit roll, applying all the same modifiers, except adding +1 to the target number if the
CC is observing"; the 6"x6" template is aligned "perpendicular to the most center point of the
firing Unit"; a miss may be moved up to 6" by the opponent.  FP per team under it: "+1 FP if
more than 4 guns firing, ½ FP, rounded down, if fewer than 3 guns, single guns may not fire
barrages", and "an additional suppression is added simply for being attacked by artillery
(unless firing with only 1 gun)".  Smoke: units of two or more guns; a 6"x6" area that conceals
and blocks line of sight.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules.core import table
from rules.core.contract import Event
from rules.core.dice import Dice
from rules.core.errors import RuleError
from rules.skirmish import fire, saves, suppression, terrain, tohit
from rules.skirmish.state import SkirmishState, Smoke, TeamState, UnitState, other

RULE = "Indirect Fire"
TEMPLATE = 6.0
DRIFT = 6.0
#: Ranging in on a point for smoke (no Team to take the number from): our stand-in.
SMOKE_RANGING = 3


def _barrage_weapon(team: TeamState, state: SkirmishState | None = None) -> str | None:
    for key in team.weapons:
        if state is None or state.table.weapon(key).barrage:
            return key
    return None


def barrage_guns(state: SkirmishState, unit: UnitState) -> list[TeamState]:
    """Living gun teams of ``unit`` carrying a barrage weapon."""
    return [t for t in unit.alive_teams if t.kind == "gun" and _barrage_weapon(t, state)]


def barrage_fp(fp: int, count: int) -> int:
    """FP under the template for ``count`` guns firing (Indirect Fire)."""
    if count <= 1:
        raise RuleError("Single guns may not fire barrages (Indirect Fire).")
    if count > 4:
        return fp + 1
    return fp // 2 if count < 3 else fp


def centre_of(teams: list[TeamState]) -> table.Point:
    """"the most center point of the firing Unit": the average of its firing teams."""
    return (sum(t.x for t in teams) / len(teams), sum(t.y for t in teams) / len(teams))


def obstacle_clear(state: SkirmishState, gun: TeamState, point: table.Point) -> str | None:
    """"as far away from the obstacle as the obstacle is tall": why not, or None."""
    for piece in state.table.terrain:
        if piece.height <= 0 or piece.kind == "road":
            continue
        if piece.kind == "linear":
            hit = terrain.crossing(piece, gun.pos, point)
            gap = None if hit is None else table.distance(gun.pos, hit)
        else:
            if table.point_in_polygon(point, piece.polygon) or not table.segment_crosses(
                gun.pos, point, piece.polygon
            ):
                continue
            gap = table.distance_to_shape(gun.pos, piece.polygon)
        if gap is not None and gap < piece.height - 1e-6:
            return (f"{gun.id} is {gap:.1f}\" from {piece.name}, {piece.height:g}\" tall: "
                    f"it must be as far from it as it is tall ({RULE})")
    return None


def reaches(state: SkirmishState, gun: TeamState, point: table.Point) -> str | None:
    """Range, forward arc and obstacle height for one gun: why not, or None."""
    key = _barrage_weapon(gun, state)
    weapon = state.table.weapon(key) if key else None
    if weapon is None:
        return f"{gun.id} has no barrage weapon"
    if table.beyond(table.distance(gun.pos, point), weapon.range):
        return f"{gun.id}: the target is beyond the {weapon.range:g}\" range of its {weapon.name}"
    if not table.in_arc(gun.pos, gun.facing, 180.0, point):
        return f"{gun.id}: the target is outside its forward arc"
    return obstacle_clear(state, gun, point)


def observer(state: SkirmishState, unit: UnitState, point: table.Point) -> TeamState | None:
    """Who observes ``point``: a firing gun itself, the unit's PL or FO, or the CC."""
    candidates = [t for t in unit.alive_teams if t.role in ("pl", "fo")]
    candidates += [t for t in barrage_guns(state, unit) if t.role != "pl"]
    hq = next((u for u in state.live(unit.side) if u.hq), None)
    if hq is not None and hq.pl is not None:
        candidates.append(hq.pl)
    for team in candidates:
        if terrain.line_of_sight(state, team.pos, point) and not team.moved:
            return team
    return None


@dataclass
class Ranging:
    """The ranging-in roll and the template it leaves."""

    events: list[Event] = field(default_factory=list)
    hit: bool = False
    centre: table.Point = (0.0, 0.0)
    aim: table.Point = (0.0, 0.0)  # the firing unit's centre, for the template's alignment


def range_in(
    state: SkirmishState, unit: UnitState, spotter: TeamState, target: TeamState | None,
    point: table.Point, dice: Dice,
) -> Ranging:
    """Roll to range in on ``target`` (a Team) or on ``point`` (smoke)."""
    cc = spotter.role == "cc"
    if target is not None:
        enemy = state.unit_of(target)
        concealed, gtg = observed(state, spotter, enemy)
        need = tohit.to_hit(enemy.training, concealed=concealed, gone_to_ground=gtg,
                            cc_observing=cc)
        number, label = need.need, need.text()
        point = target.pos
    else:
        number = SMOKE_RANGING + cc
        label = f"{SMOKE_RANGING}+" + (" +1 CC observing" if cc else "")
    die = dice.die(6, f"{unit.id} ranging in")
    hit = number < 7 and die != 1 and die >= number
    aim = centre_of(barrage_guns(state, unit))
    verdict = "on target" if hit else "missed: the opponent may move the template up to 6\""
    text = (f"{unit.id} ranges in (observer {spotter.id}) on "
            f"{target.id if target else f'{point[0]:.0f},{point[1]:.0f}'}: "
            f"{label} 🎲{die}: {verdict} ({RULE})")
    return Ranging([Event(kind="ranging", text=text, rule=RULE)], hit, point, aim)


def observed(state: SkirmishState, spotter: TeamState, unit: UnitState) -> tuple[bool, bool]:
    """Target Concealed and Target Gone to Ground for a roll observed by ``spotter``: ranging
    in is "a simple To Hit roll, applying all the same modifiers", and "In order for a Unit to
    be concealed, every Team in the Unit must be concealed from the Firing Unit. If even one
    Team is not concealed, that Team will reveal the position of the entire Unit": the unit's
    concealment and Gone to Ground as the team observing sees them, as a direct fire takes
    them from its firing teams (Cover & Terrain; Gone to Ground)."""
    concealed = fire.unit_concealed(state, [spotter], unit)
    gone = any(fire.gone_to_ground(state, t) for t in unit.alive_teams)
    return concealed, gone and fire.unit_gone_to_ground(state, [spotter], unit)


def template(centre: table.Point, aim: table.Point) -> table.Polygon:
    """The 6"x6" template on ``centre``, one side facing the firing unit's centre."""
    return table.oriented_square(centre, aim, TEMPLATE)


def drift(centre: table.Point, moved_to: table.Point) -> table.Point:
    """The opponent's move of a missed template: at most 6" (refused beyond)."""
    if table.beyond(table.distance(centre, moved_to), DRIFT):
        raise RuleError(f"A missed template may be moved at most {DRIFT:g}\" ({RULE}).")
    return moved_to


def under(state: SkirmishState, square: table.Polygon) -> list[TeamState]:
    """Teams under the template (any part of the base)."""
    r = state.table.base_radius
    return [t for t in state.teams() if table.point_in_or_on(t.pos, square, r)]


def fire_barrage(
    state: SkirmishState, unit: UnitState, centre: table.Point, aim: table.Point, dice: Dice,
    spotter: TeamState,
) -> list[Event]:
    """Roll the barrage against every team under the template: hits, saves, suppression.
    Each team's To Hit takes its unit's concealment as ``spotter`` (who ranged in) sees it."""
    gunners = barrage_guns(state, unit)
    key = _barrage_weapon(gunners[0], state) or ""
    weapon = state.table.weapon(key)
    fp = barrage_fp(weapon.fp, len(gunners))
    square = template(centre, aim)
    events = []
    hits_by_unit: dict[str, int] = {}
    hit_teams: list[str] = []
    seen = {u.id: observed(state, spotter, u) for u in {t.unit: state.unit_of(t) for t in
                                                         under(state, square)}.values()}
    for team in under(state, square):
        target = state.unit_of(team)
        concealed, gtg = seen[target.id]
        need = tohit.to_hit(target.training, concealed=concealed, gone_to_ground=gtg)
        roll = tohit.roll_to_hit(dice, fp, need.need, f"barrage on {team.id}")
        events.append(Event(kind="barrage", rule=RULE,
                            text=f"Barrage ({len(gunners)} guns, {fp} FP) on {team.id}: "
                                 f"{need.text()} {roll.text()} ({RULE})"))
        hits_by_unit.setdefault(target.id, 0)
        hits_by_unit[target.id] += roll.hits if team.role != "fo" else 0
        if roll.hits:
            hit_teams.append(team.id)
            events += _barrage_saves(state, team, roll.hits, centre, dice, weapon.at)
    for unit_id, hits in hits_by_unit.items():
        hit_unit = state.unit(unit_id)
        count = suppression.markers_for_hits(hits) + (1 if len(gunners) > 1 else 0)
        placed = suppression.place_markers(hit_unit, count, hit_teams,
                                           suppression.protected_of(state.policies, hit_unit.side))
        event = suppression.suppression_event(hit_unit, placed, f"{hits} FP hit + 1 artillery")
        if event:
            events.append(event)
    for gun in gunners:
        gun.fired = gun.fired_initiative = True
    return events


def _barrage_saves(
    state: SkirmishState, team: TeamState, hits: int, centre: table.Point, dice: Dice, at: bool
) -> list[Event]:
    unit = state.unit_of(team)
    if team.armoured:
        if not at:
            return [Event(kind="save", rule="Armor Saves",
                          text=f"{team.id} is armoured: the barrage cannot harm it (Armor Saves)")]
        out = []
        for _ in range(hits):
            hit = saves.armour_hit(dice, team, centre, state.table.base_radius)
            if hit.result == "destroyed":
                suppression.remove_team(unit, team)
            elif hit.result == "suppressed":
                team.suppression += 1
            out.append(Event(kind="armour", rule="Armor Saves", text=f"{team.id}: {hit.text()}"))
            if not team.alive:
                break
        return out
    need = saves.save_number(team, terrain.team_cover(state, team, centre)) or 7
    roll = saves.roll_saves(dice, team.id, hits, need, unit.running)
    text = roll.text()
    if roll.failed:
        suppression.remove_team(unit, team)
        text += f": {team.id} is removed"
    return [Event(kind="save", rule="Saves", text=f"{text} (Saves)")]


def lay_smoke(state: SkirmishState, unit: UnitState, centre: table.Point, aim: table.Point) -> Event:
    """Put a 6"x6" smoke area on the table until the end of the turn (Smoke)."""
    if len(barrage_guns(state, unit)) < 2:
        raise RuleError("Only artillery units with at least two guns may fire smoke (Smoke).")
    square = template(centre, aim)
    state.smoke.append(Smoke(corners=list(square.points), turn=state.turn, unit=unit.id))
    for gun in barrage_guns(state, unit):
        gun.fired = gun.fired_initiative = True
    return Event(kind="smoke", rule="Smoke",
                 text=f"{unit.id} lays smoke at {centre[0]:.0f},{centre[1]:.0f}: 6\"x6\", blocks "
                      f"line of sight until the end of the turn (Smoke)")


def enemy_teams(state: SkirmishState, side: str) -> list[TeamState]:
    """Teams a side's barrage may range in on."""
    return state.teams(other(side))
