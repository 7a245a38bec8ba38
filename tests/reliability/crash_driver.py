"""The process the multi-command crash test kills: it opens the service on a database and
runs a transcript of invocations over several channels, printing ``START <id>`` before each
and ``ACK <id>`` once its reply came back (a player saw it).

    python -m tests.reliability.crash_driver TRANSCRIPT.json DB [TARGET PAUSE_SECONDS]

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
from pathlib import Path
from typing import Callable

import bot.gamecmds
from bot.config import Settings
from bot.models import Invocation
from bot.service import Service
from bot.store import Store
from bot.writer import Writer


def seeded() -> Callable[[], tuple[bytes, str]]:
    """A ``new_seed`` deriving each game's dice seed from a counter: the same every run."""
    counter = itertools.count()

    def new_seed() -> tuple[bytes, str]:
        seed = hashlib.sha256(f"crash:{next(counter)}".encode()).digest()
        return seed, hashlib.sha256(seed).hexdigest()

    return new_seed


async def run(transcript: list[dict], db: Path) -> None:
    """Send each invocation in order; say when it starts and when it was answered."""
    service = await Service.open(Settings(db=db, snapshot_dir=db.parent / "snaps"))
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
    real_unit = Store.commit_unit

    async def pause() -> None:
        if PAUSED["now"] == PAUSED["target"]:
            print("TX", flush=True)
            await asyncio.sleep(float(PAUSED["seconds"]))

    async def commit(self: Writer) -> None:
        await pause()
        await real_commit(self)

    async def commit_unit(self: Store, unit: Writer) -> None:
        await pause()
        await real_unit(self, unit)

    Writer.commit = commit  # type: ignore[method-assign]
    Store.commit_unit = commit_unit  # type: ignore[method-assign]


def main() -> None:
    """``crash_driver TRANSCRIPT DB [TARGET PAUSE_SECONDS]``."""
    bot.gamecmds.new_seed = seeded()  # type: ignore[assignment]
    if len(sys.argv) > 4:
        PAUSED.update(target=sys.argv[3], seconds=float(sys.argv[4]))
        pause_before_commits()
    transcript = json.loads(Path(sys.argv[1]).read_text("utf-8"))
    asyncio.run(run(transcript, Path(sys.argv[2])))


if __name__ == "__main__":
    main()
