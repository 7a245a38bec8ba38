"""Full invocations through discord.py (gateway event -> tree -> adapter -> recorded HTTP).

These use the scripted :class:`FakeService` for the front end's own behaviour: how a reply
of each shape goes out, and what happens when something fails or is slow.  The same flow
on the real service and a real game is in ``test_discord_service.py``.
"""

from __future__ import annotations

import logging
import re

import pytest

from bot.discord.messages import CONTENT_LIMIT
from bot.models import Attachment, Reply, ReplyField, UserRef
from tests.discord.dpy_harness import (
    ALICE,
    BOB,
    CHANNEL_ID,
    GUILD_ID,
    THREAD_ID,
    FakeService,
    RecordingAdapter,
    interaction_payload,
    open_png,
    snowflake,
    unknown_interaction,
)
from rules.core.contract import Choice
from rules.core.errors import RuleError

DEFERRED_CHANNEL_MESSAGE = 5
CHANNEL_MESSAGE = 4
AUTOCOMPLETE_RESULT = 8


async def test_invocation_carries_channel_user_command_and_options(feed, fake_service, recorder):
    await feed(interaction_payload("game", "log", {"last": 5}, interaction_id=42))
    (inv,) = fake_service.handled
    assert inv.channel_id == str(CHANNEL_ID)
    assert inv.guild_id == str(GUILD_ID)
    assert inv.user_id == str(ALICE) and inv.user_name == "Alice"
    assert inv.command == ["game", "log"]
    assert inv.options == {"last": 5}
    assert inv.interaction_id == str(snowflake(42))
    assert inv.is_moderator is False


async def test_a_thread_is_its_own_channel(feed, fake_service, recorder):
    await feed(interaction_payload("game", "status", thread=True))
    assert fake_service.handled[0].channel_id == str(THREAD_ID)


async def test_optional_options_left_out_are_not_sent(feed, fake_service, recorder):
    await feed(interaction_payload("game", "log"))
    assert fake_service.handled[0].options == {}


async def test_user_option_becomes_a_user_ref(feed, fake_service, recorder):
    await feed(interaction_payload("mod", "seat", {"side": "nato"}, users={"user": (BOB, "Bob")}))
    inv = fake_service.handled[0]
    assert inv.options == {"side": "nato", "user": UserRef(id=str(BOB), name="Bob")}


async def test_error_reply_is_ephemeral_with_its_sentence(feed, fake_service, recorder):
    sentence = "There is no game in this channel; start one with /game new."
    fake_service.replies["game status"] = Reply(text=sentence, error=True, ephemeral=True)
    await feed(interaction_payload("game", "status"))
    (sent,) = recorder.sent
    assert sent.kind == "callback" and sent.payload["type"] == CHANNEL_MESSAGE
    assert sent.ephemeral
    assert sent.message["content"] == sentence


async def test_error_reply_never_pings(feed, fake_service, recorder):
    fake_service.replies["game join"] = Reply(
        text="@everyone is not a side", error=True, mentions=[str(BOB)]
    )
    await feed(interaction_payload("game", "join", {"side": "@everyone"}))
    allowed = recorder.sent[0].message["allowed_mentions"]
    assert allowed["parse"] == [] and not allowed.get("users")


async def test_plain_reply_is_public_and_pings_only_the_next_player(feed, fake_service, recorder):
    fake_service.replies["game join"] = Reply(
        text="Alice takes NATO.\nSoviet to act.", mentions=[str(BOB)]
    )
    await feed(interaction_payload("game", "join", {"side": "nato"}))
    (sent,) = recorder.sent
    assert sent.kind == "callback" and sent.payload["type"] == CHANNEL_MESSAGE
    assert not sent.ephemeral
    content = sent.message["content"]
    assert content.startswith("Alice takes NATO.")
    assert content.splitlines()[-1] == f"<@{BOB}>"
    # Only Bob may be pinged: no @everyone, no roles, whatever the text holds.
    assert sent.message["allowed_mentions"] == {"parse": [], "users": [BOB]}


async def test_fields_are_shown_as_bold_blocks(feed, fake_service, recorder):
    fake_service.replies["game status"] = Reply(
        text="Turn 2/7 · Operations", fields=[ReplyField(name="NATO", value="3 units, 1 VP")]
    )
    await feed(interaction_payload("game", "status"))
    assert recorder.sent[0].message["content"] == "Turn 2/7 · Operations\n\n**NATO**\n3 units, 1 VP"


async def test_ephemeral_reply_stays_private(feed, fake_service, recorder):
    fake_service.replies["game help"] = Reply(text="move: move a unit (4.2)", ephemeral=True)
    await feed(interaction_payload("game", "help"))
    assert recorder.sent[0].ephemeral


async def test_snapshot_reply_sends_the_text_with_the_ping_then_edits_the_map_in(
    feed, fake_service, recorder
):
    """The ping goes in the initial response (a new message: it notifies); the map is
    attached afterwards by editing that message (an edit notifies no one)."""
    fake_service.replies["game map"] = Reply(
        text="Turn 1 · NATO impulse ends.", snapshot_key="g1:3", mentions=[str(BOB)]
    )
    await feed(interaction_payload("game", "map"))
    kinds = [s.kind for s in recorder.sent]
    assert kinds == ["callback", "edit_original"]
    answer, edit = recorder.sent
    assert answer.payload["type"] == CHANNEL_MESSAGE and not answer.ephemeral and answer.creates
    assert answer.message["content"].startswith("Turn 1 · NATO impulse ends.")
    assert answer.pinged == [BOB]
    assert answer.message["allowed_mentions"] == {"parse": [], "users": [BOB]}
    assert not edit.creates and edit.pinged == []
    assert [a["filename"] for a in edit.message["attachments"]] == ["map.png"]
    assert open_png(edit.files["map.png"]).size == (48, 32)


async def test_json_export_is_deferred_privately_then_attached(feed, fake_service, recorder):
    data = b'{"steps": []}'
    fake_service.replies["game export"] = Reply(
        text="The log of this game.", attachments=[Attachment(filename="game.json", data=data)],
        ephemeral=True,
    )
    await feed(interaction_payload("game", "export"))
    defer, sent = recorder.sent
    assert defer.payload["type"] == DEFERRED_CHANNEL_MESSAGE and defer.ephemeral
    assert sent.kind == "followup" and sent.files == {"game.json": data}


async def test_failed_render_still_reports_the_committed_step(feed, fake_service, recorder, caplog):
    fake_service.replies["game map"] = Reply(text="VDV-1 moves to 12.", snapshot_key="g1:4")
    fake_service.render_error = OSError("font missing")
    with caplog.at_level(logging.ERROR, logger="referee.discord"):
        await feed(interaction_payload("game", "map"))
    answer, note = recorder.sent
    assert answer.kind == "callback" and not answer.ephemeral
    assert answer.message["content"] == "VDV-1 moves to 12."
    assert note.kind == "followup" and not note.files
    content = note.message["content"]
    assert content.startswith("(No map this time")
    incident = re.search(r"incident ([0-9a-f]{6})", content).group(1)
    assert any(incident in r.getMessage() and r.exc_info for r in caplog.records)


async def test_rule_error_raised_becomes_its_own_sentence(feed, fake_service, recorder):
    fake_service.errors["game leave"] = RuleError("You hold no seat in this game.")
    await feed(interaction_payload("game", "leave"))
    (sent,) = recorder.sent
    assert sent.ephemeral and sent.message["content"] == "You hold no seat in this game."


async def test_unexpected_error_apologises_with_an_incident_id(feed, fake_service, recorder, caplog):
    fake_service.errors["game leave"] = ZeroDivisionError("division by zero")
    with caplog.at_level(logging.ERROR, logger="referee.discord"):
        await feed(interaction_payload("game", "leave"))
    (sent,) = recorder.sent
    assert sent.ephemeral
    content = sent.message["content"]
    match = re.fullmatch(
        r"Sorry, something went wrong on our side \(incident ([0-9a-f]{6})\)\. "
        r"The moderators can quote this id\.",
        content,
    )
    assert match, content
    assert "ZeroDivisionError" not in content
    logged = [r for r in caplog.records if match.group(1) in r.getMessage()]
    assert logged and logged[0].exc_info[0] is ZeroDivisionError


async def test_unknown_command_says_the_commands_are_out_of_date(feed, recorder):
    await feed(interaction_payload("game", "teleport"))
    (sent,) = recorder.sent
    assert sent.ephemeral and "out of date" in sent.message["content"]


@pytest.mark.parametrize("defer_after", [0.05])
async def test_slow_handle_is_deferred_then_followed_up(
    feed, fake_service, recorder, defer_after
):
    fake_service.delay = 0.3
    fake_service.replies["game status"] = Reply(text="Turn 3/7", mentions=[str(BOB)])
    await feed(interaction_payload("game", "status"))
    defer, follow, ping = recorder.sent
    assert defer.payload["type"] == DEFERRED_CHANNEL_MESSAGE
    # The first follow-up replaces the "thinking" placeholder: an edit, so no ping in it.
    assert follow.kind == "followup" and follow.message["content"] == "Turn 3/7"
    assert not follow.creates and follow.pinged == []
    # The ping comes as a new message (channel.send with a nonce, issue 25), which notifies.
    assert ping.kind == "channel_send" and ping.creates and ping.pinged == [BOB]


@pytest.mark.parametrize("defer_after", [0.05])
async def test_slow_error_replaces_the_public_defer_by_a_private_note(
    feed, fake_service, recorder, defer_after
):
    fake_service.delay = 0.3
    fake_service.replies["game status"] = Reply(text="No game here.", error=True, ephemeral=True)
    await feed(interaction_payload("game", "status"))
    assert [s.kind for s in recorder.sent] == ["callback", "delete_original", "followup"]
    assert recorder.sent[-1].ephemeral
    assert recorder.sent[-1].message["content"] == "No game here."


async def test_long_reply_is_split_and_pings_once_at_the_end(feed, fake_service, recorder):
    lines = [f"{n:03} 🎲 4+3 +2 RCM = 9 vs DF 6 → hit (7.3.3)" for n in range(120)]
    fake_service.replies["game log"] = Reply(text="\n".join(lines), mentions=[str(BOB)])
    await feed(interaction_payload("game", "log", {"last": 50}))
    contents = [s.message["content"] for s in recorder.sent]
    assert len(contents) >= 2
    assert all(len(c) <= CONTENT_LIMIT for c in contents)
    assert [f"<@{BOB}>" in c for c in contents] == [False] * (len(contents) - 1) + [True]
    assert "\n".join(contents).count("🎲") == 120
    users = [s.message["allowed_mentions"].get("users", []) for s in recorder.sent]
    assert users == [[]] * (len(contents) - 1) + [[BOB]]


async def test_autocomplete_answers_at_most_25_choices_from_the_service(
    feed, fake_service: FakeService, recorder: RecordingAdapter
):
    fake_service.suggestions = [Choice(value=f"VDV-{n}", label=f"VDV-{n} (area 7)") for n in range(40)]
    await feed(interaction_payload("mod", "seat", {"side": "na"}, focused="side"))
    (sent,) = recorder.sent
    assert sent.payload["type"] == AUTOCOMPLETE_RESULT
    choices = sent.payload["data"]["choices"]
    assert len(choices) == 25
    assert choices[0] == {"name": "VDV-0 (area 7)", "value": "VDV-0"}
    inv, focused = fake_service.completions[0]
    assert focused == "side" and inv.command == ["mod", "seat"]
    assert inv.options == {"side": "na"}
    assert fake_service.handled == []


async def test_autocomplete_failure_offers_nothing(feed, fake_service, recorder):
    async def broken(inv, focused):
        raise RuntimeError("store gone")

    fake_service.autocomplete = broken
    await feed(interaction_payload("game", "join", {"side": ""}, focused="side"))
    (sent,) = recorder.sent
    assert sent.payload == {"type": AUTOCOMPLETE_RESULT, "data": {"choices": []}}


@pytest.mark.parametrize(
    ("permissions", "roles", "expected"),
    [
        (1 << 11, (), False),  # Send Messages only: a player
        (1 << 4, (), True),  # Manage Channels
        (1 << 5, (), True),  # Manage Server
        (1 << 3, (), True),  # Administrator
        (1 << 11, (800000000000000001,), True),  # the moderator role
        (1 << 11, (123,), False),  # a role that is not in the server's cache
    ],
)
async def test_is_moderator_from_permissions_and_roles(
    feed, fake_service, recorder, permissions, roles, expected
):
    await feed(interaction_payload("mod", "reroll", {"reason": "typo"},
                                   permissions=permissions, roles=roles))
    assert fake_service.handled[0].is_moderator is expected


async def test_a_user_discord_could_not_resolve_is_passed_by_id(feed, fake_service, recorder):
    """A moderator can still kick a player who has left the server: the id is kept."""
    payload = interaction_payload("mod", "kick")
    # A user option whose user is missing from "resolved" (left the server meanwhile).
    payload["data"]["options"][0]["options"] = [{"type": 6, "name": "user", "value": "999"}]
    await feed(payload)
    assert fake_service.handled[0].options == {"user": UserRef(id="999", name="999")}


async def test_an_expired_interaction_is_posted_to_the_channel_or_owed(
    feed, fake_service, recorder, caplog
):
    recorder.fail_with = unknown_interaction()
    with caplog.at_level(logging.WARNING, logger="referee.discord"):
        await feed(interaction_payload("game", "status"))
    # The reply, then channel.send were tried; neither got through, so it is owed.
    assert [s.kind for s in recorder.sent] == ["callback", "channel_send"]
    ((channel, owed),) = fake_service.owed_replies.values()
    assert channel == str(CHANNEL_ID) and owed.text == "ok: game status"


async def test_a_file_too_large_for_the_server_is_left_out_with_a_note(feed, fake_service, recorder):
    fake_service.replies["game export"] = Reply(
        text="The log of this game.",
        attachments=[Attachment(filename="game.json", data=b"x" * 3_000_000)],
    )
    payload = interaction_payload("game", "export")
    payload["attachment_size_limit"] = 2_000_000
    await feed(payload)
    _, sent = recorder.sent
    assert sent.files == {}
    assert sent.message["content"] == (
        "The log of this game.\n(game.json is 3.0 MB; Discord takes at most 2.0 MB here, "
        "so it is not attached.)"
    )


@pytest.mark.parametrize("defer_after", [0.05])
async def test_a_failed_defer_still_lets_the_command_finish(
    feed, fake_service, recorder, defer_after, caplog
):
    fake_service.delay = 0.3
    recorder.fail_with = unknown_interaction()
    with caplog.at_level(logging.WARNING, logger="referee.discord"):
        await feed(interaction_payload("game", "status"))
    # The service ran to its end (its step committed) although Discord had let go.
    assert len(fake_service.finished) == 1
    assert [s.kind for s in recorder.sent] == ["callback", "callback", "channel_send"]
    assert len(fake_service.owed_replies) == 1


@pytest.mark.parametrize("defer_after", [0.05])
async def test_a_delivered_answer_is_never_deleted_by_a_later_failure(
    feed, fake_service, recorder, defer_after
):
    """Slow path, long reply: the first part replaced the placeholder, the second failed.
    The error note must not delete the first part, which reports a committed step."""
    fake_service.delay = 0.3
    fake_service.replies["game log"] = Reply(text="\n".join("z" * 90 for _ in range(40)))
    recorder.fail_with = unknown_interaction()
    recorder.fail_from = 2
    await feed(interaction_payload("game", "log"))
    kinds = [s.kind for s in recorder.sent]
    # The second part goes by channel.send with a nonce (issue 25).
    assert kinds[:3] == ["callback", "followup", "channel_send"]
    assert "delete_original" not in kinds
