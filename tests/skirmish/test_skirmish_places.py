"""Places by name and moves told in words (Moving; Cover & Terrain; issue 40)."""

from __future__ import annotations

import pytest

from rules.core import table
from rules.core.errors import RuleError
from rules.skirmish import facing, places
from rules.skirmish.labels import label
from tests.skirmish.helpers import fresh, park, put
from tests.skirmish.test_skirmish_playtest import go, hedgerow, quiet_germans, texts


def _piece(state, kind):
    return next(p for p in state.table.terrain if p.kind == kind)


def test_a_terrain_name_is_a_place_inside_the_area():
    # Moving: "Infantry teams move through terrain and obstacles freely": "to:<wood>" sends
    # the team wholly inside the piece, at its nearest edge.
    state = hedgerow()
    wood = _piece(state, "area")
    team = state.teams("us")[0]
    end = places.place_of(state, wood.name.upper(), team.pos)
    assert table.point_in_polygon(end, wood.polygon)
    assert table.distance_to_shape(end, wood.polygon) == 0.0
    assert places.place_of(state, wood.id, team.pos) == end


def test_a_hedge_by_name_is_up_to_it_on_this_side():
    state = hedgerow()
    hedge = _piece(state, "linear")
    team = state.teams("us")[0]
    end = places.place_of(state, hedge.name, team.pos)
    gap = min(table.distance_to_segment(end, a, b) for a, b in hedge.segments)
    assert gap == pytest.approx(state.table.base_radius, abs=0.01) or end == team.pos


def test_an_unknown_place_lists_the_terrain_names():
    state = hedgerow()
    with pytest.raises(RuleError, match="Terrain by name: "):
        places.place_of(state, "copse", (10, 10))


def test_a_move_label_says_where_in_words():
    # Issue 40: "suggested moves are bare coordinates": the label says how far, which way
    # and towards what.
    state = fresh()
    park(state)
    state.active = "1pl"
    put(state, "lt", 20, 30)
    put(state, "g1", 20, 18)
    shown = label(state, "us", "move", "to", "20,24", {"who": "lt"})
    assert shown.startswith('6.0" N towards g1')
    assert shown.endswith("20,24")


def test_a_tank_turned_away_from_every_target_is_warned():
    # Firing: "Guns and Tanks may only fire at targets within their forward 180 degree arc";
    # a move turns the tank the way it went (Moving): the label and the reply warn.
    state = quiet_germans(hedgerow())
    state, _ = go(state, "us", "activate", [5], unit="tank")
    state, _ = go(state, "us", "action", kind="move-and-fire")
    tank = state.team("sherman")
    enemy = min(state.teams("germans"), key=lambda e: table.distance(tank.pos, e.pos))
    away = table.angle_of(table.sub(tank.pos, enemy.pos))
    end = table.add(tank.pos, table.scale(table.unit_vector(away), 3))
    to = f"{end[0]:.1f},{end[1]:.1f}"
    moved = facing.after_move(tank, (float(to.split(',')[0]), float(to.split(',')[1])))
    warned = facing.arc_warning(state, moved, planned=True)
    shown = label(state, "us", "move", "to", to, {"who": "sherman"})
    assert warned is not None
    assert "cannot fire after" in shown
    _, step = go(state, "us", "move", who="sherman", to=to)
    assert "out of its forward arc, so it cannot fire" in texts(step.events)


def test_no_assault_action_offered_when_nobody_can_reach_contact():
    # Assaults: "at least one Team must make contact in order for the assault to continue"
    from rules.skirmish.play import choose_offers
    state = fresh()
    park(state)
    state.active, state.check_passed = "1pl", True
    kinds = {o.kind for o in choose_offers(state, "us")}
    assert "assault" not in kinds and "move" in kinds
    put(state, "g1", 5, 40)  # within a charge of the parked Americans
    assert "assault" in {o.kind for o in choose_offers(state, "us")}
