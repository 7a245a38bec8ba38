"""The orders of a platoon skirmish, as players type them (``/skirmish activate unit:1pl``).

Places (``to:``, ``at:``) are a named point, a team id, ``x,y`` in inches from the top-left
corner (x east, y south) or ``heading:inches`` from the team (``N:6``).
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from rules.core.contract import Action

ActionChoice = Literal[
    "fire-and-move", "move-and-fire", "run", "aimed-fire", "assault", "move", "fire",
    "overwatch", "barrage", "smoke",
]
TeamType = Literal["infantry", "gun", "tank"]


class Activate(Action):
    """Activate a unit: roll its Training Check (+1 per suppression marker)."""

    name: ClassVar[str] = "activate"
    rule: ClassVar[str] = "Actions"
    unit: str = Field(description="your unit that has not acted this turn")


class Reroll(Action):
    """Your CC lets the unit reroll its failed Training Check (once per Initiative)."""

    name: ClassVar[str] = "reroll"
    rule: ClassVar[str] = "Leaders"


class Choose(Action):
    """Choose the unit's action: Success actions after a passed check, Fail actions always."""

    name: ClassVar[str] = "action"
    rule: ClassVar[str] = "Actions"
    kind: ActionChoice = Field(description="the action from the Success or Fail list")


class Move(Action):
    """Move a team, or the whole unit (each team by the same offset), to a place."""

    name: ClassVar[str] = "move"
    rule: ClassVar[str] = "Moving"
    who: str = Field(description="a team of the active unit, or the unit itself (all teams)")
    to: str = Field(description="where: x,y in inches, heading:inches (N:6), a team or point")
    face: str = Field("", description="optional heading to face after the move (N, NE, 90...)")
    turret: str = Field("", description="tanks: heading to turn the turret to (hull keeps face:)")
    extra: bool = Field(False, description="the PL's extra 4\": end within 2\" of the PL")


class Fire(Action):
    """Fire the active unit's teams at an enemy unit (all that can, or some of them)."""

    name: ClassVar[str] = "fire"
    rule: ClassVar[str] = "Firing"
    target: str = Field(description="the enemy unit to fire at")
    teams: str = Field("all", description="which of your teams fire: all, or team ids, comma-separated")
    at: TeamType | None = Field(None, description="AT weapons: the team type they shoot at")
    directed: str = Field("", description="a team within 2\" of its PL rerolls its misses")


class Assault(Action):
    """Assault an enemy unit: chosen teams stay to give suppressing fire, the rest charge 12\"."""

    name: ClassVar[str] = "assault"
    rule: ClassVar[str] = "Assaults"
    target: str = Field(description="the enemy unit to assault")
    stay: str = Field("none", description="teams that stay to fire: none, or ids (guns always stay)")


class Barrage(Action):
    """Artillery: range in on an enemy team and fire a barrage (6\"x6\" template)."""

    name: ClassVar[str] = "barrage"
    rule: ClassVar[str] = "Indirect Fire"
    target: str = Field(description="the enemy team to range in on")


class Smoke(Action):
    """Artillery with two or more guns: range in on a place and lay 6\"x6\" smoke."""

    name: ClassVar[str] = "smoke"
    rule: ClassVar[str] = "Smoke"
    at: str = Field(description="where: x,y in inches, a team or a named point")


class Shift(Action):
    """A PL or the CC moves one suppression marker from a team within 2\" to another."""

    name: ClassVar[str] = "shift"
    rule: ClassVar[str] = "Leaders"
    source: str = Field(description="the suppressed team within 2\" of its leader")
    to: str = Field(description="another team of the same unit")


class Appoint(Action):
    """Your CC appoints a team within 2\" the new PL of its unit (its PL was killed)."""

    name: ClassVar[str] = "appoint"
    rule: ClassVar[str] = "Leaders"
    team: str = Field(description="a team within 2\" of the CC, of a unit without a PL")


class Done(Action):
    """End the active unit's activation."""

    name: ClassVar[str] = "done"
    rule: ClassVar[str] = "Turns"


DecideChoice = Literal[
    "fire", "hold", "ground", "stand", "allocate", "counter", "break", "remove", "follow", "stay", "place",
    "leave", "reroll", "accept",
]


class Decide(Action):
    """Answer the decision the game asks of you (reaction fire, going to ground, assaults...)."""

    name: ClassVar[str] = "decide"
    rule: ClassVar[str] = "Turns"
    choice: DecideChoice = Field(description="your answer: see the question")
    unit: str = Field("", description="which of your units fires, when several may")
    to: str = Field("", description="where the missed template goes (x,y), at most 6\"")
    teams: str = Field("", description="your teams an assault removes, or that take hits first (team ids, comma-separated)")


Policy = Literal["ask", "yes", "no"]
Pick = Literal["ask", "auto"]


class Defaults(Action):
    """Set standing answers so the game does not wait for you (ask = ask each time)."""

    name: ClassVar[str] = "defaults"
    rule: ClassVar[str] = "Turns"
    anytime: ClassVar[bool] = True
    reaction: Policy | None = Field(None, description="fire Reaction/Overwatch fire when offered")
    ground: Policy | None = Field(None, description="go to ground when fired at and able")
    counter: Policy | None = Field(None, description="counter-attack in assaults (no = break off)")
    follow: Policy | None = Field(None, description="follow a unit that breaks off from yours 1d6\"")
    losses: Pick | None = Field(None, description="assault losses: ask, or auto (protect last, nearest first)")
    allocate: Pick | None = Field(None, description="fire hits among equal teams: ask, or auto (the default)")
    morale: Policy | None = Field(None, description="your CC rerolls a failed Morale check")
    reroll: Policy | None = Field(None, description="your CC rerolls a failed counter-attack, fight or terrain check")
    protect: str | None = Field(None, description="your teams to put hits and markers on last (ids, or none)")


class Measure(Action):
    """Measure from a team to a place or team: distance, line of sight, cover (changes nothing)."""

    name: ClassVar[str] = "measure"
    rule: ClassVar[str] = "Firing"
    read_only: ClassVar[bool] = True
    team: str = Field(description="the team to measure from")
    to: str = Field(description="a place or another team")


ACTIONS: tuple[type[Action], ...] = (
    Activate, Reroll, Choose, Move, Fire, Assault, Barrage, Smoke, Shift, Appoint, Done,
    Decide, Defaults, Measure,
)
