"""``referee check-games``: every live game replayed under this release's rules before (or
after) an upgrade, changing no game (issue 42).

Each active game's current line, from its setup to its head, is run again step by step on
the recorded states with the recorded dice (``bot/rerun.py``); the first step that today's
rules resolve otherwise is listed with the rule it cites and both outcomes.  The database
is read on a connection of its own and never migrated (``bot/logcheck.py``'s
:func:`~bot.logcheck.query`), so it can be run by the new release against the database the
old one still serves; a database from before migration 0015 reads as "before versioning".
The one thing written is a note in ``bot_meta`` saying which release and rules versions the
games were checked against, which ``referee health`` compares with its own.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel

from bot import versions
from bot.logcheck import Target, query
from bot.rerun import Verdict, rerun, verdict
from bot.store import scenario_loaded
from bot.writer import utcnow
from rules.core import registry
from rules.core.errors import RuleError

#: The ``bot_meta`` key of the last check: the release and rules versions it ran under.
CHECKED_KEY = "games_checked_against"
#: The step columns read (migration 0015's two are replaced by constants before it).
_STEP_COLUMNS = ("seq, parent_seq, kind, actor_id, actor_name, side, action_json, dice_json, events_json,"
                 " state_json, reveals, snapshot, turn_part, rerolls, created_at")


class GameCheck(BaseModel):
    """One live game checked: how many steps of its line ran again, and the first that
    today's rules resolve otherwise (None: every one as recorded)."""

    game_id: int
    channel_id: str
    system: str
    steps: int
    first: Verdict | None = None
    #: Why the game could not be checked at all (its system or scenario is not installed).
    unreadable: str | None = None

    def line(self) -> str:
        """The report's line for the game."""
        name = f"game #{self.game_id} ({self.system}, channel {self.channel_id})"
        if self.unreadable:
            return f"? {name}: not checked: {self.unreadable}"
        if self.first is None:
            return f"✓ {name}: all {self.steps} steps of its line resolve as recorded under today's rules"
        if self.first.kind == "problem":
            return (f"✗ {name}: first differs at {self.first.text} ({self.first.detail()}), made under today's"
                    f" rules: a ruling changed without its rules version bumped, or the record was changed")
        return f"△ {name}: first differs at {self.first.text}"


def has_columns(target: Target, table: str, columns: str) -> bool:
    """Whether ``table`` has ``columns`` (an older schema may not: the database is read as
    it is, never migrated)."""
    try:
        query(target, f"SELECT {columns} FROM {table} WHERE 1 = 0")
    except Exception:  # noqa: BLE001 - SQLite's and PostgreSQL's "no such column" alike
        return False
    return True


def live_games(target: Target) -> list[tuple[Any, ...]]:
    """``(id, channel_id, system, scenario, options_json, scenario_text)`` of every active game."""
    text = "scenario_text" if has_columns(target, "games", "scenario_text") else "NULL"
    return query(target, f"SELECT id, channel_id, system, scenario, options_json, {text} FROM games"
                         " WHERE status = 'active' ORDER BY id")


def line_entries(target: Target, game_id: int) -> list[dict[str, Any]]:
    """The game's active steps, setup to head, each as its export shows it."""
    made = ("release_version, rules_version" if has_columns(target, "step_log", "release_version, rules_version")
            else f"'{versions.BEFORE_VERSIONING}', NULL")
    rows = query(target, f"SELECT {_STEP_COLUMNS}, {made} FROM steps WHERE game_id = ? AND reverted_by IS NULL"
                         " ORDER BY seq", (game_id,))
    return [_entry(r) for r in rows]


def _entry(row: tuple[Any, ...]) -> dict[str, Any]:
    (seq, parent, kind, _, _, side, action, dice, events, state, _, _, _, _, _, release, rules) = row
    return {"seq": seq, "parent_seq": parent, "kind": kind, "side": side,
            "action": json.loads(action) if action else None, "dice": json.loads(dice),
            "events": json.loads(events), "state": json.loads(state),
            "versions": None if rules is None else {"release": release, "rules": rules}}


def check_game(target: Target, game: tuple[Any, ...]) -> GameCheck:
    """Run one live game's line again; the first step that resolves otherwise, if any."""
    game_id, channel_id, system_key, scenario, options, text = game
    found = GameCheck(game_id=game_id, channel_id=str(channel_id), system=system_key, steps=0)
    try:
        system = registry.get(system_key)
        scenario_loaded(system_key, text)
    except (KeyError, RuleError) as exc:
        return found.model_copy(update={"unreadable": f"its system is not installed here ({exc})"})
    document = {"scenario": scenario, "options": json.loads(options)}
    states: dict[int, dict[str, Any]] = {}
    seals: dict[str, dict[str, Any]] = {}  # the newest recorded seal of each key on the line
    for entry in line_entries(target, game_id):
        states[entry["seq"]] = entry["state"]
        parent = states.get(entry["parent_seq"]) if entry["action"] is not None else None
        found.steps += 1
        judged = verdict(system, entry, rerun(system, document, entry, parent, seals))
        if judged.kind != "same":
            found.first = judged
            break
    return found


def check_games(target: Target) -> list[GameCheck]:
    """Every live game checked, in game order; notes the check for ``referee health``."""
    checks = [check_game(target, game) for game in live_games(target)]
    query(target, "INSERT INTO bot_meta (key, value, updated_at) VALUES (?, ?, ?) ON CONFLICT (key)"
                  " DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
          (CHECKED_KEY, versions.fingerprint(registry.load_all().values()), utcnow()))
    return checks


def summary(checks: list[GameCheck]) -> str:
    """The report's last line."""
    against = versions.fingerprint(registry.load_all().values())
    differ = sum(1 for c in checks if c.first is not None)
    games = f"{len(checks)} live game{'s' if len(checks) != 1 else ''}"
    if not differ:
        return f"{games} checked against {against}: every step resolves as recorded; nothing was changed."
    return (f"{games} checked against {against}: {differ} would resolve otherwise from the step named;"
            " nothing was changed (each plays on from its stored head; a moderator may"
            " /mod rules-adopt from:N to re-derive it under today's rules).")


__all__ = ["CHECKED_KEY", "GameCheck", "check_game", "check_games", "has_columns", "line_entries",
           "live_games", "summary"]
