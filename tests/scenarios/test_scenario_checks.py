"""Cross-field checks of each system (issue 27, point 2): each error says where (field path
and line) and what is allowed."""

from __future__ import annotations

import pytest

from rules.core import scenariofile as sf
from rules.core.registry import get
from tests.scenarios.helpers import as_json, as_yaml, data


def problems(system: str, value: dict, writer=as_json) -> list[sf.Problem]:
    with pytest.raises(sf.ScenarioError) as caught:
        get(system).scenario_from_file(writer(value))
    return caught.value.problems


def the(found: list[sf.Problem], path: str) -> sf.Problem:
    for problem in found:
        if problem.path == path:
            return problem
    raise AssertionError(f"no problem at {path}: {[p.text() for p in found]}")


def test_mak_a_hex_that_is_not_on_the_board_is_named_with_its_board() -> None:
    value = data("mak")
    value["points"] = [{"kind": "hold", "hex": "5:2099", "side": "merc", "points": 2}]
    found = the(problems("mak", value, as_yaml), "points[0].hex")
    assert found.message.startswith("5:2099 is not a hex of board 5")
    assert found.line is not None


def test_mak_a_unit_set_up_on_terrain_it_cannot_enter_7_1_8() -> None:
    # 7.1.8: "W and C type units cannot enter a river or water hex": an A.F.S. (W) set up
    # in board 6's river is refused; an Inf.SQ (I) may stand there.
    value = data("mak", "ridge")
    value["sides"][0]["forces"][0]["deploy"] = "⑥1115"
    value["sides"][0]["forces"][2]["deploy"] = "⑥1116"
    found = problems("mak", value)
    assert "water" in the(found, "sides[0].forces[0].deploy").message
    assert "7.1.8" in the(found, "sides[0].forces[0].deploy").message
    assert not [p for p in found if p.path == "sides[0].forces[2].deploy"]


def test_mak_an_entry_zone_off_its_edge_and_a_missing_unit_type() -> None:
    value = data("mak")
    value["sides"][0]["forces"][0]["deploy"] = "1⑤N▷1830"
    value["sides"][1]["forces"][1]["unit"] = "Gustavo"
    found = problems("mak", value)
    assert "not on the north edge" in the(found, "sides[0].forces[0].deploy").message
    assert "'Gustavo' is not a unit type" in the(found, "sides[1].forces[1].unit").message


def test_mak_a_board_in_play_twice_or_unknown() -> None:
    value = data("mak")
    value["boards"] = [5, 5, 9]
    found = problems("mak", value)
    assert "there is no board 9" in the(found, "boards[2]").message
    assert "used twice" in the(found, "boards[1]").message


def test_rr_duplicate_unit_ids_are_refused_at_the_second() -> None:
    value = data("rr")
    value["units"][5]["id"] = value["units"][2]["id"]
    found = the(problems("rr", value), "units[5].id")
    assert "used twice" in found.message and "units[2].id" in found.message


def test_rr_an_area_touching_no_other_is_not_connected_7_2() -> None:
    value = data("rr")
    value["width"] += 100
    value["areas"].append({"id": "99", "terrain": "clear", "tm": 0, "centre": [value["width"] - 10, 10],
                           "polygon": [[value["width"] - 20, 0], [value["width"], 0],
                                       [value["width"], 20], [value["width"] - 20, 20]]})
    assert "touches no other area" in the(problems("rr", value), "areas[30].polygon").message


def test_rr_reinforcements_enter_from_an_area_on_the_maps_edge_11_0() -> None:
    value = data("rr")
    entering = next(i for i, d in enumerate(value["deployments"]) if d["mode"] == "enter")
    value["deployments"][entering]["areas"] = ["19"]  # the main objective, in the middle
    found = the(problems("rr", value), f"deployments[{entering}].areas[0]")
    assert "does not reach the map's edge; areas on the edge: 1, " in found.message


def test_rr_victory_areas_and_deployed_units_must_exist() -> None:
    value = data("rr")
    value["secondary_objectives"] = ["26", "77"]
    value["deployments"][0]["units"].append("M1-9")
    found = problems("rr", value)
    assert "'77' is not an area" in the(found, "secondary_objectives[1]").message
    assert "'M1-9' is not a unit" in the(found, "deployments[0].units[3]").message


def test_commando_a_unit_set_up_in_the_water_and_a_side_without_units() -> None:
    value = data("commando", "st_nazaire")
    water = next(t for t in value["terrain"] if t["kind"] == "water")
    german = next(i for i, u in enumerate(value["units"]) if u["side"] == "germans")
    xs, ys = zip(*water["polygon"])
    value["units"][german].update(x=sum(xs) / len(xs), y=sum(ys) / len(ys))
    found = problems("commando", value)
    assert f"{value['units'][german]['id']} starts inside {water['id']}" in found[0].message
    value = data("commando", "st_nazaire")
    value["units"] = [u for u in value["units"] if u["side"] == "germans"]
    assert "the commandos have no unit" in the(problems("commando", value), "units").message


def test_commando_a_vehicle_set_up_inside_a_building() -> None:
    """Movement: only men on foot move in built-up areas ("Commando units and German infantry
    units ... no deductions for moving in built up areas"): an armoured car in the hut is
    refused at its x; an infantry unit there is good."""
    value = data("commando")
    car = next(i for i, u in enumerate(value["units"]) if u["kind"] == "armoured_car")
    value["units"][car].update(x=22, y=22)
    found = the(problems("commando", value), f"units[{car}].x")
    assert found.message.startswith("AC1 starts inside hut, building (terrain[0])")
    assert "nor a vehicle in a building" in found.message
    value["units"][car].update(kind="infantry")
    get("commando").scenario_from_file(as_json(value))


def test_skirmish_duplicate_team_ids_and_an_unused_weapon() -> None:
    value = data("skirmish")
    value["weapons"]["zz_typo"] = {"name": "Typo", "range": 10, "fp": 1}
    found = the(problems("skirmish", value), "weapons.zz_typo")
    assert "no team carries" in found.message


def test_raiders_a_space_no_route_reaches_is_refused() -> None:
    value = data("raiders")
    space = dict(value["spaces"][-1])
    space.update(id="island", name="Island", staging=False)
    value["spaces"].append(space)
    found = the(problems("raiders", value), f"spaces[{len(value['spaces']) - 1}]")
    assert "cannot be reached" in found.message


def test_raiders_duplicate_ops_cards() -> None:
    value = data("raiders")
    value["ops_cards"].append(value["ops_cards"][0])
    index = len(value["ops_cards"]) - 1
    assert "used twice" in the(problems("raiders", value), f"ops_cards[{index}].id").message


# -- every cross-field error names its field path and line, and what is allowed -----------------


def _off_table_unit(value: dict) -> str:
    value["units"][3]["x"] = 999
    return "units[3].x"


def _unknown_objective(value: dict) -> str:
    value["victory"]["objective"] = "nowhere"
    return "victory.objective"


def _unknown_weapon(value: dict) -> str:
    value["units"][1]["teams"][1]["weapons"] = ["raygun"]
    return "units[1].teams[1].weapons[0]"


def _unknown_terrain(value: dict) -> str:
    value["spaces"][2]["terrain"] = "lava"
    return "spaces[2].terrain"


def _route_to_nowhere(value: dict) -> str:
    value["routes"][1]["b"] = "atlantis"
    return "routes[1].b"


def _mission_on_an_unknown_space(value: dict) -> str:
    value["missions"][0]["spaces"][0] = "atlantis"
    return "missions[0].spaces[0]"


@pytest.mark.parametrize(("system", "break_it", "allowed"), [
    ("commando", _off_table_unit, "the table is 0-48 by 0-36 inches"),
    ("skirmish", _unknown_objective, "points: crossroads, gap"),
    ("skirmish", _unknown_weapon, "weapons: "),
    ("raiders", _unknown_terrain, "terrain: desert, wadi"),
    ("raiders", _route_to_nowhere, "spaces: "),
    ("raiders", _mission_on_an_unknown_space, "spaces: "),
])
def test_a_cross_field_error_names_its_field_path_line_and_what_is_allowed(system, break_it, allowed) -> None:
    value = data(system)
    path = break_it(value)
    found = the(problems(system, value, as_yaml), path)
    assert found.line is not None and found.line > 2
    assert found.text().startswith(f"{path} (line {found.line}): ")
    assert allowed in found.message


def test_a_raiders_camp_in_a_staging_area_is_located_and_names_the_staging_areas() -> None:
    value = data("raiders")
    staging = next(s["id"] for s in value["spaces"] if s.get("staging"))
    value["missions"][0]["camps"] = [{"space": staging, "hostiles": 1}]
    found = the(problems("raiders", value), "missions[0].camps[0].space")
    assert "outside the Staging Areas" in found.message and staging in found.message


def test_allowed_values_are_cut_to_a_readable_length() -> None:
    assert sf.one_of(["a", "b"]) == "a, b"
    assert sf.one_of(map(str, range(40)), limit=3) == "0, 1, 2, … (40 in all)"
    assert sf.one_of([]) == "none"


def test_a_model_loaded_outside_a_file_check_still_refuses_with_the_path() -> None:
    from pydantic import ValidationError

    from rules.skirmish.scenario import Scenario

    value = data("skirmish")
    value["victory"]["objective"] = "nowhere"
    with pytest.raises(ValidationError, match=r"victory\.objective: 'nowhere' is not a named point"):
        Scenario.model_validate(value)


# -- a custom Raiders theatre speaks of its own names ---------------------------------------------


def _coast_raid():
    from pathlib import Path

    from rules.core.dice import SeededDice

    system = get("raiders")
    club = Path(__file__).resolve().parents[2] / "docs" / "scenarios" / "club" / "raiders-coast-raid.yaml"
    checked = system.scenario_from_file(club.read_bytes())
    return system, system.setup(checked.key, None, SeededDice(b"coast")).state


@pytest.mark.parametrize("order", ["unit", "gear", "card"])
def test_a_custom_raiders_theatre_quotes_its_own_names_not_the_desert(order: str) -> None:
    from rules.core.errors import RuleError
    from rules.raiders import actions as A
    from rules.raiders.forces import gear, unit

    system, state = _coast_raid()
    with pytest.raises(RuleError) as caught:
        if order == "unit":
            unit(state.mission, "zz")
        elif order == "gear":
            gear(state.mission, "zz")
        else:
            system.apply(state, "raiders", A.CardInfo(id="zz"), None)
    text = str(caught.value)
    for desert in ("SAS", "Cdo-1 or", "Sup-1 or", "C3"):
        assert desert not in text, text
    own = {"unit": "Cdo-1, Cdo-2", "gear": "Sup-1", "card": "K1, K2"}[order]
    assert own in text, text


def test_a_card_id_is_found_in_any_case_on_a_custom_theatre() -> None:
    from rules.raiders import actions as A

    system, state = _coast_raid()
    step = system.apply(state, "raiders", A.CardInfo(id="k1"), None)
    assert any("K1" in getattr(e, "text", "") for e in step.events)


def test_raiders_order_help_names_no_desert_unit_gear_or_card() -> None:
    from rules.raiders import actions as A

    words = " ".join(str(f.description) for cls in vars(A).values()
                     if isinstance(cls, type) and issubclass(cls, A.Action)
                     for f in cls.model_fields.values())
    for desert in ("commando, sas", "vickers", "Sup-1", "Exp-2", "SAS-1", "C3 or M2", "+2"):
        assert desert not in words


# -- Maschinen Krieger: entry on a map edge, types in the schema -----------------------------------


@pytest.mark.parametrize(("force", "code", "board", "edge"), [(0, "1⑤E▽2012", 5, "east"),
                                                             (1, "1⑥W▽0110", 6, "west")])
def test_mak_an_entry_zone_on_an_inner_board_edge_is_refused_12_1(force, code, board, edge) -> None:
    value = data("mak", "ridge")  # boards 5 and 6, laid west to east
    side = 0 if force == 0 else 1
    value["sides"][side]["forces"][0]["deploy"] = code
    found = the(problems("mak", value, as_yaml), f"sides[{side}].forces[0].deploy")
    assert found.line is not None
    assert f"board {board}'s {edge} edge touches board" in found.message and "(12.1)" in found.message
    assert "board 5's west edge or board 6's east edge" in found.message


def test_mak_entry_zones_on_the_map_edges_pass() -> None:
    value = data("mak", "ridge")
    value["sides"][0]["forces"][0]["deploy"] = "1⑤W▽0112"
    value["sides"][1]["forces"][0]["deploy"] = "1⑥E▽2010"
    get("mak").scenario_from_file(as_json(value))


def test_mak_an_entry_hex_off_its_edge_names_the_edges_hexes() -> None:
    value = data("mak")
    value["sides"][0]["forces"][0]["deploy"] = "1⑤N▷1830"
    found = the(problems("mak", value), "sides[0].forces[0].deploy")
    assert "(north edge: 0101-2001)" in found.message


def test_mak_an_unknown_unit_type_lists_every_type() -> None:
    from rules.mak.data import units

    value = data("mak")
    value["sides"][1]["forces"][0]["unit"] = "Gustavo"
    found = the(problems("mak", value), "sides[1].forces[0].unit")
    assert all(t in found.message for t in units()) and "…" not in found.message


def test_the_mak_schema_offers_the_unit_types_and_boards_for_an_editor() -> None:
    from bot.scenariocli import schema
    from rules.mak.data import boards, units
    from rules.mak.scenario import describe

    out = schema(get("mak"))
    force = out["$defs"]["Deployment"]["properties"]
    assert force["unit"]["enum"] == sorted(units())
    assert force["unit"]["enumDescriptions"][force["unit"]["enum"].index("AFS")] == describe(units()["AFS"])
    assert "4 MP (walks)" in describe(units()["AFS"])
    assert set(force["rider"]["anyOf"][0]["enum"]) == set(units())
    assert "Sph69p" in force["aboard"]["enum"] and "AFS" not in force["aboard"]["enum"]
    assert out["properties"]["boards"]["items"]["enum"] == sorted(boards())


def test_mak_a_side_given_twice_is_located_at_its_key() -> None:
    value = data("mak")
    value["sides"][1]["key"] = "merc"
    found = problems("mak", value, as_yaml)
    assert "given twice" in the(found, "sides[1].key").message
    assert "strahl missing" in the(found, "sides").message


def test_mak_artillery_notation_is_read_at_the_check_17_0() -> None:
    value = data("mak")
    value["sides"][0]["artillery"] = ["Type II … ⑤W−80×5 (2)", "T"]
    found = the(problems("mak", value), "sides[0].artillery[1]")
    assert "is not artillery notation such as Type II" in found.message


def test_mak_riders_without_room_aboard_are_named_at_aboard_13_1_5() -> None:
    value = data("mak")
    value["sides"][0]["forces"] = [
        {"unit": "Truck", "count": 1, "deploy": "⑤0606"},
        {"unit": "InfSQ", "count": 2, "deploy": "⑤0606", "aboard": "Truck"},
    ]
    found = the(problems("mak", value), "sides[0].forces[1].aboard")
    assert "only 1 find room in the side's 1 Truck (2 points each, 13.1.5)" in found.message
    value["sides"][0]["forces"][1]["unit"] = "DollHouse"
    found = the(problems("mak", value), "sides[0].forces[1].aboard")
    assert "Only Type I, infantry and pilot units are transported" in found.message
