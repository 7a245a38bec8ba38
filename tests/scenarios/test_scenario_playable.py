"""The playability proof (issue 46): a file that passes every field and cross-field check is
still refused when it can never be played: random legal set-ups that never reach turn one,
with the order the rules refuse for ever and their own sentence."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.cli import main
from rules.core import playable, scenariofile as sf
from rules.core.registry import get, load_all

#: A Raid and Riposte file whose only Soviet unit able to stand in the required area (11.0)
#: is a leader, who may not set up alone (9.7-9.9): every field and cross-field check
#: passes, yet the Soviets can never finish their set-up.
STUCK = """system: rr
key: stuck
title: A leader alone in the required area
turns: 3
width: 300
height: 100
stand_ins: Every value is ours.
areas:
  - {id: "1", terrain: fields, tm: 0, centre: [50, 50], polygon: [[0, 0], [100, 0], [100, 100], [0, 100]]}
  - {id: "2", terrain: city, tm: 2, city: true, centre: [150, 50], polygon: [[100, 0], [200, 0], [200, 100], [100, 100]]}
  - {id: "3", terrain: woods, tm: 1, centre: [250, 50], polygon: [[200, 0], [300, 0], [300, 100], [200, 100]]}
units:
  - {id: PZG-1, name: Panzergrenadiers, side: nato, nation: de, kind: infantry, stacking: 2,
     full: {rcm: 2, acm: 3, df: 7, morale: 8, ap: 3}}
  - {id: VDV-A, name: Paras, side: soviet, nation: su, kind: infantry, stacking: 2,
     full: {rcm: 2, acm: 3, df: 7, morale: 8, ap: 3}}
  - {id: KOMBAT, name: Battalion commander, side: soviet, nation: su, kind: leader, special: koval,
     stacking: 1, full: {rcm: 0, acm: null, df: 5, morale: 9, ap: 3}}
deployments:
  - {side: nato, units: [PZG-1], areas: ["1"]}
  - {side: soviet, units: [VDV-A], areas: ["3"]}
  - {side: soviet, units: [KOMBAT], areas: ["2"]}
soviet_required_area: "2"
main_objective: "2"
secondary_objectives: []
cadre_area: "1"
"""


def test_a_set_up_that_never_ends_is_refused_naming_the_order_refused_for_ever() -> None:
    with pytest.raises(sf.ScenarioError) as caught:
        get("rr").scenario_from_file(STUCK)
    message = str(caught.value)
    assert "cannot be played" in message
    # 11.0 with 9.7-9.9: ready is refused, in the rules' own words
    assert "ready would be refused for ever: KOMBAT must set up with another unit (9.7-9.9)" in message
    assert sf.key_of_text("rr", STUCK) is None  # nothing left registered


def test_the_same_file_with_a_combatant_allowed_there_is_playable() -> None:
    good = STUCK.replace('units: [VDV-A], areas: ["3"]', 'units: [VDV-A], areas: ["2", "3"]')
    checked = get("rr").scenario_from_file(good)
    assert playable.prove(get("rr"), checked.key) is None


def test_referee_scenario_check_prints_why(tmp_path: Path, capsys) -> None:
    path = tmp_path / "stuck.yaml"
    path.write_text(STUCK, "utf-8")
    assert main(["scenario", "check", str(path)]) == 1
    assert "ready would be refused for ever" in capsys.readouterr().out


def test_the_required_area_outside_every_soviet_zone_is_refused_before_play() -> None:
    # The checker's file of issue 46: told by rr's own set-up check, with 11.0.
    bad = STUCK.replace('soviet_required_area: "2"', 'soviet_required_area: "1"')
    with pytest.raises(sf.ScenarioError) as caught:
        get("rr").scenario_from_file(bad)
    assert "area 1 is in no Soviet set-up zone" in str(caught.value)


@pytest.mark.parametrize(("key", "scenario"), [(k, sc) for k, s in load_all().items() for sc in s.scenarios])
def test_every_built_in_scenario_is_proven_playable(key: str, scenario: str) -> None:
    assert playable.prove(get(key), scenario) is None
