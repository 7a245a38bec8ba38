"""Which store ``REFEREE_DB`` names: a SQLite file (the default) or a PostgreSQL server."""

from __future__ import annotations

from pathlib import Path

from bot.store import BaseStore, Store


def is_postgres_url(target: str | Path) -> bool:
    """Whether ``REFEREE_DB`` names a PostgreSQL server rather than a SQLite file."""
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


async def open_store(target: str | Path) -> BaseStore:
    """The store ``target`` names, opened and migrated: PostgreSQL for a
    ``postgresql://`` URL, else the SQLite file at that path."""
    if is_postgres_url(target):
        from bot.pgstore import PgStore  # noqa: PLC0415 - asyncpg only when it is used

        return await PgStore.open(str(target))
    return await Store.open(Path(target))
