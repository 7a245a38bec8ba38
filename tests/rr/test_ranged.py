"""Ranged combat (7.3.1-7.3.4), terrain (5.2), the retreat decision (7.3.3) and the ranged
special units (9.1 mortar, 9.3 Sagger, 9.4 Kastet, 9.5 AGS-17, 9.6 T-12, 9.11 Luchs)."""

from __future__ import annotations

from typing import Any

import pytest

from rules.core.contract import Step
from rules.core.errors import RuleError
from rules.core.views import change_lines, changes_between
from rules.rr import SYSTEM
from rules.rr.actions import Fire, Retreat, Skip, StandingChoice, TakeHits
from tests.rr.helpers import act, legal, board, game, spec, texts

UNITS = [
    spec("INF"), spec("INF2"), spec("TANK", kind="tank", vehicle=True, rcm=3, df=7),
    spec("MORT", kind="mortar", stacking=1, acm=None, rcm=2, df=5),
    spec("LUCHS", kind="recon", special="luchs", stacking=1, vehicle=True),
    spec("VDV", "soviet", special="vdv"), spec("VDV2", "soviet", special="vdv"),
    spec("BMD", "soviet", kind="ifv", vehicle=True, df=6),
    spec("AGS", "soviet", kind="ags17", special="ags17", stacking=1, acm=None, rcm=2),
    spec("T12", "soviet", kind="at_gun", special="t12", stacking=1, acm=None, rcm=3, ap=2),
    spec("KASTET", "soviet", kind="atgm", special="kastet", stacking=0, acm=None, rcm=1,
         df=0, attached_to="T12"),
    spec("SAGGER", "soviet", kind="atgm", special="sagger", stacking=0, acm=None, rcm=1,
         df=0, attached_to="VDV2"),
    spec("HIND", "soviet", kind="hind", special="hind", stacking=0, vehicle=True, acm=None,
         rcm=3, df=8, ap=2, one_step=True),
]
STRIP = board("t-strip", 7, 1, UNITS, tm={"3": 1, "4": 2})
NEVER = {"nato": "never", "soviet": "never"}
#: The same strip with objectives on it, so that it has a view (12.0).
VIEWED = board("t-strip-view", 7, 1, UNITS, tm={"3": 1, "4": 2}, main_objective="4",
               secondary_objectives=["7"])


def fire(where: dict[str, str], order: Fire, dice: list[int], side: str = "nato", **fields: Any) -> Step:
    """Units placed, no retreat decisions; ``side`` gives the order with scripted dice."""
    state = game(STRIP, where, standing=dict(NEVER), **fields)
    return act(state, side, order, dice)


def test_one_hit_on_a_margin_of_one_and_tm_adds_to_df_7_3_3_and_5_2() -> None:
    """7.3.3: 4+3 +2 RCM = 9 vs DF 7 +1 TM (5.2) = 8: +1 is one hit, which suppresses."""
    step = fire({"INF": "1", "VDV": "3"}, Fire(unit="INF", target="VDV"), [4, 3])
    assert "🎲 4+3 +2 RCM = 9 vs DF 7 +1 TM = 8 → +1: one hit (7.3.3)" in texts(step)
    vdv = step.state.units["VDV"]
    assert vdv.status == "suppressed" and vdv.ap == 0 and not vdv.reduced
    assert step.state.units["INF"].ap == 2  # 7.1: the attack cost one AP
    # 7.0: the impulse passes; the Soviets have nothing left but pass, so they pass at once.
    assert step.snapshot and "Soviets have no order left: passed at once (7.0)" in texts(step)
    assert step.waiting_on == ["nato"] and step.state.passes == 1


def test_support_adds_one_and_two_hits_suppress_and_reduce_7_3_3() -> None:
    """7.3.3: +1 per supporting unit in range from the same area; 3-4 over is two hits."""
    step = fire({"INF": "1", "INF2": "1", "VDV": "3"},
                Fire(unit="INF", target="VDV", support="INF2"), [5, 3])
    assert "🎲 5+3 +2 RCM +1 support = 11 vs DF 7 +1 TM = 8 → +3: two hits (7.3.3)" in texts(step)
    assert "VDV suppressed and reduced (7.3.3)" in texts(step)
    assert step.state.units["INF2"].ap == 2


def test_five_over_is_three_hits_and_eliminates_7_3_3() -> None:
    """7.3.3: 5 or more over the DF is three hits: suppressed, reduced, eliminated."""
    step = fire({"INF": "1", "VDV": "2"}, Fire(unit="INF", target="VDV"), [6, 6])
    assert step.state.units["VDV"].place == "gone"
    assert step.state.vdv_lost == 1 and step.state.cadres == {"VDV": 1}  # 7.3.6 roll due


def test_a_hit_on_a_suppressed_unit_reduces_it_7_3_3_note() -> None:
    """7.3.3 note: hits go suppress, then reduce, then eliminate."""
    state = game(STRIP, {"INF": "1", "VDV": "2"}, standing=dict(NEVER))
    state.units["VDV"].status, state.units["VDV"].ap = "suppressed", 0
    step = act(state, "nato", Fire(unit="INF", target="VDV"), [5, 2])  # 9 vs 7: one hit
    assert step.state.units["VDV"].reduced and step.state.units["VDV"].status == "suppressed"


def test_equal_total_misses_7_3_3() -> None:
    """7.3.3: a total equal to DF + TM is unsuccessful."""
    step = fire({"INF": "1", "VDV": "3"}, Fire(unit="INF", target="VDV"), [3, 3])
    assert "→ +0: no effect" in texts(step)[1]
    assert step.state.units["VDV"].status == "ok"


def test_extended_range_costs_one_7_3_4() -> None:
    """7.3.1/7.3.4: range counts the target's area, not the firer's; one further at -1."""
    step = fire({"INF": "1", "VDV": "4"}, Fire(unit="INF", target="VDV"), [4, 4])
    assert "🎲 4+4 +2 RCM -1 ext 7.3.4 = 9 vs DF 7 +2 TM = 9 → +0: no effect (7.3.3)" in texts(step)
    with pytest.raises(RuleError, match="7.3.4"):
        fire({"INF": "1", "VDV": "5"}, Fire(unit="INF", target="VDV"), [])


def test_line_of_sight_blocked_by_trees_or_buildings_7_3_2() -> None:
    """7.3.2: an intervening area with buildings or trees blocks the line of sight."""
    blocked = board("t-los", 7, 1, UNITS, blocks=("2",))
    state = game(blocked, {"INF": "1", "VDV": "3"})
    with pytest.raises(RuleError, match="blocked by area 2"):
        act(state, "nato", Fire(unit="INF", target="VDV"))
    # The target's own trees do not block: fire into area 2 itself.
    state = game(blocked, {"INF": "1", "VDV": "2"}, standing=dict(NEVER))
    assert act(state, "nato", Fire(unit="INF", target="VDV"), [1, 1]).state.units["INF"].ap == 2


def test_mortar_range_two_no_extended_range_and_every_unit_rolled_9_1() -> None:
    """9.1: range 2, never extended; one roll per unit in the target's area."""
    with pytest.raises(RuleError, match="9.1"):
        fire({"MORT": "1", "VDV": "4"}, Fire(unit="MORT", target="VDV"), [])
    step = fire({"MORT": "1", "VDV": "3", "VDV2": "3"}, Fire(unit="MORT", target="VDV"), [4, 3, 1, 1])
    rolls = [e for e in step.events if e.kind == "roll"]
    assert [e.data["target"] for e in rolls] == ["VDV", "VDV2"]
    assert step.state.units["VDV"].status == "suppressed"  # 4+3 +2 = 9 vs 7 +1 TM: one hit
    assert step.state.units["VDV2"].status == "ok"


def test_mortar_needs_only_a_friendly_units_line_of_sight_9_1() -> None:
    """9.1: the mortar fires where any other friendly unit sees."""
    blocked = board("t-mort-los", 7, 1, UNITS, blocks=("2",))
    state = game(blocked, {"MORT": "1", "VDV": "3"}, standing=dict(NEVER))
    with pytest.raises(RuleError, match="9.1"):
        act(state, "nato", Fire(unit="MORT", target="VDV"))
    state = game(blocked, {"MORT": "1", "INF": "5", "VDV": "3"}, standing=dict(NEVER))
    assert act(state, "nato", Fire(unit="MORT", target="VDV"), [1, 2]).state.units["MORT"].ap == 2


def test_defender_decides_to_retreat_to_negate_a_hit_7_3_3() -> None:
    """7.3.3: "The target may choose to retreat one area to negate the affects of one hit.
    Such retreats use all of the retreating unit's action points": the game waits for the
    defender; any adjacent area will do, towards the firer too (the range limits are
    7.3.5.5's, for assault combat); the retreat uses all the unit's AP and negates one hit."""
    state = game(STRIP, {"INF": "1", "VDV": "3"})
    step = act(state, "nato", Fire(unit="INF", target="VDV"), [6, 4])  # 12 vs 8: two hits
    assert step.waiting_on == ["soviet"] and not step.snapshot
    offered = legal(step.state, "soviet")
    assert set(offered) == {TakeHits(), Retreat(to="2"), Retreat(to="4")}
    with pytest.raises(RuleError, match="may retreat to: 2, 4"):
        act(step.state, "soviet", Retreat(to="5"))
    done = act(step.state, "soviet", Retreat(to="2"))
    vdv = done.state.units["VDV"]
    assert vdv.area == "2" and vdv.ap == 0 and vdv.status == "suppressed" and not vdv.reduced
    assert "VDV retreats 3→2, one hit negated (7.3.3)" in texts(done)


def test_take_hits_instead_of_retreating_7_3_3() -> None:
    """7.3.3: retreating is the defender's choice."""
    state = game(STRIP, {"INF": "1", "VDV": "3"})
    step = act(act(state, "nato", Fire(unit="INF", target="VDV"), [6, 4]).state, "soviet", TakeHits())
    assert step.state.units["VDV"].reduced and step.state.units["VDV"].area == "3"


def test_a_retreat_from_fire_may_close_on_another_enemy_but_not_break_stacking_7_3_3() -> None:
    """7.3.3 gives a retreat from ranged fire no range limit ("Retreats must increase the
    range ... cannot decrease the range to another enemy unit" is 7.3.5.5's, in assault
    combat): VDV in 3, fired on from 1, may go to 4 though INF2 in 6 can then fire on it.
    Stacking still binds ("Stacking applies at all times", 5.1): with 2 and 4 full, no
    question is put and the hit lands."""
    state = game(STRIP, {"INF": "1", "INF2": "6", "VDV": "3"})
    step = act(state, "nato", Fire(unit="INF", target="VDV"), [5, 2])
    assert set(legal(step.state, "soviet")) == {TakeHits(), Retreat(to="2"), Retreat(to="4")}
    assert act(step.state, "soviet", Retreat(to="4")).state.units["VDV"].area == "4"
    full = game(STRIP, {"INF": "1", "INF2": "2", "VDV": "3",
                        "VDV2": "4", "BMD": "4", "AGS": "4", "T12": "4"})
    step = act(full, "nato", Fire(unit="INF", target="VDV"), [5, 2])
    assert not step.state.pending and step.state.units["VDV"].status == "suppressed"
    assert ("VDV cannot retreat to negate a hit: 2: enemy in it (5.1); 4: area 4 would hold 8 "
            "stacking points; 6 is the limit (5.1)") in texts(step)
def test_standing_choices_spare_the_wait_7_3_3() -> None:
    """A defender's standing choice: never (take the hits) or always (retreat if it can)."""
    state = game(STRIP, {"INF": "1", "VDV": "3"})
    state = act(state, "soviet", StandingChoice(retreat="always")).state
    step = act(state, "nato", Fire(unit="INF", target="VDV"), [5, 3])
    assert step.state.units["VDV"].area == "4" and not step.state.pending


def test_luchs_lowers_adjacent_enemies_df_9_11() -> None:
    """9.11: enemies adjacent to the Luchs lose the stand-in DF figure in ranged combat."""
    step = fire({"INF": "1", "LUCHS": "2", "VDV": "3"}, Fire(unit="INF", target="VDV"), [4, 3])
    assert "vs DF 7 +1 TM -1 Luchs = 7 → +2: one hit" in texts(step)[1]


def test_sagger_adds_one_rcm_to_its_company_9_3() -> None:
    """9.3: the ATGM team increases its company's RCM by one, and so its range."""
    step = fire({"VDV2": "4", "TANK": "1"}, Fire(unit="VDV2", target="TANK"), [1, 1], side="soviet",
                active="soviet")
    assert "+2 RCM +1 ATGM" in texts(step)[1] and texts(step)[0] == "VDV2 fires on TANK in 1 (range 3)"


def test_sagger_leaves_with_its_company_9_3() -> None:
    """9.3: if the company is eliminated the ATGM is removed."""
    step = fire({"INF": "1", "VDV2": "2"}, Fire(unit="INF", target="VDV2"), [6, 6])
    assert step.state.units["SAGGER"].place == "gone"


def test_t12_fires_only_at_vehicles_and_the_kastet_once_9_4_9_6() -> None:
    """9.6: the T-12 fires at vehicles only; 9.4: the Kastet adds one RCM once, then goes."""
    with pytest.raises(RuleError, match="9.6"):
        fire({"T12": "4", "INF": "1"}, Fire(unit="T12", target="INF"), [], side="soviet", active="soviet")
    step = fire({"T12": "5", "TANK": "1"}, Fire(unit="T12", target="TANK", kastet=True), [1, 1],
                side="soviet", active="soviet")
    assert "+3 RCM +1 Kastet" in texts(step)[2] and step.state.units["KASTET"].place == "gone"
    with pytest.raises(RuleError, match="9.4"):
        act(step.state.model_copy(update={"active": "soviet"}), "soviet",
            Fire(unit="T12", target="TANK", kastet=True))


def test_ags17_rcm_does_not_count_against_vehicles_and_doubles_fire_again_9_5() -> None:
    """9.5: no RCM against a vehicle; doubles give a second attack, with no support."""
    step = fire({"AGS": "3", "VDV": "3", "TANK": "1", "INF": "2"}, Fire(unit="AGS", target="TANK", support="VDV"),
                [3, 3], side="soviet", active="soviet")
    assert texts(step)[1].startswith("🎲 3+3 RCM 0 (9.5) +1 support = 7")
    assert step.waiting_on == ["soviet"] and step.state.pending[0].kind == "ags"
    with pytest.raises(RuleError, match="9.5"):
        act(step.state, "soviet", Fire(unit="AGS", target="INF", support="VDV"))
    again = act(step.state, "soviet", Fire(unit="AGS", target="INF"), [2, 1])
    assert "+2 RCM" in texts(again)[1]
    assert again.state.units["AGS"].ap == 1 and again.waiting_on == ["nato"]
    assert act(step.state, "soviet", Skip()).waiting_on == ["nato"]


def test_ags17_second_attack_costs_an_ap_7_3_1_and_9_5() -> None:
    """7.3.1: "Conducting a ranged attack costs one action point" and "may only attack once
    per impulse (Exception: See Rule 9.5)": 9.5's second attack lifts the limit, not the
    cost; with its last AP spent on the first attack, doubles give no second attack."""
    first = fire({"AGS": "3", "INF": "1"}, Fire(unit="AGS", target="INF"), [2, 2], side="soviet", active="soviet")
    assert first.state.units["AGS"].ap == 2 and first.state.pending[0].kind == "ags"
    second = act(first.state, "soviet", Fire(unit="AGS", target="INF"), [1, 2])
    assert second.state.units["AGS"].ap == 1
    state = game(STRIP, {"AGS": "3", "INF": "1"}, standing=dict(NEVER), active="soviet")
    state.units["AGS"].ap = 1
    last = act(state, "soviet", Fire(unit="AGS", target="INF"), [2, 2])
    assert "Doubles, but AGS has no AP left for a second attack (7.3.1, 9.5)" in texts(last)
    assert not last.state.pending and last.waiting_on == ["nato"]
    owed = first.state.model_copy(deep=True)
    owed.units["AGS"].ap = 0
    assert [a for a in legal(owed, "soviet") if a.name == "fire"] == []
    with pytest.raises(RuleError, match="AGS cannot fire: it has no AP left this turn"):
        act(owed, "soviet", Fire(unit="AGS", target="INF"))


def test_hind_gets_no_tm_and_leaves_when_suppressed_10_2() -> None:
    """10.2: the Hind adds no TM; Suppressed it leaves until next turn; reduced it is gone."""
    step = fire({"INF": "1", "HIND": "3"}, Fire(unit="INF", target="HIND"), [5, 3])
    assert "vs DF 8 = 8" in texts(step)[1]
    assert step.state.units["HIND"].place == "pool"
    step = fire({"INF": "1", "INF2": "1", "HIND": "3"}, Fire(unit="INF", target="HIND", support="INF2"), [6, 4])
    assert step.state.units["HIND"].place == "gone"


def test_a_suppressed_hind_is_off_the_map_not_eliminated_10_2() -> None:
    """10.2: "Remove the Hind from the game map if it is Suppressed. It will return normally
    the following turn": the view lists it ``away``, so status and digest say "Off the map",
    and the hits line says it in one clause."""
    state = game(VIEWED, {"INF": "1", "HIND": "3"}, standing=dict(NEVER))
    step = act(state, "nato", Fire(unit="INF", target="HIND"), [5, 3])
    assert "HIND suppressed: off the map until next turn (7.3.3, 10.2)" in texts(step)
    changes = changes_between(SYSTEM.view(state), SYSTEM.view(step.state))
    assert [(c.what, c.why) for c in changes if c.id == "HIND"] == [("left", "back next turn, 10.2")]
    assert "Off the map: HIND (back next turn, 10.2)" in change_lines(changes)
    again = step.state.model_copy(update={"active": "nato"}, deep=True)
    with pytest.raises(RuleError, match=r"HIND cannot be fired on: the Hind is off the map until its "
                                        r"next flight \(10\.2\)"):
        act(again, "nato", Fire(unit="INF", target="HIND"))


def test_the_kastet_fired_is_off_the_map_not_eliminated_9_4() -> None:
    """9.4: "it can only fire one time and it then removed": spent, not eliminated."""
    state = game(VIEWED, {"T12": "5", "TANK": "1"}, standing=dict(NEVER), active="soviet")
    step = act(state, "soviet", Fire(unit="T12", target="TANK", kastet=True), [1, 1])
    changes = changes_between(SYSTEM.view(state), SYSTEM.view(step.state))
    assert [(c.what, c.why) for c in changes if c.id == "KASTET"] == [("left", "fired, 9.4")]


def test_suppressed_units_cannot_fire_6_2_1() -> None:
    """6.2.1: Suppressed units lose all action points."""
    state = game(STRIP, {"INF": "1", "VDV": "3"})
    state.units["INF"].status, state.units["INF"].ap = "suppressed", 0
    with pytest.raises(RuleError, match="cannot fire"):
        act(state, "nato", Fire(unit="INF", target="VDV"))


def test_supporters_need_the_target_in_their_normal_range_7_3_3() -> None:
    """7.3.3: "+1 for any additional in range supporting units": not at extended range."""
    with pytest.raises(RuleError, match="beyond its range of 2"):
        fire({"TANK": "1", "INF": "1", "VDV": "4"}, Fire(unit="TANK", target="VDV", support="INF"), [])


def test_a_unit_that_retreats_and_falls_is_drawn_where_it_fell_7_3_3() -> None:
    """7.3.3: "The target may choose to retreat one area to negate the affects of one hit":
    a Suppressed, reduced LUCHS hit twice retreats 3→4 and the second hit eliminates it
    there, so what changed names 4, where it fell, not 3, where it stood."""
    state = game(VIEWED, {"VDV": "1", "LUCHS": "3"}, active="soviet",
                 standing={"nato": "always", "soviet": "never"})
    state.units["LUCHS"].status, state.units["LUCHS"].reduced = "suppressed", True
    before = SYSTEM.view(state)
    step = act(state, "soviet", Fire(unit="VDV", target="LUCHS"), [5, 4])
    assert "LUCHS retreats 3→4, one hit negated (7.3.3)" in texts(step)
    changes = changes_between(before, SYSTEM.view(step.state))
    assert [c for c in changes if c.id == "LUCHS"][0].where == "4"
