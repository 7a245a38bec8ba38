"""``/game replay from: to:`` through the real service on a real SQLite file (issue 19,
item 5): a looping GIF, a frame per snapshot of the span, within Discord's upload limit."""

from __future__ import annotations

import io
import itertools
import shutil
from pathlib import Path

import pytest
from PIL import Image

from bot import replaycmds
from bot.config import Settings
from bot.models import Invocation
from bot.service import Service
from render.scene import FOCUS_MAX
from tests.replay.conftest import PlayedGame

_ids = itertools.count(1)


@pytest.fixture
async def service(hundred: PlayedGame, tmp_path: Path):
    """A service on a copy of the 100-order game (a test may roll it back)."""
    db = tmp_path / "copy.sqlite3"
    shutil.copy(hundred.db, db)
    svc = await Service.open(Settings(db=db, snapshot_dir=tmp_path / "snaps"))
    yield svc
    await svc.close()


async def replay(service: Service, channel: str, user: str = "watcher", **options):
    return await service.handle(Invocation(
        channel_id=channel, guild_id="g", user_id=user, user_name=user, command=["game", "replay"],
        options=options, interaction_id=f"replay-{next(_ids)}"))


async def pictured(service: Service, game_id: int, last: int) -> list[int]:
    steps = await service.store.steps(game_id)
    return [s.seq for s in replaycmds.shown_steps(steps) if s.seq <= last]


async def test_the_100_step_replay_is_one_gif_under_8_mb_with_a_frame_per_snapshot(service, hundred):
    reply = await replay(service, hundred.channel, to=100)
    assert not reply.error and not reply.ephemeral, reply.text
    [gif] = reply.attachments
    frames = await pictured(service, hundred.game_id, 100)
    assert gif.filename == f"rr-game{hundred.game_id}-steps0-{frames[-1]}.gif"
    assert len(gif.data) < 8 * 1024 * 1024, f"{len(gif.data) / 1e6:.1f} MB"
    image = Image.open(io.BytesIO(gif.data))
    assert image.format == "GIF" and image.n_frames == len(frames) > 50
    # Phone-width frames: the focus pictures, at most 750 px wide.
    assert image.width <= FOCUS_MAX
    assert f"steps #0–#{frames[-1]}" in reply.text and f"{len(frames)} maps" in reply.text


async def test_a_span_holds_only_the_snapshots_between_from_and_to(service, hundred):
    reply = await replay(service, hundred.channel, **{"from": 20, "to": 40})
    frames = [s for s in await pictured(service, hundred.game_id, 40) if s >= 20]
    assert Image.open(io.BytesIO(reply.attachments[0].data)).n_frames == len(frames)
    assert f"steps #{frames[0]}–#{frames[-1]}" in reply.text


async def test_steps_a_rollback_reverted_are_not_replayed(service, hundred):
    mod = await service.handle(Invocation(
        channel_id=hundred.channel, guild_id="g", user_id="mod", user_name="mod", is_moderator=True,
        command=["mod", "rollback"], options={"to": 30, "reason": "test"}, interaction_id="rb-1"))
    assert not mod.error, mod.text
    reply = await replay(service, hundred.channel)
    frames = await pictured(service, hundred.game_id, 30)
    assert Image.open(io.BytesIO(reply.attachments[0].data)).n_frames == len(frames)


@pytest.mark.parametrize("options, words", [
    ({"from": 5, "to": 3}, "comes before from:"),
    ({"from": 500}, "steps #0 to #100"),
    ("a step that drew no map", "No map was drawn"),
])
async def test_a_bad_span_gets_a_sentence_and_no_file(service, hundred, options, words):
    if isinstance(options, str):
        frames = await pictured(service, hundred.game_id, 100)
        quiet = next(seq for seq in range(1, 100) if seq not in frames)
        options = {"from": quiet, "to": quiet}
    reply = await replay(service, hundred.channel, **options)
    assert reply.error and reply.ephemeral and words in reply.text and not reply.attachments


async def test_too_many_maps_get_a_shorter_span_proposed(service, hundred, monkeypatch):
    monkeypatch.setattr(replaycmds, "MAX_FRAMES", 5)
    reply = await replay(service, hundred.channel)
    frames = await pictured(service, hundred.game_id, 100)
    assert reply.error and f"at most 5: ask for part of it, e.g. from:0 to:{frames[4]}" in reply.text


async def test_a_channel_without_a_game_is_told_so(service):
    reply = await replay(service, "empty-channel")
    assert reply.error and "no game in this channel" in reply.text
