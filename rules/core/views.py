"""View models: what a renderer draws, built by each system's ``view(state)``.

One model per geometry, shared by every system of that geometry, so ``render/`` has one
renderer per geometry and never imports a system package:

* :class:`AreaMapView`: numbered areas with polygons (Raid and Riposte);
* :class:`NetworkView`: point-to-point spaces and routes, with a battle panel (Raiders);
* :class:`TableView`: a table measured in inches (Commando raid, platoon skirmish);
* :class:`HexMapView`: geomorphic boards of hexes (Maschinen Krieger).

Coordinates are in the view's own units (map units for areas and networks, inches for
tables); the renderer scales them.

**An open vocabulary** (issue 11, item 6): a view names its own sides and their colours
(:class:`SideStyle`; any ``#rrggbb`` colour, or none for the next colour of the renderer's
colour-blind safe default palette), its terrain styles (:class:`TerrainStyle`: fill and
texture), its marker pills (:class:`MarkerStyle`) and its mark kinds (:class:`MarkStyle`).
A key the view does not describe falls back to the renderer's generic defaults (common
terrain words, common mark kinds) and then to a neutral fallback style, so a new system
draws without any edit in ``render/``.  Renderers register by the view's ``kind``
(``render.renderer``).

Every view may also carry :class:`Change` items (what changed since a player's last order,
see :func:`changes_between`), ``focus`` ids (what the last action touched, for the phone-width
focus picture) and a result ``banner`` for the final picture.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from pydantic import BaseModel, Field

Point = tuple[float, float]


class SideStyle(BaseModel):
    """How a side or faction is told apart: a colour and a letter (never colour alone).

    ``colour`` is ``#rrggbb`` or a generic palette key; empty: the renderer's next
    colour-blind safe default.
    """

    key: str
    label: str
    letter: str
    colour: str = ""


class TerrainStyle(BaseModel):
    """How a terrain key is drawn: a fill colour and a texture (so greyscale still reads).

    ``texture``: ``dots`` (trees), ``squares`` (buildings), ``furrows`` (fields),
    ``contours`` (hills), ``waves`` (water), ``crosses`` (wire), ``outline`` (a heavy edge,
    e.g. a target) or ``none``.  ``label`` is the legend's word for it.
    """

    key: str
    fill: str = ""  # "#rrggbb" or a palette key; empty: the renderer's default for the key
    texture: str = ""  # empty: the renderer's default for the key (else none)
    label: str = ""


class MarkerStyle(BaseModel):
    """A marker pill on a counter: its short text, its fill colour and the legend's words."""

    key: str
    text: str
    fill: str = "#ecebe6"
    words: str = ""


class MarkStyle(BaseModel):
    """How a mark kind is drawn: ``line`` is ``arrow``, ``dashed-arrow``, ``heavy-arrow``,
    ``fire`` (dashed line to a burst), ``miss`` (dashed line to a ring), ``burst`` or ``ring``
    (a point)."""

    kind: str
    colour: str
    line: str = "arrow"
    words: str = ""


class Change(BaseModel):
    """Something that happened to a unit since a player's last order (what the ping shows)."""

    id: str  # the counter, unit or base id
    what: Literal["moved", "fired", "acted", "hit", "eliminated", "arrived", "left"]
    where: str | None = None  # an eliminated unit's last area or space (drawn there, gone)
    why: str = ""  # a unit that left: where it went ("aboard", "aloft", "escaped")


class Header(BaseModel):
    """The strip across the top: title, turn, phase and short status facts."""

    title: str
    turn: int | None = None
    max_turn: int | None = None
    #: The word before ``turn`` on the picture and in the digest ("Op" where a game counts
    #: operations, not turns).
    turn_word: str = "Turn"
    phase: str = ""
    facts: list[str] = Field(default_factory=list)  # "Initiative: NATO", "Airstrike: NATO"


class Mark(BaseModel):
    """Something that just happened, drawn on top: a move arrow, a fire line, an assault."""

    kind: str  # "move", "fire", "assault", "retreat", "place", "blast", "shot", "miss", or the
    # view's own (a MarkStyle), or anything else (drawn with the fallback style)
    points: list[Point]  # from ... to, in view coordinates
    text: str = ""  # "2 hits", "18.4\"", "miss"
    side: str | None = None  # faction key of who did it
    by: list[str] = Field(default_factory=list)  # ids of the units that did it (who fired)


class ViewBase(BaseModel):
    """What every view has: header, sides, styles, marks, legend, changes, focus, banner."""

    header: Header
    marks: list[Mark] = Field(default_factory=list)
    sides: list[SideStyle] = Field(default_factory=list)
    legend: list[str] = Field(default_factory=list)
    terrain_styles: list[TerrainStyle] = Field(default_factory=list)
    marker_styles: list[MarkerStyle] = Field(default_factory=list)
    mark_styles: list[MarkStyle] = Field(default_factory=list)
    changes: list[Change] = Field(default_factory=list)
    #: Ids (areas, spaces, units, counters) the last action touched: the focus picture's
    #: region.  Empty: the renderer uses the marks and the changes.
    focus: list[str] = Field(default_factory=list)
    #: The result on the final picture, e.g. "Soviet win: 14 VP to 9".
    banner: str | None = None
    #: Units off the map but not out of the game, with where they are ("aboard", "aloft",
    #: "withdrawn", "escaped"): one that leaves the map into this ``left``, not ``eliminated``.
    away: dict[str, str] = Field(default_factory=dict)


# -- areas -----------------------------------------------------------------------------------


class AreaView(BaseModel):
    """One map area."""

    id: str
    polygon: list[Point]
    centre: Point  # the centre dot (not always the middle, 7.3.2)
    terrain: str  # a TerrainStyle key of the view, or a generic word ("clear", "woods", ...)
    tm: int = 0  # terrain modifier, drawn on the area's label when not 0
    objective: Literal["main", "secondary"] | None = None
    controller: str | None = None  # faction/side key of who controls it, for objectives
    entrance: str | None = None  # e.g. "NATO 2" on a reinforcement entrance


class CounterView(BaseModel):
    """One counter on the map."""

    id: str
    label: str  # short name for the chip, e.g. "VDV-1"
    area: str | None  # None: off map (not drawn)
    faction: str  # SideStyle key
    reduced: bool = False
    ap: int | None = None
    ap_max: int | None = None
    markers: list[str] = Field(default_factory=list)  # "suppressed", "recovering", "airstrike"
    attached_to: str | None = None  # leaders and ATGM teams ride with a unit
    #: Whether an area's tally counts it as a unit ("Area 15: 2 units"): False for a leader or
    #: a team riding with a unit (rr 9.3, 9.7-9.9), shown by name after the count instead.
    counted: bool = True
    #: The key printed values in short, e.g. "2-3-7" (the view's legend says which they are):
    #: drawn on the chip where the area has room for it.
    values: str = ""


class LineFeature(BaseModel):
    """A river, road or bridge drawn over the areas."""

    kind: Literal["river", "bridge", "road", "rail"]
    points: list[Point]
    label: str = ""


class AreaMapView(ViewBase):
    """Everything an area-map snapshot shows."""

    kind: Literal["areamap"] = "areamap"
    width: float
    height: float
    areas: list[AreaView]
    lines: list[LineFeature] = Field(default_factory=list)
    counters: list[CounterView] = Field(default_factory=list)


# -- point-to-point networks -----------------------------------------------------------------


class SpaceView(BaseModel):
    """One space of a point-to-point map."""

    id: str
    name: str
    position: Point
    terrain: str
    staging: bool = False
    airfield: bool = False
    port: bool = False
    objective: str | None = None  # None: no marker; "?" face down; else its revealed name
    objective_done: bool = False


class RouteView(BaseModel):
    """A route between two spaces."""

    a: str
    b: str
    kind: str = "road"  # "road", "water", "air"


class UnitChip(BaseModel):
    """One unit in a force or a battle line."""

    id: str
    label: str
    faction: str
    detail: str = ""  # gear, "elite", combat value
    eliminated: bool = False


class ForceView(BaseModel):
    """A raider force (or a group of hostiles) standing in a space."""

    id: str
    space: str
    faction: str
    units: list[UnitChip]


class BattleShot(BaseModel):
    """One unit's fire in a battle round: its die and what it did."""

    unit: str
    target: str | None = None
    die: int | None = None
    result: str = ""


class BattleLine(BaseModel):
    """One side's line in a battle: its name and its units, in line order."""

    label: str
    faction: str
    units: list[UnitChip]


class BattlePanel(BaseModel):
    """The battle in progress: both lines, each unit's die and result, the Tactical Edge."""

    space: str
    round: int
    tactical_edge: str | None = None
    lines: list[BattleLine]
    shots: list[BattleShot] = Field(default_factory=list)
    #: Rounds fought earlier in the same order, in words ("Round 1: SAS-1 5 hit Bdb-1; ..."):
    #: one order may fight several rounds, and the picture shows each round's dice.
    earlier: list[str] = Field(default_factory=list)


class Track(BaseModel):
    """A numbered track (alert level, Ops left, RP)."""

    label: str
    value: int
    minimum: int = 0
    maximum: int | None = None


class NetworkView(ViewBase):
    """Everything a point-to-point snapshot shows."""

    kind: Literal["network"] = "network"
    width: float
    height: float
    spaces: list[SpaceView]
    routes: list[RouteView]
    forces: list[ForceView] = Field(default_factory=list)
    tracks: list[Track] = Field(default_factory=list)
    battle: BattlePanel | None = None


# -- inch tables -----------------------------------------------------------------------------


class TerrainShape(BaseModel):
    """A piece of terrain on an inch table: a polygon (or a circle), with a palette key."""

    id: str
    kind: str  # "building", "water", "dock", "wire", "cover", ...
    polygon: list[Point] = Field(default_factory=list)
    circle: tuple[float, float, float] | None = None  # x, y, radius
    label: str = ""


class TableUnit(BaseModel):
    """A unit base on the table."""

    id: str
    label: str
    faction: str
    x: float
    y: float
    radius: float = 0.5  # inches
    facing: float | None = None  # degrees, 0 = +x, counter-clockwise
    arc: float | None = None  # width of the fire arc in degrees, centred on facing
    markers: list[str] = Field(default_factory=list)
    eliminated: bool = False


class NamedPoint(BaseModel):
    """A named place on the table (a landing point, a target)."""

    name: str
    x: float
    y: float


class RangeCircle(BaseModel):
    """A measured range drawn as a circle; ``light``: a thin outline (a reminder, not news)."""

    x: float
    y: float
    radius: float
    label: str = ""
    light: bool = False


class TableView(ViewBase):
    """Everything an inch-table snapshot shows."""

    kind: Literal["table"] = "table"
    width: float  # inches
    height: float
    grid: float = 6.0
    terrain: list[TerrainShape] = Field(default_factory=list)
    units: list[TableUnit] = Field(default_factory=list)
    points: list[NamedPoint] = Field(default_factory=list)
    circles: list[RangeCircle] = Field(default_factory=list)
    #: Zones a move must stop at (e.g. 6" from an enemy), drawn under the bases.
    zones: list[RangeCircle] = Field(default_factory=list)


# -- hex maps -------------------------------------------------------------------------------

HexPos = tuple[int, int]  # 0-based (column, row) over the whole map; even book columns sit lower


class HexBoardView(BaseModel):
    """One geomorphic board of the map: its number and where its hex 0101 lies."""

    board: int
    col: int
    row: int
    columns: int
    rows: int


class HexCellView(BaseModel):
    """One hex: its terrain (a style key), elevation level and printed number."""

    col: int
    row: int
    number: str  # "1801", as printed in the hex
    terrain: str = "clear"  # style key: "clear", "forest", "building", "water", "hill", ...
    elevation: int = 0  # 6.2: level 0 or 1 (shaded darker the higher)
    partial: bool = False  # a partial building hex (7.1.7), drawn as a building block in a corner
    road: bool = False


class HexSideView(BaseModel):
    """A hexside feature (a ridgeline, a wall) on side ``direction`` (0 = N, clockwise) of a hex."""

    col: int
    row: int
    direction: int = Field(ge=0, le=5)
    kind: str = "ridge"  # "ridge", "wall"


class HexCounterView(BaseModel):
    """One counter, centred in its hex; several in a hex are drawn as a stack with a count."""

    id: str
    label: str  # short type name on the counter: "AFS", "PKA", "Inf"
    col: int
    row: int
    faction: str  # SideStyle key
    facing: int | None = None  # 0..5 (0 = N, clockwise) where facing matters; None otherwise
    markers: list[str] = Field(default_factory=list)  # "Arm. Disabled", "Immobilized", "R3"
    top: bool = False  # the counter shown on top of its stack (the last to act)
    #: A concealment counter (Maschinen Krieger 15.4.1): it stands for the stack under it,
    #: whose units are not in the view.  "What changed" reads a unit gone where one now
    #: stands as hidden, not eliminated, and a counter put down or taken up as no change.
    cover: bool = False


class HexMarkerView(BaseModel):
    """A marker lying in a hex on its own: smoke, fire, a depot, a defensive position, an AMU."""

    col: int
    row: int
    kind: str  # style key: "smoke", "fire", "depot", "position", "amu", "objective"
    text: str = ""  # "2" for smoke that lasts two more turns, "-1" for a position


class HexMark(BaseModel):
    """The last move or attack, drawn on top: hex positions from ... to."""

    kind: Literal["move", "fire", "assault", "retreat", "place", "blast", "shot", "miss"]
    hexes: list[HexPos]
    text: str = ""  # "hit: D", "miss (needs 5)"
    side: str | None = None
    by: list[str] = Field(default_factory=list)  # ids of the units that did it (who fired)


class PanelEntry(BaseModel):
    """One line of a side panel: a side's badge, a short label and its words."""

    label: str  # "Flk", "#10"
    text: str = ""  # "M-Falke1 · George Conan +1/+0/+2"
    faction: str | None = None  # SideStyle key for the badge
    dim: bool = False  # drawn faded (used, lost, not flying)


class PanelSection(BaseModel):
    """A titled block of a side panel: a space of a duty chart, a side's pilots."""

    title: str
    entries: list[PanelEntry] = Field(default_factory=list)


class HexMapView(BaseModel):
    """Everything a hex-map snapshot shows.

    ``focus``: the hexes of the last action; when given, the posted picture is a crop around
    them (hex numbers in every hex) and ``/game map`` shows the whole map (``whole=True``).
    """

    kind: Literal["hexmap"] = "hexmap"
    header: Header
    boards: list[HexBoardView]
    cells: list[HexCellView]
    hexsides: list[HexSideView] = Field(default_factory=list)
    counters: list[HexCounterView] = Field(default_factory=list)
    markers: list[HexMarkerView] = Field(default_factory=list)
    marks: list[HexMark] = Field(default_factory=list)
    focus: list[HexPos] = Field(default_factory=list)
    whole: bool = False
    sides: list[SideStyle] = Field(default_factory=list)
    legend: list[str] = Field(default_factory=list)
    panel: list[PanelSection] = Field(default_factory=list)  # drawn beside the map (duty chart, pilots)
    changes: list[Change] = Field(default_factory=list)  # see ViewBase.changes
    banner: str | None = None  # see ViewBase.banner
    away: dict[str, str] = Field(default_factory=dict)  # see ViewBase.away
    #: Units out of the game that everyone was told of (destroyed): one the view did not show
    #: before (under a concealment counter) is ``eliminated`` all the same.
    lost: list[str] = Field(default_factory=list)


AnyView = AreaMapView | NetworkView | TableView | HexMapView


# -- what changed ------------------------------------------------------------------------------


#: Words of markers that mean harm (a unit that gains one was hit).  Other markers (what a
#: unit is or may still do: "officer", "2 act", "OW", "recovering") are not hits.
HARM_WORDS = ("supp", "sup×", "pin", "disabl", "immobil", "wound", "damag", "reduc", "disarm",
              "shaken", "broken", "rout", "burning", "kill")


def harm(markers: list[str], reduced: bool = False) -> frozenset[str]:
    """The harm a unit shows: its harm markers, and ``reduced`` when it is on its weak side."""
    out = {m.lower() for m in markers if any(w in m.lower() for w in HARM_WORDS)}
    return frozenset(out | ({"reduced"} if reduced else set()))


#: What is compared of one unit: its place, its harm markers, whether it is gone.
Facts = tuple[object, frozenset[str], bool]


def _unit_facts(view: BaseModel, spent: dict[str, int | None]) -> dict[str, Facts]:
    """``id -> (where, harm, gone)`` for every unit of a view, whatever its geometry (and each
    counter's AP left into ``spent``).  A Raiders-like force unit's detail (gear, supply) is
    not harm: such a unit is hit by being eliminated."""
    out: dict[str, tuple[object, frozenset[str], bool]] = {}
    for c in getattr(view, "counters", []):
        if isinstance(c, HexCounterView):  # a hex counter: where is its hex
            out[c.id] = ((c.col, c.row), harm(c.markers), False)
            continue
        out[c.id] = (c.area, harm(c.markers, c.reduced), c.area is None)
        spent[c.id] = c.ap
    for f in getattr(view, "forces", []):
        for u in f.units:
            out[u.id] = (f.space, frozenset(), u.eliminated)
    for u in getattr(view, "units", []):
        out[u.id] = ((round(u.x, 2), round(u.y, 2)), harm(u.markers), u.eliminated)
    return out


#: Mark kinds that mean the units named in ``by`` fired (or struck) at something.
FIRE_KINDS = frozenset({"fire", "shot", "miss", "blast", "assault"})


def fired_in(view: BaseModel) -> set[str]:
    """The units a view shows firing in its last action: the ``by`` of its fire, shot, miss,
    blast and assault marks, and every unit that shot in its battle panel."""
    out = set(fired_by_marks(getattr(view, "marks", [])))
    battle = getattr(view, "battle", None)
    if battle is not None:
        out |= {shot.unit for shot in battle.shots}
    return out


def fired_by_marks(marks: Iterable[Mark]) -> frozenset[str]:
    """The units named in ``by`` of the fire, shot, miss, blast and assault ``marks``: what
    :func:`fired_in` reads of a view's marks, and what a system whose view copies its marks
    from the state reads of the state (``GameSystem.fired``)."""
    return frozenset(uid for m in marks if m.kind in FIRE_KINDS for uid in m.by)


@dataclass(frozen=True)
class Seen:
    """What "what changed" needs of one view, and nothing more (:func:`seen`): each unit's
    place, harm and whether it is gone, each counter's AP left, and the units it shows
    firing; the concealment counters with their place and side, and the units known lost.
    The service keeps these of recent steps instead of their views (a view of a big map is
    ~100 kB), so a picture builds only its own step's view (issue 23)."""

    units: dict[str, tuple[object, frozenset[str], bool]]
    ap: dict[str, int | None]
    fired: frozenset[str]
    covers: dict[str, tuple[object, str]] = field(default_factory=dict)
    lost: frozenset[str] = frozenset()
    sides: dict[str, str] = field(default_factory=dict)  # each hex counter's side


def _covers(view: BaseModel) -> dict[str, tuple[object, str]]:
    """The concealment counters of a view: ``id -> (hex, side)``."""
    return {c.id: ((c.col, c.row), c.faction) for c in getattr(view, "counters", [])
            if isinstance(c, HexCounterView) and c.cover}


def seen(view: BaseModel) -> Seen:
    """The facts of ``view`` that :func:`changes_between` compares."""
    ap: dict[str, int | None] = {}
    units = _unit_facts(view, ap)
    return Seen(units=units, ap=ap, fired=frozenset(fired_in(view)), covers=_covers(view),
                lost=frozenset(getattr(view, "lost", [])), sides=_sides(view))


def _sides(view: BaseModel) -> dict[str, str]:
    """Each hex counter's side (a unit gone under a concealment counter is of its side)."""
    return {c.id: c.faction for c in getattr(view, "counters", []) if isinstance(c, HexCounterView)}


def changes_between(before: BaseModel, after: BaseModel, fired: set[str] | None = None) -> list[Change]:
    """What changed for each unit from one view of a game to a later one (pure).

    A unit that lost strength or gained a harm marker (:data:`HARM_WORDS`: suppressed,
    pinned, disabled ...) was ``hit`` (even if it moved too); one that changed place ``moved``; one gone from the map
    into ``after.away`` (aboard, in the air, withdrawn) ``left``; one otherwise gone from the
    map or marked eliminated was ``eliminated``; one new on the map ``arrived``; a counter that spent action points where it stood ``acted``.  ``fired``
    lists the units that fired in between (:func:`fired_in` of each view in between; by
    default those of ``after``'s own marks).  The picture that pings a player marks them, and ``/game status``
    says them in words (:func:`change_lines`).
    """
    return changes_seen(seen(before), after, fired)


def changes_seen(before: Seen, after: BaseModel, fired: set[str] | frozenset[str] | None = None) -> list[Change]:
    """:func:`changes_between` from what was :func:`seen` of the earlier view."""
    compare = _Comparison.of(before, after, fired_in(after) if fired is None else fired)
    out = [c for uid, facts in compare.new.items() if (c := compare.on_map(uid, facts)) is not None]
    out += [c for uid in before.units if (c := compare.off_map(uid)) is not None]
    told = {c.id for c in out}
    out += [Change(id=uid, what="eliminated") for uid in compare.lost  # lost out of sight (15.4.1)
            if uid not in before.lost and uid not in told]
    return out


@dataclass(frozen=True)
class _Comparison:
    """One comparison of :func:`changes_seen`: the earlier facts and the later view's."""

    before: Seen
    fired: set[str] | frozenset[str]
    new: dict[str, Facts]
    new_ap: dict[str, int | None]
    away: dict[str, str]
    covers: dict[str, tuple[object, str]]
    sides: dict[str, str]
    lost: list[str]
    #: 15.4.1 (mak): the sides whose concealment counters moved or were taken up.
    shifted: frozenset[str]
    #: Where the later view says a unit fell (its own ``changes``): a unit that retreated
    #: and was eliminated in the same action fell where it retreated to, not where it stood.
    fell: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, before: Seen, after: BaseModel, fired: set[str] | frozenset[str]) -> "_Comparison":
        """The later view's facts, compared against ``before``."""
        new_ap: dict[str, int | None] = {}
        new = _unit_facts(after, new_ap)
        covers = _covers(after)
        shifted = frozenset(side for cid, (place, side) in before.covers.items()
                            if covers.get(cid, (None,))[0] != place)
        fell = {c.id: c.where for c in getattr(after, "changes", [])
                if isinstance(c, Change) and c.what == "eliminated" and c.where is not None}
        return cls(before=before, fired=fired, new=new, new_ap=new_ap, away=getattr(after, "away", {}),
                   covers=covers, sides=_sides(after), lost=getattr(after, "lost", []), shifted=shifted,
                   fell=fell)

    def on_map(self, uid: str, facts: Facts) -> Change | None:
        """The change of a unit the later view shows (None: none to tell)."""
        where, how, gone = facts
        old = self.before.units.get(uid)
        if old is None:
            return self._new(uid, where, gone)
        was_where, was_how, was_gone = old
        if gone and not was_gone:
            return _gone(uid, self.fell.get(uid, was_where), self.away)
        if not gone and how - was_how:  # gained a harm marker or its reduced side
            return Change(id=uid, what="hit")  # graver than a move (hit, then retreated)
        if not gone and where != was_where:
            return Change(id=uid, what="moved")
        if self.fired and uid in self.fired:
            return Change(id=uid, what="fired")
        spent = self.new_ap.get(uid)
        if spent is not None and (self.before.ap.get(uid) or 0) > spent:
            return Change(id=uid, what="acted")  # spent action points where it stood
        return None

    def _new(self, uid: str, where: object, gone: bool) -> Change | None:
        """15.4.1 (mak): a counter put down, moved off or taken up is told in the order's own
        lines; a unit that goes under one, or comes out from under one, neither left nor
        arrived; out from under a marker of its side that moved or was taken up, it moved."""
        if gone or uid in self.covers or (where, self.sides.get(uid)) in self.before.covers.values():
            return None  # a counter put down, or a unit seen where its marker stood
        return Change(id=uid, what="moved" if self.sides.get(uid) in self.shifted else "arrived")

    def off_map(self, uid: str) -> Change | None:
        """The change of a unit the earlier view showed and the later one does not."""
        old = self.before.units[uid]
        if uid in self.new or old[2] or uid in self.before.covers:
            return None
        side = self.before.sides.get(uid)
        if uid not in self.lost and uid not in self.away and any(s == side for _, s in self.covers.values()):
            # Under a concealment counter of its side: where it stood (hidden, no change),
            # or one it walked into in the open (moved).
            return None if (old[0], side) in self.covers.values() else Change(id=uid, what="moved")
        return _gone(uid, self.fell.get(uid, old[0]), self.away)


def focused_on(view: BaseModel, changes: list[Change]) -> BaseModel:
    """``view`` with ``changes`` marked and its focus on the units they name: a focus picture
    of what changed over a turn.  A hex map focuses on hexes, not ids (``HexMapView.focus``):
    the hexes where the changed units now stand; none left on the map, the whole map."""
    ids = list(dict.fromkeys(change.id for change in changes))
    if isinstance(view, HexMapView):
        named = set(ids)
        hexes = list(dict.fromkeys((c.col, c.row) for c in view.counters if c.id in named))
        return view.model_copy(update={"changes": changes, "focus": hexes})
    return view.model_copy(update={"changes": changes, "focus": ids})


def changes_along(views: Sequence[BaseModel]) -> list[Change]:
    """What happened to each unit over a run of views, step by step (pure): a unit that
    moved and came back still ``moved``, one that arrived and fell in between was
    ``eliminated`` (comparing only the first and last views would miss both).  One change
    per unit and kind, in the order they first happened; the digest reads it."""
    out: list[Change] = []
    seen: set[tuple[str, str]] = set()
    for before, after in zip(views, views[1:]):
        for change in changes_between(before, after):
            if (change.id, change.what) not in seen:
                seen.add((change.id, change.what))
                out.append(change)
    return out


def _gone(uid: str, was_where: object, away: dict[str, str]) -> Change:
    """A unit no longer on the map: it ``left`` (``away``: aboard, in the air, withdrawn)
    or was ``eliminated`` where it last stood."""
    if uid in away:
        return Change(id=uid, what="left", why=away[uid])
    return Change(id=uid, what="eliminated", where=_place(was_where))


def changes_over(before: BaseModel, between: Iterable[BaseModel], after: BaseModel) -> list[Change]:
    """What changed from ``before`` (the view at a player's last order) to ``after`` (now),
    the units that fired read from the views of every step in between and ``after``'s own
    marks (each view shows only its own action's marks).  The service's ping and
    ``/game status`` use it, and so do the samples (:mod:`rules.core.samples`)."""
    return changes_seen_over(seen(before), (frozenset(fired_in(view)) for view in between), after)


def changes_seen_over(before: Seen, between: Iterable[frozenset[str]], after: BaseModel) -> list[Change]:
    """:func:`changes_over` from what was :func:`seen` of the view at the player's last
    order and who fired at each step in between (``GameSystem.fired``).

    A unit counts as having fired when a view shows it firing and the view before did not:
    a system whose views keep a whole side turn's marks (commando's ``last_marks``) still
    shows, after the player's last order, the fire of that player's own turn (issue 46: PB2
    and AC1, the Germans' own, were "changed since your last order")."""
    fired: set[str] = set()
    shown = before.fired
    for ids in [*between, frozenset(fired_in(after))]:
        fired |= ids - shown
        shown = ids
    return changes_seen(before, after, fired)


def _place(where: object) -> str | None:
    """An area or space id as a string (a table position is not one)."""
    return where if isinstance(where, str) else None


def change_lines(changes: list[Change]) -> list[str]:
    """The changes in words, grouped: ``Moved: VDV-1, BMD-2`` (short lines for a phone)."""
    words = {"moved": "Moved", "fired": "Fired", "acted": "Acted", "hit": "Hit",
             "eliminated": "Eliminated", "arrived": "Arrived", "left": "Off the map"}
    lines = []
    for what, word in words.items():
        ids = [c.id + (f" ({c.why})" if c.why else "") for c in changes if c.what == what]
        if ids:
            lines.append(f"{word}: {', '.join(ids)}")
    return lines
