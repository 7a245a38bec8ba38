"""Lay a :class:`~bot.models.Reply` out as Discord messages that fit Discord's limits.

Pure (no discord.py): the adapter turns each :class:`Outgoing` into one API call.

Choices made for phones, where most play-by-post turns are read:

* fields become plain text (a bold name line, then the value), not an embed: embeds on a
  phone are narrow boxes with small type, and plain text splits cleanly at 2000 characters;
* the player(s) to mention go on the last line of the last message, so the push
  notification previews the result and the ping arrives with the whole reply;
* a reply longer than one message is split at line ends (never inside a word when a line
  fits), a ```code block``` cut by a split is closed and reopened, and at most
  :data:`MAX_MESSAGES` messages are sent: a runaway reply is cut with a note instead of
  flooding the channel;
* files go with the last message, at most :data:`MAX_FILES` per message.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.models import Attachment, Reply

#: Discord's limit on a message's content.
CONTENT_LIMIT = 2000
#: Discord's limit on files attached to one message.
MAX_FILES = 10
#: Most messages one reply may take; more would bury the channel.
MAX_MESSAGES = 4
#: The line that ends a reply cut at :data:`MAX_MESSAGES`.
TRUNCATED_NOTE = "… (cut here: too long for Discord; see /game log)"

#: What an empty reply says, since Discord refuses an empty message.
EMPTY_REPLY = "Done."

_FENCE = "```"


@dataclass
class Outgoing:
    """One Discord message: its text, who it may ping and its files."""

    content: str
    mentions: list[str] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)


def mention(user_id: str) -> str:
    """The Discord mention markup of a user id."""
    return f"<@{user_id}>"


def pingable(user_ids: list[str]) -> list[str]:
    """The ids that are Discord user ids (snowflakes), in order, without repeats.

    The console and tests may name users by other ids; those cannot be pinged on Discord.
    """
    seen: list[str] = []
    for user_id in user_ids:
        if user_id.isdigit() and user_id not in seen:
            seen.append(user_id)
    return seen


def reply_text(reply: Reply) -> str:
    """The reply's text with its fields below it, as a phone shows them best."""
    parts = [reply.text.strip()] if reply.text.strip() else []
    for block in reply.fields:
        parts.append(f"**{block.name.strip()}**\n{block.value.strip()}")
    return "\n\n".join(parts)


def mention_line(reply: Reply) -> tuple[str, list[str]]:
    """The line that pings whoever must act, and the ids it pings.

    Ids the service already wrote as ``<@id>`` into the text are allowed to ping but not
    written twice.
    """
    ids = pingable(reply.mentions)
    text = reply_text(reply)
    missing = [user_id for user_id in ids if mention(user_id) not in text]
    return " ".join(mention(user_id) for user_id in missing), ids


def split_content(text: str, limit: int = CONTENT_LIMIT) -> list[str]:
    """Split ``text`` into pieces of at most ``limit`` characters, at line ends.

    A line longer than ``limit`` is cut at its last space that fits (or hard, if none).
    A code block open at a cut is closed at the end of the piece and reopened at the start
    of the next, so each message renders on its own.
    """
    pieces: list[str] = []
    current: list[str] = []
    size = 0
    in_fence = False
    # Room kept free in every piece for a closing fence ("\n```").
    room = limit - len(_FENCE) - 1

    def flush() -> None:
        nonlocal current, size
        body = "\n".join(current)
        if in_fence:
            body += "\n" + _FENCE
        pieces.append(body)
        current = [_FENCE] if in_fence else []
        size = len(_FENCE) if in_fence else 0

    for line in _short_lines(text.split("\n"), room - len(_FENCE) - 1):
        extra = len(line) + (1 if current else 0)
        if current and size + extra > room:
            flush()
            extra = len(line) + (1 if current else 0)
        current.append(line)
        size += extra
        stripped = line.strip()
        # A line opening or closing a block (``` or ```text) toggles it; ```x``` does not.
        if stripped.startswith(_FENCE) and stripped.count(_FENCE) % 2 == 1:
            in_fence = not in_fence
    if current and any(part.strip() for part in current):
        body = "\n".join(current)
        pieces.append(body)
    return pieces or [""]


def _short_lines(lines: list[str], width: int) -> list[str]:
    """Break every line longer than ``width`` at spaces (or hard) into lines that fit."""
    out: list[str] = []
    for line in lines:
        while len(line) > width:
            cut = line.rfind(" ", 0, width + 1)
            if cut <= 0:
                cut = width
            out.append(line[:cut].rstrip())
            line = line[cut:].lstrip()
        out.append(line)
    return out


def compose(reply: Reply, limit: int = CONTENT_LIMIT) -> list[Outgoing]:
    """The messages that carry ``reply``: text pieces, then the mention line and the files.

    Only the last message may ping, so a reply split in three pings once.
    """
    ping, ids = mention_line(reply)
    text = reply_text(reply)
    body = f"{text}\n{ping}" if text and ping else (text or ping)
    if not body and not reply.attachments:
        # Discord refuses a message with neither text nor files.
        body = EMPTY_REPLY
    pieces = split_content(body, limit)
    if len(pieces) > MAX_MESSAGES:
        last = pieces[MAX_MESSAGES - 1]
        # Keep the ping: the player who must act still has to hear about it.
        tail = f"\n{TRUNCATED_NOTE}" + (f"\n{ping}" if ping else "")
        pieces = pieces[: MAX_MESSAGES - 1] + [last[: limit - len(tail)].rstrip() + tail]
    messages = [Outgoing(content=piece) for piece in pieces]
    messages[-1].mentions = ids
    files = list(reply.attachments)
    messages[-1].attachments = files[:MAX_FILES]
    for start in range(MAX_FILES, len(files), MAX_FILES):
        messages.append(Outgoing(content="", attachments=files[start : start + MAX_FILES]))
    return messages
