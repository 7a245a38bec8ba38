"""Assault combat (7.3.5), tanks in assault (7.3.5.3), Suppressed defenders (7.3.5.4),
Commissar Koval (9.9) and airstrikes in an assault (10.1)."""

from __future__ import annotations

import pytest

from rules.core.errors import RuleError
from rules.rr import SYSTEM
from rules.rr.actions import Assault, Move, Retreat, TakeHits
from tests.rr.helpers import act, legal, board, game, spec, texts

UNITS = [
    spec("INF", acm=3), spec("INF2", acm=3), spec("INF3", acm=3),
    spec("TANK", kind="tank", vehicle=True, acm=2, df=7),
    spec("MORT", kind="mortar", stacking=1, acm=None),
    spec("VDV", "soviet", special="vdv", df=7), spec("VDV2", "soviet", special="vdv"),
    spec("BMD", "soviet", kind="ifv", vehicle=True, df=6),
    spec("ASU", "soviet", kind="tank", vehicle=True, df=7, acm=2),
    spec("SPETS", "soviet", special="spetsnaz", stacking=1, acm=4),
    spec("KOVAL", "soviet", kind="leader", special="koval", stacking=0, acm=None, ap=3),
]
STRIP = board("a-strip", 5, 1, UNITS, tm={"2": 1, "3": 2})
NEVER = {"nato": "never", "soviet": "never"}


def test_failed_assault_sends_the_attackers_back_with_no_ap_7_3_5_1() -> None:
    """7.3.5: AV = 2d6 + lead ACM + 1 per supporter moving in; TDF = DF + TM + 1 per
    supporting defender.  7.3.5.1: AV <= TDF, the attackers go back with AP 0."""
    state = game(STRIP, {"INF": "1", "INF2": "1", "VDV": "2", "VDV2": "2"})
    step = act(state, "nato", Assault(units="INF,INF2", to="2", target="VDV"), [2, 3])
    assert "🎲 2+3 +3 ACM +1 support = 9 vs DF 7 +1 TM +1 support = 9 → +0: no effect (7.3.5)" in texts(step)
    for uid in ("INF", "INF2"):
        assert step.state.units[uid].area == "1" and step.state.units[uid].ap == 0
    assert step.snapshot and step.waiting_on == ["soviet"]


def test_successful_assault_hits_the_lead_then_stacking_decides_7_3_5_2() -> None:
    """7.3.5.2: hits go to the designated defender; more attacking stacking points than
    defending ones: the defenders retreat, AP 0; the attackers keep the area."""
    state = game(STRIP, {"INF": "1", "INF2": "1", "VDV": "2", "VDV2": "2"}, standing=dict(NEVER))
    step = act(state, "nato", Assault(units="INF,INF2", to="2", target="VDV"), [6, 5])
    assert "→ +6: three hits" in texts(step)[1]
    assert step.state.units["VDV"].place == "gone"
    vdv2 = step.state.units["VDV2"]
    assert vdv2.area == "3" and vdv2.ap == 0  # 4 SP against 2: the defender retreats
    assert step.state.units["INF"].area == "2" and step.state.units["INF"].ap == 2  # 1 AP, entry included
    assert step.state.control["2"] == "nato"  # 12.0: now the sole occupant


def test_attackers_with_no_more_stacking_points_go_back_7_3_5_2() -> None:
    """7.3.5.2: equal stacking points after the hits: the attackers return, AP 0."""
    state = game(STRIP, {"INF": "1", "VDV": "2", "VDV2": "2"}, standing=dict(NEVER))
    step = act(state, "nato", Assault(units="INF", to="2", target="VDV"), [6, 3])  # 12 vs 9: one hit
    assert step.state.units["VDV"].status == "suppressed"
    assert step.state.units["INF"].area == "1" and step.state.units["INF"].ap == 0


def test_extra_hits_are_spread_by_the_defenders_owner_7_3_5_2() -> None:
    """7.3.5.2: once the lead defender has absorbed all it can, the owner spreads the rest."""
    state = game(STRIP, {"INF": "1", "INF2": "1", "INF3": "1", "VDV": "2", "VDV2": "2", "BMD": "2"},
                 standing=dict(NEVER))
    state.units["VDV"].reduced = True  # absorbs two: suppressed, then eliminated
    step = act(state, "nato", Assault(units="INF,INF2,INF3", to="2", target="VDV"), [6, 6])
    assert step.waiting_on == ["soviet"] and step.state.pending[0].kind == "spread"
    assert set(legal(step.state, "soviet")) == {TakeHits(unit="VDV2"), TakeHits(unit="BMD")}
    with pytest.raises(RuleError, match="7.3.5.2"):
        act(step.state, "soviet", TakeHits())
    done = act(step.state, "soviet", TakeHits(unit="BMD"))
    assert done.state.units["BMD"].status == "suppressed"
    # 6 attacking SP against 4: the defenders retreat.
    assert done.state.units["VDV2"].area == "3" and done.state.units["BMD"].area == "3"


def test_tanks_get_no_tm_in_assault_7_3_5_3() -> None:
    """7.3.5.3: the area's TM is not added to a tank."""
    state = game(STRIP, {"INF": "2", "ASU": "3"})
    step = act(state, "nato", Assault(units="INF", to="3", target="ASU"), [1, 1])
    assert "vs DF 7 = 7" in texts(step)[1]


def test_suppressed_lead_defender_and_no_support_from_suppressed_units_7_3_5_4() -> None:
    """7.3.5.4: a Suppressed defender has -2 DF, a Recovering one -1; neither supports."""
    state = game(STRIP, {"INF": "1", "VDV": "2", "VDV2": "2"})
    state.units["VDV"].status, state.units["VDV"].ap = "suppressed", 0
    state.units["VDV2"].status, state.units["VDV2"].ap = "recovering", 0
    step = act(state, "nato", Assault(units="INF", to="2", target="VDV"), [1, 1])
    assert "vs DF 7 +1 TM -2 supp 7.3.5.4 = 6" in texts(step)[1]
    state.units["VDV"].status = "recovering"
    step = act(state, "nato", Assault(units="INF", to="2", target="VDV"), [1, 1])
    assert "vs DF 7 +1 TM -1 recov 7.3.5.4 = 7" in texts(step)[1]


def test_units_without_an_acm_cannot_assault_7_3_5() -> None:
    """7.3.5 note: an asterisk ACM can neither initiate nor support an assault."""
    state = game(STRIP, {"MORT": "1", "INF": "1", "VDV": "2"})
    with pytest.raises(RuleError, match="ACM"):
        act(state, "nato", Assault(units="MORT", to="2", target="VDV"))
    with pytest.raises(RuleError, match="ACM"):
        act(state, "nato", Assault(units="INF,MORT", to="2", target="VDV"))


def test_move_into_an_enemy_area_is_refused_5_1() -> None:
    """5.1: opposing sides share an area only during an assault."""
    state = game(STRIP, {"INF": "1", "VDV": "2"})
    with pytest.raises(RuleError, match="assault"):
        act(state, "nato", Move(units="INF", to="2"))


def test_koval_adds_one_to_an_assault_she_joins_9_9() -> None:
    """9.9: Commissar Koval adds one to any assault in which she participates."""
    state = game(STRIP, {"SPETS": "3", "KOVAL": "3", "INF": "2"}, active="soviet")
    step = act(state, "soviet", Assault(units="SPETS,KOVAL", to="2", target="INF"), [1, 1])
    assert "🎲 1+1 +4 ACM +1 Koval 9.9 = 7" in texts(step)[1]
    assert step.state.units["KOVAL"].area == "3"  # back with the failed attackers


def test_airstrike_adds_two_and_doubles_cost_the_attacker_a_hit_10_1() -> None:
    """10.1: +2 to the assault; doubles with an airstrike give the lead attacker a hit that
    cannot be negated by retreating."""
    state = game(STRIP, {"INF": "1", "VDV": "2"}, airstrike={"nato": True, "soviet": False},
                 standing=dict(NEVER))
    step = act(state, "nato", Assault(units="INF", to="2", target="VDV", air=True), [4, 4])
    assert "🎲 4+4 +3 ACM +2 air 10.1 = 13 vs DF 7 +1 TM = 8 → +5: three hits (7.3.5)" in texts(step)
    assert step.state.units["INF"].status == "suppressed" and not step.state.pending
    assert step.state.airstrike["nato"] is False  # once per turn


def test_the_lead_defenders_retreat_may_not_close_on_another_enemy_in_range_7_3_5_5() -> None:
    """7.3.5.5: "Retreats must increase the range from the target to the attacker, and cannot
    decrease the range to another enemy unit": VDV assaulted in 2 from 1 cannot go back to 1
    (the attackers' area, 7.3.5.2) nor to 3, nearer to INF3 in 5, whose fire reaches 3; it is
    told why, no question is put, and the hits land."""
    state = game(STRIP, {"INF": "1", "INF2": "1", "INF3": "5", "VDV": "2", "VDV2": "2"})
    step = act(state, "nato", Assault(units="INF,INF2", to="2", target="VDV"), [6, 5])  # 3 hits
    assert ("VDV cannot retreat to negate a hit: 1: the attackers may go back there (7.3.5.2); "
            "3: nearer to INF3 in 5, in its range (7.3.5.5)") in texts(step)
    assert step.state.units["VDV"].place == "gone"


def test_the_lead_defender_may_retreat_to_negate_one_assault_hit_7_3_5_5() -> None:
    """7.3.5.5: the target may retreat one area to negate one hit (its owner decides); it
    takes the rest where it went, then stacking decides for those left in the area."""
    state = game(STRIP, {"INF": "1", "INF2": "1", "VDV": "2", "VDV2": "2"})
    step = act(state, "nato", Assault(units="INF,INF2", to="2", target="VDV"), [6, 5])  # 3 hits
    assert step.waiting_on == ["soviet"] and step.state.pending[0].assault
    # Not 1: the attackers came from there and may go back (7.3.5.2).
    assert set(legal(step.state, "soviet")) == {TakeHits(), Retreat(to="3")}
    done = act(step.state, "soviet", Retreat(to="3"))
    vdv = done.state.units["VDV"]
    assert vdv.area == "3" and vdv.ap == 0 and vdv.status == "suppressed" and vdv.reduced
    assert "VDV retreats 2→3, one hit negated (7.3.5.5)" in texts(done)
    # 4 attacking SP against VDV2's 2: VDV2 must retreat too, and its owner says where (7.3.5.2).
    assert "VDV2 must retreat: to 1, 3? (7.3.5.2)" in texts(done)
    assert done.state.pending[0].kind == "withdraw" and set(legal(done.state, "soviet")) == {
        Retreat(to="3"), Retreat(to="1")}
    done = act(done.state, "soviet", Retreat(to="3"))
    assert "VDV2 retreats 2→3, AP 0 (7.3.5.2)" in texts(done)
    assert done.state.units["VDV2"].area == "3" and done.state.units["INF"].area == "2"
    assert done.snapshot and "Soviets have no order left: passed at once (7.0)" in texts(done)
    took = act(step.state, "soviet", TakeHits())
    assert took.state.units["VDV"].place == "gone"


def test_koval_adds_one_to_the_defence_too_9_9() -> None:
    """9.9: "any assault in which she participates": defending, she adds one to the TDF."""
    state = game(STRIP, {"INF": "1", "SPETS": "2", "KOVAL": "2"}, standing=dict(NEVER))
    step = act(state, "nato", Assault(units="INF", to="2", target="SPETS"), [1, 1])
    assert "vs DF 7 +1 TM +1 Koval 9.9 = 9" in texts(step)[1]


def test_a_leader_named_as_the_defender_is_told_the_rule_and_the_allowed_targets_9_9() -> None:
    """9.9 "Commissar Koval cannot be attacked directly" (so 9.7 Nikolas, 9.8 Boyes): naming
    the leader as the assault's defender (7.3.5 "as designated by the attacker") says which
    rule forbids it and which defenders the attacker may designate."""
    state = game(STRIP, {"INF": "1", "INF2": "1", "VDV": "2", "VDV2": "2", "KOVAL": "2"})
    with pytest.raises(RuleError) as refused:
        act(state, "nato", Assault(units="INF,INF2", to="2", target="KOVAL"))
    assert str(refused.value) == ("Commissar Koval cannot be attacked directly (9.9); the defenders you can "
                                  "designate in area 2: VDV, VDV2 (7.3.5).")
