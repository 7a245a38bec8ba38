"""Whose each die is in a digest line (issue 46, B1): the side comes from the roll itself.

rr's ``done`` that ended a turn read "🎲 Soviets 1 3 4 4 · NATO (W. German) 1 6 6 2" while the
step said "🎲 NATO 1 · Soviets 3": NATO's initiative die (6.1), whose reason names no unit, was
counted the Soviet actor's.  Raiders' Tactical Edge (15.1 (2)) read "Raiders 1 1 · Hostiles 5"
for "raiders 1 / vs hostiles 1", then AC-1's 5.
"""

from __future__ import annotations

from typing import Any

from bot.pacing.digest import rolls_bullet
from bot.store import StepRow
from rules.core import registry
from rules.core.contract import Action, GameSystem, Step
from rules.core.dice import Roll, ScriptedDice
from rules.rr import SYSTEM as RR
from rules.rr.actions import Done, Pass
from tests.rr.helpers import board, game, spec

GRID = board("s-dice-sides", 3, 1, [spec("DE1"), spec("VDV", "soviet", special="vdv")],
             main_objective="2", cadre_area="3", turns=7)


def _bullet(system: GameSystem[Any], before: Any, step: Step, side: str, action: Action,
            rolls: list[Roll]) -> str:
    row = StepRow(game_id=1, seq=22, parent_seq=21, kind="order", actor_id="bob", actor_name="bob",
                  side=side, action={"name": action.name, "options": {}}, dice=rolls, state_json="{}")
    return rolls_bullet(system, row, [system.view(before), system.view(step.state)])


def test_the_initiative_die_of_the_other_side_is_credited_to_it_6_1() -> None:
    """6.1 "Each player rolls a die": the Soviets' ``done`` that starts turn 2 rolls NATO's
    die too; then 6.2 rally of each side's Suppressed unit, each die its unit's side."""
    state = game(GRID, {"DE1": "1", "VDV": "3"})
    state.units["DE1"].status = state.units["VDV"].status = "suppressed"
    dice = ScriptedDice([1, 3, 6, 2, 4, 4])  # initiative NATO 1, Soviets 3; then the rallies
    step: Step | None = None
    while state.turn == 1:
        before, side = state, RR.waiting_on(state)[0]
        order = Pass() if state.phase == "ops" else Done()
        start = len(dice.rolls)
        step = RR.apply(state, side, order, dice)
        state = step.state  # type: ignore[assignment]
    assert step is not None and dice.left == 0
    rolls = dice.rolls[start:]
    assert [r.side for r in rolls[:2]] == ["nato", "soviet"]
    line = _bullet(RR, before, step, side, order, rolls)
    assert "🎲 NATO 1 6 2 · Soviets 3 4 4" in line or "🎲 NATO 1 4 4 · Soviets 3 6 2" in line, line
    assert line.count("NATO") == 1 and "NATO (W. German)" not in line


def test_a_roll_with_no_side_still_goes_by_its_unit() -> None:
    """An older record (no side in its rolls) is read as before: by the unit its reason
    starts with, and unfound rolls are the actor's."""
    system = registry.get("rr")
    state = game(GRID, {"DE1": "1", "VDV": "3"})
    rolls = [Roll(reason="VDV rally, 2d6", sides=6, value=4), Roll(reason="DE1 rally, 2d6", sides=6, value=6),
             Roll(reason="Soviet initiative, 1d6", sides=6, value=2)]
    row = StepRow(game_id=1, seq=3, parent_seq=2, kind="order", actor_id="bob", actor_name="bob",
                  side="soviet", action={"name": "done", "options": {}}, dice=rolls, state_json="{}")
    view = system.view(state)
    assert rolls_bullet(system, row, [view, view]).endswith("🎲 Soviets 4 2 · NATO (W. German) 6")
    assert Roll(reason="x", sides=6, value=1).model_dump() == {"reason": "x", "sides": 6, "value": 1,
                                                                "index": None}  # the record as before


def test_the_tactical_edge_dice_are_each_sides_15_1() -> None:
    """15.1 (2) "Each side rolls one die" for the Tactical Edge: the raiders' die and the
    hostiles' (the rules tag them, the hostiles being no player's side) read as such."""
    system = registry.get("raiders")
    state = system.setup(system.scenarios[0], {}, ScriptedDice([1] * 40)).state
    view = system.view(state)
    rolls = [Roll(reason="raider Tactical Edge (15.1)", sides=6, value=1, side="raider"),
             Roll(reason="hostile Tactical Edge (15.1)", sides=6, value=1, side="hostile"),
             Roll(reason="AC-1 fires at Sen-1, combat 3 (15.1)", sides=6, value=5, side="hostile")]
    row = StepRow(game_id=1, seq=23, parent_seq=22, kind="order", actor_id="al", actor_name="al",
                  side="raiders", action={"name": "move", "options": {}}, dice=rolls, state_json="{}")
    assert rolls_bullet(system, row, [view, view]).endswith("🎲 Raiders 1 · Hostiles 1 5")


def test_moved_means_changed_position_by_a_move_retreat_or_advance() -> None:
    """The digest's "Moved:" line (issue 46, B3): rr 7.3.3 "retreat one area to negate the
    affects of one hit": a unit hit and retreated moved; a force that moved and then died in
    its battle (raiders 15.1) moved; a recruit placed in a Staging Area (9.0) or hostiles
    placed at a mission's start only arrived; a unit split off where it stands never moved."""
    from bot.pacing.digest import movers
    from rules.core.views import Header, TableUnit, TableView

    def table(*units: tuple[str, float, bool], hit: str = "") -> TableView:
        return TableView(header=Header(title="t"), width=48, height=36, units=[
            TableUnit(id=i, label=i, faction="a", x=x, y=1, eliminated=e,
                      markers=["Suppressed"] if i == hit else []) for i, x, e in units])

    start = table(("VDV", 1, False), ("F3", 5, False), ("SPLIT", 7, False))
    retreated = table(("VDV", 2, False), ("F3", 5, False), ("SPLIT", 7, False), hit="VDV")
    marched = table(("VDV", 2, False), ("F3", 9, False), ("SPLIT", 7, False), ("NEW", 3, False))
    fell = table(("VDV", 2, False), ("F3", 9, True), ("SPLIT", 7, False), ("NEW", 3, False))
    assert movers([start, retreated, marched, fell], set()) == ["VDV", "F3"]
