"""Text from users and files is shown as typed, never as the bot's own (issue 45, breaks 7-8).

Every reply that shows user text goes through one function, :func:`bot.replies.user_text`
(discord.py's ``escape_markdown`` and ``escape_mentions``, then what they leave: ``<…>`` tags,
bidi marks, control characters and the bot's marks 🔗 🔒 🔓).  The walk below drives the real
service's reply builders that show a display name, a ``/mod`` reason (rollback, reroll,
kick, extend), a scenario's title or an upload's name, with hostile text, and reads every
public line: no mass mention, role mention, masked link, formatting, bidi mark, and no
imitation of a chain head (a display name "🔗 0123456789abcdef" made ``verify_dice
--anchors`` reject the honest export).  A scenario file whose text Discord would read as
more than words is refused with a sentence.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from bot.models import Reply, Upload
from bot.replies import NAME_LIMIT, user_text
from tests.platform.conftest import Table
from tests.platform.test_verify_dice import channel_file, run
from tests.scenarios.helpers import as_yaml, data
from tools import verify_dice

FAKE_HEAD = "0123456789abcdef"
#: Everything at once: a ping, a role mention, a masked link, a bidi override, a spoiler,
#: bold, a channel chip, a timestamp and a chain head the bot never posted.
HOSTILE = (f"@everyone <@&123456789012345678> [win](http://evil.example) \u202eevil ||spoiler|| "
           f"**bold** <#123456789012345678> <t:1:R> 🔗 {FAKE_HEAD}")
#: A display name as Discord allows it (32 characters), and as the adapter passes it on.
NAME = f"🔗 {FAKE_HEAD} **@everyone"
SHOWN = user_text(NAME, NAME_LIMIT)

#: What must never stand unescaped in a public line.
LEAKS = {
    "a mass mention": re.compile(r"@(everyone|here)"),
    "a role or user mention": re.compile(r"<@[&!]?\d"),
    "the user's channel chip or timestamp": re.compile(r"(?<!\\)<(#123456789012345678|t:1:R)"),
    "a masked link": re.compile(r"(?<!\\)\[[^\]]*\]\("),
    "the user's bold": re.compile(r"(?<!\\)\*\*(bold|@)"),
    "the user's spoiler": re.compile(r"(?<!\\)\|\|spoiler"),
    "a bidi mark": re.compile("[\u202a-\u202e\u2066-\u2069]"),
    "a chain head the bot never posted": re.compile(f"🔗\\s*`?{FAKE_HEAD}"),
}


def leaks(text: str) -> list[str]:
    """The hostile forms ``text`` shows as Discord would read them."""
    return [what for what, pattern in LEAKS.items() if pattern.search(text)]


async def said(table: Table, who: str, line: str, *, name: str | None = None, **kw: Any) -> Reply:
    """One command of ``who``, with the display name the adapter would give them."""
    moderator = kw.pop("moderator", who == "mod")
    inv = table.invocation(who, line, moderator=moderator)
    inv = inv.model_copy(update={"user_name": name or who, "options": {**inv.options, **kw}})
    return await table.service.handle(inv)


async def test_every_reply_builder_shows_hostile_text_as_typed(table: Table) -> None:
    public: list[str] = []

    async def step(who: str, line: str, **kw: Any) -> Reply:
        reply = await said(table, who, line, **kw)
        assert not reply.error, (line, reply.text)
        if not reply.ephemeral:
            public.append(reply.text)
        for owed_id, posted in await table.service.owed(table.channel):
            public.append(posted.text)
            await table.service.settle(owed_id)
        return reply

    await step("alice", "/game new system:duel options:target=30", name=SHOWN)
    await step("alice", "/game join side:red", name=SHOWN)
    await step("bob", "/game join side:blue")
    await step("alice", "/duel roll", name=SHOWN)
    await step("mod", "/mod reroll", reason=HOSTILE)
    await step("mod", "/mod rollback to:0", reason=HOSTILE)
    await step("mod", "/game deadline at:36h")
    await step("mod", "/mod extend hours:2", reason=HOSTILE)
    await step("mod", "/mod kick", user=_ref("alice", SHOWN), reason=HOSTILE)
    assert len(public) >= 9
    for text in public:
        assert not leaks(text), (leaks(text), text)
    assert any("Reason: @\u200beveryone" in text for text in public)  # shown, defused
    assert any(f"@{FAKE_HEAD} \\*\\*@\u200beveryone" in text for text in public)  # the name, less its 🔗


def _ref(user_id: str, name: str) -> Any:
    from bot.models import UserRef

    return UserRef(id=user_id, name=name)


async def test_a_scenario_title_is_shown_as_typed_and_markup_in_a_file_is_refused(table: Table) -> None:
    value = {"system": "commando", **data("commando")}
    value["title"] = "Rangers_at dawn"
    reply = await said(table, "mod", "/mod scenario name:dawn", add=_upload(value))
    assert not reply.error and "Rangers\\_at dawn" in reply.text and not leaks(reply.text), reply.text
    for title in (HOSTILE, "**Bold** raid", "Raid \u202eback", f"🔗 {FAKE_HEAD}"):
        value["title"] = title
        refused = await said(table, "alice", "/game new system:commando", **{"scenario-file": _upload(value)})
        assert refused.error and "write plain words" in refused.text and "title" in refused.text, refused.text
    value["title"] = "A raid"
    value["units"][0]["name"] = "Team <@&123456789012345678>"  # the rules repeat a unit's name
    refused = await said(table, "alice", "/game new system:commando", **{"scenario-file": _upload(value)})
    assert refused.error and "units[0].name" in refused.text and "a mention or tag" in refused.text, refused.text
    assert await table.service.games.load(table.channel) is None


def _upload(value: dict[str, Any]) -> Upload:
    raw = as_yaml(value)
    return Upload(name="ours.yaml", size=len(raw), data=raw)


async def test_a_display_name_imitating_a_head_leaves_the_honest_export_verified(table: Table,
                                                                                tmp_path: Path) -> None:
    """The channel of a game whose player is called "🔗 0123456789abcdef": every head the
    verifier reads from it is a real one, so ``--anchors`` passes the honest export; a JSON
    channel export's message written by a person is not read for heads at all."""
    channel: list[str] = []
    for user, line in [("alice", "/game new system:duel options:target=30"), ("alice", "/game join side:red"),
                       ("bob", "/game join side:blue"), ("alice", "/duel roll"), ("bob", "/duel wait"),
                       ("mod", "/game end")]:
        reply = await said(table, user, line, name=SHOWN if user == "alice" else None)
        assert not reply.error, (line, reply.text)
        if not reply.ephemeral:
            channel.append(reply.text)
        if line == "/game end":
            document = json.loads(__import__("gzip").decompress(reply.attachments[0].data))
    text = "\n".join(channel)
    assert FAKE_HEAD in text and FAKE_HEAD not in verify_dice.anchors_in(text)
    code, out = run(tmp_path, document, "--anchors", channel_file(tmp_path, text))
    assert code == 0, out
    exported = json.dumps({"messages": [{"author": {"isBot": True}, "content": t} for t in channel]
                          + [{"author": {"isBot": False}, "content": f"look: 🔗 {FAKE_HEAD}"}]})
    assert verify_dice.anchors_in(exported) == verify_dice.anchors_in(text)


@pytest.mark.parametrize("text", [HOSTILE, NAME, "everyone", "here we go", "a\nb\tc", "[x](http://e)"])
def test_user_text_is_one_line_and_defused(text: str) -> None:
    shown = user_text(text)
    assert "\n" not in shown and not leaks(shown) and not shown.casefold().startswith(("everyone", "here"))
