"""Synchronous PostgreSQL queries on a connection of their own, for callers that are not
async or must not share the caller's event loop: the database check (``bot/logcheck.py``),
the throwaway server (``bot/pgserver.py``).

Each call opens a connection, runs in a thread with its own event loop (so it works from
inside a running loop, as in the async tests), and closes it: like an operator's ``psql``,
it trusts nothing of the process that wrote the data.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any


async def _fetch(url: str, sql: str, args: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    import asyncpg  # noqa: PLC0415 - only PostgreSQL users need it loaded

    conn = await asyncpg.connect(url)
    try:
        if args:
            return [tuple(r) for r in await conn.fetch(sql, *args)]
        # No arguments: the simple protocol, so a statement such as CREATE DATABASE (which
        # cannot run in a prepared statement's implicit transaction) works too.
        result = await conn.fetch(sql) if sql.lstrip().upper().startswith(("SELECT", "WITH")) else None
        if result is None:
            await conn.execute(sql)
            return []
        return [tuple(r) for r in result]
    finally:
        await conn.close()


def run_sync(url: str, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every row of ``sql`` (``?`` placeholders allowed) on ``url``, as tuples."""
    from bot.dialect import placeholders  # noqa: PLC0415

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, _fetch(url, placeholders(sql), args)).result()
