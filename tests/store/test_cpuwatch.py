"""The benchmark tells the database server's CPU from the bot's (``bench/cpuwatch.py``,
issue 23): a window in which the server works shows its CPU, and a window before it shows
none of it."""

from __future__ import annotations

import sys
import time

import pytest

from bench import cpuwatch
from bench.cpuwatch import CpuWatch
from bot.pgserver import PgServer
from bot.pgsync import run_sync


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_the_servers_work_shows_in_its_window_only(pg_server: PgServer,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # New server processes are looked for at every sample: this test's backend lives about a
    # second, where the bench's live through the whole run.
    monkeypatch.setattr(cpuwatch, "RESCAN", 0.0)
    # A server of its own (the session's, ``pg_server``, says whether one can run here): the
    # session's server may still be busy with an earlier test's leftovers (autovacuum after
    # its writes, a pool's backends closing), which the quiet window would rightly count.
    with PgServer(fsync=False) as server:
        _check_windows(server)


def _check_windows(server: PgServer) -> None:
    postmaster = int((server.data / "postmaster.pid").read_text().split()[0])
    with CpuWatch(postmaster) as watch:
        time.sleep(0.3)
        quiet_until = time.time()
        time.sleep(0.2)
        busy_from = time.time()
        # About a second of the server's CPU, in a backend that exits before the window ends.
        run_sync(server.url(), "SELECT count(*) FROM generate_series(1, 3000000) a,"
                                  " LATERAL (SELECT md5(a::text)) b")
        busy_until = time.time()
        time.sleep(0.3)
    quiet, busy = watch.between(quiet_until - 0.3, quiet_until), watch.between(busy_from, busy_until + 0.25)
    assert quiet.server < 0.05
    # The query costs 0.2-1 s of the server's CPU by the machine and its load (it was taken
    # to cost a second; a quick machine gave 0.23 s): twice the quiet window's ceiling is the
    # line between "the server worked" and "it did not".
    assert busy.server > 0.1 and busy.machine >= busy.server - 0.05
