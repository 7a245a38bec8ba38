"""Drive real discord.py interactions without a network.

* :class:`RecordingAdapter` replaces discord.py's webhook HTTP adapter, the layer every
  interaction response, follow-up and original-response edit goes through.  It answers
  those routes as Discord would and keeps what would have been sent (JSON payloads, the
  ``payload_json`` of multipart bodies, and the bytes of every file).
* :func:`interaction_payload` builds the JSON Discord sends for a slash command or an
  autocomplete request, so :class:`discord.Interaction` is built by discord.py itself from
  the client's real ``ConnectionState``.
* :class:`FakeService` implements the service interface with scripted replies, for the
  front end's own edge cases (slow handle, crashing renderer) that the real service is
  not supposed to produce.
"""

from __future__ import annotations

import asyncio
import io
import json
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord
from discord.webhook.async_ import AsyncWebhookAdapter, async_context
from PIL import Image

from bot.commands import CommandGroup, command_groups
from bot.models import Attachment, Invocation, Reply
from rules.core.contract import Choice

APP_ID = 900000000000000001
GUILD_ID = 500000000000000001
CHANNEL_ID = 600000000000000001
THREAD_ID = 600000000000000077
ALICE = 700000000000000001
BOB = 700000000000000002
MOD_ROLE_ID = 800000000000000001
EPHEMERAL = 1 << 6

#: Permission bits (Discord's values).
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADMINISTRATOR = 1 << 3
SEND_MESSAGES = 1 << 11
ATTACH_FILES = 1 << 15
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES_IN_THREADS = 1 << 38
#: What the bot is granted in the test channel unless a test says otherwise (the README's
#: permissions integer).
BOT_PERMISSIONS = VIEW_CHANNEL | SEND_MESSAGES | ATTACH_FILES | SEND_MESSAGES_IN_THREADS


@dataclass
class Sent:
    """One HTTP request discord.py made: what it would have sent to Discord.

    ``creates`` says whether the request makes a new message appear (only those notify the
    users they mention): an initial response with a message, a follow-up that is not the
    first after a deferred response (that one edits the "thinking" placeholder), or a
    message posted to a channel.
    """

    method: str
    path: str
    payload: dict[str, Any] | None
    files: dict[str, bytes] = field(default_factory=dict)
    creates: bool = False
    #: The error injected into this request, if any (the request then did nothing).
    failed: Exception | None = None
    #: The interaction token it used (None for REST requests such as ``channel.send``).
    token: str | None = None
    #: Discord carried it out although it answered with ``failed`` (a 5xx can mean that).
    done_anyway: bool = False
    #: A ``channel.send`` whose nonce was already used: Discord returned the message made
    #: then and created nothing.
    duplicate: bool = False

    @property
    def interaction_id(self) -> int | None:
        """The interaction this request answers (from its token), if any."""
        return int(self.token.removeprefix("token-")) if self.token else None

    @property
    def kind(self) -> str:
        """``callback``, ``followup``, ``edit_original``, ``edit_followup``,
        ``delete_original``, ``get_original``, ``channel_send`` or ``thread_open``."""
        if self.path.startswith("/channels/") and self.path.endswith("/threads"):
            return "thread_open"
        if self.path.startswith("/channels/"):
            return "channel_edit" if self.method == "PATCH" else "channel_send"
        if self.path.endswith("/callback"):
            return "callback"
        if self.path.endswith("/messages/@original"):
            return {"DELETE": "delete_original", "GET": "get_original"}.get(
                self.method, "edit_original")
        if "/messages/" in self.path:
            return "edit_followup"
        return "followup"

    @property
    def message(self) -> dict[str, Any]:
        """The message part: ``data`` of a callback, the whole body of a follow-up."""
        assert self.payload is not None
        return self.payload.get("data", {}) if self.kind == "callback" else self.payload

    @property
    def ephemeral(self) -> bool:
        """Whether the message carries the EPHEMERAL flag (64)."""
        return bool(self.message.get("flags", 0) & EPHEMERAL)

    @property
    def content(self) -> str:
        """The message text ("" for requests without one)."""
        if self.payload is None:
            return ""
        return self.message.get("content") or ""

    @property
    def pinged(self) -> list[int]:
        """The users this request allows to be pinged and whose mention it holds."""
        if self.payload is None:
            return []
        allowed = self.message.get("allowed_mentions") or {}
        return [int(u) for u in allowed.get("users", []) if f"<@{u}>" in self.content]

    @property
    def delivered(self) -> bool:
        """It took effect: no failure was injected, or Discord did it anyway; a send whose
        nonce was used before did not (it returned the first message)."""
        return (self.failed is None or self.done_anyway) and not self.duplicate


@dataclass
class Failure:
    """An error to answer some requests with: the first ``times`` of ``kind`` from ``after``."""

    kind: str
    error: Exception
    times: int = 1
    after: int = 0
    #: Discord did the work although it answered with the error (a 5xx can mean that).
    done_anyway: bool = False


def http_error(status: int, code: int, message: str) -> discord.HTTPException:
    """The exception discord.py raises when Discord answers ``status`` with error ``code``."""
    response = type("Response", (), {"status": status, "reason": message})()
    cls = {403: discord.Forbidden, 404: discord.NotFound}.get(status, discord.HTTPException)
    if status >= 500:
        cls = discord.DiscordServerError
    return cls(response, {"code": code, "message": message})


#: The failures the delivery tests inject, as Discord sends them.
FAILURES = {
    "10062 unknown interaction": lambda: http_error(404, 10062, "Unknown interaction"),
    "10015 unknown webhook": lambda: http_error(404, 10015, "Unknown Webhook"),
    "50013 missing permissions": lambda: http_error(403, 50013, "Missing Permissions"),
    "429 rate limited": lambda: http_error(429, 0, "You are being rate limited."),
    "503 server error": lambda: http_error(503, 0, "Service Unavailable"),
    # Issue 40: the wire's own failures, which are not discord.HTTPException.
    "timeout": lambda: asyncio.TimeoutError(),
    "connection reset": lambda: ConnectionResetError(104, "Connection reset by peer"),
    "client os error": lambda: aiohttp.ClientOSError(104, "Connection reset by peer"),
}


class RecordingAdapter(AsyncWebhookAdapter):
    """discord.py's webhook adapter with the network replaced by a recorder.

    :meth:`record_rest` also records what the client sends through its REST client
    (``channel.send``), so a test sees every request of a reply, whatever path it took.
    """

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[Sent] = []
        self._message_ids = 1000
        #: Set to make requests fail, e.g. as Discord answers an expired interaction:
        #: every request from number ``fail_from`` on (counting from 0).
        self.fail_with: Exception | None = None
        self.fail_from = 0
        #: Finer failures: by kind of request (see :class:`Failure`).
        self.failures: list[Failure] = []
        #: Per interaction token: deferred, and whether its first follow-up was sent.
        self._deferred: dict[str, bool] = {}
        self._originals: set[str] = set()
        #: Interaction tokens Discord no longer knows (10062, 10015): every later request
        #: with them fails the same way, as on Discord.
        self._dead: dict[str, Exception] = {}
        self._done_anyway = False
        #: Nonces of the messages created with ``channel.send`` (``enforce_nonce``: a
        #: second message with a known nonce is not created; the first is returned).
        self._nonces: set[str] = set()
        #: Per interaction token: the original response as Discord keeps it (its text and
        #: flags; 128 = LOADING, the "thinking" placeholder), for ``original_response``.
        self._original_state: dict[str, dict[str, Any]] = {}

    def fail(self, kind: str, error: Exception, *, times: int = 1, after: int = 0,
             done_anyway: bool = False) -> None:
        """Answer the next ``times`` requests of ``kind`` (after skipping ``after``) with ``error``;
        ``done_anyway``: the request still took effect (an initial response was created)."""
        self.failures.append(Failure(kind, error, times, after, done_anyway))

    def _injected(self, sent: Sent) -> Exception | None:
        if self.fail_with is not None and len(self.sent) > self.fail_from:
            return self.fail_with
        self._done_anyway = False
        for rule in self.failures:
            if rule.kind != sent.kind or rule.times <= 0:
                continue
            if rule.after > 0:
                rule.after -= 1
                continue
            rule.times -= 1
            self._done_anyway = rule.done_anyway
            return rule.error
        return None

    def _creates(self, sent: Sent, token: str | None) -> bool:
        if sent.kind == "channel_send":
            return True
        if sent.kind == "callback":
            kind = (sent.payload or {}).get("type")
            if kind == 5:
                self._deferred[token or ""] = True
            return kind == 4
        if sent.kind == "followup":
            if self._deferred.get(token or ""):
                # The first follow-up after a deferred response edits the placeholder.
                self._deferred[token or ""] = False
                return False
            return True
        return False

    async def request(self, route: Any, session: Any, *, payload: Any = None,
                      multipart: Any = None, files: Any = None, **_: Any) -> Any:
        """Record the request and answer it as Discord would."""
        return await self._record(route, payload, multipart, files)

    async def _record(self, route: Any, payload: Any, multipart: Any, files: Any) -> Any:
        body = payload
        blobs: dict[str, bytes] = {}
        for part in multipart or []:
            if part["name"] == "payload_json":
                body = json.loads(part["value"]) if isinstance(part["value"], str) else part["value"]
        for item in files or []:
            item.reset()
            blobs[item.filename] = item.fp.read()
        token = getattr(route, "webhook_token", None)
        sent = Sent(route.method, route.path, body, blobs, token=token)
        self.sent.append(sent)
        await asyncio.sleep(0)
        error = self._dead.get(token or "") or self._injected(sent)
        if error is not None:
            if token and getattr(error, "code", 0) in (10062, 10015):
                self._dead[token] = error
            sent.failed = error
            sent.done_anyway = self._done_anyway
            if self._done_anyway:
                self._take_effect(sent, token, body)
            raise error
        return self._take_effect(sent, token, body)

    def _take_effect(self, sent: Sent, token: str | None, body: Any) -> Any:
        """What Discord does with a request it carries out, and its answer."""
        key = token or ""
        if sent.kind == "channel_send" and (body or {}).get("enforce_nonce"):
            nonce = str(body.get("nonce"))
            if nonce in self._nonces:
                sent.creates, sent.duplicate = False, True  # the first message is returned
                return self._message(body)
            self._nonces.add(nonce)
        if sent.kind == "thread_open":
            # A league pairing's thread (issue 44): Discord answers with the new thread.
            self._message_ids += 1
            return {**channel_payload(thread=True), "id": str(THREAD_ID + self._message_ids),
                    "name": (body or {}).get("name", "thread")}
        first_after_defer = sent.kind == "followup" and self._deferred.get(key)
        sent.creates = self._creates(sent, token)
        if sent.kind == "callback":
            self._originals.add(key)
            kind = (sent.payload or {}).get("type")
            self._original_state[key] = ({"content": "", "flags": 128} if kind == 5 else
                                         {"content": sent.content, "flags": 0})
            return {"interaction": {"id": str(sent.interaction_id or 0), "type": 2}}
        if first_after_defer or sent.kind == "edit_original":
            state = self._original_state.setdefault(key, {"content": "", "flags": 0})
            state["flags"] = 0
            if (body or {}).get("content") is not None:
                state["content"] = body["content"]
            if sent.files:  # the files it carries now (an edit sets them: issue 40)
                state["files"] = list(sent.files)
        if sent.method == "DELETE":
            return None
        if sent.kind == "get_original":
            if key not in self._originals:
                sent.failed = http_error(404, 10008, "Unknown Message")
                raise sent.failed
            return self._message(self._original_state.get(key, {}))
        return self._message(body)

    def _message(self, body: Any) -> dict[str, Any]:
        self._message_ids += 1
        attachments = [{"id": str(9000 + n), "filename": name, "size": 1, "url": f"https://cdn/{name}",
                        "proxy_url": f"https://cdn/{name}"}
                       for n, name in enumerate((body or {}).get("files", []))]
        return {
            "id": str(self._message_ids), "channel_id": str(CHANNEL_ID), "type": 0,
            "content": (body or {}).get("content") or "", "tts": False, "pinned": False,
            "timestamp": "2026-01-01T00:00:00+00:00", "edited_timestamp": None,
            "mention_everyone": False, "mentions": [], "mention_roles": [], "attachments": attachments,
            "embeds": [], "flags": (body or {}).get("flags", 0),
            "author": {"id": str(APP_ID), "username": "Referee", "discriminator": "0",
                       "avatar": None, "bot": True},
        }

    def record_rest(self, client: discord.Client) -> None:
        """Record (and answer) the client's REST requests too, e.g. ``channel.send``."""

        async def request(route: Any, *, files: Any = None, form: Any = None,
                          json: Any = None, **_: Any) -> Any:
            return await self._record(route, json, form, files)

        client.http.request = request  # type: ignore[method-assign]

    def of_kind(self, kind: str) -> list[Sent]:
        """The requests of one kind, in order."""
        return [s for s in self.sent if s.kind == kind]

    def pings(self) -> list[tuple[int, Sent]]:
        """Every (user, request) where a delivered request pinged a user."""
        return [(user, s) for s in self.sent if s.delivered for user in s.pinged]


class _Response:
    """The little of an aiohttp response that discord.py's HTTP errors read."""

    status = 404
    reason = "Not Found"


def unknown_interaction() -> discord.NotFound:
    """What Discord answers once an interaction's 3 seconds are over (error 10062)."""
    return discord.NotFound(_Response(), {"code": 10062, "message": "Unknown interaction"})


#: Interaction ids handed out by :func:`snowflake`, per small test id; reset per test.
_SNOWFLAKES: dict[int, int] = {}


def snowflake(test_id: int) -> int:
    """A real interaction id for a test's small id: it dates from now, as Discord's do.

    The same small id gives the same snowflake within a test (a redelivery), so
    ``interaction.created_at`` is the moment the test first sent it.
    """
    if test_id not in _SNOWFLAKES:
        base = discord.utils.time_snowflake(discord.utils.utcnow())
        _SNOWFLAKES[test_id] = base + (test_id & 0x3FFFFF)
    return _SNOWFLAKES[test_id]


def install_recorder() -> tuple[RecordingAdapter, Any]:
    """Make discord.py send through a new recorder; returns it and the token to undo it."""
    _SNOWFLAKES.clear()
    recorder = RecordingAdapter()
    return recorder, async_context.set(recorder)


def user_payload(user_id: int, name: str) -> dict[str, Any]:
    """A Discord user object."""
    return {"id": str(user_id), "username": name.lower(), "global_name": name,
            "discriminator": "0", "avatar": None}


def member_payload(user_id: int, name: str, *, permissions: int = SEND_MESSAGES,
                   roles: tuple[int, ...] = (), with_user: bool = True) -> dict[str, Any]:
    """A guild member object as interactions carry it (permissions in the channel)."""
    data: dict[str, Any] = {
        "roles": [str(r) for r in roles], "joined_at": "2025-01-01T00:00:00+00:00",
        "deaf": False, "mute": False, "nick": None, "flags": 0, "pending": False,
        "permissions": str(permissions),
    }
    if with_user:
        data["user"] = user_payload(user_id, name)
    return data


def add_guild(client: discord.Client, *, role_name: str = "Referee Moderator") -> discord.Guild:
    """Put our test server, with its moderator role, into the client's cache."""
    role = {"id": str(MOD_ROLE_ID), "name": role_name, "permissions": "0", "position": 1,
            "color": 0, "hoist": False, "managed": False, "mentionable": False}
    everyone = {**role, "id": str(GUILD_ID), "name": "@everyone", "position": 0}
    data = {"id": str(GUILD_ID), "name": "Wargamers", "roles": [everyone, role],
            "channels": [], "members": [], "member_count": 2, "owner_id": str(BOB)}
    return client._connection._add_guild_from_data(data)  # type: ignore[arg-type]


def log_in(client: discord.Client) -> None:
    """Give the client the bot user and application id that a login would have set."""
    state = client._connection
    state.user = discord.ClientUser(state=state, data={**user_payload(APP_ID, "Referee"), "bot": True})
    state.application_id = APP_ID


def channel_payload(*, thread: bool = False) -> dict[str, Any]:
    """The channel an interaction comes from: a text channel or a public thread in it."""
    if thread:
        return {"id": str(THREAD_ID), "type": 11, "guild_id": str(GUILD_ID), "name": "game 2",
                "parent_id": str(CHANNEL_ID), "owner_id": str(ALICE), "message_count": 3,
                "member_count": 2, "rate_limit_per_user": 0, "flags": 0,
                "thread_metadata": {"archived": False, "auto_archive_duration": 1440,
                                    "archive_timestamp": "2026-01-01T00:00:00+00:00",
                                    "locked": False}}
    return {"id": str(CHANNEL_ID), "type": 0, "guild_id": str(GUILD_ID), "name": "game",
            "position": 0, "permission_overwrites": [], "nsfw": False, "parent_id": None}


_TYPES = {str: 3, int: 4, bool: 5}


def interaction_payload(
    group: str,
    sub: str,
    options: dict[str, Any] | None = None,
    *,
    user: tuple[int, str] = (ALICE, "Alice"),
    permissions: int = SEND_MESSAGES,
    roles: tuple[int, ...] = (),
    focused: str | None = None,
    users: dict[str, tuple[int, str]] | None = None,
    thread: bool = False,
    interaction_id: int = 1,
    app_permissions: int = BOT_PERMISSIONS,
    dm: bool = False,
    channel_id: int | None = None,
) -> dict[str, Any]:
    """The JSON Discord sends for ``/group sub option:value …`` (type 2), or for an
    autocomplete request on option ``focused`` (type 4).  ``channel_id``: from that thread
    (one the bot opened, e.g. a league pairing's, issue 44).  ``users`` are options of kind
    user: option name -> (id, display name), sent as ids with a ``resolved`` section.
    ``sub`` may name a subcommand in a subcommand group: ``"air commit"`` (issue 28).
    """
    opts: list[dict[str, Any]] = []
    for name, value in (options or {}).items():
        opt = {"type": _TYPES[type(value)], "name": name, "value": value}
        if name == focused:
            opt["focused"] = True
        opts.append(opt)
    resolved: dict[str, Any] = {}
    for name, (uid, uname) in (users or {}).items():
        opts.append({"type": 6, "name": name, "value": str(uid)})
        resolved.setdefault("users", {})[str(uid)] = user_payload(uid, uname)
        resolved.setdefault("members", {})[str(uid)] = member_payload(uid, uname, with_user=False)
    channel = channel_payload(thread=thread or channel_id is not None)
    if channel_id is not None:
        channel["id"] = str(channel_id)
    data: dict[str, Any] = {
        "id": "1", "name": group, "type": 1, "guild_id": str(GUILD_ID),
        "options": [{"type": 1, "name": sub, "options": opts}],
    }
    if " " in sub:  # a subcommand group (type 2) holding the subcommand
        outer, inner = sub.split(" ", 1)
        data["options"] = [{"type": 2, "name": outer, "options": [{"type": 1, "name": inner, "options": opts}]}]
    if resolved:
        data["resolved"] = resolved
    uid, uname = user
    real_id = snowflake(interaction_id)
    payload: dict[str, Any] = {
        "id": str(real_id), "application_id": str(APP_ID), "type": 4 if focused else 2,
        "token": f"token-{real_id}", "version": 1, "guild_id": str(GUILD_ID),
        "channel_id": channel["id"], "channel": channel,
        "member": member_payload(uid, uname, permissions=permissions, roles=roles),
        "app_permissions": str(app_permissions), "locale": "en-GB", "guild_locale": "en-US",
        "attachment_size_limit": 10 * 1024 * 1024, "authorizing_integration_owners": {},
        "context": 0, "entitlements": [], "data": data,
    }
    if dm:
        # A direct message: no server, a user instead of a member, a DM channel.
        for key in ("guild_id", "member"):
            payload.pop(key)
        data.pop("guild_id")
        payload["user"] = user_payload(uid, uname)
        payload["channel"] = {"id": "610000000000000001", "type": 1}
        payload["channel_id"] = "610000000000000001"
        payload["context"] = 1
    return payload


def component_payload(
    custom_id: str,
    message: dict[str, Any],
    *,
    values: list[str] | None = None,
    user: tuple[int, str] = (ALICE, "Alice"),
    interaction_id: int = 1,
) -> dict[str, Any]:
    """The JSON Discord sends when a button is pressed (``values`` None) or a select menu
    entry chosen (type 3, a message component interaction), on ``message`` (the message
    object the component is on: id, content, flags, components)."""
    uid, uname = user
    real_id = snowflake(interaction_id)
    channel = channel_payload()
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2 if values is None else 3}
    if values is not None:
        data["values"] = values
    return {
        "id": str(real_id), "application_id": str(APP_ID), "type": 3,
        "token": f"token-{real_id}", "version": 1, "guild_id": str(GUILD_ID),
        "channel_id": channel["id"], "channel": channel,
        "member": member_payload(uid, uname), "app_permissions": str(BOT_PERMISSIONS),
        "locale": "en-GB", "guild_locale": "en-US", "attachment_size_limit": 10 * 1024 * 1024,
        "authorizing_integration_owners": {}, "context": 0, "entitlements": [],
        "message": message, "data": data,
    }


def message_object(sent: "Sent", message_id: int = 4242, *, flags: int | None = None) -> dict[str, Any]:
    """The message a recorded request created or edited, as a component interaction carries
    it; ``flags`` for an edit, whose body does not repeat them (64: ephemeral)."""
    body = sent.message
    return {
        "id": str(message_id), "channel_id": str(CHANNEL_ID), "type": 0,
        "content": body.get("content") or "", "tts": False, "pinned": False,
        "timestamp": "2026-01-01T00:00:00+00:00", "edited_timestamp": None,
        "mention_everyone": False, "mentions": [], "mention_roles": [], "attachments": [],
        "embeds": [], "flags": body.get("flags", 0) if flags is None else flags,
        "components": body.get("components", []),
        "author": {"id": str(APP_ID), "username": "Referee", "discriminator": "0",
                   "avatar": None, "bot": True},
    }


def components_of(sent: "Sent") -> list[dict[str, Any]]:
    """The buttons and menus (type 2 and 3) of a recorded request's message, in order."""
    if sent.payload is None:
        return []
    rows = sent.message.get("components") or []
    return [c for row in rows for c in row.get("components", [])]


def make_interaction(client: discord.Client, payload: dict[str, Any]) -> discord.Interaction:
    """A real :class:`discord.Interaction`, parsed by discord.py from ``payload``."""
    return discord.Interaction(data=payload, state=client._connection)  # type: ignore[arg-type]


def png_bytes(width: int = 48, height: int = 32) -> bytes:
    """A small real PNG (a stand-in map) for the fake service."""
    out = io.BytesIO()
    Image.new("RGB", (width, height), (40, 90, 40)).save(out, format="PNG")
    return out.getvalue()


def open_png(data: bytes) -> Image.Image:
    """Open ``data`` as a PNG with Pillow, failing the test if it is not one."""
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    return image


class FakeService:
    """The service interface with scripted behaviour, for the front end's edge cases.

    ``replies`` maps a command path such as ``"game status"`` to the reply to give;
    ``errors`` to an exception to raise; ``delay`` makes ``handle`` slow.
    """

    def __init__(self, groups: list[CommandGroup] | None = None) -> None:
        self.groups = groups if groups is not None else command_groups()
        self.replies: dict[str, Reply] = {}
        self.errors: dict[str, Exception] = {}
        self.delay = 0.0
        self.render_error: Exception | None = None
        self.handled: list[Invocation] = []
        #: Invocations whose handling ran to its end (after any delay).
        self.finished: list[Invocation] = []
        self.completions: list[tuple[Invocation, str]] = []
        self.suggestions: list[Choice] = []
        self.closed = False
        self.metas: dict[str, str] = {}
        self.owed_replies: dict[int, tuple[str, Reply]] = {}

    async def owe(self, channel_id: str, reply: Reply) -> None:
        """Keep an undelivered announcement (in memory)."""
        self.owed_replies[len(self.owed_replies) + 1] = (channel_id, reply)

    async def owed(self, channel_id: str) -> list[tuple[int, Reply]]:
        """The announcements owed in a channel."""
        return [(k, r) for k, (c, r) in sorted(self.owed_replies.items()) if c == channel_id]

    async def settle(self, owed_id: int) -> None:
        """Forget a delivered announcement."""
        self.owed_replies.pop(owed_id, None)

    async def meta(self, key: str) -> str | None:
        """A kept fact (an in-memory stand-in for ``bot_meta``)."""
        return self.metas.get(key)

    async def set_meta(self, key: str, value: str) -> None:
        """Keep a fact."""
        self.metas[key] = value

    async def handle(self, inv: Invocation) -> Reply:
        """The scripted reply for ``inv.command``."""
        self.handled.append(inv)
        if self.delay:
            await asyncio.sleep(self.delay)
        self.finished.append(inv)
        key = " ".join(inv.command)
        if key in self.errors:
            raise self.errors[key]
        return self.replies.get(key, Reply(text=f"ok: {key}"))

    async def autocomplete(self, inv: Invocation, focused: str) -> list[Choice]:
        """The scripted suggestions (all of them, to check the front end caps them)."""
        self.completions.append((inv, focused))
        return list(self.suggestions)

    async def attach_page(self, reply: Reply) -> Reply:
        """No pages: the scripted replies carry their own files, if any."""
        return reply

    async def attach_offer(self, reply: Reply, channel_id: str) -> Reply:
        """No answers to tap: the scripted replies carry their own components, if any."""
        return reply

    async def attach_snapshot(self, reply: Reply) -> Reply:
        """Add a small real PNG, or fail as scripted."""
        if self.render_error is not None:
            raise self.render_error
        png = Attachment(filename="map.png", data=png_bytes(), description="map")
        return reply.model_copy(update={"attachments": [*reply.attachments, png],
                                        "snapshot_key": None})

    async def open_pairing(self, opening: Any, channel_id: str, guild_id: str | None) -> Reply:
        """No league pairings in the fake service."""
        return Reply(text="", error=True)

    async def close(self) -> None:
        """Remember that the front end closed us."""
        self.closed = True
