"""Limits no player can exceed: token-bucket rate limits and a bounded pool of channel locks.

Both live in memory only.  Why that is enough: a restart forgets a bucket, which at worst
lets a flood resume a little earlier; nothing about a game depends on them.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from bot.config import Settings
    from bot.models import Invocation

#: Buckets kept at most; full (idle) buckets are dropped first when there are more.
MAX_BUCKETS = 10_000


@dataclass
class _Bucket:
    tokens: float
    stamp: float


class RateLimiter:
    """Token buckets by key: ``per_minute`` tokens refill over a minute, up to that many."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._buckets: dict[tuple[str, str], _Bucket] = {}

    def _level(self, key: tuple[str, str], per_minute: int, now: float) -> _Bucket:
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = _Bucket(float(per_minute), now)
        else:
            bucket.tokens = min(per_minute, bucket.tokens + (now - bucket.stamp) * per_minute / 60)
            bucket.stamp = now
        return bucket

    def allow(self, limits: list[tuple[tuple[str, str], int]]) -> float:
        """Take one token from each bucket and return 0, or take none and return how many
        seconds until every bucket has one again."""
        now = self.clock()
        buckets = [(self._level(key, per_minute, now), per_minute) for key, per_minute in limits]
        wait = max((0.0 if b.tokens >= 1 else (1 - b.tokens) * 60 / rate for b, rate in buckets),
                   default=0.0)
        if wait > 0:
            return wait
        for bucket, _ in buckets:
            bucket.tokens -= 1
        self._trim(limits)
        return 0.0

    def _trim(self, limits: list[tuple[tuple[str, str], int]]) -> None:
        if len(self._buckets) <= MAX_BUCKETS:
            return
        now = self.clock()
        rates = dict(limits)
        # A bucket that has refilled completely holds no memory worth keeping.
        for key in [k for k, b in self._buckets.items()
                    if b.tokens + (now - b.stamp) * rates.get(k, 1) / 60 >= rates.get(k, 1)]:
            del self._buckets[key]
        while len(self._buckets) > MAX_BUCKETS:
            del self._buckets[next(iter(self._buckets))]

    def __len__(self) -> int:
        return len(self._buckets)


#: A bucket: ``((kind, whose), tokens per minute)``.
Limit = tuple[tuple[str, str], int]


def limits_of(settings: "Settings", inv: "Invocation", cost: str | None) -> tuple[str, list[Limit]] | None:
    """What a command of the cost class ``cost`` (its spec's :attr:`CommandSpec.cost`)
    costs in the token buckets: ``(what it is called in "too many …", its buckets)``, or
    None for a command that is not limited.

    Orders and map renders per user and channel (issue 14); replays, exports and digests
    per user (anyone: a spectator is limited like a player), per channel, and replays across
    the process too (issue 29: six spectators' replays took 47 s of CPU)."""
    if cost is None:
        return None
    s = settings
    user, channel = "u:" + inv.user_id, "c:" + inv.channel_id
    # Per user, per channel, and across the process (None: not counted there).
    rates: dict[str, tuple[int, int, int | None]] = {
        "order": (s.user_orders_per_minute, s.channel_orders_per_minute, None),
        "render": (s.user_renders_per_minute, s.channel_renders_per_minute, None),
        "replay": (s.user_replays_per_minute, s.channel_replays_per_minute, s.replays_per_minute),
        "export": (s.user_exports_per_minute, s.channel_exports_per_minute, None),
        "digest": (s.user_digests_per_minute, s.channel_digests_per_minute, None),
    }
    per_user, per_channel, everywhere = rates[cost]
    found: list[Limit] = [((cost, user), per_user), ((cost, channel), per_channel)]
    if everywhere is not None:
        found.append(((cost, "all"), everywhere))
    return cost, found


class ChannelLocks:
    """One lock per channel that has commands under way, and none for idle channels.

    Why not a plain dict of locks: it grew by one lock for every channel ever seen (issue 14);
    here a channel's lock is dropped when its last holder or waiter leaves.
    """

    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}

    def hold(self, channel_id: str) -> "_Hold":
        """``async with locks.hold(channel):`` serialize the commands of one channel."""
        return _Hold(self, channel_id)

    def _leave(self, channel_id: str) -> None:
        """One holder or waiter of ``channel_id`` is gone: drop its lock after the last."""
        lock, users = self._locks[channel_id]
        if users <= 1:
            del self._locks[channel_id]
        else:
            self._locks[channel_id] = (lock, users - 1)

    def __len__(self) -> int:
        return len(self._locks)


class _Hold:
    """:meth:`ChannelLocks.hold`, written out: taken on every command, and a class costs a
    third of a generator-based context manager (issue 23)."""

    __slots__ = ("locks", "channel_id", "lock")

    def __init__(self, locks: ChannelLocks, channel_id: str) -> None:
        self.locks, self.channel_id = locks, channel_id

    async def __aenter__(self) -> None:
        held = self.locks._locks.get(self.channel_id)
        lock, users = held if held is not None else (asyncio.Lock(), 0)
        self.locks._locks[self.channel_id] = (lock, users + 1)
        try:
            await lock.acquire()
        except BaseException:  # cancelled while waiting: no longer a waiter
            self.locks._leave(self.channel_id)
            raise
        self.lock = lock

    async def __aexit__(self, *exc_info: object) -> None:
        try:
            self.lock.release()
        finally:
            self.locks._leave(self.channel_id)


__all__ = ["ChannelLocks", "Limit", "RateLimiter", "limits_of"]
