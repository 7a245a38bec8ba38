"""The one table of who may do what: every ``/game`` and ``/mod`` command and a system order,
for a spectator, the seat the game waits on, the other seat, a moderator (who holds no seat),
players who lost the waiting seat (kicked, replaced by a moderator, or departed), the player
who took that seat over, and a moderator who also holds the other seat.
``test_permissions.py`` asserts every cell, and the effect of every allowed one;
``docs/permissions.md`` shows the same table (a test checks the two agree).

A cell is ``ALLOW`` or the words the refusal must contain (the reason the player reads).
"""

from __future__ import annotations

from dataclasses import dataclass

ALLOW = "✓"
ROLES = ("spectator", "waiting seat", "other seat", "moderator", "kicked player",
         "replaced player", "departed player", "took the seat over", "seated moderator")

NOT_SEATED = "not seated"
NOT_YOUR_TURN = "not your turn"
MODERATORS = "Only moderators"
END_IN_PROGRESS = "Only a moderator can end"
NO_SEAT = "hold no seat"
HELD = "is held by"
ALREADY = "already hold"
OWN_STEP = "only your own"
LOST_SEAT = "no longer hold"
ROLLED = "rolled dice"
PLAYERS = "Only the game's players"
ONLY_THEM = "only they may answer"
SEATED_LOOK = "You hold a seat"
NO_DEADLINE = "has no deadline"

#: The four roles that are not moderators and hold no seat after the prelude, and the two
#: that never held the waiting seat's history: shorthands for the rows below.
_LOST = (LOST_SEAT, LOST_SEAT, LOST_SEAT)


@dataclass(frozen=True)
class Rule:
    """One row: a command, the situation it is tried in, and each role's outcome."""

    command: str
    context: str
    cells: tuple[str, ...]


def _row(command: str, context: str, *cells: str) -> Rule:
    assert len(cells) == len(ROLES), command
    return Rule(command, context, cells)


A = ALLOW
TABLE: tuple[Rule, ...] = (
    _row("/game new", "a channel with no game", A, A, A, A, A, A, A, A, A),
    _row("/game join side:(free)", "a game with no seat taken", A, A, A, A, A, A, A, A, A),
    _row("/game join side:(waiting)", "every seat taken",
         HELD, ALREADY, HELD, HELD, HELD, HELD, HELD, ALREADY, HELD),
    _row("/game leave", "game in progress",
         NO_SEAT, A, A, NO_SEAT, NO_SEAT, NO_SEAT, NO_SEAT, A, A),
    _row("/game status", "game in progress", A, A, A, A, A, A, A, A, A),
    _row("/game map", "game in progress", A, A, A, A, A, A, A, A, A),
    _row("/game log", "game in progress", A, A, A, A, A, A, A, A, A),
    _row("/game export", "game in progress", A, A, A, A, A, A, A, A, A),
    _row("/game help", "game in progress", A, A, A, A, A, A, A, A, A),
    _row("/game end", "game in progress", *(END_IN_PROGRESS,) * 3, A, *(END_IN_PROGRESS,) * 4, A),
    _row("/game undo", "the waiting seat's last order rolled no dice",
         OWN_STEP, A, OWN_STEP, OWN_STEP, *_LOST, OWN_STEP, OWN_STEP),
    _row("/game undo (after a roll)", "the waiting seat's last order rolled dice",
         OWN_STEP, ROLLED, OWN_STEP, OWN_STEP, *_LOST, OWN_STEP, OWN_STEP),
    _row("/mod rollback to:0", "one order played", *(MODERATORS,) * 3, A, *(MODERATORS,) * 4, A),
    _row("/mod reroll", "the last order rolled dice", *(MODERATORS,) * 3, A, *(MODERATORS,) * 4, A),
    _row("/mod seat side:(waiting) user:sub", "every seat taken",
         *(MODERATORS,) * 3, A, *(MODERATORS,) * 4, A),
    _row("/mod kick user:(waiting seat)", "every seat taken",
         *(MODERATORS,) * 3, A, *(MODERATORS,) * 4, A),
    # Pacing (issue 19): a player's /game pace is a vote until every seat agrees.
    _row("/game pace hours:24", "game in progress",
         PLAYERS, A, A, A, PLAYERS, PLAYERS, PLAYERS, A, A),
    _row("/game away until:3d", "game in progress",
         NO_SEAT, A, A, NO_SEAT, NO_SEAT, NO_SEAT, NO_SEAT, A, A),
    _row("/game sub user:sub3", "game in progress",
         NO_SEAT, A, A, NO_SEAT, NO_SEAT, NO_SEAT, NO_SEAT, A, A),
    _row("/game digest since:0", "game in progress", A, A, A, A, A, A, A, A, A),
    _row("/mod extend hours:12", "a pace of 24 h is set",
         *(MODERATORS,) * 3, A, *(MODERATORS,) * 4, A),
    # A club's own scenarios (issue 27): anyone lists them; only moderators keep or remove one.
    _row("/game scenarios", "game in progress", A, A, A, A, A, A, A, A, A),
    _row("/mod scenario add:(file)", "game in progress",
         *(MODERATORS,) * 3, A, *(MODERATORS,) * 4, A),
    _row("/mod scenario remove:(name)", "the server's library holds it",
         *(MODERATORS,) * 3, A, *(MODERATORS,) * 4, A),
    # A side's own view (issue 28): moderators who hold no seat may look; each look is audited.
    _row("/mod look side:(waiting)", "game in progress",
         *(MODERATORS,) * 3, A, *(MODERATORS,) * 4, SEATED_LOOK),
    # Issue 44: a player concedes only their own side; a moderator rules a deadline loss only
    # once the deadline of the turn-part in play has passed.
    _row("/game concede", "game in progress",
         NO_SEAT, A, A, NO_SEAT, NO_SEAT, NO_SEAT, NO_SEAT, A, A),
    _row("/mod forfeit side:(waiting)", "game in progress, no deadline set",
         *(MODERATORS,) * 3, NO_DEADLINE, *(MODERATORS,) * 4, NO_DEADLINE),
    _row("system order (the waiting side's)", "game in progress",
         NOT_SEATED, A, NOT_YOUR_TURN, NOT_SEATED, NOT_SEATED, NOT_SEATED, NOT_SEATED, A,
         NOT_YOUR_TURN),
    # Orders by choosing (issue 30): the menus of /game act, and a press that sends an order.
    _row("/game act", "game in progress",
         NOT_SEATED, A, NOT_YOUR_TURN, NOT_SEATED, NOT_SEATED, NOT_SEATED, NOT_SEATED, A,
         NOT_YOUR_TURN),
    _row("press (the waiting side's answer)", "game in progress",
         *(ONLY_THEM,) * 1, A, *(ONLY_THEM,) * 5, A, ONLY_THEM),
)

#: How each of the last five roles came about, after the row's situation was set up (the
#: waiting seat ends up held by ``sub`` in the first four).
PRELUDES = {
    "kicked player": "a moderator kicked the waiting seat's player, then seated sub there",
    "replaced player": "a moderator seated sub in the waiting seat, replacing its player",
    "departed player": "the waiting seat's player left; sub joined that seat",
    "took the seat over": "as for the departed player; the role is sub",
    "seated moderator": "a moderator seated themselves in the other seat",
}


def markdown() -> str:
    """The table as markdown (``docs/permissions.md`` holds exactly this)."""
    lines = [
        "| command | situation | " + " | ".join(ROLES) + " |",
        "|---|---|" + "---|" * len(ROLES),
    ]
    for rule in TABLE:
        cells = [c if c == ALLOW else f"✗ “{c}”" for c in rule.cells]
        lines.append(f"| `{rule.command}` | {rule.context} | " + " | ".join(cells) + " |")
    lines.append("")
    lines += [f"* **{role}**: {how}." for role, how in PRELUDES.items()]
    return "\n".join(lines)
