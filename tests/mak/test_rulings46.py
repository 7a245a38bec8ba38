"""Issue 46: rulings of Maschinen Krieger, each played through the rules with scripted dice
and checked against the rule it names in /work/shared/rules/maschinen-krieger.txt."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.core.dice import ScriptedDice
from rules.core.errors import RuleError
from rules.mak import data
from rules.mak import SYSTEM as SYS
from rules.mak import actions as A
from rules.mak import secret_actions as SA
from rules.mak.data import ScenarioSpec
from rules.mak.scenario import problems
from rules.mak.state import Position
from tests.mak.test_defensive_window import game
from tests.mak.test_hidden import at_setup


def test_14_3_2_recovery_in_a_forest_position_counts_both_modifiers():
    # 14.3.2: "When located in a forest or building hex, -2. When inside a defensive
    # position, -1 ... All of these modifiers are cumulative."  A broken squad in a position in
    # forest 5:0405, an able AFS 2 hexes off (+1): 6 - 2 - 1 + 1 = 4, recovered (1-4).
    s = game([("S-InfSQ1", "InfSQ", "strahl", "5:0405"), ("M-AFS1", "AFS", "merc", "5:0407")])
    s.unit("S-InfSQ1").morale = "broken"
    s.positions["5:0405"] = Position(rating=-1, holder="strahl")
    step = SYS.apply(s, "merc", A.End(), ScriptedDice([6]))
    assert "S-InfSQ1 morale: 🎲 6 −2 forest −1 defensive position +1 enemy within 3 hexes = 4 (1-4 recovers) → recovers (14.3.2)" in [e.text for e in step.events]
    assert step.state.unit("S-InfSQ1").morale == "ok"


def _fire(s, unit: str, target: str, dice: list[int]):  # type: ignore[no-untyped-def]
    """Fire, and let the other side pass any defensive attack it is offered (5.4)."""
    step = SYS.apply(s, s.active, A.Fire(unit=unit, target=target), ScriptedDice(dice))
    if step.state.window is not None:
        step = SYS.apply(step.state, step.waiting_on[0], A.Pass(), ScriptedDice([]))
    return step


def test_14_3_2_4_a_missed_attack_on_a_broken_squad_does_not_flip_its_token():
    # 14.3.2 (4): +1 when "The unit's morale was broken when it received additional direct
    # or indirect attacks": an attack that misses puts no result on it, so no +1; a second
    # A result (2d6 = 6 on endurance D, 5.1.2) lands and flips the token.
    s = game([("S-InfSQ1", "InfSQ", "strahl", "5:1014"), ("M-AFS1", "AFS", "merc", "5:1012"),
              ("M-AFS2", "AFS", "merc", "5:1012")])
    s.unit("S-InfSQ1").morale = "broken"
    missed = _fire(s, "M-AFS1", "S-InfSQ1", [6, 6]).state
    assert missed.unit("S-InfSQ1").morale == "broken"
    after_miss = SYS.apply(missed, "merc", A.End(), ScriptedDice([3]))
    assert "S-InfSQ1 morale: 🎲 3 +1 enemy within 3 hexes = 4 (1-4 recovers) → recovers (14.3.2)" in [e.text for e in after_miss.events]
    hit = _fire(missed, "M-AFS2", "S-InfSQ1", [2, 2, 3, 3]).state
    assert hit.unit("S-InfSQ1").morale == "broken_again"
    # the +1 shows in the recovery roll at the start of the Strahl phase, with the AFSs 2
    # hexes off (14.3.2 3, +1): 3 + 2 = 5, broken; after the miss alone it was 3 + 1 = 4, recovered
    step = SYS.apply(hit, "merc", A.End(), ScriptedDice([3]))
    assert "S-InfSQ1 morale: 🎲 3 +1 enemy within 3 hexes +1 attacked again while broken = 5 (1-4 recovers) → stays broken (14.3.2)" in [e.text for e in step.events]


def test_8_2_a_card_setting_up_three_squads_in_one_hex_is_refused():
    # 8.2: "When a phase ends ... the number of stacking points in a hex must not exceed 4":
    # three Inf.SQ (2 points each, 8.1) set up in one hex would stand over the limit when the
    # first phase ends, before their owner may move them, so the card is refused.
    card = json.loads((Path(data.__file__).parent / "data" / "scenario_patrol.json").read_text())
    card["sides"][1]["forces"].append({"unit": "InfSQ", "count": 3, "deploy": "⑤0921"})
    found = problems(ScenarioSpec.model_validate(card))
    assert [why for _, why in found] == [
        "strahl's 3 units set up in ⑤0921 break the stacking limit: 6 stack points is over the "
        "limit of 4 (8.2); set some up in another hex."]
    card["sides"][1]["forces"][-1]["count"] = 2  # 4 points: within the limit
    assert problems(ScenarioSpec.model_validate(card)) == []


def test_19_5_1_eddy_does_not_observe_a_concealed_stack():
    # 19.5.1: Eddy "cannot make any attacks, observe, or take any other actions": his line of
    # sight neither forbids a concealment marker (15.4.1) nor lifts one when he moves; a PKA
    # in the same hex does.
    s = at_setup([("M-AFS1", "AFS", "merc", "5:0829"), ("S-Eddy1", "Eddy", "strahl", "5:0613"),
                  ("S-PKA1", "PKA", "strahl", "5:0812")], concealment=True)
    hid = SYS.apply(s, "merc", SA.Hide(unit="M-AFS1"), ScriptedDice([])).state
    assert hid.concealment is not None and hid.concealment.markers["M-Con1"] == "M-AFS1"
    hid.setup, hid.active = [], "strahl"
    walked = SYS.apply(hid, "strahl", A.Move(unit="S-Eddy1", to="5:0614"), ScriptedDice([]))
    assert walked.unseals == [] and walked.state.concealment.markers["M-Con1"] == "M-AFS1"
    seen = SYS.apply(walked.state, "strahl", A.Move(unit="S-PKA1", to="5:0613"), ScriptedDice([]))
    (unseal,) = seen.unseals
    assert unseal.why.startswith("seen by S-PKA1")


def test_13_1_3_a_rider_that_fires_and_misses_is_answered_as_its_truck():
    # 13.1.3: "When fired upon, the vehicle and the units it is transporting are treated as a
    # single target"; 5.4 1: the target alive after an attack from within 3 hexes may answer.
    # M-InfSQ1 fires from M-Truck1 at S-PKA1 2 hexes off and misses (6+6): S-PKA1 answers the
    # truck, and a 1+1 (D, 5.1.2) destroys it with its rider.
    s = game([("M-Truck1", "Truck", "merc", "5:1012"), ("M-InfSQ1", "InfSQ", "merc", "5:1012"),
              ("S-PKA1", "PKA", "strahl", "5:1014")])
    s.unit("M-InfSQ1").aboard = "M-Truck1"
    step = SYS.apply(s, "merc", A.Fire(unit="M-InfSQ1", target="S-PKA1"), ScriptedDice([6, 6]))
    assert step.state.window is not None and step.state.window.targets == ["M-Truck1"]
    assert step.waiting_on == ["strahl"]
    offered = [o for o in SYS.legal_actions(step.state, "strahl") if isinstance(o, A.Defend)]
    assert {o.target for o in offered} == {"M-Truck1"}
    hit = SYS.apply(step.state, "strahl", A.Defend(unit="S-PKA1", target="M-Truck1"), ScriptedDice([1, 1]))
    assert [hit.state.unit(u).status for u in ("M-Truck1", "M-InfSQ1")] == ["destroyed", "destroyed"]


def test_14_2_1_two_stacked_squads_add_their_attack_power_for_one_roll():
    # 14.2.1: "Stacked Infantry units may add their attack power for a single attack": two
    # Inf.SQ (MG 4 each) in 5:1012 at S-PKA1 2 hexes off: 4 + 4 = 8 − 2 (defence) = 6 (range 2
    # gives nothing to an MG here, as in a single squad's 4 − 2 = 2); one roll, 3+3 = 6 hits.
    s = game([("M-InfSQ1", "InfSQ", "merc", "5:1012"), ("M-InfSQ2", "InfSQ", "merc", "5:1012"),
              ("M-AFS1", "AFS", "merc", "5:1012"), ("S-PKA1", "PKA", "strahl", "5:1014")])
    legal = SYS.legal_actions(s, "merc")
    assert A.Combined(units="M-InfSQ1,M-InfSQ2", target="S-PKA1") in legal
    assert not [o for o in legal if isinstance(o, A.Combined) and "M-AFS1" in o.units]
    step = SYS.apply(s, "merc", A.Combined(units="M-InfSQ1,M-InfSQ2", target="S-PKA1"),
                     ScriptedDice([3, 3, 6, 6]))
    (line,) = [e.text for e in step.events if e.rule == "14.2.1"]
    assert line.startswith("M-InfSQ1 + M-InfSQ2 (MG+MG) together fire at S-PKA1: target 8 − 2 = 6; "
                           "🎲 3+3 = 6 vs 6: hit"), line
    assert step.state.unit("M-InfSQ1").attacked and step.state.unit("M-InfSQ2").attacked
    assert step.state.window is not None and step.state.window.targets == ["M-InfSQ1", "M-InfSQ2"]


def test_14_2_1_a_combined_attack_names_only_infantry():
    # 14.2.1 is for Infantry; an AFS in the stack makes a Simultaneous Attack instead (5.3.3)
    s = game([("M-InfSQ1", "InfSQ", "merc", "5:1012"), ("M-AFS1", "AFS", "merc", "5:1012"),
              ("S-PKA1", "PKA", "strahl", "5:1014")])
    with pytest.raises(RuleError, match=r"M-AFS1 is not an Infantry unit: only stacked Infantry add "
                                        r"their attack power \(14.2.1\)"):
        SYS.apply(s, "merc", A.Combined(units="M-InfSQ1,M-AFS1", target="S-PKA1"), ScriptedDice([]))
    with pytest.raises(RuleError, match=r"A combined attack needs two or more of your units"):
        SYS.apply(s, "merc", A.Combined(units="M-InfSQ1", target="S-PKA1"), ScriptedDice([]))
    s.units.append(s.unit("M-InfSQ1").model_copy(update={"id": "M-InfSQ2", "hex": "5:1011"}))
    with pytest.raises(RuleError, match=r"^Units that are not stacked cannot make a combined attack \(14.2.1\)\.$"):
        SYS.apply(s, "merc", A.Combined(units="M-InfSQ1,M-InfSQ2", target="S-PKA1"), ScriptedDice([]))
