"""Crash: the console runs a transcript as a subprocess and is killed with SIGKILL at 22
random moments (4 in the README's test line, 18 more behind the ``slow`` marker).  After each kill the database opens, passes ``PRAGMA integrity_check``,
holds every step whose reply was printed (acknowledged) and nothing half-written, and the
game goes on: the next legal order is accepted.

The transcript is a real game played first in-process with scripted dice; the console gets
the same ``--dice``, so it replays exactly (a first, unkilled run checks that).
"""

from __future__ import annotations

import os
import random
import re
import shlex
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bot.autoplay import Channel
from bot.logcheck import check_log, integrity
from bot.config import Settings
from bot.console import CONSOLE_CHANNEL
from bot.models import Invocation
from bot.service import ScriptedDiceSource, Service
from tests.reliability.conftest import SYSTEM

ROOT = Path(__file__).resolve().parents[2]
ORDERS = 30
ACK = re.compile(r"^#(\d+) (\S+) \((\S+)\): ")


def console_line(inv: Invocation) -> str:
    """The console line that sends ``inv`` (``@user /group order key:value …``)."""
    parts = [f"@{inv.user_id}", "/" + inv.command[0], *inv.command[1:]]
    parts += [shlex.quote(f"{k}:{v}") for k, v in inv.options.items()]
    return " ".join(parts)


async def make_transcript(path: Path, dice: list[int]) -> list[str]:
    """Play ``ORDERS`` legal orders with scripted dice; return the lines that replay them."""
    service = await Service.open(Settings(db=path), dice_source=ScriptedDiceSource(dice))
    lines: list[str] = []
    try:
        channel = Channel(service, SYSTEM, CONSOLE_CHANNEL, rng=random.Random(11))
        original = channel.send

        async def record(inv: Invocation):  # type: ignore[no-untyped-def]
            lines.append(console_line(inv))
            return await original(inv)

        channel.send = record  # type: ignore[method-assign]
        await channel.open()
        for _ in range(ORDERS):
            inv = await channel.next_order()
            if inv is None:
                break
            reply = await channel.send(inv)
            assert not reply.error, reply.text
    finally:
        await service.close()
    return lines


def start_console(script: Path, db: Path, dice: list[int], snaps: Path) -> subprocess.Popen[str]:
    """The console on a transcript, unbuffered, so a printed reply is really printed."""
    return subprocess.Popen(
        [sys.executable, "-u", "-m", "bot.cli", "console", "--script", str(script), "--db", str(db),
         "--dice", ",".join(map(str, dice)), "--snapshots", str(snaps)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "REFEREE_LOG_LEVEL": "ERROR"},
    )


def run_and_kill(script: Path, db: Path, dice: list[int], snaps: Path, after: float | None) -> list[str]:
    """Run the console; SIGKILL it ``after`` seconds (None: let it finish).  Return every
    line it printed before it died."""
    proc = start_console(script, db, dice, snaps)
    out: list[str] = []
    assert proc.stdout is not None
    reader = threading.Thread(target=lambda: out.extend(proc.stdout), daemon=True)  # type: ignore[arg-type]
    reader.start()
    if after is None:
        proc.wait(timeout=120)
    else:
        time.sleep(after)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    reader.join(timeout=10)
    return [line.rstrip("\n") for line in out]


def acknowledged(lines: list[str]) -> list[tuple[int, str, str]]:
    """``(seq, user, side)`` of every order reply the console printed."""
    return [(int(m[1]), m[2], m[3]) for line in lines if (m := ACK.match(line))]


async def game_goes_on(db: Path) -> None:
    """Open the database as a fresh bot would and send the next legal order."""
    service = await Service.open(Settings(db=db))
    try:
        channel = Channel(service, SYSTEM, CONSOLE_CHANNEL, rng=random.Random(5))
        game = await service.games.load(CONSOLE_CHANNEL)
        if game is None:  # killed before /game new committed
            await channel.open()
        else:
            for side in game.system.sides:  # killed before every join committed
                if game.holder(side) is None:
                    reply = await channel.send(
                        channel.invocation(channel.user(side), ["game", "join"], {"side": side}))
                    assert not reply.error, reply.text
        _, reply = await channel.order()
        assert not reply.error, reply.text
    finally:
        await service.close()


@pytest.mark.parametrize(("seed", "kills"), [
    pytest.param(2024, 4, id="4-kills"),
    pytest.param(2025, 18, id="18-more-kills", marks=pytest.mark.slow),
])
async def test_sigkill_at_random_points_loses_nothing_acknowledged(
        tmp_path: Path, seed: int, kills: int) -> None:
    """See the module docstring."""
    rng = random.Random(seed)
    dice = [rng.randint(1, 6) for _ in range(3000)]
    script = tmp_path / "transcript.txt"
    script.write_text("\n".join(await make_transcript(tmp_path / "made.sqlite3", dice)) + "\n", "utf-8")

    start = time.perf_counter()
    full = run_and_kill(script, tmp_path / "full.sqlite3", dice, tmp_path / "snaps", None)
    runtime = time.perf_counter() - start
    assert not [line for line in full if line.startswith("⛔") or "⛔" in line], full
    assert len(acknowledged(full)) >= ORDERS // 2

    for kill in range(kills):
        db = tmp_path / f"kill-{kill}.sqlite3"
        after = rng.uniform(0.2, runtime)
        printed = acknowledged(run_and_kill(script, db, dice, tmp_path / "snaps", after))
        if not db.exists():
            continue  # killed before the database was created: nothing was acknowledged
        assert integrity(db) == "ok"
        with sqlite3.connect(db) as conn:
            tables = {r[0] for r in conn.execute(
                "SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")}
        first = {"games", "seats", "audit", "steps", "interactions"}  # migration 0001
        if not first & tables:  # killed while the first migration ran: none of it is there
            assert printed == []
            await game_goes_on(db)
            assert check_log(db) == [], kill
            continue
        assert first <= tables, f"kill {kill}: half a migration: {sorted(tables)}"
        second = {"step_log", "step_reverts"}  # migration 0002
        assert not second & tables or second <= tables, f"kill {kill}: half of 0002: {sorted(tables)}"
        if not second & tables:
            assert printed == []  # no order is taken before every migration is in
        with sqlite3.connect(db) as conn:
            steps = {seq: (actor, side, reverted) for seq, actor, side, reverted in conn.execute(
                "SELECT s.seq, s.actor_id, s.side, s.reverted_by FROM steps s JOIN games g"
                " ON g.id = s.game_id WHERE g.channel_id = ? AND g.status = 'active'", (CONSOLE_CHANNEL,))}
        for seq, user, side in printed:
            assert steps.get(seq) == (user, side, None), f"kill {kill} at {after:.2f}s lost #{seq}"
        # At most the one step whose reply was not printed yet may be stored beyond them.
        orders = [s for s in steps if s > 0]
        assert len(orders) - len(printed) in (0, 1), (kill, len(orders), len(printed))
        assert check_log(db) == [], kill
        await game_goes_on(db)
        assert check_log(db) == [], kill
