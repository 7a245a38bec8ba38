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

* Every announcement is idempotent (issue 25): a request Discord carried out but answered
  with a 5xx must not be sent again.  The initial response and the follow-up that replaces
  a "thinking" placeholder are looked up (``original_response``) before anything is posted
  again; every other public message (the second piece of a long reply, the ping after a
  defer, the map when the edit that attaches it failed, a late announcement) is posted with
  ``channel.send`` and a nonce derived from what it carries, with ``enforce_nonce`` (which
  discord.py sets with any nonce): sent again, Discord returns the first message instead of
  creating a second one.  Only without Send Messages does a follow-up stand in.
* The map is never lost: when the edit that attaches it fails it is posted to the channel;
  when that fails too it is owed with the announcement (the owed reply keeps its
  ``snapshot_key``), and a late announcement carries its map.  A public "thinking"
  placeholder whose answer went to the channel instead is deleted, not left to expire.
* A picture queued behind others' (issue 41) does not hold the reply: the message says in
  a line that it follows, and the picture is edited in when drawn, the line taken out.

Private replies (status, help, logs) are never posted in the channel in their stead.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import logging
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable, Protocol

import aiohttp
import discord

from bot.discord.messages import Outgoing, compose, mention, pingable
from bot.discord.widgets import view_of
from bot.models import Reply, later_of
from bot.replies import FOLLOWS_LINE

log = logging.getLogger("referee.discord")

#: Key in ``Interaction.extras``: a public "thinking" placeholder is showing.
PLACEHOLDER = "referee_public_placeholder"
#: Key in ``Interaction.extras``: the interaction was deferred (any visibility), so the
#: next follow-up edits the placeholder instead of creating a message.
DEFERRED = "referee_deferred"


class OffersLike(Protocol):
    """Where the answers to tap under a reply come from (issue 30)."""

    async def attach_offer(self, reply: Reply, channel_id: str) -> Reply:
        """Add the answers to tap that ``reply.offer_key`` names."""
        ...


async def with_offer(service: OffersLike, reply: Reply, channel_id: str) -> Reply:
    """The answers to tap under the reply (issue 30); without them if anything goes wrong:
    the step is committed and its announcement must go out."""
    try:
        return await service.attach_offer(reply, channel_id)
    except Exception:  # noqa: BLE001
        log.exception("offering answers under a reply in %s failed", channel_id)
        return reply


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


#: What a request to Discord can fail with (issue 40): Discord's answer (an
#: ``HTTPException``), or the wire's: a timeout, a connection reset (aiohttp's
#: ``ClientOSError``, a bare ``ConnectionResetError``), which are not ``HTTPException``s and
#: which discord.py retries only for errno 54/10054.  A step is committed before its
#: announcement goes out, so every one of them must be caught where Discord's are.
WIRE_ERRORS: tuple[type[BaseException], ...] = (
    discord.HTTPException, asyncio.TimeoutError, aiohttp.ClientError, OSError)


def ambiguous(error: BaseException) -> bool:
    """Whether the request may have been carried out all the same: a 5xx, or the wire
    failing (a timeout or a reset says nothing of what Discord did), as opposed to a refusal."""
    return isinstance(error, discord.DiscordServerError) or not isinstance(error, discord.HTTPException)


def failure_text(error: BaseException) -> str:
    """A short account of a refused or lost request for the log."""
    if isinstance(error, discord.HTTPException):
        return f"{error.status} {getattr(error, 'code', 0)} {error.text[:80]!r}"
    return f"{type(error).__name__} {str(error)[:80]!r}"


def refusal_text(error: BaseException) -> str:
    """What Discord said, or what the wire did, in a few words for the players."""
    if isinstance(error, discord.HTTPException):
        return error.text[:60]
    return "the connection to Discord failed"


def in_thread(interaction: discord.Interaction) -> bool:
    """Whether the interaction comes from a thread (its own Send Messages permission)."""
    return isinstance(interaction.channel, discord.Thread) or getattr(
        interaction.channel, "type", None) in (discord.ChannelType.public_thread,
                                               discord.ChannelType.private_thread)


def can_post(interaction: discord.Interaction) -> bool:
    """Whether the bot may post in the interaction's channel with ``channel.send``."""
    perms = interaction.app_permissions
    allowed = perms.send_messages_in_threads if in_thread(interaction) else perms.send_messages
    return bool(perms.view_channel and allowed)


def nonce_of(*parts: object) -> str:
    """A message nonce (at most 25 characters) determined by ``parts``: the same message
    sent again carries the same nonce, and Discord creates it once."""
    return hashlib.blake2b(repr(parts).encode(), digest_size=12).hexdigest()[:25]


async def post_message(channel: discord.abc.Messageable, message: Outgoing, nonce: str,
                       view: discord.ui.View | None = None) -> discord.Message:
    """``channel.send`` one message with ``nonce`` (``enforce_nonce``: Discord returns the
    message already created with that nonce instead of a second one).  After a 5xx it is
    sent once more with the same nonce, which is safe for that reason: a 5xx does not say
    whether the first went through.  ``view``: the answers to tap under it (issue 30)."""
    async def send() -> discord.Message:
        kwargs: dict[str, Any] = {"content": message.content or None, "nonce": nonce,
                                  "allowed_mentions": allowed_mentions(message.mentions)}
        if message.attachments:
            kwargs["files"] = files_of(message)
        if view is not None:
            kwargs["view"] = view
        return await channel.send(**kwargs)

    try:
        return await send()
    except WIRE_ERRORS as error:
        if not ambiguous(error):
            raise
        log.info("channel.send answered %s; sending again with nonce %s", failure_text(error), nonce)
        return await send()


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
    #: What that message says (to take the "picture follows" line out again).
    last_content: str = ""
    #: The message says its picture follows (issue 41): the edit that attaches it restores it.
    said_follows: bool = False
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
        except WIRE_ERRORS as error:
            log.warning("reply to interaction %s failed (%s)", self.interaction.id,
                        failure_text(error))
            if self.pending and self.public:
                await self._to_channel()
            elif self.pending:
                log.warning("a private reply to interaction %s was lost", self.interaction.id)

    # -- the normal paths ------------------------------------------------------------------

    async def _text_then_files(self) -> None:
        """Initial response with the text (and ping), more messages for the rest, then the map."""
        self.pending = compose(self.reply.model_copy(update={"attachments": []}))
        index = 0
        while self.pending:
            message = self.pending[0]
            if not self.interaction.response.is_done():
                await self._initial_response(self._kwargs(message))
                self.last_message = "original"
            else:
                self.last_message = await self._more(message, index)
            self.last_content = message.content
            self.pending.pop(0)
            index += 1
        reply = await self._completed()
        await self._attach(reply)

    async def _initial_response(self, kwargs: dict[str, Any]) -> None:
        """The initial response; after a 5xx, ask Discord whether it was created anyway.

        A server error does not say whether the message exists: posting it again to the
        channel could announce the step twice, so the original response is looked up first.
        """
        try:
            await self.interaction.response.send_message(**kwargs)
        except WIRE_ERRORS as error:
            if not ambiguous(error):
                raise
            try:
                await self.interaction.original_response()
            except WIRE_ERRORS:
                raise error from None
            log.info("interaction %s: the response was created despite %s", self.interaction.id,
                     failure_text(error))

    async def _more(self, message: Outgoing, index: int | str, files: list[discord.File] | None = None) -> Any:
        """A message after the first: ``channel.send`` with a nonce when the reply is public
        and the bot may post (idempotent), else a follow-up."""
        if self.public and can_post(self.interaction):
            channel = self.interaction.client.get_partial_messageable(int(self.channel_id))
            return await post_message(channel, message, self.nonce(index), view=self._view_for(message))
        kwargs = self._kwargs(message)
        if files:
            kwargs["files"] = files
        return await self.interaction.followup.send(**kwargs, wait=True)

    def nonce(self, index: int | str) -> str:
        """The nonce of this reply's message ``index`` (see :func:`nonce_of`)."""
        return nonce_of("reply", self.interaction.id, index)

    async def _after_defer(self) -> None:
        """Deferred: text and map replace the placeholder, the ping comes as its own message."""
        reply = await self._completed()
        # The first follow-up edits the placeholder, and an edit notifies no one: the ping
        # names everyone, even those the text already names as <@id> (issue 40).
        ids = pingable(reply.mentions)
        ping = " ".join(mention(user_id) for user_id in ids)
        self.pending = compose(reply.model_copy(update={"mentions": []}))
        texts = len(self.pending)
        if ids:
            self.pending.append(Outgoing(content=ping, mentions=ids))
        index = 0
        while self.pending:
            message = self.pending[0]
            files = files_of(message)
            if index == 0:
                kwargs = self._kwargs(message)
                if files:
                    kwargs["files"] = files
                await self._replace_placeholder(kwargs)
                sent: Any = "original"
            else:
                sent = await self._more(message, index, files)
            if index < texts:
                self.last_message, self.last_content = sent, message.content
            self.interaction.extras[PLACEHOLDER] = False
            self.files_done = self.files_done or bool(files)
            self.pending.pop(0)
            index += 1
        later = later_of(reply)
        if later is not None:  # the text said the picture follows: edit it in when drawn
            self.said_follows = True
            await self._attach(fit_files(await later, self.interaction.filesize_limit))

    async def _replace_placeholder(self, kwargs: dict[str, Any]) -> None:
        """The first follow-up after a defer (it edits the placeholder); after a 5xx, the
        original response is looked up: no longer "thinking", it was replaced anyway."""
        try:
            await self.interaction.followup.send(**kwargs)
        except WIRE_ERRORS as error:
            if not ambiguous(error):
                raise
            try:
                original = await self.interaction.original_response()
            except WIRE_ERRORS:
                raise error from None
            if original.flags.loading:
                raise
            log.info("interaction %s: the placeholder was replaced despite %s",
                     self.interaction.id, failure_text(error))

    async def _completed(self) -> Reply:
        reply = self.reply
        if self.complete is not None:
            reply = await self.complete(reply)
        return fit_files(reply, self.interaction.filesize_limit)

    async def _attach(self, reply: Reply) -> None:
        """Attach the files to the message the text ended in (an edit: it pings no one).

        A note added while completing the reply (no map: rendering failed, a file too
        large) follows as a message of its own, without pings.  A picture that follows
        (issue 41) is said so in the message first, then edited in when drawn.
        """
        later = later_of(reply)
        if later is not None:
            await self._say_it_follows()
            reply = fit_files(await later, self.interaction.filesize_limit)
        self.files_done = True
        note = reply.text[len(self.reply.text):].strip() if reply.text != self.reply.text else ""
        if note:
            try:
                await self.interaction.followup.send(
                    note, ephemeral=reply.ephemeral, allowed_mentions=discord.AllowedMentions.none()
                )
            except WIRE_ERRORS as error:
                log.warning("could not send a note to %s (%s)", self.interaction.id,
                            failure_text(error))
        if not reply.attachments:
            return
        groups = compose(Reply(text="", attachments=reply.attachments))
        rest = groups[1:]
        try:
            await self._edit_in_files(groups[0])
        except WIRE_ERRORS as error:
            # The text (and ping) went out: only the map is missing.  Post it as a message
            # of its own rather than lose it (issue 25).
            log.warning("attaching files to interaction %s failed (%s)", self.interaction.id,
                        failure_text(error))
            rest = groups
        for n, group in enumerate(rest):
            try:
                await self._more(group, f"files{n}", files_of(group))
            except WIRE_ERRORS as error:
                await self._map_missing(reply, error)
                return

    async def _say_it_follows(self) -> None:
        """Add the "picture follows" line to the message the text ended in (an edit: it
        pings no one).  Failing, the picture still comes; the line is a courtesy."""
        content = f"{self.last_content}\n{FOLLOWS_LINE}"
        try:
            if self.last_message == "original":
                await self.interaction.edit_original_response(content=content)
            else:
                await self.last_message.edit(content=content)
            self.said_follows = True
        except WIRE_ERRORS as error:
            log.info("could not say the picture of %s follows (%s)", self.interaction.id, failure_text(error))

    def _edit_kwargs(self, group: Outgoing) -> dict[str, Any]:
        """The edit that attaches ``group``'s files; it takes the "follows" line out."""
        kwargs: dict[str, Any] = {"attachments": files_of(group)}
        if self.said_follows:
            kwargs["content"] = self.last_content.replace(f"\n{FOLLOWS_LINE}", "", 1)
        return kwargs

    async def _edit_in_files(self, group: Outgoing) -> None:
        """Attach ``group``'s files to the message the text ended in.  After an ambiguous
        failure (a 5xx, a timeout, a reset: Discord may have carried the edit out) the edit
        is made once more rather than the map posted as a new message: an edit sets the
        message's attachments, so made twice it still shows one map (issue 40).  Failing so
        again, the original response is looked up: holding the files, it is done."""
        for attempt in range(2):
            try:
                if self.last_message == "original":
                    await self.interaction.edit_original_response(**self._edit_kwargs(group))
                else:
                    await self.last_message.edit(**self._edit_kwargs(group))
                return
            except WIRE_ERRORS as error:
                if not ambiguous(error):
                    raise
                if attempt:
                    if not await self._original_holds(group):
                        raise
                    return
                log.info("attaching files to interaction %s answered %s; editing again",
                         self.interaction.id, failure_text(error))

    async def _original_holds(self, group: Outgoing) -> bool:
        """Whether the original response already carries ``group``'s files (an edit Discord
        carried out but answered with a 5xx or lost on the wire)."""
        if self.last_message != "original":
            return False
        try:
            original = await self.interaction.original_response()
        except WIRE_ERRORS:
            return False
        names = {a.filename for a in original.attachments}
        return all(a.filename in names for a in group.attachments)

    async def _map_missing(self, reply: Reply, error: BaseException) -> None:
        """The map could not be posted at all: say so where possible, and owe it (with its
        snapshot) so it goes out with the channel's next reply."""
        log.warning("posting the map of interaction %s failed (%s)", self.interaction.id,
                    failure_text(error))
        if not self.public:
            return
        if self.owed is not None and self.reply.snapshot_key and not isinstance(error, discord.Forbidden):
            # Not refused for good (a permission would refuse it again): owed, with the map.
            await self.owed.owe(self.channel_id, Reply(
                text="🗺️ The map of the step announced above.", snapshot_key=self.reply.snapshot_key))
            return
        note = f"(The map could not be attached: Discord refused it ({refusal_text(error)}).)"
        try:
            await self.interaction.followup.send(note, allowed_mentions=discord.AllowedMentions.none())
        except WIRE_ERRORS:
            log.warning("could not say that the map is missing on %s", self.interaction.id)

    def _kwargs(self, message: Outgoing) -> dict[str, Any]:
        kwargs: dict[str, Any] = {
            "content": message.content or None,
            "allowed_mentions": allowed_mentions(message.mentions),
            "ephemeral": self.reply.ephemeral,
        }
        view = self._view_for(message)
        if view is not None:
            kwargs["view"] = view
        return kwargs

    def _view_for(self, message: Outgoing) -> discord.ui.View | None:
        """The answers to tap (issue 30) go under the last message: the one that pings."""
        return view_of(self.reply) if self.pending and message is self.pending[-1] else None

    # -- the fallbacks ---------------------------------------------------------------------

    async def _to_channel(self) -> None:
        """Post what did not get through with ``channel.send``; if that fails, owe it (with
        its map, when the map did not go out either)."""
        text = "\n".join(m.content for m in self.pending if m.content)
        ids = [i for m in self.pending for i in m.mentions]
        remainder = Reply(text=text, mentions=ids, buttons=self.reply.buttons, menu=self.reply.menu)
        try:
            await send_to_channel(self.interaction.client, self.channel_id, remainder,
                                  nonce=self.nonce("fallback"))
        except WIRE_ERRORS as error:
            log.warning("posting the reply to channel %s failed too (%s); it is owed",
                        self.channel_id, failure_text(error))
            if self.owed is not None:
                key = None if self.files_done else self.reply.snapshot_key
                await self.owed.owe(self.channel_id, remainder.model_copy(update={"snapshot_key": key}))
            await self._drop_placeholder()
            return
        self.pending = []
        await self._drop_placeholder()
        if not self.files_done:
            await self._files_to_channel()

    async def _drop_placeholder(self) -> None:
        """A public "thinking" placeholder whose answer went elsewhere is deleted, not left
        to expire into "The application did not respond" (issue 25)."""
        if not self.interaction.extras.get(PLACEHOLDER):
            return
        try:
            await self.interaction.delete_original_response()
            self.interaction.extras[PLACEHOLDER] = False
        except WIRE_ERRORS as error:
            log.warning("could not delete the placeholder of %s (%s)", self.interaction.id,
                        failure_text(error))

    async def _files_to_channel(self) -> None:
        try:
            reply = await self._completed()
            later = later_of(reply)
            if later is not None:  # posted as a message of its own: no reply waits on it
                reply = fit_files(await later, self.interaction.filesize_limit)
        except Exception:  # noqa: BLE001 - the announcement went out; the map is a bonus
            log.exception("rendering for the channel fallback failed")
            return
        if not reply.attachments:
            return
        channel = self.interaction.client.get_partial_messageable(int(self.channel_id))
        for n, group in enumerate(compose(Reply(text="", attachments=reply.attachments))):
            try:
                await post_message(channel, group, self.nonce(f"files{n}"))
            except WIRE_ERRORS as error:
                await self._map_missing(reply, error)
                return


async def send_to_channel(client: discord.Client, channel_id: str, reply: Reply, *,
                          nonce: str) -> None:
    """Post ``reply`` as new messages in a channel or thread, its files with the last, each
    message with a nonce derived from ``nonce`` (see :func:`post_message`)."""
    channel = client.get_partial_messageable(int(channel_id))
    messages = compose(reply)
    for n, message in enumerate(messages):
        # The answers to tap (issue 30) go under the last message: the one that pings.
        view = view_of(reply) if n == len(messages) - 1 else None
        await post_message(channel, message, nonce_of(nonce, n), view=view)


async def deliver_owed(
    interaction: discord.Interaction, owed: OwedLike, *, skip: set[str],
    complete: Callable[[Reply], Awaitable[Reply]] | None = None,
) -> None:
    """Deliver the announcements owed in the interaction's channel as new public messages,
    each with its map (``complete`` renders it).

    Users in ``skip`` (the invoker, anyone the reply just pinged) are not pinged again.
    Posted with ``channel.send`` and a nonce of the owed announcement (its id and text: an
    id can be used again once settled), so one that went out but was answered with an error
    is not posted twice; a follow-up only when the bot
    may not post in the channel.
    """
    channel_id = str(interaction.channel_id)
    for owed_id, reply in await owed.owed(channel_id):
        reply = without_pings_of(reply, skip)
        # An ended game's page is owed by design (built after the end's announcement), and so
        # is the public line of an order answered privately (issue 28): not late.
        late = reply if reply.page_key is not None or reply.follows else reply.model_copy(
            update={"text": f"(Posted late: it could not be sent before.)\n{reply.text}"})
        if complete is not None and (late.snapshot_key or late.page_key is not None or late.offer_key):
            completed = await complete(late)
            later = later_of(completed)  # already late: it goes with its picture
            late = fit_files(await later if later is not None else completed, interaction.filesize_limit)
        try:
            if can_post(interaction):
                await send_to_channel(interaction.client, channel_id, late,
                                      nonce=nonce_of("owed", channel_id, owed_id, reply.text))
            else:
                for message in compose(late):
                    kwargs: dict[str, Any] = {"content": message.content or None,
                                              "allowed_mentions": allowed_mentions(message.mentions)}
                    if message.attachments:
                        kwargs["files"] = files_of(message)
                    await interaction.followup.send(**kwargs)
        except WIRE_ERRORS as error:
            log.warning("owed announcement %s still undelivered (%s)", owed_id, failure_text(error))
            return
        await owed.settle(owed_id)
        skip |= set(reply.mentions)
