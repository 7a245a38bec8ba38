"""Issue 23: a picture builds one view, its own step's.  "What changed since your last order"
compares with the facts of earlier steps' views kept by ``bot/seen.py`` (a step row never
changes, a view is a pure function of its state); here, through the real service on a real
SQLite file, every picture's changes must equal those computed from scratch out of the whole
log, and a picture whose earlier steps were all drawn must build exactly one view.

The views and the changes are the production path; the picture drawn from a view is a small
real PNG here (what is checked is which views were built and what changes they mark; every
system's pictures are drawn for real in the other tests of ``tests/render``)."""

from __future__ import annotations

import hashlib
import random
from pathlib import Path
from typing import Any, AsyncIterator

import pytest

import render
from bot.autoplay import Channel
from bot.config import Settings
from bot.seen import SeenSteps
from bot.service import Service
from rules.core.dice import seed_hash
from rules.core.views import changes_over
from tests.discord.dpy_harness import png_bytes
from tests.seeds import slow_variant


def compared_with(log: list[Any], step: Any, side: str) -> list[Any]:
    """The steps "what changed" for ``side`` reads: its last order before ``step`` and
    every step since (none when it gave no order yet)."""
    live = [s for s in log if s.reverted_by is None and s.seq < step.seq]
    mine = [s for s in live if s.side == side and s.action is not None]
    return [mine[-1], *(s for s in live if s.seq > mine[-1].seq)] if mine else []


def from_scratch(system: Any, log: list[Any], step: Any, side: str) -> list[Any]:
    """The changes as ``Pipeline.changes_since`` computed them before the facts were kept:
    a view of the side's last order, of every step since, and of ``step``."""
    steps = compared_with(log, step, side)
    if not steps:
        return []

    def view(row: Any) -> Any:
        return system.view(system.load_state(row.state_json))

    return changes_over(view(steps[0]), (view(s) for s in steps[1:]), view(step))


@pytest.fixture
def stand_in_pictures(monkeypatch: pytest.MonkeyPatch) -> None:
    """Both pictures (the focus picture and a new turn's whole map) drawn as one small PNG:
    the view is built and handed over as in production, its pixels are not computed."""
    shot = type("Shot", (), {"png": png_bytes()})()
    monkeypatch.setattr(render, "focus", lambda view: shot)
    monkeypatch.setattr(render, "snapshot", lambda view: shot)


async def pictures(service: Service, channel: Channel, orders: int,
                   built: list[int]) -> AsyncIterator[tuple[Any, list[Any], int, bool]]:
    """Play up to ``orders`` orders; for each picture drawn (``attach_snapshot``, as the
    Discord adapter calls it): its step, the whole log, the views it built, and whether it
    is the whole map a new turn posts (which compares nothing)."""
    for _ in range(orders):
        inv = await channel.next_order()
        if inv is None:
            return
        reply = await service.handle(inv)
        assert not reply.error, reply.text
        if not reply.snapshot_key or reply.snapshot_key.endswith(":map"):
            continue
        game_id, seq = (int(x) for x in reply.snapshot_key.split(":")[:2])
        before = built[0]
        drawn = await service.attach_snapshot(reply)
        log = await service.store.steps(game_id)
        yield (next(s for s in log if s.seq == seq), log, built[0] - before,
               drawn.attachments[-1].filename.endswith("-map.png"))


# 60 orders in the README's line (some 60 pictures compared, 24 with one view: the floors
# below are passed by order 30), 160 behind ``slow``.
@slow_variant(60, 160, "orders")
async def test_every_picture_marks_the_same_changes_with_one_view(tmp_path: Path, orders: int,
                                                                  stand_in_pictures: None) -> None:
    service = await Service.open(Settings(db=tmp_path / "seen.sqlite3", snapshot_dir=tmp_path / "s",
                                          render_wait=120))  # each picture waited for: it is counted
    try:
        channel = Channel(service, "rr", "seen-chan", rng=random.Random(5))
        await channel.open()
        system = service.systems["rr"]
        real_view, built = system.view, [0]

        def counted(state: Any) -> Any:
            built[0] += 1
            return real_view(state)

        system.view = counted  # type: ignore[method-assign]
        compared = one_view = 0
        known: set[int] = set()  # steps whose views were built once: drawn or compared
        async for step, log, views, _ in pictures(service, channel, orders, built):
            seq = step.seq
            pinged = system.waiting_on(system.load_state(step.state_json))[0]
            new = {s.seq for s in compared_with(log, step, pinged)} - known
            assert views <= 1 + len(new), f"step {seq}: {views} views"
            if not new:
                assert views == 1, f"picture of step {seq} built {views} views"
                one_view += 1
            known.add(seq)
            for side in system.sides:
                known |= {s.seq for s in compared_with(log, step, side)}
                kept = await service.pipeline.changes_since("rr", step, side, view=real_view(system.load_state(step.state_json)))
                assert kept == from_scratch(system, log, step, side)
                compared += bool(kept)
        assert compared > 10 and one_view > 5
    finally:
        del system.view
        await service.close()


async def test_a_step_never_drawn_is_viewed_once_from_its_stored_state(tmp_path: Path) -> None:
    service = await Service.open(Settings(db=tmp_path / "miss.sqlite3", snapshot_dir=tmp_path / "s",
                                          render_wait=120))  # each picture waited for: it is counted
    try:
        channel = Channel(service, "rr", "miss-chan", rng=random.Random(2))
        await channel.open()
        for _ in range(6):
            inv = await channel.next_order()
            assert inv is not None
            await service.handle(inv)
        game = await service.games.load("miss-chan")
        assert game is not None
        row = (await service.store.log_steps(game.row.id, last=1))[0]
        assert row.state_json == ""  # read without its state
        seen = SeenSteps(size=2)
        first = await seen.of(service.store, game.system, row)
        assert await seen.of(service.store, game.system, row) is first  # kept, not rebuilt
        stored = await service.store.step(game.row.id, row.seq)
        assert stored is not None
        assert first.units  # the units of the stored state, read back
        for seq in (row.seq - 1, row.seq - 2):  # two more: the first one is dropped (size 2)
            other = await service.store.step(game.row.id, seq)
            assert other is not None
            await seen.of(service.store, game.system, other)
        assert await seen.of(service.store, game.system, row) is not first
    finally:
        await service.close()


#: Orders played per game: Commando's and Skirmish's games end well before 400 (a picture
#: every few activations: few pictures).  Raid and Riposte draws every step, ~280 pictures
#: in its whole game; its first 200 orders hold 190 pictures, 7 with steps in between and
#: 12 whose last order was never drawn, and the whole game runs behind ``slow``.
WHOLE = 400


@pytest.mark.parametrize(("key", "orders"), [
    pytest.param("commando", WHOLE, id="commando"),
    pytest.param("skirmish", WHOLE, id="skirmish"),
    pytest.param("rr", 200, id="rr"),
    pytest.param("rr", WHOLE, id="rr-whole-game", marks=pytest.mark.slow),
])
async def test_steps_in_between_cost_no_view_where_the_system_reads_fire_from_its_state(
        tmp_path: Path, key: str, orders: int, monkeypatch: pytest.MonkeyPatch,
        stand_in_pictures: None) -> None:
    """Commando and Skirmish post a picture every few activations; of the steps in between
    only who fired is read, and of the side's last order what it showed, both from their
    stored states (``GameSystem.fired``, ``GameSystem.seen``), so every picture builds its
    own view only, and marks the same changes as views of the whole log would."""
    # The dice are seeded as well as the picks: one game every run (a new game's secret seed
    # made it another game each time, now and then too short to hold enough pictures).
    dice = hashlib.sha256(f"seen-steps-{key}".encode()).digest()
    monkeypatch.setattr("bot.gamecmds.new_seed", lambda: (dice, seed_hash(dice)))
    service = await Service.open(Settings(db=tmp_path / f"{key}.sqlite3", snapshot_dir=tmp_path / "s",
                                          render_wait=120))  # each picture waited for: it is counted
    system = service.systems[key]
    real_view, built = system.view, [0]

    def counted(state: Any) -> Any:
        built[0] += 1
        return real_view(state)

    try:
        channel = Channel(service, key, f"{key}-chan", rng=random.Random(4))
        await channel.open()
        system.view = counted  # type: ignore[method-assign]
        drawn = skipped = unseen = 0
        known: set[int] = set()  # steps whose views were built: drawn, or a last order
        async for step, log, views, whole in pictures(service, channel, orders, built):
            seq = step.seq
            if whole:  # its view is kept, compared with nothing
                assert views == 1
                known.add(seq)
                continue
            pinged = system.waiting_on(system.load_state(step.state_json))
            steps = compared_with(log, step, pinged[0]) if pinged else []
            assert views == 1, f"step {seq}: {views} views"
            drawn += 1
            skipped += len(steps) > 2  # steps in between that drew nothing, and cost no view
            unseen += bool(steps) and steps[0].seq not in known  # nor did the last order
            known |= {seq, *(s.seq for s in steps[:1])}
            for side in system.sides:
                kept = await service.pipeline.changes_since(key, step, side, view=real_view(system.load_state(step.state_json)))
                assert kept == from_scratch(system, log, step, side)
                known |= {s.seq for s in compared_with(log, step, side)[:1]}
        assert drawn > 5 and skipped > 3, (drawn, skipped)
        # A Commando side's last order before a picture ends its turn, which draws one itself.
        assert unseen > 0 or key == "commando", (drawn, unseen)
    finally:
        if "view" in vars(system):
            del system.view
        await service.close()


@pytest.mark.parametrize("key", ["commando", "skirmish"])
async def test_a_picture_reads_no_stored_state_for_what_its_games_commits_left(
        tmp_path: Path, key: str, monkeypatch: pytest.MonkeyPatch, stand_in_pictures: None) -> None:
    """Issue 41: who fired at the steps between and the side's last order are kept as the
    game goes (``LiveGame.made``, from the states the commits computed), so a picture of a
    game its own process played reads no stored state, and marks the changes
    views of the whole log give."""
    dice = hashlib.sha256(f"made-{key}".encode()).digest()
    monkeypatch.setattr("bot.gamecmds.new_seed", lambda: (dice, seed_hash(dice)))
    service = await Service.open(Settings(db=tmp_path / f"{key}.sqlite3", snapshot_dir=tmp_path / "s",
                                          render_wait=120))
    system = service.systems[key]
    reads: list[str] = []
    for name in ("step", "states"):
        real = getattr(service.store, name)

        async def counted(*args: Any, _real: Any = real, _name: str = name, **kwargs: Any) -> Any:
            reads.append(_name)
            return await _real(*args, **kwargs)

        monkeypatch.setattr(service.store, name, counted)
    try:
        channel = Channel(service, key, f"{key}-made", rng=random.Random(4))
        await channel.open()
        compared = between = 0
        for _ in range(WHOLE):
            inv = await channel.next_order()
            if inv is None:
                break
            reply = await service.handle(inv)
            if not reply.snapshot_key or reply.snapshot_key.endswith(":map"):
                continue
            reads.clear()
            drawn = await service.attach_snapshot(reply)
            if drawn.attachments[-1].filename.endswith("-map.png"):
                continue
            assert reads == [], f"{reply.snapshot_key}: read {reads}"
            game = await service.games.load(f"{key}-made")
            assert game is not None
            game_id, seq = (int(x) for x in reply.snapshot_key.split(":")[:2])
            log = await service.store.steps(game_id)
            step = next(s for s in log if s.seq == seq)
            pinged = system.waiting_on(game.state)
            if not pinged:
                continue
            steps = compared_with(log, step, pinged[0])
            kept = await service.pipeline.changes_since(key, step, view=system.view(game.state),
                                                        state=game.state, game=game)
            assert kept == from_scratch(system, log, step, pinged[0])
            compared += bool(kept)
            between += len(steps) > 2
        assert compared > 3 and between > 2, (compared, between)
    finally:
        await service.close()
