"""Each side's "since your last order", kept as the game goes (issue 23, point 3).

A ping and a reminder tell a player what happened since their side's last order, one line
a step.  That used to be read back from the last 200 steps of the log at every turn
hand-over (state JSON and all): the cost grew with the game.  Now each side's lines are
carried along: every committed step resets the summary of the side that gave it (its own
order) and adds its log line to every other side's.  The summaries live in the game cache
and are stored with the head, in the same transaction as the step (``games.summaries_json``,
migration 0008), so a restart or a second process sharing the store reads them back whole.

A command that moves the head elsewhere (a rollback, a reroll, an undo) rebuilds them from
the new head's ancestry (:func:`rebuild`): rare commands, so a read there is fine, and it
follows the parent links, so steps of an abandoned branch never show.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from bot import replies
from bot.store import StepRow

#: Most lines a summary lists; earlier ones are counted ("… 3 earlier steps").
MOST_LINES = 8


class SideSummary(BaseModel):
    """What happened since one side's last order: how many steps, the newest lines."""

    count: int = 0
    lines: list[str] = Field(default_factory=list)
    #: Whether the side has given an order yet: False, its lines run from the game's start
    #: (a ping said "Since @bob's last order" to a bob who had given none); None, not known
    #: (summaries stored before this was kept, or rebuilt from a window of the log that did
    #: not reach the start), said as before.
    ordered: bool | None = None

    @property
    def from_start(self) -> bool:
        """The lines run from the game's start: the side has given no order yet."""
        return self.ordered is False

    def text(self) -> list[str]:
        """The lines as a ping shows them, newest last, earlier ones counted."""
        if self.count > len(self.lines):
            return [f"… {self.count - len(self.lines)} earlier steps (/game log)", *self.lines]
        return list(self.lines)


class Summaries(BaseModel):
    """Every side's summary at one step of a game."""

    sides: dict[str, SideSummary] = Field(default_factory=dict)

    def of(self, side: str) -> SideSummary:
        """One side's summary (empty when the side has seen nothing yet)."""
        return self.sides.get(side) or SideSummary()

    def after(self, rows: list[StepRow]) -> "Summaries":
        """The summaries once ``rows`` (new steps, in order) are played: pure.

        A side's summary is never changed in place (each step makes new ones), so the new
        summaries share the unchanged ones, and they are built from values of the right
        types without validating them again: on every order (issue 23)."""
        sides = dict(self.sides)
        for row in rows:
            if row.kind == "setup":
                continue  # the opening is the map, not a step a player missed
            line = bullet(row)
            for side, summary in list(sides.items()):
                if side != row.side or row.action is None:
                    sides[side] = SideSummary.model_construct(
                        count=summary.count + 1, lines=[*summary.lines, line][-MOST_LINES:],
                        ordered=summary.ordered)
            if row.side is not None and row.action is not None:
                sides[row.side] = SideSummary(ordered=True)  # its own order: nothing missed since
        return Summaries.model_construct(sides=sides)


def fresh(sides: tuple[str, ...] | list[str], ordered: bool | None = False) -> Summaries:
    """The summaries of a game just set up: nothing happened yet for anyone, and nobody
    has ordered (``ordered``: None where that is not known, :func:`rebuild`)."""
    return Summaries(sides={side: SideSummary(ordered=ordered) for side in sides})


def bullet(step: StepRow) -> str:
    """A step as a summary or digest line: its log line, bulleted (so it never reads as a
    new step's announcement)."""
    return "• " + replies.log_line(step)


def rebuild(sides: tuple[str, ...] | list[str], steps: list[StepRow], head: int | None) -> Summaries:
    """The summaries at step ``head`` from ``steps`` (a window of the log ending at or after
    it, in order): its ancestry, back to each side's last order or the window's start.  A
    side with no order in a window that does not reach the game's start may have ordered
    before it: whether it has is left unknown."""
    chain = ancestry(steps, head)
    whole = not chain or chain[0].parent_seq is None
    return fresh(sides, False if whole else None).after(chain)


def ancestry(steps: list[StepRow], head: int | None) -> list[StepRow]:
    """Step ``head`` and its ancestors found in ``steps``, oldest first."""
    by_seq = {s.seq: s for s in steps}
    chain: list[StepRow] = []
    seq = head
    while seq is not None and seq in by_seq:
        chain.append(by_seq[seq])
        seq = by_seq[seq].parent_seq
    return chain[::-1]


def reaches_every_side(sides: tuple[str, ...] | list[str], steps: list[StepRow], head: int | None) -> bool:
    """Whether ``head``'s ancestry in ``steps`` holds an order of every side (or starts at
    the root): a summary rebuilt from it is whole."""
    chain = ancestry(steps, head)
    if chain and chain[0].parent_seq is None:
        return True
    ordered = {s.side for s in chain if s.action is not None}
    return all(side in ordered for side in sides)


def load(text: str | None) -> Summaries | None:
    """Stored summaries, or None for a game stored before migration 0008."""
    return Summaries.model_validate_json(text) if text else None


__all__ = ["MOST_LINES", "SideSummary", "Summaries", "ancestry", "bullet", "fresh", "load",
           "reaches_every_side", "rebuild"]
