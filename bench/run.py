"""The benchmark of the whole order path: ``.venv/bin/python bench/run.py [--quick]``.

Prints ONE markdown table: each figure beside the floor measured in the same run, the target,
and a pass/miss mark.  Real SQLite files in a temporary folder, with 200 channels in one and
in two processes sharing one file (``--store postgresql``: databases on a throwaway
PostgreSQL server, plus 200 channels with one and two processes sharing it),
the real ``Service`` and the
real renderer.  Raid and Riposte (``rr``) is played when it is registered, else the ``duel``
test system; the output says which.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script from anywhere

from bench import autocomplete, channels, dbs, hexes, hexsnap, logsizes, memory, orderpath, shared, snapshots  # noqa: E402
from bench import pictures, picturecost, replay, scenarios, views  # noqa: E402
from bot.pgserver import PgServer  # noqa: E402
from bot.autoplay import pick_system  # noqa: E402
from bench.stats import Row, table  # noqa: E402
from bot.runtime import tune_gc  # noqa: E402


async def run(quick: bool, prefer: str, store: str = "sqlite") -> tuple[str, list[Row]]:
    """Measure every figure; return the system used and the rows."""
    key, system_note = pick_system(prefer)
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="referee-bench-", dir=os.environ.get("BENCH_DIR")) as tmp, \
            _server(store) as server:
        dbs.use_postgres(server)
        work = Path(tmp)
        rows += await orderpath.measure(work, key, 100 if quick else 1000)
        rows.append(await orderpath.measure_lengths(work, key, (10, 1000, 10000), 30 if quick else 200))
        rows.append(await views.measure(work, 20 if quick else 60))
        rows += snapshots.measure(5 if quick else 15)
        rows += snapshots.measure_others(5 if quick else 15)
        rows += await picturecost.measure(work, 30 if quick else 120)
        sizes = (100, 1000, 10000)
        rows += await logsizes.measure(work, key, sizes, 3 if quick else 9)
        rows += await channels.measure(work, key, 200, 5 if quick else 25)
        rows.append(await memory.measure(work, key, 1000, 50, 5 if quick else 20))
        rows.append(await memory.measure_with_workers(work, key, 500))  # issue 41
        rows += await autocomplete.measure_all(work, 3 if quick else 20)
        rows += hexes.measure(50 if quick else 200)
        rows.append(hexsnap.measure(3 if quick else 9))
        rows += await replay.measure(work, key, 100)
        rows += scenarios.measure(1 if quick else 5)
        rows += await pictures.measure(work, 2 if quick else 10)  # issue 41: pictures beside play
        if server is not None:
            rows += await shared.measure(work, key, 200, 5 if quick else 25)
        else:  # a sharded deployment on one SQLite file: two processes beside one (issue 23)
            rows.append(await shared.saturation(work, key, 200, 5 if quick else 25))
    return system_note, rows


@contextmanager
def _server(store: str) -> Iterator[PgServer | None]:
    """A throwaway PostgreSQL server with fsync on (``--store postgresql``), else None."""
    if store != "postgresql":
        yield None
        return
    with PgServer(fsync=True) as server:
        yield server


def main(argv: list[str] | None = None) -> int:
    """Entry point; the exit code is 0 when every target is met."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions (a smoke run)")
    parser.add_argument("--system", default="rr", help="the system to play (default rr)")
    parser.add_argument("--store", choices=("sqlite", "postgresql"), default="sqlite",
                        help="the store measured: SQLite files (default) or a throwaway "
                             "PostgreSQL server (initdb/pg_ctl from the PATH), with the "
                             "200-channel figure for one and two processes sharing it")
    args = parser.parse_args(argv)
    tune_gc()  # as `referee` does at start (bot/runtime.py): the service measured as deployed
    system_note, rows = asyncio.run(run(args.quick, args.system, args.store))
    load = os.getloadavg()[0]
    print(f"System: {system_note}. Python {platform.python_version()}, {os.cpu_count()} CPUs, "
          f"load {load:.1f}{', quick run' if args.quick else ''}. "
          f"Store: {args.store}. Latencies are wall-clock; the snapshot is CPU time.")
    print()
    print(table(rows))
    return 0 if all(r.ok is not False for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
