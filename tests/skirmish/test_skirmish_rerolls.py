"""The CC's reroll of every Training Check (Leaders), with scripted dice: "once per
Initiative, they may allow a Unit to reroll a single Training Check. If the result of a failed
rerolled Training Check is that the Unit is removed from the table, the CC will be removed as
well."  Activation and Morale rerolls are in test_skirmish_game / test_skirmish_choices; here
the counter-attack check, each team's check in a fight, a Tank Assault check and a tank's Very
Difficult Terrain check."""

from __future__ import annotations

from rules.core.dice import ScriptedDice
from rules.skirmish import SYSTEM
from rules.skirmish.state import SkirmishState
from tests.skirmish.test_skirmish_game import _facing_off, go, new, park, put


def _assault(us: dict[str, str], germans: dict[str, str], fight: list[int]) -> SkirmishState:
    """1pl assaults gren (lined up 6" away, the defender holding its fire); ``fight``: the
    attackers' checks in team order lt sq1 sq2 sq3 bz (only lt has teams within 2")."""
    state = _facing_off(new([6, 1]))
    for i, team in enumerate(state.unit("gren").teams):
        put(state, team.id, 10 + 2 * i, 30)
    state.policies = {"us": dict(us), "germans": {"reaction": "no", **germans}}
    state, _ = go(state, "us", "activate", [6], unit="1pl")
    state, _ = go(state, "us", "action", kind="assault")
    state, _ = go(state, "us", "assault", fight, target="gren")
    return state


def _text(step) -> str:
    return " | ".join(e.text for e in step.events)


# -- Assaults: "each Team within 2" of an enemy makes a Training Check" ------------------------


def test_the_cc_may_let_a_team_reroll_its_failed_check_in_the_fight():
    # lt 6 passes; sq1 and sq2 fail (1): the Americans are asked which one the CC rerolls
    state = _assault({}, {"losses": "auto", "counter": "no", "follow": "no"}, [6, 1, 1, 1, 1])
    pending = state.pending
    assert pending.kind == "reroll" and pending.side == "us" and pending.check == "fight"
    failed = set(pending.options)
    offered = {c.value for c in SYSTEM.choices(state, "us", "decide", "teams", {"choice": "reroll"})}
    assert offered == failed and "sq1" in failed
    labels = {c.value: c.label for c in SYSTEM.choices(state, "us", "decide", "teams", {"choice": "reroll"})}
    assert labels["sq1"] == "sq1 rerolls its failed check (4+), your CC's reroll"
    assert {c.value for c in SYSTEM.choices(state, "us", "decide", "choice", {})} == {"reroll", "accept"}
    lost_before = [t.id for t in state.unit("gren").teams if not t.alive]
    state, step = go(state, "us", "decide", [6, 1], choice="reroll", teams="sq1")
    assert "CC reroll: sq1 Training Check 🎲6" in _text(step)
    lost = [t.id for t in state.unit("gren").teams if not t.alive]
    assert len(lost) == len(lost_before) + 2  # lt's and sq1's successes each remove a team
    assert state.cc_reroll_used == ["us"]


def test_accepting_the_failed_fight_checks_goes_on_to_the_losses():
    state = _assault({}, {}, [6, 1, 1, 1, 1])
    state, step = go(state, "us", "decide", choice="accept")
    assert state.pending.kind == "losses" and state.pending.side == "germans"
    assert "CC reroll" not in _text(step)


def test_a_standing_reroll_answer_and_once_per_initiative():
    # defaults reroll:yes: the first failed team rerolls without a question, once
    state = _assault({"reroll": "yes"}, {"losses": "auto", "counter": "no", "follow": "no"},
                     [6, 1, 1, 1, 1, 1])
    assert state.pending is None or state.pending.kind != "reroll"
    assert "us" in state.cc_reroll_used
    state = _assault({"reroll": "no"}, {}, [6, 1, 1, 1, 1])
    assert state.pending.kind == "losses" and not state.cc_reroll_used


def test_no_reroll_without_the_cc_on_the_table():
    state = _facing_off(new([6, 1]))
    state.team("cpt").alive = False
    for i, team in enumerate(state.unit("gren").teams):
        put(state, team.id, 10 + 2 * i, 30)
    state.policies = {"germans": {"reaction": "no"}}
    state, _ = go(state, "us", "activate", [6], unit="1pl")
    state, _ = go(state, "us", "action", kind="assault")
    state, _ = go(state, "us", "assault", [6, 1, 1, 1, 1], target="gren")
    assert state.pending.kind == "losses"


def test_a_tank_assault_check_may_be_rerolled():
    # Assaults: "Infantry and Gun Teams roll a number of Training Checks equal to their Tank
    # Assault rating" — each one a Training Check the CC may let the unit reroll
    state = new([1, 6])
    park(state)
    put(state, "sherman", 20, 20, facing=270)
    put(state, "g1", 20, 24)
    state.policies = {"us": {"reaction": "no"}}
    state, _ = go(state, "germans", "activate", [6], unit="gren")
    state, _ = go(state, "germans", "action", kind="assault")
    # g1's two Tank Assault checks fail (1, 1): asked once
    state, step = go(state, "germans", "assault", [1, 1], target="tank")
    assert state.pending.kind == "reroll" and state.pending.options == ["g1"]
    # the reroll 4 passes; armour save 2 fails (3+); damage 5 +1 from behind = destroyed
    state, step = go(state, "germans", "decide", [4, 2, 5], choice="reroll")
    assert "CC reroll: g1 tank assault" in _text(step) and not state.team("sherman").alive


# -- Assaults: "To counter attack, the Unit must make a successful Training Check" -----------


def test_a_failed_counter_attack_check_may_be_rerolled():
    state = _assault({"reroll": "no"}, {"losses": "auto"}, [6, 1, 1, 1, 1])
    assert state.pending.kind == "assault-choice"
    state, step = go(state, "germans", "decide", [2], choice="counter")  # 2 vs 4+: failed
    assert state.pending.kind == "reroll" and state.pending.check == "counter"
    assert state.pending.side == "germans"
    # the reroll 5 passes: the counter-attack goes in (the Americans asked nothing more: fail)
    state, step = go(state, "germans", "decide", [5], default=1, choice="reroll")
    text = _text(step)
    assert "CC reroll: gren Training Check 🎲5" in text and "it counter-attacks" in text
    assert "breaks off" not in text


def test_a_failed_counter_attack_reroll_breaks_off_and_a_unit_lost_takes_the_cc():
    # "If the result of a failed rerolled Training Check is that the Unit is removed from the
    # table, the CC will be removed as well": broken off 1", followed 6": all caught
    state = _assault({"reroll": "no", "follow": "yes"}, {"losses": "auto"}, [6, 1, 1, 1, 1])
    state, _ = go(state, "germans", "decide", [2], choice="counter")
    state, step = go(state, "germans", "decide", [3, 1, 6], choice="reroll")
    text = _text(step)
    assert "must break off" in text
    assert not state.unit("gren").on_table and not state.team("hptm").alive
    assert "hptm, the CC who allowed the reroll, is removed" in text


def test_a_standing_answer_rerolls_the_counter_attack_check():
    state = _assault({"reroll": "no"}, {"losses": "auto", "reroll": "yes"}, [6, 1, 1, 1, 1])
    state, step = go(state, "germans", "decide", [2, 5], default=1, choice="counter")
    assert "CC reroll: gren" in _text(step) and "germans" in state.cc_reroll_used


# -- Moving: "a Training Check when moving through Very Difficult Terrain" --------------------


def _bogged(policy: dict[str, str], **order: str) -> tuple[SkirmishState, object]:
    """The Sherman drives north through the west bocage (Very Difficult) and fails (3)."""
    state = SYSTEM.setup("hedgerow_village", None, ScriptedDice([6, 1])).state
    park(state)
    put(state, "sherman", 10, 36, facing=270)
    state.policies = {"us": dict(policy), "germans": {"reaction": "no"}}
    state, _ = go(state, "us", "activate", [6], unit="tank")
    state, _ = go(state, "us", "action", kind="move")
    return go(state, "us", "move", [3], who="sherman", to="10,27", **order)


def test_a_tanks_failed_terrain_check_may_be_rerolled_and_it_drives_on():
    state, step = _bogged({})
    assert state.pending.kind == "reroll" and state.pending.check == "terrain"
    assert state.pending.side == "us" and step.waiting_on == ["us"]
    assert state.team("sherman").suppression == 1 and state.team("sherman").y > 27
    state, step = go(state, "us", "decide", [5], choice="reroll")
    assert "CC reroll: sherman Training Check 🎲5" in _text(step)
    tank = state.team("sherman")
    assert tank.pos == (10, 27) and tank.suppression == 0 and state.pending is None
    assert state.phase == "orders" and state.active == "tank"


def test_a_failed_terrain_reroll_leaves_the_tank_suppressed_at_the_edge():
    state, step = _bogged({})
    stop = state.team("sherman").pos
    state, step = go(state, "us", "decide", [2], choice="reroll")
    assert state.team("sherman").pos == stop and state.team("sherman").suppression == 1
    assert state.pending is None and state.phase == "orders"


def test_a_standing_answer_rerolls_the_terrain_check():
    state, step = _bogged({"reroll": "yes"}, turret="E")  # the reroll is the default 4: passes
    tank = state.team("sherman")
    assert state.pending is None and tank.pos == (10, 27)
    assert tank.facing == 270 and tank.turret == 0  # as ordered: hull north, turret east
    assert "CC reroll" in _text(step) and "us" in state.cc_reroll_used
