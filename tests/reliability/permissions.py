"""The one table of who may do what: every ``/game`` and ``/mod`` command and a system order,
for a spectator, the seat the game waits on, the other seat and a moderator (who holds no
seat).  ``test_permissions.py`` asserts every cell; ``docs/permissions.md`` shows the same
table (a test checks the two agree).

A cell is ``ALLOW`` or the words the refusal must contain (the reason the player reads).
"""

from __future__ import annotations

from dataclasses import dataclass

ALLOW = "✓"
ROLES = ("spectator", "waiting seat", "other seat", "moderator")

NOT_SEATED = "not seated"
NOT_YOUR_TURN = "not your turn"
MODERATORS = "Only moderators"
END_IN_PROGRESS = "Only a moderator can end"
NO_SEAT = "hold no seat"
HELD = "is held by"
ALREADY = "already hold"
OWN_STEP = "only your own"


@dataclass(frozen=True)
class Rule:
    """One row: a command, the situation it is tried in, and each role's outcome."""

    command: str
    context: str
    cells: tuple[str, str, str, str]


TABLE: tuple[Rule, ...] = (
    Rule("/game new", "a channel with no game", (ALLOW, ALLOW, ALLOW, ALLOW)),
    Rule("/game join side:(free)", "a game with no seat taken", (ALLOW, ALLOW, ALLOW, ALLOW)),
    Rule("/game join side:(waiting)", "every seat taken", (HELD, ALREADY, HELD, HELD)),
    Rule("/game leave", "game in progress", (NO_SEAT, ALLOW, ALLOW, NO_SEAT)),
    Rule("/game status", "game in progress", (ALLOW, ALLOW, ALLOW, ALLOW)),
    Rule("/game map", "game in progress", (ALLOW, ALLOW, ALLOW, ALLOW)),
    Rule("/game log", "game in progress", (ALLOW, ALLOW, ALLOW, ALLOW)),
    Rule("/game export", "game in progress", (ALLOW, ALLOW, ALLOW, ALLOW)),
    Rule("/game help", "game in progress", (ALLOW, ALLOW, ALLOW, ALLOW)),
    Rule("/game end", "game in progress", (END_IN_PROGRESS, END_IN_PROGRESS, END_IN_PROGRESS, ALLOW)),
    Rule("/game undo", "the waiting seat's last order rolled no dice",
         (OWN_STEP, ALLOW, OWN_STEP, OWN_STEP)),
    Rule("/mod rollback to:0", "one order played", (MODERATORS, MODERATORS, MODERATORS, ALLOW)),
    Rule("/mod reroll", "the last order rolled dice", (MODERATORS, MODERATORS, MODERATORS, ALLOW)),
    Rule("/mod seat side:(waiting) user:sub", "every seat taken", (MODERATORS, MODERATORS, MODERATORS, ALLOW)),
    Rule("/mod kick user:(waiting seat)", "every seat taken", (MODERATORS, MODERATORS, MODERATORS, ALLOW)),
    Rule("system order (the waiting side's)", "game in progress",
         (NOT_SEATED, ALLOW, NOT_YOUR_TURN, NOT_SEATED)),
)


def markdown() -> str:
    """The table as markdown (``docs/permissions.md`` holds exactly this)."""
    lines = [
        "| command | situation | " + " | ".join(ROLES) + " |",
        "|---|---|" + "---|" * len(ROLES),
    ]
    for rule in TABLE:
        cells = [c if c == ALLOW else f"✗ “{c}”" for c in rule.cells]
        lines.append(f"| `{rule.command}` | {rule.context} | " + " | ".join(cells) + " |")
    return "\n".join(lines)
