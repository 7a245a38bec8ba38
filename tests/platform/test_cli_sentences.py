"""The command line answers in sentences (issue 45): ``referee replay`` and the verifier on
malformed exports of every kind, ``referee health`` on a stored record changed by one byte,
the console refusing a damaged database, a read-only database named as such, and the other
subcommands on files that are not what they expect."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import gzip
import io
import json
import sqlite3
import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest

from bot import cli
from tests.platform.test_operator import Channel, health, played
from tests.platform.test_verify_dice import game  # noqa: F401 - the finished game, played once a module
from tools import verify_dice


@pytest.fixture
def store_url(tmp_path: Path) -> Path:
    return tmp_path / "referee.sqlite3"


def referee(*argv: str) -> tuple[int, str]:
    """``referee ARGV`` in this process (the test-only duel system is registered here):
    ``(exit code, everything it printed)``.  An exception escaping ``main`` fails the test:
    that is the traceback a user would have read."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            code = cli.main(list(argv))
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 2
            out.write(str(exc.code))
    return code, out.getvalue()


def edit(change: Callable[[dict[str, Any]], Any]) -> Callable[[dict[str, Any]], bytes]:
    def made(document: dict[str, Any]) -> bytes:
        forged = copy.deepcopy(document)
        change(forged)
        return json.dumps(forged).encode()
    return made


def gz(document: dict[str, Any]) -> bytes:
    return gzip.compress(json.dumps(document).encode())


#: Malformed exports, each made from the real final export.
MALFORMED: dict[str, Callable[[dict[str, Any]], bytes]] = {
    "empty": lambda d: b"",
    "not json": lambda d: b"{nope",
    "binary": lambda d: bytes(range(256)),
    "latin-1 text": lambda d: "{\"système\": 1}".encode("latin-1"),
    "bad gzip": lambda d: b"\x1f\x8b" + b"\x00" * 40,
    "truncated gzip": lambda d: gz(d)[: len(gz(d)) // 2],
    "truncated json": lambda d: json.dumps(d).encode()[:5000],
    "gzipped garbage": lambda d: gzip.compress(b"\xff\xfe not json"),
    "a list": lambda d: b"[1, 2]",
    "a number": lambda d: b"42",
    "deep": lambda d: b"[" * 100_000 + b"]" * 100_000,
    "another format": edit(lambda d: d.update(format="referee-log/9")),
    "no format": edit(lambda d: d.pop("format")),
    "no steps": edit(lambda d: d.pop("steps")),
    "no system": edit(lambda d: d.pop("system")),
    "no scenario": edit(lambda d: d.pop("scenario")),
    "steps empty": edit(lambda d: d.update(steps=[])),
    "steps a dict": edit(lambda d: d.update(steps={"0": 1})),
    "a step a number": edit(lambda d: d["steps"].__setitem__(1, 7)),
    "seq a string": edit(lambda d: d["steps"][2].update(seq="2")),
    "seq missing": edit(lambda d: d["steps"][2].pop("seq")),
    "dice a string": edit(lambda d: d["steps"][3].update(dice="six")),
    "a roll a list": edit(lambda d: next(s for s in d["steps"] if s["dice"]).update(dice=[[1, 6]])),
    "a roll without sides": edit(lambda d: next(s for s in d["steps"] if s["dice"])["dice"][0].pop("sides")),
    "state a list": edit(lambda d: d["steps"][3].update(state=[1, 2])),
    "state of another shape": edit(lambda d: d["steps"][3].update(state={"turn": 7, "scores": "x"})),
    "action a string": edit(lambda d: d["steps"][3].update(action="roll")),
    "action unknown": edit(lambda d: d["steps"][3].update(action={"name": "fly", "options": {}})),
    "options a list": edit(lambda d: d.update(options=[1])),
    "system unknown": edit(lambda d: d.update(system="chess")),
    "system a number": edit(lambda d: d.update(system=5)),
    "scenario text a number": edit(lambda d: d.update(scenario_text=5)),
    "scenario text garbage": edit(lambda d: d.update(scenario_text="{{{{", scenario_sha256=None)),
    "sealed a string": edit(lambda d: d["steps"][2].update(sealed="yes")),
    "parent missing": edit(lambda d: d["steps"][3].update(parent_seq=999)),
    "events a string": edit(lambda d: d["steps"][3].update(events="boom")),
    "audit a string": edit(lambda d: d.update(audit="none")),
    "seed a number": edit(lambda d: d.update(seed=12)),
}


def test_there_are_many_kinds_of_malformed_file() -> None:
    assert len(MALFORMED) >= 35


@pytest.mark.parametrize("how", MALFORMED)
async def test_replay_and_the_verifier_answer_every_malformed_export_in_a_sentence(
        game, tmp_path: Path, how: str) -> None:  # noqa: F811 - the module's fixture
    """Issue 45: `referee replay` printed a traceback for 8 of 22 malformed exports.  Each
    of these gets a sentence (exit 2: not an export; 1: an export that does not replay)."""
    path = tmp_path / "export.json.gz"
    path.write_bytes(MALFORMED[how](game[0]))
    code, out = await asyncio.to_thread(referee, "replay", str(path))
    assert code in (1, 2), out
    assert out.strip() and "Traceback" not in out, out
    if code == 2:
        assert "export" in out or "JSON" in out, out
    said = io.StringIO()
    with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
        checked = verify_dice.main([str(path)])
    assert checked in (1, 2) and "Traceback" not in said.getvalue(), said.getvalue()


async def test_the_honest_export_still_replays(game, tmp_path: Path) -> None:  # noqa: F811
    path = tmp_path / "export.json.gz"
    path.write_bytes(gz(game[0]))
    code, out = await asyncio.to_thread(referee, "replay", str(path))
    assert code == 0 and "reproduced exactly" in out, out


async def test_health_finds_one_byte_changed_in_a_stored_state_and_the_console_will_not_start(
        tmp_path: Path) -> None:
    """Issue 45: one changed byte in a stored state passed SQLite's integrity check and
    `referee health`.  Now health names the step whose content no longer gives its hash, and
    the console refuses to start on that database, saying what to run."""
    channel = await played(tmp_path)
    code, said = await health(channel.db)
    assert code == 0 and "every record matches its hash chain" in said, said
    with sqlite3.connect(channel.db) as conn:
        state = conn.execute("SELECT state_json FROM step_log WHERE seq = 1").fetchone()[0]
        at = state.index('"red":') + len('"red":')  # red's score after its roll
        changed = state[:at] + ("9" if state[at] != "9" else "8") + state[at + 1:]
        assert len(changed) == len(state) and changed != state
        conn.execute("UPDATE step_log SET state_json = ? WHERE seq = 1", (changed,))
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    code, said = await health(channel.db)
    assert code == 1 and "step #1: its stored content does not match its hash" in said, said
    console = await asyncio.to_thread(referee, "console", "--db", str(channel.db), "--script", "/dev/null")
    assert console[0] == 1 and "The console will not start on it" in console[1], console
    assert "referee restore" in console[1] and "referee health" in console[1], console


def immutable(path: Path) -> Callable[[], None] | None:
    """Make ``path`` read-only as the operator's mistake would (``chattr +i`` for root, to
    whom permissions are no bar; ``chmod`` otherwise); the undo, or None where neither works."""
    if subprocess.run(["id", "-u"], capture_output=True, text=True).stdout.strip() != "0":
        mode = path.stat().st_mode
        path.chmod(0o555)
        return lambda: path.chmod(mode)
    try:
        done = subprocess.run(["chattr", "+i", str(path)], capture_output=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None

    def undo() -> None:
        subprocess.run(["chattr", "-i", str(path)], timeout=30, check=True)
    return undo


async def test_a_read_only_database_is_named_so_not_as_credentials(tmp_path: Path) -> None:
    """Issue 45: a database in a folder the bot cannot write (SQLite cannot make its -wal
    file) was said as "check the path … and its credentials"."""
    folder = tmp_path / "data"
    folder.mkdir()
    channel = Channel(folder)
    await channel.start()
    await channel.say("alice", "/game new system:duel options:target=30")
    await channel.stop()
    for extra in folder.glob("referee.sqlite3-*"):
        extra.unlink()
    undo = immutable(folder)
    if undo is None:
        pytest.skip("no way to make a folder read-only here (chattr)")
    try:
        for argv in (["health", "--db", str(channel.db)],
                     ["console", "--db", str(channel.db), "--script", "/dev/null"]):
            code, said = await asyncio.to_thread(referee, *argv)
            assert code == 1 and "is read-only to the bot" in said and "credentials" not in said, said
    finally:
        undo()


@pytest.mark.parametrize("argv", [
    ["restore", "--from", "{garbage}", "--db", "{db}"],
    ["health", "--db", "{garbage}"],
    ["export-html", "1", "--db", "{garbage}", "--out", "{tmp}"],
    ["export-html", "99", "--db", "{db}", "--out", "{tmp}"],
    ["console", "--db", "{garbage}", "--script", "/dev/null"],
    ["replay", "{tmp}/none.json.gz"],
    ["replay", "{tmp}"],
])
async def test_other_subcommands_answer_files_that_are_not_theirs_in_a_sentence(
        tmp_path: Path, argv: list[str]) -> None:
    garbage = tmp_path / "garbage.sqlite3"
    garbage.write_bytes(b"this is not a SQLite database, nor a backup of one" * 40)
    channel = await played(tmp_path)
    values = {"garbage": str(garbage), "db": str(channel.db), "tmp": str(tmp_path)}
    code, said = await asyncio.to_thread(referee, *[a.format(**values) for a in argv])
    assert code != 0 and said.strip() and "Traceback" not in said, said
