"""The replay shown in the README: ``.venv/bin/python tools/pictures.py`` writes it with every
other picture of ``docs/img`` (``.venv/bin/python -m tests.replay.make_sample`` writes only it).

A Tannenbruck game played by the robot players through the real service (as in the tests,
with the same fixed seed), then ``/game replay`` of eight maps of its first turn of
operations, written to ``docs/img/tannenbruck-replay.gif``.
"""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from bot import replaycmds
from bot.config import Settings
from bot.models import Invocation
from bot.service import Service
from tests.replay.conftest import CHANNEL, _play

OUT = Path(__file__).resolve().parents[2] / "docs" / "img" / "tannenbruck-replay.gif"
FRAMES = 8


async def draw() -> tuple[bytes, str]:
    """Play, pick the maps after the set-up: ``(the GIF, which steps it shows)``."""
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "sample.sqlite3"
        game = await _play(db, 60, end=False)
        service = await Service.open(Settings(db=db))
        try:
            steps = replaycmds.shown_steps(await service.store.steps(game.game_id))
            moves = [s for s in steps if s.action and s.action.get("name") in ("move", "fire", "assault")]
            first = moves[0].seq
            last = steps[[s.seq for s in steps].index(first) + FRAMES - 1].seq
            table_reply = await service.handle(Invocation(
                channel_id=CHANNEL, guild_id="g", user_id="docs", user_name="docs",
                command=["game", "replay"], options={"from": first, "to": last},
                interaction_id="docs-replay"))
            assert not table_reply.error, table_reply.text
            return table_reply.attachments[0].data, f"steps #{first}-#{last}"
        finally:
            await service.close()


async def main() -> None:
    """Write the GIF to ``docs/img``."""
    gif, steps = await draw()
    OUT.write_bytes(gif)
    print(f"{OUT}: {steps}, {len(gif) / 1e3:.0f} kB")


if __name__ == "__main__":
    asyncio.run(main())
