"""A group-commit unit on PostgreSQL goes over in one round trip (issue 23: an order in at
most three: the channel's turn with the game's version, the commit, the turn given back),
its values inlined as literals (``bot/dialect.literal``).  Whatever a player types must
come back byte for byte and never leave its literal; a guarded update that loses its race
still refuses the whole unit."""

from __future__ import annotations

import pytest

from bot.dialect import inlined, literal
from bot.pgstore import PgStore, unit_script
from bot.stores import open_store
from bot.writer import Conflict, Statement

#: Texts a player could send as a name or an option: quotes, backslashes, a would-be end of
#: the literal and of the statement, dollar quotes, unicode, a comment.
TEXTS = ["plain", "it's", "'; DROP TABLE games; --", "back\\slash\\'", "\\x41", "$$ $tag$",
         "é 🎲 \u200b", "?", "-- /* */", "line\nbreak\ttab\r", "''", "\\"]


def test_literals_quote_every_kind_of_value() -> None:
    assert literal(None) == "NULL" and literal(True) == "TRUE" and literal(3) == "3"
    assert literal("it's") == "'it''s'" and literal(b"\x00\xff") == "'\\x00ff'::bytea"
    assert inlined("SELECT ? -- ?\n, '?', ?", ("a", 2)) == "SELECT 'a' -- ?\n, '?', 2"
    with pytest.raises(ValueError):
        literal("nul \x00")
    with pytest.raises(ValueError):
        inlined("SELECT ?", (1, 2))


async def test_inlined_values_come_back_exactly(pg_url: str) -> None:
    store = await open_store(pg_url)
    assert isinstance(store, PgStore)
    try:
        async with store.transaction() as db:
            await db.create_game(channel_id="c", guild_id=None, system="duel", scenario="s",
                                 options={}, seed=b"0" * 32, seed_hash="h", created_by="test")
        unit = store.unit()
        for n, text in enumerate(TEXTS):
            unit.set_meta(f"k{n}", text)
        await store.commit_unit(unit)
        for n, text in enumerate(TEXTS):
            assert await store.meta(f"k{n}") == text
        assert await store.count_games() == 1  # nothing escaped its literal
    finally:
        await store.close()


async def test_a_guard_that_fails_refuses_the_whole_unit(pg_url: str) -> None:
    store = await open_store(pg_url)
    try:
        unit = store.unit()
        unit.set_meta("before", "x")
        unit.set_head(999, 1, version=0)  # no such game: the guard changes no row
        unit.set_meta("after", "y")
        assert "1 / (CASE WHEN count(*) = 1" in unit_script(unit.statements())
        with pytest.raises(Conflict):
            await store.commit_unit(unit)
        assert await store.meta("before") is None and await store.meta("after") is None
    finally:
        await store.close()


def test_a_unit_is_one_script() -> None:
    script = unit_script([Statement("INSERT INTO t VALUES (?)", [(1,), (2,)], many=True),
                          Statement("UPDATE t SET a = ? WHERE b = ?", ("o'k", None))])
    assert script == "INSERT INTO t VALUES (1);\nINSERT INTO t VALUES (2);\nUPDATE t SET a = 'o''k' WHERE b = NULL"
