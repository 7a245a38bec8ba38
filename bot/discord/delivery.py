"""Getting a reply to the channel: the ping notifies, and a committed step is always announced.

Discord rules this module is shaped by (see the README's "On Discord" section):

* A mention notifies only in a request that **creates** a message: the initial response
  (callback type 4), a follow-up after it, a follow-up after a deferred response other than
  the first, or ``channel.send``.  The first follow-up after a deferred response edits the
  "thinking" placeholder, and an edit does not notify.
* So a reply is sent text first (the initial response carries the ping), and the map is
  attached afterwards by editing that message.  When the interaction had to be deferred,
  the text and map replace the placeholder and the ping follows as a second follow-up.
* The invoker is never pinged: they are looking at the reply.
* A reply that fails after the step was committed (the interaction expired: 10062, the
  token expired: 10015, the bot lacks a permission: 50013, rate limits or Discord's own
  errors) is posted with ``channel.send``; if that fails too, it is kept *owed* and
  delivered with the next reply in that channel (see :class:`OwedLike`).  A ping that did
  not go out travels with the owed announcement, so it is sent once, later.

Private replies (status, help, logs) are never posted in the channel in their stead.
"""

from __future__ import annotations

import io
import logging
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Protocol

import discord

from bot.discord.messages import Outgoing, compose, mention_line
from bot.discord.widgets import view_of
from bot.models import Reply

log = logging.getLogger("referee.discord")

#: Key in ``Interaction.extras``: a public "thinking" placeholder is showing.
PLACEHOLDER = "referee_public_placeholder"
#: Key in ``Interaction.extras``: the interaction was deferred (any visibility), so the
#: next follow-up edits the placeholder instead of creating a message.
DEFERRED = "referee_deferred"


class OwedLike(Protocol):
    """Where announcements that could not be delivered wait for the channel's next reply."""

    async def owe(self, channel_id: str, reply: Reply) -> None:
        """Keep ``reply`` to deliver with the next reply in ``channel_id``."""
        ...

    async def owed(self, channel_id: str) -> list[tuple[int, Reply]]:
        """The announcements still owed in a channel, oldest first, with their ids."""
        ...

    async def settle(self, owed_id: int) -> None:
        """An owed announcement was delivered."""
        ...


def files_of(message: Outgoing) -> list[discord.File]:
    """The message's attachments as discord.py files."""
    return [
        discord.File(io.BytesIO(a.data), filename=a.filename, description=a.description or None)
        for a in message.attachments
    ]


def allowed_mentions(user_ids: list[str]) -> discord.AllowedMentions:
    """Only these users may be pinged: never ``@everyone`` or a role, whatever the text says."""
    return discord.AllowedMentions(
        users=[discord.Object(id=int(user_id)) for user_id in user_ids],
        everyone=False, roles=False, replied_user=False,
    )


def without_pings_of(reply: Reply, user_ids: set[str]) -> Reply:
    """``reply`` with these users removed from its mentions (the invoker, already pinged ones)."""
    kept = [m for m in reply.mentions if m not in user_ids]
    return reply if kept == reply.mentions else reply.model_copy(update={"mentions": kept})


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


def failure_text(error: discord.HTTPException) -> str:
    """A short account of a refused request for the log."""
    return f"{error.status} {getattr(error, 'code', 0)} {error.text[:80]!r}"


@dataclass
class Delivery:
    """One reply on its way: what has reached the channel so far.

    ``pending`` holds the messages not yet delivered, the one with the ping last; a
    message leaves ``pending`` only once Discord accepted the request that carries it.
    """

    interaction: discord.Interaction
    reply: Reply
    owed: OwedLike | None = None
    #: Renders what the reply still needs (the map) once the text is out.
    complete: Callable[[Reply], Awaitable[Reply]] | None = None
    pending: list[Outgoing] = field(default_factory=list)
    #: The message the text ended in: ``"original"`` or a follow-up message.
    last_message: Any = None
    #: The files went out (or their failure was already told): a fallback leaves them be.
    files_done: bool = False

    @property
    def public(self) -> bool:
        """Whether the reply is meant for the channel (a step's announcement)."""
        return not self.reply.ephemeral

    @property
    def channel_id(self) -> str:
        """The channel (or thread) the reply belongs to."""
        return str(self.interaction.channel_id)

    async def run(self) -> None:
        """Send the reply; on failure post it to the channel, or keep it owed."""
        try:
            if self.interaction.extras.get(DEFERRED):
                await self._after_defer()
            else:
                await self._text_then_files()
        except discord.HTTPException as error:
            log.warning("reply to interaction %s failed (%s)", self.interaction.id,
                        failure_text(error))
            if self.pending and self.public:
                await self._to_channel()
            elif self.pending:
                log.warning("a private reply to interaction %s was lost", self.interaction.id)

    # -- the normal paths ------------------------------------------------------------------

    async def _text_then_files(self) -> None:
        """Initial response with the text (and ping), follow-ups for the rest, then the map."""
        self.pending = compose(self.reply.model_copy(update={"attachments": []}))
        while self.pending:
            message = self.pending[0]
            kwargs = self._kwargs(message)
            if not self.interaction.response.is_done():
                await self._initial_response(kwargs)
                self.last_message = "original"
            else:
                self.last_message = await self.interaction.followup.send(**kwargs, wait=True)
            self.pending.pop(0)
        reply = await self._completed()
        await self._attach(reply)

    async def _initial_response(self, kwargs: dict[str, Any]) -> None:
        """The initial response; after a 5xx, ask Discord whether it was created anyway.

        A server error does not say whether the message exists: posting it again to the
        channel could announce the step twice, so the original response is looked up first.
        """
        try:
            await self.interaction.response.send_message(**kwargs)
        except discord.DiscordServerError as error:
            try:
                await self.interaction.original_response()
            except discord.HTTPException:
                raise error from None
            log.info("interaction %s: the response was created despite %s", self.interaction.id,
                     failure_text(error))

    async def _after_defer(self) -> None:
        """Deferred: text and map replace the placeholder, the ping comes as its own message."""
        reply = await self._completed()
        ping, ids = mention_line(reply)
        self.pending = compose(reply.model_copy(update={"mentions": []}))
        if ids:
            self.pending.append(Outgoing(content=ping, mentions=ids))
        while self.pending:
            message = self.pending[0]
            kwargs = self._kwargs(message)
            files = files_of(message)
            if files:
                kwargs["files"] = files
            await self.interaction.followup.send(**kwargs)
            self.interaction.extras[PLACEHOLDER] = False
            self.files_done = self.files_done or bool(files)
            self.pending.pop(0)

    async def _completed(self) -> Reply:
        reply = self.reply
        if self.complete is not None:
            reply = await self.complete(reply)
        return fit_files(reply, self.interaction.filesize_limit)

    async def _attach(self, reply: Reply) -> None:
        """Attach the files to the message the text ended in (an edit: it pings no one).

        A note added while completing the reply (no map: rendering failed, a file too
        large) follows as a message of its own, without pings.
        """
        self.files_done = True
        note = reply.text[len(self.reply.text):].strip() if reply.text != self.reply.text else ""
        if note:
            try:
                await self.interaction.followup.send(
                    note, ephemeral=reply.ephemeral, allowed_mentions=discord.AllowedMentions.none()
                )
            except discord.HTTPException as error:
                log.warning("could not send a note to %s (%s)", self.interaction.id,
                            failure_text(error))
        if not reply.attachments:
            return
        groups = compose(Reply(text="", attachments=reply.attachments))
        first, rest = files_of(groups[0]), groups[1:]
        try:
            if self.last_message == "original":
                await self.interaction.edit_original_response(attachments=first)
            else:
                await self.last_message.edit(attachments=first)
            for group in rest:
                await self.interaction.followup.send(files=files_of(group), ephemeral=reply.ephemeral)
        except discord.HTTPException as error:
            # The text (and ping) went out: only the file is missing.  Say so once.
            log.warning("attaching files to interaction %s failed (%s)", self.interaction.id,
                        failure_text(error))
            note = f"(The map could not be attached: Discord refused it ({error.text[:60]}).)"
            try:
                await self.interaction.followup.send(
                    note, ephemeral=reply.ephemeral, allowed_mentions=discord.AllowedMentions.none()
                )
            except discord.HTTPException:
                log.warning("could not say that the map is missing on %s", self.interaction.id)

    def _kwargs(self, message: Outgoing) -> dict[str, Any]:
        kwargs: dict[str, Any] = {
            "content": message.content or None,
            "allowed_mentions": allowed_mentions(message.mentions),
            "ephemeral": self.reply.ephemeral,
        }
        # The answers to tap (issue 30) go under the last message: the one that pings.
        view = view_of(self.reply) if self.pending and message is self.pending[-1] else None
        if view is not None:
            kwargs["view"] = view
        return kwargs

    # -- the fallbacks ---------------------------------------------------------------------

    async def _to_channel(self) -> None:
        """Post what did not get through with ``channel.send``; if that fails, owe it."""
        text = "\n".join(m.content for m in self.pending if m.content)
        ids = [i for m in self.pending for i in m.mentions]
        remainder = Reply(text=text, mentions=ids, buttons=self.reply.buttons, menu=self.reply.menu)
        try:
            await send_to_channel(self.interaction.client, self.channel_id, remainder)
        except discord.HTTPException as error:
            log.warning("posting the reply to channel %s failed too (%s); it is owed",
                        self.channel_id, failure_text(error))
            if self.owed is not None:
                await self.owed.owe(self.channel_id, remainder)
            return
        self.pending = []
        if not self.files_done:
            await self._files_to_channel()

    async def _files_to_channel(self) -> None:
        try:
            reply = await self._completed()
        except Exception:  # noqa: BLE001 - the announcement went out; the map is a bonus
            log.exception("rendering for the channel fallback failed")
            return
        if not reply.attachments:
            return
        channel = self.interaction.client.get_partial_messageable(int(self.channel_id))
        for group in compose(Reply(text="", attachments=reply.attachments)):
            try:
                await channel.send(files=files_of(group))
            except discord.HTTPException as error:
                log.warning("posting the map to channel %s failed (%s)", self.channel_id,
                            failure_text(error))
                return


async def send_to_channel(client: discord.Client, channel_id: str, reply: Reply) -> None:
    """Post ``reply`` (text and ping, no files) as new messages in a channel or thread."""
    channel = client.get_partial_messageable(int(channel_id))
    messages = compose(reply.model_copy(update={"attachments": []}))
    for n, message in enumerate(messages, 1):
        view = view_of(reply) if n == len(messages) else None
        await channel.send(content=message.content or None,
                           allowed_mentions=allowed_mentions(message.mentions),
                           **({"view": view} if view is not None else {}))


async def deliver_owed(
    interaction: discord.Interaction, owed: OwedLike, *, skip: set[str]
) -> None:
    """Deliver the announcements owed in the interaction's channel as new public messages.

    Users in ``skip`` (the invoker, anyone the reply just pinged) are not pinged again.
    """
    channel_id = str(interaction.channel_id)
    for owed_id, reply in await owed.owed(channel_id):
        reply = without_pings_of(reply, skip)
        late = reply.model_copy(update={"text": f"(Posted late: it could not be sent before.)\n{reply.text}"})
        try:
            for message in compose(late):
                await interaction.followup.send(
                    content=message.content or None, allowed_mentions=allowed_mentions(message.mentions)
                )
        except discord.HTTPException:
            try:
                await send_to_channel(interaction.client, channel_id, late)
            except discord.HTTPException as error:
                log.warning("owed announcement %s still undelivered (%s)", owed_id, failure_text(error))
                return
        await owed.settle(owed_id)
        skip |= set(reply.mentions)
