"""One of the bot processes of ``tests/store/test_pg_shared.py`` and
``tests/store/test_sqlite_shared.py``: it opens the service on a shared database (a
PostgreSQL URL or a SQLite file) and sends ``N`` standing orders (``/duel stance``, legal at
any moment, so whatever the other process does every one of them must be applied) as one
side, each after the previous reply, printing ``ACK <interaction id> <reply's first line>``
or ``ERR <interaction id> <text>``.  The interaction ids are ``<side>-<n>`` in the channel
``shared``, ``<channel>.<side>-<n>`` in any other (ids are unique across channels).

    python -m tests.store.pg_driver URL CHANNEL SIDE N

Once its service is open it prints ``READY`` and waits for a line on its standard input
before the first order: the test starts every process, then lets them all begin at the same
instant.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

from bot.config import Settings
from bot.models import Invocation
from bot.service import Service
from rules.core import registry
from tests.platform.duel import DUEL


async def run(url: str, channel: str, side: str, orders: int) -> None:
    """Send the orders; say what became of each."""
    settings = Settings(db=url, snapshot_dir=Path(tempfile.gettempdir()) / "referee-pg-snaps",
                        standing_orders_in_a_row=1_000_000)
    service = await Service.open(settings)
    try:
        print("READY", flush=True)
        await asyncio.to_thread(sys.stdin.readline)
        for n in range(orders):
            inv = Invocation(
                channel_id=channel, guild_id="g", user_id=f"{channel}-{side}", user_name=side,
                command=["duel", "stance"], options={"mode": "bold" if n % 2 else "careful"},
                interaction_id=f"{side}-{n}" if channel == "shared" else f"{channel}.{side}-{n}")
            reply = await service.handle(inv)
            first = reply.text.splitlines()[0] if reply.text else ""
            print(f"{'ERR' if reply.error else 'ACK'} {inv.interaction_id} {first}", flush=True)
    finally:
        await service.close()


def main() -> None:
    """``pg_driver URL CHANNEL SIDE N``."""
    registry.register(DUEL)  # the test-only system, as tests/platform/conftest.py does
    url, channel, side, orders = sys.argv[1:5]
    asyncio.run(run(url, channel, side, int(orders)))


if __name__ == "__main__":
    main()
