"""Durability at commit (issue 29, point 4): an acknowledged command is on the disk, not
only in the operating system's cache.  ``synchronous=OFF`` (or ``NORMAL``, which in WAL mode
syncs only at checkpoints) passes every kill test, since a killed process leaves the cache
to the kernel; only a power cut loses it.  So two checks: the pragmas of both connections,
and the file layer itself: the console plays a transcript under ``strace``, and every reply
it prints must come after an ``fsync``/``fdatasync`` made since the reply before."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bot.store import Store

ROOT = Path(__file__).resolve().parents[2]


async def test_both_connections_sync_at_every_commit(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "d.sqlite3")
    try:
        def writer_pragmas() -> tuple[int, str]:
            conn = store._writer._connection()
            return (conn.execute("PRAGMA synchronous").fetchone()[0],
                    conn.execute("PRAGMA journal_mode").fetchone()[0])
        sync, journal = await store._writer.call(writer_pragmas)
        assert (sync, journal) == (2, "wal")  # FULL: the WAL is synced at each commit
        assert (await store._fetchall("PRAGMA synchronous"))[0][0] == 2
    finally:
        await store.close()


ACK = re.compile(r'^(\d+) +write\(1, ".*(takes nato|leaves nato)')
SYNC = re.compile(r"^(\d+) +f(data)?sync\(\d+\) += 0")


def test_every_acknowledged_command_follows_an_fsync(tmp_path: Path) -> None:
    if shutil.which("strace") is None:
        pytest.skip("strace is not installed")
    lines = ["@alice /game new system:rr"]
    for _ in range(8):
        lines += ["@alice /game join side:nato", "@alice /game leave"]
    (tmp_path / "t.txt").write_text("\n".join(lines) + "\n", "utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
    done = subprocess.run(
        ["strace", "-f", "-qq", "-s", "80", "-e", "trace=fsync,fdatasync,write", "-o",
         str(tmp_path / "trace.txt"), sys.executable, "-m", "bot", "console", "--db",
         str(tmp_path / "d.sqlite3"), "--snapshots", str(tmp_path / "s"), "--script",
         str(tmp_path / "t.txt")],
        env=env, capture_output=True, text=True, timeout=300, cwd=tmp_path)
    if done.returncode != 0 and "ptrace" in done.stderr:
        pytest.skip(f"strace may not trace here: {done.stderr[:200]}")
    assert done.returncode == 0, done.stderr[-2000:]
    acks, synced, unsynced = 0, False, []
    for line in (tmp_path / "trace.txt").read_text("utf-8", errors="replace").splitlines():
        if SYNC.match(line):
            synced = True
        elif ACK.match(line):
            acks += 1
            if not synced:
                unsynced.append(line[:120])
            synced = False
    assert acks == 16, (acks, done.stdout[-1500:])
    assert not unsynced, f"{len(unsynced)} of {acks} replies printed with no sync since the last: {unsynced[:3]}"
