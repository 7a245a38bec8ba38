"""The gateway heartbeat: ``referee bot`` rewrites a small file while it runs, and
``referee health`` (the container's health check) reads it (issue 26).

A health check runs in a process of its own and cannot ask the bot whether its gateway
connection is up, so the bot says it in a file (``REFEREE_HEARTBEAT``) every
:data:`INTERVAL` seconds: when it wrote, whether its database answered a read just before,
and, shard by shard, whether the connection is open and its latency.  The check is
unhealthy when the file is missing, older than :data:`MAX_AGE` (the bot hangs or is gone),
or says the database did not answer or a shard is not connected.  Reading a file has no
side effect, as Docker asks of a health check (it runs every minute, for the life of the
container).  The file is written whole and renamed into place, so a reader never sees half
of it.
"""

from __future__ import annotations

import asyncio
import logging
import os
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Awaitable, Callable, Mapping, Protocol

from pydantic import BaseModel, ValidationError

log = logging.getLogger("referee.heartbeat")

#: Seconds between two writes.
INTERVAL = 15.0
#: A heartbeat older than this means the bot is hung or gone (four missed writes).
MAX_AGE = timedelta(seconds=60)


class ShardBeat(BaseModel):
    """One shard's connection as the bot saw it."""

    shard_id: int
    connected: bool
    #: Seconds between the gateway's heartbeat and its acknowledgement (None: not measured).
    latency: float | None = None


class Heartbeat(BaseModel):
    """What the bot writes: when, its process, whether it is ready, and each shard."""

    at: datetime
    pid: int
    ready: bool
    #: Whether the bot's database answered a read just before this beat.
    database: bool = True
    shards: list[ShardBeat]

    @property
    def connected(self) -> bool:
        """Ready, with at least one shard and every shard connected."""
        return self.ready and bool(self.shards) and all(s.connected for s in self.shards)


def write_heartbeat(path: Path, beat: Heartbeat) -> None:
    """Write ``beat`` to ``path`` atomically (a temporary file renamed over it)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    scratch = path.with_name(path.name + ".tmp")
    scratch.write_text(beat.model_dump_json(), "utf-8")
    os.replace(scratch, path)


def read_heartbeat(path: Path) -> Heartbeat | None:
    """The heartbeat in ``path``, or None when there is none or it is unreadable."""
    try:
        return Heartbeat.model_validate_json(path.read_text("utf-8"))
    except (OSError, ValidationError, ValueError):
        return None


def heartbeat_problem(path: Path, now: datetime, max_age: timedelta = MAX_AGE) -> str | None:
    """Why the bot is not healthy by its heartbeat (a sentence), or None when it is."""
    beat = read_heartbeat(path)
    if beat is None:
        return f"no heartbeat in {path}: the bot has not connected yet, or is not running"
    age = now - beat.at
    if age > max_age:
        return (f"the last heartbeat is {age.total_seconds():.0f} s old (at most "
                f"{max_age.total_seconds():.0f} s): the bot is hung or stopped")
    if not beat.database:
        return "the bot's database did not answer its last read"
    if not beat.connected:
        down = [str(s.shard_id) for s in beat.shards if not s.connected]
        which = f"shard(s) {', '.join(down)} not connected" if down else "not ready"
        return f"the bot is not connected to the Discord gateway ({which})"
    return None


class GatewayLike(Protocol):
    """The part of ``discord.AutoShardedClient`` the heartbeat reads."""

    @property
    def shards(self) -> Mapping[int, Any]:
        """Shard id -> ``ShardInfo`` (``is_closed()``, ``latency``)."""

    def is_ready(self) -> bool:
        """Whether the client has received READY on its shards."""


def client_beat(client: GatewayLike, now: datetime, *, database: bool = True) -> Heartbeat:
    """The heartbeat of a discord.py ``AutoShardedClient`` at ``now``."""
    shards = [
        ShardBeat(shard_id=shard_id, connected=not info.is_closed(),
                  latency=None if info.latency != info.latency else round(info.latency, 3))
        for shard_id, info in sorted(client.shards.items())
    ]
    return Heartbeat(at=now, pid=os.getpid(), ready=client.is_ready(), database=database,
                     shards=shards)


async def database_answers(probe: Callable[[], Awaitable[object]]) -> bool:
    """Whether ``probe`` (a read of the bot's database) returns within :data:`INTERVAL`."""
    try:
        await asyncio.wait_for(probe(), INTERVAL)
    except Exception as exc:  # any failure of the read is what the beat reports
        log.warning("the database did not answer the heartbeat's read: %s", exc)
        return False
    return True


async def beat_forever(client: GatewayLike, path: Path,
                       probe: Callable[[], Awaitable[object]], interval: float = INTERVAL) -> None:
    """Write the client's heartbeat to ``path`` every ``interval`` seconds until cancelled,
    ``probe`` reading the database first; on the way out the file is removed (a stopped bot
    is not healthy)."""
    try:
        while True:
            database = await database_answers(probe)
            try:
                write_heartbeat(path, client_beat(client, datetime.now(timezone.utc),
                                                  database=database))
            except OSError as exc:
                log.warning("cannot write the heartbeat %s: %s", path, exc)
            await asyncio.sleep(interval)
    finally:
        path.unlink(missing_ok=True)
