"""Issue 46: a Maschinen Krieger card sets up a position, as the rulebook's examples need:
start-of-game states (5.1.2's M and A, 14.3 broken morale, 11.2.5 rounds fired, 19.5.3
booster turns used), a unit type of its own, a board of its own, and a later turn and
phase (4.0).  docs/scenarios/mak-book-example.yaml is 5.1.2's worked example and 7.3's
carrying; these tests play it with scripted dice and assert what the book says."""

from __future__ import annotations

from pathlib import Path

import pytest

from rules.core import scenariofile as sf
from rules.core.dice import ScriptedDice
from rules.core.errors import RuleError
from rules.mak import SYSTEM as SYS
from rules.mak import actions as A
from rules.mak.data import unit_stats

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "scenarios" / "mak-book-example.yaml"
TEXT = EXAMPLE.read_text("utf-8")


def opening(text: str = TEXT):  # type: ignore[no-untyped-def]
    checked = SYS.scenario_from_file(text)
    return SYS.setup(checked.key, None, ScriptedDice([])).state


def test_the_card_begins_in_the_second_players_phase_of_turn_2() -> None:
    s = opening()
    # 4.0: Strahl first, so the Mercenary phase is the second of the turn
    assert (s.turn, s.phase, s.active) == (2, "second", "merc")
    assert SYS.turn_part(s) == "Turn 2/3 · Mercenary phase · Mercenary"


def test_each_force_line_starts_in_its_state() -> None:
    s = opening()
    assert s.unit("M-AFS2").immobilized and not s.unit("M-AFS3").immobilized  # 5.1.2 M
    assert s.unit("S-PKA2").disarmed  # 5.1.2 A: "Arm. Disabled"
    assert s.unit("S-InfSQ1").morale == "broken"  # 14.3
    assert s.unit("S-PKA1").fired == {"PF": 1}  # 11.2.5: one of its 2 Panzerfausts
    assert len(s.unit("M-SAFS1").boosts) == 1  # 19.5.3: one of its two turns


def test_a_unit_type_of_the_cards_own_has_its_stats_over_its_base() -> None:
    s = opening()
    scout = unit_stats(s.unit("M-AFSscout1").type)
    assert scout.movement == 5 and scout.endurance == "A" and scout.short == "AFSs"
    assert "movement" in scout.stand_in  # a stand-in, marked as such in the file


def test_7_3_the_immobilised_afs_is_carried_by_the_one_that_is_not() -> None:
    # 7.3: "A Type I unit that is not immobilized can transport another Type I unit that is
    # immobilized"; 7.3.1: stacked, 1 MP.
    s = opening()
    offers = SYS.legal_actions(s, "merc")
    assert A.Carry(unit="M-AFS3", load="M-AFS2") in offers
    assert A.Carry(unit="M-AFS2", load="M-AFS3") not in offers
    step = SYS.apply(s, "merc", A.Carry(unit="M-AFS3", load="M-AFS2"), ScriptedDice([]))
    assert step.state.unit("M-AFS3").carrying == "M-AFS2"


def test_5_1_2_the_worked_example_the_pka_is_hit_rolls_3_and_is_destroyed() -> None:
    # 5.1.2: "A P.K.A. is attacked by an A.F.S. and is hit ... the sum of the dice is 3.
    # Using the P.K.A.'s armor endurance of "B" ... the unit is destroyed (D)."
    s = opening()
    step = SYS.apply(s, "merc", A.Fire(unit="M-AFS1", target="S-PKA1"), ScriptedDice([2, 2, 1, 2]))
    if step.state.window is not None:  # 5.4: the Strahl make no defensive attack
        step = SYS.apply(step.state, "strahl", A.Pass(), ScriptedDice([]))
    assert step.state.unit("S-PKA1").status == "destroyed"


def test_19_5_3_a_booster_used_in_two_turns_before_the_game_is_spent() -> None:
    # 19.5.3: "The booster pack may be used in two turns in any single scenario."
    s = opening(TEXT.replace("boosts: 1}", "boosts: 2}"))
    assert len(s.unit("M-SAFS1").boosts) == 2
    assert not any(isinstance(a, A.Move) and a.unit == "M-SAFS1" and a.boost
                   for a in SYS.legal_actions(s, "merc"))
    with pytest.raises(RuleError, match="19.5.3"):
        SYS.apply(s, "merc", A.Move(unit="M-SAFS1", to="7:0305", boost=True), ScriptedDice([]))
    # with one use left it still flies
    one = opening()
    assert any(isinstance(a, A.Move) and a.unit == "M-SAFS1" and a.boost for a in SYS.legal_actions(one, "merc"))


@pytest.mark.parametrize(("change", "path", "words"), [
    ("{unit: PKA, deploy: \"⑦1006\", disarmed: true}", "sides[1].forces[1].morale",
     "morale is an infantry squad's (14.3)"),
    ("fired: {PF: 1}", "sides[1].forces[0].fired.PF", "carries 2 PF rounds (11.2.4)"),
    ("boosts: 1}", "sides[0].forces[3].boosts", "Input should be less than or equal to 2"),
    ("movement: 5,", "unit_types[0].movement", "less than or equal to 20"),
    ("base: AFS,", "unit_types[0].base", "did you mean 'AFS'?"),
    ("number: 7", "own_boards[0].number", "a shipped board"),
    ("forest: [\"0902..1003\"]", "own_boards[0].terrain.forrest", "did you mean 'forest'?"),
    ("start: {turn: 2,", "start.turn", "it cannot begin on turn 5"),
])
def test_a_state_or_unit_or_board_outside_the_rules_is_refused_at_its_line(
        change: str, path: str, words: str) -> None:
    bad = {
        "{unit: PKA, deploy: \"⑦1006\", disarmed: true}": "{unit: PKA, deploy: \"⑦1006\", disarmed: true, morale: broken}",
        "fired: {PF: 1}": "fired: {PF: 3}",
        "boosts: 1}": "boosts: 3}",
        "movement: 5,": "movement: 25,",
        "base: AFS,": "base: AFZ,",
        "number: 7": "number: 6",
        "forest: [\"0902..1003\"]": "forrest: [\"0902..1003\"]",
        "start: {turn: 2,": "start: {turn: 5,",
    }[change]
    with pytest.raises(sf.ScenarioError) as caught:
        SYS.scenario_from_file(TEXT.replace(change, bad))
    found = {p.path: p for p in caught.value.problems}
    assert path in found, caught.value.problems
    assert words in found[path].message
    assert found[path].line is not None


def test_a_hold_point_no_unit_of_its_side_can_reach_is_refused() -> None:
    # O.G.P. item 3 with 7.1.8: a hold point inside a ring of water no Merc unit may enter
    ring = ('    terrain:\n      forest: ["0902..1003"]\n      water: ["1107", "1108", "1209", "1106", "1206", "1207"]\n')
    text = TEXT.replace('    terrain:\n      forest: ["0902..1003"]\n', ring).replace(
        "sides:\n", 'points:\n  - {kind: hold, hex: "7:1207", side: merc, points: 3, text: "Hold the islet"}\nsides:\n')
    with pytest.raises(sf.ScenarioError) as caught:
        SYS.scenario_from_file(text)
    assert "no merc ground unit can reach 7:1207" in str(caught.value)
    reachable = text.replace('side: merc, points: 3, text: "Hold the islet"', 'side: merc, points: 3, text: "Hold"').replace(
        '"7:1207"', '"7:0606"')
    SYS.scenario_from_file(reachable)


FORD = (Path(__file__).resolve().parents[2] / "docs" / "scenarios" / "mak-ford.yaml").read_text("utf-8")


def test_the_ford_is_reached_by_the_mercenary_infantry_and_refused_without_it() -> None:
    # 7.1.8: "W and C type units cannot enter a river or water hex": the A.F.S. (4W) may
    # not enter the ford 6:1115 (board 6's river, column 11), the Inf.SQ (1I) may (14.1:
    # one hex a turn).  Without the squad no Mercenary ground unit can ever hold it.
    SYS.scenario_from_file(FORD)
    alone = FORD.replace('      - {unit: InfSQ, count: 1, deploy: "⑥0522"}\n', "")
    assert alone != FORD
    with pytest.raises(sf.ScenarioError) as caught:
        SYS.scenario_from_file(alone)
    assert "no merc ground unit can reach 6:1115" in str(caught.value)
    assert "7.1.8" in str(caught.value)
