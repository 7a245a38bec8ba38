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
file     an attachment (the service gets an ``Upload``: fetched unless over 1 MB)
=======  ====================================================================
"""

from __future__ import annotations

import asyncio
import inspect
import keyword
import logging
from collections.abc import Mapping
from typing import Any, Callable, Coroutine, Union

import discord
from discord import app_commands

from bot.commands import CommandGroup, CommandSpec
from bot.discord.adapter import (
    DEFER_AFTER, ServiceLike, fetch_upload, invocation_from, respond, send_private,
)
from bot.discord.delivery import WIRE_ERRORS
from bot.discord.errors import explain
from bot.discord.inflight import InFlight
from rules.core import registry
from rules.core.contract import MAX_OPTION_LENGTH, MAX_TEXT_LENGTH, GameSystem, OptionSpec

log = logging.getLogger("referee.discord")

#: Discord's limits on the command payload.
MAX_CHOICES = 25
MAX_SUBCOMMANDS = 25
MAX_DESCRIPTION = 100
#: Autocomplete must answer within Discord's 3 s; past this we answer with nothing.
AUTOCOMPLETE_TIMEOUT = 2.0

#: What a command sent while the bot shuts down is told (it changed nothing).
RESTARTING = "The referee is restarting; nothing was changed. Try again in a minute."

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
        except WIRE_ERRORS:
            # The interaction may have expired, or the wire failed (issue 40); the log is
            # all that is left.
            log.warning("could not send the error for interaction %s: %s", interaction.id, text)


def _clip(text: str, limit: int = MAX_DESCRIPTION) -> str:
    text = " ".join(text.split()) or "…"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _user_and_channel(interaction: discord.Interaction) -> tuple[int | None, int]:
    """Cooldowns count per user and channel: one busy channel does not block another."""
    return (interaction.channel_id, interaction.user.id)


def choice_label(value: str, systems: Mapping[str, GameSystem[Any]] | None = None) -> str:
    """What a player reads for a fixed choice: a system's title, or the key in words.

    ``rr`` -> ``Raid and Riposte``; ``gain_op`` -> ``Gain op``.  The value sent stays the key.
    ``systems``: the registry's systems when the caller already holds them (discovering
    them reads every installed distribution's entry points, ~5 ms; a tree has ~100 choices).
    """
    systems = registry.load_all() if systems is None else systems
    if value in systems:
        return _clip(systems[value].title)
    words = value.replace("_", " ").replace("-", " ").strip()
    return _clip(words[:1].upper() + words[1:]) if words else value


def python_name(option: str) -> str:
    """A Python identifier for an option name (``from`` -> ``from_``); Discord keeps the name."""
    # Option names come from pydantic field names, so they are identifiers; only Python's
    # keywords (a "from" area, say) need a new name.
    # A hyphen (``scenario-file``) is fine in Discord and not in Python.
    option = option.replace("-", "_")
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
    if spec.kind == "file":
        return discord.Attachment
    # Strings: Discord refuses longer input on the phone, before it reaches us; the service
    # applies the same limits to the console.
    if spec.kind == "text":
        return app_commands.Range[str, None, MAX_TEXT_LENGTH]
    return app_commands.Range[str, None, MAX_OPTION_LENGTH]


def _uses_autocomplete(spec: OptionSpec) -> bool:
    return spec.kind == "id" or (spec.kind == "enum" and len(spec.choices) > MAX_CHOICES)


class CommandFactory:
    """Builds the commands of the catalogue around one service.

    ``moderator_role`` is the role (id or name) that makes a member a moderator;
    ``defer_after`` how long after its creation an interaction is deferred if ``handle``
    has not answered; ``in_flight`` counts the commands running (for a clean shutdown).
    """

    def __init__(self, service: ServiceLike, moderator_role: str, defer_after: float = DEFER_AFTER,
                 in_flight: InFlight | None = None):
        self.service = service
        self.moderator_role = moderator_role
        self.defer_after = defer_after
        #: The systems, discovered once for the whole tree (their titles label choices).
        self.systems = registry.load_all()
        self.in_flight = in_flight or InFlight()

    # -- groups and commands ---------------------------------------------------------------

    def group(self, group: CommandGroup) -> app_commands.Group:
        """The ``app_commands.Group`` of one catalogue group.

        Server-only through ``allowed_contexts`` (and ``dm_permission`` for older clients),
        installable to servers only; ``/mod`` is shown by default only to members with
        Manage Channels (server admins can change that in Integrations), the service still
        checks every use.
        """
        problems = group.limit_problems(MAX_SUBCOMMANDS)
        if problems:
            raise ValueError("; ".join(problems))
        moderated = bool(group.commands) and all(c.moderator_only for c in group.commands)
        result = app_commands.Group(
            name=group.name,
            description=_clip(group.description),
            guild_only=True,
            allowed_contexts=app_commands.AppCommandContext(
                guild=True, dm_channel=False, private_channel=False
            ),
            allowed_installs=app_commands.AppInstallationType(guild=True, user=False),
            default_permissions=discord.Permissions(manage_channels=True) if moderated else None,
        )
        # An order in a subcommand group (issue 28: ``/mak air commit``) goes into a nested
        # ``app_commands.Group``, made where its first order comes so the order is kept.
        nested: dict[str, app_commands.Group] = {}
        for spec in group.commands:
            command = self.command(group.name, spec)
            if not spec.subgroup:
                result.add_command(command)
                continue
            if spec.subgroup not in nested:
                nested[spec.subgroup] = app_commands.Group(
                    name=spec.subgroup, description=_clip(group.subgroup_description(spec.subgroup)),
                    parent=result)
            nested[spec.subgroup].add_command(command)
        return result

    def command(self, group: str, spec: CommandSpec) -> app_commands.Command[Any, ..., None]:
        """The ``app_commands.Command`` of ``/group spec.name``.

        The callback gets a generated signature; descriptions, renames, choices and
        autocomplete are then applied with discord.py's public decorators, exactly as on
        a hand-written command.
        """
        renames = {python_name(o.name): o.name for o in spec.options}
        callback = self._callback(group, spec, renames)
        callback.__signature__ = self._signature(spec)  # type: ignore[attr-defined]
        decorators = [
            app_commands.describe(
                **{python_name(o.name): _clip(o.description) for o in spec.options}
            ),
            app_commands.rename(**{py: name for py, name in renames.items() if py != name}),
            app_commands.choices(**{
                python_name(o.name): [
                    app_commands.Choice(name=choice_label(c, self.systems), value=c[:MAX_OPTION_LENGTH])
                    for c in o.choices
                ]
                for o in spec.options
                if o.kind == "enum" and not _uses_autocomplete(o)
            }),
            app_commands.autocomplete(**{
                python_name(o.name): self._autocomplete(group, spec, o)
                for o in spec.options
                if _uses_autocomplete(o)
            }),
        ]
        for decorate in decorators:
            callback = decorate(callback)
        command: app_commands.Command[Any, ..., None] = app_commands.Command(
            name=spec.name,
            description=_clip(spec.description),
            callback=callback,
            extras={"spec": spec, "group": group},
        )
        if spec.cooldown:
            rate, per = spec.cooldown
            command = app_commands.checks.cooldown(rate, per, key=_user_and_channel)(command)
        return command

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

    def _callback(self, group: str, spec: CommandSpec, renames: dict[str, str]) -> Callback:
        factory = self
        name = spec.path
        path = [group, *name.split()]

        async def run_command(interaction: discord.Interaction, **options: Any) -> None:
            options = {key: await fetch_upload(value) for key, value in options.items()}
            inv = invocation_from(
                interaction,
                path,
                {renames.get(key, key): value for key, value in options.items()},
                factory.moderator_role,
            )
            # A sealed order (issue 28) is given privately: its answer is ephemeral.
            inv = inv.model_copy(update={"private": spec.private})
            log.debug("/%s %s by %s in %s", group, name, inv.user_id, inv.channel_id)
            if factory.in_flight.closing:
                await send_private(interaction, RESTARTING)
                return
            async with factory.in_flight.track():
                await respond(
                    interaction, factory.service, inv, defer_after=factory.defer_after,
                    defer_first=spec.defer_first, private=spec.private,
                )

        run_command.__qualname__ = run_command.__name__ = "_".join(path)
        return run_command

    def _autocomplete(self, group: str, spec: CommandSpec,
                      option: OptionSpec) -> Callable[..., Coroutine[Any, Any, list[app_commands.Choice[str]]]]:
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
            inv = invocation_from(interaction, [group, *spec.path.split()], typed, factory.moderator_role)
            try:
                found = await asyncio.wait_for(
                    factory.service.autocomplete(inv, option.name), AUTOCOMPLETE_TIMEOUT
                )
            except Exception:
                # A suggestion list is a convenience: log and offer nothing rather than fail.
                log.exception("autocomplete failed for /%s %s %s", group, spec.path, option.name)
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
    in_flight: InFlight | None = None,
) -> list[app_commands.Group]:
    """Add one group per catalogue group of ``service`` to ``tree``; returns the groups."""
    factory = CommandFactory(service, moderator_role, defer_after, in_flight)
    groups = [factory.group(group) for group in service.groups]
    for group in groups:
        tree.add_command(group, override=True)
    return groups
