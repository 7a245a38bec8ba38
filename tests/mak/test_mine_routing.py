"""19.1.2-19.1.4: a move is routed round the minefields both sides know of (those
revealed to both), goes through one only when the player says so (``through_mines:true``),
and never depends on a minefield not yet revealed, the enemy's or its own (that would give
it away).  With scripted dice."""

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
    """M-AFS1 in 5:1120 with ``spent`` MP spent, ``mine`` (if any) in 5:1119, a PKA far off."""
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


def test_19_1_8_a_sides_own_minefield_not_yet_revealed_never_changes_its_way_either():
    # going round it would show the enemy where it lies: the way, the offers and the labels
    # come from what both sides know; passing through it is 19.1.8 (attacked, revealed)
    clear, own = afs_game(), afs_game(Minefield(owner="merc", attack=9, seal="mines:merc", index=0))
    assert SYS.legal_actions(clear, "merc") == SYS.legal_actions(own, "merc")
    assert SYS.label(clear, "merc", "move", "to", BEYOND, {"unit": "M-AFS1"}) == \
        SYS.label(own, "merc", "move", "to", BEYOND, {"unit": "M-AFS1"}) == "5:1118 · 2 MP"
    step = SYS.apply(own, "merc", A.Move(unit="M-AFS1", to=BEYOND), ScriptedDice([6, 6, 6, 6]))
    hexes, mines = moved(step)
    assert hexes == [START, MINED, BEYOND] and len(mines) == 2
    assert step.unseals[0].why == "entered by M-AFS1 (its own side's, 19.1.8)"


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
    with pytest.raises(RuleError, match="5:1119 is a known minefield \\(attack 7\\)"):
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


# -- 14.4.1 / 19.5.2: the engineer that finds a minefield chooses ---------------------------------


def test_14_4_1_an_engineer_that_finds_a_minefield_keeps_its_points_and_the_choice():
    # "If a minefield is discovered, the player may cancel the unit's movement, and chose to
    # move to a different hex": it stops before the minefield, its movement cancelled, and
    # the reply says what it may do
    s = game([("M-EngSQ1", "EngSQ", "merc", "5:1012"), ("S-PKA1", "PKA", "strahl", "5:0101")])
    s.mines["5:1013"] = Minefield(owner="strahl", attack=7)
    step = SYS.apply(s, "merc", A.Move(unit="M-EngSQ1", to="5:1013"), ScriptedDice([5]))
    u = step.state.unit("M-EngSQ1")
    assert u.hex == "5:1012" and u.mp_spent == 0 and not u.moved and not u.move_done
    assert step.state.moving == "M-EngSQ1" and step.state.mines["5:1013"].revealed
    lines = [e.text for e in step.events]
    assert not any("moves" in line for line in lines)  # no "moves 5:1012 → 5:1012"
    assert lines[-1] == ("M-EngSQ1 stops in 5:1012 with 1 MP left: another move order may take it "
                         "into 5:1013 (through_mines:true) or move it elsewhere (14.4.1)")
    # the choice: in, now that the minefield is known, only when said ...
    with pytest.raises(RuleError, match="through_mines:true"):
        SYS.apply(step.state, "merc", A.Move(unit="M-EngSQ1", to="5:1013"), ScriptedDice([]))
    went = SYS.apply(step.state, "merc", A.Move(unit="M-EngSQ1", to="5:1013", through_mines=True),
                     ScriptedDice([6, 6]))
    assert went.state.unit("M-EngSQ1").hex == "5:1013" and "as it enters" in moved(went)[1][0]
    # ... or elsewhere, with the point it kept
    away = SYS.apply(step.state, "merc", A.Move(unit="M-EngSQ1", to="5:1011"), ScriptedDice([]))
    assert away.state.unit("M-EngSQ1").hex == "5:1011" and not moved(away)[1]


def test_19_5_2_the_krote_stops_before_the_minefield_it_finds_and_moves_on_with_the_rest():
    s = game([("S-Krote1", "Krote", "strahl", "5:1016"), ("M-AFS1", "AFS", "merc", "5:0101")], active="strahl")
    s.mines["5:1014"] = Minefield(owner="merc", attack=9)
    step = SYS.apply(s, "strahl", A.Move(unit="S-Krote1", to="5:1013"), ScriptedDice([2]))
    u = step.state.unit("S-Krote1")
    assert u.hex == "5:1015" and u.mp_spent == 1 and u.moved and not u.move_done
    assert moved(step)[0] == ["5:1016", "5:1015"]
    assert "S-Krote1 stops in 5:1015 with 2 MP left: another move order may take it into 5:1014" in step.events[-1].text
    # with 2 MP the only way on is through the minefield it found: said (19.1.2) ...
    with pytest.raises(RuleError, match="Every way to 5:1013 with 2 MP goes through the minefield 5:1014 "
                                        "\\(attack 9\\): S-Krote1 is attacked entering and leaving it"):
        SYS.apply(step.state, "strahl", A.Move(unit="S-Krote1", to="5:1013"), ScriptedDice([]))
    # ... or it moves elsewhere with the points it kept
    on = SYS.apply(step.state, "strahl", A.Move(unit="S-Krote1", to="5:1115"), ScriptedDice([]))
    assert on.state.unit("S-Krote1").hex == "5:1115" and on.state.unit("S-Krote1").mp_spent == 3  # 1 + 2


# -- 15.4.1: a concealment marker goes only by line of sight ----------------------------------------


def concealed(unit: str, kind: str, mine: Minefield) -> MakState:
    """``unit`` alone under concealment marker M-Con1 in 5:0829, out of the PKA's sight behind
    the ridge; a Strahl minefield in 5:0828, next to it."""
    from rules.mak import secret_actions as SA  # noqa: PLC0415
    from tests.mak.test_hidden import at_setup  # noqa: PLC0415

    s = at_setup([(unit, kind, "merc", "5:0829"), ("S-PKA1", "PKA", "strahl", "5:0812")], concealment=True)
    s = SYS.apply(s, "merc", SA.Hide(unit=unit), ScriptedDice([])).state
    s.setup = []
    s.mines["5:0828"] = mine
    return s


def kept_under_marker(step, dice: ScriptedDice, unit: str) -> None:  # type: ignore[no-untyped-def]
    """The marker is still on ``unit``; no public line, reveal or roll names it."""
    assert step.state.concealment.markers["M-Con1"] == unit  # still on: no enemy sees it
    public = [e.text for e in step.events if e.to is None] + [u.why for u in step.unseals]
    public += [r.reason for r in dice.rolls]
    assert public and not any(unit in line for line in public), public
    assert any("M-Con1" in line for line in public)


def test_15_4_1_an_engineer_searching_for_mines_stays_under_its_marker_14_4_1():
    # 15.4.1 "This token is removed once an enemy unit has line of sight on the concealed
    # unit": a search is no line of sight; the public reads the marker search and find
    s = concealed("M-EngSQ1", "EngSQ", Minefield(owner="strahl", attack=7, seal="mines:strahl", index=0))
    dice = ScriptedDice([4])
    step = SYS.apply(s, "merc", A.Move(unit="M-Con1", to="5:0828"), dice)
    kept_under_marker(step, dice, "M-EngSQ1")
    assert step.unseals[0].why == "found by M-Con1 (14.4.1)"
    assert [r.reason for r in dice.rolls] == ["M-Con1 looks for mines in 5:0828"]


def test_15_4_1_a_minefield_attack_leaves_the_marker_on_19_1_3():
    s = concealed("M-AFS1", "AFS", Minefield(owner="strahl", attack=7, revealed=True))
    dice = ScriptedDice([6, 6])
    step = SYS.apply(s, "merc", A.Move(unit="M-Con1", to="5:0828", through_mines=True), dice)
    kept_under_marker(step, dice, "M-AFS1")
    assert {r.reason for r in dice.rolls} == {"minefield 5:0828 attacks M-Con1"}  # two dice, one roll
    assert step.state.unit("M-AFS1").hex == "5:0828"


# -- 14.2.2: an infantry charge chooses the hex between as a move chooses its way --------------------


def charge_game(*mined: tuple[int, bool], target: str = "5:1113") -> tuple[MakState, list[str]]:
    """A squad in 5:1014 two hexes from a PKA in ``target`` (5:1113: two hexes between, 5:1012:
    one); ``mined`` gives each hex between, in order, a Strahl minefield (attack, revealed)."""
    from rules.mak.resolve import charge_steps  # noqa: PLC0415
    from rules.mak.table import Table  # noqa: PLC0415

    s = game([("M-InfSQ1", "InfSQ", "merc", "5:1014"), ("S-PKA1", "PKA", "strahl", target)])
    t = Table(s)
    between = [t.label(h) for h in charge_steps(t, s.unit("M-InfSQ1"), target)]
    for n, (label, (attack, revealed)) in enumerate(zip(between, mined)):
        s.mines[label] = strahl_mine(attack, revealed, n)
    return s, between


def strahl_mine(attack: int, revealed: bool, index: int = 0) -> Minefield:
    """A Strahl minefield both sides know of, or one laid in secret (item ``index`` of its seal)."""
    if revealed:
        return Minefield(owner="strahl", attack=attack, revealed=True)
    return Minefield(owner="strahl", attack=attack, seal="mines:strahl", index=index)


def charge_offers(s: MakState, target: str) -> list[A.Assault]:
    """The assaults offered to M-InfSQ1 on ``target``."""
    return [a for a in SYS.legal_actions(s, "merc") if a.name == "assault" and a.hex == target]


def test_14_2_2_a_charge_with_a_known_minefield_in_both_hexes_between_waits_for_the_word_19_1_4():
    # 14.2.2 "the infantry unit can move two hexes": the rule fixes the distance, not the hex
    # between; with both of them known minefields the charge may not cross one by accident
    s, (first, second) = charge_game((9, True), (7, True))
    with pytest.raises(RuleError) as refused:
        SYS.apply(s, "merc", A.Assault(unit="M-InfSQ1", hex="5:1113"), ScriptedDice([]))
    assert str(refused.value) == (
        f"Both hexes between M-InfSQ1 and 5:1113 are known minefields, {second} (attack 7) and {first} "
        f"(attack 9): the charge crosses {second} and is attacked entering and leaving it (14.2.2, 19.1.4). "
        f"To go anyway, add through_mines:true; or assault elsewhere.")
    assert charge_offers(s, "5:1113") == [A.Assault(unit="M-InfSQ1", hex="5:1113", through_mines=True)]
    label = SYS.label(s, "merc", "assault", "hex", "5:1113", {"unit": "M-InfSQ1"})
    assert label == f"5:1113 · charge through minefield {second}"
    # said: it crosses the weaker one, attacked as it enters (6+6 misses)
    step = SYS.apply(s, "merc", A.Assault(unit="M-InfSQ1", hex="5:1113", through_mines=True), ScriptedDice([6, 6]))
    assert step.state.unit("M-InfSQ1").hex == second
    assert [e.text for e in step.events if e.kind == "mine"][0].startswith(f"Minefield {second}")


def test_14_2_2_a_charge_whose_one_hex_between_is_a_known_minefield_waits_for_the_word_19_1_4():
    s, (between,) = charge_game((9, True), target="5:1012")
    with pytest.raises(RuleError, match=f"The hex between M-InfSQ1 and 5:1012 is a known minefield, "
                                        f"{between} \\(attack 9\\): the charge is attacked entering"):
        SYS.apply(s, "merc", A.Assault(unit="M-InfSQ1", hex="5:1012"), ScriptedDice([]))
    step = SYS.apply(s, "merc", A.Assault(unit="M-InfSQ1", hex="5:1012", through_mines=True), ScriptedDice([6, 6]))
    assert step.state.unit("M-InfSQ1").hex == between and step.state.assault is not None


def test_14_2_2_a_charge_with_one_clear_hex_between_takes_it_unasked():
    s, (first, second) = charge_game((9, True))
    assert charge_offers(s, "5:1113") == [A.Assault(unit="M-InfSQ1", hex="5:1113")]
    step = SYS.apply(s, "merc", A.Assault(unit="M-InfSQ1", hex="5:1113"), ScriptedDice([]))
    assert step.state.unit("M-InfSQ1").hex == second


def test_19_1_1_a_charge_never_asks_about_minefields_not_yet_revealed():
    # asking would tell the charging side where the enemy's secret minefields lie
    clear, _ = charge_game()
    sealed, _ = charge_game((9, False), (7, False))
    assert charge_offers(clear, "5:1113") == charge_offers(sealed, "5:1113")
    assert SYS.label(sealed, "merc", "assault", "hex", "5:1113", {"unit": "M-InfSQ1"}) == "5:1113"
    step = SYS.apply(sealed, "merc", A.Assault(unit="M-InfSQ1", hex="5:1113"), ScriptedDice([6, 6]))
    assert step.state.assault is not None  # went, and met the minefield (19.1.2)


# -- 19.5.3: a booster flight moves through the hexes it crosses -----------------------------------


def safs_game(*mines: tuple[str, bool]) -> MakState:
    """The SAFS Mk. II in 5:1028 (12 booster hexes), a PKA far off in 5:1010; each of
    ``mines`` a Strahl minefield (attack 7) in that hex, revealed or not."""
    s = game([("M-SAFS1", "SAFS", "merc", "5:1028"), ("S-PKA1", "PKA", "strahl", "5:1010")])
    for n, (label, revealed) in enumerate(mines):
        s.mines[label] = strahl_mine(7, revealed, n)
    return s


def flown(step) -> tuple[list[str], list[str]]:  # type: ignore[no-untyped-def]
    """The hexes the booster flew (its mark) and its minefield lines."""
    (mark,) = [m for m in step.state.marks if m.kind == "move"]
    return mark.hexes, [e.text for e in step.events if e.kind == "mine"]


def test_19_5_3_a_booster_flight_goes_round_a_known_minefield_on_its_straight_line_19_1_2():
    # "movement costs and restrictions for the hexes the unit moves through are ignored": the
    # flight moves through hexes, and a minefield is neither a cost nor a restriction, so
    # 19.1.4 attacks it there as on any move; the way is chosen as a walk's (19.1.2)
    s = safs_game(("5:1024", True))
    step = SYS.apply(s, "merc", A.Move(unit="M-SAFS1", to="5:1020", boost=True), ScriptedDice([]))
    hexes, mines = flown(step)
    assert "5:1024" not in hexes and not mines and hexes[-1] == "5:1020"
    assert step.state.unit("M-SAFS1").mp_spent == len(hexes) - 1 == 9  # one hex more than the line


def test_19_5_3_a_flight_that_can_only_cross_a_known_minefield_waits_for_the_word_19_1_4():
    # 5:1016 is 12 hexes up the column: any way round 5:1022 is 13, beyond the booster
    s = safs_game(("5:1022", True))
    with pytest.raises(RuleError) as refused:
        SYS.apply(s, "merc", A.Move(unit="M-SAFS1", to="5:1016", boost=True), ScriptedDice([]))
    assert str(refused.value) == (
        "Every flight to 5:1016 within 12 hexes goes through the minefield 5:1022 (attack 7): M-SAFS1 "
        "is attacked entering and leaving it (19.1.4, 19.5.3). To go anyway, add through_mines:true; "
        "or move elsewhere.")
    offered = [a for a in SYS.legal_actions(s, "merc") if a.name == "move" and a.boost and a.to == "5:1016"]
    assert offered == [A.Move(unit="M-SAFS1", to="5:1016", boost=True, through_mines=True)]
    label = SYS.label(s, "merc", "move", "to", "5:1016", {"unit": "M-SAFS1", "boost": True})
    assert label == "5:1016 · booster · through minefield 5:1022"
    assert SYS.label(s, "merc", "move", "to", "5:1020", {"unit": "M-SAFS1", "boost": True}) == "5:1020 · booster"
    step = SYS.apply(s, "merc", A.Move(unit="M-SAFS1", to="5:1016", boost=True, through_mines=True),
                     ScriptedDice([6, 6, 6, 6]))
    hexes, mines = flown(step)
    assert "5:1022" in hexes and hexes[-1] == "5:1016"
    assert ["as it enters" in mines[0], "as it leaves" in mines[1]] == [True, True]


def test_19_1_3_a_flight_landing_in_a_known_minefield_needs_the_word():
    s = safs_game(("5:1020", True))
    with pytest.raises(RuleError, match="5:1020 is a known minefield \\(attack 7\\): M-SAFS1 is attacked entering it"):
        SYS.apply(s, "merc", A.Move(unit="M-SAFS1", to="5:1020", boost=True), ScriptedDice([]))
    step = SYS.apply(s, "merc", A.Move(unit="M-SAFS1", to="5:1020", boost=True, through_mines=True), ScriptedDice([6, 6]))
    assert step.state.unit("M-SAFS1").hex == "5:1020" and len(flown(step)[1]) == 1


def test_19_1_1_a_flight_never_depends_on_a_minefield_not_yet_revealed():
    clear, sealed = safs_game(), safs_game(("5:1024", False))
    assert SYS.legal_actions(clear, "merc") == SYS.legal_actions(sealed, "merc")
    assert SYS.label(sealed, "merc", "move", "to", "5:1020", {"unit": "M-SAFS1", "boost": True}) == "5:1020 · booster"
    order = A.Move(unit="M-SAFS1", to="5:1020", boost=True)
    plain = SYS.apply(clear, "merc", order, ScriptedDice([]))
    mined = SYS.apply(sealed, "merc", order, ScriptedDice([6, 6, 6, 6]))
    assert flown(plain)[0] == flown(mined)[0] and "5:1024" in flown(mined)[0]
    assert len(flown(mined)[1]) == 2 and mined.state.mines["5:1024"].revealed
