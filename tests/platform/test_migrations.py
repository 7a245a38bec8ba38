"""Migrations: a database made by an older version opens with every step and mark intact."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.store import Store, migration_files


def _old_database(path: Path) -> None:
    """A database as version 1 of the schema left it: one game, three steps, #2 reverted."""
    version, name, sql = migration_files()[0]
    assert version == 1
    with sqlite3.connect(path) as conn:
        conn.executescript(sql)
        conn.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY,"
                     " name TEXT NOT NULL, applied_at TEXT NOT NULL)")
        conn.execute("INSERT INTO schema_migrations VALUES (1, ?, 'then')", (name,))
        conn.execute("INSERT INTO games (id, channel_id, system, scenario, seed, seed_hash,"
                     " head_seq, state_json, created_at) VALUES (1, 'c', 'duel', 's', x'00', 'h',"
                     " 1, '{\"n\": 1}', 'then')")
        conn.execute("INSERT INTO audit (id, game_id, actor_id, actor_name, action, created_at)"
                     " VALUES (7, 1, 'm', 'mod', 'rollback', 'then')")
        for seq, reverted in ((0, None), (1, None), (2, 7)):
            conn.execute(
                "INSERT INTO steps (game_id, seq, parent_seq, kind, state_json, interaction_id,"
                " reverted_by, created_at) VALUES (1, ?, ?, ?, ?, ?, ?, 'then')",
                (seq, seq - 1 if seq else None, "order" if seq else "setup",
                 f'{{"n": {seq}}}', f"i{seq}" if seq else None, reverted),
            )


async def test_version_2_keeps_every_step_and_reverted_mark(tmp_path: Path) -> None:
    # 0002 moves the reverted marks to their own table; the steps read back unchanged.
    path = tmp_path / "old.sqlite3"
    _old_database(path)
    store = await Store.open(path)
    try:
        assert await store.schema_versions() == [v for v, _, _ in migration_files()]
        steps = await store.steps(1)
        assert [(s.seq, s.parent_seq, s.state_json, s.reverted_by) for s in steps] == [
            (0, None, '{"n": 0}', None), (1, 0, '{"n": 1}', None), (2, 1, '{"n": 2}', 7),
        ]
        assert await store.lineage(1) == {0: (None, True), 1: (0, True), 2: (1, False)}
        async with store.transaction() as db:
            db.unrevert(1, [2])
            db.revert_after(1, 0, 7)
        assert [s.reverted_by for s in await store.steps(1)] == [None, 7, 7]
    finally:
        await store.close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA foreign_key_check").fetchall() == []


async def test_steps_is_a_view_over_the_log_and_its_marks(tmp_path: Path) -> None:
    # Reverting adds rows to step_reverts and never rewrites the wide step rows.
    store = await Store.open(tmp_path / "new.sqlite3")
    try:
        kinds = await store._fetchall("SELECT name, type FROM sqlite_master WHERE name LIKE 'step%'")
        assert {(r[0], r[1]) for r in kinds} >= {
            ("steps", "view"), ("step_log", "table"), ("step_reverts", "table")}
    finally:
        await store.close()
