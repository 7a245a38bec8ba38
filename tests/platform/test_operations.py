"""What an admin meets before the first game (issue 26): ``--version``, settings read from the
environment and ``.env`` with bad values said in one sentence naming the variable, one log
handler printing each line once, and ``referee health`` reading the bot's gateway heartbeat."""

from __future__ import annotations

import io
import logging
import os
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from bot import VERSION
from bot.cli import main
from bot.config import Settings, load_settings
from bot.discord.client import TOKEN_REFUSED
from bot.heartbeat import (Heartbeat, ShardBeat, beat_forever, heartbeat_problem,
                           write_heartbeat)
from bot.logsetup import PLAIN_FORMAT, setup_logging

ROOT = Path(__file__).resolve().parents[2]


def test_version_is_the_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"referee {VERSION}"
    pyproject = (ROOT / "pyproject.toml").read_text("utf-8")
    assert 'version = { attr = "bot.VERSION" }' in pyproject  # one place to bump


@pytest.mark.parametrize(("name", "value", "said"), [
    ("REFEREE_GUILD_IDS", "123,abc", "REFEREE_GUILD_IDS is '123,abc': server ids are whole "
                                     "numbers separated by commas (such as 123,456), not 'abc'."),
    ("REFEREE_LOG_LEVEL", "LOUD", "REFEREE_LOG_LEVEL is 'LOUD': it should be 'DEBUG', 'INFO', "
                                  "'WARNING' or 'ERROR'."),
    ("REFEREE_MAX_OPEN_GAMES", "0", "REFEREE_MAX_OPEN_GAMES is '0': it should be greater than "
                                    "or equal to 1."),
    ("REFEREE_SHARDS", "0-3", "REFEREE_SHARDS needs REFEREE_SHARD_COUNT (the total) too."),
])
def test_a_bad_setting_is_one_sentence_naming_the_variable(
        monkeypatch: pytest.MonkeyPatch, name: str, value: str, said: str) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(SystemExit) as done:
        load_settings()
    message = str(done.value.code)
    assert message == f"referee: bad setting: {said}"
    assert "\n" not in message and "guild_ids" not in message and "pydantic" not in message


def test_settings_read_dot_env_and_the_environment_wins(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".env").write_text("REFEREE_DB=postgresql://bot:pw@db/referee\n"
                                   "REFEREE_MAX_OPEN_GAMES=5\nDISCORD_TOKEN=from-file\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("REFEREE_DB", raising=False)
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setenv("REFEREE_MAX_OPEN_GAMES", "7")
    settings = Settings()
    assert settings.db == "postgresql://bot:pw@db/referee"
    assert settings.max_open_games == 7
    assert settings.discord_token is not None
    assert settings.discord_token.get_secret_value() == "from-file"


def test_one_handler_each_line_once_plain_off_a_terminal() -> None:
    root = logging.getLogger()
    before = list(root.handlers), root.level
    out = io.StringIO()
    try:
        setup_logging("INFO", out)
        setup_logging("INFO", out)  # a second call replaces, never adds
        logging.getLogger("referee.test").info("one line")
        logging.getLogger("discord.gateway").warning("and another")
    finally:
        for handler in [h for h in root.handlers if h not in before[0]]:
            root.removeHandler(handler)
        root.setLevel(before[1])
    lines = out.getvalue().splitlines()
    assert len(lines) == 2 and lines[0].endswith("INFO referee.test: one line")
    assert "\x1b[" not in out.getvalue()
    assert PLAIN_FORMAT.startswith("%(asctime)s")


def test_the_bot_logs_through_one_handler_and_a_refused_token_is_a_sentence(tmp_path: Path) -> None:
    """``referee bot`` with a token Discord refuses, in a process of its own, stderr a pipe:
    plain lines, none printed twice, and the end is one sentence, not a traceback.  (A real
    database file: the store is opened before the login, tests/discord/test_discord_startup.py.)"""
    env = {**os.environ, "DISCORD_TOKEN": "not-a-token", "REFEREE_DB": str(tmp_path / "r.sqlite3"),
           "REFEREE_SNAPSHOT_DIR": str(tmp_path / "snaps"), "PYTHONPATH": str(ROOT)}
    code = ("import discord, sys\n"
            "from bot.cli import main\n"
            "async def refuse(self, token):\n"
            "    import logging; logging.getLogger('discord.client').info('logging in')\n"
            "    raise discord.LoginFailure('Improper token has been passed.')\n"
            "discord.Client.login = refuse\n"
            "sys.exit(main(['bot']))\n")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    assert done.returncode == 1
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert lines[-1] == TOKEN_REFUSED
    assert "Traceback" not in done.stderr and "\x1b[" not in done.stderr
    assert len(lines) == len(set(lines)), done.stderr
    assert any(line.endswith("INFO discord.client: logging in") for line in lines)


def _beat(at: datetime, *connected: bool) -> Heartbeat:
    shards = [ShardBeat(shard_id=i, connected=c, latency=0.05) for i, c in enumerate(connected)]
    return Heartbeat(at=at, pid=1, ready=True, shards=shards)


def test_health_reads_the_gateway_heartbeat(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    beat = tmp_path / "heartbeat.json"
    now = datetime.now(timezone.utc)
    monkeypatch.setenv("REFEREE_DB", str(tmp_path / "referee.sqlite3"))
    assert main(["health"]) == 0
    assert "the gateway is not checked" in capsys.readouterr().out
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not a database " * 512)
    monkeypatch.setenv("REFEREE_DB", str(junk))
    assert main(["health"]) == 1
    said = capsys.readouterr().err
    assert said.startswith("unhealthy: ") and "junk.sqlite3" in said and "Traceback" not in said
    # With the heartbeat the check reads the file only (side-effect free).
    monkeypatch.setenv("REFEREE_HEARTBEAT", str(beat))
    assert main(["health"]) == 1
    assert "no heartbeat" in capsys.readouterr().err
    write_heartbeat(beat, _beat(now, True, True))
    assert main(["health"]) == 0
    assert "connected to the Discord gateway" in capsys.readouterr().out
    write_heartbeat(beat, _beat(now, True, False))
    assert main(["health"]) == 1
    assert "shard(s) 1 not connected" in capsys.readouterr().err
    write_heartbeat(beat, _beat(now - timedelta(minutes=5), True))
    assert "hung or stopped" in (heartbeat_problem(beat, now) or "")
    write_heartbeat(beat, _beat(now, True).model_copy(update={"database": False}))
    assert "database did not answer" in (heartbeat_problem(beat, now) or "")


async def test_the_bot_beats_while_running_and_removes_the_file_when_stopped(
        tmp_path: Path) -> None:
    """:func:`beat_forever` on a stand-in for the client (the shards' state is discord.py's)."""
    import asyncio

    class Shard:
        latency = 0.04

        def is_closed(self) -> bool:
            return False

    class Client:
        shards = {0: Shard(), 1: Shard()}

        def is_ready(self) -> bool:
            return True

    async def read() -> str:
        return "ok"

    beat = tmp_path / "hb" / "heartbeat.json"
    task = asyncio.create_task(beat_forever(Client(), beat, read, interval=0.01))
    for _ in range(200):
        await asyncio.sleep(0.01)
        if beat.exists():
            break
    assert heartbeat_problem(beat, datetime.now(timezone.utc)) is None
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert not beat.exists()
