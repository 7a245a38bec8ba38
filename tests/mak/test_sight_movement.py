"""6.0 Line of sight and elevation; 7.0 Movement; 8.0 Stacking."""

from __future__ import annotations

import pytest

from rules.core.hexes import MapLayout, neighbour, side
from rules.mak.battlefield import Battlefield, battlefield
from rules.mak.data import units
from rules.mak.movement import (
    entry_cost,
    path_to,
    reach,
    stack_allowance,
    stack_points,
    stacking_problem,
)
from rules.mak.sight import can_see


def open_field() -> Battlefield:
    return Battlefield(layout=MapLayout.side_by_side([1]))


def test_6_1_2_obstacles_block_but_not_in_the_end_hexes():
    field = open_field()
    a, mid, b = field.parse("1:0505"), field.parse("1:0506"), field.parse("1:0507")
    assert can_see(field, a, b)
    for terrain in ("forest", "building", "hill"):
        field.terrain[mid] = terrain
        assert not can_see(field, a, b), terrain
    field.terrain.pop(mid)
    field.terrain[a] = field.terrain[b] = "forest"
    assert can_see(field, a, b)  # the viewer's and target's own hexes do not obstruct


def test_6_1_2_smoke_and_fire_block_and_19_4_3_no_sight_out_of_fire():
    field = open_field()
    a, mid, b = field.parse("1:0505"), field.parse("1:0506"), field.parse("1:0507")
    assert not can_see(field, a, b, smoke=frozenset({mid}))
    assert not can_see(field, a, b, fire=frozenset({mid}))
    assert not can_see(field, a, b, fire=frozenset({a}))


def test_6_1_3_ridge_type_i_sees_one_hex_beyond_type_ii_two():
    # Figures 6 and 7: a ridge between 0503 and 0504, the viewer at 0501.
    field = open_field()
    viewer = field.parse("1:0501")
    field.hexsides[side(field.parse("1:0503"), field.parse("1:0504"))] = "ridge"
    first, second, third = (field.parse(f"1:05{r:02d}") for r in (4, 5, 6))
    assert can_see(field, viewer, first, target_class=1)
    assert not can_see(field, viewer, second, target_class=1)
    assert can_see(field, viewer, second, target_class=2)
    assert not can_see(field, viewer, third, target_class=2)
    field.hexsides[side(field.parse("1:0503"), field.parse("1:0504"))] = "wall"
    assert not can_see(field, viewer, second, target_class=1)  # walls the same way


def test_6_1_5_adjacent_always_see_and_6_1_6_units_do_not_block():
    field = open_field()
    a = field.parse("1:0505")
    b = neighbour(a, 2)
    field.terrain[a] = field.terrain[b] = "building"
    field.hexsides[side(a, b)] = "ridge"
    assert can_see(field, a, b)


def test_6_2_2_height_one_blocks_unless_both_ends_are_high():
    field = open_field()
    a, mid, b = field.parse("1:0505"), field.parse("1:0506"), field.parse("1:0507")
    field.elevation[mid] = 1  # high ground (not obstacle terrain)
    assert not can_see(field, a, b)
    field.elevation[a] = field.elevation[b] = 1
    assert can_see(field, a, b)
    field.terrain[mid] = "hill"  # 6.1.2: obstacles block "without regard to elevation level"
    assert not can_see(field, a, b)


def test_6_2_3_high_viewer_sees_over_ridges_not_on_its_own_hexsides():
    field = open_field()
    viewer = field.parse("1:0501")
    far = field.parse("1:0506")
    field.hexsides[side(field.parse("1:0503"), field.parse("1:0504"))] = "ridge"
    assert not can_see(field, viewer, far, target_class=1)
    field.elevation[viewer] = 1
    assert can_see(field, viewer, far, target_class=1)
    # a ridge on the viewer's own hexside: 6.1.3 again
    field.hexsides.clear()
    field.hexsides[side(viewer, field.parse("1:0502"))] = "ridge"
    assert not can_see(field, viewer, far, target_class=1)


def test_6_1_1_line_along_a_hexside_is_blocked_only_if_both_sides_block():
    field = open_field()
    a = field.parse("1:0505")
    b = neighbour(neighbour(a, 1), 2)  # NE then SE: the centre line runs along a hexside
    left, right = neighbour(a, 1), neighbour(a, 2)
    field.terrain[left] = "forest"
    assert can_see(field, a, b)
    field.terrain[right] = "forest"
    assert not can_see(field, a, b)


def test_7_1_3_terrain_costs_and_7_1_8_water():
    field = open_field()
    a, b = field.parse("1:0505"), field.parse("1:0506")
    afs = units()["AFS"]
    assert entry_cost(field, afs, a, b) == 1
    field.terrain[b] = "forest"
    assert entry_cost(field, afs, a, b) == 2
    field.terrain[b] = "water"
    assert entry_cost(field, afs, a, b) is None  # W may not enter water
    assert entry_cost(field, units()["DollHouse"], a, b) is None  # C may not either
    assert entry_cost(field, units()["NutRocker"], a, b) == 1  # hover may


@pytest.mark.parametrize("kind", ["InfSQ", "Truck", "NutRocker", "Sph69p"])
def test_7_1_8_only_w_and_c_units_are_kept_out_of_water(kind: str) -> None:
    # 7.1.8: "W and C type units cannot enter a river or water hex": no other form is
    # barred, so infantry (I) wade, tracks (T) and hover (H) cross, each at the chart's cost
    # within its allowance (7.1.3); infantry move one hex whatever the terrain (14.1).
    field = open_field()
    a, b = field.parse("1:0505"), field.parse("1:0506")
    field.terrain[b] = "water"
    stats = units()[kind]
    cost = entry_cost(field, stats, a, b)
    assert cost is not None and cost <= stats.movement


def test_7_1_5_hover_into_desert_across_a_ridge_is_5():
    field = open_field()
    a, b = field.parse("1:0505"), field.parse("1:0506")
    field.terrain[b] = "desert"
    field.hexsides[side(a, b)] = "ridge"
    assert entry_cost(field, units()["NutRocker"], a, b) == 5


def test_7_1_6_road_only_along_the_road():
    field = open_field()
    a, b, c = field.parse("1:0505"), field.parse("1:0506"), field.parse("1:0507")
    field.terrain[b] = field.terrain[c] = "forest"
    field.roads |= {b, c}
    afs = units()["AFS"]
    assert entry_cost(field, afs, a, b) == 2  # entered from off the road: the forest
    assert entry_cost(field, afs, b, c) == 0.5  # along the road: 1/2 MP


def test_7_1_7_partial_building_type_ii_is_outside():
    field = open_field()
    a, b = field.parse("1:0505"), field.parse("1:0506")
    field.terrain[b] = "building"
    field.partial.add(b)
    assert entry_cost(field, units()["AFS"], a, b) == 2
    assert entry_cost(field, units()["InfSQ"], a, b) == 1


def test_7_1_2_reach_spends_at_most_the_allowance_and_7_2_3_avoids_enemies():
    field = open_field()
    start = field.parse("1:0510")
    afs = units()["AFS"]
    found = reach(field, afs, start, afs.movement)
    assert all(way.cost <= 4 for way in found.values())
    far = field.parse("1:0514")
    assert found[far][0] == 4 and len(path_to(found, far)) == 5
    blocked = reach(field, afs, start, 4, closed=[field.parse("1:0511")])
    assert field.parse("1:0511") not in blocked


def test_14_1_infantry_moves_one_hex():
    field = battlefield((5,))
    start = field.parse("5:0505")  # forest all round: the squad still moves one hex
    inf = units()["InfSQ"]
    found = reach(field, inf, start, inf.movement)
    assert len(found) == 7


def test_7_2_6_stack_moves_at_the_lowest_allowance():
    assert stack_allowance([units()["SAFS"], units()["AFS"]]) == 4


def test_8_1_stack_points_and_8_2_limit():
    afs, inf, spotter = units()["AFS"], units()["InfSQ"], units()["NeuSpotter"]
    assert stack_points([afs, afs, inf]) == 4  # Figure 9: 1 + 1 + 2
    assert stacking_problem([afs, afs, inf]) is None
    assert "over the limit" in (stacking_problem([afs, inf, inf]) or "")
    assert "NeuSpotter" in (stacking_problem([spotter, spotter]) or "")
    assert stacking_problem([spotter, spotter, inf]) is None  # 8.2.3 with a Type II unit
