"""From a ``discord.Interaction`` to an :class:`Invocation`, and from a :class:`Reply` back.

The flow of one command (see :func:`respond`):

1. build the :class:`Invocation` (channel = the thread's own id in a thread, so every thread
   can hold its own game);
2. ``reply = await service.handle(inv)``: the step is committed before this returns, so
   nothing is acknowledged that is not stored;
3. an error reply goes back ephemeral; a reply with a snapshot is deferred first, the PNG is
   rendered off the event loop by ``service.attach_snapshot`` and sent as a follow-up;
   anything else is sent at once.

Discord drops an interaction that is not answered within 3 seconds.  ``handle`` is meant to
be fast, but a busy database can stall it; if it has not answered after ``defer_after``
seconds the interaction is deferred publicly while it finishes.  Should the answer then be
private (an error, help), the public "thinking" message is deleted and the answer follows
ephemeral.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Any, Protocol

import discord

from bot.commands import CommandGroup
from bot.discord.errors import apology, new_incident_id
from bot.discord.messages import CONTENT_LIMIT, Outgoing, compose
from bot.models import Invocation, Reply, UserRef
from rules.core.contract import Choice

log = logging.getLogger("referee.discord")

#: Key in ``Interaction.extras``: a public "thinking" placeholder is showing.
_PLACEHOLDER = "referee_public_placeholder"
#: Seconds ``handle`` may take before the interaction is deferred (Discord allows 3).
DEFER_AFTER = 2.0


class ServiceLike(Protocol):
    """The part of :class:`bot.service.Service` the Discord front end uses."""

    groups: list[CommandGroup]

    async def handle(self, inv: Invocation) -> Reply:
        """Run one command; the step is committed before the reply returns."""
        ...

    async def autocomplete(self, inv: Invocation, focused: str) -> list[Choice]:
        """Suggestions for the option ``focused`` given what is typed so far."""
        ...

    async def attach_snapshot(self, reply: Reply) -> Reply:
        """Render the snapshot named by ``reply.snapshot_key`` and attach the PNG."""
        ...

    async def meta(self, key: str) -> str | None:
        """A fact the bot keeps about itself between runs."""
        ...

    async def set_meta(self, key: str, value: str) -> None:
        """Keep a fact about the bot itself."""
        ...

    async def close(self) -> None:
        """Close the store."""
        ...


def is_moderator(interaction: discord.Interaction, moderator_role: str) -> bool:
    """Whether the invoker moderates games in this channel.

    True for members with Manage Channels or Manage Server in the channel (Administrator
    implies both), and for members holding the role named ``moderator_role`` (compared
    without regard to case, since server admins type role names by hand).
    """
    user = interaction.user
    if not isinstance(user, discord.Member):
        return False
    # interaction.permissions are the member's permissions in this channel, overwrites
    # included, as Discord computed them for this interaction.
    perms = interaction.permissions
    if perms.administrator or perms.manage_channels or perms.manage_guild:
        return True
    wanted = moderator_role.strip().casefold()
    return bool(wanted) and any(role.name.casefold() == wanted for role in user.roles)


def option_value(value: Any) -> Any:
    """An option value as the service takes it: users become :class:`UserRef`."""
    if isinstance(value, (discord.Member, discord.User)):
        return UserRef(id=str(value.id), name=value.display_name)
    if isinstance(value, discord.Object):
        # An unresolved user (autocomplete sends bare ids): keep the id as the name too.
        return UserRef(id=str(value.id), name=str(value.id))
    if isinstance(value, discord.app_commands.Choice):
        return value.value
    return value


def invocation_from(
    interaction: discord.Interaction,
    command: list[str],
    options: dict[str, Any],
    moderator_role: str,
) -> Invocation:
    """The service's view of one interaction; options with no value are left out."""
    user = interaction.user
    return Invocation(
        channel_id=str(interaction.channel_id),
        guild_id=str(interaction.guild_id) if interaction.guild_id else None,
        user_id=str(user.id),
        user_name=user.display_name,
        is_moderator=is_moderator(interaction, moderator_role),
        command=command,
        options={k: option_value(v) for k, v in options.items() if v is not None},
        interaction_id=str(interaction.id),
    )


def _files(message: Outgoing) -> list[discord.File]:
    return [
        discord.File(
            io.BytesIO(item.data), filename=item.filename, description=item.description or None
        )
        for item in message.attachments
    ]


def _allowed(message: Outgoing) -> discord.AllowedMentions:
    # Only the users the service named may be pinged: never @everyone or a role, whatever a
    # player typed into a name or a reason.
    return discord.AllowedMentions(
        users=[discord.Object(id=int(user_id)) for user_id in message.mentions],
        everyone=False,
        roles=False,
        replied_user=False,
    )


def fit_files(reply: Reply, size_limit: int) -> Reply:
    """Drop attachments Discord would refuse as too large, saying so in the text."""
    kept = [a for a in reply.attachments if len(a.data) <= size_limit]
    if len(kept) == len(reply.attachments):
        return reply
    notes = [
        f"({a.filename} is {len(a.data) / 1e6:.1f} MB; Discord takes at most "
        f"{size_limit / 1e6:.1f} MB here, so it is not attached.)"
        for a in reply.attachments
        if len(a.data) > size_limit
    ]
    return reply.model_copy(update={"attachments": kept, "text": "\n".join([reply.text, *notes])})


async def deliver(interaction: discord.Interaction, reply: Reply, *, ephemeral: bool) -> None:
    """Send ``reply`` as the interaction's response (or follow-ups once it was deferred)."""
    reply = fit_files(reply, interaction.filesize_limit)
    for message in compose(reply):
        kwargs: dict[str, Any] = {
            "content": message.content or None,
            "allowed_mentions": _allowed(message),
            "ephemeral": ephemeral,
        }
        files = _files(message)
        if files:
            kwargs["files"] = files
        if interaction.response.is_done():
            await interaction.followup.send(**kwargs)
            # The first follow-up replaced the "thinking" placeholder: it is the answer now.
            interaction.extras[_PLACEHOLDER] = False
        else:
            await interaction.response.send_message(**kwargs)


async def send_private(interaction: discord.Interaction, text: str) -> None:
    """Send ``text`` to the invoker only, whatever state the interaction is in.

    After a public defer the "thinking" message is deleted first: the first follow-up would
    otherwise replace it and be public.
    """
    allowed = discord.AllowedMentions.none()
    text = text[:CONTENT_LIMIT]
    if not interaction.response.is_done():
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=allowed)
        return
    await _drop_public_defer(interaction)
    await interaction.followup.send(text, ephemeral=True, allowed_mentions=allowed)


async def _drop_public_defer(interaction: discord.Interaction) -> None:
    """Delete a public "thinking" placeholder so that a private answer can follow.

    Only the placeholder: once a follow-up has replaced it, it holds a real answer (the
    report of a committed step) and stays.
    """
    if not interaction.extras.get(_PLACEHOLDER):
        return
    try:
        await interaction.delete_original_response()
    except discord.HTTPException:
        log.warning("could not delete the deferred response of interaction %s", interaction.id)
    interaction.extras[_PLACEHOLDER] = False


async def _defer(interaction: discord.Interaction, *, ephemeral: bool) -> None:
    # Remember whether a public placeholder now stands in the channel (see above).
    interaction.extras[_PLACEHOLDER] = not ephemeral
    await interaction.response.defer(ephemeral=ephemeral, thinking=True)


async def respond(
    interaction: discord.Interaction,
    service: ServiceLike,
    inv: Invocation,
    *,
    defer_after: float = DEFER_AFTER,
) -> None:
    """Run ``inv`` through the service and answer the interaction (see the module doc)."""
    pending = asyncio.ensure_future(service.handle(inv))
    done, _ = await asyncio.wait({pending}, timeout=defer_after)
    if not done:
        log.info("/%s is slow; deferring interaction %s", " ".join(inv.command), interaction.id)
        try:
            await _defer(interaction, ephemeral=False)
        except discord.HTTPException:
            # The interaction is gone, but the command still runs to its end (and commits).
            await pending
            raise
    reply = await pending
    if reply.error:
        await send_private(interaction, reply.text)
        return
    if reply.snapshot_key:
        if not interaction.response.is_done():
            await _defer(interaction, ephemeral=reply.ephemeral)
        reply = await _with_snapshot(service, reply)
    if reply.ephemeral and interaction.response.is_done():
        # Deferred publicly because handle was slow, but the answer is private.
        await _drop_public_defer(interaction)
    await deliver(interaction, reply, ephemeral=reply.ephemeral)


async def _with_snapshot(service: ServiceLike, reply: Reply) -> Reply:
    """Attach the snapshot; if rendering fails the step still stands, so say so and go on."""
    try:
        return await service.attach_snapshot(reply)
    except Exception:
        incident = new_incident_id()
        log.exception("incident %s: rendering snapshot %s failed", incident, reply.snapshot_key)
        note = f"(No map this time: {apology(incident)})"
        return reply.model_copy(update={"text": f"{reply.text}\n{note}"})
