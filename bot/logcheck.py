"""Check a Referee database after a run: nothing lost, duplicated, interleaved or half-written.

Read on a separate connection (the standard ``sqlite3`` module, or a fresh asyncpg
connection for a PostgreSQL URL: ``bot/pgsync.py``), the way an operator would inspect the
database, so the check does not trust the code it checks.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

from bot.pgsync import run_sync
from bot.stores import is_postgres_url

#: A SQLite file, or a PostgreSQL URL.
Target = Path | str

_SEQ_IN_REPLY = re.compile(r"^#(\d+) ")


def query(target: Target, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every row of ``sql`` (``?`` placeholders) as tuples, on a connection of its own, in
    a SQLite file or a PostgreSQL database."""
    if is_postgres_url(target):
        return run_sync(str(target), sql, args)
    with sqlite3.connect(target) as db:
        return [tuple(r) for r in db.execute(sql, args)]


def table_rows(path: Target) -> dict[str, list[str]]:
    """Every row of every table, sorted: "nothing changed" compares all of it (seats, audit,
    revert marks, seat history and stored replies as well as steps and games; issue 14)."""
    if is_postgres_url(path):
        names = [r[0] for r in query(path, "SELECT table_name FROM information_schema.tables"
                                           " WHERE table_schema = current_schema()"
                                           " AND table_type = 'BASE TABLE' ORDER BY table_name")]
    else:
        names = [r[0] for r in query(path, "SELECT name FROM sqlite_master WHERE type = 'table'"
                                           " AND name NOT LIKE 'sqlite_%' ORDER BY name")]
    return {name: sorted(map(repr, query(path, f"SELECT * FROM {name}"))) for name in names}


def integrity(path: Target) -> str:
    """``"ok"`` for a sound database: SQLite's ``PRAGMA integrity_check``; on PostgreSQL
    (which checks its pages itself) every table must read to its end, and every step's
    game must exist."""
    if not is_postgres_url(path):
        return str(query(path, "PRAGMA integrity_check")[0][0])
    for (name,) in query(path, "SELECT table_name FROM information_schema.tables WHERE"
                               " table_schema = current_schema() AND table_type = 'BASE TABLE'"):
        query(path, f"SELECT COUNT(*) FROM {name}")
    orphans = query(path, "SELECT COUNT(*) FROM step_log s LEFT JOIN games g ON g.id = s.game_id"
                          " WHERE g.id IS NULL")[0][0]
    return "ok" if orphans == 0 else f"{orphans} steps without a game"


def _ancestry(game_id: int, head_seq: int, by_seq: dict[int, tuple[Any, ...]]) -> list[str]:
    """The head's ancestors are all active, and every active step is one of them."""
    problems = []
    line: set[int] = set()
    current: int | None = head_seq
    while current is not None and current in by_seq and current not in line:
        line.add(current)
        if by_seq[current][2] is not None:
            problems.append(f"game {game_id}: step {current} under the head {head_seq} is reverted")
        current = by_seq[current][1]
    stray = sorted(seq for seq, row in by_seq.items() if row[2] is None and seq not in line)
    if stray:
        problems.append(f"game {game_id}: active steps {stray[:10]} are not under the head {head_seq}")
    return problems


def _chain(path: Target, game_id: int, chain_head: str) -> list[str]:
    """The game's records (steps and audit entries) form one hash chain ending at its head:
    none follows the same record as another (a fork: two writers each appended to a copy
    they thought current), none is off the chain (issue 29).  Records older than the chain
    (no hash) are left out."""
    records = query(path, "SELECT prev_hash, hash, seq FROM step_log WHERE game_id = ? AND hash IS NOT NULL"
                          " UNION ALL SELECT prev_hash, hash, -id FROM audit WHERE game_id = ?"
                          " AND hash IS NOT NULL", (game_id, game_id))
    if not records:
        return []
    name = {h: (f"step {n}" if n >= 0 else f"audit {-n}") for _, h, n in records}
    problems = []
    after: dict[str, str] = {}
    for prev, digest, _ in records:
        if prev in after:
            problems.append(f"game {game_id}: the chain forks: {name[after[prev]]} and {name[digest]}"
                            " follow the same record")
        after[prev] = digest
    back = {digest: prev for prev, digest, _ in records}
    seen, current = set(), chain_head
    while current in back and current not in seen:
        seen.add(current)
        current = back[current]
    if chain_head not in back:
        problems.append(f"game {game_id}: its chain head {chain_head[:16]} is no record's hash")
    elif len(seen) != len(records):
        off = sorted(name[h] for _, h, _ in records if h not in seen)
        problems.append(f"game {game_id}: records off the chain that ends at its head: {off[:8]}")
    return problems


def _games(path: Target) -> list[tuple[Any, ...]]:
    """``(id, head_seq, state_json, chain_head)`` of every game; ``state_json`` is None since
    migration 0011 (the head step holds the one copy), ``chain_head`` before 0009."""
    for sql, pad in (("SELECT id, head_seq, state_json, chain_head FROM games", ()),
                     ("SELECT id, head_seq, NULL, chain_head FROM games", ()),
                     ("SELECT id, head_seq, state_json FROM games", (None,))):
        try:
            return [(*row, *pad) for row in query(path, sql)]
        except Exception as exc:  # noqa: BLE001 - SQLite's and asyncpg's errors alike
            if not _missing_column(exc):
                raise  # a lock, a damaged file: never taken for an older schema
    raise RuntimeError(f"{path}: no games table this check knows")


def _missing_column(exc: Exception) -> bool:
    """Whether ``exc`` says a column the query names is not in the table (a schema before
    or after the one the query reads): SQLite's "no such column", PostgreSQL's
    undefined_column (SQLSTATE 42703)."""
    if isinstance(exc, sqlite3.OperationalError):
        return str(exc).startswith("no such column")
    return getattr(exc, "sqlstate", None) == "42703"


def check_log(path: Target, acknowledged: dict[str, str] | None = None, *, linear: bool = True) -> list[str]:
    """Every problem found in the step log (an empty list when it is sound).

    * each game's seqs run 0, 1, 2 … with no gap and no repeat;
    * each step's parent is an earlier step of the same game (``linear``: the one just
      before it and nothing reverted, for runs without rollback or reroll); only the setup
      and a reroll of a setup (a new root) have none;
    * the game's head is a stored step (its state is that step's: migration 0011 keeps
      one copy; before it, the games row's copy must equal the step's);
    * the active steps are exactly the head and its ancestors: nothing the game stands on
      is reverted, and nothing reverted-in-all-but-name hangs off another branch (issue 14:
      a rollback after a rerolled setup put the head on a reverted step);
    * the game's records form one hash chain ending at its chain head (:func:`_chain`);
    * ``acknowledged`` maps each interaction id whose reply a player saw to that reply's
      text: the step is stored under that id, with the number the reply showed.
    """
    problems: list[str] = []
    by_game: dict[int, list[tuple[Any, ...]]] = {}
    for row in query(path, "SELECT game_id, seq, parent_seq, reverted_by, state_json, kind,"
                           " action_json FROM steps ORDER BY game_id, seq"):
        by_game.setdefault(row[0], []).append(row[1:])
    for game_id, head_seq, state_json, chain_head in _games(path):
        if chain_head is not None:
            problems += _chain(path, game_id, chain_head)
        rows = by_game.get(game_id, [])
        seqs = [r[0] for r in rows]
        if seqs != list(range(len(seqs))):
            problems.append(f"game {game_id}: seqs are not 0..{len(seqs) - 1}: {seqs[:20]}")
        by_seq = {r[0]: r for r in rows}
        problems += [p for row in rows if (p := _parent_problem(game_id, row, by_seq, linear))]
        problems += _head_problems(game_id, head_seq, state_json, by_seq)
    if acknowledged:
        problems += _acknowledged_problems(path, acknowledged)
    return problems


def _parent_problem(game_id: int, row: tuple[Any, ...], by_seq: dict[int, tuple[Any, ...]],
                    linear: bool) -> str | None:
    """What is wrong with one step's parent (None: nothing)."""
    seq, parent, reverted, _, kind, action = row
    if seq == 0:
        return None if parent is None else f"game {game_id}: setup step has parent {parent}"
    if parent is None and kind == "reroll" and action is None and not linear:
        return None  # a rerolled setup: a new root
    if parent is None or parent not in by_seq or parent >= seq:
        return f"game {game_id}: step {seq} has parent {parent}"
    if linear and (parent != seq - 1 or reverted is not None):
        return f"game {game_id}: step {seq} is not on the straight line (parent {parent}, reverted {reverted})"
    return None


def _head_problems(game_id: int, head_seq: int, state_json: str | None,
                   by_seq: dict[int, tuple[Any, ...]]) -> list[str]:
    """The head is a stored, active step whose ancestors are the active steps.  Each finding
    on its own: a copy unlike the head's state says nothing about whether it is reverted."""
    head = by_seq.get(head_seq)
    if head is None:
        return [f"game {game_id}: head {head_seq} is not a stored step"]
    problems = []
    if state_json is not None and head[3] != state_json:
        problems.append(f"game {game_id}: head state differs from step {head_seq}'s state")
    if head[2] is not None:
        problems.append(f"game {game_id}: head {head_seq} is a reverted step")
    return problems + _ancestry(game_id, head_seq, by_seq)


def _acknowledged_problems(path: Target, acknowledged: dict[str, str]) -> list[str]:
    """Each reply a player saw names the step stored under its interaction id."""
    problems = []
    stored = dict(query(path, "SELECT interaction_id, seq FROM steps WHERE interaction_id IS NOT NULL"))
    for interaction_id, text in acknowledged.items():
        seq = stored.get(interaction_id)
        if seq is None:
            problems.append(f"acknowledged {interaction_id} has no step")
            continue
        match = _SEQ_IN_REPLY.match(text)
        if match is None or int(match.group(1)) != seq:
            problems.append(f"acknowledged {interaction_id} showed {text[:20]!r} but is step {seq}")
    return problems
