"""The orders of a commando raid, one pydantic model each (the subcommands of ``/commando``).

A side's turn has two parts (Turns, Unit Activation):

1. officers may ``direct`` a unit that has not rolled yet (Officers);
2. ``roll unit:`` rolls one unit's activation, one unit at a time, so what happened before
   (a searchlight shot out) counts for the units that roll after (Activation Roll); ``roll``
   alone rolls every unit not yet rolled, in turn;
3. each activated unit spends its actions with at most one ``move`` (up to three straight
   legs, all its move actions together, Movement) and one shooting order (``shoot`` or
   ``mortar``: all its shots together, Shooting), plus ``assault``, ``demolish`` and
   ``cut-wire``; ``end`` hands over the table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, TypeVar

from pydantic import Field

from rules.commando.state import RaidState
from rules.core.contract import Action
from rules.core.errors import RuleError

OrderT = TypeVar("OrderT", bound=Action)

PLACE_HELP = "A named point, a unit, x,y in inches or heading:inches (N:6, 45:6)"


class Direct(Action):
    """An officer skips activating to give +1 to one friendly unit within 6"."""

    name: ClassVar[str] = "direct"
    rule: ClassVar[str] = "Officers"

    officer: str = Field(description="The unit with an officer (it will not activate)")
    unit: str = Field(description='A friendly unit within 6" to get +1 activation')


class Roll(Action):
    """Roll a unit's activation (all not yet rolled if none named): 1-2 one, 3-4 two, 5+ three."""

    name: ClassVar[str] = "roll"
    rule: ClassVar[str] = "Activation Roll"

    unit: str | None = Field(
        default=None, description="The unit to activate (default: every unit not yet rolled)"
    )


class Move(Action):
    """Move a unit up to 3 straight legs: 6" per action (12" vehicles), all in one order."""

    name: ClassVar[str] = "move"
    rule: ClassVar[str] = "Movement"

    unit: str = Field(description="The unit to move")
    to: str = Field(description=PLACE_HELP)
    via: str | None = Field(default=None, description="Optional turning point: " + PLACE_HELP)
    via2: str | None = Field(default=None, description="Optional second turning point, after via")
    confirm: bool = Field(
        default=False, description='Move even if it is cut short (6" line, wire, water, a base)'
    )


class Shoot(Action):
    """Shoot at an enemy within 12" (pillboxes 3"): one die per action, 4+ hits, then saves."""

    name: ClassVar[str] = "shoot"
    rule: ClassVar[str] = "Shooting"

    unit: str = Field(description="The unit shooting")
    target: str = Field(description="The enemy unit shot at")
    shots: int | None = Field(
        default=None, ge=1, le=3, description="Actions to spend on shots (default: all left)"
    )


class Mortar(Action):
    """Fire the 2" mortar (two actions): 5-6 eliminates the target, no save."""

    name: ClassVar[str] = "mortar"
    rule: ClassVar[str] = "2\" Mortar"

    unit: str = Field(description="The 2in mortar team")
    target: str = Field(description="The enemy unit fired at")


class Assault(Action):
    """Commando assault unit charges an enemy (not a pillbox), in straight legs: best of 2 vs 1."""

    name: ClassVar[str] = "assault"
    rule: ClassVar[str] = "Hand to Hand"

    unit: str = Field(description="The commando assault unit")
    target: str = Field(description="The enemy unit it charges into contact")
    via: str | None = Field(
        default=None, description="Optional turning point of the charge: " + PLACE_HELP
    )
    via2: str | None = Field(default=None, description="Optional second turning point, after via")


class Demolish(Action):
    """Demolition unit in contact sets charges (two actions): 4-6 destroys the target."""

    name: ClassVar[str] = "demolish"
    rule: ClassVar[str] = "Demolition"

    unit: str = Field(description="The commando demolition unit")
    target: str = Field(description="The target it touches (pump house, caisson...)")


class CutWire(Action):
    """Remove a barbed wire section the unit touches (two actions)."""

    name: ClassVar[str] = "cut-wire"
    rule: ClassVar[str] = "Barbed Wire"

    unit: str = Field(description="The unit touching the wire")
    wire: str = Field(description="The wire section to remove")


class Measure(Action):
    """Measure from a unit to a place or unit: distance, move cost, shot modifiers."""

    name: ClassVar[str] = "measure"
    rule: ClassVar[str] = "Movement"
    read_only: ClassVar[bool] = True
    anytime: ClassVar[bool] = True

    unit: str = Field(description="The unit to measure from (either side)")
    to: str = Field(description=PLACE_HELP)


class End(Action):
    """End your side's turn; the table is drawn and the other side goes."""

    name: ClassVar[str] = "end"
    rule: ClassVar[str] = "Turns"


ACTIONS: tuple[type[Action], ...] = (
    Direct, Roll, Move, Shoot, Mortar, Assault, Demolish, CutWire, End, Measure,
)


def accepted(check: Callable[[RaidState, str, OrderT], object], state: RaidState, side: str,
             offer: OrderT) -> bool:
    """Whether ``check`` (the resolver's own ``check_*``/``plan_*``, run before any die)
    accepts ``offer`` of ``side`` now: the offers are built with it, so autocomplete never
    suggests an order the rules refuse."""
    try:
        check(state, side, offer)
    except RuleError:
        return False
    return True
