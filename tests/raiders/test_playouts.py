"""Random-legal playouts: >= 50 missions and whole campaigns end without errors (issue: Tests)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.core.dice import SeededDice
from rules.core.errors import RuleError
from rules.raiders import SYSTEM
from tests.raiders.driver import play, play_smart


def test_fifty_missions_and_whole_campaigns() -> None:
    """Seeded campaigns with both options: every one ends; together >= 50 missions."""
    missions = 0
    campaigns = 0
    seed = 0
    while missions < 60:
        state, _, _ = play(seed, {"coordinated": True, "scouting": True})
        assert state.campaign.outcome in ("won", "lost")
        assert SYSTEM.result(state) is not None
        assert SYSTEM.waiting_on(state) == []
        assert SYSTEM.legal_actions(state, "raiders") == []
        missions += len(state.campaign.record)
        campaigns += 1
        seed += 1
    assert campaigns >= 1


def test_single_missions_without_options() -> None:
    """The single-mission game ends after one mission (25.0 not used)."""
    for seed in range(100, 110):
        state, _, _ = play(seed, {"single": True})
        assert len(state.campaign.record) == 1
        assert SYSTEM.result(state) is not None


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 40), st.data())
def test_garbage_orders_raise_rule_error_only(seed: int, steps: int, data: st.DataObject) -> None:
    """Random orders with random option values: a RuleError or a good step, input unchanged."""
    import random

    rng = random.Random(seed)
    dice = SeededDice(seed.to_bytes(4, "big"))
    state = SYSTEM.setup("desert", {"scouting": True, "coordinated": True}, dice).state
    for _ in range(steps):
        actions = SYSTEM.legal_actions(state, "raiders")
        if not actions:
            break
        state = SYSTEM.apply(state, "raiders", rng.choice(actions), dice).state
    words = ["F1", "F2", "siwa", "matruh", "Cdo-1", "SAS-1", "Sup-1", "Obj-1", "Ita-1", "C8", "x", "", "commando"]
    for _ in range(10):
        model = data.draw(st.sampled_from(SYSTEM.actions))
        raw: dict[str, object] = {}
        for spec in model.options():
            if spec.kind == "bool":
                raw[spec.name] = data.draw(st.booleans())
            elif spec.kind == "enum":
                raw[spec.name] = data.draw(st.sampled_from(spec.choices + ["bogus"]))
            elif spec.kind == "int":
                raw[spec.name] = data.draw(st.integers(-5, 50))
            else:
                raw[spec.name] = data.draw(st.sampled_from(words))
        before = state.model_dump_json()
        try:
            action = SYSTEM.parse(model.name, raw)
            step = SYSTEM.apply(state, "raiders", action, dice)
        except RuleError:
            assert state.model_dump_json() == before
            continue
        assert state.model_dump_json() == before
        state = step.state


def test_a_purposeful_player_wins_a_whole_campaign() -> None:
    """25.3: a campaign can be won, every Mission card, by orders alone (seeded game 40).

    If rules or data change the dice stream, pick another winning seed with
    ``play_smart`` (about one seed in 40 wins with this simple player).
    """
    state = play_smart(40, {})
    assert state.campaign.outcome == "won"
    assert state.campaign.deck == []
    assert sum(r.won for r in state.campaign.record) == 6
    assert SYSTEM.result(state) is not None and SYSTEM.result(state).startswith("Campaign won")


def test_orders_are_described_for_the_command_tree() -> None:
    """Every order: a lowercase name, a rule number, a description and option help <= 100."""
    names = [a.name for a in SYSTEM.actions]
    assert len(names) == len(set(names))
    for action in SYSTEM.actions:
        assert action.name == action.name.lower() and " " not in action.name
        assert action.rule and 0 < len(action.description()) <= 100
        for spec in action.options():
            assert 0 < len(spec.description) <= 100
    assert SYSTEM.action_type("campaign").read_only


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 60), st.data())
def test_autocomplete_never_fails(seed: int, steps: int, data: st.DataObject) -> None:
    """choices() answers any field with any partial options: a short list, never an error."""
    import random

    rng = random.Random(seed)
    dice = SeededDice(seed.to_bytes(4, "big"))
    state = SYSTEM.setup("desert", {"scouting": True, "coordinated": True}, dice).state
    for _ in range(steps):
        actions = SYSTEM.legal_actions(state, "raiders")
        if not actions:
            break
        state = SYSTEM.apply(state, "raiders", rng.choice(actions), dice).state
    words = st.sampled_from(["F1", "f2", "zz", "", "siwa", "air", "water", "Cdo-1", "Sup-1", "Obj-1", "C8"])
    for _ in range(10):
        model = data.draw(st.sampled_from(SYSTEM.actions))
        for spec in model.options():
            partial = {o.name: data.draw(words) for o in model.options() if data.draw(st.booleans())}
            offered = SYSTEM.choices(state, "raiders", model.name, spec.name, partial)
            assert len(offered) <= 25
            assert all(len(c.label) <= 100 and len(c.value) <= 100 for c in offered)
