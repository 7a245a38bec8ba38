"""Battle (15.0), post battle (16.0) and leaders gained (20.2), with scripted dice."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.core.dice import SeededDice
from rules.raiders import SYSTEM
from rules.raiders import actions as A
from rules.raiders import battle
from rules.raiders.forces import Ctx
from tests.raiders.helpers import ctx, do, give, mission, mission_state, put, texts


def test_2_2_combat_3_eliminates_on_1_to_3() -> None:
    """2.2 example: a combat value of 3 destroys on 1, 2 or 3; 4 or more misses."""
    for die, hit in [(1, True), (2, True), (3, True), (4, False), (5, False), (6, False)]:
        state = put(mission_state(), "msus", "Cdo-1")
        c = ctx(state, [3, 1])  # Tactical Edge: raiders 3, hostiles 1 → raiders first
        battle.start(c, "msus", ["Ger-1", "Ita-1"], "card")
        assert c.m.battle is not None and c.m.battle.turn == "raider"
        c.dice = type(c.dice)([die])
        battle.fire(c, "raider", "Cdo-1", "Ger-1")
        assert ("Ger-1" in c.m.battle.dead) is hit


def test_exact_casualty_sequence_through_the_orders() -> None:
    """A whole battle with fixed dice: who fires at whom, each casualty, in order (15.1, 16.0, 20.2)."""
    state = mission_state("M1")
    state = do(state, A.Recruit(unit="sas", at="matruh")).state
    state = do(state, A.Recruit(unit="commando", at="matruh")).state
    state = do(state, A.Begin()).state
    # Card pick 4 of 12 → C4 Ambush (3 hostiles); bin picks 7/18 Ger-1, 1/17 Ita-1, 11/16 AC-1;
    # Edge: raiders 3 +1 elite = 4 vs hostiles 4 → tie; Sidi Rezegh is escarpment → hostiles.
    step = do(state, A.Move(force="F1", to="sidi-rezegh"), [4, 7, 1, 11, 3, 4])
    b = mission(step).battle
    assert b is not None and step.reveals
    assert b.hostile_line == ["AC-1", "Ger-1", "Ita-1"]  # strongest first (15.1 (3))
    assert b.edge == "hostile" and "tie" in b.edge_text
    assert not b.lined and SYSTEM.legal_actions(step.state, "raiders")[0].name == "line"
    # AC-1 (4) fires first at the first raider in line, Cdo-1: 5 misses.
    step = do(step.state, A.Line(order="Cdo-1 SAS-1"), [5])
    # Cdo-1 (3) hits AC-1 on 2; Ger-1 (3) hits Cdo-1 on 3.
    step = do(step.state, A.Fire(target="AC-1"), [2, 3])
    assert mission(step).battle.dead == ["AC-1", "Cdo-1"]
    # SAS-1 (4) hits Ger-1 on 4; Ita-1 (2) misses on 6: end of round 1 (snapshot).
    # Round 2, hostiles first: Ita-1 misses on 3; SAS-1, one target left, fires itself: 2 hits.
    # Won: C4 gives +1 Op (16.0); leader roll 6 → pick 1 of 3: Ldr-1 Stirling (20.2).
    step = do(step.state, A.Fire(target="Ger-1"), [4, 6, 3, 2, 6, 1])
    m = mission(step)
    assert m.battle is None and m.last_battle is not None
    assert m.last_battle.dead == ["AC-1", "Cdo-1", "Ger-1", "Ita-1"]
    assert m.last_battle.outcome == "raider" and m.last_battle.round == 2
    assert step.snapshot
    assert [u.id for u in m.units if u.space == "sidi-rezegh"] == ["SAS-1", "Ldr-1"]
    assert next(u for u in m.units if u.id == "Cdo-1").space is None
    assert len(m.deck) == 9  # 9 - 1 drawn + 1 won (13.0 (3))
    assert m.op == 2 and m.segment == "recruit"
    lines = texts(step)
    assert "SAS-1: 🎲 4 vs 4 → Ger-1 eliminated (15.1)" in lines
    assert any("Ldr-1 Stirling joins (20.2)" in t for t in lines)


def test_tactical_edge_elite_bonus_and_terrain_ties() -> None:
    """15.1 (2): +1 per elite unit; a tie goes to the side the Terrain Effects Chart names."""
    state = put(mission_state(), "msus", "SAS-1", "SAS-2")  # two elite units: +2
    c = ctx(state, [2, 4])
    battle.start(c, "msus", ["Ita-1"], "card")
    assert c.m.battle is not None and c.m.battle.edge == "raider"  # 2+2 = 4 vs 4, desert → raider
    state = put(mission_state(), "tobruk", "Cdo-1", "Cdo-2")
    c = ctx(state, [4, 3])
    battle.start(c, "tobruk", ["PzG-1"], "card")  # 4 vs 3 +1 elite = 4, town → hostile
    assert c.m.battle is not None and c.m.battle.edge == "hostile" and c.m.battle.turn == "hostile"


def test_breakoff_after_two_rounds_without_loss() -> None:
    """15.2: each side fails to inflict a loss in consecutive rounds → a draw, no card lines."""
    state = put(mission_state(), "msus", "Cdo-1")
    state.mission.in_play = "C4"
    # Edge 5 vs 1: raiders first; round 1: 6, 6; round 2: 5, 6 → break-off.
    c = ctx(state, [5, 1, 6, 6, 5, 6])
    battle.start(c, "msus", ["Ita-1"], "card")
    assert c.m.battle is None
    b = c.m.last_battle
    assert b is not None and b.outcome == "draw" and b.round == 2
    assert len(c.m.deck) == 9  # 16.0 (4): neither gain nor lose Ops
    assert any("Break-off" in e.text for e in c.events)


def test_a_loss_resets_the_breakoff_count() -> None:
    """15.2: only consecutive quiet rounds count."""
    state = put(mission_state(), "msus", "Cdo-1", "Cdo-2")
    c = ctx(state, [5, 1])
    battle.start(c, "msus", ["Ita-1", "Ita-2"], "card")
    c.dice = type(c.dice)([6, 6, 6, 6])  # round 1 quiet
    battle.set_line(c, ["Cdo-1"])
    battle.raider_fire(c, "Ita-1", False)
    b = c.m.battle
    assert b is not None and b.quiet_rounds == 0 and b.round == 1
    c.dice = type(c.dice)([6, 6])
    battle.raider_fire(c, "Ita-1", False)
    assert c.m.battle is not None and c.m.battle.quiet_rounds == 1 and c.m.battle.round == 2


def test_lost_battle_costs_ops_and_gear() -> None:
    """16.0 (3): the card's lose line; 23.3: gear of an eliminated unit returns to the pool."""
    state = put(mission_state(), "msus", "Cdo-1")
    give(state, "Cdo-1", "Sup-1")
    state.mission.in_play = "C4"
    # Hostiles first (edge 1 vs 6): the round waits for the Supplies choice (24.0 (2));
    # the player fights on without it; Stk-1 (5) hits on 2.
    c = ctx(state, [1, 6])
    battle.start(c, "msus", ["Stk-1"], "card")
    assert c.m.battle is not None and not c.m.battle.lined
    c.dice = type(c.dice)([2, 5])
    battle.set_line(c, [])
    m = c.m
    assert m.last_battle is not None and m.last_battle.outcome == "hostile"
    assert len(m.deck) == 8  # C4 lose 1 Op: the top card discarded face down (11.3)
    assert next(g for g in m.gear if g.id == "Sup-1").holder is None
    assert next(u for u in m.units if u.id == "Cdo-1").space is None


def test_eliminated_units_do_not_fire() -> None:
    """15.1 note: a hostile eliminated before its turn is skipped; the next in line fires."""
    state = put(mission_state(), "msus", "SAS-1")
    c = ctx(state, [6, 1])  # raiders first
    battle.start(c, "msus", ["Ger-1", "Ita-1"], "card")
    # SAS hits Ger-1 on 1, so Ger-1 never fires; Ita-1 misses on 6; round 2: SAS hits on 1;
    # leader roll 5.
    c.dice = type(c.dice)([1, 6, 1, 5])
    battle.raider_fire(c, "Ger-1", False)
    firers = [e.data["unit"] for e in c.events if e.kind == "fire"]
    assert firers == ["SAS-1", "Ita-1", "SAS-1"]


def test_maximum_firepower_rolls_twice() -> None:
    """24.0 (2): expend Supplies; each raider rolls two dice this round."""
    state = put(mission_state(), "msus", "Cdo-1")
    give(state, "Cdo-1", "Sup-1")
    c = ctx(state, [6, 1])
    battle.start(c, "msus", ["Ita-1", "Ita-2"], "card")
    assert battle.firepower_open(c)
    c.dice = type(c.dice)([1, 2, 5])  # two hits (then the leader roll, 5): Ita-1, then the next in line, Ita-2
    battle.raider_fire(c, "Ita-1", True)
    b = c.m.last_battle
    assert b is not None and b.outcome == "raider" and b.dead == ["Ita-1", "Ita-2"]
    assert next(g for g in c.m.gear if g.id == "Sup-1").holder is None


def test_weapon_gear_adds_to_combat() -> None:
    """Our Vickers K stand-in: +1 combat to its carrier."""
    state = put(mission_state(), "msus", "Cdo-1")
    give(state, "Cdo-1", "Vk-1")
    c = ctx(state, [6, 1, 4, 5])  # 4 ≤ 3+1 hits; leader roll 5
    battle.start(c, "msus", ["Ita-1"], "card")
    assert c.m.last_battle is not None and c.m.last_battle.dead[0] == "Ita-1"
    # 20.2: only a 6 brings a leader.
    assert [u.id for u in c.m.units if u.space] == ["Cdo-1"]
    assert any(e.text == "🎲 5: no leader (20.2 needs 6)" for e in c.events)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 5), st.integers(1, 6), st.binary(min_size=4, max_size=4))
def test_alternating_fire_never_wipes_out_both_sides(raiders: int, hostiles: int, seed: bytes) -> None:
    """15.1 note: whatever the dice, a battle ends with one side (or both, on a draw) standing."""
    ids = ["Cdo-1", "Cdo-2", "Cdo-3", "SAS-1", "SAS-2"][:raiders]
    state = put(mission_state(), "msus", *ids)
    c = Ctx.reading(state.model_copy(deep=True), SeededDice(seed))
    picked = battle.pick_hostiles(c, hostiles, "test")
    battle.start(c, "msus", picked, "card")
    while c.m.battle is not None:
        b = c.m.battle
        if not b.lined:
            battle.set_line(c, [])
        else:
            battle.raider_fire(c, battle.alive(b, b.hostile_line)[-1], False)
    b = c.m.last_battle
    assert b is not None
    left_r, left_h = battle.alive(b, b.raider_line), battle.alive(b, b.hostile_line)
    assert left_r or left_h
    assert (b.outcome == "raider") == (bool(left_r) and not left_h)
    assert (b.outcome == "hostile") == (bool(left_h) and not left_r)


def test_line_choices_are_whole_orders_strongest_first() -> None:
    """15.1 (3): the player orders the raiders; autocomplete offers complete lines."""
    state = put(mission_state(), "msus", "Cdo-1", "SAS-1", "Spr-1")
    c = ctx(state, [6, 1])
    battle.start(c, "msus", ["Ita-1"], "card")
    options = SYSTEM.choices(c.state, "raiders", "line", "order", {})
    assert options[0].value == "SAS-1 Cdo-1 Spr-1" and len(options) == 6
    assert options[0].label == "SAS-1 › Cdo-1 › Spr-1"


def test_battle_panel_shows_each_die_and_the_edge() -> None:
    """The view's battle panel: both lines, eliminated units, every die of the round."""
    state = put(mission_state(), "msus", "Cdo-1")
    give(state, "Cdo-1", "Sup-1")
    c = ctx(state, [6, 1])
    battle.start(c, "msus", ["Ita-1", "Ita-2", "Ita-3"], "card")
    # Firepower: 1 hits Ita-1, 5 misses; Ita-2 and Ita-3 miss on 6: round 2 waits for a target.
    c.dice = type(c.dice)([1])
    battle.raider_fire(c, "Ita-1", True)
    assert c.m.battle is not None and c.m.battle.second_die == "Cdo-1"  # 24.0 (2): its own target
    c.dice = type(c.dice)([5, 6, 6])
    battle.raider_fire(c, "Ita-2", False)
    panel = SYSTEM.view(c.state).battle
    assert c.m.battle is not None and c.m.battle.round == 2
    assert panel is not None and panel.tactical_edge == "raider" and panel.round == 1
    assert [s.result for s in panel.shots] == ["1,5: hit Ita-1", "miss", "miss"]
    assert [h.eliminated for h in panel.lines[1].units] == [True, False, False]
