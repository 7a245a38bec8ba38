"""The state of a platoon skirmish: teams on the table, units, the turn and its Initiative.

Static data (terrain, weapons, named points) stays in the scenario and is looked up by
``scenario``; the state holds what changes, so it round-trips through JSON without loss.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from rules.core import table
from rules.core.errors import RuleError
from rules.core.views import Mark
from rules.skirmish.allocation import Volley
from rules.skirmish.losses import Claim
from rules.skirmish.scenario import (
    Role, Scenario, Side, TeamKind, Training, UnitSpec, load_scenario,
)

SIDES: tuple[Side, Side] = ("us", "germans")
SIDE_NAMES: dict[str, str] = {"us": "Americans", "germans": "Germans"}

#: Actions of the Actions table, by the name a player types.
SUCCESS_ACTIONS = ("fire-and-move", "move-and-fire", "run", "aimed-fire", "assault")
FAIL_ACTIONS = ("move", "fire", "overwatch")
ActionName = Literal[
    "fire-and-move", "move-and-fire", "run", "aimed-fire", "assault", "move", "fire",
    "overwatch", "barrage", "smoke",
]


class TeamState(BaseModel):
    """One team on the table and what it has done this turn."""

    id: str
    unit: str
    kind: TeamKind
    role: Role = "team"
    weapons: list[str]
    x: float
    y: float
    facing: float = 0.0  # hull (or gun) facing, degrees, 0 = east, 90 = south
    turret: float | None = None  # tanks: turret facing (None: as the hull)
    alive: bool = True
    suppression: int = 0  # suppression markers next to this team (Suppression)
    moved: bool = False  # this turn
    fired: bool = False  # this turn
    fired_initiative: bool = False  # "may never fire more than once per Initiative"
    still_last_activation: bool = False  # did not move during its unit's last activation
    armoured: bool = False
    hull_save: int | None = None
    turret_save: int | None = None
    tank_assault: int = 0
    travelled: float = 0.0  # inches moved in its unit's activation

    @property
    def pos(self) -> table.Point:
        """Where the team stands, in inches."""
        return (self.x, self.y)

    @property
    def turret_facing(self) -> float:
        """The turret's facing (the hull's when it has none)."""
        return self.facing if self.turret is None else self.turret

    @property
    def leader(self) -> bool:
        """Whether this team is its unit's PL (or the CC of the HQ)."""
        return self.role in ("pl", "cc")


class UnitState(BaseModel):
    """One unit and its turn: activation, action, Overwatch, Gone to Ground, casualties."""

    id: str
    name: str
    side: Side
    training: Training
    teams: list[TeamState]
    start_teams: int
    activated: bool = False  # this turn (each unit activates once a turn)
    action: ActionName | None = None  # the action of its activation this turn
    steps: list[str] = Field(default_factory=list)  # what the action still allows, in order
    overwatch: bool = False  # readied, has not fired yet
    gone_to_ground: bool = False  # declared this turn (Gone to Ground)
    running: bool = False  # ran this turn: rerolls successful saves (Run)
    casualties_turn: int = 0  # teams lost this turn (Morale)
    morale_checked_at: int | None = None  # teams alive at its last Morale check
    destroyed: bool = False  # removed (Morale, or every team gone)

    @property
    def alive_teams(self) -> list[TeamState]:
        """Teams still on the table."""
        return [t for t in self.teams if t.alive]

    @property
    def markers(self) -> int:
        """Suppression markers on the unit (each +1 to its next Training Check)."""
        return sum(t.suppression for t in self.teams if t.alive)

    @property
    def pl(self) -> TeamState | None:
        """Its living Platoon Leader (or CC), if any."""
        return next((t for t in self.teams if t.alive and t.leader), None)

    @property
    def hq(self) -> bool:
        """The company HQ: the CC's own unit, not counted among the company's units."""
        return any(t.role == "cc" for t in self.teams)

    @property
    def on_table(self) -> bool:
        """Whether any team of it is still on the table."""
        if self.destroyed:
            return False
        for team in self.teams:  # a plain loop: asked hundreds of thousands of times a game
            if team.alive:
                return True
        return False


class Pending(BaseModel):
    """A decision owed by one player before play goes on (asked of that player)."""

    kind: Literal["react", "ground", "allocate", "assault-fire", "assault-choice", "losses",
                  "follow", "drift", "morale", "reroll"]
    side: Side  # who decides
    unit: str | None = None  # the moving, attacking or fired-upon unit
    options: list[str] = Field(default_factory=list)  # units that may fire
    paths: dict[str, tuple[float, float]] = Field(default_factory=dict)  # moved teams' starts
    fire: dict[str, str] | None = None  # a Fire order waiting for the go-to-ground answer
    firer: str | None = None  # the unit whose fire waits
    volley: Volley | None = None  # hits rolled, waiting for their owner's allocation
    centre: tuple[float, float] | None = None  # the missed template
    aim: tuple[float, float] | None = None
    smoke: bool = False
    check: Literal["", "counter", "fight", "terrain"] = ""  # the failed check the CC may reroll
    team: str | None = None  # the team whose check it was (terrain); the observer (drift)
    goal: tuple[float, float] | None = None  # where that team was going (terrain)
    face: float | None = None  # and the facing (hull, turret) its move order asked for
    turret: float | None = None
    #: What the interrupted order does after the hits are allocated: "" a fire order goes on,
    #: react: more Reaction/Overwatch, support/defend: the assault's charge or landing.
    then: Literal["", "react", "support", "defend"] = ""
    back: dict[str, tuple[float, float]] = Field(default_factory=dict)  # movers' true places


class AssaultState(BaseModel):
    """An assault in progress (Assaults)."""

    attacker: str
    defender: str
    movers: list[str] = Field(default_factory=list)
    losses: dict[str, int] = Field(default_factory=dict)  # casualties during the assault
    chooser: str = ""  # the unit that now counter-attacks or breaks off
    struck: str = ""  # the unit that just took the other's strike (it chooses next)
    claims: list[Claim] = Field(default_factory=list)  # passed checks awaiting the owner's pick
    armoured: bool = False  # assaulted by Armored Tank Teams (2 results halt it)
    rerolled_fail: str = ""  # the unit whose CC reroll to counter-attack failed (Leaders)
    before: dict[str, int] = Field(default_factory=dict)  # teams alive before the last fire
    starts: dict[str, tuple[float, float]] = Field(default_factory=dict)  # where chargers set off


class Smoke(BaseModel):
    """A 6"x6" smoke area on the table (Smoke), until the end of the turn it was fired."""

    corners: list[table.Point]
    turn: int
    unit: str


class SkirmishState(BaseModel):
    """Everything that changes during a skirmish."""

    scenario: str
    turn: int = 1
    max_turn: int
    initiative: Side = "us"  # the side with the Initiative now
    first: Side = "us"  # who had the first Initiative this turn
    active: str | None = None  # the unit activated now (None: choose one)
    phase: Literal["activate", "action", "orders", "decide", "over"] = "activate"
    check_passed: bool | None = None  # the active unit's Training Check
    pending: Pending | None = None
    assault: AssaultState | None = None
    #: Standing answers per side: reaction, ground, counter -> ask / yes / no.
    policies: dict[str, dict[str, str]] = Field(default_factory=dict)
    units: list[UnitState]
    smoke: list[Smoke] = Field(default_factory=list)
    cc_reroll_used: list[Side] = Field(default_factory=list)  # this Initiative (Leaders)
    leader_used: list[str] = Field(default_factory=list)  # PL/CC team ids, this Initiative
    morale_done: list[str] = Field(default_factory=list)  # units checked this end of turn
    morale_rerolls: list[Side] = Field(default_factory=list)  # CCs who allowed one there
    failed_check: str | None = None  # unit whose Training Check just failed (CC reroll)
    templates: list[list[tuple[float, float]]] = Field(default_factory=list)  # this Initiative
    marks: list[Mark] = Field(default_factory=list)  # measured lines of this Initiative
    last_marks: list[Mark] = Field(default_factory=list)
    finished: bool = False
    winner: Side | None = None
    result_text: str | None = None

    @property
    def table(self) -> Scenario:
        """The scenario this state is played on."""
        return load_scenario(self.scenario)

    def unit(self, unit_id: str) -> UnitState:
        """The unit called ``unit_id`` (any case); RuleError naming the units otherwise."""
        for unit in self.units:
            if unit.id == unit_id:  # the common case: an id from the state itself
                return unit
        key = unit_id.strip().casefold()
        for unit in self.units:
            if unit.id.casefold() == key:
                return unit
        raise RuleError(f"There is no unit '{unit_id[:20]}'; units: {_ids(self.units)}.")

    def team(self, team_id: str) -> TeamState:
        """The team called ``team_id`` (any case); RuleError otherwise."""
        for unit in self.units:
            for team in unit.teams:
                if team.id == team_id:
                    return team
        key = team_id.strip().casefold()
        for unit in self.units:
            for team in unit.teams:
                if team.id.casefold() == key:
                    return team
        raise RuleError(f"There is no team '{team_id[:20]}'.")

    def unit_of(self, team: TeamState) -> UnitState:
        """The unit a team belongs to."""
        return self.unit(team.unit)

    def own_unit(self, side: str, unit_id: str) -> UnitState:
        """A unit of ``side`` still on the table; RuleError naming that side's units."""
        unit = self.unit(unit_id)
        if unit.side != side:
            raise RuleError(f"{unit.id} is not yours; your units: {_ids(self.live(side))}.")
        if not unit.on_table:
            raise RuleError(f"{unit.id} has been destroyed and can do nothing more.")
        return unit

    def enemy_unit(self, side: str, unit_id: str) -> UnitState:
        """An enemy unit still on the table; RuleError otherwise."""
        unit = self.unit(unit_id)
        if unit.side == side:
            raise RuleError(f"{unit.id} is on your side; pick an enemy unit.")
        if not unit.on_table:
            raise RuleError(f"{unit.id} has already been destroyed.")
        return unit

    def live(self, side: str | None = None) -> list[UnitState]:
        """Units on the table, of one side or both."""
        return [u for u in self.units if u.on_table and (side is None or u.side == side)]

    def teams(self, side: str | None = None) -> list[TeamState]:
        """Living teams, of one side or both."""
        return [t for u in self.live(side) for t in u.alive_teams]


def other(side: str) -> Side:
    """The opposing side."""
    return "germans" if side == "us" else "us"


def unit_from_spec(spec: UnitSpec) -> UnitState:
    """A unit's opening state from its scenario entry."""
    teams = [
        TeamState(
            id=t.id, unit=spec.id, kind=t.kind, role=t.role, weapons=list(t.weapons),
            x=t.x, y=t.y, facing=t.facing, armoured=t.armoured, hull_save=t.hull_save,
            turret_save=t.turret_save, tank_assault=t.tank_assault,
            turret=t.facing if t.kind == "tank" else None,
            alive=not t.lost, suppression=t.suppression,  # issue 46: as the game begins
        )
        for t in spec.teams
    ]
    return UnitState(
        id=spec.id, name=spec.name, side=spec.side, training=spec.training, teams=teams,
        start_teams=len(teams), activated=spec.activated,
    )


def opening_state(scenario: Scenario, max_turn: int | None = None) -> SkirmishState:
    """The state before the first Initiative roll."""
    return SkirmishState(
        scenario=scenario.key,
        max_turn=max_turn or scenario.turns,
        units=[unit_from_spec(u) for u in scenario.units],
        turn=scenario.start_turn,
    )


def _ids(units: list[UnitState]) -> str:
    return ", ".join(u.id for u in units) or "none"
