"""The console front end: parsing, transcripts, snapshots written as files, the CLI."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.console import Console, ParseError, parse_line
from bot.service import Service


@pytest.fixture
def store_url(tmp_path: Path) -> Path:
    """SQLite only (the console's subject is the terminal, not the store)."""
    return tmp_path / "referee.sqlite3"


def test_parse_line_reads_user_path_and_quoted_options() -> None:
    assert parse_line('@alice /mod rollback to:3 reason:"mis click: 12"') == (
        "alice", ["mod", "rollback"], {"to": "3", "reason": "mis click: 12"}
    )
    assert parse_line("@bob") == ("bob", [], {})
    with pytest.raises(ParseError):
        parse_line("game status")
    with pytest.raises(ParseError):
        parse_line("/game status oops")


async def test_transcript_plays_and_writes_snapshots(service: Service, tmp_path: Path) -> None:
    out: list[str] = []
    console = Console(service, snapshot_dir=tmp_path / "snaps", write=out.append)
    refused = await console.run_script([
        "# a comment",
        "/game new system:duel",
        "@alice /game join side:red",
        "@bob /game join side:blue",
        "@alice",
        "/duel wait",
        "@bob /duel wait",
        "@bob /duel wait",
    ])
    assert refused == 1  # bob's second wait is out of turn
    text = "\n".join(out)
    assert "(now acting as @alice)" in text and "It is not your turn" in text
    assert console.snapshots and all(p.exists() and p.suffix == ".png" for p in console.snapshots)
    assert any("📎" in line for line in out)


def test_cli_help_lists_every_subcommand() -> None:
    done = subprocess.run([sys.executable, "-m", "bot.cli", "--help"], capture_output=True, text=True)
    assert done.returncode == 0
    for command in ("bot", "console", "render", "replay", "health"):
        assert command in done.stdout


def test_no_token_opens_the_console_with_a_hint(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "REFEREE_DB": str(tmp_path / "c.sqlite3"),
           "REFEREE_SNAPSHOT_DIR": str(tmp_path / "s"), "PYTHONPATH": str(Path.cwd())}
    done = subprocess.run([sys.executable, "-m", "bot.cli"], input="/game help\nquit\n",
                          capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "No DISCORD_TOKEN set" in done.stdout and "/game new" in done.stdout
    assert (tmp_path / "c.sqlite3").exists()


def test_health_checks_the_database(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "REFEREE_DB": str(tmp_path / "h.sqlite3"),
           "PYTHONPATH": str(Path.cwd())}
    done = subprocess.run([sys.executable, "-m", "bot.cli", "health"], env=env,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


async def test_console_clock_plays_a_deadline_through(tmp_path) -> None:
    """``referee console --clock``: /clock advance moves time; reminders and the deadline
    are printed as the bot posts them, timestamps written out in UTC (issue 19)."""
    from datetime import datetime, timezone

    from bot.config import Settings
    from bot.console import Console
    from bot.pacing.clock import ManualClock
    from bot.service import Service

    clock = ManualClock(datetime(2026, 11, 23, 12, tzinfo=timezone.utc))
    service = await Service.open(Settings(db=tmp_path / "c.sqlite3"), clock=clock)
    out: list[str] = []
    console = Console(service, moderator=True, snapshot_dir=tmp_path, write=out.append, clock=clock)
    try:
        refused = await console.run_script([
            "/game new system:duel", "@alice /game join side:red", "@bob /game join side:blue",
            "/game pace hours:24 then:pass", "/clock advance hours:12", "/clock advance hours:12",
            "/clock advance hours:x",
        ], echo=False)
    finally:
        await service.close()
    text = "\n".join(out)
    assert refused == 0
    assert "⏰ Deadline: Tue 24 Nov 2026 12:00 UTC (in 24 h)" in text
    assert "🕰️ Tue 24 Nov 2026 00:00 UTC" in text
    assert "📣 ⏰ @alice, Red is waited on:" in text
    assert "📣 ⌛ The deadline passed" in text and "Referee (red): wait" in text
    assert "⛔ /clock advance needs hours:" in text
    assert "<t:" not in text


async def test_moderator_flag_makes_only_the_named_users_moderators(tmp_path):
    # the play-test (issue 28): --moderator let every player of the console use /mod
    from bot.cli import moderators
    from bot.config import Settings
    from bot.console import Console
    from bot.service import Service

    assert moderators(None, "player") == set() and moderators("", "player") == {"player"}
    assert moderators("mo, @carol", "player") == {"mo", "carol"}
    service = await Service.open(Settings(db=tmp_path / "m.sqlite3"))
    out: list[str] = []
    console = Console(service, moderator=moderators("mo", "player"), snapshot_dir=tmp_path, write=out.append)
    try:
        await console.run_script([
            "@mo /game new system:mak", "@alice /game join side:merc", "@bob /game join side:strahl",
            "@alice /mod look side:strahl", "@mo /mod look side:strahl",
        ], echo=False)
    finally:
        await service.close()
    alice = next(line for line in out if line.startswith("(only @alice"))
    mo = next(line for line in out if line.startswith("(only @mo"))
    # The look is a record of the chain: the channel is told (issue 45).
    assert any(line.startswith("👁️ Moderator @mo looked at Strahl's own view at step #0.") for line in out), out
    # the refusal says how to moderate here, not which Discord role to ask for
    assert alice == ("(only @alice sees this) ⛔ Only moderators can use /mod look (start the console "
                     "with --moderator, or --moderator NAMES for those users).")
    assert mo.startswith("(only @mo sees this) 👁️ Strahl's own view at step #0")
