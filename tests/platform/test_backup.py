"""``referee backup`` / ``referee restore`` (issue 26): an online copy of the SQLite
database while the bot keeps writing, and a restore that brings the games back as they
were at the backup."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.backup import BackupError, backup, restore
from bot.cli import main
from bot.config import Settings
from bot.service import Service
from tests.platform.conftest import Table


async def _state(table: Table) -> tuple[int, str]:
    game = await table.service.games.load(table.channel)
    assert game is not None
    return game.row.head_seq, game.state.model_dump_json()


async def test_backup_while_the_bot_writes_then_restore_brings_that_game_back(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db, copy = tmp_path / "live" / "referee.sqlite3", tmp_path / "backups" / "b.sqlite3"
    settings = Settings(db=db, snapshot_dir=tmp_path / "snaps")
    svc = await Service.open(settings)
    table = Table(svc)
    try:
        await table("alice", "/game new system:duel")
        await table("alice", "/game join side:red")
        await table("bob", "/game join side:blue")
        await table("alice", "/duel roll")
        at_backup = await _state(table)
        # The service is open (WAL, a writer thread): the copy is taken online.
        assert main(["backup", "--db", str(db), "--to", str(copy)]) == 0
        assert "1 game(s)" in capsys.readouterr().out
        await table("bob", "/duel roll")
        later = await _state(table)
        assert later[0] == at_backup[0] + 1
    finally:
        await svc.close()
    # The copy is one self-contained file, not a WAL database needing its -wal.
    assert not copy.with_name(copy.name + "-wal").exists()
    assert sqlite3.connect(copy).execute("PRAGMA journal_mode").fetchone()[0] == "delete"

    assert main(["restore", "--db", str(db), "--from", str(copy)]) == 0
    said = capsys.readouterr().out
    kept = db.with_name("referee.before-restore.sqlite3")
    assert f"kept as {kept}" in said and kept.exists()
    svc = await Service.open(settings)
    try:
        assert await _state(Table(svc)) == at_backup
    finally:
        await svc.close()
    # The database the restore replaced still holds the later step.
    svc = await Service.open(settings.model_copy(update={"db": kept}))
    try:
        assert await _state(Table(svc)) == later
    finally:
        await svc.close()


async def test_backup_refuses_what_it_cannot_copy(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "none.sqlite3"
    assert main(["backup", "--db", str(missing), "--to", str(tmp_path / "b.sqlite3")]) == 1
    assert f"There is no database {missing}" in capsys.readouterr().err
    assert not missing.exists()  # never created by the attempt
    assert main(["backup", "--db", "postgresql://u@h/db", "--to", str(tmp_path / "b")]) == 1
    assert "pg_dump" in capsys.readouterr().err
    other = tmp_path / "other.sqlite3"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.close()
    with pytest.raises(BackupError, match="not a Referee one"):
        backup(other, tmp_path / "b.sqlite3")
    assert [p.name for p in tmp_path.iterdir()] == ["other.sqlite3"]  # no half-made backup
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not a database at all" * 100)
    with pytest.raises(BackupError, match="not a SQLite database"):
        restore(junk, tmp_path / "referee.sqlite3")
    assert not (tmp_path / "referee.sqlite3").exists()
