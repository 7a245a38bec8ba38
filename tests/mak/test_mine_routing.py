"""19.1.2-19.1.4: a move is routed round the minefields its side knows of (its own, and those
revealed to both), goes through one only when the player says so (``through_mines:true``),
and never depends on an enemy minefield not yet found (that would give it away).  With
scripted dice."""

from __future__ import annotations

import pytest

from rules.core.dice import ScriptedDice
from rules.core.errors import RuleError
from rules.mak import SYSTEM as SYS
from rules.mak import actions as A
from rules.mak.state import MakState, Minefield
from tests.mak.test_system import game

# An AFS (4 MP, walking) in the open: straight north 5:1120 → 5:1119 → 5:1118 is 2 MP; round
# 5:1119 by 5:1219 and 5:1218 is 3 MP.
START, MINED, BEYOND = "5:1120", "5:1119", "5:1118"


def afs_game(mine: Minefield | None = None, spent: float = 0.0) -> MakState:
    s = game([("M-AFS1", "AFS", "merc", START), ("S-PKA1", "PKA", "strahl", "5:0101")])
    s.unit("M-AFS1").mp_spent = spent
    if mine is not None:
        s.mines[MINED] = mine
    return s


def moved(step) -> tuple[list[str], list[str]]:  # type: ignore[no-untyped-def]
    """The hexes the move walked (its mark) and its minefield lines."""
    (mark,) = [m for m in step.state.marks if m.kind == "move"]
    return mark.hexes, [e.text for e in step.events if e.kind == "mine"]


def test_19_1_2_a_move_goes_round_a_minefield_both_sides_know_when_it_can():
    # the play-test: the cheapest path ran through a revealed minefield and the unit died
    s = afs_game(Minefield(owner="strahl", attack=13, revealed=True))
    step = SYS.apply(s, "merc", A.Move(unit="M-AFS1", to=BEYOND), ScriptedDice([]))
    hexes, mines = moved(step)
    assert MINED not in hexes and not mines and hexes[-1] == BEYOND
    assert "(3 of 4 MP)" in step.events[0].text  # the way round costs one more point


def test_19_1_2_own_minefields_are_known_to_their_side_and_avoided_too_19_1_8():
    s = afs_game(Minefield(owner="merc", attack=9))
    step = SYS.apply(s, "merc", A.Move(unit="M-AFS1", to=BEYOND), ScriptedDice([]))
    hexes, mines = moved(step)
    assert MINED not in hexes and not mines and not step.state.mines[MINED].revealed


def test_19_1_4_when_only_a_known_minefield_leads_there_the_order_says_so_and_waits_for_the_word():
    s = afs_game(Minefield(owner="strahl", attack=7, revealed=True), spent=2.0)  # 2 MP left
    with pytest.raises(RuleError) as refused:
        SYS.apply(s, "merc", A.Move(unit="M-AFS1", to=BEYOND), ScriptedDice([]))
    words = str(refused.value)
    assert "5:1119 (attack 7)" in words and "through_mines:true" in words and "(19.1.4)" in words
    # the offers and the autocomplete say it as well
    offered = [a for a in SYS.legal_actions(s, "merc") if a.name == "move" and a.to == BEYOND]
    assert offered == [A.Move(unit="M-AFS1", to=BEYOND, through_mines=True)]
    label = SYS.label(s, "merc", "move", "to", BEYOND, {"unit": "M-AFS1"})
    assert label == "5:1118 · 2 MP · through minefield 5:1119"
    # said: it goes, attacked entering and leaving (19.1.4): two misses
    step = SYS.apply(s, "merc", A.Move(unit="M-AFS1", to=BEYOND, through_mines=True), ScriptedDice([6, 6, 6, 6]))
    hexes, mines = moved(step)
    assert hexes == [START, MINED, BEYOND]
    assert ["as it enters" in mines[0], "as it leaves" in mines[1]] == [True, True]


def test_19_1_3_a_known_minefield_as_the_destination_needs_the_word_too():
    s = afs_game(Minefield(owner="strahl", attack=7, revealed=True))
    with pytest.raises(RuleError, match="5:1119 is a minefield you know of"):
        SYS.apply(s, "merc", A.Move(unit="M-AFS1", to=MINED), ScriptedDice([]))
    step = SYS.apply(s, "merc", A.Move(unit="M-AFS1", to=MINED, through_mines=True), ScriptedDice([6, 6]))
    assert step.state.unit("M-AFS1").hex == MINED


def test_19_1_1_an_enemy_minefield_not_yet_found_never_changes_the_way_until_it_is_entered():
    # routing round a secret enemy minefield would tell the mover where it is: the offers,
    # the labels and the way are the same with and without it, up to the hex where it attacks
    clear, sealed = afs_game(), afs_game(Minefield(owner="strahl", attack=7, seal="mines:strahl", index=0))
    assert SYS.legal_actions(clear, "merc") == SYS.legal_actions(sealed, "merc")
    for to in (BEYOND, MINED, "5:1117"):
        assert SYS.label(clear, "merc", "move", "to", to, {"unit": "M-AFS1"}) == \
            SYS.label(sealed, "merc", "move", "to", to, {"unit": "M-AFS1"})
    order = A.Move(unit="M-AFS1", to=BEYOND)
    plain = SYS.apply(clear, "merc", order, ScriptedDice([]))
    mined = SYS.apply(sealed, "merc", order, ScriptedDice([6, 6, 6, 6]))  # two misses
    assert moved(plain)[0] == moved(mined)[0] == [START, MINED, BEYOND]
    assert len(moved(mined)[1]) == 2 and mined.state.mines[MINED].revealed  # found by walking in
