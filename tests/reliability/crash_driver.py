"""The process the multi-command crash test kills: it opens the service on a database and
runs a transcript of invocations over several channels, printing ``START <id>`` before each
and ``ACK <id>`` once its reply came back (a player saw it).

    python -m tests.reliability.crash_driver TRANSCRIPT.json DB [TARGET PAUSE_SECONDS]

(DB: a SQLite file, or a PostgreSQL URL.)

With a target, each commit of that command waits first, printing ``TX``: the test aims its
kill inside the command's open transaction.

Every game's dice seed is derived from its channel and a counter (:func:`seeded`), so the
transcript, made in-process first, replays exactly here.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import json
import sys
import tempfile
from pathlib import Path
from typing import Callable

import bot.gamecmds
from bot.config import Settings
from bot.models import Invocation
from bot.service import Service
from bot.pgstore import PgStore
from bot.store import Store
from bot.stores import is_postgres_url
from bot.writer import Writer


def seeded() -> Callable[[], tuple[bytes, str]]:
    """A ``new_seed`` deriving each game's dice seed from a counter: the same every run."""
    counter = itertools.count()

    def new_seed() -> tuple[bytes, str]:
        seed = hashlib.sha256(f"crash:{next(counter)}".encode()).digest()
        return seed, hashlib.sha256(seed).hexdigest()

    return new_seed


async def run(transcript: list[dict], db: Path | str) -> None:
    """Send each invocation in order; say when it starts and when it was answered."""
    snaps = Path(tempfile.gettempdir()) / "referee-crash-snaps" if isinstance(db, str) else db.parent / "snaps"
    service = await Service.open(Settings(db=db, snapshot_dir=snaps))
    try:
        for raw in transcript:
            inv = Invocation.model_validate(raw)
            print(f"START {inv.interaction_id}", flush=True)
            PAUSED["now"] = inv.interaction_id or ""
            reply = await service.handle(inv)
            print(f"{'ERR' if reply.error else 'ACK'} {inv.interaction_id}", flush=True)
    finally:
        await service.close()


#: The interaction whose commits pause (set by :func:`main`), and the one running now.
PAUSED: dict[str, str | float] = {"target": "", "now": "", "seconds": 0.0}


def pause_before_commits() -> None:
    """While the target command runs, print ``TX`` and wait before each COMMIT (and group
    commit) it makes, so a kill can be aimed inside its open transaction."""
    real_commit = Writer.commit

    async def pause() -> None:
        if PAUSED["now"] == PAUSED["target"]:
            print("TX", flush=True)
            await asyncio.sleep(float(PAUSED["seconds"]))

    async def commit(self: Writer) -> None:
        await pause()
        await real_commit(self)

    Writer.commit = commit  # type: ignore[method-assign]
    for store in (Store, PgStore):
        real_unit = store.commit_unit

        def paused(real):  # type: ignore[no-untyped-def]
            async def commit_unit(self, unit: Writer) -> None:  # type: ignore[no-untyped-def]
                await pause()
                await real(self, unit)
            return commit_unit

        store.commit_unit = paused(real_unit)  # type: ignore[method-assign]


def main() -> None:
    """``crash_driver TRANSCRIPT DB [TARGET PAUSE_SECONDS]``."""
    bot.gamecmds.new_seed = seeded()  # type: ignore[assignment]
    if len(sys.argv) > 4:
        PAUSED.update(target=sys.argv[3], seconds=float(sys.argv[4]))
        pause_before_commits()
    transcript = json.loads(Path(sys.argv[1]).read_text("utf-8"))
    db = sys.argv[2]
    asyncio.run(run(transcript, db if is_postgres_url(db) else Path(db)))


if __name__ == "__main__":
    main()
