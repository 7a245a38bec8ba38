"""From a ``discord.Interaction`` to an :class:`Invocation`, and from a :class:`Reply` back.

The flow of one command (see :func:`respond`):

1. build the :class:`Invocation` (channel = the thread's own id in a thread, so every thread
   can hold its own game);
2. commands that build big files (``/game end``, ``/game export``) defer at once;
3. ``reply = await service.handle(inv)``: the step is committed before this returns, so
   nothing is acknowledged that is not stored;
4. an error reply goes back ephemeral; any other reply goes out through
   :class:`~bot.discord.delivery.Delivery`: the text with the ping first, the map after,
   and to the channel (or owed) if the interaction cannot carry it.

Discord drops an interaction that is not answered within 3 seconds of its creation.  The
clock starts at ``interaction.created_at``, not when the callback starts: if ``handle`` has
not answered ``defer_after`` seconds after the interaction was created, it is deferred
publicly while it finishes.  Should the answer then be private (an error, help), the public
"thinking" message is deleted and the answer follows ephemeral.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Awaitable, Callable, Protocol

import discord

from bot.commands import CommandGroup
from bot.discord.delivery import (
    DEFERRED,
    PLACEHOLDER,
    WIRE_ERRORS,
    Delivery,
    OwedLike,
    ambiguous,
    deliver_owed,
    in_thread,
    nonce_of,
    send_to_channel,
    with_offer,
)
from bot.incidents import report
from bot.discord.messages import CONTENT_LIMIT, pingable
from bot.models import Invocation, Reply, ThreadOpening, Upload, UserRef
from bot.replies import NAME_LIMIT, user_text
from rules.core.contract import Choice
from rules.core.scenariofile import MAX_BYTES as MAX_UPLOAD

log = logging.getLogger("referee.discord")

#: Seconds after the interaction's creation before it is deferred (Discord allows 3).
DEFER_AFTER = 2.0


class ServiceLike(OwedLike, Protocol):
    """The part of :class:`bot.service.Service` the Discord front end uses."""

    groups: list[CommandGroup]

    async def handle(self, inv: Invocation) -> Reply:
        """Run one command; the step is committed before the reply returns."""
        ...

    async def autocomplete(self, inv: Invocation, focused: str) -> list[Choice]:
        """Suggestions for the option ``focused`` given what is typed so far."""
        ...

    async def press(self, inv: Invocation, token: str, value: str | None = None) -> Reply:
        """A button pressed or a menu entry chosen (issue 30); never raises."""
        ...

    async def attach_offer(self, reply: Reply, channel_id: str) -> Reply:
        """Add the answers to tap that ``reply.offer_key`` names (issue 30)."""
        ...

    async def attach_page(self, reply: Reply) -> Reply:
        """Build and attach the HTML page that ``reply.page_key`` names (issue 25)."""
        ...

    async def attach_snapshot(self, reply: Reply) -> Reply:
        """Render the snapshot named by ``reply.snapshot_key`` and attach the PNG."""
        ...

    async def open_pairing(self, opening: ThreadOpening, channel_id: str, guild_id: str | None) -> Reply:
        """Start a league pairing's game in the thread opened for it (issue 44)."""
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
    implies both), and for members holding the moderator role: ``moderator_role`` is a role
    id (robust to renames), or else a role name compared without regard to case.
    """
    user = interaction.user
    if not isinstance(user, discord.Member):
        return False
    # interaction.permissions are the member's permissions in this channel, overwrites
    # included, as Discord computed them for this interaction.
    perms = interaction.permissions
    if perms.administrator or perms.manage_channels or perms.manage_guild:
        return True
    wanted = moderator_role.strip()
    if wanted.isdigit():
        return any(role.id == int(wanted) for role in user.roles)
    wanted = wanted.casefold()
    return bool(wanted) and any(role.name.casefold() == wanted for role in user.roles)


def display_name(user: discord.abc.User) -> str:
    """A user's display name as replies show it (:func:`bot.replies.user_text`): ``*Bob*``
    must not turn a reply italic, nor a name spell a mention, a link or a spoiler, nor a
    bidi override turn the rest of the line backwards.  A name of nothing but such
    characters is shown as the user's account name, cleaned the same way."""
    return (user_text(user.display_name, NAME_LIMIT) or user_text(user.name, NAME_LIMIT)
            or f"user {user.id}")


def option_value(value: Any) -> Any:
    """An option value as the service takes it: users become :class:`UserRef`."""
    if isinstance(value, (discord.Member, discord.User)):
        return UserRef(id=str(value.id), name=display_name(value))
    if isinstance(value, discord.Object):
        # An unresolved user (autocomplete sends bare ids): keep the id as the name too.
        return UserRef(id=str(value.id), name=str(value.id))
    if isinstance(value, discord.app_commands.Choice):
        return value.value
    return value


async def fetch_upload(value: Any) -> Any:
    """An attachment as an :class:`Upload`: its bytes fetched from Discord unless it is over
    the scenario limit (refused by the service without downloading it); other values as
    they are."""
    if not isinstance(value, discord.Attachment):
        return value
    if value.size >= MAX_UPLOAD:
        return Upload(name=value.filename, size=value.size)
    try:
        data = await value.read()
    except WIRE_ERRORS:
        log.warning("could not fetch attachment %s", value.filename)
        return Upload(name=value.filename, size=value.size)
    return Upload(name=value.filename, size=value.size, data=data)


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
        user_name=display_name(user),
        is_moderator=is_moderator(interaction, moderator_role),
        command=command,
        options={k: option_value(v) for k, v in options.items() if v is not None},
        interaction_id=str(interaction.id),
        private_channel=interaction.guild_id is None,
    )


def missing_permissions(interaction: discord.Interaction) -> list[str]:
    """The permissions the bot needs in this channel and lacks, by their names in Discord.

    View Channel and Send Messages (Send Messages in Threads in a thread) to post a reply
    that the interaction could not carry; Attach Files for maps and logs.  No embeds are
    used, so Embed Links is not needed.
    """
    perms = interaction.app_permissions
    missing = [] if perms.view_channel else ["View Channel"]
    thread = in_thread(interaction)
    if thread and not perms.send_messages_in_threads:
        missing.append("Send Messages in Threads")
    elif not thread and not perms.send_messages:
        missing.append("Send Messages")
    if not perms.attach_files:
        missing.append("Attach Files")
    return missing


def permission_note(reply: Reply, missing: list[str]) -> Reply:
    """Say plainly which permission the bot lacks, and drop what it would be refused."""
    if reply.ephemeral and "Attach Files" not in missing:
        return reply
    lacks = [m for m in missing if m != "Attach Files" or reply.snapshot_key or reply.attachments]
    if not lacks:
        return reply
    update: dict[str, Any] = {}
    if "Attach Files" in lacks:
        update = {"snapshot_key": None, "attachments": []}
    note = (f"(I lack the {' and '.join(lacks)} permission{'s' if len(lacks) > 1 else ''} "
            "in this channel; a server admin can grant it in the channel's settings.)")
    return reply.model_copy(update={**update, "text": f"{reply.text}\n{note}"})


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
    if not interaction.extras.get(PLACEHOLDER):
        return
    try:
        await interaction.delete_original_response()
    except WIRE_ERRORS:
        log.warning("could not delete the deferred response of interaction %s", interaction.id)
    interaction.extras[PLACEHOLDER] = False


async def defer(interaction: discord.Interaction, *, ephemeral: bool) -> bool:
    """Defer with a "thinking" placeholder; False if Discord refused (the work goes on)."""
    try:
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)
    except WIRE_ERRORS as error:
        if not (ambiguous(error) and await _deferred_anyway(interaction)):
            log.warning("could not defer interaction %s: %s", interaction.id, error)
            return False
        log.info("interaction %s: deferred despite %s", interaction.id, error)
    # Remember whether a public placeholder now stands in the channel (see above).
    interaction.extras[PLACEHOLDER] = not ephemeral
    interaction.extras[DEFERRED] = True
    return True


async def _deferred_anyway(interaction: discord.Interaction) -> bool:
    """After a defer answered ambiguously (a 5xx, a timeout, a reset): whether Discord made
    the "thinking" placeholder all the same (issue 40).  If so the interaction is marked
    answered, as discord.py would have, so the reply replaces the placeholder instead of
    being refused as a second response and the placeholder left to expire."""
    try:
        original = await interaction.original_response()
    except WIRE_ERRORS:
        return False
    if not original.flags.loading:
        return False
    # discord.py sets this once the defer request returns; it did not return.
    interaction.response._response_type = discord.InteractionResponseType.deferred_channel_message
    return True


def seconds_left(interaction: discord.Interaction, defer_after: float) -> float:
    """How long ``handle`` may still run before deferring, counted from the creation.

    The elapsed time is clamped to ``[0, defer_after]``: a clock ahead of Discord's must
    not make us wait longer, one behind defers at once.
    """
    elapsed = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    return defer_after - min(max(elapsed, 0.0), defer_after)


async def respond(
    interaction: discord.Interaction,
    service: ServiceLike,
    inv: Invocation,
    *,
    defer_after: float = DEFER_AFTER,
    defer_first: bool = False,
    private: bool = False,
) -> None:
    """Run ``inv`` through the service and answer the interaction (see the module doc).

    ``defer_first`` defers before any work (commands that build big files), privately
    when ``private``.
    """
    missing = missing_permissions(interaction)
    if defer_first:
        await defer(interaction, ephemeral=private)
    pending = asyncio.ensure_future(service.handle(inv))
    if not interaction.response.is_done():
        done, _ = await asyncio.wait({pending}, timeout=seconds_left(interaction, defer_after))
        if not done:
            log.info("/%s is slow; deferring interaction %s", " ".join(inv.command), interaction.id)
            await defer(interaction, ephemeral=False)
    reply = await pending
    if reply.error:
        await _private_or_log(interaction, reply.text)
        await _owed(interaction, service, inv, reply)
        return
    reply = permission_note(reply, missing)
    reply = await with_offer(service, reply, inv.channel_id)
    if reply.ephemeral and interaction.response.is_done():
        # Deferred publicly because handle was slow, but the answer is private.
        await _drop_public_defer(interaction)
    skip = {inv.user_id}
    reply = reply.model_copy(update={"mentions": [m for m in pingable(reply.mentions) if m not in skip]})
    delivery = Delivery(interaction, reply, owed=service,
                        complete=lambda r: _with_snapshot(service, r))
    await delivery.run()
    if not delivery.pending:
        await _owed(interaction, service, inv, reply)
    if reply.threads:
        await open_threads(interaction, service, reply)


async def open_threads(interaction: discord.Interaction, service: ServiceLike, reply: Reply) -> None:
    """Open a public thread under the channel for each pairing the reply schedules (issue
    44), start its game there and post the game's first message in it.  A thread Discord
    refuses is said in the channel's log; the pairing waits (a moderator schedules nothing
    twice: the pairing is stored, its game not yet started)."""
    channel = interaction.channel
    if isinstance(channel, discord.Thread):
        channel = channel.parent
    if not isinstance(channel, discord.TextChannel):
        log.warning("cannot open league threads in channel %s (not a text channel)", interaction.channel_id)
        return
    for opening in reply.threads:
        try:
            thread = await channel.create_thread(name=opening.name, type=discord.ChannelType.public_thread,
                                                 auto_archive_duration=10080)
        except WIRE_ERRORS as error:
            log.warning("could not open the thread of pairing %s: %s", opening.pairing_id, error)
            continue
        opened = await service.open_pairing(opening, str(thread.id), str(interaction.guild_id))
        opened = await _with_snapshot(service, await with_offer(service, opened, str(thread.id)))
        try:
            await send_to_channel(interaction.client, str(thread.id), opened,
                                  nonce=nonce_of("pairing", opening.pairing_id))
        except WIRE_ERRORS as error:
            log.warning("the first message of pairing %s's game is undelivered: %s", opening.pairing_id, error)


async def _private_or_log(interaction: discord.Interaction, text: str) -> None:
    try:
        await send_private(interaction, text)
    except WIRE_ERRORS as error:
        # A refusal changed nothing: there is nothing to announce in the channel.
        log.warning("could not send a refusal to interaction %s: %s", interaction.id, error)


async def _owed(interaction: discord.Interaction, service: ServiceLike, inv: Invocation,
                reply: Reply) -> None:
    """Deliver what this channel is owed, pinging neither the invoker nor those just pinged."""
    try:
        await deliver_owed(interaction, service, skip={inv.user_id, *reply.mentions},
                           complete=lambda r: _owed_complete(service, r, inv.channel_id))
    except Exception:  # noqa: BLE001 - the reply itself went out; owed ones wait for the next
        log.exception("delivering owed announcements in %s failed", interaction.channel_id)


async def _owed_complete(service: ServiceLike, reply: Reply, channel_id: str) -> Reply:
    """An owed announcement made whole: the answers it offers, if the game is still where
    it asked (the public line of an order answered privately, issue 28), and its map."""
    return await _with_snapshot(service, await with_offer(service, reply, channel_id))


async def _with_snapshot(service: ServiceLike, reply: Reply) -> Reply:
    """Attach the snapshot (or an ended game's page); if drawing fails the step still
    stands, so say so and go on."""
    if reply.page_key is not None:
        return await _drawn(service.attach_page, reply, "page_key",
                            "No page this time: {} /game export still gives the log.")
    if not reply.snapshot_key:
        return reply
    return await _drawn(service.attach_snapshot, reply, "snapshot_key", "No map this time: {}")


async def _drawn(attach: Callable[[Reply], Awaitable[Reply]], reply: Reply, key: str,
                 note: str) -> Reply:
    """``attach(reply)``, or the reply with ``note`` (an apology with an incident id) and
    ``key`` cleared when drawing fails."""
    try:
        return await attach(reply)
    except Exception:
        sorry = report(log, "incident %s: drawing %s %s failed", key, getattr(reply, key))
        return reply.model_copy(update={"text": f"{reply.text}\n({note.format(sorry)})",
                                        key: None})
