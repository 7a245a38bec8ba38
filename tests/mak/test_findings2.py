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



def _recovery(enemy_hex: str, die: int) -> str:
    """A broken squad in 5:1014 (clear) and an immobilised, arm-disabled enemy PKA in
    ``enemy_hex``; the Merc phase ends and the squad rolls ``die`` for recovery (14.3.2)."""
    s = game([("S-InfSQ1", "InfSQ", "strahl", "5:1014"), ("M-PKA1", "PKA", "merc", enemy_hex)])
    s.unit("S-InfSQ1").morale = "broken"
    s.unit("M-PKA1").immobilized = s.unit("M-PKA1").disarmed = True
    step = SYS.apply(s, "merc", A.End(), ScriptedDice([die]))
    return step.state.unit("S-InfSQ1").morale


def test_14_3_2_3_an_arm_disabled_pka_in_the_hex_is_still_capable_of_attacks():
    # 14.3.2 (3): "An enemy unit capable of making attacks is within 3 hexes, +1"; 5.1.2 A:
    # "This unit cannot shoot for the rest of the game ... The unit can still participate in
    # close quarters combat" (9.5, unarmed).  In the squad's hex it can: 4 + 1 = 5, broken.
    assert _recovery("5:1014", 4) == "broken"


def test_14_3_2_3_an_immobilised_arm_disabled_pka_two_hexes_off_is_not():
    # Immobilised (5.1.2 M "can no longer move") and disarmed, 2 hexes away, it can neither
    # shoot nor come into close quarters: no +1, and 4 recovers (1-4).
    assert _recovery("5:1012", 4) == "ok"


def test_14_3_2_the_recovery_roll_names_its_modifiers():
    # 14.3.2: "roll one die. On a result of one to four, the unit's morale is recovered ...
    # The following modifiers apply": each is named, not only summed ("🎲 4+1").
    s = game([("S-InfSQ1", "InfSQ", "strahl", "5:1014"), ("M-AFS1", "AFS", "merc", "5:1012")])
    s.unit("S-InfSQ1").morale = "broken"
    step = SYS.apply(s, "merc", A.End(), ScriptedDice([4]))
    assert ("S-InfSQ1 morale: 🎲 4 +1 enemy within 3 hexes = 5 (1-4 recovers) → stays broken (14.3.2)"
            in [e.text for e in step.events])


def test_the_unit_types_cite_unmanned_16_0_and_the_hq_artillery_request_17_1_2():
    # 16.0 "Unmanned Units"; 17.1.2 "The following classes of units can request an artillery
    # attack. 1. Command unit ... All infantry Platoon HQ units" (18.1.3 is pilots, 16.1 the
    # control of unmanned units)
    from rules.mak.scenario import unit_type_table
    table = unit_type_table()
    assert "unmanned (16.0)" in table and "HQ, requests artillery (17.1.2)" in table
    assert "18.1.3" not in table and "(16.1)" not in table
