"""Migrations: a database made by an older version opens with every step and mark intact."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.logcheck import check_log
from bot.store import BaseStore, Store, migration_files, split_sql


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
        # 0011: the games row's copy of the state is gone; the head step's is read.
        assert (await store.game(1)).state_json == '{"n": 1}'
        columns = [r[1] for r in await store._fetchall("PRAGMA table_info(games)")]
        assert "state_json" not in columns and "head_seq" in columns
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


def test_statements_are_split_by_sqlite_not_by_semicolons() -> None:
    # Issue 11: a literal holding ';' or '--' (or a trigger body) must not cut a statement.
    script = """-- a comment; with a semicolon
CREATE TABLE t (a TEXT DEFAULT 'x;y', b TEXT DEFAULT '-- not a comment');
INSERT INTO t (a) VALUES ('semi; colon -- and dashes');  -- a real comment; here
CREATE TRIGGER tr AFTER INSERT ON t BEGIN
    UPDATE t SET b = 'in; trigger' WHERE rowid = new.rowid;
END;
/* a block; comment */ INSERT INTO t (b) VALUES ('two'); INSERT INTO t (b) VALUES ('on one line');
INSERT INTO "we;ird" VALUES (1)"""
    statements = split_sql(script)
    assert len(statements) == 6, statements
    assert statements[1].startswith("INSERT INTO t (a) VALUES ('semi; colon -- and dashes');")
    assert "'in; trigger'" in statements[2] and statements[2].rstrip().endswith("END;")
    assert statements[5] == 'INSERT INTO "we;ird" VALUES (1)'
    with sqlite3.connect(":memory:") as db:
        for statement in statements[:5]:
            db.execute(statement)
        assert db.execute("SELECT a, b FROM t").fetchall() == [
            ("semi; colon -- and dashes", "-- not a comment"),
            ("x;y", "in; trigger"), ("x;y", "in; trigger")]  # the trigger rewrote both


async def test_version_4_records_who_sits_in_games_started_before_it(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    _old_database(path)
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO seats VALUES (1, 'red', 'u1', 'alice')")
    store = await Store.open(path)
    try:
        events = await store.seat_events(1)
        assert [(e.side, e.user_id, e.event) for e in events] == [("red", "u1", "join")]
    finally:
        await store.close()


async def reads_each_game_at_its_head_step(store: BaseStore) -> None:
    """After 0011, the two games a test left in an earlier version's database (on SQLite
    here, on PostgreSQL in ``tests/store/test_migrate_db.py``) read back with their head
    step's state ``{"g": game, "n": head}``, not the games row's old copy: game 1 ended at
    step 2, game 2 active in channel ``c`` at step 1."""
    assert (await store.game(1)).state_json == '{"g": 1, "n": 2}'
    assert (await store.last_ended_game("c")).id == 1
    active = await store.active_game("c")
    assert active is not None and active.id == 2 and active.state_json == '{"g": 2, "n": 1}'


@pytest.mark.parametrize("version", range(1, 11))
async def test_a_database_of_any_earlier_version_reads_each_game_at_its_head_step(
        tmp_path: Path, version: int) -> None:
    # 0011 drops the games row's copy of the state: every game, active or ended, must read
    # back with its head step's state, whichever version the file was left at, and the log
    # check must pass before and after.  Game 2's head is a reverted step (issue 14).
    path = tmp_path / f"v{version}.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY,"
                     " name TEXT NOT NULL, applied_at TEXT NOT NULL)")
        for number, name, sql in migration_files()[:version]:
            for statement in split_sql(sql):
                conn.execute(statement)
            conn.execute("INSERT INTO schema_migrations VALUES (?, ?, 'then')", (number, name))
        log = "steps" if version == 1 else "step_log"
        for game, status, head in ((1, "ended", 2), (2, "active", 1)):
            conn.execute("INSERT INTO games (id, channel_id, system, scenario, seed, seed_hash,"
                         " head_seq, state_json, status, created_at) VALUES (?, 'c', 'duel', 's',"
                         " x'00', 'h', ?, ?, ?, 'then')", (game, head, f'{{"g": {game}, "n": {head}}}', status))
            for seq in range(3):
                conn.execute(f"INSERT INTO {log} (game_id, seq, parent_seq, kind, state_json,"
                             " created_at) VALUES (?, ?, ?, ?, ?, 'then')",
                             (game, seq, seq - 1 if seq else None, "order" if seq else "setup",
                              f'{{"g": {game}, "n": {seq}}}'))
        conn.execute("INSERT INTO audit (id, game_id, actor_id, actor_name, action, created_at)"
                     " VALUES (7, 2, 'm', 'mod', 'rollback', 'then')")
        if version == 1:
            conn.execute("UPDATE steps SET reverted_by = 7 WHERE game_id = 2 AND seq >= 1")
        else:
            conn.execute("INSERT INTO step_reverts (game_id, seq, audit_id) VALUES (2, 1, 7), (2, 2, 7)")
    reverted_head = ["game 2: head 1 is a reverted step", "game 2: step 1 under the head 1 is reverted"]
    assert check_log(path, linear=False) == reverted_head
    store = await Store.open(path)
    try:
        await reads_each_game_at_its_head_step(store)
    finally:
        await store.close()
    assert check_log(path, linear=False) == reverted_head


async def test_0015_fills_old_steps_as_made_before_versioning(tmp_path: Path) -> None:
    """Issue 42: steps of a database left at version 14 (the last before versioning: leagues
    and chain /2 applied) read as made before versioning, before the migration (``referee
    check-games`` reads such a database as it is, never migrating it) and after it (their
    release filled in, no rules version); opening it applies 0015 and the later ones, and no
    earlier one again."""
    from bot.checkgames import line_entries  # noqa: PLC0415

    path = tmp_path / "v14.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY,"
                     " name TEXT NOT NULL, applied_at TEXT NOT NULL)")
        for number, name, sql in [m for m in migration_files() if m[0] <= 14]:
            for statement in split_sql(sql):
                conn.execute(statement)
            conn.execute("INSERT INTO schema_migrations VALUES (?, ?, 'then')", (number, name))
        conn.execute("INSERT INTO games (id, channel_id, system, scenario, seed, seed_hash, head_seq,"
                     " created_at) VALUES (1, 'c', 'duel', 's', x'00', 'h', 0, 'then')")
        conn.execute("INSERT INTO step_log (game_id, seq, kind, state_json, created_at)"
                     " VALUES (1, 0, 'setup', '{\"n\": 0}', 'then')")
    assert [e["versions"] for e in line_entries(path, 1)] == [None]
    store = await Store.open(path)
    try:
        # Migrations are applied by number, each not yet recorded: 0015 runs on a database
        # main's releases left at 14 (numbered 12 it would have run after 13 and 14 too, out
        # of order; the lead's number keeps them in order).
        assert await store.schema_versions() == [v for v, _, _ in migration_files()]
        assert 15 in await store.schema_versions()
        step = await store.step(1, 0)
        assert step is not None and (step.release, step.rules_version) == ("before versioning", None)
        assert step.versions() is None and (await store.game(1)).head_rules_version is None
    finally:
        await store.close()
    assert [e["versions"] for e in line_entries(path, 1)] == [None]
