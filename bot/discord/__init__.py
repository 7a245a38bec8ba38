"""The Discord front end: a thin adapter between discord.py ``app_commands`` and the service.

* :mod:`bot.discord.tree` builds the slash-command tree from the command catalogue
  (:func:`bot.commands.command_groups`) and holds the one error handler;
* :mod:`bot.discord.adapter` turns an interaction into an :class:`~bot.models.Invocation`
  and a :class:`~bot.models.Reply` into Discord messages;
* :mod:`bot.discord.messages` lays a reply out as messages that fit Discord's limits;
* :mod:`bot.discord.client` is the ``discord.Client`` with its one-time start-up and
  :func:`~bot.discord.client.run_bot`.

No game logic lives here: every decision is the service's.
"""
