"""Maschinen Krieger's secrets through the real discord.py tree and the real service (issue 28):
both players lay minefields (19.1) and one hides a stack under a concealment marker (15.4.1)
at set-up, then the marker moves; in the recorded HTTP requests each secret appears only in
an ephemeral reply to its owner, and the channel reads the seals and the marker."""

from __future__ import annotations

import itertools

from bot.discord.client import RefereeClient
from tests.discord.conftest import feed_gateway
from tests.discord.dpy_harness import ALICE, BOB, RecordingAdapter, interaction_payload
from tests.discord.test_discord_service import real_bot  # noqa: F401 - the fixture: a client on the real service

_ids = itertools.count(5000)


async def send(client: RefereeClient, recorder: RecordingAdapter, user: tuple[int, str], group: str, sub: str,
               options: dict | None = None) -> list:
    start = len(recorder.sent)
    await feed_gateway(client, interaction_payload(group, sub, options, user=user, interaction_id=next(_ids)))
    return recorder.sent[start:]


def public_text(sent: list) -> str:
    return "\n".join(s.content for s in sent if not s.ephemeral)


def private_text(sent: list) -> str:
    return "\n".join(s.content for s in sent if s.ephemeral)


async def test_minefields_and_a_concealed_stack_show_only_in_their_owners_ephemeral_replies(
        real_bot: RefereeClient, recorder: RecordingAdapter):
    alice, bob = (ALICE, "Alice"), (BOB, "Bob")
    await send(real_bot, recorder, alice, "game", "new",
               {"system": "mak", "scenario": "minefields", "options": "concealment"})
    await send(real_bot, recorder, alice, "game", "join", {"side": "merc"})
    await send(real_bot, recorder, bob, "game", "join", {"side": "strahl"})

    mine = await send(real_bot, recorder, alice, "mak", "mines lay", {"fields": "5:0815=10 5:0816=10"})
    assert "Your minefields: 5:0815 attack 10, 5:0816 attack 10" in private_text(mine)
    assert "Mercenary laid its minefields (sealed:" in public_text(mine)
    assert "5:0815" not in public_text(mine) and "attack 10" not in public_text(mine)

    theirs = await send(real_bot, recorder, bob, "mak", "mines lay", {"fields": "5:0827=13 5:0620=9 5:0621=8"})
    assert "5:0827 attack 13" in private_text(theirs) and "5:0827" not in public_text(theirs)

    hide = await send(real_bot, recorder, alice, "mak", "conceal hide", {"unit": "M-AFS1"})
    assert "M-Con1 is over M-AFS1" in private_text(hide)
    assert "put concealment marker M-Con1 on 5:0829" in public_text(hide)
    assert "M-AFS1" not in public_text(hide)

    await send(real_bot, recorder, alice, "mak", "end")
    await send(real_bot, recorder, bob, "mak", "end")
    moved = await send(real_bot, recorder, alice, "mak", "move", {"unit": "M-Con1", "to": "5:0928"})
    assert "M-Con1 moves 5:0829 → 5:0928" in public_text(moved)
    # no request of the whole game, other than its owner's ephemeral replies, holds a secret
    everything = recorder.sent
    public = public_text(everything)
    for secret in ("5:0815 attack", "5:0827 attack 13", "M-Con1 is over M-AFS1", "M-Con1 is M-AFS1"):
        assert secret not in public
    assert "(only you see this)" in private_text(moved)
