"""The Raiders game state: the campaign record and the mission in play (pydantic, JSON-safe).

Hidden information is kept out of order: the draw deck is a list of *slots*, ``None`` for a
face-down card nobody has seen (it is picked at random from the unseen cards at the moment it
is drawn), ``"*"`` for a slot of a reshuffled deck (picked from the cards known to have been
shuffled into it, ``Mission.shuffled``, and the blind ones among them) and a card id only where
the rules make a card's place known (a card a guide sent to the bottom, 22.0).  The hostiles bin is simply the hostiles neither in a battle nor in a
Mission card's camp.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, model_validator

from rules.core.scenariofile import is_file_key
from rules.raiders.scenario import load_scenario

Phase = Literal["recruit", "ops", "between", "over"]
#: Where the current operation stands (11.0): 1 recruit/scout, 2 move, 3 card, 4 combat,
#: 5 objective.
Segment = Literal["recruit", "card", "battle", "objective"]


class Unit(BaseModel):
    """One raider counter; ``space`` None means the Recruit Box (3.0)."""

    id: str
    type: str
    name: str
    space: str | None = None
    force: str | None = None
    gear: list[str] = Field(default_factory=list)
    carrying: str | None = None  # 18.4: an objective marker it transports
    eliminated: bool = False  # 20.1: an eliminated leader is not replaced in this mission
    lost: bool = False  # eliminated in this mission (in the Recruit Box since): not "in the pool"


class Gear(BaseModel):
    """One gear counter (23.0); ``holder`` None means the Recruit Pool."""

    id: str
    type: str
    holder: str | None = None


class Marker(BaseModel):
    """An objective marker on the map (19.0)."""

    id: str
    type: str | None = None  # drawn when the marker is turned (19.0); None while face down
    space: str | None
    revealed: bool = False
    destroyed: bool = False  # 21.1
    delivered: bool = False  # 18.4: carried to a staging area
    garrison_faced: bool = False  # its hostiles have been fought
    lost: bool = False  # 18.4: its transporter was eliminated


class Shot(BaseModel):
    """One fire of one unit in a battle round (15.1 (3))."""

    side: Literal["raider", "hostile"]
    unit: str
    target: str | None
    dice: list[int]
    value: int
    hits: list[str] = Field(default_factory=list)


class RoundDice(BaseModel):
    """The shots of one battle round fought earlier in the same order (kept for its picture:
    one order may fight several rounds, and each round's dice must show)."""

    round: int
    shots: list[Shot]


class Battle(BaseModel):
    """A battle in progress, or the one just fought (15.0)."""

    space: str
    source: Literal["card", "marker", "camp"]
    card: str | None = None  # the Ops card whose win/lose lines apply (16.0)
    camp: list[str] = Field(default_factory=list)  # hostiles of a Mission card camp (8.0 (1))
    round: int = 1
    edge: Literal["raider", "hostile"] = "raider"
    edge_text: str = ""
    raider_line: list[str] = Field(default_factory=list)
    #: This round may start: the line is set (15.1 (3)) and maximum firepower, if Supplies
    #: are in the battle and the hostiles fire first, was decided before any die (24.0 (2)).
    lined: bool = False
    #: A line the player gave after this round's first die: it stands from the next round.
    next_line: list[str] | None = None
    hostile_line: list[str] = Field(default_factory=list)
    dead: list[str] = Field(default_factory=list)  # raider and hostile ids eliminated
    raider_next: int = 0  # index in the line of the next raider to fire this round
    hostile_next: int = 0
    turn: Literal["raider", "hostile"] = "raider"
    losses_this_round: int = 0
    quiet_rounds: int = 0  # 15.2: consecutive rounds with no loss on either side
    firepower: bool = False  # 24.0 (2): maximum firepower this round
    second_die: str | None = None  # 24.0 (2): this raider's second die waits for its target
    shots: list[Shot] = Field(default_factory=list)  # of the current (or last) round
    shots_round: int = 1  # the round ``shots`` belong to
    earlier: list[RoundDice] = Field(default_factory=list)  # rounds fought earlier this order
    ended_now: bool = False  # it ended in the last order: that order's picture shows it
    outcome: Literal["raider", "hostile", "draw"] | None = None


class Mission(BaseModel):
    """The mission in play (8.0) and the operation under way (11.0)."""

    card: str
    alert: int = Field(ge=1, le=5)
    rp: int = Field(ge=0)
    command: int
    deck: list[str | None] = Field(default_factory=list)  # draw deck slots, top first
    #: Cards known to be in the deck's ``"*"`` slots, in no known order (13.1, 11.3).
    shuffled: list[str] = Field(default_factory=list)
    discards: list[str] = Field(default_factory=list)
    #: 11.3: cards discarded face down without anyone seeing them (never picked: no die tells).
    blind_discards: int = 0
    #: ``"*"``-slot cards discarded face down: members of ``shuffled`` no longer in the deck,
    #: which ones unknown (the rest stay exchangeable, so no die is needed to say which).
    mix_lost: int = 0
    hand: list[str] = Field(default_factory=list)  # 13.1 kept cards
    in_play: str | None = None  # the Ops card of this operation
    units: list[Unit] = Field(default_factory=list)
    gear: list[Gear] = Field(default_factory=list)
    markers: list[Marker] = Field(default_factory=list)
    #: 8.0 (1): hostiles the Mission card placed, by space; they stay until eliminated.
    camps: dict[str, list[str]] = Field(default_factory=dict)
    op: int = 1  # number of the operation under way
    segment: Segment = "recruit"
    segment_action: Literal["recruit", "scout"] | None = None  # 11.0 (1): one or the other
    force: str | None = None  # the operating force (after scouting or moving)
    moved: bool = False
    moved_into_staging: bool = False
    demolished_by: list[str] = Field(default_factory=list)  # 21.1: pioneers that tried
    swapped: bool = False  # 22.0: once per Ops card segment
    end_after_op: bool = False  # 11.3: the last card was lost
    battle: Battle | None = None
    #: 9.2: a free recruit that could not join its force, waiting for the player's Staging Area.
    pending_place: str | None = None
    last_battle: Battle | None = None
    last_move: list[str] = Field(default_factory=list)
    next_force: int = 1  # for naming new forces F1, F2...
    result: Literal["won", "lost"] | None = None


class Record(BaseModel):
    """One finished mission of the campaign."""

    mission: str
    won: bool


class Campaign(BaseModel):
    """The campaign record (25.0): what carries from one mission to the next."""

    single: bool = False  # one mission only
    deck: list[str] = Field(default_factory=list)  # Mission cards still to win (25.1 (1))
    record: list[Record] = Field(default_factory=list)
    rp: int = 0  # 25.1 (2), 25.2 (2): unexpended RP kept
    leaders: list[str] = Field(default_factory=list)  # surviving leader counters (25.0)
    alert_bonus: int = 0  # 25.1 (3): +1 for the next mission after a win (that one only)
    success_rp: int = 0  # 25.1 (4): the Success line of the mission just won
    success_leader: bool = False
    outcome: Literal["won", "lost"] | None = None


class RaidersState(BaseModel):
    """A whole Raiders game: one campaign (or one mission) in a channel."""

    system: Literal["raiders"] = "raiders"
    scenario: str
    coordinated: bool = False  # 26.0 option
    scouting: bool = False  # 27.0 option
    phase: Phase = "recruit"
    campaign: Campaign = Field(default_factory=Campaign)
    mission: Mission | None = None

    @model_validator(mode="after")
    def _current_space_ids(self) -> "RaidersState":
        # A game stored before a space was renamed (issue 40: eladem -> el-adem) reads on.
        # Only a shipped scenario is ever renamed: a file's key carries the hash of its text,
        # so its games hold its ids as they are (and its file may not be registered yet).
        if self.mission is not None and not is_file_key(self.scenario):
            renamed = load_scenario(self.scenario).renamed
            if renamed:
                rename_spaces(self.mission, renamed)
        return self


def rename_spaces(m: Mission, renamed: dict[str, str]) -> None:
    """Replace former space ids (``renamed``: old -> new) wherever the mission holds a space:
    units, markers, camps, the last move, the battle."""
    def new(space: str) -> str:
        return renamed.get(space, space)

    for u in m.units:
        u.space = None if u.space is None else new(u.space)
    for mk in m.markers:
        mk.space = None if mk.space is None else new(mk.space)
    m.camps = {new(space): hostiles for space, hostiles in m.camps.items()}
    m.last_move = [new(space) for space in m.last_move]
    for battle in (m.battle, m.last_battle):
        if battle is not None:
            battle.space = new(battle.space)
