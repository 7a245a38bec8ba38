"""A secret through discord.py (issue 28): the recorded HTTP requests show a sealed order's
content only in the ephemeral answer to its owner; the channel gets the seal's public line.

Shells (``tests/platform/shells.py``): each side hides a coin under a cup by a sealed
order (``/shells cup hide``), a subcommand of the group ``cup``.
"""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator, Iterator

import pytest

from bot.config import Settings
from bot.discord.client import RefereeClient
from bot.service import Service
from rules.core import registry
from tests.discord.conftest import feed_gateway, start_client
from tests.discord.dpy_harness import ALICE, BOB, RecordingAdapter, Sent, interaction_payload, open_png
from tests.platform.shells import SHELLS

DEFERRED = 5
_ids = itertools.count(500)


@pytest.fixture
async def bot(settings: Settings, recorder: RecordingAdapter) -> AsyncIterator[RefereeClient]:
    """The real tree on the real service, with Shells registered for this test only."""
    registry.register(SHELLS)
    client = RefereeClient(settings)
    service = await Service.open(settings)
    await start_client(client, service, defer_after=30.0, recorder=recorder)
    yield client
    await client.close()
    registry.unregister(SHELLS.key)


async def send(client: RefereeClient, recorder: RecordingAdapter, user: tuple[int, str],
               group: str, sub: str, options: dict | None = None) -> list[Sent]:
    start = len(recorder.sent)
    await feed_gateway(client, interaction_payload(group, sub, options, user=user,
                                                   interaction_id=next(_ids)))
    return recorder.sent[start:]


def private(sent: Sent, all_sent: list[Sent]) -> bool:
    """Whether only the invoker sees this request's message: it carries the ephemeral flag,
    or it fills in the placeholder of an interaction deferred ephemerally."""
    deferred_privately = {s.token for s in all_sent if s.kind == "callback" and s.ephemeral}
    return sent.ephemeral or (sent.kind == "edit_original" and sent.token in deferred_privately)


async def test_a_sealed_order_shows_its_secret_only_to_its_owner(bot: RefereeClient,
                                                                 recorder: RecordingAdapter) -> None:
    alice, bob = (ALICE, "Alice"), (BOB, "Bob")
    await send(bot, recorder, alice, "game", "new", {"system": "shells"})
    await send(bot, recorder, alice, "game", "join", {"side": "red"})
    await send(bot, recorder, bob, "game", "join", {"side": "blue"})
    sent = await send(bot, recorder, alice, "shells", "cup hide", {"cup": 2})
    # Deferred privately at once: no public "Alice used /shells cup hide" placeholder.
    assert sent[0].kind == "callback" and sent[0].payload["type"] == DEFERRED and sent[0].ephemeral
    secret = [s for s in sent if "cup 2" in s.content or "Your coin" in s.content]
    assert secret and all(private(s, recorder.sent) for s in secret)
    assert all(s.interaction_id == sent[0].interaction_id for s in secret)
    (public,) = [s for s in sent if s.kind == "channel_send"]
    assert "Red hid its coin (sealed: " in public.content and "cup hide 🔒" in public.content
    assert "(Posted late" not in public.content and public.pinged == [BOB]
    # Nothing anyone else received in the whole game so far names the cup.
    assert not [s for s in recorder.sent if "cup 2" in s.content and not private(s, recorder.sent)]
    # Bob's map is his own view, for him alone; it does not show Alice's coin.
    mine = await send(bot, recorder, bob, "game", "map")
    assert all(private(s, recorder.sent) for s in mine if s.content or s.files)
    (png,) = [p for s in mine for p in s.files.values()]
    open_png(png)
    # Bob hides too: his cup reaches him alone, the channel reads his seal.
    sent = await send(bot, recorder, bob, "shells", "cup hide", {"cup": 3})
    assert all(private(s, recorder.sent) for s in sent if "cup 3" in s.content)
    assert any("Blue hid its coin (sealed: " in s.content for s in sent if s.kind == "channel_send")
