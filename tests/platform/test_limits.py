"""What one user can cost (issue 29, point 7): replays, exports and digests are limited per
user (spectators too), per channel and (replays) across the process; undos in a row are
bounded, so a standing order and its undo cannot grow the database without end."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.config import Settings
from bot.limits import ChannelLocks
from bot.service import Service
from tests.platform.conftest import Table


@pytest.fixture
def store_url(tmp_path: Path) -> Path:
    return tmp_path / "referee.sqlite3"


@pytest.fixture
async def limited(tmp_path: Path):
    svc = await Service.open(Settings(db=tmp_path / "l.sqlite3", snapshot_dir=tmp_path / "s",
                                      rate_limits=True))
    yield svc
    await svc.close()


async def _playing(table: Table, host: str = "alice") -> None:
    for user, line in [(host, "/game new system:duel options:target=30"),
                       (host, "/game join side:red"), ("bob", "/game join side:blue"),
                       (host, "/duel wait")]:
        assert not (await table(user, line)).error


@pytest.mark.parametrize("line, per_user", [("/game replay", 1), ("/game export", 2),
                                            ("/game digest since:0", 3)])
async def test_a_spectator_is_limited_per_user_and_the_channel_too(limited: Service, line: str,
                                                                    per_user: int) -> None:
    table = Table(limited)
    await _playing(table)
    for _ in range(per_user):
        assert "Slow down" not in (await table("watcher1", line)).text
    again = await table("watcher1", line)
    assert again.error and "Slow down" in again.text, again.text
    # Other spectators share the channel's allowance.
    channel = {"/game replay": 2, "/game export": 6, "/game digest since:0": 10}[line]
    said = [(await table(f"w{n}", line)).text for n in range(channel)]
    assert any("Slow down" in t for t in said), said


async def test_replays_are_limited_across_channels(limited: Service) -> None:
    refused = 0
    for n in range(8):
        table = Table(limited, channel=f"chan-{n}")
        await _playing(table, host=f"host{n}")
        refused += "Slow down" in (await table(f"u{n}", "/game replay")).text
    assert refused == 2  # six a minute in the whole process


async def test_undos_in_a_row_are_bounded(table: Table) -> None:
    """A standing order and its undo, again and again: three undos, then the last stands
    until someone else acts; then undo works again."""
    await _playing(table)
    for n in range(3):
        assert not (await table("bob", "/duel stance mode:bold")).error
        undo = await table("bob", "/game undo")
        assert not undo.error, (n, undo.text)
    assert not (await table("bob", "/duel stance mode:bold")).error
    refused = await table("bob", "/game undo")
    assert refused.error and "3 steps in a row" in refused.text, refused.text
    assert not (await table("bob", "/duel wait")).error
    assert not (await table("alice", "/duel wait")).error
    assert not (await table("bob", "/duel stance mode:careful")).error
    assert not (await table("bob", "/game undo")).error


async def test_a_channel_lock_serializes_and_is_dropped_after_its_last_holder() -> None:
    # bot/limits.ChannelLocks (issue 14: no lock kept per idle channel), a class since
    # issue 23: a waiter cancelled while waiting leaves too.
    locks = ChannelLocks()
    order: list[str] = []

    async def command(name: str, pause: float) -> None:
        async with locks.hold("c"):
            order.append(f"{name} in")
            await asyncio.sleep(pause)
            order.append(f"{name} out")

    first = asyncio.create_task(command("a", 0.02))
    await asyncio.sleep(0)
    second = asyncio.create_task(command("b", 0))
    cancelled = asyncio.create_task(command("x", 0))
    await asyncio.sleep(0)
    assert len(locks) == 1 and locks._locks["c"][1] == 3
    cancelled.cancel()
    await asyncio.gather(first, second, cancelled, return_exceptions=True)
    assert order == ["a in", "a out", "b in", "b out"]
    assert len(locks) == 0
    with pytest.raises(RuntimeError):
        async with locks.hold("c"):
            raise RuntimeError("a failed command gives the lock back")
    assert len(locks) == 0
