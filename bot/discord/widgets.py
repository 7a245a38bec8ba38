"""The answers a reply offers, as discord.py components (issue 30).

Buttons and a select menu whose ``custom_id`` is the service's token; presses are routed by
:mod:`bot.discord.presses`.
"""

from __future__ import annotations

import discord

from bot.models import Reply

#: Discord's limits: 5 rows, 5 buttons a row, 25 options a menu.
ROW_WIDTH = 5
MAX_ROWS = 5
_STYLES = {
    "primary": discord.ButtonStyle.primary, "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success, "danger": discord.ButtonStyle.danger,
}


def view_of(reply: Reply) -> discord.ui.View | None:
    """The components of ``reply`` as a discord.py view (None when it offers none).

    The view is stopped before it is sent: discord.py then does not keep it in memory for
    callbacks, since presses are routed by :func:`on_press` from the custom id alone.
    """
    if not reply.buttons and reply.menu is None:
        return None
    view = discord.ui.View(timeout=None)
    row = 0
    if reply.menu is not None:
        view.add_item(discord.ui.Select(
            custom_id=reply.menu.token, placeholder=reply.menu.placeholder[:150],
            options=[discord.SelectOption(label=o.label[:100], value=o.value[:100],
                                          description=o.description[:100] or None)
                     for o in reply.menu.options[:25]],
            row=row,
        ))
        row += 1
    for n, button in enumerate(reply.buttons[: (MAX_ROWS - row) * ROW_WIDTH]):
        view.add_item(discord.ui.Button(
            label=button.label[:80], custom_id=button.token, style=_STYLES[button.style],
            disabled=button.disabled, row=row + n // ROW_WIDTH,
        ))
    view.stop()
    return view


__all__ = ["view_of", "ROW_WIDTH", "MAX_ROWS"]
