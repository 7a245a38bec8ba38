"""How big a scenario file may make a game: the limits of scale every system's scenario model
applies (issue 45), refused while the file is validated, before anything is drawn.

A file is text a stranger may write.  Unbounded, one number made the bot draw a table
``1e308`` inches wide (over 4 GB before the render was killed), a million inches took 425 s
to draw and an area outline of 20,000 corners 2.2 s of CPU.  The rulebooks play on a table
a few feet across (moves of 6" and 12", ranges of 12" to a few feet) or on one printed map,
with a few dozen units a side; these limits are several times that, and no file within them
comes near the render's budget (issue 41's render pool bounds the worker besides).

Each limit is a pydantic type or validator the models use, so ``referee scenario check`` and
``/game new scenario-file:`` (both through :func:`rules.core.scenariofile.check`) refuse the
same file with the same sentence: what is wrong and what is allowed.

* :data:`Coordinate`: a finite number within :data:`COORDINATE` (a point, a corner);
* :data:`Length`: a finite positive distance up to :data:`LENGTH` (a range, a radius);
* :data:`TableSide` (inches) and :data:`MapSide` (a printed map's own units), and
  :func:`table_shape` (no side more than :data:`ASPECT` times the other);
* :data:`Outline`: an outline or line of at most :data:`CORNERS` corners;
* :func:`pieces` (a list's length, checked before its items are read) and
  :func:`units_in_all`;
* :func:`markup_problems`: no text of the file (a title, a note, a unit's name) that Discord
  would read as a ping, a mention, a link or formatting, or that would pass for the bot's
  own marks: the rules repeat a file's names in their lines, where nothing escapes them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator, ValidationInfo

#: A tabletop's side in inches (commando, skirmish): from half a foot to 20 feet; the
#: shipped tables are 48 by 36 and 48 by 48.
TABLE_INCHES = (6.0, 240.0)
#: A printed map's side in its own units (rr, raiders: 1600 by 1000, the picture's pixels).
MAP_UNITS = (100.0, 5000.0)
#: No side of a table or map more than this many times the other: the picture keeps its
#: width, so a thin strip would be drawn tens of thousands of pixels tall.
#: (8: a test strip of road, 500 by 100, and a long river crossing are real shapes.)
ASPECT = 8.0
#: Any coordinate, in the table's or map's units: finite, and this far from the corner at
#: most (a place off the table is refused by the system's own checks, with the table's size).
COORDINATE = 10_000.0
#: Any distance (a weapon's range, a radius, a height), in the same units.
LENGTH = 10_000.0
#: Corners of one outline or line (an area, a terrain piece, a river); the shipped maps'
#: most detailed area has 35.
CORNERS = 200
#: Corners of every outline and line of a scenario together: the cross-field checks and the
#: set-up compare outlines with one another (30 areas of 190 corners, 5,700 in all, take
#: about half a second each to check, set up and draw).
CORNERS_IN_ALL = 6000
#: Entries of one list of a scenario (terrain pieces, areas, spaces, routes, named points,
#: force lines...); the shipped scenarios have 40 at most.
PIECES = 400
#: Units, teams or counters a scenario sets up in all; the shipped ones have under 60.
UNITS = 400


def _number(value: float) -> str:
    return f"{value:g}" if math.isfinite(value) else str(value)


def _coordinate(value: float) -> float:
    if not math.isfinite(value) or abs(value) > COORDINATE:
        raise ValueError(f"{_number(value)} is not a place on a table or map; a coordinate is a "
                         f"number from {-COORDINATE:,.0f} to {COORDINATE:,.0f}")
    return value


def _length(value: float) -> float:
    if not math.isfinite(value) or not 0 <= value <= LENGTH:
        raise ValueError(f"{_number(value)} is not a distance this game can measure; a distance "
                         f"is a number from 0 to {LENGTH:,.0f}")
    return value


def _side(limits: tuple[float, float], unit: str) -> Callable[[float], float]:
    low, high = limits

    def side(value: float) -> float:
        if not math.isfinite(value) or not low <= value <= high:
            raise ValueError(f"{_number(value)} {unit} is not a size this game is played on; a side "
                             f"is {low:g} to {high:g} {unit}")
        return value

    return side


def _corners(value: Any) -> Any:
    if isinstance(value, (list, tuple)) and len(value) > CORNERS:
        raise ValueError(f"this outline has {len(value):,} corners; one may have at most {CORNERS} "
                         "(the shipped maps' most detailed area has 35)")
    return value


#: A point's coordinate (finite, within :data:`COORDINATE`).
Coordinate = Annotated[float, AfterValidator(_coordinate)]
#: A distance: a range, a radius, a height (finite, 0 to :data:`LENGTH`).
Length = Annotated[float, AfterValidator(_length)]
#: ``(x, y)`` on a table or map.
Point = tuple[Coordinate, Coordinate]
#: An outline (polygon) or a line, of at most :data:`CORNERS` corners.
Outline = Annotated[list[Point], BeforeValidator(_corners)]
#: A tabletop's width or height in inches (:data:`TABLE_INCHES`).
TableSide = Annotated[float, AfterValidator(_side(TABLE_INCHES, "inches"))]
#: A printed map's width or height in its units (:data:`MAP_UNITS`).
MapSide = Annotated[float, AfterValidator(_side(MAP_UNITS, "map units"))]


def table_shape(width: float, height: float) -> None:
    """Refuse (ValueError) a table or map more than :data:`ASPECT` times as long as wide."""
    if max(width, height) > ASPECT * min(width, height):
        raise ValueError(f"the table is {width:g} by {height:g}; one side may be at most "
                         f"{ASPECT:g} times the other")


def pieces(value: Any, info: ValidationInfo) -> Any:
    """A ``field_validator(..., mode="before")`` body: a list (or mapping) of a scenario holds
    at most :data:`PIECES` entries, counted before any is read."""
    if isinstance(value, (list, tuple, dict)) and len(value) > PIECES:
        what = (info.field_name or "entries").replace("_", " ")
        raise ValueError(f"{len(value):,} {what}; a scenario may have at most {PIECES} "
                         "(the shipped ones have 40 at most)")
    return value


def corners_in_all(outlines: Any) -> None:
    """Refuse (ValueError) a scenario whose outlines and lines hold more than
    :data:`CORNERS_IN_ALL` corners together."""
    count = sum(len(outline) for outline in outlines)
    if count > CORNERS_IN_ALL:
        raise ValueError(f"the outlines and lines have {count:,} corners in all; a scenario may have "
                         f"at most {CORNERS_IN_ALL:,} (the shipped maps have under 800)")


def units_in_all(count: int) -> None:
    """Refuse (ValueError) a scenario that sets up more than :data:`UNITS` units in all."""
    if count > UNITS:
        raise ValueError(f"the scenario sets up {count:,} units; a game may have at most {UNITS} "
                         "(the shipped scenarios have under 60)")


#: What a scenario's text may not hold, each with the words a refusal uses (issue 45): Discord
#: would ping, link, format or reorder it, or a reader take it for the bot's word.
_MARKUP = [
    (re.compile(r"@(everyone|here)", re.IGNORECASE), "a mass mention"),
    (re.compile(r"<(@|#|/|:|a:|t:)"), "a mention or tag"),
    (re.compile(r"\]\("), "a masked link"),
    # One asterisk is a word ('*' ACM, 7.3.5); two can make italics between them.
    (re.compile(r"\*.*\*|`|__|~~|\|\|", re.DOTALL), "formatting"),
    (re.compile("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]"), "a direction mark"),
    (re.compile("[\x00-\x08\x0b-\x1f\x7f]"), "a control character"),
    (re.compile("[🔗🔒🔓]"), "one of the bot's own marks"),
]
#: Scenario text's allowed form, said in every refusal.
PLAIN = ("text in a scenario is shown as typed, so write plain words: no @everyone or @here, "
         "<…> mentions, [text](links), *pairs*, `, __, ~~, ||, direction marks or the bot's 🔗 🔒 🔓")


def markup_problems(data: Any, loc: tuple[str | int, ...] = ()) -> list[tuple[tuple[str | int, ...], str]]:
    """Every text of a scenario's data (keys and values) that Discord would read as more than
    words, as ``(path, message)``; the walk is flat (a stack), so depth costs nothing."""
    out: list[tuple[tuple[str | int, ...], str]] = []
    stack: list[tuple[tuple[str | int, ...], Any]] = [(loc, data)]
    while stack:
        where, value = stack.pop()
        if isinstance(value, dict):
            stack += [(where + (key,), item) for key, item in value.items()]
            texts = [str(key) for key in value]
        elif isinstance(value, list):
            stack += [(where + (index,), item) for index, item in enumerate(value)]
            texts = []
        else:
            texts = [value] if isinstance(value, str) else []
        for text in texts:
            found = next((what for pattern, what in _MARKUP if pattern.search(text)), None)
            if found is not None:
                shown = text[:30].encode("unicode_escape").decode("ascii") if found != "formatting" else text[:30]
                out.append((where, f"'{shown}' holds {found}; {PLAIN}."))
    return sorted(out, key=lambda problem: [str(part) for part in problem[0]])


__all__ = ["ASPECT", "CORNERS", "CORNERS_IN_ALL", "COORDINATE", "LENGTH", "MAP_UNITS", "PIECES", "TABLE_INCHES", "UNITS",
           "Coordinate", "Length", "MapSide", "Outline", "PLAIN", "Point", "TableSide", "markup_problems",
           "corners_in_all", "pieces", "table_shape", "units_in_all"]
