"""Commando raid rulings of issues 24 and 25, each named by its rule: the position is reached
in the console by legal orders with scripted dice, on a real SQLite file, and the transcript
is checked against the rulebook."""

from __future__ import annotations

from pathlib import Path

from tests.console_run import run

OPENING = [
    "@alice /game new system:commando",
    "@alice /game join side:commandos",
    "@bob /game join side:germans",
]
#: M1 rolls 6 (3 actions) and mortars SL1 at 7.8" with a 6: the searchlight that would give
#: A2, the closest commando, -2 is gone (Searchlights; 2" Mortar); A2 then rolls 6: 3 actions.
NO_LIGHT = [
    "@alice /commando roll unit:M1",
    "@alice /commando mortar unit:M1 target:SL1",
    "@alice /commando roll unit:A2",
]
NO_LIGHT_DICE = [6, 6, 6]


async def test_hand_to_hand_a_charge_goes_round_the_wire_in_two_straight_legs(tmp_path: Path) -> None:
    """Movement: "units must move in a straight line for each action"; Hand to Hand: "A unit
    must be able to move into contact".  Wire W1 lies between A2 (22,31) and G1 (22,24): the
    straight charge is refused, naming the wire and the way (via:); the charge round its west
    end, 5.1" then 6.8", costs 1 + 2 actions and the melee follows."""
    refused, text, _ = await run(tmp_path, OPENING + NO_LIGHT + [
        "@alice /commando assault unit:A2 target:G1",
        "@alice /commando assault unit:A2 target:G1 via:17,30",
    ], NO_LIGHT_DICE + [5, 2, 3])
    assert refused == 1, text
    assert "SL1 eliminated, no save" in text
    assert ('A2 cannot reach G1 (7.0"): stopped at Wire W1 after 1.5" (Hand to Hand: it must be '
            "able to move into contact). Charge round it with via: (a turning point).") in text
    assert 'A2 assaults G1, 11.9" in 2 legs (3 actions, Hand to Hand)' in text
    assert "🎲 A2 5,2 → 5 vs G1 3" in text
    assert "G1 eliminated, no save (Hand to Hand)" in text


async def test_movement_a_charge_may_follow_straight_on_from_a_move(tmp_path: Path) -> None:
    """Movement: "If a unit is moving it must perform all its move actions together": A2
    moves to 17,30 (1 action) and charges G1 straight on (2 actions).  A unit that has done
    anything else since its move may not charge: A3 moves, shoots, and its charge is refused
    naming Movement and what it may still do."""
    refused, text, _ = await run(tmp_path, OPENING + NO_LIGHT + [
        "@alice /commando move unit:A2 to:17,30",
        "@alice /commando assault unit:A2 target:G1",
        "@alice /commando roll unit:A3",
        "@alice /commando move unit:A3 to:13,30",     # 1.0", onto G3's 6" line
        "@alice /commando shoot unit:A3 target:G3 shots:1",
        "@alice /commando assault unit:A3 target:G3",
    ], NO_LIGHT_DICE + [5, 2, 3] + [6, 1])  # A3's roll and its one shot, a miss
    assert refused == 1, text
    assert 'A2 moves 5.1" → 17,30 (1 action, Movement)' in text
    assert 'A2 assaults G1, 6.8" (2 actions, Hand to Hand)' in text
    assert "G1 eliminated, no save (Hand to Hand)" in text
    assert ('A3 has moved and acted since, so it cannot charge G3 (6.0"): all its move actions go '
            "together (Movement). It may assault an enemy its base touches.") in text


async def test_movement_confirm_goes_when_the_6_inch_stop_halts_a_long_route(tmp_path: Path) -> None:
    """Movement: "Units must cease movement when within 6" of enemy units": D2's route to
    40,5 is 25.7", more than its 18", but PB2's 6" line halts it after 0.6": the move is cut
    short, not too long, so it is refused with where it stops and goes with confirm:yes,
    paying one action (issue 25, 9)."""
    refused, text, _ = await run(tmp_path, OPENING + [
        "@alice /commando roll unit:D2",
        "@alice /commando move unit:D2 to:40,5",
        "@alice /commando move unit:D2 to:40,5 confirm:yes",
    ], [6])
    assert refused == 1, text
    assert ('D2 would stop after 0.6" at 37.1,29.9, 1 action: stopped 6" from PB2 (Movement). '
            "Send to:37.1,29.9, or add confirm:yes.") in text
    assert 'D2 moves 0.6" → 37.1,29.9 (1 action, Movement)' in text
    assert 'D2 stopped 6" from PB2 (Movement)' in text


async def test_barbed_wire_a_wire_section_is_a_place_to_move_and_measure_to(tmp_path: Path) -> None:
    """Barbed Wire: "Any unit can remove a section of barbed wire by touching it": W1 is a
    place for measure and move (into contact with it, not cut short by it), and the unit
    then removes it with two actions."""
    refused, text, _ = await run(tmp_path, OPENING + NO_LIGHT + [
        "@alice /commando move unit:A2 to:22.5,30",  # G1's 6" line: W1 is 5" from G1
        "@alice /commando end",
        "@bob /commando end",
        "@carol /commando measure unit:A2 to:W1",
        "@alice /commando roll unit:A2",
        "@alice /commando move unit:A2 to:W1",
        "@alice /commando cut-wire unit:A2 wire:W1",
    ], NO_LIGHT_DICE + [6])
    assert refused == 0, text
    assert '📏 A2 → Wire W1: 0.5" to contact' in text
    assert 'A2 moves 0.5" → Wire W1 (1 action, Movement)' in text
    assert "A2 removes Wire W1 (2 actions, Barbed Wire)" in text


async def test_activation_every_german_unit_is_said_including_those_without_a_roll(tmp_path: Path) -> None:
    """Activation Roll, Pillboxes, Searchlights: the German turn opens saying the pillboxes'
    one shot without a roll and that searchlights never act; the commandos' end says which
    units did not activate; each German roll has its line."""
    refused, text, _ = await run(tmp_path, OPENING + [
        "@alice /commando roll unit:A1",
        "@alice /commando end",
        "@bob /commando roll",
        "@bob /commando end",
    ], [5] + [6] * 11)
    assert refused == 0, text
    assert ("Not activated this turn, no actions: O1, D1, D2, A2, D3, O2, A3, M1 "
            "(Unit Activation)") in text
    assert "No roll: PB1, PB2, PB3 have 1 shooting action each (Pillboxes)" in text
    assert ('No roll: SL1, SL2, SL3 never act, they light the closest commando within 12" '
            "(Searchlights)") in text
    for unit in ("G1", "G2", "G3", "G4", "G5", "G6", "AC1", "HT1", "T1", "T2", "MC1"):
        assert f"{unit}: 🎲 6 -1 German = 5 → 3 actions" in text


async def test_unit_activation_note_germans_neither_assault_nor_demolish(tmp_path: Path) -> None:
    """Unit Activation: "Note: German units don't engage in hand to hand combat or
    demolition": G2's assault and demolition are refused naming that note, not "yours:
    none"."""
    refused, text, _ = await run(tmp_path, OPENING + [
        "@alice /commando end",
        "@bob /commando roll unit:G2",
        "@bob /commando move unit:G2 to:pumphouse",
        "@bob /commando assault unit:G2 target:D2",
        "@bob /commando demolish unit:G2 target:pumphouse",
    ], [5])
    assert refused == 2, text
    assert text.count("German units don't engage in hand to hand combat or demolition "
                      "(Unit Activation, note); they move and shoot.") == 2
