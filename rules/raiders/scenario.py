"""Raiders scenario data: map, Terrain Effects Chart, Recruit Table, bin, cards, tables.

The system rules (1.0-27.0) print procedures only, so each scenario is authored as a JSON file
in ``data/`` and validated here.  Every value the rulebook does not print is our stand-in and
is marked ``stand_in`` in the file, so a group that owns a Raiders game can type in its own
counters and cards.  Routes are read into a :class:`rules.core.network.Network`.
"""

from __future__ import annotations

from functools import cached_property
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from rules.core import bounds, scenariofile
from rules.core.network import Network, Route
from rules.core.scenariofile import Loc, ScenarioFormat

Faction = Literal["raider", "hostile"]
Point = bounds.Point


class Frozen(BaseModel):
    """Scenario data never changes during play."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    #: True: the value is ours, not printed in the rulebook (every line of our own scenario).
    stand_in: bool = True


class TerrainSpec(Frozen):
    """One line of the Terrain Effects Chart (3.0, 12.0 STOP, 15.1 step 2 ties)."""

    key: str
    name: str
    stop: bool = False  # 12.0: a force entering this space moves no farther this Op
    edge_tie: Faction  # 15.1 (2): who has Tactical Edge on a tied roll here
    palette: str = ""  # the renderer's colour key, if not ``key`` itself


class SpaceSpec(Frozen):
    """One space of the map (3.0)."""

    id: str
    name: str
    position: Point
    terrain: str
    staging: bool = False  # 3.0 Staging Area: unlimited stacking (10.2), no Ops card (13.0)
    airfield: bool = False  # 18.1
    port: bool = False  # 18.2 port or coastal space
    #: Former ids of this space, still accepted in orders and read in stored games (issue 40
    #: made the ids one style: ``el-adem``, not ``eladem``).
    aliases: list[str] = Field(default_factory=list)


class UnitType(Frozen):
    """One line of the Recruit Table: a kind of raider counter (4.0, 9.0)."""

    id: str
    name: str
    prefix: str  # counter ids are prefix-1, prefix-2...
    count: int = Field(ge=1, le=9)  # how many counters the game has
    combat: int = Field(ge=1, le=6)
    movement: int = Field(ge=0, le=4)  # 0: static (4.0)
    elite: bool = False  # 15.1 (2): +1 to the Tactical Edge roll
    cost: int = Field(ge=0)  # RP (9.0); leaders are never bought (20.0)
    leader: bool = False  # 20.0; carries one gear (23.2) and does not count for stacking
    pioneer: bool = False  # 21.0 demolition
    guide: bool = False  # 22.0 card swap
    scout: bool = False  # 27.0 scouting
    names: list[str] = Field(default_factory=list)  # leaders: one name per counter


class GearType(Frozen):
    """One kind of gear counter (23.0) and what it does in this scenario."""

    id: str
    name: str
    prefix: str
    count: int = Field(ge=1, le=9)
    cost: int = Field(ge=0)
    #: "supply": 24.0 forced march or maximum firepower, expended;
    #: "explosives": + ``bonus`` to one demolition roll (21.1), expended;
    #: "weapon": + ``bonus`` to its carrier's combat value in battle (max 6), kept.
    effect: Literal["supply", "explosives", "weapon"]
    bonus: int = 0


class HostileSpec(Frozen):
    """One counter of the Hostiles Bin (3.0, 14.0)."""

    id: str
    name: str
    combat: int = Field(ge=1, le=6)
    elite: bool = False


class MarkerType(Frozen):
    """A kind of objective marker (19.0), as the scenario rules define it."""

    id: str
    name: str
    #: "target": destroyed by demolition (21.1); "cargo": carried away (18.4);
    #: "camp": a hostile camp; "empty": nothing there.
    kind: Literal["target", "camp", "cargo", "empty"]
    #: Hostiles picked when the marker is first faced: an int, "die" (15.1 step 1) or "alert".
    garrison: int | Literal["die", "alert"] = 0


class Effect(Frozen):
    """What an Ops card does when played (13.0, 17.1)."""

    hostiles: int | Literal["die", "alert"] | None = None  # 13.0 (2) Go To Combat
    alert: int = 0  # 17.0 alert level change
    rp: int = 0  # 13.0 (4) gain or lose RP
    ops: int = 0  # 11.3 variable Ops, now
    reinforcement: str | None = None  # 13.0 (1): a free unit type, placed with the force
    return_discards: int = 0  # 13.1: discards shuffled back into the deck
    text: str = ""


class OpsCard(Frozen):
    """One Operations card (13.0)."""

    id: str
    title: str
    alert_check: bool = False  # 17.1: roll against the alert level
    effect: Effect = Effect()  # no alert check, or the alert check succeeded
    fail: Effect = Effect()  # the alert check failed
    win_ops: int = 0  # 13.0 (3) / 16.0 (2)
    win_rp: int = 0
    lose_ops: int = 0  # 16.0 (3)
    lose_rp: int = 0
    #: 24.0 (3): Ops gained if the operating force expends a Supplies gear as the card is played.
    supply_ops: int = 0
    #: 13.1 "Keep this card": the special events one may play later, one of them, once.
    keep: list[Literal["air_move", "water_move", "forced_march", "psyop", "gain_op", "gain_rp", "calm"]] = Field(
        default_factory=list
    )


class Objective(Frozen):
    """The Mission/Objective line of a Mission card (8.0 (2), 6.0)."""

    kind: Literal["demolish", "recover", "occupy"]
    count: int = Field(default=1, ge=1)  # demolish: markers destroyed; recover: delivered
    space: str | None = None  # occupy: this space, held by a raider at the end
    text: str


class Success(Frozen):
    """What winning the mission gives at the start of the next one (8.0 (6), 25.1 (4))."""

    rp: int = 0
    leader: bool = False
    text: str


class Camp(Frozen):
    """8.0 (1) Situation: hostiles the Mission card places on the map at the start.

    Unlike hostiles an Ops card calls up (14.0: back to the bin after the battle), a camp's
    hostiles stay in their space until eliminated: the scenario exception 14.0 allows.  A force
    that ends its move there fights them in the combat segment (11.0 (4)).
    """

    space: str
    #: How many are picked from the bin: a number, a die roll, or the alert level (15.1 (1)).
    hostiles: int | Literal["die", "alert"] = Field(default=1)
    name: str = "Camp"


class MissionCard(Frozen):
    """One Mission card (8.0)."""

    id: str
    title: str
    alert: int = Field(ge=1, le=5)  # Situation: starting alert level
    #: Situation: these marker types are mixed face down onto these spaces, one each; which
    #: is where is drawn when a marker is turned (19.0), so nobody knows it before.
    markers: list[str]
    spaces: list[str]
    objective: Objective
    ops: int = Field(ge=1)  # Execution
    rp: int = Field(ge=0)  # Logistics
    command: int = Field(ge=1)  # Command: the stacking limit (10.2)
    success: Success
    camps: list[Camp] = Field(default_factory=list)  # Situation: hostiles placed (8.0 (1))


class DemolitionRow(Frozen):
    """One line of the Demolition Table (21.1): a range of modified rolls and the result."""

    low: int
    high: int
    destroyed: bool
    alert: int = 0
    pioneer_lost: bool = False
    text: str


class CampaignStart(Frozen):
    """Where the campaign begins (issue 46): Mission cards already won (25.1 (1): out of the
    deck), the RP kept (25.1 (2)), the leader counters that survived (25.0), and the Mission
    card the game begins with (7.0 (4) draws one otherwise)."""

    won: list[str] = Field(default_factory=list)
    rp: int = Field(default=0, ge=0, le=99)
    leaders: list[str] = Field(default_factory=list)
    mission: str = ""


class Scenario(Frozen):
    """A complete Raiders game as data."""

    key: str
    title: str
    note: str  # which values are ours, in words
    width: bounds.MapSide
    height: bounds.MapSide
    rp_max: int = Field(ge=1)  # 13.0 (4): the RP Index maximum
    terrain: list[TerrainSpec]
    spaces: list[SpaceSpec]
    routes: list[Route]
    units: list[UnitType]
    gear: list[GearType]
    hostiles: list[HostileSpec]
    markers: list[MarkerType]
    missions: list[MissionCard]
    ops_cards: list[OpsCard]
    demolition: list[DemolitionRow]
    start: CampaignStart = CampaignStart()  # issue 46: a campaign begun later

    #: Issue 45: each list within the limits of scale, counted before its entries are read.
    _pieces = field_validator("terrain", "spaces", "routes", "units", "gear", "hostiles", "markers", "missions", "ops_cards", "demolition", mode="before")(bounds.pieces)

    @model_validator(mode="after")
    def _scale(self) -> "Scenario":
        # Issue 45: a map no picture can show, or more units than a battle has, is refused
        # before the cross-field checks walk it and before anything is drawn.
        bounds.table_shape(self.width, self.height)
        bounds.units_in_all(sum(u.count for u in self.units))
        return self

    @model_validator(mode="after")
    def _consistent(self, info: ValidationInfo) -> "Scenario":
        # Terrain, spaces, markers and units named exist, the routes join spaces, the
        # Demolition Table covers every roll: see problems().
        return scenariofile.cross_checked(self, info, problems)

    @cached_property
    def network(self) -> Network:
        """The map as a graph of spaces and routes."""
        return Network([s.id for s in self.spaces], self.routes)

    @cached_property
    def space_by_id(self) -> dict[str, SpaceSpec]:
        """Spaces by id."""
        return {s.id: s for s in self.spaces}

    @cached_property
    def terrain_by_key(self) -> dict[str, TerrainSpec]:
        """Terrain Effects Chart lines by key."""
        return {t.key: t for t in self.terrain}

    @cached_property
    def unit_type(self) -> dict[str, UnitType]:
        """Recruit Table lines by id."""
        return {u.id: u for u in self.units}

    @cached_property
    def gear_type(self) -> dict[str, GearType]:
        """Gear kinds by id."""
        return {g.id: g for g in self.gear}

    def find_gear(self, what: str) -> GearType | None:
        """The gear kind ``what`` names, by its id or by the name the menus show (``supply``
        or ``Supplies``), any case; None if neither."""
        key = what.strip().lower()
        return self.gear_type.get(key) or next((g for g in self.gear if g.name.lower() == key), None)

    @cached_property
    def hostile(self) -> dict[str, HostileSpec]:
        """Hostile counters by id."""
        return {h.id: h for h in self.hostiles}

    @cached_property
    def marker_type(self) -> dict[str, MarkerType]:
        """Objective marker kinds by id."""
        return {m.id: m for m in self.markers}

    @cached_property
    def mission(self) -> dict[str, MissionCard]:
        """Mission cards by id."""
        return {m.id: m for m in self.missions}

    @cached_property
    def card(self) -> dict[str, OpsCard]:
        """Ops cards by id."""
        return {c.id: c for c in self.ops_cards}

    def card_id(self, text: str) -> str | None:
        """The id of the Ops or Mission card ``text`` names, in any case (None if none)."""
        key = text.strip().casefold()
        return next((c for c in [*self.card, *self.mission] if c.casefold() == key), None)

    def find_space(self, text: str) -> str | None:
        """The id of the space ``text`` names: its id or its name, in any case (None if none)."""
        key = text.strip().lower()
        for space in self.spaces:
            if key in (space.id.lower(), space.name.lower(), *(a.lower() for a in space.aliases)):
                return space.id
        return None

    @cached_property
    def renamed(self) -> dict[str, str]:
        """Each former space id (``aliases``) and the id it has now."""
        return {old: s.id for s in self.spaces for old in s.aliases}

    def stop(self, space: str) -> bool:
        """12.0: whether the Terrain Effects Chart says STOP for ``space``."""
        return self.terrain_by_key[self.space_by_id[space].terrain].stop

    def demolition_row(self, roll: int) -> DemolitionRow:
        """The Demolition Table line for a modified roll (beyond the table: its last line)."""
        for row in self.demolition:
            if row.low <= roll <= row.high:
                return row
        return max(self.demolition, key=lambda r: r.high)


#: Scenario keys; the first is the default.
SCENARIOS: tuple[str, ...] = ("desert",)


#: The text of a shipped scenario by key (``data/<key>.json``).
builtin_text = scenariofile.builtin_reader("rules.raiders")
#: A scenario by key: a file registered under it (issue 27), else the shipped one; cached.
load_scenario = scenariofile.cached_loader("raiders", Scenario, builtin_text)


def problems(sc: Scenario) -> list[tuple[Loc, str]]:
    """Every cross-field fault with its field path: ids used twice in each list, each space's
    terrain a line of the Terrain Effects Chart, routes between spaces that exist, a Staging
    Area to start from (3.0) and every space reachable from one (a map in pieces strands a
    force), mission markers and spaces one for one (8.0 (1)), camps on map spaces outside the
    Staging Areas, an occupy objective's space (6.0), reinforcements (13.0 (1)) that are
    Recruit Table lines, a name per leader counter (20.0), a Demolition Table covering every
    roll from 1 up (21.1), a mission to play and an Ops deck to draw."""
    route_faults = _route_problems(sc)
    out = _duplicate_problems(sc) + _alias_problems(sc) + _terrain_problems(sc) + route_faults
    out += _staging_problems(sc, map_whole=not route_faults)
    for i, mission in enumerate(sc.missions):
        out += _mission_problems(sc, ("missions", i), mission)
    return out + _reinforcement_problems(sc) + _leader_problems(sc) + _demolition_problems(sc) \
        + _deck_problems(sc) + _start_problems(sc)


def _start_problems(sc: Scenario) -> list[tuple[Loc, str]]:
    """Issue 46: the cards won and the first card are Mission cards, one is left to play
    and the first is not won; the RP kept fit the RP Index (13.0 (4)); the leaders kept are
    counters of the Recruit Table's leader lines (20.0: ``prefix-1`` ...)."""
    cards = [m.id for m in sc.missions]
    out: list[tuple[Loc, str]] = []
    for i, card in enumerate(sc.start.won):
        if card not in cards:
            out.append((("start", "won", i), f"'{card}' is not a Mission card;"
                        f"{scenariofile.did_you_mean(card, cards)} cards: {scenariofile.one_of(cards)}."))
    left = [c for c in cards if c not in sc.start.won]
    if not left:
        out.append((("start", "won"), "every Mission card is won: the campaign is over before it begins (25.1)."))
    if sc.start.mission and sc.start.mission not in left:
        out.append((("start", "mission"), f"'{sc.start.mission}' is not a Mission card still to "
                    f"win; cards left: {scenariofile.one_of(left)}."))
    if sc.start.rp > sc.rp_max:
        out.append((("start", "rp"), f"the RP Index goes up to {sc.rp_max} (13.0 (4)); "
                    f"{sc.start.rp} RP cannot be kept."))
    counters = [f"{u.prefix}-{n + 1}" for u in sc.units if u.leader for n in range(u.count)]
    for i, ident in enumerate(sc.start.leaders):
        if ident not in counters:
            out.append((("start", "leaders", i), f"'{ident}' is not a leader counter;"
                        f"{scenariofile.did_you_mean(ident, counters)} leaders: {scenariofile.one_of(counters)}."))
    return out


def _duplicate_problems(sc: Scenario) -> list[tuple[Loc, str]]:
    """Ids used twice in any list of the scenario."""
    out: list[tuple[Loc, str]] = []
    for field in ("terrain", "spaces", "units", "gear", "hostiles", "markers", "missions", "ops_cards"):
        items = getattr(sc, field)
        ident = "key" if field == "terrain" else "id"
        out += scenariofile.duplicates([((field, i, ident), getattr(x, ident)) for i, x in enumerate(items)],
                                       f"{field} {ident}")
    return out


def _alias_problems(sc: Scenario) -> list[tuple[Loc, str]]:
    """Former ids (``aliases``) that are another space's id or another alias: an order
    naming one could not tell the spaces apart."""
    ids = [s.id for s in sc.spaces]
    seen: list[str] = []
    out: list[tuple[Loc, str]] = []
    for i, space in enumerate(sc.spaces):
        for j, old in enumerate(space.aliases):
            if old in ids or old in seen:
                out.append((("spaces", i, "aliases", j), f"'{old}' names another space already; "
                            "a former id names one space only."))
            seen.append(old)
    return out


def _terrain_problems(sc: Scenario) -> list[tuple[Loc, str]]:
    """Spaces whose terrain is no line of the Terrain Effects Chart (3.0)."""
    terrains = [t.key for t in sc.terrain]
    return [(("spaces", i, "terrain"), f"'{space.terrain}' is not a terrain key; "
             f"terrain: {scenariofile.one_of(terrains)}.")
            for i, space in enumerate(sc.spaces) if space.terrain not in terrains]


def _route_problems(sc: Scenario) -> list[tuple[Loc, str]]:
    """Routes whose ends are not spaces, or that join a space to itself."""
    spaces = [s.id for s in sc.spaces]
    out: list[tuple[Loc, str]] = []
    for i, route in enumerate(sc.routes):
        for end in ("a", "b"):
            if getattr(route, end) not in spaces:
                out.append((("routes", i, end), f"'{getattr(route, end)}' is not a space; spaces: "
                            f"{scenariofile.one_of(spaces)}."))
        if route.a == route.b:
            out.append((("routes", i, "b"), f"the route joins {route.a} to itself; a route "
                        "joins two different spaces."))
    return out


def _staging_problems(sc: Scenario, map_whole: bool) -> list[tuple[Loc, str]]:
    """No Staging Area to start from (3.0), or spaces no route leads to from the first one.

    Reach is only measured on a map whose routes all join two spaces and whose ids are unique:
    on a broken one the route faults already say what is wrong."""
    spaces = [s.id for s in sc.spaces]
    staging = [s.id for s in sc.spaces if s.staging]
    if not staging:
        return [(("spaces",), "no space is a Staging Area (staging: true); the raiders start "
                 "from one (3.0).")]
    if not map_whole or len(set(spaces)) != len(spaces):
        return []
    reach = sc.network.reachable(staging[0], len(sc.spaces))
    return [(("spaces", i), f"space {space.id} cannot be reached from the Staging "
             f"Area {staging[0]}: add a route to it (the map is in pieces).")
            for i, space in enumerate(sc.spaces) if space.id not in reach]


def _mission_problems(sc: Scenario, loc: Loc, mission: MissionCard) -> list[tuple[Loc, str]]:
    """One Mission card's faults: markers and spaces one for one and known (8.0 (1)), the
    occupy objective's space (6.0), camps on map spaces outside the Staging Areas."""
    markers, spaces = [m.id for m in sc.markers], [s.id for s in sc.spaces]
    staging = [s.id for s in sc.spaces if s.staging]
    out: list[tuple[Loc, str]] = []
    if len(mission.markers) != len(mission.spaces):
        out.append((loc + ("spaces",), f"mission {mission.id} has {len(mission.markers)} "
                    f"markers and {len(mission.spaces)} spaces; give one space per marker (8.0)."))
    out += [(loc + ("markers", j), f"'{kind}' is not a marker id; markers: "
             f"{scenariofile.one_of(markers)}.")
            for j, kind in enumerate(mission.markers) if kind not in markers]
    out += [(loc + ("spaces", j), f"'{where}' is not a space; spaces: "
             f"{scenariofile.one_of(spaces)}.")
            for j, where in enumerate(mission.spaces) if where not in spaces]
    if mission.objective.space is not None and mission.objective.space not in spaces:
        out.append((loc + ("objective", "space"), f"'{mission.objective.space}' is not a "
                    f"space; spaces: {scenariofile.one_of(spaces)}."))
    out += [(loc + ("camps", j, "space"), f"mission {mission.id} camps in "
             f"{camp.space}: not a map space outside the Staging Areas "
             f"({scenariofile.one_of(staging)}) (8.0 (1)).")
            for j, camp in enumerate(mission.camps) if camp.space not in spaces or camp.space in staging]
    return out


def _reinforcement_problems(sc: Scenario) -> list[tuple[Loc, str]]:
    """Ops cards whose reinforcement (13.0 (1)) is no Recruit Table line."""
    unit_types = [u.id for u in sc.units]
    out: list[tuple[Loc, str]] = []
    for i, card in enumerate(sc.ops_cards):
        for part in ("effect", "fail"):
            named = getattr(card, part).reinforcement
            if named is not None and named not in unit_types:
                out.append((("ops_cards", i, part, "reinforcement"), f"card {card.id} names "
                            f"'{named}', which is not a units id; units: {scenariofile.one_of(unit_types)}."))
    return out


def _leader_problems(sc: Scenario) -> list[tuple[Loc, str]]:
    """Leader lines whose names are not one per counter (20.0)."""
    return [(("units", i, "names"), f"{unit.id} has {unit.count} counters and "
             f"{len(unit.names)} names; give one name per counter (20.0).")
            for i, unit in enumerate(sc.units) if unit.leader and unit.names and len(unit.names) != unit.count]


def _demolition_problems(sc: Scenario) -> list[tuple[Loc, str]]:
    """A Demolition Table that does not cover every roll from 1 up, once each (21.1)."""
    rolls = sorted((r.low, r.high) for r in sc.demolition)
    if not rolls:
        return [(("demolition",), "the Demolition Table has no row; give rows covering every "
                 "roll from 1 up (21.1).")]
    gaps = [f"{a[1] + 1}" for a, b in zip(rolls, rolls[1:]) if b[0] != a[1] + 1]
    if rolls[0][0] <= 1 and not gaps:
        return []
    where = f"from {gaps[0]}" if gaps else "at 1"
    return [(("demolition",), f"the Demolition Table must cover every roll from 1 up "
             f"(21.1); rows are {', '.join(f'{lo}-{hi}' for lo, hi in rolls)}, a gap or "
             f"overlap {where}.")]


def _deck_problems(sc: Scenario) -> list[tuple[Loc, str]]:
    """No mission to play (8.0) or no Ops card to draw (13.0)."""
    out: list[tuple[Loc, str]] = []
    if not sc.missions:
        out.append((("missions",), "there is no mission card; a game plays one at least (8.0)."))
    if not sc.ops_cards:
        out.append((("ops_cards",), "there is no Ops card; the force draws one each Op (13.0)."))
    return out


#: The file format of a Raiders theatre (issue 27).
FORMAT = ScenarioFormat(model=Scenario, builtin=builtin_text, problems=problems,
                        units=lambda data: scenariofile.count(data, "units", "hostiles", "spaces"))

