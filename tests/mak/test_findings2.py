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

