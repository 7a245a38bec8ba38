"""5.4 2: the units stacked with a target attacked from within 3 hexes may answer, even when
the target is destroyed (condition 1 alone needs the target to survive)."""

from __future__ import annotations

from rules.core.dice import ScriptedDice
from rules.mak import SYSTEM as SYS
from rules.mak import actions as A
from rules.mak.state import MakState, UnitState


def game(units: list[tuple[str, str, str, str]]) -> MakState:
    """A one-board game (board 5) with ``(id, type, side, hex)`` units on the map; merc to act."""
    made = [UnitState(id=i, type=t, side=s, deploy="⑤0101", hex=h, status="on") for i, t, s, h in units]
    return MakState(scenario="test", title="test", boards=[5], turns=3, first="merc", active="merc",
                    method="sum", units=made)


def assert_no_window_after_the_kill(s: MakState) -> None:
    """M-AFS1 fires at S-PKA1 with 1+1 (a D, 5.1.2): destroyed, and merc goes on (no window)."""
    step = SYS.apply(s, "merc", A.Fire(unit="M-AFS1", target="S-PKA1"), ScriptedDice([1, 1]))
    assert step.state.unit("S-PKA1").status == "destroyed"
    assert step.state.window is None and step.waiting_on == ["merc"]


def test_5_4_2_destroyed_target_with_a_stack_mate_opens_the_window_for_the_stack_mate():
    # 5.4 2: the AFS's laser from 2 hexes, 1+1: D (5.1.2); S-PKA2 shared S-PKA1's hex
    s = game([("M-AFS1", "AFS", "merc", "5:1012"),
              ("S-PKA1", "PKA", "strahl", "5:1014"), ("S-PKA2", "PKA", "strahl", "5:1014")])
    step = SYS.apply(s, "merc", A.Fire(unit="M-AFS1", target="S-PKA1"), ScriptedDice([1, 1]))
    s2 = step.state
    assert s2.unit("S-PKA1").status == "destroyed"
    assert step.waiting_on == ["strahl"]
    assert s2.window is not None and s2.window.targets == ["M-AFS1"] and s2.window.defenders == ["S-PKA2"]
    assert any(e.rule == "5.4" and "S-PKA2" in e.text for e in step.events)
    legal = SYS.legal_actions(s2, "strahl")
    assert A.Defend(unit="S-PKA2", target="M-AFS1", weapon="PF") in legal and A.Pass() in legal
    assert not [o for o in legal if isinstance(o, A.Defend) and o.unit == "S-PKA1"]
    # PF 10 - AFS defence 3 + range 2 (0) = 7: 6+6 misses; the window closes, merc goes on
    s3 = SYS.apply(s2, "strahl", A.Defend(unit="S-PKA2", target="M-AFS1"), ScriptedDice([6, 6])).state
    assert s3.window is None and s3.unit("S-PKA2").fired == {"PF": 1}


def test_5_4_destroyed_target_alone_opens_no_window():
    # 5.4 1 needs the target alive; 5.4 2 needs a stack-mate: none here
    s = game([("M-AFS1", "AFS", "merc", "5:1012"), ("S-PKA1", "PKA", "strahl", "5:1014"),
              ("S-PKA2", "PKA", "strahl", "5:1013")])  # adjacent, not stacked
    assert_no_window_after_the_kill(s)


def test_5_4_destroyed_target_from_beyond_3_hexes_opens_no_window_for_its_stack():
    # 4 hexes: neither condition 1 nor 2 (both need an attack "from within 3 hexes")
    s = game([("M-AFS1", "AFS", "merc", "5:1012"),
              ("S-PKA1", "PKA", "strahl", "5:1016"), ("S-PKA2", "PKA", "strahl", "5:1016")])
    assert_no_window_after_the_kill(s)


def test_5_4_destroyed_target_stack_mate_unable_to_fire_gets_no_window():
    # 5.4: "the anti-phase player can make attacks with the appropriate units": a disarmed
    # stack-mate has no weapon for a defensive attack (11.2), so no window
    s = game([("M-AFS1", "AFS", "merc", "5:1012"),
              ("S-PKA1", "PKA", "strahl", "5:1014"), ("S-PKA2", "PKA", "strahl", "5:1014")])
    s.unit("S-PKA2").disarmed = True
    assert_no_window_after_the_kill(s)


def test_5_4_1_surviving_target_and_its_stack_mate_both_answer():
    # condition 1 as before: the target survives (4+4 = 8 vs 7: miss) and answers, with its stack
    s = game([("M-AFS1", "AFS", "merc", "5:1012"),
              ("S-PKA1", "PKA", "strahl", "5:1014"), ("S-PKA2", "PKA", "strahl", "5:1014")])
    step = SYS.apply(s, "merc", A.Fire(unit="M-AFS1", target="S-PKA1"), ScriptedDice([4, 4]))
    assert step.state.window is not None and sorted(step.state.window.defenders) == ["S-PKA1", "S-PKA2"]


def test_5_4_2_volley_destroying_the_target_opens_the_window_for_the_stack_mate():
    # 5.4.2 with condition 2: after all the attacks, the stack-mate against one of the stack
    s = game([("M-AFS1", "AFS", "merc", "5:1012"), ("M-AFS2", "AFS", "merc", "5:1012"),
              ("S-PKA1", "PKA", "strahl", "5:1014"), ("S-PKA2", "PKA", "strahl", "5:1014")])
    step = SYS.apply(s, "merc", A.Volley(units="M-AFS1,M-AFS2", target="S-PKA1"), ScriptedDice([1, 1, 4, 4]))
    s2 = step.state
    assert s2.unit("S-PKA1").status == "destroyed"
    assert s2.window is not None and sorted(s2.window.targets) == ["M-AFS1", "M-AFS2"]
    assert s2.window.defenders == ["S-PKA2"] and step.waiting_on == ["strahl"]
