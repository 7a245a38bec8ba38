"""``referee bot`` opens its database before it logs in to Discord (issue 23 review).

It used to log in first and open the store in ``setup_hook``: an operator whose database is
refused (a newer release upgraded it, ``bot/schema.py``; a path that cannot be opened)
learned it only after a login to Discord, with the gateway half set up.  Now the store is
opened and checked first; a refusal is the operator's one sentence, exit code 1, no
traceback, and Discord is never contacted.  No network: the login and HTTP routes of
discord.py are replaced by recorders that fail the test if they are reached.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import discord
import discord.http
import pytest

from bot.cli import main
from bot.config import Settings
from bot.discord.client import RefereeClient, run_bot, run_client
from bot.service import Service
from tests.store.test_newer_schema import ROOT, newer_sqlite, said


@pytest.fixture
def contacted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What reached Discord: the client's login and the HTTP client's static login."""
    reached: list[str] = []

    async def login(self: Any, token: str) -> None:
        reached.append("login")
        raise AssertionError("logged in to Discord")

    async def static_login(self: Any, token: str) -> Any:
        reached.append("http")
        raise AssertionError("called Discord's HTTP API")

    monkeypatch.setattr(discord.Client, "login", login)
    monkeypatch.setattr(discord.http.HTTPClient, "static_login", static_login)
    return reached


def referee_bot(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, db: Path) -> int:
    """``referee bot`` with a token and ``db``, in a folder of its own (no ``.env``)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "a-token")
    monkeypatch.setenv("REFEREE_DB", str(db))
    monkeypatch.setenv("REFEREE_SNAPSHOT_DIR", str(tmp_path / "snaps"))
    return main(["bot"])


def test_a_database_of_a_newer_release_is_refused_before_any_login(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        contacted: list[str]) -> None:
    db = tmp_path / "referee.sqlite3"
    asyncio.run(newer_sqlite(db))
    assert referee_bot(monkeypatch, tmp_path, db) == 1
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.strip()]
    assert said(lines[-1]) and "Traceback" not in err, err
    assert contacted == []


def test_a_database_path_that_cannot_be_opened_is_refused_before_any_login(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        contacted: list[str]) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the database's folder should be")
    db = blocker / "referee.sqlite3"
    assert referee_bot(monkeypatch, tmp_path, db) == 1
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.strip()]
    assert lines[-1].startswith("Database trouble: ") and str(db) in lines[-1], err
    assert "Traceback" not in err
    assert contacted == []


def test_the_process_exits_after_saying_it(tmp_path: Path) -> None:
    """In a process of its own, as an operator runs it: a store that failed half-way open
    (``:memory:``: its writer and reader connect, its read-only version connection cannot)
    used to leave the reader's thread running, and ``referee bot`` hung after its sentence.
    Discord's login is replaced by one that fails the run if reached."""
    code = ("import discord, sys\n"
            "from bot.cli import main\n"
            "async def login(self, token):\n"
            "    raise RuntimeError('logged in to Discord with a database that cannot be used')\n"
            "discord.Client.login = login\n"
            "sys.exit(main(['bot']))\n")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(ROOT),
           "DISCORD_TOKEN": "a-token", "REFEREE_DB": ":memory:",
           "REFEREE_SNAPSHOT_DIR": str(tmp_path / "snaps")}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          timeout=60, cwd=tmp_path, stdin=subprocess.DEVNULL)
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode == 1, done.stderr
    assert lines[-1].startswith("Database trouble: :memory: cannot be opened"), done.stderr
    assert "Traceback" not in done.stderr


async def test_the_store_is_opened_before_the_login_and_closed_after_a_refused_token(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A good database and a token Discord refuses: the store was opened first (the login
    found the service ready) and is closed on the way out, cleanly."""
    settings = Settings(db=tmp_path / "referee.sqlite3", snapshot_dir=tmp_path / "snaps",
                        DISCORD_TOKEN="a-token")
    client = RefereeClient(settings)
    found: list[Any] = []

    async def login(self: Any, token: str) -> None:
        found.append(self.service)
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr(discord.Client, "login", login)
    with pytest.raises(discord.LoginFailure):
        await run_client(client, "a-token")
    assert len(found) == 1 and isinstance(found[0], Service)
    assert client.service is None  # closed by close()
    with pytest.raises(SystemExit) as refused:
        await asyncio.to_thread(run_bot, settings)
    assert "Discord refused DISCORD_TOKEN" in str(refused.value)
