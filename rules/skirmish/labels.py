"""Autocomplete labels: what a player needs to choose (check needed, range and To Hit, how far
a move goes), at most 100 characters, readable at 40 columns."""

from __future__ import annotations

from typing import Any

from rules.core import table
from rules.core.errors import RuleError
from rules.skirmish import facing, fire, places, play, prompts, volleys
from rules.skirmish.state import SkirmishState
from rules.skirmish.training import CHECK, TO_HIT


def label(state: SkirmishState, side: str, action: str, field: str, value: str,
          partial: dict[str, Any]) -> str:
    """The label of ``value`` for ``field`` of ``action``; the value itself when unknown."""
    try:
        if action == "activate" and field == "unit":
            return _unit(state, value)
        if action in ("fire", "assault") and field == "target":
            return _target(state, value)
        if action == "move" and field == "to":
            return _move(state, partial, value)
        if action == "decide" and field == "teams" and state.pending and state.pending.volley:
            shown = volleys.allocation_choices(state, state.pending.volley).get(value, "")
            return f"{value} first: hits {shown}"
        if action == "decide" and field == "teams" and state.pending and state.pending.kind == "reroll":
            return _reroll(state, value)
        if action == "decide" and field == "teams":
            return _losses(state, value)
        if action == "barrage" and field == "target":
            team = state.team(value)
            return f"{value} ({state.unit_of(team).id}, range in on {TO_HIT[state.unit_of(team).training]}+)"
    except (RuleError, ValueError, KeyError):
        return value
    return value


def _unit(state: SkirmishState, value: str) -> str:
    unit = state.unit(value)
    need = CHECK[unit.training] + unit.markers
    extra = f" +{unit.markers} supp" if unit.markers else ""
    return f"{unit.id}: {unit.name}, {prompts.counted(len(unit.alive_teams), 'team')}, check {need}+{extra}"


def _target(state: SkirmishState, value: str) -> str:
    enemy = state.unit(value)
    active = state.unit(state.active or "")
    lines = [
        line for t in active.alive_teams for w in t.weapons
        if isinstance(line := fire.shot_line(state, t, enemy, w), fire.ShotLine)
    ]
    shooters = len({line.shooter for line in lines})
    near = min((line.distance for line in lines), default=0.0)
    return (f"{enemy.id}: {enemy.name}, {prompts.counted(shooters, 'team')} can fire, nearest {near:.1f}\", "
            f"To Hit {TO_HIT[enemy.training]}+ before modifiers")


def _move(state: SkirmishState, partial: dict[str, Any], value: str) -> str:
    """Where a move goes in words (``6.0" N towards g1``), the move left, a warning when
    the facing it ends with leaves a gun or tank unable to fire (unless the order turns it
    itself, face: or turret:), then the place as typed."""
    who = str(partial.get("who") or "")
    turned = bool(partial.get("face") or partial.get("turret"))
    unit = state.unit(state.active or "")
    whole = not who or who.casefold() == unit.id.casefold()
    team = (unit.pl or unit.alive_teams[0]) if whole else state.team(who)
    point = places.place_of(state, value, team.pos)
    span = table.distance(team.pos, point)
    words = places.where_to(state, team, point) if span > 0.05 else "turn on the spot"
    warning = not turned and facing.arc_warning(state, facing.after_move(team, point), planned=True)
    tail = "; cannot fire after" if warning else ""
    return (f"{table.inches(span)} {words} · {play.budget(unit, team):.1f}\" left"
            f"{tail} · {value}")


def _reroll(state: SkirmishState, value: str) -> str:
    """A team of a fight whose failed check the CC may let it reroll, and its need."""
    unit = state.unit_of(state.team(value))
    return f"{value} rerolls its failed check ({CHECK[unit.training]}+), your CC's reroll"


ROLE_NAMES = {"pl": "PL", "cc": "CC", "fo": "FO", "team": ""}


def _losses(state: SkirmishState, value: str) -> str:
    parts = []
    for team_id in value.split():
        team = state.team(team_id)
        role = ROLE_NAMES[team.role]
        parts.append(f"{team.id} ({team.kind}{' ' + role if role else ''})")
    return "lose " + ", ".join(parts)
