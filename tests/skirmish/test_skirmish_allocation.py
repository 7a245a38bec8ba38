"""The owner's allocation of every fire that allocates hits (Firing), with scripted dice:
"For each success, the target Unit must allocate one die to a Team in that Unit".  With
``defaults allocate:ask`` the owner is asked for Reaction Fire, Overwatch, an assault's
supporting fire and the defender's fire at the charging teams as for a ``fire`` order, and the
interrupted order goes on after the answer; ``allocate:auto`` (the default) asks nothing."""

from __future__ import annotations

from rules.skirmish import SYSTEM
from rules.skirmish.state import SkirmishState
from tests.skirmish.test_skirmish_choices import _overwatch_across_smoke
from tests.skirmish.test_skirmish_game import _facing_off, go, new, put


def _text(step) -> str:
    return " | ".join(e.text for e in step.events)


def _moved_up(us: dict[str, str], germans: dict[str, str]) -> SkirmishState:
    """1pl moves 5" north, to 7" of gren: Reaction Fire ("moving within 8" of them")."""
    state = _facing_off(new([6, 1]))
    state.policies = {"us": dict(us), "germans": dict(germans)}
    state, _ = go(state, "us", "activate", [6], unit="1pl")
    state, _ = go(state, "us", "action", kind="move")
    state, _ = go(state, "us", "move", who="1pl", to="N:5")
    return state


# -- Reaction Fire: "Teams may fire at an enemy Unit moving within 8" of them" ---------------


def test_the_mover_allocates_the_hits_of_reaction_fire_then_goes_on():
    state = _moved_up({"allocate": "ask"}, {})
    assert state.pending.kind == "react"
    state, step = go(state, "germans", "decide", [6, 6], default=1, choice="fire", unit="gren")
    assert state.pending.kind == "allocate" and step.waiting_on == ["us"]
    assert state.pending.then == "react"
    offered = {c.value for c in SYSTEM.choices(state, "us", "decide", "teams", {"choice": "allocate"})}
    assert "none" in offered and "sq2,sq3" in offered
    state, step = go(state, "us", "decide", [1, 1], choice="allocate", teams="sq2 sq3")
    assert "Hits allocated: sq2 1, sq3 1" in _text(step)
    assert not state.team("sq2").alive and not state.team("sq3").alive
    assert state.pending is None and state.phase == "orders" and state.active == "1pl"
    assert step.waiting_on == ["us"]


def test_a_standing_reaction_answer_still_asks_the_mover_to_allocate():
    state = _facing_off(new([6, 1]))
    state.policies = {"us": {"allocate": "ask"}, "germans": {"reaction": "yes"}}
    state, _ = go(state, "us", "activate", [6], unit="1pl")
    state, _ = go(state, "us", "action", kind="move")
    state, step = go(state, "us", "move", [6, 6], default=1, who="1pl", to="N:5")
    assert state.pending.kind == "allocate" and state.pending.side == "us"
    state, step = go(state, "us", "decide", [6, 6], choice="allocate", teams="none")
    assert state.pending is None and state.active == "1pl" and state.phase == "orders"


def test_allocate_auto_keeps_the_standing_order_for_reaction_fire():
    state = _moved_up({}, {})
    state, step = go(state, "germans", "decide", [6, 6], default=1, choice="fire", unit="gren")
    assert state.pending is None and "Hits allocated" in _text(step)


# -- Overwatch: "may Fire at an enemy Unit moving through their field of fire" ---------------


def test_overwatch_hits_are_allocated_where_the_teams_crossed_and_they_then_stand_where_they_stopped():
    state = _overwatch_across_smoke(True)
    state.policies = {"us": {"allocate": "ask"}}
    state, _ = go(state, "us", "activate", [6], unit="1pl")
    state, _ = go(state, "us", "action", kind="move")
    state, _ = go(state, "us", "move", who="1pl", to="23.5,27")  # sq1 ends in the smoke
    assert state.pending.kind == "react"
    state, step = go(state, "germans", "decide", [6, 6], default=1, choice="fire", unit="gren")
    assert state.pending.kind == "allocate" and state.pending.then == "react"
    assert "sq1 is fired on where it crossed the field of fire" in _text(step)
    assert state.team("sq1").pos == (18.0, 24.0)  # fired on (and allocated) where it crossed
    state, step = go(state, "us", "decide", [6, 6], choice="allocate", teams="sq1")
    assert "Hits allocated: sq1" in _text(step)
    assert state.team("sq1").pos == (23.5, 24.0) and state.pending is None


# -- Assaults: supporting fire and the defender's fire at the incoming teams -------------------


def _assault(us: dict[str, str], germans: dict[str, str], dice: list[int]) -> tuple[SkirmishState, object]:
    """1pl assaults gren lined up 6" away, sq3 and bz staying to fire (Assaults)."""
    state = _facing_off(new([6, 1]))
    for i, team in enumerate(state.unit("gren").teams):
        put(state, team.id, 10 + 2 * i, 30)
    state.policies = {"us": {"reroll": "no", **us}, "germans": dict(germans)}
    state, _ = go(state, "us", "activate", [6], unit="1pl")
    state, _ = go(state, "us", "action", kind="assault")
    return go(state, "us", "assault", dice, default=1, target="gren", stay="sq3 bz")


def test_the_assaulted_unit_allocates_the_supporting_fire_then_the_charge_goes_in():
    # Assaults: "These Teams fire at the assaulted Unit as normal, following all the normal
    # firing rules"
    state, step = _assault({}, {"allocate": "ask", "reaction": "no"}, [6, 6])
    assert state.pending.kind == "allocate" and state.pending.side == "germans"
    assert state.pending.then == "support" and "charges" not in _text(step)
    state, step = go(state, "germans", "decide", [1, 1], default=1, choice="allocate", teams="g2 mg")
    text = _text(step)
    assert "Hits allocated: mg 1, g2 1" in text and "charges" in text
    assert "lands on gren" in text
    assert state.assault is None or state.assault.losses["gren"] == 2


def test_the_attacker_allocates_the_defenders_fire_at_the_charging_teams():
    # Assaults: "The assaulted Unit may choose to use Overwatch fire or Reaction fire to shoot
    # at the incoming Teams. This fire is resolved as normal."
    state, step = _assault({"allocate": "ask"}, {"reaction": "yes", "losses": "auto"}, [1] * 6 + [6, 6])
    assert state.pending.kind == "allocate" and state.pending.side == "us"
    assert state.pending.then == "defend"
    state, step = go(state, "us", "decide", [1, 1], default=1, choice="allocate", teams="sq1 sq2")
    text = _text(step)
    assert "Hits allocated: sq1 1, sq2 1" in text and "lands on gren" in text  # 2 hits: not halted
    assert not state.team("sq1").alive and not state.team("sq2").alive


def test_five_hits_allocated_by_the_attacker_still_halt_the_assault():
    state, step = _assault({"allocate": "ask"}, {"reaction": "yes"}, [1] * 6 + [6] * 5)
    assert state.pending.then == "defend"
    state, step = go(state, "us", "decide", [6] * 5, default=6, choice="allocate", teams="none")
    assert "halts the assault: 5 FP hits (5 halt it)" in _text(step) and state.assault is None


# -- Reaction Fire along the move: "Teams may fire at an enemy Unit moving within 8" of them" ---


def _passing_by() -> SkirmishState:
    """sq1 moves east along y=31.7, 8.3" from g1 at both ends, 7.7" at its nearest."""
    from tests.skirmish.helpers import park

    state = new([6, 1])
    park(state)
    put(state, "g1", 7, 24)
    put(state, "sq1", 4, 31.7)
    for team, x in (("lt", 7), ("sq2", 4), ("sq3", 10)):  # the rest of 1pl, 12" from g1
        put(state, team, x, 36)
    state, _ = go(state, "us", "activate", [6], unit="1pl")
    state, _ = go(state, "us", "action", kind="move")
    return state


def test_reaction_fire_at_a_team_that_passed_within_8_inches_where_it_came_within_8():
    state = _passing_by()
    state, step = go(state, "us", "move", who="sq1", to="10,31.7")
    assert state.pending.kind == "react" and state.pending.options == ["gren"]
    state, step = go(state, "germans", "decide", [6], default=1, choice="fire", unit="gren")
    text = _text(step)
    # checked every ½": x 5.0 is the first point within 8" (7.96")
    assert "sq1 is fired on where it came within 8\", 5.0,31.7 (Reaction Fire)" in text
    assert any(e.kind == "fire" for e in step.events)
    assert state.team("sq1").pos == (10.0, 31.7)  # the text does not stop it: it goes on


def test_a_move_that_never_comes_within_8_inches_draws_no_reaction_fire():
    state = _passing_by()
    state, step = go(state, "us", "move", who="sq1", to="1,34")  # away from g1
    assert state.pending is None


# -- Assaults: "If during this fire, at least 5 FP's hit successfully, the assault is halted,
# and assaulting teams either stop where they are, or if in base to base contact, move as to
# provide a 2" gap" ---------------------------------------------------------------------------


def _charge_from_12(defaults: int) -> tuple[SkirmishState, object]:
    """1pl (12" south of gren) charges; gren fires Reaction Fire at the incoming teams."""
    state = _facing_off(new([6, 1]))
    state.policies = {"us": {"reroll": "no"}, "germans": {"reaction": "yes", "losses": "auto",
                                                         "counter": "no", "follow": "no"}}
    state, _ = go(state, "us", "activate", [6], unit="1pl")
    state, _ = go(state, "us", "action", kind="assault")
    return go(state, "us", "assault", default=defaults, target="gren")


def test_the_charge_is_fired_on_where_it_came_within_8_and_a_halted_team_stops_there():
    from rules.core import table

    state, step = _charge_from_12(6)  # every die a 6: 5+ hits, every save made
    text = _text(step)
    assert "lt is fired on where it came within 8\", 10.0,32.0 (Reaction Fire)" in text
    assert "halts the assault: 12 FP hits (5 halt it)" in text and "stop where they were fired on" in text
    lt = state.team("lt")
    assert lt.pos == (10.0, 32.0) and table.distance(lt.pos, state.team("ltn").pos) == 8.0


def test_a_charge_not_halted_goes_on_into_contact():
    state, step = _charge_from_12(1)  # every die a 1: no hit, every check failed
    text = _text(step)
    assert "is fired on where it came within 8\"" in text and "lands on gren" in text
    assert state.team("lt").y < 27  # in contact with ltn at 10,24
