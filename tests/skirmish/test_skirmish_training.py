"""Unit Training Table and Training Checks (Actions; Suppression)."""

import pytest

from rules.core.dice import ScriptedDice
from rules.skirmish.training import TO_HIT, check_number, training_check


@pytest.mark.parametrize("level,check,hit", [("green", 5, 2), ("trained", 4, 3), ("veteran", 3, 4)])
def test_unit_training_table(level, check, hit):
    # Unit Training Table: Green 5+/2+, Trained 4+/3+, Veteran 3+/4+
    assert check_number(level) == check
    assert TO_HIT[level] == hit


def test_check_passes_on_the_number():
    result = training_check("trained", ScriptedDice([4]), "test")
    assert result.passed and result.need == 4


def test_check_fails_below():
    assert not training_check("veteran", ScriptedDice([2]), "test").passed


def test_suppression_adds_one_per_marker():
    # Suppression: "+1 penalty to their next Training Check per suppression marker"
    result = training_check("trained", ScriptedDice([5]), "test", markers=2)
    assert result.need == 6 and not result.passed
    assert "+2 suppression = 6+" in result.text("1pl")
