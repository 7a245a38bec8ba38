"""What skirmish replies say: one rule per line, counts that agree, places in words (#46, #40)."""

from __future__ import annotations

from tests.skirmish.helpers import fresh, park, put
from tests.skirmish.test_skirmish_playtest import go, texts


def test_measure_at_a_shot_refused_ends_with_the_refusing_rule_once():
    # Suppression: "Suppressed Teams may not fire": the tape says so, naming that rule once
    # (not "(Suppression) (Firing)" nor "(Firing) (Firing)").
    state = fresh()
    park(state)
    put(state, "sq1", 20, 30, facing=270)
    put(state, "g1", 20, 24)
    state.team("sq1").suppression = 1
    _, step = go(state, "us", "measure", team="sq1", to="g1")
    line = texts(step.events)
    assert line.endswith("sq1 is suppressed and may not fire (Suppression)")
    assert "(Firing)" not in line


def test_measure_at_a_shot_allowed_names_firing_once():
    state = fresh()
    park(state)
    put(state, "sq1", 20, 30, facing=270)
    put(state, "g1", 20, 24)
    _, step = go(state, "us", "measure", team="sq1", to="g1")
    line = texts(step.events)
    assert line.count("(Firing)") == 1 and "can fire" in line


def test_target_label_counts_agree():
    # Menu words (issue 40): "1 team can fire", not "1 teams".
    from rules.skirmish.labels import label
    state = fresh()
    park(state)
    state.active = "tank"
    put(state, "sherman", 20, 30, facing=270)
    put(state, "g1", 20, 24)
    assert "1 team can fire" in label(state, "us", "fire", "target", "gren", {})


def test_counted_agrees_with_its_noun():
    from rules.skirmish.prompts import counted
    assert [counted(n, "team") for n in (0, 1, 2)] == ["0 teams", "1 team", "2 teams"]


def test_counter_labels_drop_a_prefix_the_team_and_unit_share():
    # Issue 40: counters read "us-a-us-1"
    from rules.skirmish.view import counter_label
    assert counter_label("us-a", "us-1") == "us-a·1"
    assert counter_label("sq1", "1pl") == "sq1·1pl"
    assert counter_label("1pl-a", "1pl") == "1pl-a"
    assert counter_label("cpt", "us-hq") == "cpt·us-hq"
    assert counter_label("de-mg", "de-1") == "de-mg·1"
