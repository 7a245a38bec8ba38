"""Raid and Riposte rulings of issue 24 (third round), each by its rule number: the position
is reached in the console by legal orders with scripted dice, on a real SQLite file, and the
transcript is checked against the rulebook's numbers."""

from __future__ import annotations

from pathlib import Path

from tests.console_run import run

#: Both sides set up with the ready-made legal setup; turn 1 then starts.  Germans: M48-1 in 4,
#: M48-2 in 1, LUCHS in 3; Soviets: VDV-1 and NIKOLAS in 14, VDV-2 15, VDV-3 16, BMD 10,
#: MORT-SU and AGS in 7, T12 in 28, ASU85 in 19.
OPENING = [
    "@alice /game new system:rr",
    "@alice /game join side:nato",
    "@bob /game join side:soviet",
    "@alice /rr deploy-default",
    "@alice /rr ready",
    "@bob /rr deploy-default",
    "@bob /rr ready",
]
#: Turn 1's initiative: NATO 6, Soviets 1 (NATO leads; the Soviets' 1 >= turn 1 gives them the
#: airstrike, so the Hind is available too, 10.1, 10.2).
NATO_LEADS = [6, 1]


async def test_9_10_the_hq_gives_a_recovering_unit_an_ap_and_it_moves(tmp_path: Path) -> None:
    """9.10: "the German HQ can spend an action point to give any unit in its, or an adjacent
    area, an action point".  M48-2 is Suppressed by the Soviet mortar in turn 1 and fails its
    turn 2 rally (Recovering, AP not reset, 6.2); the HQ entering in 1 gives it an AP and it
    moves with it.  Only a Suppressed unit "lose[s] all action points" (6.2.1)."""
    refused, text, _ = await run(tmp_path, OPENING + [
        "@alice /rr move units:M48-2 to:6",
        "@bob /rr fire unit:MORT-SU target:M48-2",   # 3+3 +2 = 8 vs DF 7: one hit
        "@alice /rr take-hits",
        "@alice /rr pass",
        "@bob /rr pass",
        "@alice /rr done",                           # route phase; turn 2: M48-2 rolls 12
        "@alice /rr move units:M48-2 to:2",          # refused: Recovering, no AP
        "@alice /rr enter units:HQ,INF-DE1 to:1",
        "@bob /rr pass",
        "@alice /rr hq unit:M48-2",
        "@bob /rr pass",
        "@alice /rr move units:M48-2 to:2",
    ], NATO_LEADS + [3, 3] + [6, 1] + [6, 6])
    assert refused == 1, text
    assert "🎲 6+6 = 12 vs morale 7: M48-2 fails, now Recovering (6.2)" in text
    assert ("M48-2 cannot move: it is Recovering and has no AP: Recovering units are not reset "
            "(6.2); the German HQ can give a unit in or next to its area one (9.10).") in text
    assert "HQ: M48-2 +1 AP, now 1 (9.10)" in text
    assert "M48-2 6→2, 1 AP (7.2)" in text


async def test_9_10_the_hq_refuses_a_suppressed_unit_naming_6_2_1(tmp_path: Path) -> None:
    """6.2.1: "Suppressed units lose all action points": the HQ's AP is refused for M48-2
    Suppressed again (Recovering after its failed turn 2 rally, it takes the mortar's next
    hit: "A Recovering unit that receives a hit ... is Suppressed", 6.2.1), and the refusal names 6.2.1, not adjacency."""
    refused, text, _ = await run(tmp_path, OPENING + [
        "@alice /rr move units:M48-2 to:6",
        "@bob /rr fire unit:MORT-SU target:M48-2",
        "@alice /rr take-hits",
        "@alice /rr pass",
        "@bob /rr pass",
        "@alice /rr done",
        "@alice /rr enter units:HQ,INF-DE1 to:1",
        "@bob /rr fire unit:MORT-SU target:M48-2",   # 3+3 +2 = 8: one hit, Suppressed again
        "@alice /rr take-hits",
        "@alice /rr hq unit:M48-2",
    ], NATO_LEADS + [3, 3] + [6, 1] + [6, 6] + [3, 3])
    assert refused == 1, text
    assert text.count("M48-2 suppressed (7.3.3)") == 2
    assert ("The HQ cannot give M48-2 an AP: Suppressed units lose all action points (6.2.1); "
            "it may help a unit that is not Suppressed.") in text


async def test_10_2_and_5_1_no_plain_move_into_the_hinds_area(tmp_path: Path) -> None:
    """10.2: "Place the Hind in any non-enemy occupied area": it occupies its area, and 5.1:
    "Units from opposing sides (NATO and Soviet) may only occupy the same area during assault
    combat".  A NATO move into the Hind's area is refused (so it cannot blind the Hind), an
    assault on the Hind alone too ("The Hind can be targeted normally in ranged combat"),
    each naming the rule and what is allowed; the Hind then fires at M48-2 next door."""
    refused, text, _ = await run(tmp_path, OPENING + [
        "@alice /rr pass",
        "@bob /rr hind area:6",
        "@alice /rr move units:M48-2 to:6",
        "@alice /rr assault units:M48-2 to:6 target:HIND",
        "@alice /rr move units:M48-2 to:2",
        "@bob /rr fire unit:HIND target:M48-2",      # 3+3 +3 = 9 vs 7 -1 TM: two hits
        "@alice /rr take-hits",
    ], NATO_LEADS + [3, 3])
    assert refused == 2, text
    assert "The Hind arrives over 6 (10.2)" in text
    assert ("The Hind is in area 6: opposing units share an area only in assault combat (5.1), "
            "and the Hind is attacked only by ranged combat (10.2). Fire at it, or move "
            "elsewhere: 2, 5.") in text
    assert ("Area 6 holds only the Hind, and the Hind is attacked only by ranged combat (10.2): "
            "fire at it instead.") in text
    assert "🎲 3+3 +3 RCM = 9 vs DF 7 -1 TM = 6 → +3: two hits (7.3.3)" in text
    assert "M48-2 suppressed and reduced (7.3.3)" in text


async def test_7_3_3_a_retreat_from_fire_may_go_any_way_but_into_the_enemy(tmp_path: Path) -> None:
    """7.3.3: "The target may choose to retreat one area to negate the affects of one hit":
    ranged fire sets no direction (the range limits are 7.3.5.5's, in assault combat).
    M48-2 in 2 is hit twice by the Hind over 6: every neighbour but the Hind's own area 6
    (5.1: no move or retreat into an enemy's area) is offered, 1 beside the Hind too."""
    refused, text, _ = await run(tmp_path, OPENING + [
        "@alice /rr move units:M48-2 to:2",
        "@bob /rr hind area:6",
        "@alice /rr pass",
        "@bob /rr fire unit:HIND target:M48-2",
        "@alice /rr retreat to:6",
        "@alice /rr retreat to:1",
    ], NATO_LEADS + [3, 3])
    assert refused == 1, text
    assert "M48-2, two hits: retreat to 1, 3, 8 to negate one, or take-hits? (7.3.3)" in text
    assert ("M48-2 cannot retreat to 6: enemy in it (5.1). It may retreat to: 1, 3, 8, "
            "or take-hits.") in text
    assert "M48-2 retreats 2→1, one hit negated (7.3.3)" in text
    assert "M48-2 suppressed (7.3.3)" in text


async def test_7_3_3_each_unit_hit_by_a_mortar_is_asked_in_turn(tmp_path: Path) -> None:
    """9.1: the mortar "attack[s] all units in the area"; each unit hit may retreat (7.3.3).
    The prompt names the unit and its hits, and once M48-2 has answered, LUCHS's question is
    put again with the areas as they are then.  From fire a unit may retreat nearer to another
    enemy (7.3.3 has no such limit): M48-2 goes to 5, nearer to VDV-3 in 16."""
    refused, text, _ = await run(tmp_path, OPENING + [
        "@alice /rr move units:M48-2 to:6",
        "@bob /rr pass",
        "@alice /rr move units:LUCHS to:2",
        "@bob /rr pass",
        "@alice /rr move units:LUCHS to:6",
        "@bob /rr fire unit:MORT-SU target:M48-2",   # M48-2 3+3: one hit; LUCHS 4+4: two
        "@alice /rr retreat to:5",
        "@alice /rr take-hits",
    ], NATO_LEADS + [3, 3, 4, 4])
    assert refused == 0, text
    assert "M48-2, one hit: retreat to 1, 2, 5, 8 to negate one, or take-hits? (7.3.3)" in text
    after = text.split("M48-2 retreats 6→5, one hit negated (7.3.3)")[1]
    assert after.lstrip().startswith("LUCHS, two hits: retreat to 1, 2, 5, 8 to negate one, or take-hits? (7.3.3)")
    assert "LUCHS suppressed and reduced (7.3.3)" in after


async def test_8_0_a_refused_route_names_the_rule_that_forbids_it(tmp_path: Path) -> None:
    """8.0: "the owning player can route any Suppressed or Recovering unit to an adjacent
    area. These units cannot violate stacking restrictions, nor can the route bring the unit
    closer to an enemy unit."  Each refusal names its own cause: an enemy in the area (5.1),
    an unsuppressed unit.  With no other unit to route, NATO is done at once (the Soviets
    have none), and turn 2 begins."""
    refused, text, _ = await run(tmp_path, OPENING + [
        "@alice /rr move units:M48-2 to:6",
        "@bob /rr fire unit:MORT-SU target:M48-2",
        "@alice /rr take-hits",
        "@alice /rr pass",
        "@bob /rr pass",
        "@alice /rr route unit:M48-2 to:7",
        "@alice /rr route unit:LUCHS to:2",
        "@alice /rr route unit:M48-2 to:8",
    ], NATO_LEADS + [3, 3] + [6, 1] + [6, 6])
    assert refused == 2, text
    assert "M48-2 cannot route to 7: enemy in it (5.1). It may route to: 1, 2, 8." in text
    assert "LUCHS cannot route: only Suppressed or Recovering units route (8.0)." in text
    assert "M48-2 routes 6→8 (8.0)\nNATO: no other unit may route (8.0)\nTurn 2/7" in text
