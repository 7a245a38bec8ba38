"""The command catalogue: ``/game``, ``/mod`` and one group per registered system.

Front ends build their command tree from :func:`command_groups`, so the Discord tree, the
console and ``/game help`` can never disagree.  ``/game`` and ``/mod`` are read from their
declarations (:data:`bot.gamecmds.GAME`, :data:`bot.modcmds.MOD`: each handler carries its
spec, ``bot/declare.py``); system groups come straight from the systems' action models.
"""

from __future__ import annotations

from bot.commandspec import CommandGroup, CommandSpec
from bot.declare import CommandSet, Handler, Option
from bot.gamecmds import GAME
from bot.league.commands import LEAGUE
from bot.modcmds import MOD
from rules.core import registry

#: The declared groups, ``/game`` first: groups of commands that are not a system's orders.
DECLARED: tuple[CommandSet, ...] = (GAME, MOD, LEAGUE)


def game_group() -> CommandGroup:
    """``/game``: the life of a game in this channel."""
    return GAME.group()


def mod_group() -> CommandGroup:
    """``/mod``: moderator tools; every use is announced with the moderator and reason."""
    return MOD.group()


def declared_set(group: str) -> CommandSet | None:
    """The declared group called ``group`` (``game``, ``mod``); None for a system's orders."""
    return next((s for s in DECLARED if s.name == group), None)


def handler_of(group: str, name: str) -> Handler | None:
    """The handler of ``/group name`` when it is a declared command."""
    found = declared_set(group)
    declared = found.declared(name) if found else None
    return declared.handler if declared else None


def option_of(group: str, name: str, option: str) -> Option | None:
    """The declared option ``option`` of ``/group name`` (for its suggestions), if any."""
    found = declared_set(group)
    declared = found.declared(name) if found else None
    return declared.option(option) if declared else None


def system_group(key: str) -> CommandGroup:
    """One group per system, generated from its action models: an order with a
    :attr:`Action.group` sits in that subcommand group; a :attr:`Action.sealed` order is
    answered privately (issue 28)."""
    system = registry.get(key)
    return CommandGroup(
        name=key,
        description=f"{system.title}: orders"[:100],
        system=key,
        subgroup_descriptions=dict(system.group_descriptions),
        commands=[
            CommandSpec(
                name=action.name,
                subgroup=action.group,
                description=action.description(),
                options=action.options(),
                rule=action.rule,
                may_render=True,
                # A sealed order is answered privately from the first moment: a public
                # "thinking" message would name the command, and its options to a click.
                private=action.sealed,
                defer_first=action.sealed,
                cost="order",
            )
            for action in system.actions
        ],
    )


def command_groups() -> list[CommandGroup]:
    """Every group, ``game`` and ``mod`` first, then the systems by key."""
    return [s.group() for s in DECLARED] + [system_group(k) for k in sorted(registry.load_all())]


__all__ = ["DECLARED", "CommandGroup", "CommandSpec", "command_groups", "declared_set", "game_group",
           "handler_of", "mod_group", "option_of", "system_group"]
