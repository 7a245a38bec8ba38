"""Buttons and select menus under the referee's messages, and what a press does (issue 30).

The service describes the answers a reply offers (:class:`~bot.models.Button`,
:class:`~bot.models.SelectMenu`); :func:`bot.discord.widgets.view_of` turns them into discord.py
components whose ``custom_id`` is the service's token.  Nothing is registered per message: every press of a
component of ours reaches :func:`on_press` through the client's ``on_interaction`` event, and
the service checks it against the game as it is now.  So buttons survive a restart, and a
press on a question the game has moved past is told so.

A press is acknowledged at once (a deferred update: Discord's 3 seconds cannot be missed),
then:

* refused: an ephemeral sentence to the presser, nothing else changes;
* a menu of an order being built (``/game act``): the private message shows the next
  question in place (or a new private message when the question came from a public one);
* an order sent: the question's message is edited — its components removed and who chose
  what added — and the order's announcement follows as a public message, with its ping and
  its map, exactly as the slash command's.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.answers import PREFIX
from bot.discord.adapter import ServiceLike, invocation_from, send_private
from bot.discord.delivery import WIRE_ERRORS, Delivery, with_offer
from bot.discord.messages import CONTENT_LIMIT, pingable
from bot.discord.widgets import view_of
from bot.models import Reply

log = logging.getLogger("referee.discord")

def is_ours(interaction: discord.Interaction) -> bool:
    """A press of one of the referee's buttons or menus."""
    if interaction.type != discord.InteractionType.component or not isinstance(interaction.data, dict):
        return False
    return str(interaction.data.get("custom_id", "")).startswith(PREFIX + ":")


async def on_press(interaction: discord.Interaction, service: ServiceLike, moderator_role: str) -> None:
    """Answer one press (see the module doc).  Never raises."""
    data: dict[str, Any] = interaction.data or {}  # type: ignore[assignment]
    token = str(data.get("custom_id", ""))
    values = data.get("values") or []
    inv = invocation_from(interaction, ["press"], {}, moderator_role)
    try:
        await interaction.response.defer()
    except WIRE_ERRORS as error:
        log.warning("could not acknowledge press %s: %s", interaction.id, error)
        return
    reply = await service.press(inv, token, str(values[0]) if values else None)
    try:
        await _answer(interaction, service, inv.user_id, reply)
    except WIRE_ERRORS as error:
        log.warning("answering press %s failed: %s", interaction.id, error)


async def _answer(interaction: discord.Interaction, service: ServiceLike, presser: str, reply: Reply) -> None:
    if reply.error:
        await send_private(interaction, reply.text)
        return
    pressed_private = bool(interaction.message and interaction.message.flags.ephemeral)
    if reply.chosen is None:
        # The next question of an order being built: in place when the builder is the
        # presser's own private message, else a new private message.
        view = view_of(reply)
        kwargs: dict[str, Any] = {"content": reply.text[:CONTENT_LIMIT],
                                  "allowed_mentions": discord.AllowedMentions.none()}
        if pressed_private:
            await interaction.edit_original_response(**kwargs, view=view)
        else:
            if view is None:
                await interaction.followup.send(**kwargs, ephemeral=True)
            else:
                await interaction.followup.send(**kwargs, ephemeral=True, view=view)
        return
    await _close_question(interaction, reply.chosen, pressed_private)
    reply = await with_offer(service, reply, str(interaction.channel_id))
    reply = reply.model_copy(update={"mentions": [m for m in pingable(reply.mentions) if m != presser]})
    await Delivery(interaction, reply, owed=service, complete=service.attach_snapshot).run()


async def _close_question(interaction: discord.Interaction, chosen: str, private: bool) -> None:
    """The question is answered: its components go, and the message says who chose what."""
    before = interaction.message.content if interaction.message is not None else ""
    text = f"{before}\n✔️ {chosen}" if not private else f"✔️ Sent. {chosen}"
    try:
        await interaction.edit_original_response(
            content=text[-CONTENT_LIMIT:], view=None, allowed_mentions=discord.AllowedMentions.none()
        )
    except WIRE_ERRORS as error:
        # The order is committed and about to be announced; a stale question is cosmetic.
        log.warning("could not close the question of press %s: %s", interaction.id, error)


__all__ = ["is_ours", "on_press"]
