"""Duel's state, game options and orders (the models; their rules are in :mod:`.play`)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from rules.core.contract import Action, GameOptions

TAGS = ("alpha", "beta", "gamma")


class DuelState(BaseModel):
    """Scores, whose turn it is, standing choices, the target score."""

    turn: Literal["red", "blue"] = "red"
    scores: dict[str, int] = Field(default_factory=lambda: {"red": 0, "blue": 0})
    stance: dict[str, str] = Field(default_factory=dict)
    notes: list[str] = Field(default_factory=list)
    target: int = 12


class DuelOptions(GameOptions):
    """``/game new system:duel options:target=20``."""

    target: int = Field(12, ge=6, le=30, description="the score that wins")


class Roll(Action):
    """Roll a die and add it to your score."""

    name = "roll"
    rule = "D1"
    label: str = Field(default="x", description="A tag for the roll")


class Wait(Action):
    """Pass the turn without rolling."""

    name = "wait"
    rule = "D2"


class Stance(Action):
    """Set a standing choice (may be given at any time)."""

    name = "stance"
    rule = "D3"
    anytime = True
    mode: Literal["bold", "careful"] = Field(description="bold or careful")


class Peek(Action):
    """Show the scores (read-only)."""

    name = "peek"
    read_only = True
