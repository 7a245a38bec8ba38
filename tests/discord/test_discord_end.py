"""``/game end`` and ``/game export`` of a long game through discord.py (issue 13).

A Raid and Riposte game is played to 600 steps through the real service, 2,000 behind the
``slow`` marker (random legal orders; when it ends, a moderator rolls it back and play goes
on, so reverted steps are in the log too), then ended through the real command tree.  The
end must be deferred before any work, its log gzipped, the seed revealed, and the file must
verify with ``tools/verify_dice.py`` and replay with ``referee replay``.  After the end, ``/game export``
still gives the ended game's log, and ``/game export game:`` an older one.
"""

from __future__ import annotations

import gzip
import json
import random
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.autoplay import Channel
from bot.cli import main as referee
from bot.config import Settings
from bot.discord.client import RefereeClient
from bot.service import Service
from tests.discord.conftest import feed_gateway, start_client
from tests.discord.dpy_harness import (
    ALICE,
    BOB,
    CHANNEL_ID,
    MANAGE_CHANNELS,
    RecordingAdapter,
    interaction_payload,
)
from tests.seeds import slow_variant

DEFERRED = 5
CAROL = 700000000000000003
#: Steps played before the end: past the first game's end (~400 steps, then a rollback) in
#: the README's line; 2,000 (a log of several MB) behind ``slow``.
STEPS = 600
LONG = 2000
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
async def bot(settings: Settings, recorder: RecordingAdapter) -> AsyncIterator[RefereeClient]:
    """The real service and tree; the service is reachable as ``bot.service``."""
    client = RefereeClient(settings)
    service = await Service.open(settings)
    await start_client(client, service, defer_after=2.0, recorder=recorder)
    yield client
    await client.close()


async def play_steps(service: Service, steps: int, seed: int = 2) -> None:
    """Play rr in the test channel (robot players, straight into the service: fast) until
    its log holds ``steps`` steps; a finished game is rolled back and played on."""
    channel = Channel(service=service, system_key="rr", channel=str(CHANNEL_ID),
                      rng=random.Random(seed))
    await channel.open()
    while True:
        game = await service.games.load(channel.channel)
        assert game is not None
        if game.next_seq > steps:
            return
        inv = await channel.next_order()
        if inv is None:
            inv = channel.invocation(channel.moderator, ["mod", "rollback"],
                                     {"to": 5, "reason": "once more"}, moderator=True)
        reply = await channel.send(inv)
        # The random player may repeat an order the service limits (rr's standing orders,
        # three in a row); the next pick differs.  Anything else refused is a fault.
        assert not reply.error or "in a row" in reply.text, reply.text


async def send(bot: RefereeClient, recorder: RecordingAdapter, group: str, sub: str,
               options: dict | None = None, **kw) -> list:
    start = len(recorder.sent)
    await feed_gateway(bot, interaction_payload(group, sub, options, **kw))
    return recorder.sent[start:]


@slow_variant(STEPS, LONG, "steps")
async def test_ending_a_long_game_defers_and_sends_a_gzipped_log_that_verifies(
    bot: RefereeClient, recorder: RecordingAdapter, tmp_path: Path, steps: int
):
    # The whole-game HTML page is tested in tests/replay; drawing every step's map here would
    # only cost the suite time.
    bot.service.settings.html_at_end = False
    await play_steps(bot.service, steps)
    sent = await send(bot, recorder, "game", "end", user=(ALICE, "Alice"),
                      permissions=MANAGE_CHANNELS, interaction_id=1)
    # Deferred before any work: the callback is the first request, a "thinking" message.
    assert sent[0].kind == "callback" and sent[0].payload["type"] == DEFERRED
    assert not sent[0].ephemeral
    answer = sent[1]
    assert answer.kind == "followup" and answer.delivered
    assert "Dice seed: `" in answer.content
    # The log (the page to step through is off here, see above).
    [name] = [n for n in answer.files if n.endswith("-final.json.gz")]
    assert set(answer.files) == {name}
    data = answer.files[name]
    document = json.loads(gzip.decompress(data))
    assert len(document["steps"]) > steps and document["seed"]
    assert any(step["reverted_by"] for step in document["steps"])
    # Smaller than the plain log by far (the plain one is several MB).
    assert len(data) * 10 < len(gzip.decompress(data))
    path = tmp_path / name
    path.write_bytes(data)
    verified = subprocess.run([sys.executable, str(ROOT / "tools" / "verify_dice.py"), str(path)],
                              capture_output=True, text=True)
    assert verified.returncode == 0, verified.stdout
    assert "OK: the seed matches its hash" in verified.stdout
    assert referee(["replay", str(path)]) == 0
    # The interaction's stored answer is the text, not a second copy of the log.
    stored = await bot.service.store.answered(str(answer.interaction_id))
    assert stored is not None and len(stored) < 2000

    # The ended game stays exportable, privately, with its seed.
    again = await send(bot, recorder, "game", "export", user=(BOB, "Bob"), interaction_id=2)
    assert again[0].payload["type"] == DEFERRED and again[0].ephemeral
    ((again_name, again_data),) = again[1].files.items()
    assert again_name == name
    assert json.loads(gzip.decompress(again_data))["seed"] == document["seed"]


async def test_an_older_game_of_the_channel_is_exported_by_number(
    bot: RefereeClient, recorder: RecordingAdapter
):
    await play_steps(bot.service, 12)
    await send(bot, recorder, "game", "end", permissions=MANAGE_CHANNELS, interaction_id=1)
    await send(bot, recorder, "game", "new", {"system": "commando"}, interaction_id=2)
    current = await send(bot, recorder, "game", "export", interaction_id=3)
    ((name, _),) = current[-1].files.items()
    assert name == "commando-game2.json.gz"
    older = await send(bot, recorder, "game", "export", {"game": 1}, user=(BOB, "Bob"),
                       interaction_id=4)
    ((name, data),) = older[-1].files.items()
    assert name == "rr-game1-final.json.gz"
    assert json.loads(gzip.decompress(data))["seed"]
    missing = await send(bot, recorder, "game", "export", {"game": 99}, user=(CAROL, "Carol"),
                         interaction_id=5)
    assert missing[-1].ephemeral and "no game #99 in this channel" in missing[-1].content
    # Exports are big: one a minute per user and channel, said plainly.
    (busy,) = await send(bot, recorder, "game", "export", user=(BOB, "Bob"), interaction_id=6)
    assert busy.ephemeral and busy.content.startswith("/game export was used a lot here")
    assert "try again in 60 s" in busy.content
