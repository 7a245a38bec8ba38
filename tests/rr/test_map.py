"""The Tannenbruck scenario file: the map is sound and puts the areas where the text does.

The text (11.0 setup and reinforcements, 12.0 victory, 7.3.6 cadres) names areas but prints no
map; ``rules/rr/data/tannenbruck.json`` is our stand-in map.  These tests hold it to every
number the text gives and to the shape of a proper map: every area reachable, no gaps or
overlaps, each area wholly on one bank of the river.
"""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from rules.core.areas import distance_to_outline, signed_area
from rules.core.table import Polygon, cross, point_in_polygon, sub
from rules.rr.data import make_tannenbruck
from rules.rr.scenario import Scenario, load_scenario

DATA = Path(make_tannenbruck.__file__).with_name("tannenbruck.json")
IDS = [str(n) for n in range(1, 31)]


@pytest.fixture(scope="module")
def scenario() -> Scenario:
    """The scenario as the engine loads it."""
    return load_scenario("tannenbruck")


def crosses(a: tuple[float, float], b: tuple[float, float],
            c: tuple[float, float], d: tuple[float, float]) -> bool:
    """Whether segments a-b and c-d cross at a point inside both (touching ends do not)."""
    d1, d2 = cross(sub(b, a), sub(c, a)), cross(sub(b, a), sub(d, a))
    d3, d4 = cross(sub(d, c), sub(a, c)), cross(sub(d, c), sub(b, c))
    return d1 * d2 < -1e-6 and d3 * d4 < -1e-6


def edges(points: list[tuple[float, float]]) -> list[tuple[tuple[float, float], ...]]:
    """The sides of a closed ring."""
    return [(points[i], points[(i + 1) % len(points)]) for i in range(len(points))]


def on_edge(point: tuple[float, float], width: float, height: float) -> set[str]:
    """Which edges of the map a point lies on."""
    x, y = point
    return {name for name, d in (("west", x), ("north", y), ("east", width - x),
                                 ("south", height - y)) if abs(d) < 0.5}


def map_edges(scenario: Scenario, area: str) -> set[str]:
    """The map edges an area touches (an entrance area must touch one)."""
    found: set[str] = set()
    for p in scenario.area_by_id[area].polygon:
        found |= on_edge(p, scenario.width, scenario.height)
    return found


def east_of_river(scenario: Scenario, point: tuple[float, float]) -> bool:
    """Ray-cast west from a point: an odd number of river crossings means the east bank."""
    far = (-1.0, point[1] + 0.123)  # a hair off the horizontal: never through a river corner
    river = [tuple(p) for p in scenario.rivers[0]]
    return sum(crosses(point, far, a, b) for a, b in zip(river, river[1:])) % 2 == 1


# -- the file ----------------------------------------------------------------------------------


def test_the_file_validates_and_round_trips(scenario: Scenario) -> None:
    assert scenario.key == "tannenbruck" and scenario.turns == 7  # 11.0: seven turns
    again = Scenario.model_validate_json(scenario.model_dump_json())
    assert again.model_dump() == scenario.model_dump()
    assert scenario.stand_ins


def test_the_geometry_in_the_file_is_what_the_script_builds() -> None:
    """Outlines, dots, river and bridges are generated: the JSON must match the script."""
    data = json.loads(DATA.read_text("utf-8"))
    built = make_tannenbruck.geometry()
    assert (data["width"], data["height"]) == (built["width"], built["height"])
    assert data["rivers"] == built["rivers"] and data["bridges"] == built["bridges"]
    for area in data["areas"]:
        assert {k: area[k] for k in ("polygon", "centre", "east_of_river")} == \
            built["areas"][area["id"]], f"area {area['id']}: run make_tannenbruck"


# -- the map is a map --------------------------------------------------------------------------


def test_areas_1_to_30_all_there_and_all_reachable(scenario: Scenario) -> None:
    assert [a.id for a in scenario.areas] == IDS
    graph = scenario.graph
    assert graph.within("1", 30) == set(IDS)
    assert scenario.graph is graph  # built once


def test_every_centre_dot_is_well_inside_its_area(scenario: Scenario) -> None:
    """7.3.2: the dot must be visible inside the area (15 map units from any border)."""
    for area in scenario.areas:
        polygon = Polygon.of(area.polygon)
        assert point_in_polygon(area.centre, polygon), area.id
        assert distance_to_outline(area.centre, polygon) > 15, area.id


def test_the_dots_are_not_all_in_the_middle(scenario: Scenario) -> None:
    """7.3.2 note: some centre dots are not in the precise centre of their area."""
    off = [a.id for a in scenario.areas
           if max(abs(a - b) for a, b in zip(Polygon.of(a.polygon).centroid(), a.centre)) > 20]
    assert len(off) >= 5


def test_outlines_are_simple_inside_the_map_and_cover_it_without_overlap(
    scenario: Scenario,
) -> None:
    total = 0.0
    for area in scenario.areas:
        ring = [tuple(p) for p in area.polygon]
        assert all(0 <= x <= scenario.width and 0 <= y <= scenario.height for x, y in ring)
        sides = edges(ring)
        for (a, b), (c, d) in itertools.combinations(sides, 2):
            assert not crosses(a, b, c, d), f"area {area.id} crosses itself"
        total += abs(signed_area(ring))
    for first, second in itertools.combinations(scenario.areas, 2):
        for (a, b) in edges([tuple(p) for p in first.polygon]):
            for (c, d) in edges([tuple(p) for p in second.polygon]):
                assert not crosses(a, b, c, d), f"areas {first.id} and {second.id} overlap"
    # No side crosses another and the areas add up to the whole map: no gaps, no overlaps.
    assert total == pytest.approx(scenario.width * scenario.height, rel=1e-6)


def test_neighbours_share_exact_corners(scenario: Scenario) -> None:
    """A clean subdivision: adjacent areas have at least one corner in common, exactly."""
    corners = {a.id: {tuple(p) for p in a.polygon} for a in scenario.areas}
    for area in IDS:
        for other in scenario.graph.adjacent(area):
            assert corners[area] & corners[other], (area, other)


def test_7_2_somewhere_two_areas_touch_at_a_corner_only(scenario: Scenario) -> None:
    """23 and 29 (and 24 and 28) meet at one corner: adjacent all the same (7.2)."""
    corners = {a.id: {tuple(p) for p in a.polygon} for a in scenario.areas}
    for a, b in (("23", "29"), ("24", "28")):
        assert scenario.graph.is_adjacent(a, b)
        assert len(corners[a] & corners[b]) == 1


def test_terrain_modifiers_and_what_blocks_sight(scenario: Scenario) -> None:
    for area in scenario.areas:
        assert -1 <= area.tm <= 2  # 5.2: printed +2 to -1
        # 7.3.2: buildings or trees block line of sight, nothing else does.
        assert area.blocks_los == (area.terrain in ("woods", "city")), area.id
    terrains = {a.terrain for a in scenario.areas}
    assert {"clear", "woods", "city", "fields", "hills"} <= terrains


# -- the river and the city --------------------------------------------------------------------


def test_the_river_runs_from_the_north_edge_to_the_south_edge(scenario: Scenario) -> None:
    assert len(scenario.rivers) == 1
    river = scenario.rivers[0]
    assert "north" in on_edge(river[0], scenario.width, scenario.height)
    assert "south" in on_edge(river[-1], scenario.width, scenario.height)


def test_every_area_lies_wholly_on_its_bank(scenario: Scenario) -> None:
    for area in scenario.areas:
        assert east_of_river(scenario, area.centre) == area.east_of_river, area.id
        ring = Polygon.of(area.polygon)
        for a, b in zip(scenario.rivers[0], scenario.rivers[0][1:]):
            mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
            assert not point_in_polygon(mid, ring) or distance_to_outline(mid, ring) < 0.5


def test_the_bridges_cross_the_river_from_7_and_15(scenario: Scenario) -> None:
    """The paratroopers' drop zone, area 7, is at the road bridge (11.0)."""
    river = scenario.rivers[0]
    ends = []
    for bridge in scenario.bridges:
        a, b = tuple(bridge[0]), tuple(bridge[1])
        assert any(crosses(a, b, tuple(p), tuple(q)) for p, q in zip(river, river[1:]))
        ends.append({scenario.graph.area_at(a), scenario.graph.area_at(b)})
    assert ends == [{"7", "17"}, {"15", "18"}]


def test_tannenbruck_has_city_areas_on_both_banks(scenario: Scenario) -> None:
    """11.0 turn 6: several city areas east of the river; 9.2: the sniper works in the city."""
    assert len(scenario.city_east_areas) >= 3
    assert scenario.city_east_areas == {a.id for a in scenario.areas
                                        if a.city and a.east_of_river}
    assert any(not scenario.area_by_id[a].east_of_river for a in scenario.city_areas)
    assert scenario.area_by_id["19"].city


# -- the areas the text names ------------------------------------------------------------------


def test_11_0_nato_setup_areas_1_to_4_are_on_the_west_edge(scenario: Scenario) -> None:
    for area in "1234":
        assert "west" in map_edges(scenario, area)
        assert not scenario.area_by_id[area].east_of_river


def test_11_0_nato_entrances_9_and_13_are_on_the_north_and_south_edges(
    scenario: Scenario,
) -> None:
    assert "north" in map_edges(scenario, "9")
    assert "south" in map_edges(scenario, "13")
    for area in ("9", "13"):
        assert not scenario.area_by_id[area].east_of_river


def test_11_0_soviet_entrances_27_29_30_are_on_the_east_edge(scenario: Scenario) -> None:
    for area in ("27", "29", "30"):
        assert "east" in map_edges(scenario, area)


def test_11_0_entrances_as_the_map_circles_show_them(scenario: Scenario) -> None:
    assert scenario.entrances == {
        "1": [("nato", 2)], "2": [("nato", 2)],
        "4": [("nato", 3), ("nato", 4)], "9": [("nato", 3), ("nato", 4)],
        "13": [("nato", 3), ("nato", 4)], "3": [("nato", 4)],
        "27": [("soviet", 6)], "29": [("soviet", 6)], "30": [("soviet", 6)],
    }


def test_11_0_soviet_setup_area_7_is_by_the_bridge_and_the_town(scenario: Scenario) -> None:
    assert scenario.soviet_required_area == "7"
    near = scenario.graph.adjacent("7")
    assert {"14", "15", "17"} <= near  # both halves of the town and across the bridge


def test_11_0_the_two_sides_do_not_set_up_next_to_each_other(scenario: Scenario) -> None:
    nato = {"1", "2", "3", "4"}
    soviet = {"7", "10", "14", "15", "16", "28", "19"}
    for area in nato:
        assert not scenario.graph.adjacent(area) & soviet


def test_12_0_area_19_has_a_ring_of_neighbours_in_the_town(scenario: Scenario) -> None:
    ring = scenario.graph.adjacent("19")
    assert scenario.main_objective == "19"
    assert scenario.main_objective_areas == ring | {"19"}
    assert 5 <= len(ring) <= 7
    assert scenario.area_by_id["19"].east_of_river
    assert len(ring & scenario.city_areas) >= 3


def test_12_0_nato_can_reach_the_ring_in_seven_turns(scenario: Scenario) -> None:
    """From each NATO setup area 19 is 4-6 areas away: a 3-AP tank gets there by turn 2."""
    for area in "1234":
        assert 4 <= scenario.graph.distance(area, "19") <= 6
    for area in ("3", "4", "9", "13"):  # US entrances (11.0 turns 3 and 4)
        assert scenario.graph.distance(area, "19") <= 5


def test_12_0_secondary_objectives_lie_east_of_the_main_one(scenario: Scenario) -> None:
    assert scenario.secondary_objectives == ["26", "28", "29", "30"]
    x19 = scenario.area_by_id["19"].centre[0]
    for area in scenario.secondary_objectives:
        assert scenario.area_by_id[area].centre[0] > x19
        assert area not in scenario.main_objective_areas


def test_7_3_6_the_cadre_area_is_29_on_the_east_edge(scenario: Scenario) -> None:
    assert scenario.cadre_area == "29"
    assert "east" in map_edges(scenario, "29")


# -- line of sight on the real map (7.3.2) -----------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "blocked_by"),
    [
        ("7", "19", ("15", "17")),  # from the drop zone, the old town hides the Rathaus
        ("10", "17", ("14",)),  # over the west-bank houses
        ("17", "23", ("20",)),  # through the Stadtpark trees
        ("6", "7", ("10",)),  # adjacent, yet the dots' line clips the Fuchsholz
        ("14", "15", ()),  # across the open bridge meadows
        ("19", "26", ()),  # from the Rathaus over the vineyard to the estate
        ("19", "28", ()),
        ("17", "19", ()),  # next door in town: own areas never block
        ("23", "29", ()),  # the corner-only neighbours
    ],
)
def test_7_3_2_chosen_lines_of_sight(
    scenario: Scenario, a: str, b: str, blocked_by: tuple[str, ...]
) -> None:
    assert scenario.graph.blockers(a, b) == blocked_by
    assert scenario.graph.los(b, a) == (not blocked_by)


# -- the counters of 11.0 ----------------------------------------------------------------------

SOVIET = ["VDV-1", "VDV-2", "VDV-3", "MORT-SU", "BMD", "T12", "AGS", "NIKOLAS", "ASU85",
          "KOVAL", "SPETS", "SAGGER", "KASTET", "HIND"]
GERMAN = ["M48-1", "M48-2", "M48-3", "LUCHS", "INF-DE1", "INF-DE2", "INF-DE3", "HQ", "TERR"]
AMERICAN = ["INF-US1", "INF-US2", "INF-US3", "TOW", "BOYES", "M60-1", "M60-2", "M60-3",
            "MORT-US", "SNIPER"]
#: Counters with one side only: they cannot be attacked (9.2-9.4, 9.7-9.9), the Hind leaves
#: play when reduced (10.2), and the HQ is a headquarters, not a company (our decision).
ONE_STEP = {"SAGGER", "KASTET", "TOW", "NIKOLAS", "BOYES", "KOVAL", "SNIPER", "HIND", "HQ"}
#: 7.3.5 note: an asterisk for ACM: these can neither lead nor support an assault.
NO_ASSAULT = {"MORT-SU", "MORT-US", "T12", "AGS", "NIKOLAS", "BOYES", "KOVAL", "SAGGER",
              "KASTET", "TOW", "SNIPER", "HQ", "HIND"}
VEHICLES = {"BMD", "ASU85", "HIND", "M48-1", "M48-2", "M48-3", "LUCHS", "M60-1", "M60-2",
            "M60-3"}


def test_11_0_every_unit_is_there_once_with_its_side_and_nation(scenario: Scenario) -> None:
    ids = [u.id for u in scenario.units]
    assert len(ids) == len(set(ids))
    assert set(ids) == set(SOVIET) | set(GERMAN) | set(AMERICAN)
    for unit in scenario.units:
        nation = "su" if unit.id in SOVIET else "de" if unit.id in GERMAN else "us"
        assert unit.nation == nation, unit.id
        assert unit.side == ("soviet" if nation == "su" else "nato"), unit.id
        assert unit.stand_in, unit.id  # our values, marked so
        assert unit.id.isupper() and len(unit.id) <= 8  # typed on a phone


def test_one_step_counters_and_two_step_counters(scenario: Scenario) -> None:
    for unit in scenario.units:
        assert (unit.reduced is None) == (unit.id in ONE_STEP), unit.id


def test_7_3_5_who_has_an_asterisk_for_acm(scenario: Scenario) -> None:
    for unit in scenario.units:
        assert (unit.full.acm is None) == (unit.id in NO_ASSAULT), unit.id
        if unit.reduced is not None:
            assert (unit.reduced.acm is None) == (unit.full.acm is None), unit.id


def test_9_5_9_6_vehicles_are_the_tanks_bmd_luchs_and_hind(scenario: Scenario) -> None:
    assert {u.id for u in scenario.units if u.vehicle} == VEHICLES
    assert {u.id for u in scenario.units if u.kind == "tank"} == \
        {"ASU85", "M48-1", "M48-2", "M48-3", "M60-1", "M60-2", "M60-3"}  # 7.3.5.3


def test_5_1_stacking_points(scenario: Scenario) -> None:
    units = scenario.unit_by_id
    for vdv in ("VDV-1", "VDV-2", "VDV-3"):
        assert units[vdv].stacking == 2  # 5.1: "a VDV Para is two stacking points"
    for unit in scenario.units:
        if unit.kind in ("leader", "atgm", "sniper", "hq", "hind"):
            assert unit.stacking == 0, unit.id  # no stacking points shown
        elif "company" in unit.name:
            assert unit.stacking == 2, unit.id
        else:
            assert unit.stacking == 1, unit.id  # platoons, sections, batteries


def test_6_2_1_us_infantry_has_morale_7(scenario: Scenario) -> None:
    """The 6.2.1 example: "A Morale 7 U.S. Infantry unit"."""
    for k in (1, 2, 3):
        assert scenario.unit_by_id[f"INF-US{k}"].full.morale == 7


def test_values_are_in_the_ranges_of_the_counter_mix(scenario: Scenario) -> None:
    for unit in scenario.units:
        for values in filter(None, (unit.full, unit.reduced)):
            assert 0 <= values.rcm <= 3, unit.id
            assert values.acm is None or 0 <= values.acm <= 4, unit.id
            assert 0 <= values.ap <= 4, unit.id
            if unit.kind not in ("leader", "atgm", "sniper"):  # never attacked directly
                assert 4 <= values.df <= 9 and 5 <= values.morale <= 9, unit.id
        if unit.reduced is not None:
            for field in ("rcm", "df", "morale", "ap"):
                assert getattr(unit.reduced, field) <= getattr(unit.full, field), unit.id
            assert unit.reduced != unit.full, unit.id


def test_9_3_9_4_atgms_ride_with_one_company(scenario: Scenario) -> None:
    units = scenario.unit_by_id
    assert units["SAGGER"].attached_to == "VDV-1"
    assert units["TOW"].attached_to == "INF-US1"
    assert units["KASTET"].attached_to == "T12"
    for rider in ("SAGGER", "TOW", "KASTET"):
        assert units[rider].full.rcm == 1  # "increase the RCM by one"
        host = units[units[rider].attached_to]
        assert host.side == units[rider].side
        together = [d for d in scenario.deployments if rider in d.units]
        assert len(together) == 1 and host.id in together[0].units


def test_11_0_setup_and_reinforcements_as_the_text_lists_them(scenario: Scenario) -> None:
    table = sorted(
        (d.turn, d.side, d.mode, tuple(sorted(d.areas, key=int)), tuple(sorted(d.units)))
        for d in scenario.deployments
    )
    east_city = tuple(sorted(scenario.city_east_areas, key=int))
    assert table == sorted([
        (0, "nato", "setup", ("1", "2", "3", "4"), ("LUCHS", "M48-1", "M48-2")),
        (0, "soviet", "setup", ("7", "10", "14", "15", "16", "28"),
         tuple(sorted(["VDV-1", "VDV-2", "VDV-3", "SAGGER", "MORT-SU", "BMD", "T12", "KASTET",
                       "AGS", "NIKOLAS"]))),
        (0, "soviet", "setup", ("19",), ("ASU85",)),
        (2, "nato", "enter", ("1", "2"), ("HQ", "INF-DE1", "INF-DE2", "INF-DE3", "M48-3")),
        (3, "nato", "enter", ("4", "9", "13"), ("BOYES", "INF-US1", "INF-US2", "INF-US3", "TOW")),
        (4, "nato", "enter", ("3", "4", "9", "13"), ("M60-1", "M60-2", "M60-3")),
        (5, "nato", "place_us_only", (), ("MORT-US",)),
        (6, "nato", "city_east", east_city, ("TERR",)),
        (6, "soviet", "enter", ("27", "29", "30"), ("KOVAL", "SPETS")),
    ])


def test_every_counter_is_deployed_once_or_kept_off_the_map(scenario: Scenario) -> None:
    deployed = [u for d in scenario.deployments for u in d.units]
    assert len(deployed) == len(set(deployed))
    assert set(scenario.off_map_units) == {"SNIPER", "HIND"}  # 9.2, 10.2
    assert set(deployed) | set(scenario.off_map_units) == set(scenario.unit_by_id)
    assert not set(deployed) & set(scenario.off_map_units)
    for deployment in scenario.deployments:
        assert set(deployment.areas) <= set(IDS)
        sides = {scenario.unit_by_id[u].side for u in deployment.units}
        assert sides == {deployment.side}


def test_11_0_the_soviet_setup_fits_the_stacking_limit(scenario: Scenario) -> None:
    """Six stacking points per area (5.1): the Soviet setup fits in its six areas, 7 included."""
    setup = next(d for d in scenario.deployments if d.side == "soviet" and "7" in d.areas)
    points = sum(scenario.unit_by_id[u].stacking for u in setup.units)
    assert 1 <= points <= 6 * len(setup.areas)


def test_7_3_1_ranges_and_paths_agree_on_every_pair(scenario: Scenario) -> None:
    """Range is symmetric, a shortest path steps through adjacent areas (7.2) one per hop."""
    graph = scenario.graph
    for a in IDS:
        for b in IDS:
            hops = graph.distance(a, b)
            assert hops == graph.distance(b, a)
            path = graph.path(a, b)
            assert len(path) == hops + 1 and path[0] == a and path[-1] == b
            assert all(graph.is_adjacent(x, y) for x, y in zip(path, path[1:]))
            assert b in graph.within(a, hops)
            assert hops == 0 or b not in graph.within(a, hops - 1)
            assert graph.los(a, b) == graph.los(b, a)
