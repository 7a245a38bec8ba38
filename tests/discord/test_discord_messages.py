"""Laying replies out as Discord messages: limits, splitting, pings, files."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.discord.messages import (
    CONTENT_LIMIT,
    EMPTY_REPLY,
    MAX_FILES,
    MAX_MESSAGES,
    TRUNCATED_NOTE,
    compose,
    pingable,
    split_content,
)
from bot.models import Attachment, Reply, ReplyField


def test_short_reply_is_one_message_with_the_ping_last():
    (msg,) = compose(Reply(text="VDV-1 moves to 12.\n➡️ NATO impulse", mentions=["111"]))
    assert msg.content == "VDV-1 moves to 12.\n➡️ NATO impulse\n<@111>"
    assert msg.mentions == ["111"]


def test_an_empty_reply_still_says_something():
    assert [m.content for m in compose(Reply(text="  "))] == [EMPTY_REPLY]
    only_file = compose(Reply(text="", attachments=[Attachment(filename="a.png", data=b"x")]))
    assert only_file[0].content == "" and len(only_file[0].attachments) == 1


def test_a_mention_already_in_the_text_is_not_written_twice():
    (msg,) = compose(Reply(text="<@111> takes NATO.", mentions=["111"]))
    assert msg.content == "<@111> takes NATO."
    assert msg.mentions == ["111"]


def test_only_discord_ids_can_be_pinged():
    assert pingable(["111", "alice", "111", "222"]) == ["111", "222"]
    (msg,) = compose(Reply(text="x", mentions=["alice"]))
    assert msg.content == "x" and msg.mentions == []


def test_fields_follow_the_text_as_bold_blocks():
    reply = Reply(text="Turn 1", fields=[ReplyField(name="Seats", value="nato (@a)")])
    assert compose(reply)[0].content == "Turn 1\n\n**Seats**\nnato (@a)"


def test_a_split_code_block_is_closed_and_reopened():
    text = "Log:\n```\n" + "\n".join("x" * 60 for _ in range(60)) + "\n```\nend"
    pieces = split_content(text)
    assert len(pieces) == 2
    assert all(len(p) <= CONTENT_LIMIT for p in pieces)
    assert pieces[0].endswith("\n```") and pieces[1].startswith("```\n")
    assert all(p.count("```") % 2 == 0 for p in pieces)


def test_a_line_longer_than_a_message_is_cut_at_spaces():
    words = " ".join(["hit"] * 1500)
    pieces = split_content(words)
    assert all(len(p) <= CONTENT_LIMIT for p in pieces)
    assert " ".join(p.replace("\n", " ") for p in pieces).split() == words.split()


def test_a_runaway_reply_is_cut_with_a_note_and_still_pings():
    reply = Reply(text="\n".join("y" * 90 for _ in range(500)), mentions=["111"])
    messages = compose(reply)
    assert len(messages) == MAX_MESSAGES
    assert TRUNCATED_NOTE in messages[-1].content
    assert messages[-1].content.endswith("<@111>")
    assert all(len(m.content) <= CONTENT_LIMIT for m in messages)
    assert [m.mentions for m in messages] == [[]] * (MAX_MESSAGES - 1) + [["111"]]


def test_files_go_with_the_last_message_ten_at_a_time():
    files = [Attachment(filename=f"f{n}.png", data=b"x") for n in range(12)]
    messages = compose(Reply(text="maps", attachments=files))
    assert [len(m.attachments) for m in messages] == [MAX_FILES, 2]
    assert messages[0].content == "maps" and messages[1].content == ""


def _letters(text: str) -> str:
    # What a reader sees, minus whitespace and fences (the only things a split may add).
    return "".join(ch for ch in text if not ch.isspace() and ch != "`")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet=st.sampled_from("ab 🎲\n`"), max_size=300), max_size=30))
def test_split_keeps_every_character_in_order_and_fits_the_limit(chunks):
    """Whatever the text, no piece is over the limit and nothing is lost or reordered."""
    text = "".join(chunks)
    pieces = split_content(text, limit=200)
    assert all(len(p) <= 200 for p in pieces)
    assert _letters("".join(pieces)) == _letters(text)
