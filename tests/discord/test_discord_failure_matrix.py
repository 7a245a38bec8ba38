"""Nothing lost on the Discord wire (issue 40): every failure kind on every delivery path.

A step is committed before its announcement goes out, so whatever the network or Discord
does to the requests that carry it, the announcement must reach the channel **exactly once**
(or be owed and go out with the channel's next reply), the next player must be pinged
exactly once, the map must be posted once, and the player must never read an apology for a
failure that was only the wire's.

The paths: a command answered at once, one deferred (the "thinking" placeholder), a button
pressed, a scheduled post (a reminder or a deadline), a turn digest, and the edit that
attaches the map.  The failures: ``asyncio.TimeoutError``, aiohttp's ``ClientOSError`` and a
bare ``ConnectionResetError`` (none of them a ``discord.HTTPException``), Discord's 500 and
503, a 503 or a timeout after Discord carried the request out, and 429.  Each is injected
once (the request is tried again) and for good (every request of that kind fails, and the
channel post too: the announcement is owed).

Real ``discord.Interaction``s dispatched by the real tree, HTTP replaced by the recorder.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import aiohttp
import pytest

from bot.answers import PREFIX
from bot.discord.client import RefereeClient
from bot.discord.scheduled import post
from bot.models import Reply
from tests.discord.conftest import feed_gateway, feed_press
from tests.discord.dpy_harness import (
    ALICE,
    BOB,
    CHANNEL_ID,
    FakeService,
    RecordingAdapter,
    Sent,
    component_payload,
    http_error,
    interaction_payload,
)

CAROL = (700000000000000003, "Carol")
#: The head of the announcement every case sends; counted in what reached the channel.
HEAD = "#7 Alice (nato): move units:M48-1 to:13"
ANNOUNCEMENT = f"{HEAD}\n➡️ Soviet impulse: soviet (<@{BOB}>)"

#: The failure kinds, as the network or Discord raises them.
KINDS: dict[str, Callable[[], Exception]] = {
    "timeout": lambda: asyncio.TimeoutError(),
    "client os error": lambda: aiohttp.ClientOSError(104, "Connection reset by peer"),
    "connection reset": lambda: ConnectionResetError(104, "Connection reset by peer"),
    "500": lambda: http_error(500, 0, "Internal Server Error"),
    "503": lambda: http_error(503, 0, "Service Unavailable"),
    "429": lambda: http_error(429, 0, "You are being rate limited."),
}
#: (kind, Discord carried the request out all the same, for good): the cases of each path.
CASES = ([(kind, False, False) for kind in KINDS]
         + [("503", True, False), ("timeout", True, False)]
         + [(kind, False, True) for kind in KINDS])
#: Each path and the kind of request that carries its announcement (or its map).
PATHS = {
    "answered": "callback",
    "deferred": "followup",
    "map edit": "edit_original",
    "pressed": "channel_send",
    "scheduled": "channel_send",
    "digest": "channel_send",
}
#: The edit that attaches the map carried out every time but answered with a failure: the
#: original response is looked up rather than the map posted again.
MATRIX_EDIT_DONE = [("map edit", kind, True, True) for kind in ("503", "timeout")]
MATRIX = [pytest.param(path, kind, anyway, down, 0.0 if path == "deferred" else 30.0, id=f"{path}-{kind}{'-done' if anyway else ''}"
                       f"{'-down' if down else ''}")
          for path, kind, anyway, down in [(p, *case) for p in PATHS for case in CASES] + MATRIX_EDIT_DONE]


def announcement() -> Reply:
    """Alice's order: its announcement pings Bob (the next player) and names a map."""
    return Reply(text=ANNOUNCEMENT, mentions=[str(ALICE), str(BOB)], snapshot_key="g1:7")


class PressService(FakeService):
    """The scripted service, with a press that sends Alice's order."""

    async def press(self, inv: Any, token: str, value: str | None = None) -> Reply:
        """The order chosen with the button: announced like the slash command's."""
        self.handled.append(inv)
        return announcement().model_copy(update={"chosen": "Alice chose: move M48-1 to 13"})


def inject(recorder: RecordingAdapter, target: str, kind: str, anyway: bool, down: bool) -> None:
    """Fail the request that carries the announcement: once, or for good (the channel post
    that stands in for it too, so the announcement can only be owed)."""
    times = 99 if down else 1
    recorder.fail(target, KINDS[kind](), times=times, done_anyway=anyway)
    if down and target != "channel_send":
        recorder.fail("channel_send", KINDS[kind](), times=times)


async def act(path: str, client: RefereeClient, service: PressService) -> None:
    """Alice's order (or the bot's own post) down ``path``."""
    if path in ("answered", "deferred", "map edit"):
        await feed_gateway(client, interaction_payload(
            "rr", "move", {"units": "M48-1", "to": "13"}, interaction_id=1))
    elif path == "pressed":
        question = {"id": "4242", "channel_id": str(CHANNEL_ID), "type": 0,
                    "content": "Your order?", "tts": False, "pinned": False,
                    "timestamp": "2026-01-01T00:00:00+00:00", "edited_timestamp": None,
                    "mention_everyone": False, "mentions": [], "mention_roles": [],
                    "attachments": [], "embeds": [], "flags": 0, "components": [],
                    "author": {"id": str(ALICE), "username": "referee", "discriminator": "0",
                               "avatar": None, "bot": True}}
        await feed_press(client, component_payload(f"{PREFIX}:t1", question, interaction_id=1))
    else:
        reply = announcement().model_copy(update={"mentions": [str(BOB)]})
        if path == "digest":
            reply = reply.model_copy(update={"text": f"📰 Turn 1 digest (steps 1-7)\n{ANNOUNCEMENT}"})
        await post(client, service, str(CHANNEL_ID), reply)


def reached(recorder: RecordingAdapter) -> list[Sent]:
    """The public requests that put the announcement in the channel."""
    return [s for s in recorder.sent if s.delivered and HEAD in s.content and not s.ephemeral
            and s.kind in ("callback", "followup", "channel_send", "edit_original")]


def maps(recorder: RecordingAdapter) -> list[tuple[str, str | None, int]]:
    """The maps shown in the channel: one per message created with it, and one per message
    edited to carry it, however often the same edit was made (it sets the attachments)."""
    shown = {(s.path, s.token, 0 if s.kind.startswith(("edit", "channel_edit")) else n)
             for n, s in enumerate(recorder.sent) if s.delivered and "map.png" in s.files}
    return sorted(shown, key=str)


@pytest.fixture
def fake_service() -> PressService:
    """The scripted service, pressable."""
    return PressService()


@pytest.mark.parametrize(("path", "kind", "anyway", "down", "defer_after"), MATRIX)
async def test_every_failure_on_every_path_loses_nothing(
    fake_bot: RefereeClient, fake_service: PressService, recorder: RecordingAdapter,
    caplog: pytest.LogCaptureFixture, defer_after: float, path: str, kind: str,
    anyway: bool, down: bool,
) -> None:
    fake_service.replies["rr move"] = announcement()
    caplog.set_level(logging.INFO)
    inject(recorder, PATHS[path], kind, anyway, down)
    await act(path, fake_bot, fake_service)
    # The channel's next reply: a spectator's status carries whatever was owed.
    recorder.failures.clear()
    await feed_gateway(fake_bot, interaction_payload("game", "status", user=CAROL, interaction_id=2))

    shown = [(s.kind, s.content[:40]) for s in recorder.sent]
    assert len(reached(recorder)) == 1, shown
    assert [user for user, _ in recorder.pings()].count(BOB) == 1, shown
    assert ALICE not in [user for user, _ in recorder.pings()]
    assert len(maps(recorder)) == 1, shown
    assert fake_service.owed_replies == {}
    # No apology and no traceback: the wire's failures are ours to absorb.
    assert not any("Sorry" in s.content or "incident" in s.content for s in recorder.sent)
    words = [r.getMessage() for r in caplog.records]
    assert not any("Ignoring exception" in w or "incident" in w for w in words), words


WIRE = ["timeout", "client os error", "connection reset"]


@pytest.mark.parametrize("kind", WIRE)
async def test_a_press_whose_acknowledgement_is_lost_on_the_wire_changes_nothing_quietly(
    fake_bot: RefereeClient, fake_service: PressService, recorder: RecordingAdapter,
    caplog: pytest.LogCaptureFixture, kind: str,
) -> None:
    """The deferred update of a press fails: nothing was done (the order is not sent), and
    discord.py logs no "Ignoring exception in on_interaction"."""
    recorder.fail("callback", KINDS[kind]())
    await act("pressed", fake_bot, fake_service)
    assert fake_service.handled == [] and [s.kind for s in recorder.sent] == ["callback"]
    assert not any("Ignoring exception" in r.getMessage() for r in caplog.records)


@pytest.mark.parametrize("kind", WIRE)
async def test_an_apology_lost_on_the_wire_is_only_logged(
    fake_bot: RefereeClient, fake_service: PressService, recorder: RecordingAdapter,
    caplog: pytest.LogCaptureFixture, kind: str,
) -> None:
    """The tree's error handler cannot send its sentence (the wire failed): it logs it, and
    the failure does not escape into discord.py's "Ignoring exception" either."""
    fake_service.errors["rr move"] = RuntimeError("a bug of ours")
    recorder.fail("callback", KINDS[kind]())
    await act("answered", fake_bot, fake_service)
    assert [s.kind for s in recorder.sent] == ["callback"]
    words = [r.getMessage() for r in caplog.records]
    assert any("could not send the error" in w for w in words), words
    assert not any("Ignoring exception" in w for w in words), words


@pytest.mark.parametrize("defer_after", [0.0])
@pytest.mark.parametrize("anyway", [False, True], ids=["lost", "made anyway"])
@pytest.mark.parametrize("kind", [*WIRE, "503"])
async def test_a_defer_lost_on_the_wire_leaves_no_placeholder_and_loses_nothing(
    fake_bot: RefereeClient, fake_service: PressService, recorder: RecordingAdapter,
    defer_after: float, kind: str, anyway: bool,
) -> None:
    """The "thinking" defer of a slow command fails: made anyway, the reply replaces the
    placeholder (looked up); not made, the reply is the initial response.  Either way the
    step is announced once, Bob pinged once, and no placeholder is left to expire."""
    fake_service.replies["rr move"] = announcement()
    fake_service.delay = 0.01  # still running when the 0 s allowed are up: deferred
    recorder.fail("callback", KINDS[kind](), done_anyway=anyway)
    await act("answered", fake_bot, fake_service)
    shown = [(s.kind, s.delivered, s.content[:30]) for s in recorder.sent]
    assert recorder.sent[0].payload["type"] == 5, shown  # the defer is what failed
    assert len(reached(recorder)) == 1, shown
    assert [user for user, _ in recorder.pings()].count(BOB) == 1, shown
    assert len(maps(recorder)) == 1, shown
    placeholder = recorder.sent[0]
    if anyway:
        assert any(s.kind in ("followup", "delete_original") and s.delivered
                   for s in recorder.sent if s.token == placeholder.token), shown
