"""``referee migrate-db --from FILE --to URL``: an existing SQLite database into PostgreSQL.

Stop the bot first.  The SQLite file is brought to the newest migration (as the bot does at
start), the PostgreSQL database is created by the same migrations, and then every table the
two share is copied row for row, ids included, in one transaction: parents before children
(read from the foreign keys), each identity sequence moved past the highest id copied.  The
target must be empty of games: a half-copied or doubled store is refused, not merged.
Tables a later migration adds (reminders, say) are carried the same way, with no change here.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import asyncpg

from bot.pgstore import PgStore
from bot.store import Store


def copy_order(db: sqlite3.Connection, tables: list[str]) -> list[str]:
    """``tables`` with every table after the tables its foreign keys point at."""
    parents = {t: {row[2] for row in db.execute(f"PRAGMA foreign_key_list({t})")} & set(tables)
               for t in tables}
    ordered: list[str] = []
    while len(ordered) < len(tables):
        ready = sorted(t for t in tables if t not in ordered and parents[t] - {t} <= set(ordered))
        if not ready:
            raise RuntimeError(f"foreign keys form a cycle among {sorted(set(tables) - set(ordered))}")
        ordered += ready
    return ordered


async def copy_database(source: Path, target: str) -> dict[str, int]:
    """Copy ``source`` (a SQLite file) into the PostgreSQL database at ``target``; the rows
    copied per table."""
    if not source.exists():
        raise SystemExit(f"{source} does not exist (give the bot's SQLite file with --from)")
    sqlite_store = await Store.open(source)  # the newest migrations, as at the bot's start
    await sqlite_store.close()
    pg = await PgStore.open(target)
    await pg.close()
    conn = await asyncpg.connect(target)
    try:
        if await conn.fetchval("SELECT COUNT(*) FROM games"):
            raise SystemExit("the PostgreSQL database already holds games; migrate into an empty one")
        pg_tables = {r[0] for r in await conn.fetch(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
            " AND table_type = 'BASE TABLE'")}
        with sqlite3.connect(source) as db:
            names = [r[0] for r in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
            tables = copy_order(db, [t for t in names if t in pg_tables and t != "schema_migrations"])
            counts: dict[str, int] = {}
            async with conn.transaction():
                for table in tables:
                    cursor = db.execute(f"SELECT * FROM {table}")
                    columns = [c[0] for c in cursor.description]
                    rows = [tuple(r) for r in cursor]
                    if rows:
                        await conn.copy_records_to_table(table, records=rows, columns=columns)
                    counts[table] = len(rows)
                await _advance_identities(conn)
    finally:
        await conn.close()
    return counts


async def _advance_identities(conn: asyncpg.Connection) -> None:
    """Move each identity column's sequence past the highest id copied (explicit ids do
    not move it, and the next insert would collide)."""
    rows = await conn.fetch(
        "SELECT table_name, column_name FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND is_identity = 'YES'")
    for table, column in rows:
        await conn.execute(
            f"SELECT setval(pg_get_serial_sequence('{table}', '{column}'),"
            f" COALESCE((SELECT MAX({column}) FROM {table}), 0) + 1, false)")
