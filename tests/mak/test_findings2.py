"""Issue 46, a newcomer's play-test of Maschinen Krieger: rulings checked against the rule they
name in /work/shared/rules/maschinen-krieger.txt, with scripted dice."""

from __future__ import annotations

from rules.core.dice import ScriptedDice
from rules.mak import SYSTEM as SYS
from rules.mak import actions as A
from tests.mak.test_defensive_window import game


def test_9_2_one_defensive_attack_per_approach_a_move_then_an_assault():
    # 9.2: "1. When an enemy is in an adjacent hex. 2. When an enemy enters the same hex. A
    # unit that engages in case 1 cannot attack in case 2."  Figure 10: "the PKA may make a
    # defensive attack against the AFS when it is in either hex or hex".  The PKA moves next
    # to the squad, which fires (and misses); the assault from that hex draws no second attack.
    s = game([("S-PKA2", "PKA", "strahl", "5:0721"), ("M-InfSQ1", "InfSQ", "merc", "5:0823")])
    s.active = "strahl"
    step = SYS.apply(s, "strahl", A.Move(unit="S-PKA2", to="5:0723"), ScriptedDice([]))
    assert step.state.window is not None and step.state.window.reason == "move"
    step = SYS.apply(step.state, "merc", A.Defend(unit="M-InfSQ1", target="S-PKA2"), ScriptedDice([6, 6]))
    if step.state.window is not None:
        step = SYS.apply(step.state, "merc", A.Pass(), ScriptedDice([]))
    step = SYS.apply(step.state, "strahl", A.Assault(unit="S-PKA2", hex="5:0823"), ScriptedDice([]))
    text = [e.text for e in step.events]
    assert "M-InfSQ1 fired at S-PKA2 as it came next to 5:0823: no second defensive attack on this approach (9.2)" in text
    assert step.state.window is None and step.state.unit("S-PKA2").hex == "5:0823"
    assert SYS.phase_of(step.state) == "strike" and step.waiting_on == ["strahl"]


def test_9_2_a_squad_that_held_its_fire_on_the_move_may_fire_at_the_assault():
    # 9.2.1 "Defensive attacks for close quarters combat is completely discretionary": the
    # squad passed as the PKA came next to it, so it keeps its one attack for the assault.
    s = game([("S-PKA2", "PKA", "strahl", "5:0721"), ("M-InfSQ1", "InfSQ", "merc", "5:0823")])
    s.active = "strahl"
    step = SYS.apply(s, "strahl", A.Move(unit="S-PKA2", to="5:0723"), ScriptedDice([]))
    step = SYS.apply(step.state, "merc", A.Pass(), ScriptedDice([]))
    step = SYS.apply(step.state, "strahl", A.Assault(unit="S-PKA2", hex="5:0823"), ScriptedDice([]))
    assert step.state.window is not None and step.state.window.reason == "assault_adjacent"
    assert step.state.window.defenders == ["M-InfSQ1"]


def _unarmed_strike():  # type: ignore[no-untyped-def]
    """S-PKA2 assaults M-SAFS1, whose arm is disabled (no armed answer, 5.1.2 A); the SAFS
    holds its defensive attacks; the PKA strikes unarmed."""
    s = game([("S-PKA2", "PKA", "strahl", "5:1018"), ("M-SAFS1", "SAFS", "merc", "5:1017")])
    s.active = "strahl"
    s.unit("M-SAFS1").disarmed = True
    step = SYS.apply(s, "strahl", A.Assault(unit="S-PKA2", hex="5:1017"), ScriptedDice([]))
    while step.state.window is not None:
        step = SYS.apply(step.state, "merc", A.Pass(), ScriptedDice([]))
    assert SYS.phase_of(step.state) == "strike"
    return SYS.apply(step.state, "strahl", A.Strike(target="M-SAFS1", unarmed=True), ScriptedDice([]))


def test_9_5_the_unit_struck_unarmed_may_answer_unarmed_and_both_blows_land_together():
    # 9.5: "All Type 1 units may perform 'unarmed' combat in close quarters combat. All
    # unarmed combat is performed after resolution of attacks from opposing units, except for
    # opposing unarmed combat. All unarmed combat is resolved simultaneously."
    step = _unarmed_strike()
    said = [e.text for e in step.events]
    assert "S-PKA2 will strike M-SAFS1 unarmed; M-SAFS1 may answer first (unarmed: unarmed blows land together) (9.5)" in said
    assert step.waiting_on == ["merc"]
    offered = SYS.legal_actions(step.state, "merc")
    assert A.Defend(unit="M-SAFS1", target="S-PKA2", weapon="unarmed") in offered
    # both hit (2+2 = 4, an unmodified 4) and both endurance rolls destroy: the PKA's blow
    # does not spare it the SAFS's, rolled and landing with it
    step = SYS.apply(step.state, "merc", A.Defend(unit="M-SAFS1", target="S-PKA2", weapon="unarmed"),
                     ScriptedDice([2, 2, 1, 1, 2, 2, 1, 1]))
    assert step.state.unit("M-SAFS1").status == "destroyed"
    assert step.state.unit("S-PKA2").status == "destroyed"
    assert any("unarmed combat, simultaneous" in e.text for e in step.events)


