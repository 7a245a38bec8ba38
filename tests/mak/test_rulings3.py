"""Issue 24, points 12-16: positions reached by legal orders in the console (real service, real
SQLite), each checked against the rule it names."""

from __future__ import annotations

from pathlib import Path

from tests.console_run import run

FOURS = [4] * 30


def _game(scenario: str) -> list[str]:
    return [f"@alice /game new system:mak scenario:{scenario}",
            "@alice /game join side:merc", "@bob /game join side:strahl"]


async def test_8_2_1_a_unit_moves_into_a_full_hex_and_the_limit_is_checked_when_the_phase_ends(
        tmp_path: Path) -> None:
    # 8.2.1: "the stacking limit must be applied at the end of the phase ... At any other time,
    # such as during movement, it does not matter how many units are stacked."  Two squads
    # (4 points) hold 5:1720; the platoon HQ (2 more) moves in; the phase cannot end until one
    # unit leaves, and ends once it has.
    script = _game("ridge") + [
        "@bob /mak end",
        "@alice /mak move unit:M-PltHQ1 to:5:1720",
        "@alice /mak end",
        "@alice /mak move unit:M-InfSQ1 to:5:1620",
        "@alice /mak end",
    ]
    refused, text, _ = await run(tmp_path, script, FOURS)
    assert refused == 1, text
    assert "M-PltHQ1 moves 5:1820 → 5:1720 (1 of 1 MP) (7.1)" in text
    assert ("5:1720 is over the stacking limit when the phase ends: 6 stack points is over the "
            "limit of 4 (8.2). Move M-InfSQ1 or M-InfSQ2 out first (8.2.1).") in text
    assert "Mercenary ends its phase (4.0)" in text


async def test_8_2_3_two_neuspotters_together_must_part_before_the_phase_ends(
        tmp_path: Path) -> None:
    # 8.2.3: "two NeuSpotters may not be in the same hex, unless accompanied by a Type II
    # unit": S-NeuSpotter2 joins S-NeuSpotter1 in 5:1016 with no Type II unit; the end of the
    # Strahl phase is refused until one of them leaves.  (A card may not set them up so:
    # test_rulings46, 8.2.)
    script = _game("pioneers") + [
        "@alice /mak end",
        "@bob /mak move unit:S-NeuSpotter2 to:5:1016",
        "@bob /mak end",
        "@bob /mak move unit:S-NeuSpotter1 to:5:0916",
        "@bob /mak end",
    ]
    refused, text, _ = await run(tmp_path, script, FOURS)
    assert refused == 1, text
    assert ("5:1016 is over the stacking limit when the phase ends: two NeuSpotters may share a "
            "hex only with a Type II unit (8.2.3). Move S-NeuSpotter1 or S-NeuSpotter2 out first "
            "(8.2.1).") in text
    assert "Strahl ends its phase (4.0)" in text


async def test_12_1_a_reinforcement_entering_next_to_an_enemy_opens_the_defensive_window(
        tmp_path: Path) -> None:
    # 12.1: reinforcements "have their usual movement" and spend movement points to enter;
    # 5.4 3 / 5.4.3: "when the phase player moves a unit into an adjacent hex, the anti-phase
    # player may attack".  M-AFS1 enters by the south edge at 5:2030, next to S-PKA1 in 6:0130.
    script = _game("ridge") + [
        "@bob /mak enter unit:S-PKA1 at:6:0130",
        "@bob /mak end",
        "@alice /mak enter unit:M-AFS1 at:5:2030",
        "@bob /mak defend unit:S-PKA1 target:M-AFS1",
    ]
    refused, text, _ = await run(tmp_path, script, FOURS)
    assert refused == 0, text
    assert "M-AFS1 enters at 5:2030 (1 MP) (12.1)\nStrahl may make defensive attacks with S-PKA1 (5.4)" in text
    assert ("S-PKA1 (PF) fires defensively at M-AFS1: target 10 − 3 +1 range 1 = 8; 🎲 4+4 = 8 vs 8: "
            "hit") in text


async def test_19_5_3_the_player_selects_the_booster(tmp_path: Path) -> None:
    # 19.5.3: "The controlling player selects whether to use the booster when the unit moves
    # ... The booster pack may be used in two turns in any single scenario."  A hex beyond the
    # walk without boost: is asked about, not flown to; boost:false is honoured and said.
    script = _game("pioneers") + [
        "@alice /mak enter unit:M-SAFS1 at:5:1130",
        "@alice /mak end",
        "@bob /mak end",
        "@alice /mak move unit:M-SAFS1 to:5:1120",
        "@alice /mak move unit:M-SAFS1 to:5:1120 boost:false",
        "@alice /mak move unit:M-SAFS1 to:5:1128 boost:false",
        "@alice /mak move unit:M-SAFS1 to:5:1127",
    ]
    refused, text, _ = await run(tmp_path, script, FOURS)
    assert refused == 2, text
    assert ("5:1120 is beyond M-SAFS1's walk (5 MP); only its booster reaches it, and a booster "
            "move spends one of its 2 booster turns (0 used). Say which: move unit:M-SAFS1 "
            "to:5:1120 boost:true to fly, or a hex in its walk (19.5.3).") in text
    assert ("M-SAFS1 cannot move to 5:1120 with 5 MP left (7.1.3); in reach: 5:1129, 5:1229, 5:1230, "
            "5:1030, 5:1029 and 48 more. Its booster reaches 5:1120: boost:true (19.5.3).") in text
    assert ("M-SAFS1 walks, booster not used (boost:false; 2 booster turns left) (19.5.3)\n"
            "M-SAFS1 moves 5:1130 → 5:1128 (2 of 5 MP) (7.1)") in text
    assert "M-SAFS1 moves 5:1128 → 5:1127 (3 of 5 MP) (7.1)" in text
    assert "uses its booster" not in text


async def test_7_1_8_and_12_1_refusals_name_the_water_and_the_way_on(tmp_path: Path) -> None:
    # 7.1.8: "W and C type units cannot enter a river or water hex" (board 6, column 11), not
    # "too few movement points"; a waiting unit is told to enter (12.1).
    script = _game("ridge") + [
        "@bob /mak move unit:S-Konrad1 to:6:0830",
        "@bob /mak enter unit:S-Konrad1 at:6:0830",
        "@bob /mak move unit:S-Konrad1 to:6:1129",
    ]
    refused, text, _ = await run(tmp_path, script, FOURS)
    assert refused == 2, text
    assert ("S-Konrad1 is not on the map yet: it comes on with enter unit:S-Konrad1 at:<hex> "
            "(12.1).") in text
    assert ("S-Konrad1 cannot enter 6:1129: River / water is closed to walking (W) units (7.1.8); "
            "in reach: ") in text


async def test_14_3_1_a_squad_whose_morale_broke_is_told_why(tmp_path: Path) -> None:
    # 14.3: an A on a squad breaks its morale; 14.3.1 "1. It cannot attack ... 2. I can only
    # move away from enemy units"; 14.3.2 the recovery roll 6 +1 (an enemy within 3) fails.
    script = _game("patrol") + [
        "@alice /mak end",
        "@bob /mak move unit:S-PKA1 to:5:0722",
        "@bob /mak end",
        "@alice /mak end",
        "@bob /mak fire unit:S-PKA1 target:M-InfSQ1",
        "@bob /mak end",
        "@alice /mak move unit:M-InfSQ1 to:5:0823",
        "@alice /mak fire unit:M-InfSQ1 target:S-PKA1",
        "@alice /mak move unit:M-InfSQ1 to:5:0825",
    ]
    refused, text, _ = await run(tmp_path, script, [2, 2, 3, 3] + [6] * 20)
    assert refused == 2, text
    assert "endurance 6: A → morale broken (14.3)" in text
    assert "M-InfSQ1 morale: 🎲 6 +1 enemy within 3 hexes = 7 (1-4 recovers) → stays broken (14.3.2)" in text
    assert ("M-InfSQ1's morale is broken: it can only move away from enemy units, never next to "
            "one (14.3.1 2); away: 5:0925, 5:0825.") in text
    assert ("M-InfSQ1's morale is broken: it cannot attack (14.3.1 1); it may move away from the "
            "enemy and tries to recover at the start of your next troop phase (14.3.2).") in text
    assert "M-InfSQ1 moves 5:0824 → 5:0825 (1 of 1 MP) (7.1)" in text
