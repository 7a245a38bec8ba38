"""A group-commit unit on PostgreSQL goes over in one round trip (issue 23: an order in at
most three: the channel's turn with the game's version, the commit, the turn given back):
as ONE statement with its values bound as parameters when its parts cannot see each other
(an order's unit: ``pgstore.unit_statement``), else as a script with its values inlined as
literals (``bot/dialect.literal``).  Whatever a player types must come back byte for byte
and never leave its literal; a guarded update that loses its race, or a repeated
interaction, still refuses the whole unit."""

from __future__ import annotations

import pytest

from bot.dialect import inlined, literal
from bot.pgstore import PgStore, unit_script, unit_statement
from bot.stores import open_store
from bot.writer import Conflict, Statement, StoreIntegrityError

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


#: An order's unit as the ledger queues it (bot/ledger.py): the guarded head, the step, the
#: reply remembered.
HEAD = Statement("UPDATE games SET head_seq = ?, version = version + 1 WHERE id = ? AND version = ?",
                 (1, 7, 0), expect=1)
STEP = Statement("INSERT INTO step_log (game_id, seq, kind, state_json, created_at) VALUES (?,?,?,?,?)",
                 (7, 1, "order", "{}", "now"))
REPLY = Statement("INSERT INTO interactions (interaction_id, game_id, reply_json, created_at)"
                  " VALUES (?,?,?,?)", ("i1", 7, "{}", "now"))


class Queued:
    """A unit as ``commit_unit`` reads it: its statements (guards included, which only
    ``Writer.set_head`` makes)."""

    def __init__(self, *statements: Statement) -> None:
        self._statements = list(statements)

    def statements(self) -> list[Statement]:
        return list(self._statements)


def test_an_order_unit_is_one_statement_its_values_bound() -> None:
    one = unit_statement([HEAD, STEP, REPLY])
    assert one is not None
    sql, args = one
    assert sql == (
        "WITH p0 AS (UPDATE games SET head_seq = $1, version = version + 1 WHERE id = $2 AND"
        " version = $3 RETURNING 1), p1 AS (INSERT INTO step_log (game_id, seq, kind, state_json,"
        " created_at) VALUES ($4,$5,$6,$7,$8)), p2 AS (INSERT INTO interactions (interaction_id,"
        " game_id, reply_json, created_at) VALUES ($9,$10,$11,$12))"
        " SELECT 1 / (CASE WHEN (SELECT count(*) FROM p0) = 1 THEN 1 ELSE 0 END)")
    assert args == [1, 7, 0, 7, 1, "order", "{}", "now", "i1", 7, "{}", "now"]
    rows = Statement("INSERT INTO t (a) VALUES (?)", [(1,), (2,)], many=True)
    assert unit_statement([rows]) == (
        "WITH p0 AS (INSERT INTO t (a) VALUES ($1)), p1 AS (INSERT INTO t (a) VALUES ($2)) SELECT 1",
        [1, 2])


def test_a_statement_for_no_rows_adds_no_part() -> None:
    # Writer.executemany of no rows (unrevert of nothing) runs nothing, as on SQLite: not a
    # part whose placeholders no value fills (the server would refuse the whole unit).
    nothing = Statement("DELETE FROM step_reverts WHERE game_id = ? AND seq = ?", [], many=True)
    one = unit_statement([HEAD, nothing, STEP])
    assert one is not None
    sql, args = one
    assert "step_reverts" not in sql and sql.count("$") == len(args) == 8
    assert unit_statement([nothing]) is None  # nothing at all: the (empty) script


@pytest.mark.parametrize("parts", [
    # A row changed twice in one statement: only one change would be kept.
    [HEAD, Statement("UPDATE games SET status = 'ended' WHERE id = ?", (7,))],
    # A row inserted, then changed: the change would not see it.
    [Statement("INSERT INTO seats (game_id, side) VALUES (?,?)", (7, "a")),
     Statement("DELETE FROM seats WHERE game_id = ?", (7,))],
    # Reads another table, which another part may change.
    [STEP, Statement("INSERT INTO step_reverts (game_id, seq, audit_id) SELECT game_id, seq, ?"
                     " FROM step_log WHERE game_id = ?", (1, 7))],
    # An upsert changes rows in place too.
    [Statement("INSERT INTO bot_meta (key, value) VALUES (?,?) ON CONFLICT (key) DO UPDATE"
               " SET value = excluded.value", ("k", "v"))],
    [Statement("SELECT 1")],
    [],
])
def test_parts_that_could_see_each_other_go_as_a_script(parts: list[Statement]) -> None:
    assert unit_statement(parts) is None


async def _game(store: PgStore) -> int:
    async with store.transaction() as db:
        return await db.create_game(channel_id="c", guild_id=None, system="duel", scenario="s",
                                    options={}, seed=b"0" * 32, seed_hash="h", created_by="test")


def _order_unit(game_id: int, version: int, interaction_id: str, reply: str) -> Queued:
    return Queued(
        Statement("UPDATE games SET head_seq = ?, version = version + 1 WHERE id = ? AND version = ?",
                  (1, game_id, version), expect=1),
        Statement("INSERT INTO interactions (interaction_id, game_id, reply_json, created_at)"
                  " VALUES (?,?,?,?)", (interaction_id, game_id, reply, "now")))


async def test_bound_values_come_back_exactly(pg_url: str) -> None:
    store = await open_store(pg_url)
    assert isinstance(store, PgStore)
    try:
        game_id = await _game(store)
        for n, text in enumerate(TEXTS):
            unit = _order_unit(game_id, n, f"i{n}{text}", text)
            assert unit_statement(unit.statements()) is not None
            await store.commit_unit(unit)  # type: ignore[arg-type]
        for n, text in enumerate(TEXTS):
            assert await store.answered(f"i{n}{text}") == text
        assert await store.count_games() == 1
    finally:
        await store.close()


async def test_a_lost_guard_or_a_repeat_refuses_the_whole_statement(pg_url: str) -> None:
    store = await open_store(pg_url)
    try:
        game_id = await _game(store)
        with pytest.raises(Conflict):  # resolved against version 5; the game is at 0
            await store.commit_unit(_order_unit(game_id, 5, "stale", "x"))  # type: ignore[arg-type]
        assert await store.answered("stale") is None
        await store.commit_unit(_order_unit(game_id, 0, "once", "x"))  # type: ignore[arg-type]
        with pytest.raises(StoreIntegrityError):  # the same interaction delivered again
            await store.commit_unit(_order_unit(game_id, 1, "once", "y"))  # type: ignore[arg-type]
        assert await store.answered("once") == "x"
        assert await store.game_version(game_id) == 1  # the repeat moved nothing
    finally:
        await store.close()


async def test_a_unit_refused_halfway_leaves_its_connection_fit_for_the_next(pg_url: str) -> None:
    # One connection for every read and commit: a unit refused by its guard or by a
    # constraint, as one statement or as a script, leaves no transaction open behind it
    # (the next commit on the connection would fail, or silently join the dead one).
    store = await PgStore.open(pg_url, pool_size=1)
    try:
        game_id = await _game(store)
        script_tail = Statement("INSERT INTO bot_meta (key, value, updated_at) VALUES (?,?,?)"
                                " ON CONFLICT (key) DO UPDATE SET value = excluded.value", ("k", "v", "now"))
        version = 0
        for n, shape in enumerate(("statement", "script") * 2):
            extra = (script_tail,) if shape == "script" else ()
            stale = Queued(*_order_unit(game_id, version + 7, f"stale{n}", "x").statements(), *extra)
            assert (unit_statement(stale.statements()) is None) == (shape == "script")
            with pytest.raises(Conflict):
                await store.commit_unit(stale)  # type: ignore[arg-type]
            fresh = Queued(*_order_unit(game_id, version, f"ok{n}", "x").statements(), *extra)
            await store.commit_unit(fresh)  # type: ignore[arg-type]
            version += 1
            repeat = Queued(*_order_unit(game_id, version, f"ok{n}", "y").statements(), *extra)
            with pytest.raises(StoreIntegrityError):
                await store.commit_unit(repeat)  # type: ignore[arg-type]
            assert await store.game_version(game_id) == version
        assert [await store.answered(f"stale{n}") for n in range(4)] == [None] * 4
        assert [await store.answered(f"ok{n}") for n in range(4)] == ["x"] * 4
    finally:
        await store.close()
