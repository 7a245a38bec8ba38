"""``tools/verify_dice.py`` as an auditor runs it (issue 14, item 7): a real game's final
export checks out; the same export tampered in each way listed in the issue is rejected;
malformed input gets a sentence and exit code 2, never a traceback."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import gzip
import io
import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any, Callable

import pytest

from bot.config import Settings
from bot.service import Service
from tests.platform.conftest import Table
from tools import verify_dice


@pytest.fixture
def store_url(tmp_path: Path) -> Path:
    """SQLite only (the dice check reads an export, not the store)."""
    return tmp_path / "referee.sqlite3"


ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "verify_dice.py"


async def finished_game(table: Table) -> tuple[dict[str, Any], str, int]:
    """A duel with rolls, two rerolls (the last at the very end) and a rollback, ended by a
    moderator: ``(export, posted seed hash, announced roll count)``."""
    new = await table("alice", "/game new system:duel")
    posted = re.search(r"`([0-9a-f]{64})`", new.text)
    assert posted
    await table("alice", "/game join side:red")
    await table("bob", "/game join side:blue")
    for user, line in [("alice", "/duel roll"), ("bob", "/duel roll"), ("mod", "/mod reroll reason:r1"),
                       ("alice", "/duel wait"), ("bob", "/duel stance mode:bold"), ("bob", "/duel wait"),
                       ("mod", "/mod rollback to:5 reason:back"), ("bob", "/duel wait"),
                       ("alice", "/duel roll"), ("mod", "/mod reroll reason:r2")]:
        reply = await table(user, line, moderator=user == "mod")
        assert not reply.error, (line, reply.text)
    end = await table("mod", "/game end", moderator=True)
    assert not end.error, end.text
    announced = re.search(r"Rolls made: (\d+)", end.text)
    assert announced
    data = end.attachments[0].data
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return json.loads(data), posted.group(1), int(announced.group(1))


def run(tmp_path: Path, document: Any, *args: str, raw: bytes | None = None) -> tuple[int, str]:
    """The tool's ``main`` in this process, where the test-only ``duel`` system is
    registered for the replay: ``(exit code, everything it printed)``."""
    path = tmp_path / "export.json"
    path.write_bytes(raw if raw is not None else json.dumps(document).encode())
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = verify_dice.main([str(path), *args])
    return code, out.getvalue()


def run_process(tmp_path: Path, raw: bytes) -> subprocess.CompletedProcess[str]:
    """The tool as an auditor starts it, in a process of its own."""
    path = tmp_path / "export.json"
    path.write_bytes(raw)
    return subprocess.run([sys.executable, str(TOOL), str(path)], capture_output=True,
                          text=True, timeout=120, cwd=tmp_path)


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], str, int]:
    """One finished game for the whole module (every test reads it, the tamperings work on
    deep copies): played once, not once per test."""
    folder = tmp_path_factory.mktemp("verify-dice")

    async def play() -> tuple[dict[str, Any], str, int]:
        service = await Service.open(Settings(db=folder / "referee.sqlite3",
                                              snapshot_dir=folder / "snaps"))
        try:
            return await finished_game(Table(service))
        finally:
            await service.close()

    return asyncio.run(play())


async def test_a_true_export_checks_out(game, tmp_path: Path) -> None:
    document, posted, rolls = game
    code, out = run(tmp_path, document, "--seed-hash", posted, "--rolls", str(rolls))
    assert code == 0, out
    assert posted in out and "replays exactly" in out
    code, out = run(tmp_path, document)  # without the channel's values: shown to compare
    assert code == 0 and "compare it with the hash posted" in out and f"Rolls in the file: {rolls}" in out
    # In a process of its own the test-only duel system is not installed: it says so.
    alone = run_process(tmp_path, json.dumps(document).encode())
    assert alone.returncode == 0 and "was not replayed" in alone.stdout, alone.stdout


async def test_the_whole_hash_is_printed_and_compared(game, tmp_path: Path) -> None:
    """Issue 26, point 6: ``/game status`` shows the first 16 digits; given those (as copied,
    with the ellipsis) they match and the note says the whole hash is the stronger check;
    a wrong hash is shown whole beside the whole digest, never cut to look alike."""
    document, posted, rolls = game
    code, out = run(tmp_path, document, "--seed-hash", f"{posted[:16]}…", "--rolls", str(rolls))
    assert code == 0, out
    assert f"Seed hash in the file: {posted}" in out and "first 16 digits only" in out
    wrong = posted[:16] + ("0" if posted[16] != "0" else "1") + posted[17:]
    code, out = run(tmp_path, document, "--seed-hash", wrong)
    assert code == 1
    assert f"hashes to {posted}, not to the posted {wrong}" in out
    code, out = run(tmp_path, document, "--seed-hash", posted[:12])  # too short to vouch
    assert code == 1 and f"not to the posted {posted[:12]}" in out


async def test_run_with_a_python_lacking_the_rules(game, tmp_path: Path) -> None:
    """Issue 26, point 6: from the repository, with a Python without the project's packages
    (the system one; ``-S`` here), the dice still check, and the replay either runs under the
    project's ``.venv`` or the output says exactly how to get it."""
    document, posted, rolls = game
    path = tmp_path / "export.json"
    path.write_text(json.dumps(document))
    done = subprocess.run([sys.executable, "-S", str(TOOL), str(path), "--seed-hash", posted],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"all {rolls} rolls recompute" in done.stdout
    assert "not importable here" not in done.stdout
    if (ROOT / ".venv" / "bin" / "python").exists():
        assert "running with" in done.stdout
    else:
        assert "the Referee rules need pydantic" in done.stdout
        assert ".venv/bin/python tools/verify_dice.py" in done.stdout


def rolled(document: dict) -> list[dict]:
    return [s for s in document["steps"] if s["dice"]]


def reorder(d: dict) -> None:
    d["steps"][1], d["steps"][2] = d["steps"][2], d["steps"][1]


def reorder_renumbered(d: dict) -> None:
    a, b = rolled(d)[0], rolled(d)[1]
    a["seq"], b["seq"] = b["seq"], a["seq"]
    d["steps"].sort(key=lambda s: s["seq"])


def swap_dice(d: dict) -> None:
    a, b = rolled(d)[0], rolled(d)[1]
    a["dice"], b["dice"] = b["dice"], a["dice"]


def die_size(d: dict) -> None:
    roll = rolled(d)[0]["dice"][0]
    roll["sides"] = 8
    roll["value"] = verify_dice.roll_value(bytes.fromhex(d["seed"]), roll["index"], 8)


def truncate(d: dict) -> None:
    last = d["steps"].pop()  # the last reroll
    d["head_seq"] = last["parent_seq"] if last["parent_seq"] is not None else 0
    d["audit"] = [a for a in d["audit"] if a["action"] != "reroll" or a["data"]["step"] != last["rerolls"]]
    d["rolls"] = sum(len(s["dice"]) for s in d["steps"])


def drop_audit(d: dict) -> None:
    d["audit"] = []


def rewrite_event(d: dict) -> None:
    event = rolled(d)[0]["events"][0]
    event["text"] = event["text"].replace("🎲", "🎲 6 (really)")


def forge_seed(d: dict) -> None:
    seed = bytes(32)
    d["seed"], d["seed_hash"] = seed.hex(), hashlib.sha256(seed).hexdigest()
    for step in d["steps"]:
        for roll in step["dice"]:
            roll["value"] = verify_dice.roll_value(seed, roll["index"], roll["sides"])


def change_roll(d: dict) -> None:
    roll = rolled(d)[0]["dice"][0]
    roll["value"] = roll["value"] % roll["sides"] + 1


TAMPERINGS: dict[str, Callable[[dict], None]] = {
    "steps reordered": reorder, "steps reordered and renumbered": reorder_renumbered,
    "dice swapped between steps": swap_dice, "a die size changed": die_size,
    "the tail truncated": truncate, "the audit removed": drop_audit,
    "an event text rewritten": rewrite_event, "a forged seed, its hash and every roll": forge_seed,
    "a roll changed": change_roll,
}


#: What the tool says for each: the check that catches it.
CAUGHT_BY = {
    "steps reordered": "not #0, #1, #2", "steps reordered and renumbered": "where",
    "dice swapped between steps": "comes next", "a die size changed": "replay: ",
    "the tail truncated": "were announced at /game end", "the audit removed": "missing",
    "an event text rewritten": "the events differ", "a forged seed, its hash and every roll":
    "not to the posted", "a roll changed": "the seed gives",
}


@pytest.mark.parametrize("how", TAMPERINGS)
async def test_a_tampered_export_is_rejected(game, tmp_path: Path, how: str) -> None:
    document, posted, rolls = game
    forged = copy.deepcopy(document)
    TAMPERINGS[how](forged)
    assert forged != document
    code, out = run(tmp_path, forged, "--seed-hash", posted, "--rolls", str(rolls))
    assert code == 1, f"{how} passed:\n{out}"
    assert CAUGHT_BY[how] in out, out


MALFORMED: dict[str, bytes] = {
    "empty": b"",
    "not json": b"{nope",
    "a list": b"[1, 2]",
    "no steps": json.dumps({"format": "referee-log/1", "seed_hash": "x", "system": "duel"}).encode(),
    "binary": bytes(range(256)),
    "deep": b"[" * 100_000 + b"]" * 100_000,
}


def spoil(path: str, value: Any) -> Callable[[dict], None]:
    def edit(d: dict) -> None:
        target: Any = d
        keys = path.split(".")
        for key in keys[:-1]:
            target = target[int(key)] if isinstance(target, list) else target[key]
        last = keys[-1]
        if isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value
    return edit


SPOILT = {
    "die of zero sides": lambda d: rolled(d)[0]["dice"][0].update(sides=0),
    "a string for a value": lambda d: rolled(d)[0]["dice"][0].update(value="six"),
    "a seed that is not hex": spoil("seed", "zz"),
    "steps not a list": spoil("steps", {"0": 1}),
    "audit data a list": lambda d: d["audit"][0].update(data=[1]),
    "a step that is a number": spoil("steps.1", 7),
    "seq a float": spoil("steps.0.seq", 0.5),
}


@pytest.mark.parametrize("how", [*MALFORMED, *SPOILT])
async def test_bad_input_gets_a_sentence_and_exit_2(game, tmp_path: Path, how: str) -> None:
    document, posted, rolls = game
    if how in MALFORMED:
        raw = MALFORMED[how]
    else:
        forged = copy.deepcopy(document)
        SPOILT[how](forged)
        raw = json.dumps(forged).encode()
    done = run_process(tmp_path, raw)
    # Unreadable: 2.  Readable but impossible (a d0 die): a problem found, 1.
    assert done.returncode in ((2,) if how in MALFORMED else (1, 2)), done.stdout + done.stderr
    assert "Traceback" not in done.stderr and done.stdout.strip(), done.stdout + done.stderr


def test_a_missing_file_and_bad_arguments(tmp_path: Path) -> None:
    missing = subprocess.run([sys.executable, str(TOOL), str(tmp_path / "none.json")],
                             capture_output=True, text=True, timeout=60)
    assert missing.returncode == 2 and "Cannot read" in missing.stdout
    assert "Traceback" not in missing.stderr
    bad = subprocess.run([sys.executable, str(TOOL)], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "Traceback" not in bad.stderr
