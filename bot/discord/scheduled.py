"""Messages the bot posts on its own (issue 19): reminders, a deadline passing, the digest,
and the computer's moves (issue 43), under which the player it hands the turn to finds
their answers to tap, as under any reply (issue 30).

They answer no interaction, so they go out with ``channel.send``, the ping on the last
message and the map with it.  The pacing runtime (:class:`bot.pacing.runner.Pacer`) has
already marked each one sent (at most once); what Discord refuses is kept owed and
delivered with the channel's next reply, like any announcement (:mod:`bot.owed`).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Awaitable, Callable, Protocol

import discord

from bot.discord.delivery import (
    WIRE_ERRORS,
    OffersLike,
    OwedLike,
    failure_text,
    fit_files,
    nonce_of,
    post_message,
    with_offer,
)
from bot.discord.messages import compose
from bot.discord.widgets import view_of
from bot.models import Reply, later_of

log = logging.getLogger("referee.discord")

#: The upload limit of a server without boosts (bytes): a bigger map is left out, said so.
UPLOAD_LIMIT = 8 * 1024 * 1024


class PacedService(OffersLike, OwedLike, Protocol):
    """What posting a scheduled message needs of the service."""

    async def attach_snapshot(self, reply: Reply) -> Reply:
        """Render the map a reply names and attach it."""
        ...


def poster(client: discord.Client, service: PacedService) -> Callable[[str, Reply], Awaitable[None]]:
    """The ``send`` of the pacing runtime for this client."""
    async def send(channel_id: str, reply: Reply) -> None:
        await post(client, service, channel_id, reply)
    return send


async def post(client: discord.Client, service: PacedService, channel_id: str, reply: Reply) -> None:
    """Post ``reply`` (text, ping, map) in a channel; owe what Discord refuses."""
    # The map's key as the step named it: owed, the map is drawn again with it.
    snapshot_key = reply.snapshot_key
    if snapshot_key:
        reply = await service.attach_snapshot(reply)
        later = later_of(reply)
        if later is not None:  # no one is waiting on a scheduled post: it goes with its map
            reply = await later
    reply = fit_files(await with_offer(service, reply, channel_id), UPLOAD_LIMIT)
    channel = client.get_partial_messageable(int(channel_id))
    pending = compose(reply)
    try:
        for n in range(len(pending)):
            # A nonce of the message: sent again after a 5xx, it is not posted twice.  The
            # answers to tap go under the last message: the one that pings.
            view = view_of(reply) if len(pending) == 1 else None
            await post_message(channel, pending[0], nonce_of("scheduled", channel_id, reply.text, n), view=view)
            pending.pop(0)
    except WIRE_ERRORS as error:
        log.warning("posting a scheduled message to %s failed (%s); it is owed", channel_id,
                    failure_text(error))
        text = "\n".join(m.content for m in pending if m.content)
        key = snapshot_key if any(m.attachments for m in pending) else None
        await service.owe(channel_id, Reply(text=text, mentions=[i for m in pending for i in m.mentions],
                                            snapshot_key=key))


def start_pacing(client: discord.Client, service: Any) -> asyncio.Task[None] | None:
    """Run the service's pacing runtime in the background (None for a service without one,
    such as a test double)."""
    pacer = getattr(service, "pacer", None)
    if pacer is None:
        return None
    return asyncio.create_task(pacer.run(poster(client, service)), name="referee-pacing")


def start_computer(client: discord.Client, service: Any) -> asyncio.Task[None] | None:
    """Run the service's computer players in the background (issue 43), posting their moves
    as the pacing posts its messages (None for a service without them)."""
    computer = getattr(service, "computer", None)
    if computer is None:
        return None
    return asyncio.create_task(computer.run(poster(client, service)), name="referee-computer")


__all__ = ["UPLOAD_LIMIT", "post", "poster", "start_computer", "start_pacing"]
