"""What the player reads about special moves (18.1, 18.2) and kept-card events (13.1): each
refusal names the rule and the order (or ``how:``) that would make it legal (issues 40, 46)."""

from __future__ import annotations

import pytest

from rules.core.errors import RuleError
from rules.raiders import SYSTEM
from rules.raiders.actions import Move, PlayCard
from rules.raiders.labels import move_to_label
from tests.raiders.helpers import ctx, do, mission_state, put


def at_matruh_with_c9():
    """F1 (one Commando) in Mersa Matruh, a port Staging Area, holding C9 (air or water move)."""
    state = put(mission_state("M3"), "matruh", "Cdo-1")
    state.mission.hand = ["C9"]
    return state


def test_play_air_move_points_to_move_how_air() -> None:
    """13.1, 18.1: the air move of a kept card is a move; 'play' says so, not a bare list."""
    state = at_matruh_with_c9()
    with pytest.raises(RuleError) as err:
        do(state, PlayCard(card="C9", event="air_move"))
    assert "how:air" in str(err.value) and "(18.1)" in str(err.value)
    with pytest.raises(RuleError, match=r"how:water .*\(18\.2\)"):
        do(state, PlayCard(card="C9", event="water_move"))


def test_play_an_event_the_card_lacks_lists_the_card_events() -> None:
    """13.1: C9 has no calm event; the refusal lists what it offers."""
    with pytest.raises(RuleError, match="C9 has no calm event .*air_move, water_move, gain_op"):
        do(at_matruh_with_c9(), PlayCard(card="C9", event="calm"))


def test_bad_air_move_cites_18_1_only() -> None:
    """18.1: an air move from a space with no airfield cites 18.1 (18.2 is the water move)."""
    with pytest.raises(RuleError) as err:
        do(at_matruh_with_c9(), Move(force="F1", to="benina", how="air"))
    text = str(err.value)
    assert "(18.1)" in text and "18.2" not in text and "airfields: " in text and "kufra" in text


def test_bad_water_move_cites_18_2_only() -> None:
    """18.2: a water move to a space that is not a port or coastal space cites 18.2."""
    with pytest.raises(RuleError) as err:
        do(at_matruh_with_c9(), Move(force="F1", to="jarabub", how="water"))
    text = str(err.value)
    assert "(18.2)" in text and "18.1" not in text and "benghazi" in text


def test_road_refusal_names_the_water_move_that_reaches() -> None:
    """12.0, 18.2: Benghazi is out of road reach from Matruh, in reach of C9's water move."""
    with pytest.raises(RuleError, match=r"how:water \(18\.2\) takes it there with kept card C9"):
        do(at_matruh_with_c9(), Move(force="F1", to="benghazi"))


def test_offer_label_carries_how_water() -> None:
    """18.2: the autocomplete label of a destination reached only by water says how:water."""
    state = at_matruh_with_c9()
    offered = [a for a in SYSTEM.legal_actions(state, "raiders") if isinstance(a, Move) and a.to == "benghazi"]
    assert [a.how for a in offered] == ["water"]
    c = ctx(state)
    assert move_to_label(c, "benghazi", {"force": "F1"}) == "Benghazi (benghazi) · how:water"
    assert move_to_label(c, "benghazi", {"force": "F1", "how": "water"}) == "Benghazi (benghazi)"
    assert move_to_label(c, "siwa", {"force": "F1"}) == "Siwa (siwa)"  # a road move reaches it


def test_unknown_space_lists_the_spaces() -> None:
    """12.0: a destination that is no space is answered with the spaces, not 'the list'."""
    with pytest.raises(RuleError, match="spaces: benghazi, benina") as err:
        do(at_matruh_with_c9(), Move(force="F1", to="atlantis"))
    assert "list" not in str(err.value)


def test_play_an_unknown_event_names_the_playable_ones() -> None:
    """13.1: an event no card has is answered with the events 'play' takes."""
    with pytest.raises(RuleError, match="'fly' is not a kept-card event; 'play' takes gain_op, gain_rp or calm"):
        do(at_matruh_with_c9(), PlayCard(card="C9", event="fly"))


def test_play_event_autocomplete_offers_the_card_events_in_words() -> None:
    """13.1: the values offered for event are the card's own playable ones, labelled."""
    state = at_matruh_with_c9()
    state.phase, state.mission.segment = "ops", "recruit"
    offered = [a.event for a in SYSTEM.legal_actions(state, "raiders") if isinstance(a, PlayCard)]
    assert offered == ["gain_op"]
    assert SYSTEM.label(state, "raiders", "play", "event", "gain_op", {"card": "C9"}) == "gain_op: +1 Op (11.3)"
