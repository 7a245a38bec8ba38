"""Turns, the contract (status, choices, view, purity) and random-legal playouts."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.commando import SYSTEM
from rules.commando.actions import ACTIONS
from rules.commando.state import RaidState
from rules.core.dice import ScriptedDice
from rules.core.errors import RuleError
from rules.core.registry import get
from rules.core.views import TableView
from tests.seeds import seed_split
from rules.core.playout import play
from tests.commando.checks import check_invariants, check_step
from tests.commando.helpers import arrange, order, setup, texts


def test_registered_with_both_scenarios() -> None:
    """The system registers as ``commando`` with the raid first."""
    system = get("commando")
    assert system is SYSTEM and system.sides == ("commandos", "germans")
    assert system.scenarios[0] == "st_nazaire"
    for action in ACTIONS:
        assert action.name and action.rule and len(action.description()) <= 100


def test_st_nazaire_table_has_what_the_issue_asks() -> None:
    """Scenario data: 48"x36", the caisson, pump house, winding station, pillboxes, lights,
    wire, buildings, landing points and both forces."""
    state = setup("st_nazaire")
    scen = state.table
    assert (scen.width, scen.height) == (48, 36)
    assert {"caisson", "pumphouse", "winding"} <= {t.id for t in scen.targets}
    kinds = {u.kind for u in state.units}
    assert {"assault", "demolition", "mortar", "infantry", "armoured_car", "half_track",
            "truck", "motorcycle", "pillbox", "searchlight"} <= kinds
    assert any(u.officer for u in state.units if u.side == "commandos")
    assert {t.kind for t in scen.terrain} >= {"water", "wire", "building"}
    assert sum(p.landing for p in scen.points) >= 2
    check_invariants(state)


def test_turn_order_commandos_then_germans_with_snapshots() -> None:
    """Turns: the commandos activate first, then the Germans; each side's end is drawn."""
    state = arrange({"A1": (24, 4), "G1": (24, 30)})
    assert SYSTEM.waiting_on(state) == ["commandos"]
    state = order(state, "roll", dice=[6]).state
    step = order(state, "end")
    assert step.snapshot and step.waiting_on == ["germans"]
    assert step.state.turn == 1 and step.state.phase == "command"
    with pytest.raises(RuleError, match="It is not your turn: waiting on Germans"):
        order(step.state, "roll", side="commandos", dice=[1])
    state = order(step.state, "roll", dice=[4]).state
    step = order(state, "end")
    assert step.state.turn == 2 and step.waiting_on == ["commandos"]
    assert SYSTEM.turn_part(step.state) == "Turn 2/4 · Commandos · command"


def test_last_turn_ends_the_game_with_a_result() -> None:
    """The raid lasts the scenario's turns (a stand-in length), then is scored."""
    state = arrange({"A1": (24, 4), "G1": (24, 30)})
    state.turn = state.max_turn
    state.side = "germans"
    state = order(state, "roll", dice=[1]).state
    step = order(state, "end")
    assert step.game_over and step.waiting_on == []
    assert step.result == "Draw 0-0: 0 targets destroyed, 0 commando and 0 German units lost."
    with pytest.raises(RuleError, match="The game is over: Draw"):
        order(step.state, "roll")


def test_after_the_end_status_and_map_say_the_raid_is_over() -> None:
    """Turns: after the last turn nobody's turn is shown; status and the map's header say the
    raid is over, with the result."""
    state = arrange({"A1": (24, 4), "G1": (24, 30)})
    state.turn, state.side = state.max_turn, "germans"
    over = order(state, "end").state
    assert SYSTEM.turn_part(over) == "Turn 4/4 · Raid over · Draw 0-0"
    assert SYSTEM.status(over)[:2] == [
        "Turn 4/4 · Raid over · Draw 0-0",
        "Draw 0-0: 0 targets destroyed, 0 commando and 0 German units lost."]
    view = SYSTEM.view(over)
    assert (view.header.phase, view.banner) == ("Raid over", "Draw 0-0")


def test_victory_by_targets_and_losses() -> None:
    """Victory: targets destroyed score their points, each unit lost scores 1 for the enemy."""
    state = arrange({"D1": (6.5, 31), "A1": (24, 4), "G1": (30, 20)}, actions={"D1": 2})
    state.unit("A1").alive = False
    state = order(state, "demolish", unit="D1", target="bunker", dice=[5]).state
    assert SYSTEM.status(state)[-1] == "Commandos 2 - Germans 1"
    state.destroyed.append("gun")  # every target blown: the raid ends
    step = order(state, "end")
    assert step.game_over and step.result is not None
    assert step.result.startswith("Commandos win 3-1")


def test_losing_every_commando_ends_the_game() -> None:
    """The raid ends when no commando unit is left."""
    state = arrange({"A1": (22, 18), "G1": (22, 19)}, actions={"A1": 1})
    step = order(state, "assault", unit="A1", target="G1", dice=[1, 2, 5])
    assert step.game_over and step.result is not None and step.result.startswith("Germans win")


def test_status_lines() -> None:
    """Status: turn, whose turn, actions left per unit, targets, losses, standing."""
    state = arrange({"A1": (24, 4), "D1": (26, 4), "G1": (24, 30)}, actions={"A1": 2, "D1": 1})
    lines = SYSTEM.status(state)
    assert lines[0] == "Turn 1/4 · Commandos · actions"
    assert "Actions left: A1 2, D1 1" in lines
    assert "Targets destroyed 0/2" in lines
    assert all(len(line) <= 60 for line in lines)
    fresh = SYSTEM.status(arrange({"O1": (20, 4), "A1": (24, 4), "G1": (24, 30)}))
    assert fresh[1:3] == ["Officers may direct: O1", "To roll: O1, A1"]


def test_choices_show_places_in_reach_with_distances() -> None:
    """Autocomplete offers named points and units in reach, with the distance in the label."""
    state = arrange({"A1": (24, 4), "D1": (26, 4), "G1": (24, 30)}, actions={"A1": 1})
    got = SYSTEM.choices(state, "commandos", "move", "to", {"unit": "A1"})
    labels = [c.label for c in got]
    assert 'Landing · 2.0", 1 action' in labels
    assert all("G1" not in label for label in labels)  # 26" away, out of reach
    assert 'S:6 · 6.0", 1 action' in labels and all(not c.value.startswith("N:") for c in got)
    units = SYSTEM.choices(state, "commandos", "move", "unit", {})
    assert [c.value for c in units] == ["A1"]
    targets = SYSTEM.choices(
        arrange({"A1": (24, 20), "G1": (24, 30), "HT1": (30, 20)}, actions={"A1": 1}),
        "commandos", "shoot", "target", {"unit": "A1"})
    assert sorted((c.value, c.label) for c in targets) == [
        ("G1", 'G1 Infantry · 10.0", -1 over 6": need 5+'),
        ("HT1", 'HT1 Half-track · 6.0", -1 armoured: need 5+')]
    st_naz = setup("st_nazaire")
    assert len(SYSTEM.choices(st_naz, "commandos", "move", "to", {})) <= 25


def test_view_draws_table_arcs_and_measured_lines() -> None:
    """View: terrain, targets, bases with the pillbox arc, ranges and the measured move."""
    state = arrange({"A1": (24, 4), "PB1": (24, 33), "SL1": (46, 34)}, actions={"A1": 2})
    state = order(state, "move", unit="A1", to="24,12").state
    view = SYSTEM.view(state)
    assert isinstance(view, TableView) and (view.width, view.height) == (48, 36)
    pillbox = next(u for u in view.units if u.id == "PB1")
    assert (pillbox.facing, pillbox.arc, pillbox.faction) == (270, 180, "german")
    assert any(t.kind == "wire" for t in view.terrain)
    assert any(t.kind == "target" and t.label == "Bunker (2)" for t in view.terrain)
    assert view.marks[-1].kind == "move" and view.marks[-1].text == '8.0"'
    assert {c.label for c in view.circles} == {'SL1 12"', 'PB1 3"'}
    assert {s.key for s in view.sides} == {"commando", "german"}
    after_end = SYSTEM.view(order(state, "end").state)
    assert after_end.marks and after_end.marks[-1].text == '8.0"'  # drawn after the turn


def test_apply_never_mutates_and_state_round_trips() -> None:
    """apply works on a copy; the state survives JSON unchanged."""
    state = arrange({"A1": (24, 14), "G1": (24, 18)}, actions={"A1": 3})
    before = state.model_dump_json()
    step = order(state, "shoot", unit="A1", target="G1", dice=[6, 6, 6, 1, 1, 1])
    assert state.model_dump_json() == before
    assert SYSTEM.load_state(step.state.model_dump_json()) == step.state


def test_every_order_line_fits_a_phone() -> None:
    """Event lines stay short: the key fact first, about 40-60 characters."""
    state = arrange({"A1": (24, 20), "HT1": (29, 20)})
    step = order(order(state, "roll", dice=[5]).state, "shoot", unit="A1", target="HT1",
                 dice=[5, 6, 3, 4, 2])
    assert all(len(line) <= 48 for line in texts(step).splitlines())


garbage = st.text(alphabet=st.sampled_from(list("AaDdGgOoMm01234569,:.-NSEW xyz")), max_size=12)
_IDS = [u.id for u in setup("st_nazaire").units] + ["caisson", "pumphouse", "w1", "campbeltown"]
ids = st.one_of(garbage, st.sampled_from(_IDS))
places = st.one_of(garbage, st.sampled_from(_IDS + ["N:6", "SE:12", "30,20", "-1,5", "45:100"]))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from([a.name for a in ACTIONS] + ["fly", ""]),
    unit=ids, target=ids, to=places, shots=st.integers(-2, 5),
    phase=st.sampled_from(["command", "actions"]),
)
def test_garbage_orders_raise_rule_error_and_change_nothing(
    name: str, unit: str, target: str, to: str, shots: int, phase: str
) -> None:
    """Random orders get a RuleError or a legal result, never a crash or a changed input."""
    state = setup("st_nazaire")
    if phase == "actions":
        state = SYSTEM.apply(state, "commandos", SYSTEM.parse("roll", {}),
                             ScriptedDice([6] * 9)).state
    assert isinstance(state, RaidState)
    before = state.model_dump_json()
    options = {"unit": unit, "target": target, "to": to, "shots": shots, "officer": unit,
               "wire": target, "via": to}
    with contextlib.suppress(RuleError):
        action = SYSTEM.parse(name, {k: v for k, v in options.items()
                                     if k in {o.name for o in SYSTEM.action_type(name).options()}})
        SYSTEM.apply(state, "commandos", action, ScriptedDice([3, 5, 2, 6, 1, 4] * 5))
    assert state.model_dump_json() == before


@seed_split(4, 12)
def test_random_games_play_to_the_end_with_the_invariants(seeds: range) -> None:
    """The kit's random legal player (``rules.core.playout.play``): games on both tables to
    the end, every offered order accepted, the commando invariants checked after each."""
    lengths = []
    for seed in seeds:
        game = play(SYSTEM, seed, check=check_step, keep_steps=False)
        assert game.final is not None and SYSTEM.result(game.final) is not None
        lengths.append(game.orders)
    assert min(lengths) > 5


def test_a_full_length_raid_plays_to_the_end() -> None:
    """Random legal play: a whole 8-turn St Nazaire raid (the scenario's own length)."""
    from rules.core.playout import PlayoutHints

    class FullLength(type(SYSTEM)):  # type: ignore[misc]
        playout_hints = PlayoutHints()

    game = play(FullLength(), 2026, scenario="st_nazaire", check=check_step, keep_steps=False)
    assert game.final is not None and game.final.max_turn == 8  # type: ignore[attr-defined]
    assert SYSTEM.result(game.final) is not None


def test_target_choices_respect_the_pillbox_arc() -> None:
    """Autocomplete for a pillbox lists only targets in its 180 degree arc and 12" range."""
    state = arrange({"PB1": (24, 20), "A1": (24, 12), "D1": (24, 26)}, side="germans",
                    actions={"PB1": 1})
    got = SYSTEM.choices(state, "germans", "shoot", "target", {"unit": "PB1"})
    assert [c.value for c in got] == ["A1"]


def test_direct_choices_list_friends_within_6_inches() -> None:
    """Officers: autocomplete offers friends within 6" of the officer, never the officer."""
    state = arrange({"O1": (20, 4), "A1": (24, 4), "D1": (27, 4), "G1": (24, 30)})
    got = SYSTEM.choices(state, "commandos", "direct", "unit", {"officer": "O1"})
    assert [(c.value, c.label) for c in got] == [("A1", 'A1 Assault party · 4.0"')]
    assert [c.value for c in SYSTEM.choices(state, "commandos", "direct", "officer", {})] == ["O1"]


def test_measure_is_a_read_only_tape_for_either_side() -> None:
    """The tape measure: distance, move cost and shot needs, changing nothing, any time."""
    state = arrange({"A1": (24, 20), "HT1": (29, 20), "G1": (24, 30)})
    step = order(state, "measure", side="germans", unit="A1", to="HT1")
    assert texts(step) == (
        '📏 A1 → HT1: 5.0"\nMove: 1 action at 6" each (Movement)\n'
        "Shoot: -1 armoured: need 5+ (Shooting)"
    )
    assert step.state == state and step.waiting_on == ["commandos"]
    far = order(state, "measure", unit="A1", to="G1")
    assert 'Shoot: -1 over 6": need 5+ (Shooting)' in texts(far)
    assert "2 actions" in texts(far)
    places = SYSTEM.choices(state, "germans", "measure", "to", {"unit": "A1"})
    assert places[0].label == 'HT1 Half-track · 5.0"'


def test_measure_to_a_target_is_to_contact() -> None:
    """The tape measure: a demolition target is reached when the base touches it."""
    state = arrange({"D1": (12, 31), "G1": (40, 4)})
    step = order(state, "measure", unit="D1", to="bunker")
    assert texts(step).splitlines()[:2] == [
        '📏 D1 → Bunker: 5.5" to contact', 'Move: 1 action at 6" each (Movement)']


def test_scenario_data_is_validated() -> None:
    """Scenario data: typos, units inside water and pillboxes without a facing are refused."""
    from pydantic import ValidationError

    from rules.commando.scenario import Scenario, load_scenario

    good = load_scenario("st_nazaire").model_dump()
    assert Scenario.model_validate(good).units[0].stand_in
    typo = {**good, "turnz": 3}
    wet = {**good, "units": [{**good["units"][0], "x": 20.0, "y": 34.0}, *good["units"][1:]]}
    blind = {**good, "units": [*good["units"][:9], {**good["units"][9], "facing": None}]}
    for bad in (typo, wet, blind):
        with pytest.raises(ValidationError):
            Scenario.model_validate(bad)


def test_setup_options_and_unknown_scenario() -> None:
    """Setup: the game length may be set (text or number); unknown scenarios are refused."""
    assert setup("st_nazaire", turns="5").max_turn == 5
    one = SYSTEM.setup("st_nazaire", {"turns": 1}, ScriptedDice([]))
    assert 'St Nazaire raid: 48"x36", 1 turn. Commandos:' in texts(one)  # not "1 turns"
    with pytest.raises(RuleError, match="'turns' must be a whole number from 1 to 30"):
        setup("st_nazaire", turns=0)
    with pytest.raises(RuleError, match="scenarios: st_nazaire, training"):
        setup("dieppe")
