"""The players' choices inside an assault and at the end of the turn (scripted dice, by
heading): which teams an assault removes (Assaults), following a break-off (Assaults), the
CC's reroll of a Morale check and his removal with the unit (Leaders; Morale)."""

from __future__ import annotations

import pytest

from rules.core.errors import RuleError
from rules.skirmish import SYSTEM, losses
from rules.skirmish.losses import Claim
from rules.skirmish.state import SkirmishState
from tests.skirmish.test_skirmish_game import _facing_off, go, new, put


# -- Assaults: "removing an enemy Team within 2" of the assaulting Team" -----------------------


def test_each_success_removes_a_different_team_within_its_own_2_inches():
    # Assaults: each success removes "an enemy Team within 2" of the assaulting Team"
    two_on_one = [Claim(striker="sq1", within=["g1"]), Claim(striker="sq2", within=["g1"])]
    assert losses.removals(two_on_one) == 1  # g1 cannot be removed twice
    crossed = [Claim(striker="sq1", within=["g1", "g2"]), Claim(striker="sq2", within=["g1"])]
    assert losses.removals(crossed) == 2
    assert losses.valid(crossed, ["g2", "g1"]) and not losses.valid(crossed, ["g1"])
    assert not losses.has_choice(crossed)  # only {g1, g2} is possible
    # the standing choice keeps g1 if it can, but not when that would lose a removal
    assert sorted(losses.default_pick(crossed, ["g1", "g2"])) == ["g1", "g2"]
    wide = [Claim(striker="sq1", within=["g1", "g2", "g3"])]
    assert losses.has_choice(wide) and len(losses.choices(wide, ["g3", "g2", "g1"])) == 3
    assert losses.default_pick(wide, ["g3", "g2", "g1"]) == ["g3"]


def _landed(policies: dict[str, str] | None = None, said: list[str] | None = None) -> SkirmishState:
    """1pl assaults gren; the defender holds; only lt passes, with ltn and g1 within 2" (the
    Americans' CC allows no reroll of the failed checks).  ``said`` collects the events."""
    state = _facing_off(new([6, 1]))
    state.policies["us"] = {"reroll": "no"}
    for i, team in enumerate(state.unit("gren").teams):
        put(state, team.id, 10 + 2 * i, 30)
    if policies:
        state.policies["germans"] = dict(policies)
    state, _ = go(state, "us", "activate", [6], unit="1pl")
    state, _ = go(state, "us", "action", kind="assault")
    state, step = go(state, "us", "assault", [6, 1, 1, 1, 1], target="gren")
    if state.pending and state.pending.kind == "assault-fire":
        state, step = go(state, "germans", "decide", [6, 1, 1, 1, 1], choice="hold")
    (said if said is not None else []).extend(e.text for e in step.events)
    return state


def test_the_owner_chooses_which_team_an_assault_removes():
    # Assaults, with the "hit allocation choices ... asked of that player"
    said: list[str] = []
    state = _landed(said=said)
    assert state.pending.kind == "losses" and state.pending.side == "germans"
    assert ("gren loses 1 of ltn, g1 (teams within 2\" of a team that passed): "
            "decide choice:remove teams:ltn; decide choice:remove teams:g1 (Assaults)") in "\n".join(said)
    offered = SYSTEM.choices(state, "germans", "decide", "teams", {"choice": "remove"})
    assert sorted(c.value for c in offered) == ["g1", "ltn"]
    assert any("PL" in c.label for c in offered)
    before = state.model_dump_json()
    with pytest.raises(RuleError, match="Name 1 different team of ltn, g1"):
        go(state, "germans", "decide", choice="remove", teams="g3")  # not within 2" of lt
    with pytest.raises(RuleError, match="Name 1"):
        go(state, "germans", "decide", choice="remove", teams="g1 ltn")  # one success: one team
    assert state.model_dump_json() == before
    with pytest.raises(RuleError, match="not your turn"):
        go(state, "us", "decide", choice="remove", teams="g1")
    state, step = go(state, "germans", "decide", choice="remove", teams="ltn")
    assert not state.team("ltn").alive and state.team("g1").alive
    assert "gren loses ltn (owner's choice)" in " | ".join(e.text for e in step.events)
    assert state.pending.kind == "assault-choice"


def test_a_standing_choice_of_losses_protects_the_named_teams():
    # defaults losses:auto protect:ltn: no question, the PL is kept while another team may go
    state = _landed({"losses": "auto", "protect": "ltn", "reaction": "no"})
    assert state.pending.kind == "assault-choice"
    assert state.team("ltn").alive and not state.team("g1").alive
    state = _landed({"losses": "auto", "reaction": "no"})
    assert not state.team("ltn").alive  # nearest first without the protect list


def test_the_defaults_order_sets_the_new_standing_answers():
    state = new([6, 1])
    state, step = go(state, "germans", "defaults", losses="auto", follow="no", morale="yes")
    assert state.policies["germans"] == {"losses": "auto", "follow": "no", "morale": "yes"}
    assert "follow no, losses auto, allocate auto, morale yes" in step.events[0].text


# -- Assaults: "The attacking Unit then may move 1d6"" ---------------------------------------


def _breaking(follow: str) -> SkirmishState:
    state = _landed({"losses": "auto", "reaction": "no"})
    if follow != "ask":
        state.policies["us"]["follow"] = follow
    return state


def test_the_attacker_is_asked_whether_to_follow_a_break_off():
    state = _landed({"losses": "auto", "reaction": "no"})
    state, step = go(state, "germans", "decide", [6], choice="break")  # 6" away: none caught
    assert state.pending.kind == "follow" and step.waiting_on == ["us"]
    offered = {c.value for c in SYSTEM.choices(state, "us", "decide", "choice", {})}
    assert offered == {"follow", "stay"}
    held = state.model_copy(deep=True)
    state, step = go(state, "us", "decide", [6], choice="follow")
    text = " | ".join(e.text for e in step.events)
    assert "1pl follows 🎲6\"" in text and state.assault is None
    caught = [t for t in state.unit("gren").teams if not t.alive]
    assert len(caught) > 1  # followed 6": breaking teams within 2" are destroyed
    state, step = go(held, "us", "decide", [6], choice="stay")
    text = " | ".join(e.text for e in step.events)
    assert "1pl stays where it is" in text and "follows" not in text
    assert [t.id for t in state.unit("gren").teams if not t.alive] == ["ltn"]


def test_a_standing_answer_follows_or_stays_without_asking():
    state = _breaking("no")
    state, step = go(state, "germans", "decide", [6], choice="break")
    assert state.assault is None and "stays where it is" in " | ".join(e.text for e in step.events)
    state = _breaking("yes")
    state, step = go(state, "germans", "decide", [6, 6], choice="break")
    assert state.assault is None and "follows" in " | ".join(e.text for e in step.events)


# -- Leaders: the CC's reroll of a Morale check, and his removal with the unit ----------------


def _morale_due(policy: str | None = None) -> SkirmishState:
    """Every unit has acted but 1pl; gren is down to 2 of 5 teams this turn."""
    state = new([6, 1])
    for unit in state.units:
        unit.activated = unit.id != "1pl"
    gren = state.unit("gren")
    for team in gren.teams[2:]:
        team.alive = False
    gren.casualties_turn = 3
    if policy:
        state.policies["germans"] = {"morale": policy}
    state, _ = go(state, "us", "activate", [6], unit="1pl")
    return state


def test_the_cc_may_reroll_a_failed_morale_check_asked_of_its_player():
    # Leaders: "once per Initiative, they may allow a Unit to reroll a single Training Check"
    state = _morale_due()
    state, step = go(state, "us", "action", [3], kind="overwatch")  # Morale 3 vs 4+: failed
    assert state.pending.kind == "morale" and step.waiting_on == ["germans"]
    assert {c.value for c in SYSTEM.choices(state, "germans", "decide", "choice", {})} == {"reroll", "accept"}
    state, step = go(state, "germans", "decide", [5, 6, 1], choice="reroll")
    assert state.unit("gren").on_table and state.team("hptm").alive
    text = " | ".join(e.text for e in step.events)
    assert "CC reroll: gren" in text and "stays to fight" in text and state.turn == 2


def test_a_failed_reroll_removes_the_cc_with_the_unit():
    # Leaders: "If the result of a failed rerolled Training Check is that the Unit is removed
    # from the table, the CC will be removed as well."
    state = _morale_due()
    state, _ = go(state, "us", "action", [3], kind="overwatch")
    state, step = go(state, "germans", "decide", [2, 6, 1], choice="reroll")
    assert not state.unit("gren").on_table and not state.team("hptm").alive
    assert "hptm, the CC who allowed the reroll, is removed" in " | ".join(e.text for e in step.events)


def test_accepting_the_failed_morale_check_keeps_the_cc():
    state = _morale_due()
    state, _ = go(state, "us", "action", [3], kind="overwatch")
    state, step = go(state, "germans", "decide", [6, 1], choice="accept")
    assert not state.unit("gren").on_table and state.team("hptm").alive and state.turn == 2


def test_standing_morale_answers_and_one_reroll_per_end_of_turn():
    state = _morale_due("yes")
    mortars = state.unit("mortars")
    for team in mortars.teams[:3]:
        team.alive = False
    mortars.casualties_turn = 3
    # gren 3 fails, the CC's reroll 4 passes; mortars 2 fails: the reroll is spent
    state, step = go(state, "us", "action", [3, 4, 2, 6, 1], kind="overwatch")
    assert state.pending is None and state.unit("gren").on_table and state.turn == 2
    assert not state.unit("mortars").on_table and state.team("hptm").alive
    state = _morale_due("no")
    state, step = go(state, "us", "action", [3, 6, 1], kind="overwatch")
    assert not state.unit("gren").on_table and state.team("hptm").alive


def test_no_reroll_is_offered_without_the_cc_on_the_table():
    state = _morale_due()
    state.team("hptm").alive = False
    state, step = go(state, "us", "action", [3, 6, 1], kind="overwatch")
    assert state.pending is None and not state.unit("gren").on_table


# -- Firing: "A tank's turret follows these same rules" ---------------------------------------


def test_a_move_turns_a_tanks_turret_on_its_own():
    # Firing: "All other Teams may only fire within their forward 180° arc ... To fire outside
    # this arc would first require a Move action to rotate the firing Team. A tank's turret
    # follows these same rules."
    from tests.skirmish.helpers import park

    state = new([6, 1])
    park(state)
    put(state, "sherman", 20, 20, facing=270)  # hull and turret north
    put(state, "pak40", 20, 32, facing=270)  # due south of it
    state.policies["germans"] = {"ground": "no", "reaction": "no"}
    state, _ = go(state, "us", "activate", [6], unit="tank")
    state, _ = go(state, "us", "action", kind="move-and-fire")
    with pytest.raises(RuleError, match="arc"):
        go(state, "us", "fire", target="pak")
    with pytest.raises(RuleError, match="heading"):
        go(state, "us", "move", who="sherman", to="sherman", turret="sideways")
    state, step = go(state, "us", "move", who="sherman", to="sherman", turret="S")
    sherman = state.team("sherman")
    assert "turret S" in step.events[0].text
    assert sherman.facing == 270 and sherman.turret == 90  # the hull still faces north
    state, step = go(state, "us", "fire", default=1, target="pak")
    assert any(e.kind == "fire" and "+1 moved" in e.text for e in step.events)


def test_only_tanks_have_a_turret_to_turn():
    state = new([1, 6])
    state, _ = go(state, "germans", "activate", [6], unit="pak")
    state, _ = go(state, "germans", "action", kind="move")
    before = state.model_dump_json()
    with pytest.raises(RuleError, match="Only Tank teams have a turret"):
        go(state, "germans", "move", who="pak40", to="pak40", turret="N")
    assert state.model_dump_json() == before


# -- Overwatch: "may Fire at an enemy Unit moving through their field of fire" ----------------


def _overwatch_across_smoke(on_overwatch: bool) -> SkirmishState:
    """gren on Overwatch watches open ground; sq1 crosses it into smoke, out of sight."""
    from rules.skirmish.state import Smoke
    from tests.skirmish.helpers import park

    state = new([6, 1])
    park(state)
    for i, team in enumerate(state.unit("1pl").teams):
        put(state, team.id, 18 - 2 * i, 27)
    put(state, "sq1", 18, 24)
    for i, team in enumerate(state.unit("gren").teams):
        put(state, team.id, 16 + 2 * i, 10)
    state.unit("gren").overwatch = on_overwatch
    state.unit("gren").activated = True
    state.smoke.append(Smoke(corners=[(23, 21), (29, 21), (29, 27), (23, 27)], turn=1, unit="mortars"))
    return state


def test_overwatch_fires_at_a_team_moving_through_its_field_of_fire():
    state = _overwatch_across_smoke(True)
    state, _ = go(state, "us", "activate", [6], unit="1pl")
    state, _ = go(state, "us", "action", kind="move")
    state, step = go(state, "us", "move", who="sq1", to="23.5,24")
    assert state.pending.kind == "react" and state.pending.options == ["gren"]
    state, step = go(state, "germans", "decide", [1] * 30, choice="fire", unit="gren")
    text = " | ".join(e.text for e in step.events)
    assert "sq1 is fired on where it crossed the field of fire, 18.0,24.0 (Overwatch)" in text
    fire = [e for e in step.events if e.kind == "fire"]
    assert fire and not any("reaction" in e.text for e in fire)  # Overwatch: no +1
    assert state.team("sq1").pos == (23.5, 24.0) and not state.unit("gren").overwatch


def test_without_overwatch_a_team_out_of_sight_and_8_inches_draws_no_fire():
    state = _overwatch_across_smoke(False)
    state, _ = go(state, "us", "activate", [6], unit="1pl")
    state, _ = go(state, "us", "action", kind="move")
    state, step = go(state, "us", "move", who="sq1", to="23.5,24")
    assert state.pending is None and not any(e.kind == "fire" for e in step.events)


# -- Firing: "the target Unit must allocate one die to a Team" -------------------------------


def _gren_within_range_of_sq1() -> SkirmishState:
    """Facing off, every grenadier team within sq1's 12" ("within range ... of at least one
    firing Team")."""
    state = _facing_off(new([6, 1]))
    for team in state.unit("gren").teams:
        team.y = 26
    return state


def test_the_owner_may_be_asked_to_allocate_the_hits_among_equal_teams():
    # Firing: "For each success, the target Unit must allocate one die to a Team in that Unit
    # ... not adding a second die to a Team until all valid Teams in the Unit have at least
    # one hit"; asked of the target's player with defaults allocate:ask
    state = _gren_within_range_of_sq1()
    state.policies["germans"] = {"ground": "no", "allocate": "ask"}
    state, _ = go(state, "us", "activate", [6], unit="1pl")
    state, _ = go(state, "us", "action", kind="fire")
    state, step = go(state, "us", "fire", [6, 6, 1], target="gren", teams="sq1")  # 2 hits
    assert state.pending.kind == "allocate" and step.waiting_on == ["germans"]
    offered = {c.value: c.label for c in SYSTEM.choices(state, "germans", "decide", "teams",
                                                        {"choice": "allocate"})}
    assert offered["none"] == "none first: hits g1 1, g2 1"  # the standing order: nearest
    assert offered["mg,g3"] == "mg,g3 first: hits mg 1, g3 1"
    with pytest.raises(RuleError, match="may not take these hits"):
        go(state, "germans", "decide", choice="allocate", teams="sq2")
    state, step = go(state, "germans", "decide", [1, 6], choice="allocate", teams="mg g3")
    text = " | ".join(e.text for e in step.events)
    assert "Hits allocated: mg 1, g3 1" in text
    assert not state.team("mg").alive and state.team("g3").alive and state.pending is None
    assert step.waiting_on == ["us"]


def test_allocation_is_not_asked_by_default():
    state = _gren_within_range_of_sq1()
    state.policies["germans"] = {"ground": "no"}
    state, _ = go(state, "us", "activate", [6], unit="1pl")
    state, _ = go(state, "us", "action", kind="fire")
    state, step = go(state, "us", "fire", [6, 6, 1], target="gren", teams="sq1")
    assert state.pending is None
    assert "Hits allocated: g1 1, g2 1" in " | ".join(e.text for e in step.events)
