"""The delivery paths one by one, on the scripted service (issue 13).

A reply that cannot go out is posted with ``channel.send`` or owed to the channel's next
reply; missing permissions are said plainly; the defer deadline counts from the
interaction's creation; a shutdown lets commands in flight finish; cooldowns answer
"try again in N s"; the moderator role may be named by id; names are Markdown escaped.
"""

from __future__ import annotations

import asyncio
import datetime
from pathlib import Path

import discord
import pytest

from bot.config import Settings
from bot.discord.client import RefereeClient, intents
from bot.models import Reply
from tests.discord.conftest import feed_gateway, start_client
from tests.discord.dpy_harness import (
    ALICE,
    BOB,
    FAILURES,
    MOD_ROLE_ID,
    ATTACH_FILES,
    BOT_PERMISSIONS,
    SEND_MESSAGES,
    VIEW_CHANNEL,
    FakeService,
    interaction_payload,
)

CAROL = (700000000000000003, "Carol")
ANSWERED, DEFERRED_MESSAGE = 4, 5


def bob_to_act(fake_service: FakeService) -> None:
    """Alice's order whose reply pings Bob (and, wrongly, Alice: she must not be pinged)."""
    fake_service.replies["rr move"] = Reply(
        text="#7 Alice (nato): move units:M48-1 to:13\n➡️ Soviet impulse: soviet (@Bob)",
        mentions=[str(ALICE), str(BOB)], snapshot_key="g1:7",
    )


async def test_the_invoker_is_never_pinged(feed, fake_service, recorder):
    bob_to_act(fake_service)
    await feed(interaction_payload("rr", "move", {"units": "M48-1", "to": "13"}))
    answer = recorder.sent[0]
    assert answer.pinged == [BOB] and answer.creates
    assert answer.message["allowed_mentions"]["users"] == [BOB]


async def test_a_refused_reply_is_posted_to_the_channel_with_its_ping(feed, fake_service, recorder):
    """10062: the step is committed, the interaction gone; channel.send carries it."""
    bob_to_act(fake_service)
    recorder.fail("callback", FAILURES["10062 unknown interaction"]())
    await feed(interaction_payload("rr", "move", {"units": "M48-1", "to": "13"}))
    kinds = [(s.kind, s.delivered) for s in recorder.sent]
    assert kinds[:2] == [("callback", False), ("channel_send", True)]
    posted = recorder.sent[1]
    assert posted.content.startswith("#7 Alice (nato): move") and posted.pinged == [BOB]
    # The map follows in the channel too.
    assert [s.kind for s in recorder.sent[2:]] == ["channel_send"]
    assert list(recorder.sent[2].files) == ["map.png"]
    assert fake_service.owed_replies == {}


async def test_an_owed_announcement_goes_out_with_the_next_reply_and_pings_then(
    feed, fake_service, recorder
):
    bob_to_act(fake_service)
    recorder.fail("callback", FAILURES["10062 unknown interaction"]())
    recorder.fail("channel_send", FAILURES["50013 missing permissions"]())
    await feed(interaction_payload("rr", "move", {"units": "M48-1", "to": "13"}, interaction_id=1))
    assert not any(s.delivered for s in recorder.sent)
    ((_, owed),) = fake_service.owed_replies.values()
    assert owed.mentions == [str(BOB)]
    # Carol, a spectator, looks at the status: her reply first, then the owed announcement,
    # a new message (a follow-up after an answered interaction) that pings Bob once.
    start = len(recorder.sent)
    await feed(interaction_payload("game", "status", user=CAROL, interaction_id=2))
    status, late = recorder.sent[start:]
    assert status.kind == "callback" and status.pinged == []
    # A new message in the channel, with a nonce (not posted twice), and its map (issue 25).
    assert late.kind == "channel_send" and late.creates and late.payload["enforce_nonce"]
    assert late.content.startswith("(Posted late") and "#7 Alice (nato): move" in late.content
    assert late.pinged == [BOB] and list(late.files) == ["map.png"]
    assert fake_service.owed_replies == {}
    # Delivered once: the next reply carries nothing more.
    start = len(recorder.sent)
    await feed(interaction_payload("game", "status", user=CAROL, interaction_id=3))
    assert len(recorder.sent) == start + 1


async def test_an_owed_ping_is_not_sent_to_the_player_who_acts_next(feed, fake_service, recorder):
    bob_to_act(fake_service)
    recorder.fail("callback", FAILURES["10062 unknown interaction"]())
    recorder.fail("channel_send", FAILURES["503 server error"](), times=2)  # and its retry
    await feed(interaction_payload("rr", "move", {"units": "M48-1", "to": "13"}, interaction_id=1))
    start = len(recorder.sent)
    await feed(interaction_payload("game", "status", user=(BOB, "Bob"), interaction_id=2))
    late = recorder.sent[-1]
    assert late.content.startswith("(Posted late") and late.pinged == []
    assert len(recorder.sent) == start + 2


async def test_a_refused_map_edit_posts_the_map_to_the_channel(feed, fake_service, recorder):
    """50013 on the edit that attaches the map: the text and ping already went out; the map
    follows as a message of its own, not lost (issue 25)."""
    bob_to_act(fake_service)
    recorder.fail("edit_original", FAILURES["50013 missing permissions"]())
    await feed(interaction_payload("rr", "move", {"units": "M48-1", "to": "13"}))
    kinds = [(s.kind, s.delivered) for s in recorder.sent]
    assert kinds == [("callback", True), ("edit_original", False), ("channel_send", True)]
    assert recorder.sent[0].pinged == [BOB]
    assert list(recorder.sent[2].files) == ["map.png"] and recorder.sent[2].pinged == []


@pytest.mark.parametrize("failure", ["10062 unknown interaction", "10015 unknown webhook"])
async def test_a_map_whose_token_died_goes_to_the_channel(feed, fake_service, recorder, failure):
    """10062/10015 on the edit: the follow-up that used to say so died with the token; the
    map goes to the channel."""
    bob_to_act(fake_service)
    recorder.fail("edit_original", FAILURES[failure]())
    await feed(interaction_payload("rr", "move", {"units": "M48-1", "to": "13"}))
    assert [s.kind for s in recorder.sent] == ["callback", "edit_original", "channel_send"]
    assert list(recorder.sent[2].files) == ["map.png"]


async def test_a_map_that_cannot_be_posted_is_owed_and_comes_with_the_next_reply(
    feed, fake_service, recorder
):
    bob_to_act(fake_service)
    recorder.fail("edit_original", FAILURES["10015 unknown webhook"]())
    # The map and its retry, then the owed map tried again at the end of the same command.
    recorder.fail("channel_send", FAILURES["503 server error"](), times=4)
    await feed(interaction_payload("rr", "move", {"units": "M48-1", "to": "13"}, interaction_id=1))
    ((_, owed),) = fake_service.owed_replies.values()
    assert owed.snapshot_key == "g1:7" and owed.mentions == []
    start = len(recorder.sent)
    await feed(interaction_payload("game", "status", user=CAROL, interaction_id=2))
    late = recorder.sent[-1]
    assert len(recorder.sent) == start + 2 and late.kind == "channel_send"
    assert "The map of the step announced above" in late.content
    assert list(late.files) == ["map.png"] and fake_service.owed_replies == {}


@pytest.mark.parametrize("defer_after", [0.0])
async def test_deferred_the_ping_is_posted_once_even_after_a_503_that_went_through(
    feed, fake_service, recorder, defer_after
):
    """After a defer, text and map replace the placeholder; the ping is its own message,
    posted with a nonce.  Discord creates it but answers 503: sent again with the same nonce,
    it is not created twice, so Bob is pinged once (issue 25)."""
    bob_to_act(fake_service)
    fake_service.delay = 0.05
    recorder.fail("channel_send", FAILURES["503 server error"](), done_anyway=True)
    await feed(interaction_payload("rr", "move", {"units": "M48-1", "to": "13"}))
    kinds = [(s.kind, s.creates) for s in recorder.sent]
    assert kinds == [("callback", False), ("followup", False), ("channel_send", True),
                     ("channel_send", False)]
    edit = recorder.sent[1]
    assert edit.pinged == [] and list(edit.files) == ["map.png"]
    first, again = recorder.sent[2:]
    assert first.payload["nonce"] == again.payload["nonce"] and first.payload["enforce_nonce"]
    assert first.content == f"<@{BOB}>" and [u for u, s in recorder.pings() if s.creates] == [BOB]
    assert not any(s.content.startswith("#7") for s in recorder.sent[2:])


@pytest.mark.parametrize("defer_after", [0.0])
async def test_deferred_a_503_on_the_answer_that_went_through_is_not_posted_again(
    feed, fake_service, recorder, defer_after
):
    """The follow-up that replaces the placeholder is carried out but answered 503: the
    original response, no longer "thinking", says so; nothing is posted twice."""
    bob_to_act(fake_service)
    fake_service.delay = 0.05
    recorder.fail("followup", FAILURES["503 server error"](), done_anyway=True)
    await feed(interaction_payload("rr", "move", {"units": "M48-1", "to": "13"}))
    assert [s.kind for s in recorder.sent] == ["callback", "followup", "get_original",
                                               "channel_send"]
    assert recorder.sent[3].content == f"<@{BOB}>"
    shown = [s for s in recorder.sent if s.delivered and s.content.startswith("#7")]
    assert len(shown) == 1


@pytest.mark.parametrize("defer_after", [0.0])
@pytest.mark.parametrize("failure", ["503 server error", "429 rate limited",
                                     "50013 missing permissions"])
async def test_deferred_an_answer_posted_to_the_channel_deletes_the_placeholder(
    feed, fake_service, recorder, defer_after, failure
):
    """The answer could not replace the public "thinking" placeholder: it goes to the
    channel, and the placeholder is deleted rather than left to expire (issue 25)."""
    bob_to_act(fake_service)
    fake_service.delay = 0.05
    recorder.fail("followup", FAILURES[failure]())
    await feed(interaction_payload("rr", "move", {"units": "M48-1", "to": "13"}))
    kinds = [s.kind for s in recorder.sent if s.delivered]
    assert "delete_original" in kinds
    posted = [s for s in recorder.sent if s.kind == "channel_send" and s.delivered]
    assert posted[0].content.startswith("#7 Alice (nato): move") and posted[0].pinged == [BOB]
    assert [list(s.files) for s in posted if s.files] == [["map.png"]]
    assert sum(s.content.startswith("#7") for s in recorder.sent if s.delivered) == 1


async def test_a_missing_attach_files_permission_is_said_and_no_map_is_tried(
    feed, fake_service, recorder
):
    bob_to_act(fake_service)
    await feed(interaction_payload("rr", "move", {"units": "M48-1", "to": "13"},
                                   app_permissions=SEND_MESSAGES | VIEW_CHANNEL))
    (answer,) = recorder.sent
    assert "I lack the Attach Files permission in this channel" in answer.content
    assert answer.pinged == [BOB]


async def test_a_missing_send_messages_permission_is_said_on_public_replies(
    feed, fake_service, recorder
):
    await feed(interaction_payload("game", "status", app_permissions=ATTACH_FILES | VIEW_CHANNEL))
    assert "I lack the Send Messages permission in this channel" in recorder.sent[0].content


def test_the_readme_permissions_integer_is_what_the_bot_is_tested_with():
    assert "`274877942784`" in Path("README.md").read_text()
    assert BOT_PERMISSIONS == 274877942784


def created(seconds_ago: float, test_id: int = 1) -> dict:
    """A payload whose interaction Discord created ``seconds_ago``."""
    payload = interaction_payload("game", "status", interaction_id=test_id)
    when = discord.utils.utcnow() - datetime.timedelta(seconds=seconds_ago)
    real = discord.utils.time_snowflake(when) + test_id
    payload["id"], payload["token"] = str(real), f"token-{real}"
    return payload


@pytest.mark.parametrize("defer_after", [2.0])
async def test_the_defer_deadline_counts_from_the_interactions_creation(
    feed, fake_service, recorder, defer_after
):
    """Created 1.9 s ago: 0.1 s is left of the 2 s, so a 0.3 s command is deferred."""
    fake_service.delay = 0.3
    await feed(created(1.9))
    assert recorder.sent[0].payload["type"] == DEFERRED_MESSAGE


@pytest.mark.parametrize("defer_after", [2.0])
async def test_a_fresh_interaction_is_answered_without_deferring(
    feed, fake_service, recorder, defer_after
):
    fake_service.delay = 0.3
    await feed(created(0.0))
    assert recorder.sent[0].payload["type"] == ANSWERED


async def test_close_waits_for_commands_in_flight_then_closes_the_database(
    settings, fake_service, recorder
):
    client = await start_client(RefereeClient(settings), fake_service, defer_after=30.0,
                                recorder=recorder)
    fake_service.delay = 0.3
    order: list[str] = []
    closing = fake_service.close

    async def close_service() -> None:
        order.append("database")
        await closing()

    fake_service.close = close_service  # type: ignore[method-assign]
    running = asyncio.create_task(feed_gateway(client, interaction_payload("game", "status")))
    await asyncio.sleep(0.05)
    await client.close()
    order_done = [s.kind for s in recorder.sent]
    await running
    # The reply went out before the HTTP session and the database were closed.
    assert order_done == ["callback"] and recorder.sent[0].delivered
    assert order == ["database"] and fake_service.closed


async def test_a_command_arriving_during_shutdown_is_turned_away(settings, fake_service, recorder):
    client = await start_client(RefereeClient(settings), fake_service, defer_after=30.0,
                                recorder=recorder)
    client.in_flight.closing = True
    await feed_gateway(client, interaction_payload("game", "status"))
    (sent,) = recorder.sent
    assert sent.ephemeral and "restarting" in sent.content
    assert fake_service.handled == []
    await client.close()


async def test_map_cooldown_says_when_to_try_again(feed, fake_service, recorder):
    for n in (1, 2):
        await feed(interaction_payload("game", "map", interaction_id=n))
    start = len(recorder.sent)
    await feed(interaction_payload("game", "map", interaction_id=3))
    (busy,) = recorder.sent[start:]
    assert busy.ephemeral
    assert busy.content.startswith("/game map was used a lot here just now; try again in ")
    assert len(fake_service.handled) == 2
    # Per user and channel: Bob is not held back by Alice.
    await feed(interaction_payload("game", "map", user=(BOB, "Bob"), interaction_id=4))
    assert len(fake_service.handled) == 3


async def test_the_moderator_role_may_be_given_by_id(tmp_path, fake_service, recorder):
    settings = Settings(db=tmp_path / "r.sqlite3", moderator_role=str(MOD_ROLE_ID))
    client = await start_client(RefereeClient(settings), fake_service, defer_after=30.0,
                                recorder=recorder)
    await feed_gateway(client, interaction_payload("mod", "reroll", {"reason": "x"},
                                                   roles=(MOD_ROLE_ID,), interaction_id=1))
    await feed_gateway(client, interaction_payload("mod", "reroll", {"reason": "x"},
                                                   roles=(123,), interaction_id=2))
    assert [inv.is_moderator for inv in fake_service.handled] == [True, False]
    await client.close()


async def test_user_names_are_markdown_escaped(feed, fake_service, recorder):
    await feed(interaction_payload("game", "status", user=(ALICE, "*Al_ice*")))
    assert fake_service.handled[0].user_name == "\\*Al\\_ice\\*"


async def test_a_direct_message_is_marked_so_the_service_refuses_it(feed, fake_service, recorder):
    await feed(interaction_payload("game", "status", dm=True))
    (inv,) = fake_service.handled
    assert inv.private_channel and inv.guild_id is None


def test_the_client_asks_for_the_guilds_intent_only_and_keeps_no_messages(settings):
    client = RefereeClient(settings)
    assert client.intents == discord.Intents(guilds=True) == intents()
    assert client._connection.max_messages is None  # noqa: SLF001 - no public reader
    assert isinstance(client, discord.AutoShardedClient)
    assert client.shard_count is None and client.shard_ids is None


def test_shard_settings_run_a_subset_of_shards(tmp_path):
    settings = Settings(db=tmp_path / "r", shard_count="4", shards="2,3")
    client = RefereeClient(settings)
    assert client.shard_count == 4 and client.shard_ids == [2, 3]
    with pytest.raises(ValueError, match="REFEREE_SHARD_COUNT"):
        Settings(db=tmp_path / "r", shards="1")
    with pytest.raises(ValueError, match="not shard ids"):
        Settings(db=tmp_path / "r", shard_count=2, shards="2")



async def test_a_server_error_on_the_response_asks_discord_before_posting_again(
    feed, fake_service, recorder
):
    """503 on the initial response: if Discord created it anyway, it is not posted twice."""
    bob_to_act(fake_service)
    recorder.fail("callback", FAILURES["503 server error"](), done_anyway=True)
    await feed(interaction_payload("rr", "move", {"units": "M48-1", "to": "13"}))
    kinds = [s.kind for s in recorder.sent]
    assert kinds == ["callback", "get_original", "edit_original"]
    assert "channel_send" not in kinds


async def test_a_server_error_with_no_response_created_posts_to_the_channel(
    feed, fake_service, recorder
):
    bob_to_act(fake_service)
    recorder.fail("callback", FAILURES["503 server error"]())
    await feed(interaction_payload("rr", "move", {"units": "M48-1", "to": "13"}))
    kinds = [(s.kind, s.delivered) for s in recorder.sent]
    assert kinds[:3] == [("callback", False), ("get_original", False), ("channel_send", True)]
    assert recorder.sent[2].pinged == [BOB]
