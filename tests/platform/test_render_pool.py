"""Pictures drawn in worker processes (issue 41, point 1; issue 45, point 9).

The worker's picture is the picture drawn here, byte for byte; a reply never waits on a
queue of others' pictures (past ``render_wait`` it goes, saying its picture follows, and the
picture comes after; with the queue full it says ``/game map`` draws it); a picture past its
time budget has its worker killed and replaced; a worker that dies is replaced; a picture
that fails is an incident line, never a lost reply.  A worker is held busy by stopping it
(SIGSTOP): no timing decides what a test sees.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from pathlib import Path
from typing import AsyncIterator, Iterator

import pytest

from bot import replies
from bot.config import Settings
from bot.console import Console
from bot.models import later_of
import concurrent.futures as cf
import threading

from bot.renderpool import RenderBusy, RenderFailed, RenderPool, Watchdog, shared, worker_count
from bot.renderworker import DrawRequest
from bot.service import Service
from render import caches, focus, snapshot
from rules.core import registry
from rules.core.samples import pictures
from rules.rr.system import RaidAndRiposte

RR = RaidAndRiposte()


def rr_views(count: int = 2) -> list:
    """Views of a seeded rr game, as posted after orders."""
    return pictures(RR, count)


@contextlib.contextmanager
def stopped(pool: RenderPool) -> Iterator[None]:
    """Every worker of ``pool`` frozen (SIGSTOP) for the block: a picture offered stays
    drawing until the block ends."""
    pids = pool.pids()
    assert pids, "the pool's workers are up"
    for pid in pids:
        os.kill(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)


@pytest.fixture(scope="module")
def pool() -> Iterator[RenderPool]:
    """A pool of its own: one worker, one picture may wait, a 20-second budget."""
    made = RenderPool(workers=1, queue=1, timeout=20.0, memory_mb=1024)
    asyncio.run(made.ready())
    yield made
    made.close()


async def drawn(pool: RenderPool, request: DrawRequest) -> bytes:
    return await asyncio.wrap_future(pool.offer(request).future)


@contextlib.asynccontextmanager
async def own_pool(timeout: float = 20.0, memory_mb: int = 1024) -> AsyncIterator[tuple[RenderPool, int]]:
    """A warm pool of one worker for one test, and that worker's pid; closed after."""
    pool = RenderPool(workers=1, queue=1, timeout=timeout, memory_mb=memory_mb)
    try:
        await pool.ready()
        (pid,) = pool.pids()
        yield pool, pid
    finally:
        pool.close()


async def test_the_workers_picture_is_the_picture_drawn_here(pool: RenderPool) -> None:
    view = rr_views(1)[0]
    assert await drawn(pool, DrawRequest(view=view)) == focus(view).png
    assert await drawn(pool, DrawRequest(view=view, whole=True)) == snapshot(view).png


async def test_the_queue_is_bounded_and_a_picture_starts_only_on_a_free_worker(pool: RenderPool) -> None:
    first, second = (DrawRequest(view=v, whole=True) for v in rr_views(2))
    with stopped(pool):
        started = pool.offer(first)
        waiting = pool.offer(second)
        with pytest.raises(RenderBusy):
            pool.offer(first)
        assert not started.queued and waiting.queued and pool.waiting() == 1
    assert await asyncio.wrap_future(waiting.future) == snapshot(second.view).png
    assert await asyncio.wrap_future(started.future) == snapshot(first.view).png


async def test_a_worker_that_dies_while_drawing_is_replaced_and_the_picture_tried_again() -> None:
    async with own_pool() as (pool, pid):
        view = rr_views(1)[0]
        with stopped(pool):
            ticket = pool.offer(DrawRequest(view=view, whole=True))
            os.kill(pid, signal.SIGKILL)
        assert await asyncio.wrap_future(ticket.future) == snapshot(view).png
        assert pool.pids() != [pid] and pool.stats.replaced == 1


async def test_a_picture_that_kills_its_worker_twice_fails_and_the_pool_goes_on() -> None:
    async with own_pool() as (pool, pid):
        view = rr_views(1)[0]
        with stopped(pool):
            ticket = pool.offer(DrawRequest(view=view, whole=True))
            os.kill(pid, signal.SIGKILL)
            while pool.pids() in ([], [pid]):  # the replacement is up, drawing it again
                await asyncio.sleep(0.01)
            with stopped(pool):
                os.kill(pool.pids()[0], signal.SIGKILL)
        with pytest.raises(RenderFailed, match="stopped while drawing"):
            await asyncio.wrap_future(ticket.future)
        assert await drawn(pool, DrawRequest(view=view)) == focus(view).png
        assert pool.stats.replaced == 2


async def test_a_picture_past_its_time_budget_is_stopped_and_its_worker_replaced() -> None:
    async with own_pool(timeout=5.0) as (pool, pid):
        view = rr_views(1)[0]
        with stopped(pool):  # it would draw forever
            ticket = pool.offer(DrawRequest(view=view, whole=True))
            with pytest.raises(RenderFailed, match="took over 5 s"):
                await asyncio.wrap_future(ticket.future)
        assert await drawn(pool, DrawRequest(view=view)) == focus(view).png
        assert pool.pids() != [pid]


def test_one_watchdog_thread_stops_only_pictures_still_drawing_past_their_budget() -> None:
    """One thread keeps every picture's deadline (no thread a picture); a picture that
    finished is forgotten at once, its PNG not held, and never expires."""
    expired: list[str] = []
    seen = threading.Event()
    names = iter(["late", "done", "later"])
    slots = {name: object() for name in ("late", "done", "later")}

    def expire(slot: object, job: cf.Future[bytes]) -> None:
        expired.append(next(k for k, v in slots.items() if v is slot))
        if len(expired) == 2:
            seen.set()

    watchdog = Watchdog(expire)  # type: ignore[arg-type]
    jobs = {name: cf.Future() for name in names}  # type: ignore[var-annotated]
    before = set(threading.enumerate())
    tokens = {name: watchdog.watch(seconds, slots[name], jobs[name])  # type: ignore[arg-type]
              for name, seconds in (("later", 0.4), ("done", 0.05), ("late", 0.1))}
    # One thread for the three (counted by identity: an earlier test's thread may end now).
    assert [t.name for t in set(threading.enumerate()) - before] == ["referee-render-watchdog"]
    jobs["done"].set_result(b"png")
    watchdog.forget(tokens["done"])
    assert all(job is not jobs["done"] for _, job in watchdog._jobs.values())
    assert seen.wait(10)
    assert expired == ["late", "later"]  # by deadline; the finished one never
    watchdog.stop()


async def test_a_render_past_its_memory_budget_fails_in_the_worker() -> None:
    """RLIMIT_AS: a picture needing more than the budget fails there; the bot goes on
    (issue 45, point 9).  A Maschinen Krieger map of 8 x 8 boards needs more than 256 MB."""
    async with own_pool(timeout=60.0, memory_mb=256) as (pool, _):
        view = pictures(registry.get("mak"), 1)[0]
        board = view.boards[0]
        huge = view.model_copy(update={"boards": [
            board.model_copy(update={"col": board.col + i * board.columns, "row": board.row + j * board.rows})
            for i in range(8) for j in range(8)]})
        with pytest.raises(RenderFailed, match="more than 256 MB"):
            await drawn(pool, DrawRequest(view=huge, whole=True))
        assert await drawn(pool, DrawRequest(view=view, whole=True)) == snapshot(view).png


def test_the_workers_default_to_the_cores_less_one(tmp_path: Path) -> None:
    assert worker_count(Settings(db=tmp_path / "a.sqlite3")) == max(1, len(os.sched_getaffinity(0)) - 1)
    assert worker_count(Settings(db=tmp_path / "a.sqlite3", render_workers=3)) == 3


# -- through the service and the console -----------------------------------------------------


@pytest.fixture
async def busy_service(tmp_path: Path) -> AsyncIterator[Service]:
    """A service whose pool holds one waiting picture and whose replies never wait on one."""
    service = await Service.open(Settings(db=tmp_path / "busy.sqlite3", snapshot_dir=tmp_path / "snaps",
                                          render_queue=1, render_wait=0.0))
    yield service
    await service.close()


async def rr_console(service: Service, tmp_path: Path) -> tuple[Console, list[str]]:
    out: list[str] = []
    console = Console(service, snapshot_dir=tmp_path / "snaps", write=out.append)
    for line in ("@alice /game new system:rr", "@alice /game join side:nato", "@bob /game join side:soviet",
                 "@alice /rr deploy-default"):
        await console.run_line(line)
    return console, out


async def test_past_capacity_the_reply_goes_at_once_and_its_picture_follows(
        busy_service: Service, tmp_path: Path) -> None:
    console, out = await rr_console(busy_service, tmp_path)
    other = DrawRequest(view=rr_views(1)[0], whole=True)
    with stopped(busy_service.pictures):
        held = busy_service.pictures.offer(other)  # another channel's picture holds the worker
        reply = await busy_service.handle(console_invocation(console, "alice", ["rr", "ready"]))
        shown = await busy_service.attach_snapshot(reply)
        # The reply is ready without its picture, and says so; nothing is attached yet.
        assert shown.text.endswith(replies.FOLLOWS_LINE) and not shown.attachments
        later = later_of(shown)
        assert later is not None
    done = await later
    await asyncio.wrap_future(held.future)
    (picture,) = done.attachments
    assert picture.filename == "rr-game1-step2.png" and picture.data.startswith(b"\x89PNG")
    assert replies.FOLLOWS_LINE not in done.text and "NATO setup done (11.0)" in picture.description


async def test_with_the_queue_full_the_reply_says_game_map_draws_it(
        busy_service: Service, tmp_path: Path) -> None:
    console, out = await rr_console(busy_service, tmp_path)
    first, second = (DrawRequest(view=v, whole=True) for v in rr_views(2))
    with stopped(busy_service.pictures):
        held = [busy_service.pictures.offer(first), busy_service.pictures.offer(second)]
        await console.run_line("@alice /rr ready")
    assert any(replies.BUSY_LINE in line for line in out)
    assert not any(line.startswith("📎") and "step2" in line for line in out)
    for ticket in held:
        await asyncio.wrap_future(ticket.future)
    await console.run_line("@alice /game map")
    assert out[-1].startswith("📎") and "rr-game1-step2-map.png — The whole map" in out[-1]


async def test_the_console_prints_a_picture_that_follows_after_its_reply(
        busy_service: Service, tmp_path: Path) -> None:
    console, out = await rr_console(busy_service, tmp_path)
    loop = asyncio.get_running_loop()
    pids = busy_service.pictures.pids()
    held = None
    with stopped(busy_service.pictures):
        held = busy_service.pictures.offer(DrawRequest(view=rr_views(1)[0], whole=True))
        # The worker goes on a moment after the reply is printed.
        loop.call_later(0.2, lambda: [os.kill(p, signal.SIGCONT) for p in pids])
        await console.run_line("@alice /rr ready")
    await asyncio.wrap_future(held.future)
    said = out.index(next(line for line in out if replies.FOLLOWS_LINE in line))
    # The reply (its ping under it), then the picture that followed it.
    assert out[said + 1:said + 4] == ["🔔 @bob", "🗺️ The picture of the reply above:", out[said + 3]]
    assert out[said + 3].startswith("📎") and "rr-game1-step2.png — Close-up of the last action" in out[said + 3]


def console_invocation(console: Console, user: str, command: list[str]):
    """An invocation as the console sends it, for a test that looks at the reply itself."""
    from bot.models import Invocation  # noqa: PLC0415

    return Invocation(channel_id=console.channel, guild_id=None, user_id=user, user_name=user,
                      command=command, options={}, front="console")


def test_one_pool_serves_every_service_with_the_same_render_settings(tmp_path: Path) -> None:
    a = Settings(db=tmp_path / "a.sqlite3")
    b = Settings(db=tmp_path / "b.sqlite3")
    assert shared(a) is shared(b)
    assert shared(a) is not shared(Settings(db=tmp_path / "c.sqlite3", render_queue=3))


def test_a_description_fits_discords_limit_and_speaks_no_pictographs() -> None:
    from bot.alttext import LIMIT, describe  # noqa: PLC0415
    from rules.core.steps import Event  # noqa: PLC0415
    from rules.core.views import Change  # noqa: PLC0415

    view = rr_views(1)[0]
    events = [Event(kind="fire", text=f"🎲 {n}+3 = {n + 3} vs DF 6 → miss (7.3.3)") for n in range(200)]
    events.append(Event(kind="secret", text="Minefield 0409 laid", to="soviet"))
    said = describe(view, whole=False, side=None, events=events, action=None, actor=None,
                    changes=[Change(id="T12", what="hit"), Change(id="VDV-2", what="moved")])
    assert len(said) <= LIMIT and "🎲" not in said and "Minefield" not in said
    assert said.endswith("2 units changed since your last order: T12 hit, VDV-2 moved.")
    assert "; …" in said  # the lines that did not fit are said to be cut


def test_a_description_ends_one_sentence_once() -> None:
    from bot.alttext import fit  # noqa: PLC0415

    assert fit("The whole map", ["Game over: The commandos lost."], "") == "The whole map: Game over: The commandos lost."
    assert fit("The whole map", ["T12 suppressed (7.3.3)"], "") == "The whole map: T12 suppressed (7.3.3)."


BOT_WITH_A_POOL = """
import asyncio, sys, time
from bot.renderpool import RenderPool
pool = RenderPool(workers=1, queue=1, timeout=20.0, memory_mb=1024)
asyncio.run(pool.ready())
print(*pool.pids(), flush=True)
time.sleep(120)
"""


def test_a_bot_killed_by_sigkill_leaves_no_render_worker_behind() -> None:
    """A worker is a child of the forkserver, not of the bot: a bot killed outright left its
    workers running (the crash tests left hundreds, until the machine ran out of memory).
    A worker watches the bot that started it and ends itself when it is gone."""
    import subprocess
    import sys
    import time

    bot = subprocess.Popen([sys.executable, "-c", BOT_WITH_A_POOL], stdout=subprocess.PIPE, text=True,
                           cwd=Path(__file__).resolve().parents[2])
    assert bot.stdout is not None
    workers = [int(p) for p in bot.stdout.readline().split()]
    assert workers and all(_alive(p) for p in workers)
    bot.send_signal(signal.SIGKILL)
    bot.wait(timeout=10)
    deadline = time.monotonic() + 30
    while any(_alive(p) for p in workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not any(_alive(p) for p in workers), f"render workers {workers} outlived their bot"


def _alive(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().split(") ", 1)[1][:1] != "Z"
    except FileNotFoundError:
        return False


def _held_in_worker(pool: RenderPool) -> tuple[int, int]:
    """What the pool's one worker holds in its whole-map image caches: (bytes, budget)."""
    (slot,) = pool._slots  # noqa: SLF001 - the worker's own caches are what is tested
    assert slot.executor is not None
    return slot.executor.submit(caches.held_bytes).result(timeout=60)


async def test_a_warm_worker_starts_with_every_systems_pictures_and_a_cold_one_with_none() -> None:
    """``render_warm`` (REFEREE_RENDER_WARM, default true): a serving bot's worker draws every
    system's opening before the first player's picture; a cold one (the tests' bot
    processes) draws only what it is asked for, and draws it the same."""
    assert Settings.model_fields["render_warm"].default is True
    assert Settings(render_warm="false").render_warm is False  # type: ignore[arg-type]
    assert shared(Settings(render_warm=False)).warm is False
    view = rr_views(1)[0]
    warm, cold = (RenderPool(workers=1, queue=1, timeout=60.0, memory_mb=1024, warm=w) for w in (True, False))
    try:
        await asyncio.gather(warm.ready(), cold.ready())
        assert _held_in_worker(warm)[0] > 0, "warming filled the worker's caches"
        assert _held_in_worker(cold)[0] == 0, "a cold worker has drawn nothing"
        assert await drawn(cold, DrawRequest(view=view)) == focus(view).png
        assert await drawn(warm, DrawRequest(view=view)) == focus(view).png
    finally:
        warm.close()
        cold.close()
