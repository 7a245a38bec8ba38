"""The Discord client: one-time start-up, command sync, clean shutdown on SIGTERM and SIGINT.

Start-up opens the service and its store first (:meth:`RefereeClient.open_service`), before
anything is sent to Discord: a database that is refused (a newer release upgraded it, a path
that cannot be opened) is the operator's one sentence without a login.  Then, once, in
:meth:`RefereeClient.setup_hook` (discord.py calls it after login, before the gateway
connects): build the command tree from the catalogue, sync it.  With ``REFEREE_GUILD_IDS`` set the commands are copied
to those servers, where Discord shows them at once (global commands can take a while to
appear); otherwise they are synced globally.

:func:`run_bot` runs the client until SIGTERM (``docker stop``, systemd) or SIGINT (Ctrl-C)
arrives, then closes the gateway connection and the database before returning.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import signal
from typing import Awaitable, Callable

import discord

from bot.config import Settings
from bot.discord.adapter import DEFER_AFTER, ServiceLike, send_private
from bot.discord.delivery import WIRE_ERRORS
from bot.discord.inflight import InFlight
from bot.discord.presses import is_ours, on_press
from bot.discord.scheduled import start_computer, start_pacing
from bot.discord.tree import RESTARTING, RefereeTree, install_commands
from bot.heartbeat import beat_forever
from bot.service import Service

log = logging.getLogger("referee.discord")

ServiceOpener = Callable[[Settings], Awaitable[ServiceLike]]


async def open_service(settings: Settings) -> ServiceLike:
    """Open the application service on the SQLite store named in ``settings``."""
    return await Service.open(settings)


#: What ``referee bot`` says when Discord refuses the token (one sentence, no traceback).
TOKEN_REFUSED = ("referee: Discord refused DISCORD_TOKEN (not a valid bot token): copy the "
                 "token from the Discord developer portal (your application -> Bot -> Reset "
                 "Token) into DISCORD_TOKEN.")
#: ... and when the application lacks an intent (the bot asks for none that is privileged).
INTENTS_REFUSED = ("referee: Discord refused the gateway intents for DISCORD_TOKEN's "
                   "application: the bot needs only 'guilds', so check that DISCORD_TOKEN is "
                   "this bot's token.")

#: Seconds a shutdown waits for the commands in flight before closing the connection.
SHUTDOWN_WAIT = 10.0


def intents() -> discord.Intents:
    """The gateway intents the bot needs: ``guilds`` only.

    Slash commands arrive without any intent; ``guilds`` keeps the servers, channels,
    threads and roles cached (the moderator role, thread parents).  No members, no
    messages, no presences: less traffic per shard and nothing privileged to apply for.
    """
    return discord.Intents(guilds=True)


class RefereeClient(discord.AutoShardedClient):
    """The bot: an ``AutoShardedClient`` with the Referee command tree.

    Sharded because Discord refuses an unsharded connection past 2,500 servers: the shard
    count comes from Discord unless ``REFEREE_SHARD_COUNT`` is set, and ``REFEREE_SHARDS``
    runs only some of them in this process (one process per group of shards).  No message
    cache (``max_messages=None``): the bot never reads messages.  Mentions are off by
    default; a reply allows exactly the players it names.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        opener: ServiceOpener = open_service,
        defer_after: float = DEFER_AFTER,
        force_sync: bool = False,
    ) -> None:
        super().__init__(
            intents=intents(),
            max_messages=None,
            allowed_mentions=discord.AllowedMentions.none(),
            shard_count=settings.shard_count,
            shard_ids=settings.shards,  # type: ignore[arg-type]  # None: every shard (discord.py's own default, typed as a list)
        )
        self.settings = settings
        self.in_flight = InFlight()
        self.shutdown_wait = SHUTDOWN_WAIT
        self.tree = RefereeTree(self)
        self.service: ServiceLike | None = None
        self._opener = opener
        self._defer_after = defer_after
        self._force_sync = force_sync
        #: Reminders, deadlines and digests going out on time (issue 19).
        self.pacing: asyncio.Task[None] | None = None
        #: The computer players' moves (issue 43), posted as the pacing posts.
        self.computer: asyncio.Task[None] | None = None
        #: The gateway heartbeat for ``referee health`` (REFEREE_HEARTBEAT, issue 26).
        self.heartbeat: asyncio.Task[None] | None = None

    async def open_service(self) -> None:
        """Open the service and its store, checked (``bot/schema.py``), if not open yet:
        :func:`run_client` does it before logging in, so a refused database never reaches
        Discord."""
        if self.service is None:
            self.service = await self._opener(self.settings)

    async def setup_hook(self) -> None:
        """Build the command tree and sync it (runs once, after login; the service is open
        by then, or opened here)."""
        await self.open_service()
        assert self.service is not None
        install_commands(
            self.tree, self.service, self.settings.moderator_role,
            defer_after=self._defer_after, in_flight=self.in_flight,
        )
        await self.sync_commands()
        self.pacing = start_pacing(self, self.service)
        self.computer = start_computer(self, self.service)
        if self.settings.heartbeat is not None:
            service = self.service
            self.heartbeat = asyncio.create_task(
                beat_forever(self, self.settings.heartbeat,
                             lambda: service.meta("commands:global")),
                name="referee-heartbeat")

    async def sync_commands(self) -> None:
        """Send the command tree to Discord: to each test server if any, else globally.

        Only when it changed since the last sync to that place (or with ``force_sync``):
        Discord rate-limits syncs, and a bot restarted on every deploy would hit the limit.
        The fingerprint of what was sent is kept in the database.
        """
        assert self.service is not None
        if not self.syncs_commands:
            log.info("commands are synced by the process running shard 0, not this one")
            return
        places: list[discord.Object | None] = [discord.Object(id=g) for g in self.settings.guild_ids] or [None]
        for guild in places:
            where = f"server {guild.id}" if guild else "every server (global)"
            if guild is not None:
                self.tree.copy_global_to(guild=guild)
            key = f"commands:{guild.id if guild else 'global'}"
            fingerprint = self.commands_fingerprint(guild)
            if not self._force_sync and await self.service.meta(key) == fingerprint:
                log.info("commands for %s unchanged since the last sync; not sent", where)
                continue
            synced = await self.tree.sync(guild=guild)
            await self.service.set_meta(key, fingerprint)
            log.info("synced %d command groups to %s", len(synced), where)

    @property
    def syncs_commands(self) -> bool:
        """Whether this process sends the command tree: the commands are the application's,
        not a shard's, so of several processes (``REFEREE_SHARDS``) only the one running
        shard 0 syncs them; a process running every shard does."""
        return self.settings.shards is None or 0 in self.settings.shards

    def commands_fingerprint(self, guild: discord.abc.Snowflake | None) -> str:
        """SHA-256 of the command payload Discord would receive for ``guild`` (or global)."""
        payload = [command.to_dict(self.tree) for command in self.tree.get_commands(guild=guild)]
        text = json.dumps(payload, sort_keys=True, default=str)
        return hashlib.sha256(text.encode()).hexdigest()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A press of one of our buttons or menus (issue 30); slash commands and autocomplete
        go to the command tree, which discord.py calls on its own."""
        if self.service is None or not is_ours(interaction):
            return
        if self.in_flight.closing:
            try:
                await send_private(interaction, RESTARTING)
            except WIRE_ERRORS as error:  # nothing was done: only the notice is lost (issue 40)
                log.warning("could not tell press %s that the bot restarts: %s", interaction.id, error)
            return
        async with self.in_flight.track():
            await on_press(interaction, self.service, self.settings.moderator_role)

    async def on_ready(self) -> None:
        """Log who we are once the gateway is up."""
        log.info("ready as %s in %d servers", self.user, len(self.guilds))

    async def close(self) -> None:
        """Let the commands in flight finish (bounded), close the gateway and HTTP session,
        then the service and its database, last."""
        self.in_flight.closing = True
        await self.in_flight.wait(self.shutdown_wait)
        for task in (self.pacing, self.computer, self.heartbeat):
            if task is not None:
                task.cancel()
                try:
                    await task
                except asyncio.CancelledError:
                    log.debug("%s task stopped", task.get_name())
        try:
            if self.shards:
                await super().close()
            else:
                # No shard was ever launched (a failed login, the tests): AutoShardedClient's
                # close expects its shard queue, so close the plain client's parts.
                await discord.Client.close(self)
        finally:
            service, self.service = self.service, None
            if service is not None:
                await service.close()
                log.info("database closed")


async def serve(client: discord.Client, token: str) -> None:
    """Run ``client`` until it stops or SIGTERM/SIGINT arrives, then close it cleanly."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    handled: list[signal.Signals] = []
    for sig in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(sig, stop.set)
            handled.append(sig)
        except (NotImplementedError, RuntimeError):
            # Windows' event loop has no signal handlers; Ctrl-C still ends asyncio.run.
            log.debug("no handler for %s on this platform", sig.name)
    running = asyncio.create_task(client.start(token), name="referee-client")
    stopping = asyncio.create_task(stop.wait(), name="referee-stop")
    try:
        await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
        if stop.is_set():
            log.info("signal received; shutting down")
    finally:
        for sig in handled:
            loop.remove_signal_handler(sig)
        stopping.cancel()
        await client.close()
        if running.done():
            # Surface a failed login (bad token) instead of exiting quietly.
            running.result()
        else:
            running.cancel()
            try:
                await running
            except asyncio.CancelledError:
                log.debug("client task cancelled after close")


async def run_client(client: RefereeClient, token: str) -> None:
    """Open the client's store, then log in and run until stopped (:func:`serve`).  A
    database that cannot be used raises here, before Discord is contacted; one that opened
    is closed by the client's ``close`` whatever happens next (a refused token)."""
    await client.open_service()
    await serve(client, token)


def run_bot(settings: Settings, *, force_sync: bool = False) -> None:
    """Run the bot with ``settings`` until SIGTERM or SIGINT (the ``referee`` command);
    ``force_sync`` sends the command tree even if it is unchanged since the last run."""
    if settings.discord_token is None:
        raise ValueError("DISCORD_TOKEN is not set; the bot cannot log in to Discord.")
    # Logging is set up once, by the CLI (bot/logsetup.py): discord.py's setup_logging here
    # would add a second handler and print every line twice.
    client = RefereeClient(settings, force_sync=force_sync)
    try:
        asyncio.run(run_client(client, settings.discord_token.get_secret_value()))
    except discord.LoginFailure:
        raise SystemExit(TOKEN_REFUSED) from None
    except discord.PrivilegedIntentsRequired:
        raise SystemExit(INTENTS_REFUSED) from None
