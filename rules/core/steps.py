"""What resolving an order gives back: the :class:`Step` (new state, events, who acts next,
seals), its :class:`Event` lines, where the game stands in its turns (:class:`Turn`), how it
ended (:class:`Outcome`), and one autocomplete suggestion (:class:`Choice`)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from rules.core.secrets import Seal, Unseal

class Choice(BaseModel):
    """One autocomplete suggestion: the value sent and the label shown (<= 100 chars).

    ``info`` marks an entry that only informs ("Not your turn: waiting on NATO"): sent as is,
    it is refused with the rules' sentence; the conformance kit does not count it.
    """

    value: str
    label: str
    info: bool = False


class Event(BaseModel):
    """Something that happened in a step, with the line a player reads.

    ``text`` is complete on its own, dice and rule number included, e.g.
    ``🎲 4+3 +2 RCM +1 support = 10 vs DF 6 +1 TM = 7 → +3: two hits (7.3.3)``.
    ``data`` is structured detail for renderers and tests (ids, figures).
    """

    kind: str
    text: str
    rule: str | None = None
    data: dict[str, Any] = Field(default_factory=dict)
    #: A line only side ``to`` may read (its own secret: "Minefield 0409 attack 7 laid",
    #: issue 28).  Every public output leaves it out; the ephemeral reply to that side's
    #: player shows it, and the record keeps it for the export after the end.
    to: str | None = None

    def record(self) -> dict[str, Any]:
        """The event as a step's record (and its hash) holds it: JSON, with ``to`` only when
        it is set, so every event written before issue 28 hashes as it did."""
        data = self.model_dump(mode="json")
        if data.get("to") is None:
            data.pop("to", None)
        return data


class Step(BaseModel):
    """What one accepted order produced.

    * ``state``: the new state (a fresh object; the old one is untouched);
    * ``events``: what happened, in order;
    * ``snapshot``: an impulse, battle round or turn ended, so the service renders the map;
    * ``waiting_on``: the sides that must act next, including a decision owed by the *other*
      side (a defender choosing whether to retreat);
    * ``turn_part``: a label of the current turn-part; the service mentions the player who
      must act only when ``(waiting_on, turn_part)`` changes;
    * ``reveals``: new information other than dice came out (a card drawn, a hidden marker
      turned); together with dice this forbids ``/game undo``;
    * ``game_over``: the game has ended; ``result`` says how;
    * ``seals`` / ``unseals``: secret choices sealed and revealed by this step (issue 28,
      :mod:`rules.core.secrets`), filled from the order's ``Ctx``.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    state: BaseModel
    events: list[Event] = Field(default_factory=list)
    snapshot: bool = False
    waiting_on: list[str] = Field(default_factory=list)
    turn_part: str = ""
    reveals: bool = False
    game_over: bool = False
    result: str | None = None
    seals: list[Seal] = Field(default_factory=list)
    unseals: list[Unseal] = Field(default_factory=list)


class Turn(BaseModel):
    """Where a game stands in its turns (issue 23): the number, the word the system uses
    for it (``Turn``, or ``M2 Op`` in Raiders, whose Ops restart each mission) and who is
    waited on.  ``number`` is None before turn 1 (setup).  The service reads it here, never
    from a picture's header, to know when a turn ended (its digest)."""

    number: int | None = None
    word: str = "Turn"
    waiting_on: list[str] = Field(default_factory=list)

    @property
    def key(self) -> tuple[int, str] | None:
        """``(number, word)``: a turn ended when this changes; None before turn 1."""
        return None if self.number is None else (self.number, self.word)

    def name(self) -> str:
        """``Turn 3``, ``M2 Op 1``."""
        return f"{self.word} {self.number}"


class Outcome(BaseModel):
    """How a game ended, structured (after python-chess's ``Outcome(winner, termination)``):
    the winning side (None: a draw, or nobody won outright), how it ended in a sentence
    (:meth:`GameSystem.result`'s text) and the score lines a digest shows."""

    winner: str | None = None
    termination: str
    score: list[str] = Field(default_factory=list)
