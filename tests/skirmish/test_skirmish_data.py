"""The authored 1944 scenario validates, and bad data is refused (Units; data stand-ins)."""

import json
from importlib import resources

import pytest
from pydantic import ValidationError

from rules.skirmish.scenario import Scenario, load_scenario


def _raw() -> dict:
    path = resources.files("rules.skirmish").joinpath("data/hedgerow_village.json")
    return json.loads(path.read_text("utf-8"))


def test_scenario_loads_with_both_companies():
    scenario = load_scenario("hedgerow_village")
    sides = {u.side for u in scenario.units}
    assert sides == {"us", "germans"}
    assert scenario.width == scenario.height == 48
    # every company has exactly one Company Commander (Leaders)
    for side in sides:
        ccs = [t for u in scenario.units if u.side == side for t in u.teams if t.role == "cc"]
        assert len(ccs) == 1


def test_every_printed_value_is_marked_stand_in():
    raw = _raw()
    assert all(w["stand_in"] for w in raw["weapons"].values())
    assert all(t["stand_in"] for t in raw["terrain"])
    assert all(t["stand_in"] for u in raw["units"] for t in u["teams"])


def test_unknown_weapon_is_refused():
    raw = _raw()
    raw["units"][1]["teams"][1]["weapons"] = ["raygun"]
    with pytest.raises(ValidationError, match="is not a key of weapons"):
        Scenario.model_validate(raw)


def test_unit_without_leader_is_refused():
    raw = _raw()
    raw["units"][1]["teams"][0]["role"] = "team"
    with pytest.raises(ValidationError, match="exactly one PL"):
        Scenario.model_validate(raw)


def test_armoured_needs_a_tank_with_armour():
    raw = _raw()
    raw["units"][1]["teams"][1]["armoured"] = True
    with pytest.raises(ValidationError, match="armoured"):
        Scenario.model_validate(raw)
