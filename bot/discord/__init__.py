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

* Commands are server-only (``guild_only``): seats, moderators and mentions all assume a
  server.  Each channel or thread holds its own game (the channel id is the thread's own).
* A moderator is a member with Manage Channels, Manage Server or Administrator in the
  channel, or with the role named by ``REFEREE_MODERATOR_ROLE`` (case-insensitive).  The
  service, not Discord, enforces what moderators may do, so ``/mod`` is visible to all.
* Replies are plain text, not embeds (fields become bold blocks): easier to read on a
  phone and simple to split at 2000 characters.  Only the users a reply names can be
  pinged; ``@everyone`` and roles never are.
* A reply with a snapshot is deferred, rendered off the event loop by the service and sent
  as a follow-up with the PNG.  If rendering fails the committed step is still reported.
* If the service has not answered after two seconds, the interaction is deferred publicly
  (Discord drops it after three); a private answer then replaces the public "thinking"
  message.
* The command tree is synced at every start: to ``REFEREE_GUILD_IDS`` (instant, for testing
  a server) or globally.
"""
