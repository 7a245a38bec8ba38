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
            "(6.2); the German HQ can give a German unit one (9.10).") in text
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
