"""The database in trouble, said plainly (issue 29): a full disk, a read-only file, a damaged
database.  Players get one sentence (nothing was stored, who can fix it); the operator gets
what to do, at start-up (``referee health``, ``console``, ``bot``) and in the log.

Both stores' errors are read: SQLite's ``OperationalError``/``DatabaseError`` messages and
asyncpg's error classes (PostgreSQL).  Anything else is not a storage trouble and is handled
as before (an incident id).
"""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from bot.schema import NewerSchema

Trouble = Literal["full", "read-only", "damaged", "unreachable"]

#: Words of SQLite's messages (and of OS errors) by trouble.
_SQLITE = (
    ("full", ("database or disk is full", "no space left")),
    ("read-only", ("readonly database", "read-only", "permission denied")),
    ("damaged", ("malformed", "file is not a database", "disk i/o error", "corrupt")),
    ("unreachable", ("unable to open database",)),
)
#: asyncpg's exception class names by trouble (PostgreSQL).
_POSTGRES = {
    "DiskFullError": "full", "ReadOnlySQLTransactionError": "read-only",
    "DataCorruptedError": "damaged", "IndexCorruptedError": "damaged",
    "CannotConnectNowError": "unreachable", "ConnectionDoesNotExistError": "unreachable",
}

PLAYER: dict[Trouble, str] = {
    "full": "The bot's disk is full, so this was not stored; nothing changed. Tell a moderator:"
            " the operator must free some space, then send it again.",
    "read-only": "The bot cannot write its game database just now, so this was not stored;"
                 " nothing changed. Tell a moderator: the operator must fix the file's permissions.",
    "damaged": "The bot's game database is damaged, so this was not stored; nothing changed."
               " Tell a moderator: the operator must restore it from a backup.",
    "unreachable": "The bot cannot reach its game database just now, so this was not stored;"
                   " nothing changed. Try again in a minute, or tell a moderator.",
}

OPERATOR: dict[Trouble, str] = {
    "full": "the disk holding {db} is full: free space (the bot needs room for the database and"
            " its -wal file); nothing acknowledged was lost, and commands work again at once.",
    "read-only": "{db} is read-only to the bot (the file, or the folder it is in): give its user"
                 " write access to the file and to its folder (SQLite writes the -wal and -shm"
                 " files beside it).",
    "damaged": "{db} is damaged ({detail}): stop the bot, keep a copy of the file, restore the"
               " last backup (or try `sqlite3 FILE .recover`), then start it again.",
    "unreachable": "{db} cannot be opened ({detail}): check the path or the PostgreSQL server"
                   " and its credentials.",
}


def trouble(exc: BaseException) -> Trouble | None:
    """What is wrong with the database, if ``exc`` says so (else None)."""
    for name in (type(c).__name__ for c in _chain(exc)):
        if name in _POSTGRES:
            return _POSTGRES[name]  # type: ignore[return-value]
    for cause in _chain(exc):
        if isinstance(cause, (sqlite3.Error, OSError)):
            text = str(cause).lower()
            for kind, words in _SQLITE:
                if any(w in text for w in words):
                    return kind  # type: ignore[return-value]
    return None


def _chain(exc: BaseException) -> list[BaseException]:
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in seen and len(seen) < 10:
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


def for_player(exc: BaseException) -> str | None:
    """The sentence a player gets, or None if ``exc`` is not a storage trouble."""
    kind = trouble(exc)
    return PLAYER[kind] if kind else None


def for_operator(exc: BaseException, db: Any) -> str | None:
    """What the operator reads (start-up, log), or None if ``exc`` is not a storage trouble.
    A database a newer release upgraded (``bot/schema.py``) is said in its own sentence."""
    for cause in _chain(exc):
        if isinstance(cause, NewerSchema):
            return str(cause)
    kind = trouble(exc)
    if kind is None:
        return None
    if kind == "unreachable" and not_writable(db):
        # SQLite says "unable to open database file" when it cannot make its -wal file
        # beside a database in a read-only folder (issue 45: that was said as credentials).
        kind = "read-only"
    return "Database trouble: " + OPERATOR[kind].format(db=shown(db), detail=str(exc)[:120])


def not_writable(db: Any) -> bool:
    """Whether ``db`` is a SQLite file that is there but cannot be written, or whose folder
    cannot take a new file (the -wal and -shm SQLite makes beside it).  Tried, not asked
    (``os.access`` says yes to root whatever the file's attributes): the file opened for
    writing and closed, a temporary file made in the folder and removed."""
    if not isinstance(db, Path) or not db.is_file():
        return False
    try:
        open(db, "r+b").close()  # opening it for writing is the test
        tempfile.TemporaryFile(dir=db.parent or Path(".")).close()  # and so is making one beside it
    except OSError:
        return True
    return False


def shown(db: Path | str) -> str:
    """A database as a message may show it: a URL without its password (the operator's
    messages go to the log, which others may read)."""
    if isinstance(db, Path):
        return str(db)
    parts = urlsplit(db)
    if parts.password is None:
        return db
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return parts._replace(netloc=netloc).geturl()


async def integrity_problems(store: Any) -> list[str]:
    """``PRAGMA integrity_check`` of a SQLite store (its whole file is read: seconds for a
    gigabyte); PostgreSQL checks its own pages, so nothing to do there."""
    from bot.store import Store  # noqa: PLC0415 - the SQLite store only

    if not isinstance(store, Store):
        return []
    rows = await store._fetchall("PRAGMA integrity_check")
    found = [str(r[0]) for r in rows]
    return [] if found == ["ok"] else found


async def database_problems(store: Any) -> list[str]:
    """What ``referee health`` finds wrong with a database: SQLite's page check, then every
    record of every game against its hash chain and the revert marks and heads its records
    make (``bot/chaincheck.py``, issue 45: one changed byte in a stored state passed)."""
    from bot.chaincheck import record_problems  # noqa: PLC0415 - the records only when checked

    return await integrity_problems(store) or await record_problems(store)


def damaged_sentence(db: Path | str, problems: list[str]) -> str:
    """The operator's sentence for a database :func:`database_problems` found damaged:
    what is wrong first, then what to run."""
    return (f"Database trouble: {shown(db)} fails its integrity check ({problems[0][:160]};"
            f" {len(problems)} problem(s)):"
            " stop the bot, keep a copy of the file, restore the last backup (referee restore --from"
            " FILE; on PostgreSQL pg_restore), then run referee health again.")


__all__ = ["OPERATOR", "PLAYER", "Trouble", "damaged_sentence", "database_problems", "for_operator",
           "for_player", "integrity_problems", "shown", "trouble"]
