"""What passes between a front end and the service: an invocation in, a reply out.

Front ends (Discord, console, tests) build an :class:`Invocation` and show the
:class:`Reply`; they hold no game logic.
"""

from __future__ import annotations

from typing import Any, Awaitable, Literal

from pydantic import BaseModel, Field, PrivateAttr


class UserRef(BaseModel):
    """A user named in an option (``/mod seat side: user:``): Discord id and display name."""

    id: str
    name: str


class Upload(BaseModel):
    """A file attached to a command (``/game new scenario-file:``): its name, its size as
    announced, and its bytes (None when it was too big to fetch, or could not be)."""

    name: str
    size: int
    data: bytes | None = None


class Invocation(BaseModel):
    """One command typed by one user in one channel."""

    channel_id: str
    guild_id: str | None = None
    user_id: str
    user_name: str
    is_moderator: bool = False
    #: The command path, e.g. ``["rr", "move"]`` or ``["game", "new"]``.
    command: list[str]
    #: Option values by name: strings from the console, typed values from Discord;
    #: options of kind "user" carry a :class:`UserRef`, of kind "file" an :class:`Upload`.
    options: dict[str, Any] = Field(default_factory=dict)
    #: The Discord interaction id (or a console counter); a repeat is answered from the log.
    interaction_id: str | None = None
    #: Sent from a direct message or group DM (Discord): games need a server channel.
    private_channel: bool = False
    #: A pressed answer (issue 30): the order is refused unless the game's head is still
    #: this step, so a press on a question the game has moved past changes nothing.
    expect_head: int | None = None
    #: A pressed answer is given for the side it was asked of, not whichever the user holds.
    as_side: str | None = None
    #: Given privately (issue 28): a sealed order's command on Discord (answered ephemerally),
    #: ``secret /mak …`` on the console.  A sealed order given otherwise is refused.
    private: bool = False
    #: Where it was typed: moderating is a Discord role or permission there, the console's
    #: ``--moderator`` here, so a refusal says how to become one on the front end in use.
    front: Literal["discord", "console"] = "discord"


class Attachment(BaseModel):
    """A file sent with a reply: a PNG snapshot or a JSON export."""

    filename: str
    data: bytes
    description: str = ""


class ReplyField(BaseModel):
    """A titled block of a reply (an embed field on Discord, a section in the console)."""

    name: str
    value: str


class Button(BaseModel):
    """A button under a reply (issue 30).  ``token`` says what a press does; the front end
    sends it back unchanged with :meth:`bot.service.Service.press`."""

    label: str
    token: str
    style: Literal["primary", "secondary", "success", "danger"] = "secondary"
    disabled: bool = False


class MenuOption(BaseModel):
    """One entry of a select menu: what the player reads and the value sent back."""

    label: str
    value: str
    description: str = ""


class SelectMenu(BaseModel):
    """A select menu under a reply: choosing an entry sends ``token`` and the entry's value."""

    token: str
    placeholder: str
    options: list[MenuOption]


class ThreadOpening(BaseModel):
    """A thread a reply asks its front end to open, then to start a league pairing's game in
    (issue 44): Discord opens a public thread under the channel, the console a channel;
    each calls ``Service.open_pairing`` with it."""

    pairing_id: int
    name: str


class Reply(BaseModel):
    """What the service answers.

    ``ephemeral`` replies are seen only by the invoker (errors, help); the others are posted
    in the channel.  ``mentions`` are user ids to ping (whoever must act next).
    """

    text: str
    fields: list[ReplyField] = Field(default_factory=list)
    attachments: list[Attachment] = Field(default_factory=list)
    mentions: list[str] = Field(default_factory=list)
    ephemeral: bool = False
    #: True when the reply reports an error (the order changed nothing).
    error: bool = False
    #: Set when a map snapshot belongs with this reply: the front end defers (Discord), then
    #: calls ``Service.attach_snapshot(reply)``, which renders off the event loop and adds
    #: the PNG to ``attachments``.  The step is already committed when this is set.
    snapshot_key: str | None = None
    #: A turn digest's second picture (issue 40: the whole map cannot be read at 400 px):
    #: ``game_id:before_seq:last_seq``, the phone-width focus of what changed from the one
    #: step to the other, attached beside the snapshot by ``Service.attach_snapshot``.
    focus_key: str | None = None
    #: The game whose whole HTML page (every map, step by step) this reply carries, built at
    #: delivery by ``Service.attach_page`` (issue 25): ``/game end`` announces the result, the
    #: seed and the log at once and owes this one, so a restart cannot lose it.
    page_key: int | None = None
    #: Set when the reply leaves a side to act (issue 30): the front end calls
    #: ``Service.attach_offer(reply)`` before sending, which adds that side's answers (the
    #: buttons and menu below, numbered lines in ``text``) from the game in hand — at delivery,
    #: like the map, so the order's commit does not pay for them.  ``"game id:step"``.
    offer_key: str | None = None
    #: Answers to tap (issue 30): buttons and at most one select menu, shown under the text.
    #: The same choices are numbered in ``text``, for screen readers and the console.
    buttons: list[Button] = Field(default_factory=list)
    menu: SelectMenu | None = None
    #: Set on the reply to a press: who chose what, for the message that asked (its buttons
    #: are then removed and this line added).
    chosen: str | None = None
    #: An announcement owed to the channel by design, not late (issue 28: the public line of
    #: an order answered privately, posted right after the private answer).
    follows: bool = False
    #: Threads to open once the reply is posted, each with its league game (issue 44).
    threads: list[ThreadOpening] = Field(default_factory=list)
    #: What the command's commit left (``bot.ledger.Landed``: the game after it, its new
    #: step and state, the turn it ended), for the picture, the offer and the pacer to answer
    #: from without reading the store again (issue 39).  Never stored: a reply read back
    #: from the record (a repeated delivery, an owed announcement) has none, and they read
    #: the store.  Set and read through ``bot.ledger.carrying`` and ``landed_of``.
    _landed: Any = PrivateAttr(default=None)
    #: The picture that follows (issue 41): an ``asyncio.Future`` of this reply with its
    #: picture attached, set when the reply went without it because the renderer was busy.
    #: Read through :func:`later_of`; never stored.
    _later: Any = PrivateAttr(default=None)

    def __eq__(self, other: object) -> bool:
        """Replies are equal when they say the same: a commit's own reply (carrying what
        landed) equals the same reply read back from the record (carrying nothing)."""
        if not isinstance(other, Reply):
            return NotImplemented
        return self.__dict__ == other.__dict__

    __hash__ = None  # type: ignore[assignment]  # mutable, as pydantic's models are


def later_of(reply: Reply) -> "Awaitable[Reply] | None":
    """The reply with its picture, to come, when ``reply`` went without it (the renderer
    was busy, issue 41); None when nothing follows.  Awaiting it never raises: a picture
    that fails comes back as the reply with its incident line."""
    later = reply._later
    return later if later is not None and hasattr(later, "__await__") else None

