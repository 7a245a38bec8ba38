"""The state of vehicles' overruns (13.2) and off-board artillery (17.0).

Kept apart from ``state.py`` (which imports these models) so that the parts of issue 18 stay
in their own modules.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

Side = Literal["merc", "strahl"]


class Overrun(BaseModel):
    """A vehicle's overrun attack under way (13.2): the close-quarters approach of 9.1, the
    attack on ``target`` (with the riders that join it, 13.2.3), then out through ``through``."""

    unit: str
    hex: str  # the enemy hex overrun
    through: str  # 13.2.1: the hex beyond, opposite the side it entered by
    target: str
    riders: bool = False  # 13.2.3: the transported units attack too
    stage: Literal["adjacent", "same"] = "adjacent"
    fired_adjacent: list[str] = Field(default_factory=list)  # 9.2: case 1 excludes case 2


class Battery(BaseModel):
    """An off-board artillery unit of a scenario (``Type II … ⑥W−80×5 (2)``)."""

    id: str  # "M-Art1"
    side: Side
    code: str  # the scenario's notation, as printed
    type: str  # "I", "II", "III"
    board: int
    edge: Literal["N", "S", "E", "W"]
    distance: int  # hexes from that board's edge
    total: int  # rounds in the whole game
    per_turn: int  # rounds a turn
    fired: int = 0  # rounds fired so far: their victory points are O.G.P. item 2


class ArtilleryRequest(BaseModel):
    """One line of the Artillery Request Record Sheet (17.1.5)."""

    battery: str
    side: Side
    turn: int  # the turn of the request
    kind: Literal["a", "b", "c", "d", "e"]  # 17.1.4
    hex: str  # target map board and hex
    observer: str
    requester: str
    rounds: int = Field(ge=1, le=12)
    mines: bool = False  # 19.1.6: the shot type "mines" (17.1.5 records the shot type)
    state: Literal["pending", "done", "cancelled"] = "pending"
