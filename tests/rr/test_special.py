"""Special units (9.2 sniper, 9.7 Col. Nikolas, 9.8 Pvt. Boyes, 9.10 German HQ) and air
(10.1 airstrike on its own and with a mortar, 10.2 placing the Hind)."""

from __future__ import annotations

import re

import pytest

from rules.core.answers import answer_label
from rules.core.errors import RuleError
from rules.rr import SYSTEM
from rules.rr.actions import Airstrike, Boyes, Fire, Hind, Hq, Move, Nikolas, Sniper
from tests.rr.helpers import act, board, game, legal, spec, texts

UNITS = [
    spec("DE1"), spec("DE2", ap=3), spec("HQ", kind="hq", special="hq", stacking=0, acm=None,
                                         morale=9, df=5, one_step=True),
    spec("US1", nation="us"), spec("MORT", nation="us", kind="mortar", stacking=1, acm=None),
    spec("BOYES", nation="us", kind="leader", special="boyes", stacking=0, acm=None, ap=2),
    spec("SNIPER", nation="us", kind="sniper", special="sniper", stacking=0, acm=None, ap=1),
    spec("VDV", "soviet", special="vdv"), spec("VDV2", "soviet", special="vdv"),
    spec("NIK", "soviet", kind="leader", special="nikolas", stacking=0, acm=None, ap=2),
    spec("SMORT", "soviet", kind="mortar", stacking=1, acm=None),
    spec("HIND", "soviet", kind="hind", special="hind", stacking=0, vehicle=True, acm=None,
         rcm=3, df=8, ap=2, one_step=True),
]
STRIP = board("x-strip", 6, 1, UNITS, tm={"3": 1}, city=("3", "4"))
NEVER = {"nato": "never", "soviet": "never"}


def test_sniper_suppresses_on_1_to_4_once_a_turn_and_is_lost_on_5_6_9_2() -> None:
    """9.2: a unit in Tannenbruck; 1-4 Suppressed (no retreat), 5-6 the sniper is removed;
    +2 from the second use; once per turn; never the Hind."""
    state = game(STRIP, {"DE1": "1", "VDV": "3", "HIND": "5"})
    step = act(state, "nato", Sniper(target="VDV"), [4])
    assert "🎲 4 = 4: VDV Suppressed, no retreat (9.2)" in texts(step)
    assert step.state.units["VDV"].status == "suppressed" and not step.state.pending
    again = step.state.model_copy(update={"active": "nato"}, deep=True)
    with pytest.raises(RuleError, match="once per turn"):
        act(again, "nato", Sniper(target="VDV"))
    with pytest.raises(RuleError, match="not in it"):
        act(game(STRIP, {"DE1": "1", "VDV": "2"}), "nato", Sniper(target="VDV"))
    with pytest.raises(RuleError, match="Hind"):
        act(state, "nato", Sniper(target="HIND"))
    second = game(STRIP, {"DE1": "1", "VDV": "3"}, sniper_uses=1, turn=2)
    step = act(second, "nato", Sniper(target="VDV"), [3])
    assert "🎲 3 +2 reuse = 5: the sniper is lost (9.2)" in texts(step)
    assert step.state.units["SNIPER"].place == "gone" and step.state.units["VDV"].status == "ok"


def test_nikolas_raises_a_value_for_its_next_use_9_7() -> None:
    """9.7: 1 AP: +1 to any value of a unit in his area, a mortar's range included."""
    state = game(STRIP, {"SMORT": "6", "NIK": "6", "VDV": "6", "DE1": "3"}, active="soviet",
                 standing=dict(NEVER))
    with pytest.raises(RuleError, match=re.escape(  # 3 areas away; 9.7 offers the +1
            "area 3 is 3 away; mortars reach 2 and never further (9.1); Col. Nikolas in its area can "
            "add 1 to its range first: /rr nikolas unit:SMORT value:range (9.7)")):
        act(state, "soviet", Fire(unit="SMORT", target="DE1"))
    step = act(state, "soviet", Nikolas(unit="SMORT", value="range"))
    assert step.state.units["NIK"].ap == 1
    ready = step.state.model_copy(update={"active": "soviet"}, deep=True)
    fired = act(ready, "soviet", Fire(unit="SMORT", target="DE1"), [1, 1])
    assert fired.state.units["SMORT"].boost == []
    assert "SMORT fires on area 3 (range 3, Col. Nikolas's +1 range 9.7)" in texts(fired)
    boosted = act(state, "soviet", Nikolas(unit="VDV", value="rcm")).state
    boosted.active = "soviet"
    shot = act(boosted, "soviet", Fire(unit="VDV", target="DE1"), [1, 1])
    assert "+2 RCM +1 Nikolas =" in texts(shot)[1]  # RCM 2 +1, and range 3 without the extended -1
    with pytest.raises(RuleError, match="his area"):
        act(state, "soviet", Nikolas(unit="VDV2", value="df"))


def test_nikolas_helping_a_unit_of_his_area_uses_no_impulse_7_0_7_1_9_7() -> None:
    """7.0 "players alternate activating areas on the map containing their units to move or
    fire": Col. Nikolas's AP (9.7, "add one to any value of a unit in his area, including a
    mortar's range") moves and fires nothing, so the impulse stays with the Soviets and the
    mortar fires in it; 7.1 "A unit may spend no more than one AP in an impulse": one help."""
    state = game(STRIP, {"SMORT": "6", "NIK": "6", "VDV": "6", "DE1": "3"}, active="soviet",
                 standing=dict(NEVER))
    step = act(state, "soviet", Nikolas(unit="SMORT", value="range"))
    assert step.state.active == "soviet" and "the impulse goes on" in texts(step)[0]
    assert Nikolas(unit="VDV", value="rcm") not in legal(step.state, "soviet")
    with pytest.raises(RuleError, match=r"no more than one AP in an impulse \(7.1\)"):
        act(step.state, "soviet", Nikolas(unit="VDV", value="rcm"))
    fired = act(step.state, "soviet", Fire(unit="SMORT", target="DE1"), [1, 1])
    assert fired.state.active == "nato" and not fired.state.nikolas_spent
    back = fired.state.model_copy(update={"active": "soviet"}, deep=True)
    assert Nikolas(unit="VDV", value="rcm") in legal(back, "soviet")  # a new impulse, his last AP


def test_boyes_lets_a_unit_reroll_one_die_9_8() -> None:
    """9.8: 1 AP: a unit in his area may reroll one die of its next (failed) roll."""
    state = game(STRIP, {"US1": "1", "BOYES": "1", "VDV": "3"}, standing=dict(NEVER))
    step = act(state, "nato", Boyes(unit="US1"))
    assert step.state.units["BOYES"].ap == 1 and step.state.units["US1"].reroll
    ready = step.state.model_copy(update={"active": "nato"}, deep=True)
    shot = act(ready, "nato", Fire(unit="US1", target="VDV"), [1, 2, 6])  # 1 rerolled to 6
    assert "🎲 6+2 +2 RCM = 10 vs DF 7 +1 TM = 8 → +2: one hit (7.3.3), Boyes 1→6 9.8" in texts(shot)
    assert not shot.state.units["US1"].reroll


def test_german_hq_gives_an_ap_once_a_turn_and_lends_its_morale_9_10() -> None:
    """9.10: once a turn, 1 AP of the HQ: +1 AP to a unit in or next to its area; units in
    its area use its morale."""
    state = game(STRIP, {"HQ": "1", "DE1": "2", "VDV": "6"})
    state.units["DE1"].ap = 1
    step = act(state, "nato", Hq(unit="DE1"))
    assert step.state.units["DE1"].ap == 2 and step.state.units["HQ"].ap == 2
    again = step.state.model_copy(update={"active": "nato"}, deep=True)
    with pytest.raises(RuleError, match="this turn already"):
        act(again, "nato", Hq(unit="DE1"))
    full = game(STRIP, {"HQ": "1", "DE1": "2", "VDV": "6"})
    with pytest.raises(RuleError, match="all its AP"):
        act(full, "nato", Hq(unit="DE1"))
    from rules.rr.board import Board

    b = Board(game(STRIP, {"HQ": "1", "DE1": "1", "DE2": "2"}))
    assert b.morale("DE1") == 9 and b.morale("DE2") == 7


def test_the_german_hq_helps_any_unit_near_it_a_us_one_too_and_its_help_says_so_9_10() -> None:
    """9.10 "give any unit in its, or an adjacent area, an action point": a US unit next to
    the HQ gets it, and /game help order:hq does not narrow it to German units."""
    from bot.replies import help_text

    state = game(STRIP, {"HQ": "1", "US1": "2", "VDV": "6"})
    state.units["US1"].ap = 1
    assert act(state, "nato", Hq(unit="US1")).state.units["US1"].ap == 2
    said = help_text(SYSTEM, "hq")
    assert "any NATO unit in or next to the HQ's area (9.10)" in said and "German unit" not in said


def test_airstrike_alone_attacks_an_area_10_1() -> None:
    """10.1: "Airstrikes may also be used separately to attack any area containing enemy
    units": one roll at +2 against each enemy unit of the area; once per turn."""
    state = game(STRIP, {"DE1": "1", "VDV": "3", "VDV2": "3"}, airstrike={"nato": True, "soviet": False},
                 standing=dict(NEVER))
    step = act(state, "nato", Airstrike(area="3"), [4, 3, 1, 1])
    assert "VDV: 🎲 4+3 +2 air = 9 vs DF 7 +1 TM = 8 → +1: one hit (10.1)" in texts(step)
    assert "VDV2: 🎲 1+1 +2 air = 4 vs DF 7 +1 TM = 8 → -4: no effect (10.1)" in texts(step)
    assert step.state.units["VDV"].status == "suppressed" and step.state.units["VDV2"].status == "ok"
    assert step.state.airstrike["nato"] is False
    with pytest.raises(RuleError, match="no airstrike"):
        act(step.state.model_copy(update={"active": "nato"}), "nato", Airstrike(area="3"))
    with pytest.raises(RuleError, match="no enemy unit"):
        act(state, "nato", Airstrike(area="2"))


def test_airstrike_with_a_mortar_adds_two_to_one_roll_10_1() -> None:
    """10.1: with a mortar the airstrike adds two to a single die roll: the named target's."""
    state = game(STRIP, {"MORT": "1", "VDV": "3", "VDV2": "3"}, standing=dict(NEVER),
                 airstrike={"nato": True, "soviet": False})
    step = act(state, "nato", Fire(unit="MORT", target="VDV2", air=True), [1, 1, 1, 1])
    rolls = [e.text for e in step.events if e.kind == "roll"]
    assert "+2 air 10.1" in rolls[0] and "air" not in rolls[1]


def test_hind_placed_in_a_non_enemy_area_and_not_with_nato_air_10_2() -> None:
    """10.2: placed during a friendly impulse in an area without enemies; not on a turn when
    NATO has an airstrike."""
    state = game(STRIP, {"DE1": "1", "VDV": "6"}, active="soviet", hind_ok=True)
    with pytest.raises(RuleError, match="non-enemy"):
        act(state, "soviet", Hind(area="1"))
    step = act(state, "soviet", Hind(area="3"))
    assert step.state.units["HIND"].area == "3" and step.state.units["HIND"].ap == 2
    with pytest.raises(RuleError, match="NATO has an airstrike this turn"):  # NATO's 1 <= turn
        act(state.model_copy(update={"hind_ok": False, "init_rolls": {"nato": 1, "soviet": 6}}),
            "soviet", Hind(area="3"))
    with pytest.raises(RuleError, match="it was Suppressed this turn"):  # NATO's 6 > turn: no air
        act(state.model_copy(update={"hind_ok": False, "init_rolls": {"nato": 6, "soviet": 6}}),
            "soviet", Hind(area="3"))
    # It only fires: it never moves.
    flying = step.state.model_copy(update={"active": "soviet"}, deep=True)
    with pytest.raises(RuleError, match="cannot move"):
        act(flying, "soviet", Move(units="HIND", to="4"))


def test_10_2_the_hind_fires_at_enemies_that_came_into_its_area() -> None:
    """5.1 / 10.2: should NATO units come to share the Hind's area (winning an assault on the
    Soviet ground units there), the Hind "may only use its action points to conduct ranged
    combat" and is not blinded: it fires at them at range 0, and they at it."""
    state = game(STRIP, {"DE1": "3", "HIND": "3", "VDV": "5"}, active="soviet", standing=dict(
        nato="never", soviet="never"))
    step = act(state, "soviet", Fire(unit="HIND", target="DE1"), [3, 3])
    assert "HIND fires on DE1 in 3 (range 0)" in texts(step)
    back = step.state.model_copy(update={"active": "nato"}, deep=True)
    back.units["DE2"].place, back.units["DE2"].area, back.units["DE2"].ap = "map", "3", 3
    step = act(back, "nato", Fire(unit="DE2", target="HIND"), [1, 1])
    assert "DE2 fires on HIND in 3 (range 0)" in texts(step)


def test_a_suppressed_hind_is_told_it_was_shot_off_not_that_it_flew_10_2() -> None:
    """10.2: "Remove the Hind from the game map if it is Suppressed.  It will return normally
    the following turn": firing, coming back or moving, the Hind is told the true cause."""
    state = game(STRIP, {"DE1": "3", "VDV": "6"}, active="soviet", hind_ok=True,
                 standing=dict(NEVER), init_rolls={"nato": 6, "soviet": 6})
    over = act(state, "soviet", Hind(area="4")).state.model_copy(update={"active": "nato"}, deep=True)
    shot = act(over, "nato", Fire(unit="DE1", target="HIND"), [4, 4])
    assert "HIND suppressed: off the map until next turn (7.3.3, 10.2)" in texts(shot)
    after = shot.state.model_copy(update={"active": "soviet"}, deep=True)
    told = re.escape("it was Suppressed this turn and left the map; it returns next turn (10.2)")
    with pytest.raises(RuleError, match=f"HIND cannot fire: {told}"):
        act(after, "soviet", Fire(unit="HIND", target="DE1"))
    with pytest.raises(RuleError, match=f"The Hind cannot come in: {told}"):
        act(after, "soviet", Hind(area="4"))
    # 10.2: off the map it is not a reinforcement (11.0): it never moves at all.
    with pytest.raises(RuleError, match=r"HIND cannot move: the Hind never moves; .* only fires \(10.2\)"):
        act(after, "soviet", Move(units="HIND", to="5"))


def test_a_hit_hind_is_told_why_it_cannot_retreat_7_3_3_10_2() -> None:
    """7.3.3 "The target may choose to retreat one area ... Such retreats use all of the
    retreating unit's action points"; 10.2 the Hind "may only use its action points to conduct
    ranged combat": no retreat is offered, and the reply says why before the hits land."""
    state = game(STRIP, {"DE1": "3", "VDV": "6"}, active="soviet", hind_ok=True,
                 init_rolls={"nato": 6, "soviet": 6})
    over = act(state, "soviet", Hind(area="4")).state.model_copy(update={"active": "nato"}, deep=True)
    shot = act(over, "nato", Fire(unit="DE1", target="HIND"), [6, 5])  # 11 +2 = 13 vs 8: two hits
    said = texts(shot)
    assert ("HIND cannot retreat to negate a hit: the Hind uses its action points only to fire (10.2), "
            "and a retreat uses them all (7.3.3)") in said
    assert not shot.state.pending and shot.state.units["HIND"].place == "gone"


def test_a_second_airstrike_is_refused_as_once_per_turn_10_1() -> None:
    """10.1: "Airstrikes may be used once per turn": the second call is told it was used,
    not that there was none; a side without one is told the roll it needed."""
    state = game(STRIP, {"DE1": "1", "US1": "2", "VDV": "3", "VDV2": "3"}, standing=dict(NEVER),
                 airstrike={"nato": True, "soviet": False}, init_rolls={"nato": 1, "soviet": 1})
    step = act(state, "nato", Airstrike(area="3"), [1, 1, 1, 1])
    again = step.state.model_copy(update={"active": "nato"}, deep=True)
    used = r"NATO has used this turn's airstrike already; it may be used once per turn \(10.1\)"
    with pytest.raises(RuleError, match=f"No airstrike: {used}"):
        act(again, "nato", Airstrike(area="3"))
    with pytest.raises(RuleError, match=f"No airstrike for this attack: {used}"):
        act(again, "nato", Fire(unit="US1", target="VDV", air=True))
    none = state.model_copy(update={"airstrike": {"nato": False, "soviet": True},
                                    "init_rolls": {"nato": 6, "soviet": 1}}, deep=True)
    with pytest.raises(RuleError, match=r"NATO has no airstrike this turn: it comes with an "
                                        r"initiative roll of 1 or less on turn 1; the roll was 6"):
        act(none, "nato", Airstrike(area="3"))


def test_a_reinforcement_not_yet_in_is_told_to_enter_11_0() -> None:
    """11.0: a unit still off the map comes in with enter or place, not move."""
    state = game(STRIP, {"DE1": "1", "VDV": "6"})
    with pytest.raises(RuleError, match=r"DE2 cannot move: it is not on the map yet; a "
                                        r"reinforcement comes in with enter or place \(11.0\)"):
        act(state, "nato", Move(units="DE2", to="2"))


def test_yes_no_options_and_the_hq_read_as_words_in_an_answer_10_1_9_10() -> None:
    """Issue 40: an answer reads "with the airstrike, +2 (10.1)", not "air true"; the HQ's
    one-word order says what it gives (9.10)."""
    state = game(STRIP, {"US1": "2", "HQ": "2", "DE1": "2", "VDV": "3"},
                 airstrike={"nato": True, "soviet": False})
    fire = answer_label(SYSTEM, state, "nato", Fire(unit="US1", target="VDV", air=True))
    assert "with the airstrike, +2 (10.1)" in fire and "air true" not in fire
    hq = answer_label(SYSTEM, state, "nato", Hq(unit="DE1"))
    assert hq.startswith("HQ: DE1 (") and hq.endswith("gets 1 AP from the German HQ (9.10)"), hq
