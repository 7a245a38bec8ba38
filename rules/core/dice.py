"""Dice as an object passed into the rules, so every roll is drawn with a reason and recorded.

Three kinds share one interface:

* :class:`SeededDice`, the production dice: provable.  Roll number ``i`` of a game is
  ``1 + int.from_bytes(HMAC-SHA256(seed, str(i))[:8], "big") % sides``.  The seed stays
  secret until ``/game end``; ``/game new`` posts ``sha256(seed)``.  Anyone can then
  recompute every roll with ``tools/verify_dice.py`` (see ``docs/provable-dice.md``).
* :class:`ScriptedDice`, for tests and the console's ``--dice 3,5,6``.
* :class:`RecordedDice`, which plays back the rolls a step recorded, for replay checks.
"""

from __future__ import annotations

import hashlib
import hmac
from abc import ABC, abstractmethod
from typing import Sequence, TypeVar

from pydantic import BaseModel, SerializerFunctionWrapHandler, model_serializer

T = TypeVar("T")


class DiceExhausted(Exception):
    """Scripted or recorded dice have no value left for the roll asked of them."""


class Roll(BaseModel):
    """One recorded draw: what it was for, the die size, the value and its index in the game."""

    reason: str
    sides: int
    value: int
    index: int | None = None
    #: Whose die it is, when the rules say so: a key of the system's sides (``nato``) or of
    #: its view's side styles (``hostile``).  A digest groups the dice by it (issue 46: an
    #: initiative die was credited to the side whose order rolled it).
    side: str | None = None

    @model_serializer(mode="wrap")
    def _record(self, handler: SerializerFunctionWrapHandler) -> dict[str, object]:
        """The record as before when no side is said: older steps' hashes stay the same."""
        out: dict[str, object] = handler(self)
        if out.get("side", "") is None:
            del out["side"]
        return out

    def label(self) -> str:
        """Short text for logs, e.g. ``d6=4 (VDV-2 rally)``."""
        return f"d{self.sides}={self.value} ({self.reason})"


class Dice(ABC):
    """Every random draw of a game goes through here, with a reason, and is recorded."""

    def __init__(self) -> None:
        self.rolls: list[Roll] = []

    @abstractmethod
    def _draw(self, sides: int, reason: str) -> tuple[int, int | None]:
        """Return ``(value in 1..sides, index or None)``."""

    def die(self, sides: int = 6, reason: str = "", side: str | None = None) -> int:
        """Roll one die of ``sides`` faces and record it; ``side``: whose die it is."""
        if sides < 1:
            raise ValueError(f"a die needs at least one side, not {sides}")
        value, index = self._draw(sides, reason)
        self.rolls.append(Roll(reason=reason, sides=sides, value=value, index=index, side=side))
        return value

    def roll(self, count: int = 2, sides: int = 6, reason: str = "", side: str | None = None) -> list[int]:
        """Roll ``count`` dice (e.g. 2d6) and return them in order; ``side``: whose they are."""
        return [self.die(sides, reason, side) for _ in range(count)]

    def pick(self, items: Sequence[T], reason: str = "") -> T:
        """Pick one item at random (a die with as many faces as items)."""
        if not items:
            raise ValueError("cannot pick from nothing")
        return items[self.die(len(items), reason) - 1]

    def shuffle(self, items: Sequence[T], reason: str = "") -> list[T]:
        """Return a shuffled copy, drawn as a series of picks (Fisher-Yates)."""
        pool = list(items)
        out: list[T] = []
        while pool:
            out.append(pool.pop(self.die(len(pool), reason) - 1))
        return out


def roll_value(seed: bytes, index: int, sides: int) -> int:
    """The provable value of roll ``index`` of a game with ``seed`` on a die of ``sides``."""
    digest = hmac.new(seed, str(index).encode(), hashlib.sha256).digest()
    return 1 + int.from_bytes(digest[:8], "big") % sides


def seed_hash(seed: bytes) -> str:
    """The commitment posted at ``/game new``: hex sha256 of the seed."""
    return hashlib.sha256(seed).hexdigest()


class SeededDice(Dice):
    """Production dice: deterministic from a secret seed and a running roll counter."""

    def __init__(self, seed: bytes, start: int = 0) -> None:
        super().__init__()
        self.seed = seed
        self.counter = start

    def _draw(self, sides: int, reason: str) -> tuple[int, int | None]:
        index = self.counter
        self.counter += 1
        return roll_value(self.seed, index, sides), index


class ScriptedDice(Dice):
    """Dice that return the given values in order; a value too big for its die is refused."""

    def __init__(self, values: Sequence[int]) -> None:
        super().__init__()
        self.values = list(values)
        self.position = 0

    @property
    def left(self) -> int:
        """How many scripted values are still unused."""
        return len(self.values) - self.position

    def _draw(self, sides: int, reason: str) -> tuple[int, int | None]:
        if self.position >= len(self.values):
            raise DiceExhausted(
                f"the scripted dice ran out at roll {self.position + 1} ({reason}, d{sides})"
            )
        value = self.values[self.position]
        if not 1 <= value <= sides:
            raise DiceExhausted(
                f"scripted die {self.position + 1} is {value}, but {reason} needs a d{sides}"
            )
        self.position += 1
        return value, None


class RecordedDice(Dice):
    """Plays back recorded rolls exactly, checking each is asked for with the same die."""

    def __init__(self, recorded: Sequence[Roll]) -> None:
        super().__init__()
        self.recorded = list(recorded)
        self.position = 0

    def _draw(self, sides: int, reason: str) -> tuple[int, int | None]:
        if self.position >= len(self.recorded):
            raise DiceExhausted(f"replay asked for more rolls than were recorded ({reason})")
        roll = self.recorded[self.position]
        if roll.sides != sides:
            raise DiceExhausted(
                f"replay roll {self.position + 1} was a d{roll.sides}, now a d{sides} ({reason})"
            )
        self.position += 1
        return roll.value, roll.index


class ReusedDice(Dice):
    """The rolls a step recorded, used again in order while each is asked for with the same
    die; then (a ruling that now asks for more, or another die) fresh draws of ``fresh``.
    ``/mod rules-adopt`` re-derives recorded orders under new rulings with it (issue 42):
    the dice the players saw stand, and only what the new ruling adds is rolled anew."""

    def __init__(self, recorded: Sequence[Roll], fresh: Dice) -> None:
        super().__init__()
        self.recorded = list(recorded)
        self.fresh = fresh
        self.position = 0
        #: Whether the recorded rolls stopped fitting: from then on every roll is fresh.
        self.diverged = False

    def _draw(self, sides: int, reason: str) -> tuple[int, int | None]:
        if not self.diverged and self.position < len(self.recorded) and self.recorded[self.position].sides == sides:
            roll = self.recorded[self.position]
            self.position += 1
            return roll.value, roll.index
        self.diverged = True
        value = self.fresh.die(sides, reason)
        return value, self.fresh.rolls[-1].index
