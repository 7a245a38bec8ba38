"""Check a Referee database after a run: nothing lost, duplicated, interleaved or half-written.

Read with the standard ``sqlite3`` module on a separate connection, the way an operator
would inspect the file, so the check does not trust the code it checks.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path

_SEQ_IN_REPLY = re.compile(r"^#(\d+) ")


def table_rows(path: Path) -> dict[str, list[str]]:
    """Every row of every table, sorted: "nothing changed" compares all of it (seats, audit,
    revert marks, seat history and stored replies as well as steps and games; issue 14)."""
    with sqlite3.connect(path) as db:
        names = [r[0] for r in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            " ORDER BY name")]
        return {name: sorted(map(repr, db.execute(f"SELECT * FROM {name}"))) for name in names}


def integrity(path: Path) -> str:
    """``PRAGMA integrity_check``: ``"ok"`` for a sound file."""
    with sqlite3.connect(path) as db:
        return str(db.execute("PRAGMA integrity_check").fetchone()[0])


def _ancestry(game_id: int, head_seq: int, by_seq: dict[int, tuple]) -> list[str]:
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


def check_log(path: Path, acknowledged: dict[str, str] | None = None, *, linear: bool = True) -> list[str]:
    """Every problem found in the step log (an empty list when it is sound).

    * each game's seqs run 0, 1, 2 … with no gap and no repeat;
    * each step's parent is an earlier step of the same game (``linear``: the one just
      before it and nothing reverted, for runs without rollback or reroll); only the setup
      and a reroll of a setup (a new root) have none;
    * the game's head state is the state of its head step;
    * the active steps are exactly the head and its ancestors: nothing the game stands on
      is reverted, and nothing reverted-in-all-but-name hangs off another branch (issue 14:
      a rollback after a rerolled setup put the head on a reverted step);
    * ``acknowledged`` maps each interaction id whose reply a player saw to that reply's
      text: the step is stored under that id, with the number the reply showed.
    """
    problems: list[str] = []
    with sqlite3.connect(path) as db:
        games = db.execute("SELECT id, head_seq, state_json FROM games").fetchall()
        for game_id, head_seq, state_json in games:
            rows = db.execute(
                "SELECT seq, parent_seq, reverted_by, state_json, kind, action_json FROM steps"
                " WHERE game_id = ? ORDER BY seq", (game_id,),
            ).fetchall()
            seqs = [r[0] for r in rows]
            if seqs != list(range(len(seqs))):
                problems.append(f"game {game_id}: seqs are not 0..{len(seqs) - 1}: {seqs[:20]}")
            by_seq = {r[0]: r for r in rows}
            for seq, parent, reverted, _, kind, action in rows:
                if seq == 0:
                    if parent is not None:
                        problems.append(f"game {game_id}: setup step has parent {parent}")
                    continue
                if parent is None and kind == "reroll" and action is None and not linear:
                    continue  # a rerolled setup: a new root
                if parent is None or parent not in by_seq or parent >= seq:
                    problems.append(f"game {game_id}: step {seq} has parent {parent}")
                elif linear and (parent != seq - 1 or reverted is not None):
                    problems.append(f"game {game_id}: step {seq} is not on the straight line (parent {parent}, reverted {reverted})")
            head = by_seq.get(head_seq)
            if head is None:
                problems.append(f"game {game_id}: head {head_seq} is not a stored step")
            elif head[3] != state_json:
                problems.append(f"game {game_id}: head state differs from step {head_seq}'s state")
            elif head[2] is not None:
                problems.append(f"game {game_id}: head {head_seq} is a reverted step")
            if head is not None:
                problems += _ancestry(game_id, head_seq, by_seq)
        for interaction_id, text in (acknowledged or {}).items():
            row = db.execute(
                "SELECT seq FROM steps WHERE interaction_id = ?", (interaction_id,)
            ).fetchone()
            if row is None:
                problems.append(f"acknowledged {interaction_id} has no step")
                continue
            match = _SEQ_IN_REPLY.match(text)
            if match is None or int(match.group(1)) != row[0]:
                problems.append(f"acknowledged {interaction_id} showed {text[:20]!r} but is step {row[0]}")
    return problems
