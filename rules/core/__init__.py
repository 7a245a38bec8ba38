"""Shared mechanics every game system uses: the rules contract, dice, geometry, views."""

from rules.core.contract import Action, Choice, Event, GameSystem, Step
from rules.core.secrets import Seal, Unseal
from rules.core.dice import Dice, DiceExhausted, RecordedDice, Roll, ScriptedDice, SeededDice
from rules.core.errors import RuleError

__all__ = [
    "Action",
    "Choice",
    "Dice",
    "DiceExhausted",
    "Event",
    "GameSystem",
    "RecordedDice",
    "Roll",
    "RuleError",
    "Seal",
    "ScriptedDice",
    "SeededDice",
    "Step",
    "Unseal",
]
