"""The sealed orders of set-up and concealment: laying minefields (19.1) and concealment
markers (15.0).  Each is ``sealed``: given privately, its options never shown in public; the
public reads the seal's words ("Strahl laid its minefields (sealed: 3f0b…)")."""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field

from rules.core.contract import Action


class LayMines(Action):
    """Lay your minefields at set-up, sealed: hex=attack, 5 to 13 each, within your total (19.1).

    One order with the whole layout (19.1: recorded "on a piece of paper"; 19.1.5: never moved):
    fields:"5:0409=7 5:0410=6".  Your opponent sees only that you laid them, never where or how
    many, until one is found (14.4.1), entered (19.1.2) or crossed by your own units (19.1.8)."""

    group: ClassVar[str] = "mines"
    name = "lay"
    rule = "19.1"
    sealed: ClassVar[bool] = True
    fields: str = Field(description='hex=attack for each minefield, e.g. "5:0409=7 5:0410=6" (5-13, 19.1.1)',
                        json_schema_extra={"free_text": True})


class Hide(Action):
    """Put concealment markers over one of your units and its stack, out of enemy sight (15.4.1).

    Sealed: your opponent sees a marker (M-Con1) appear in the hex, not what is under it.  More
    markers on one stack hide its size (15.4.3).  An enemy unit's line of sight lifts them all."""

    group: ClassVar[str] = "conceal"
    name = "hide"
    rule = "15.4.1"
    sealed: ClassVar[bool] = True
    unit: str = Field(description="your unit on the map no enemy unit sees, e.g. M-AFS1")
    count: int = Field(1, ge=1, le=20, description="markers from your supply to put on it (15.4.3)")


class Shift(Action):
    """Move one of your concealment markers onto another of your units (15.4.2).

    Sealed: the marker is seen to move, not which unit it now covers.  A stack it leaves with no
    marker left is seen again."""

    group: ClassVar[str] = "conceal"
    name = "shift"
    rule = "15.4.2"
    sealed: ClassVar[bool] = True
    marker: str = Field(description="your marker on the map, e.g. M-Con1")
    to: str = Field(description="your unit on the map no enemy unit sees, e.g. M-AFS2")


SECRET_ACTIONS = (LayMines, Hide, Shift)
