"""Raiders battles played in the console from a new game, by legal orders and scripted dice:
the line that stands from round to round (15.1 (3)-(4), issue 25 point 8) and maximum
firepower declared before any die of the round (24.0 (2), issue 24 point 4)."""

from __future__ import annotations

from pathlib import Path

from tests.console_run import run

#: Mission M1; SAS-1 and Cdo-1 at Mersa Matruh; F1 moves to Sidi Rezegh (escarpment).
OPENING = [
    "@ann /game new system:raiders options:mission=M1,single",
    "@ann /raiders recruit unit:sas at:matruh",
    "@ann /raiders recruit unit:commando at:matruh",
]
#: The move's dice: card pick 4 of 12 → C4 Ambush (3 hostiles); bin picks 7/18 Ger-1,
#: 1/17 Ita-1, 11/16 AC-1; Edge: raiders 3 +1 elite = 4 vs hostiles 4, a tie; Sidi Rezegh
#: is escarpment, so the hostiles fire first (15.1 (2)).
MOVE_DICE = [4, 7, 1, 11, 3, 4]


async def test_24_0_2_firepower_is_declared_before_the_hostiles_first_die(tmp_path: Path) -> None:
    """24.0 (2) "to roll the die two times for each raider unit in the force firing for one
    round": the choice comes before any die of the round.  With the hostiles' Tactical Edge the
    round waits for it; the Supplies' carrier then falls to the hostiles' first shot and the
    round is still fought with two dice a raider."""
    script = [*OPENING,
              "@ann /raiders gear item:supply unit:Cdo-1",
              "@ann /raiders begin",
              "@ann /raiders move force:F1 to:sidi-rezegh",
              "@ann /raiders fire target:AC-1",  # refused: the round waits for the line
              "@ann /raiders line order:Cdo-1,SAS-1 firepower:yes",
              "@ann /raiders line firepower:yes",  # refused: a die of the round is rolled
              "@ann /raiders fire target:AC-1",
              "@ann /raiders fire target:Ger-1"]
    # AC-1 (4) eliminates Cdo-1 on 2; SAS-1's two dice: 1 at AC-1, 2 at Ger-1 (both hit);
    # Ita-1 misses (6); round 2: Ita-1 misses (6), SAS-1 hits (1); leader roll 5 (20.2).
    refused, text, _ = await run(tmp_path, script, [*MOVE_DICE, 2, 1, 2, 6, 6, 1, 5])
    assert refused == 2, text
    assert "Sup-1 here: 'line firepower:yes' = 2 dice each (24.0 (2))" in text
    assert "Decide before the hostiles' first die of round 1" in text
    assert ("⛔ 'fire' is not an order of this phase (Battle line-up, 15.1 (3)); "
            "orders now: campaign, card, line.") in text
    declared = text.index("Sup-1 expended: maximum firepower, 2 dice each this round (24.0)")
    assert declared < text.index("AC-1: 🎲 2 vs 4 → Cdo-1 eliminated (15.1)")
    assert "maximum firepower is declared before a round's first die (24.0 (2))" in text
    assert "SAS-1: 🎲 1 vs 4 → AC-1 eliminated (15.1)" in text
    assert "SAS-1: second die, at which hostile? (24.0)" in text
    assert "SAS-1: 🎲 2 vs 4 → Ger-1 eliminated (15.1)" in text
    assert "Battle over: raiders win (16.0)" in text


async def test_15_1_4_the_line_stands_from_round_to_round(tmp_path: Path) -> None:
    """The battle's start says what to do first; the line set in round 1 fights round 2
    without a fresh 'line' (15.1 (4): the player's preferred order stands until changed)."""
    script = [*OPENING,
              "@ann /raiders begin",
              "@ann /raiders move force:F1 to:sidi-rezegh",
              "@ann /raiders line order:SAS-1,Cdo-1",
              "@ann /raiders fire target:AC-1",
              "@ann /raiders fire target:Ger-1",
              "@ann /raiders fire target:AC-1"]
    # Round 1, all miss: AC-1 at SAS-1, SAS-1 at AC-1, Ger-1 at SAS-1, Cdo-1 at Ger-1, Ita-1.
    # Round 2, same line: AC-1 eliminates SAS-1 (1); Cdo-1 eliminates AC-1 (1); Ger-1 and
    # Ita-1 miss Cdo-1 (6, 6); round 3: Ger-1 misses (6) and Cdo-1 waits for its target.
    dice = [*MOVE_DICE, 6, 6, 6, 6, 6, 1, 1, 6, 6, 6]
    refused, text, _ = await run(tmp_path, script, dice)
    assert refused == 0, text
    start = text.index("⚔ Battle at Sidi Rezegh (15.1)")
    assert text.index("Order 'line': raiders in any order (15.1 (3))") > start
    assert "e.g. line order:Cdo-1,SAS-1" in text  # the raiders here, in any order
    assert "The line stands till you change it (15.1 (4))" in text
    assert "Round 1 losses: raiders 0, hostiles 0 (15.1)" in text  # each side said
    assert "Round 2, same line (15.1 (4)):\nSAS-1 › Cdo-1" in text
    assert "AC-1: 🎲 1 vs 4 → SAS-1 eliminated (15.1)" in text
    assert "Cdo-1: 🎲 1 vs 3 → AC-1 eliminated (15.1)" in text
    assert text.count("/raiders line") == 1  # one line-up for three rounds


async def test_12_0_a_refused_move_names_what_halts_it(tmp_path: Path) -> None:
    """12.0 "A force must stop ... if it enters a space for which the Terrain Effects Chart
    indicates STOP": a move past Sidi Rezegh (escarpment) is refused naming that space; a
    space beyond the force's movement is refused for its distance, not for STOP (issue 24
    point 17: the refusal names the real cause and what is allowed instead)."""
    script = [*OPENING,
              "@ann /raiders begin",
              "@ann /raiders move force:F1 to:eladem",
              "@ann /raiders move force:F1 to:gazala",
              "@ann /raiders move force:F1 to:sidi-rezegh"]
    refused, text, _ = await run(tmp_path, script, MOVE_DICE)
    assert refused == 2, text
    assert ("⛔ F1 must stop at Sidi Rezegh (Escarpment: STOP) on the way to El Adem (12.0). "
            "It can reach: sidi-rezegh, siwa, jarabub, sand-sea.") in text
    assert "⛔ Gazala is more than 2 spaces away; F1 moves 2 (12.0)." in text
    assert "F1 → Sidi Rezegh (12.0)" in text


async def test_21_1_demolition_by_a_pioneer_and_its_refusals(tmp_path: Path) -> None:
    """21.1 "a pioneer must be part of an operating force in the same space as an objective
    marker in an Objective Phase": the SAS patrol is refused for not being a pioneer (and the
    refusal names who may roll); the sapper rolls, +2 for Explosives, on the Demolition Table
    (4-5: destroyed, alert +1)."""
    script = ["@ann /game new system:raiders options:mission=M1,single",
              "@ann /raiders recruit unit:sas at:matruh",
              "@ann /raiders recruit unit:sapper at:matruh",
              "@ann /raiders gear item:explosives unit:Spr-1",
              "@ann /raiders begin",
              "@ann /raiders move force:F1 to:sidi-rezegh",
              "@ann /raiders move force:F1 to:eladem",
              "@ann /raiders line order:Cdo-1,SAS-1,Spr-1",
              "@ann /raiders demolish unit:SAS-1 marker:Obj-2",
              "@ann /raiders demolish unit:Spr-1 marker:Obj-2 explosives:yes"]
    # Card 1 of 12: C1 Quiet night; card 5 of 11: C6 Reinforcements (Cdo-1 joins free); the
    # marker is Parked aircraft (1 of 4), garrison Ita-1 (1 of 18); Edge 1+1 vs 1; Cdo-1 hits
    # (1); leader roll 5 (20.2); demolition 2 + 2 = 4.
    refused, text, _ = await run(tmp_path, script, [1, 5, 1, 1, 1, 1, 1, 5, 2])
    assert refused == 1, text
    # 11.0 (5): the segment says what may be done in it, Explosives offered when carried.
    assert ("Objective segment (11.0 (5)), e.g.\ndemolish unit:Spr-1 marker:Obj-2 explosives:yes\n"
            "or 'end-op' to end the operation") in text
    assert "⛔ SAS-1 is not a pioneer; F1's pioneers: Spr-1 (21.1)." in text
    assert "🎲 2 +2 explosives = 4: Destroyed; the alarm is raised (21.1)" in text
    assert "Alert 2 → 3: demolition (17.0)" in text
    assert "Obj-2 El Adem: destroyed" in text


async def test_27_0_one_scouting_and_no_recruit_in_the_same_operation(tmp_path: Path) -> None:
    """27.0 "A force conducting an operation may attempt one scouting" and 11.0 (1) "either
    perform a recruit action ... or a scouting/recon": an even die reveals the marker next to
    the force; a second scouting, or a recruit after it, is refused naming that rule, and the
    move that comes next is accepted."""
    script = ["@ann /game new system:raiders options:mission=M3,single,scouting",
              "@ann /raiders recruit unit:lrdg at:kufra",
              "@ann /raiders recruit unit:sas at:kufra",
              "@ann /raiders begin",
              "@ann /raiders scout force:F1 target:msus",
              "@ann /raiders scout force:F1 target:gialo",
              "@ann /raiders scout force:F1 target:gialo",
              "@ann /raiders recruit unit:commando at:kufra",
              "@ann /raiders move force:F1 to:wadi"]
    # Scouting die 2 (even); the marker turned is the camp (3 of 3); card 1 of 12: C1.
    refused, text, _ = await run(tmp_path, script, [2, 3, 1])
    assert refused == 3, text
    assert "⛔ Scouting needs a space next to F1 with a face-down marker; candidates: gialo (27.0)." in text
    assert "🎲 2 even → the marker is revealed (27.0)" in text
    assert "⛔ A force may attempt one scouting an operation (27.0); 'move' is next." in text
    assert ("⛔ This operation has scouted: it recruits or scouts, not both (11.0 (1)). "
            "You may recruit next operation; 'move' is next.") in text
    assert "F1 → Wadi el Faregh (12.0)" in text


async def test_13_0_a_move_into_a_staging_area_draws_no_card_and_spends_no_op(tmp_path: Path) -> None:
    """13.0 "When an operating force completes a move into a Staging Area, you do not pick an
    operations card" and 11.0 "The number of Ops is tallied by the number of Ops cards
    remaining in the draw deck": the Op tally stays at 9 and the event says why."""
    script = [*OPENING, "@ann /raiders begin", "@ann /raiders move force:F1 to:siwa"]
    refused, text, _ = await run(tmp_path, script, [])
    assert refused == 0, text
    assert "Into a Staging Area: no Ops card, no Op spent (13.0, 11.0)" in text
    assert "Operation 1 over · 9 Ops left (11.0)" in text


async def test_24_0_1_a_forced_march_not_needed_spends_nothing(tmp_path: Path) -> None:
    """24.0 (1) "to move a raider force one extra space": Jarabub is within the force's own
    move of 2, so no Supplies are spent and the game says so; the drawn C1 (24.0 (3)) then
    offers its Supplies bonus, and only that rule is cited."""
    script = [*OPENING,
              "@ann /raiders gear item:supply unit:Cdo-1",
              "@ann /raiders begin",
              "@ann /raiders move force:F1 to:jarabub march:true",
              "@ann /raiders accept supply:true"]
    refused, text, _ = await run(tmp_path, script, [1])  # card 1 of 12: C1 Quiet night
    assert refused == 0, text
    assert "No march needed: nothing spent (24.0 (1))" in text
    assert "Now: accept or accept supply:true (24.0 (3))" in text
    assert "Sup-1 expended" in text
