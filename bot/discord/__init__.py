"""The Discord front end: a thin adapter between discord.py ``app_commands`` and the service.

* :mod:`bot.discord.tree` builds the slash-command tree from the command catalogue
  (:func:`bot.commands.command_groups`) and holds the one error handler;
* :mod:`bot.discord.adapter` turns an interaction into an :class:`~bot.models.Invocation`
  and a :class:`~bot.models.Reply` into Discord messages;
* :mod:`bot.discord.messages` lays a reply out as messages that fit Discord's limits;
* :mod:`bot.discord.errors` turns any failure into one sentence (or an incident id);
* :mod:`bot.discord.client` is the ``discord.Client`` with its one-time start-up and
  :func:`~bot.discord.client.run_bot`.

No game logic lives here: every decision is the service's.

Decisions worth knowing:

* Commands are server-only (``allowed_contexts``: server channels; ``allowed_installs``:
  servers), and the service refuses a direct-message invocation too.  Each channel or thread
  holds its own game (the channel id is the thread's own).
* A moderator is a member with Manage Channels, Manage Server or Administrator in the
  channel, or with the role given by ``REFEREE_MODERATOR_ROLE`` (an id, or a name compared
  without regard to case).  ``/mod`` is shown by default to Manage Channels only
  (``default_permissions``); the service enforces who may do what.
* Replies are plain text, not embeds: easier to read on a phone and simple to split at 2000
  characters.  Only the users a reply names can be pinged, never the invoker, never
  ``@everyone`` or roles; the ping is always in a request that creates a message
  (:mod:`bot.discord.delivery`).
* A reply is sent text first and its map edited in after; a reply that fails once the step
  is committed is posted with ``channel.send``, or owed to the channel's next reply.
* If the service has not answered two seconds after the interaction was created, the
  interaction is deferred publicly (Discord drops it after three); ``/game end`` and
  ``/game export`` defer before any work.
* ``AutoShardedClient`` with the ``guilds`` intent only and no message cache; a shutdown
  waits (bounded) for the commands in flight, then closes the connection, then the database.
* The command tree is synced when it changed: to ``REFEREE_GUILD_IDS`` (instant, for testing
  a server) or globally.
"""
