"""What a Maschinen Krieger game remembers about the air war and the pilots (10.0, 18.0).

Kept apart from ``state.py`` (which holds one field of each): the duty chart of every
aeronautical unit, the commitment under way, an air-to-ground attack under way, and the
pilot roster with who pilots what and who commands.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

Duty = Literal["ready", "air", "ground", "used", "withdrawn"]
"""The duty chart (10.1): not yet assigned, Air Combat Mission, Ground Combat Mission, Used;
withdrawn aircraft (10.1.4) leave the battle."""


class AirStrike(BaseModel):
    """An air-to-ground attack under way (10.4.1): the aircraft over ``hex``, the
    anti-aircraft attacks declared (defender -> aircraft), then the attacks declared
    (aircraft -> target); each group is resolved once declared."""

    hex: str
    aircraft: list[str]
    stage: Literal["flak", "strafe"] = "flak"
    flak: dict[str, str] = Field(default_factory=dict)
    strafe: dict[str, str] = Field(default_factory=dict)
    purpose: Literal["attack", "land", "launch"] = "attack"  # land/launch: 10.6.3-10.6.4, class C


class AirState(BaseModel):
    """The air war: each aircraft's space on the duty chart, the sides done committing."""

    duty: dict[str, Duty] = Field(default_factory=dict)
    committed: list[str] = Field(default_factory=list)  # sides that said ``commit`` alone: done (10.1.1)
    sealed: list[str] = Field(default_factory=list)  # 10.1.1: the seals of this phase's assignments
    arrived: dict[str, int] = Field(default_factory=dict)  # aircraft -> turn it came (10.1.4)
    strike: AirStrike | None = None
    landed: dict[str, int] = Field(default_factory=dict)  # 10.6.1: PKA -> turn it left its PK41
    landings: list[tuple[str, str]] = Field(default_factory=list)  # 10.6: (Hornisse, hex) still to land


class PilotState(BaseModel):
    """One pilot token (18.1): its abilities, rank points and where it is."""

    side: Literal["merc", "strahl"]
    number: int
    name: str
    rank: str
    rank_points: int = Field(ge=0, le=10)
    attack: int = Field(ge=-4, le=4)
    defence: int = Field(ge=-4, le=4)
    dogfight: int = Field(ge=-4, le=4)
    unit: str | None = None  # the unit it pilots (18.1.3); for an escaped pilot its own token
    status: Literal["in", "afoot", "killed", "lost", "escaped", "captured"] = "in"  # lost: with its unit
    kills: int = 0  # 18.3.3: non-infantry units destroyed
    raises: int = 0  # 18.3.3: abilities raised so far
    recruited: bool = False  # 18.3.1


class Command(BaseModel):
    """One side's command (scenario notes b): primary and secondary commander pilots."""

    primary: int | None = None
    secondary: int | None = None


class Crew(BaseModel):
    """The pilots of a game and the options of part 18."""

    pilots: dict[str, PilotState] = Field(default_factory=dict)  # "merc-1" -> pilot
    command: dict[str, Command] = Field(default_factory=dict)  # side -> commanders
    controllers: dict[str, int] = Field(default_factory=dict)  # unit -> PC pilot (16.1.1)
    escape: bool = False  # 18.2, optional
    creation: bool = False  # 18.3, optional
