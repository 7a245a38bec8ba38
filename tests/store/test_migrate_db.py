"""``referee migrate-db --from FILE --to URL`` (issue 20): a played SQLite database moves to
PostgreSQL whole (every row of every table), and the game goes on there."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.autoplay import Channel, pick_system
from bot.cli import main
from bot.config import Settings
from bot.logcheck import check_log, table_rows
from bot.service import Service


async def play(db: Path | str, orders: int, *, rollback: bool = False) -> Channel:
    """Open (or continue) a game in channel ``m`` and play ``orders`` legal orders."""
    service = await Service.open(Settings(db=db))
    try:
        key, _ = pick_system()
        table = Channel(service, key, "m", rng=random.Random(3))
        if await service.games.load("m") is None:
            await table.open()
        for _ in range(orders):
            _, reply = await table.order()
            assert not reply.error, reply.text
        if rollback:
            reply = await table.send(table.invocation(table.moderator, ["mod", "rollback"],
                                                      {"to": 2, "reason": "test"}, moderator=True))
            assert not reply.error, reply.text
        return table
    finally:
        await service.close()


def test_migrate_db_copies_every_row_and_the_game_goes_on(
        tmp_path: Path, pg_url: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    source = tmp_path / "old.sqlite3"
    asyncio.run(play(source, 12, rollback=True))
    asyncio.run(play(source, 3))  # a branch after the rollback
    assert main(["migrate-db", "--from", str(source), "--to", pg_url]) == 0
    assert "copied" in capsys.readouterr().out
    before, after = table_rows(source), table_rows(pg_url)
    for table in ("games", "step_log", "step_reverts", "audit", "seats", "seat_events",
                  "interactions", "bot_meta", "owed_announcements"):
        assert after[table] == before[table], table
    assert check_log(pg_url, linear=False) == []
    asyncio.run(play(pg_url, 5))  # ids and step numbers carry on where SQLite stopped
    assert check_log(pg_url, linear=False) == []
    # A second run would double the store: refused, nothing changed.  The target comes from
    # REFEREE_DB this time (issue 26: every database command reads it).
    monkeypatch.setenv("REFEREE_DB", pg_url)
    with pytest.raises(SystemExit, match="already holds games"):
        main(["migrate-db", "--from", str(source)])
    # export-html reads the game from PostgreSQL (it took a file path only, issue 26).
    assert main(["export-html", "1", "--out", str(tmp_path)]) == 0
    [page] = tmp_path.glob("*.html")
    assert "<!doctype html>" in page.read_text("utf-8")[:40]


def test_migrate_db_says_which_end_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFEREE_DB", "postgresql://u@h/db")
    with pytest.raises(SystemExit, match="needs the SQLite file"):
        main(["migrate-db"])
    monkeypatch.setenv("REFEREE_DB", "/data/referee.sqlite3")
    with pytest.raises(SystemExit, match="needs the PostgreSQL database"):
        main(["migrate-db"])
    with pytest.raises(SystemExit, match="takes a postgresql:// URL"):
        main(["migrate-db", "--to", "/tmp/x.sqlite3"])
