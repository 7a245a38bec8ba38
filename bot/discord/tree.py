"""The slash-command tree, built from the command catalogue, and its one error handler.

Every :class:`~bot.commands.CommandGroup` becomes an ``app_commands.Group`` and every
:class:`~bot.commands.CommandSpec` an ``app_commands.Command``.  The options come from data,
so each command's callback is a closure that takes ``**options`` and carries a generated
``inspect.Signature``: discord.py reads the parameters from that signature exactly as it
would from a hand-written function, so its own validation, transformers and payload
building apply unchanged.

Option kinds (:class:`rules.core.contract.OptionSpec`) map to Discord types:

=======  ====================================================================
id       string, autocomplete from ``service.autocomplete``
int      integer, with the spec's minimum and maximum
bool     boolean
enum     string with fixed choices (autocomplete over them past Discord's 25)
text     string of at most 200 characters (MAX_TEXT_LENGTH)
user     a server member (the service gets a ``UserRef``)
=======  ====================================================================
"""

from __future__ import annotations

import asyncio
import inspect
import keyword
import logging
from typing import Any, Callable, Coroutine, Union

import discord
from discord import app_commands

from bot.commands import CommandGroup, CommandSpec
from bot.discord.adapter import DEFER_AFTER, ServiceLike, invocation_from, respond, send_private
from bot.discord.errors import explain
from rules.core.contract import MAX_OPTION_LENGTH, MAX_TEXT_LENGTH, OptionSpec

log = logging.getLogger("referee.discord")

#: Discord's limits on the command payload.
MAX_CHOICES = 25
MAX_SUBCOMMANDS = 25
MAX_DESCRIPTION = 100
#: Autocomplete must answer within Discord's 3 s; past this we answer with nothing.
AUTOCOMPLETE_TIMEOUT = 2.0

Callback = Callable[..., Coroutine[Any, Any, None]]


class RefereeTree(app_commands.CommandTree):
    """The command tree with the one error handler every failure goes through."""

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError, /
    ) -> None:
        """Answer the invoker privately with one sentence (see :mod:`bot.discord.errors`)."""
        command = interaction.command.qualified_name if interaction.command else ""
        text = explain(error, command)
        try:
            await send_private(interaction, text)
        except discord.HTTPException:
            # The interaction may have expired; the log is all that is left.
            log.warning("could not send the error for interaction %s: %s", interaction.id, text)


def _clip(text: str, limit: int = MAX_DESCRIPTION) -> str:
    text = " ".join(text.split()) or "…"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def python_name(option: str) -> str:
    """A Python identifier for an option name (``from`` -> ``from_``); Discord keeps the name."""
    # Option names come from pydantic field names, so they are identifiers; only Python's
    # keywords (a "from" area, say) need a new name.
    return f"{option}_" if keyword.iskeyword(option) else option


def annotation(spec: OptionSpec) -> Any:
    """The discord.py annotation for an option of this kind."""
    if spec.kind == "int":
        if spec.minimum is None and spec.maximum is None:
            return int
        return app_commands.Range[int, spec.minimum, spec.maximum]
    if spec.kind == "bool":
        return bool
    if spec.kind == "user":
        return Union[discord.Member, discord.User]
    # Strings: Discord refuses longer input on the phone, before it reaches us; the service
    # applies the same limits to the console.
    if spec.kind == "text":
        return app_commands.Range[str, None, MAX_TEXT_LENGTH]
    return app_commands.Range[str, None, MAX_OPTION_LENGTH]


def _uses_autocomplete(spec: OptionSpec) -> bool:
    return spec.kind == "id" or (spec.kind == "enum" and len(spec.choices) > MAX_CHOICES)


class CommandFactory:
    """Builds the commands of the catalogue around one service.

    ``moderator_role`` is the role name that makes a member a moderator;
    ``defer_after`` how long ``handle`` may take before the interaction is deferred.
    """

    def __init__(self, service: ServiceLike, moderator_role: str, defer_after: float = DEFER_AFTER):
        self.service = service
        self.moderator_role = moderator_role
        self.defer_after = defer_after

    # -- groups and commands ---------------------------------------------------------------

    def group(self, group: CommandGroup) -> app_commands.Group:
        """The ``app_commands.Group`` of one catalogue group."""
        if len(group.commands) > MAX_SUBCOMMANDS:
            raise ValueError(
                f"/{group.name} has {len(group.commands)} subcommands; "
                f"Discord allows {MAX_SUBCOMMANDS}"
            )
        result = app_commands.Group(
            name=group.name, description=_clip(group.description), guild_only=True
        )
        for spec in group.commands:
            result.add_command(self.command(group.name, spec))
        return result

    def command(self, group: str, spec: CommandSpec) -> app_commands.Command:
        """The ``app_commands.Command`` of ``/group spec.name``."""
        renames = {python_name(o.name): o.name for o in spec.options}
        callback = self._callback(group, spec.name, renames)
        callback.__signature__ = self._signature(spec)  # type: ignore[attr-defined]
        callback.__discord_app_commands_param_description__ = {  # type: ignore[attr-defined]
            python_name(o.name): _clip(o.description) for o in spec.options
        }
        callback.__discord_app_commands_param_rename__ = {  # type: ignore[attr-defined]
            py: name for py, name in renames.items() if py != name
        }
        callback.__discord_app_commands_param_choices__ = {  # type: ignore[attr-defined]
            python_name(o.name): [
                app_commands.Choice(name=c[:MAX_DESCRIPTION], value=c[:MAX_OPTION_LENGTH])
                for c in o.choices
            ]
            for o in spec.options
            if o.kind == "enum" and not _uses_autocomplete(o)
        }
        callback.__discord_app_commands_param_autocomplete__ = {  # type: ignore[attr-defined]
            python_name(o.name): self._autocomplete(group, spec, o)
            for o in spec.options
            if _uses_autocomplete(o)
        }
        return app_commands.Command(
            name=spec.name,
            description=_clip(spec.description),
            callback=callback,
            extras={"spec": spec, "group": group},
        )

    def _signature(self, spec: CommandSpec) -> inspect.Signature:
        params = [
            inspect.Parameter(
                "interaction",
                inspect.Parameter.POSITIONAL_OR_KEYWORD,
                annotation=discord.Interaction,
            )
        ]
        for option in spec.options:
            params.append(
                inspect.Parameter(
                    python_name(option.name),
                    inspect.Parameter.KEYWORD_ONLY,
                    annotation=annotation(option),
                    default=inspect.Parameter.empty if option.required else None,
                )
            )
        return inspect.Signature(params)

    def _callback(self, group: str, name: str, renames: dict[str, str]) -> Callback:
        factory = self

        async def run_command(interaction: discord.Interaction, **options: Any) -> None:
            inv = invocation_from(
                interaction,
                [group, name],
                {renames.get(key, key): value for key, value in options.items()},
                factory.moderator_role,
            )
            log.debug("/%s %s by %s in %s", group, name, inv.user_id, inv.channel_id)
            await respond(interaction, factory.service, inv, defer_after=factory.defer_after)

        run_command.__qualname__ = run_command.__name__ = f"{group}_{name}"
        return run_command

    def _autocomplete(self, group: str, spec: CommandSpec, option: OptionSpec) -> Callback:
        factory = self

        async def suggest(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            if option.kind == "enum":
                # A fixed list too long for Discord's choices: filter it here, no service call.
                wanted = current.strip().casefold()
                matches = [c for c in option.choices if wanted in c.casefold()]
                return [app_commands.Choice(name=c, value=c) for c in matches[:MAX_CHOICES]]
            # Options typed so far, by their Discord names; the focused one as typed.
            typed = {key: value for key, value in interaction.namespace if value is not None}
            typed[option.name] = current
            inv = invocation_from(interaction, [group, spec.name], typed, factory.moderator_role)
            try:
                found = await asyncio.wait_for(
                    factory.service.autocomplete(inv, option.name), AUTOCOMPLETE_TIMEOUT
                )
            except Exception:
                # A suggestion list is a convenience: log and offer nothing rather than fail.
                log.exception("autocomplete failed for /%s %s %s", group, spec.name, option.name)
                return []
            return [
                app_commands.Choice(
                    name=_clip(choice.label), value=choice.value[:MAX_OPTION_LENGTH]
                )
                for choice in found[:MAX_CHOICES]
            ]

        return suggest


def install_commands(
    tree: app_commands.CommandTree,
    service: ServiceLike,
    moderator_role: str,
    *,
    defer_after: float = DEFER_AFTER,
) -> list[app_commands.Group]:
    """Add one group per catalogue group of ``service`` to ``tree``; returns the groups."""
    factory = CommandFactory(service, moderator_role, defer_after)
    groups = [factory.group(group) for group in service.groups]
    for group in groups:
        tree.add_command(group, override=True)
    return groups
