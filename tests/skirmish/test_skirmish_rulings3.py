"""Issue 24, points 7-11: positions reached by legal orders in the console (real service, real
SQLite), numbers checked against the rulebook's headings (Cover & Terrain, Indirect Fire,
Suppression, Firing, Assaults, Firing Modifiers)."""

from __future__ import annotations

from pathlib import Path

from tests.console_run import run

SEATS = [
    "@alice /game join side:us",
    "@bob /game join side:germans",
]


def _game(scenario: str) -> list[str]:
    return [f"@alice /game new system:skirmish scenario:{scenario}", *SEATS]


async def test_cover_and_terrain_a_team_touching_a_wall_is_behind_it_from_an_oblique_angle(
        tmp_path: Path) -> None:
    # Cover & Terrain: "Linear Obstacles ... only offer concealment or protection if touching
    # the obstacle from the opposite side of the incoming fire."  g1 and g2 line the churchyard
    # wall (y = 23) from the north; the Sherman fires from the hedge gap, south-east of them:
    # the line to g1's centre crosses the wall 1.3" from it, but the lines to its base cross
    # the wall where g1 touches it, so g1 and g2 are in hard cover.
    script = _game("hedgerow_village") + [
        "@bob /skirmish defaults ground:no",
        "@alice /skirmish activate unit:tank",
        "@alice /skirmish action kind:move-and-fire",
        "@alice /skirmish move who:sherman to:26,31",
        "@alice /skirmish measure team:sherman to:g1",
        "@alice /skirmish measure team:sherman to:g2",
        "@alice /skirmish fire target:gren",
    ]
    # Initiative 5-2, the check 5, then the MG's three dice and every save a 2.
    refused, text, _ = await run(tmp_path, script, [5, 2, 5, 4, 4, 4, 2, 2, 2])
    assert refused == 0, text
    assert 'sherman → g1: 14.1" · in sight · cover hard · can fire (m1919)' in text
    assert 'sherman → g2: 11.2" · in sight · cover hard' in text
    # g3 and ltn stand in the open, so the unit is not concealed: 3+ +1 moved.
    assert "to hit 3+ +1 moved = 4+ 🎲4 4 4 → 3 hits" in text
    # Allocation "Teams in the open, Teams in Soft Cover, Teams in Hard Cover": the open teams
    # first, then the nearest hard-cover team (g2), not g1 as if it stood in the open.
    assert "Hits allocated: g3 1, ltn 1, g2 1 (Firing)" in text
    assert "g2 saves 2+ 🎲2 → 0 failed (Saves)" in text  # Hard Cover: Infantry 2+


async def test_indirect_fire_ranging_and_barrage_use_the_units_concealment(tmp_path: Path) -> None:
    # Indirect Fire: ranging in is "a simple To Hit roll, applying all the same modifiers";
    # Cover & Terrain: "If even one Team is not concealed, that Team will reveal the position
    # of the entire Unit".  sq1 moved in 1pl's activation, the others did not ("Infantry Teams
    # that did not move during their last activation are Concealed even in the Open"): sq2 is
    # concealed, but sq1 reveals 1pl, so neither roll takes +1 concealed.
    script = _game("open_field") + [
        "@alice /skirmish activate unit:1pl",
        "@alice /skirmish action kind:move",
        "@alice /skirmish move who:sq1 to:11,33",
        "@alice /skirmish done",
        "@alice /skirmish activate unit:tank",
        "@alice /skirmish action kind:overwatch",
        "@bob /skirmish activate unit:mortars",
        "@bob /skirmish action kind:barrage",
        "@bob /skirmish barrage target:sq2",
    ]
    refused, text, _ = await run(tmp_path / "a", script, [5, 2, 5, 1] + [4] * 12)
    assert refused == 0, text
    assert "mortars ranges in (observer m1) on sq2: 3+ 🎲4: on target (Indirect Fire)" in text
    assert "Barrage (3 guns, 3 FP) on sq2: 3+ 🎲4 4 4 → 3 hits (Indirect Fire)" in text
    # The same with no team of 1pl moved: every team concealed, +1 on both rolls.
    still = [line for line in script if "move who:sq1" not in line]
    refused, text, _ = await run(tmp_path / "b", still, [5, 2, 5, 1] + [4] * 12)
    assert refused == 0, text
    assert "on sq2: 3+ +1 concealed = 4+ 🎲4: on target (Indirect Fire)" in text
    assert "Barrage (3 guns, 3 FP) on sq2: 3+ +1 concealed = 4+ 🎲4 4 4 → 3 hits" in text


_SUPPRESS_GREN = _game("open_field") + [
    "@bob /skirmish defaults reaction:ask ground:no",
    "@alice /skirmish activate unit:1pl",
    "@alice /skirmish action kind:move-and-fire",
    "@alice /skirmish move who:sq3 to:22,32",
    "@alice /skirmish fire target:gren teams:sq2,sq3",
    "@alice /skirmish done",
    "@alice /skirmish activate unit:tank",
    "@alice /skirmish action kind:overwatch",
    "@bob /skirmish activate unit:gren",
    "@bob /game status",
]
# Initiative 5-2, 1pl's check 5, sq2's die, sq3's three, three saves, the tank's check 1
# (fails: the Germans take the Initiative), then gren's check.
_SUPPRESS_DICE = [5, 2, 5, 4, 4, 4, 4, 4, 4, 4, 1]


async def test_suppression_a_passed_check_clears_the_markers_immediately(tmp_path: Path) -> None:
    # Suppression: "If a suppressed Unit successfully makes its next Training Check, all
    # suppressed Teams immediately become unsuppressed": gone with the check, before any action.
    refused, text, _ = await run(tmp_path, _SUPPRESS_GREN, _SUPPRESS_DICE + [5] + [4] * 20)
    assert refused == 0, text
    assert "gren: 1 suppression (3 FP hit) on g1 (Suppression)" in text
    assert ("gren Training Check 🎲5 vs 4+ +1 suppression = 5+: passed: choose a Success or Fail "
            "action; all suppression removed (Suppression) (Actions)") in text
    status = text.split("/game status")[-1]
    assert "Germans: to act de-hq, gren, pak, mortars; teams lost 0; markers: none" in status


async def test_suppression_a_failed_check_loses_one_marker_with_the_fail_order(tmp_path: Path) -> None:
    # "If the Training Check is failed, one suppression marker is removed and the Unit is
    # issued an order from the Fail Actions list": until the order (the CC may still allow a
    # reroll of the same check, at the same +1) the marker stays.
    script = _SUPPRESS_GREN + ["@bob /skirmish action kind:fire"]
    refused, text, _ = await run(tmp_path, script, _SUPPRESS_DICE + [4] + [4] * 20)
    assert refused == 0, text
    assert "gren Training Check 🎲4 vs 4+ +1 suppression = 5+: failed: Fail actions only (Actions)" in text
    assert "markers: gren suppression g1 1" in text.split("/game status")[-1]
    assert "gren: fire; one suppression marker removed (g1); Fail actions only (Actions)" in text


async def test_firing_modifiers_firing_unit_moved_is_the_units_in_its_fire_and_reaction_fire(
        tmp_path: Path) -> None:
    # Actions: "Move and Fire: Unit may Move and then Fire at a +1 penalty To Hit"; Firing
    # Modifiers: "Firing Unit Moved +1".  Only sq3 moved, and sq2 (which did not) fires at +1
    # too; later in the turn sq2's Reaction Fire takes +1 moved as well as +1 reaction.
    script = _SUPPRESS_GREN[:-1] + [
        "@bob /skirmish action kind:move",
        "@bob /skirmish move who:g1 to:15,27",
        "@alice /skirmish decide choice:fire unit:1pl",
        "@bob /game status",
    ]
    refused, text, _ = await run(tmp_path, script, _SUPPRESS_DICE + [4] + [4] * 20)
    assert refused == 0, text
    assert ('sq2 Rifles and BAR 1 FP at gren (12.8" long): to hit 3+ +1 long range +1 moved = 5+'
            in text)
    assert 'sq3 Rifles and BAR 3 FP at gren (9.2"): to hit 3+ +1 moved = 4+' in text
    assert ('May fire at gren: 1pl: Reaction Fire (+1 To Hit, +1 moved), sq2 8.0"; '
            'tank: Overwatch, sherman 24.8"') in text
    assert 'sq2 Rifles and BAR 3 FP at gren (8.0"): to hit 3+ +1 moved +1 reaction = 5+' in text
    # play-test: Reaction Fire is drawn and said like any fire ("Fired:" since your last order)
    assert "Fired: sq2" in text.split("/game status")[-1]


async def test_firing_long_range_refusals_say_the_real_reach(tmp_path: Path) -> None:
    # Firing Modifiers: "Target at Long Range (up to 2x range) +1 (half FP rounded down)": a
    # rifle's long range is 24" (twice 12"), and a 1 FP carbine has none (half of 1 is 0).
    script = _game("open_field") + [
        "@alice /skirmish activate unit:1pl",
        "@alice /skirmish action kind:fire",
        "@alice /skirmish fire target:de-hq teams:sq3",
        "@alice /skirmish fire target:gren teams:lt",
        "@alice /skirmish fire target:pak teams:sq1",
    ]
    refused, text, _ = await run(tmp_path, script, [5, 2, 5] + [4] * 10)
    assert refused == 3, text
    assert ('sq3: de-hq is 32.2", beyond the 24" long range (twice the 12") of its Rifles and BAR '
            '(Firing). They can fire at gren, pak, mortars.') in text
    # Firing: "Teams may not fire through friendly Teams": sq2 stands on sq1's line to pak (the
    # open field has no terrain: not a line of sight refusal)
    assert ('sq1: sq2 is in the way of its fire at pak: "Teams may not fire through friendly '
            'Teams" (Firing). They can fire at gren.') in text
    assert ('lt: gren is 18.1", beyond the 8" range of its Carbines and pistols; at long range its '
            '1 FP halves to 0 ("half FP rounded down"), so it rolls no die (Firing). No enemy unit '
            'is in their line of fire now; done is open.') in text
