"""A command declared once: its handler and its spec in one place (issue 39).

``/game``, ``/mod`` and the pacing commands are written as handlers decorated with
:func:`command`, which carries the whole spec (name, options, cost class, who may use it,
how Discord answers it); a :class:`CommandSet` lists a group's commands in the order
Discord shows them.  The catalogue (``bot/commands.py``), the Discord tree, the console,
``/game help``, the rate limits and autocomplete all read these declarations, so nothing
about a command is keyed by its name anywhere else.

Options are objects of one class per option kind, in the shape of discord.py's
``Transformer``: each builds its :class:`~rules.core.contract.OptionSpec` (what the option is,
for the catalogue and the Discord tree), parses what is typed into it (:meth:`Option.parse`,
the conversions of ``bot/options.py``) and offers its own suggestions
(:meth:`Option.suggest`), so the service asks the command's own options rather than
switching on command names.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot import replies
from bot.commandspec import CommandGroup, CommandSpec
from bot.games import LiveGame
from bot.models import Invocation, Reply
from bot.options import Parser, convert_value
from bot.pipeline import Pipeline
from rules.core import registry
from rules.core.contract import Choice, GameSystem, OptionKind, OptionSpec

#: What every ``/game`` and ``/mod`` handler is: the pipeline and the invocation in, a reply out.
Handler = Callable[[Pipeline, Invocation], Awaitable[Reply]]


@dataclass(frozen=True)
class Asked:
    """What an option's suggestions may look at: the invocation typed so far (the focused
    option holds what is typed in it), the channel's game if any, and the systems."""

    inv: Invocation
    game: LiveGame | None
    systems: dict[str, GameSystem[Any]]


class Option:
    """One option of a command: its name and description, and what kind of value it takes.

    Subclasses are the option kinds that add something (bounds, fixed values,
    suggestions); :attr:`kind` is the :class:`OptionSpec` kind the front ends map to a
    Discord type.  By default an option suggests nothing.
    """

    kind: OptionKind = "text"

    def __init__(self, name: str, description: str, *, required: bool = True,
                 kind: OptionKind | None = None) -> None:
        self.name = name
        self.description = description
        self.required = required
        self.kind = kind or type(self).kind

    def choices(self) -> list[str]:
        """The fixed values of an ``enum`` option (read when the catalogue is built)."""
        return []

    def bounds(self) -> tuple[int | None, int | None]:
        """The least and the greatest value of a whole number option."""
        return None, None

    def spec(self) -> OptionSpec:
        """The option as data, for the catalogue, the checks and the Discord tree."""
        minimum, maximum = self.bounds()
        return OptionSpec(name=self.name, kind=self.kind, required=self.required,
                          description=self.description, choices=self.choices(),
                          minimum=minimum, maximum=maximum)

    def parse(self, value: Any) -> Any:
        """The value typed in, converted to the option's kind, or a RuleError sentence saying
        what is wrong and what is allowed (``bot/options.py`` holds the conversions)."""
        return convert_value(self.spec(), value)

    async def suggest(self, asked: Asked) -> list[Choice]:
        """What autocomplete offers while this option is typed (filtered by the service)."""
        return []


#: The kinds that only say what value they take: free text (at most ``MAX_TEXT_LENGTH``
#: characters), yes or no, a server member (a ``UserRef``), an attachment (an ``Upload``).
Text = functools.partial(Option, kind="text")
Flag = functools.partial(Option, kind="bool")
Member = functools.partial(Option, kind="user")
File = functools.partial(Option, kind="file")


class Whole(Option):
    """A whole number, within ``minimum`` and ``maximum`` when they are given."""

    kind: OptionKind = "int"

    def __init__(self, name: str, description: str, *, required: bool = True,
                 minimum: int | None = None, maximum: int | None = None) -> None:
        super().__init__(name, description, required=required)
        self.minimum = minimum
        self.maximum = maximum

    def bounds(self) -> tuple[int | None, int | None]:
        """The bounds given."""
        return self.minimum, self.maximum


class Pick(Option):
    """One of a fixed list of values."""

    kind: OptionKind = "enum"

    def __init__(self, name: str, description: str, values: Sequence[str], *,
                 required: bool = True) -> None:
        super().__init__(name, description, required=required)
        self.values = list(values)

    def choices(self) -> list[str]:
        """The values given."""
        return list(self.values)


class SystemPick(Option):
    """A registered game system, by key (the registry is read when the catalogue is built,
    so a system installed later is offered on the next start)."""

    kind: OptionKind = "enum"

    def choices(self) -> list[str]:
        """Every registered system's key, sorted."""
        return sorted(registry.load_all())


class Side(Option):
    """A side of the channel's game: suggests its sides with who holds them."""

    kind: OptionKind = "id"

    async def suggest(self, asked: Asked) -> list[Choice]:
        """The game's sides, labelled with their seats; nothing without a game."""
        game = asked.game
        if game is None:
            return []
        return [Choice(value=s, label=replies.seat_name(s, game.seats)) for s in game.system.sides]


class Scenario(Option):
    """A scenario key: the chosen system's (the ``system`` option typed so far), or all."""

    kind: OptionKind = "id"

    async def suggest(self, asked: Asked) -> list[Choice]:
        """The scenarios of the system typed, or of every system."""
        system = asked.systems.get(str(asked.inv.options.get("system", "")))
        keys = system.scenarios if system else [s for sys in asked.systems.values() for s in sys.scenarios]
        return [Choice(value=k, label=k) for k in keys]


class OrderName(Option):
    """An order of the channel's system (of every system without a game), or a subcommand
    group of orders: ``/game help order:mines`` lists the group's orders."""

    kind: OptionKind = "id"

    async def suggest(self, asked: Asked) -> list[Choice]:
        """Every order with its description, then every group of orders."""
        systems = [asked.game.system] if asked.game else list(asked.systems.values())
        groups = {a.group: sys for sys in systems for a in sys.actions if a.group}
        orders = [Choice(value=a.path(), label=f"{a.path()}: {a.description()}"[:100])
                  for sys in systems for a in sys.actions]
        return orders + [
            Choice(value=g, label=f"{g} …: {sys.group_descriptions.get(g) or 'its orders'}"[:100])
            for g, sys in groups.items()
        ]


class Declared:
    """A handler with its declaration: calling it runs the handler; :meth:`spec` is the
    command as data."""

    def __init__(self, handler: Handler, name: str, description: str, options: Sequence[Option],
                 flags: dict[str, Any]) -> None:
        self.handler = handler
        self.name = name
        self.description = description
        self.options = list(options)
        self.flags = flags
        self.__doc__ = handler.__doc__
        self.__name__ = handler.__name__

    async def __call__(self, svc: Pipeline, inv: Invocation) -> Reply:
        """Run the handler."""
        return await self.handler(svc, inv)

    def spec(self) -> CommandSpec:
        """The command as data (options built now: a system choice reads the registry)."""
        return CommandSpec(name=self.name, description=self.description,
                           options=[o.spec() for o in self.options], **self.flags)

    def parsers(self) -> dict[str, Parser]:
        """Each option's parser, by name: the one parse path of a declared command."""
        return {o.name: o.parse for o in self.options}

    def option(self, name: str) -> Option | None:
        """The option called ``name``, if the command has one."""
        return next((o for o in self.options if o.name == name), None)


def command(name: str, description: str, *options: Option, cost: str | None = None,
            may_render: bool = False, moderator_only: bool = False, defer_first: bool = False,
            private: bool = False, cooldown: tuple[int, float] | None = None,
            ) -> Callable[[Handler], Declared]:
    """Declare the decorated handler as the command ``name``.

    ``cost`` is its class in the token buckets (``bot/limits.py``); ``moderator_only``
    who may use it; ``may_render``, ``defer_first``, ``private`` and ``cooldown`` how the
    Discord front end answers it (see :class:`~bot.commandspec.CommandSpec`).
    """
    flags = {"cost": cost, "may_render": may_render, "moderator_only": moderator_only,
             "defer_first": defer_first, "private": private, "cooldown": cooldown}

    def declare(handler: Handler) -> Declared:
        return Declared(handler, name, description, options, flags)

    return declare


class CommandSet:
    """A command group's declared commands (``/game``, ``/mod``), in the order shown."""

    def __init__(self, name: str, description: str, commands: Sequence[Declared]) -> None:
        self.name = name
        self.description = description
        self.commands = list(commands)
        names = [c.name for c in self.commands]
        if len(set(names)) != len(names):
            raise ValueError(f"/{name} declares a command twice: {names}")

    def group(self) -> CommandGroup:
        """The group as data, for the catalogue."""
        return CommandGroup(name=self.name, description=self.description,
                            commands=[c.spec() for c in self.commands])

    def handlers(self) -> dict[str, Handler]:
        """Each command's handler, by its name."""
        return {c.name: c for c in self.commands}

    def declared(self, name: str) -> Declared | None:
        """The declaration of the command ``name``, if any."""
        return next((c for c in self.commands if c.name == name), None)


__all__ = [
    "Asked", "CommandSet", "Declared", "File", "Flag", "Handler", "Member", "Option", "OrderName",
    "Pick", "Scenario", "Side", "SystemPick", "Text", "Whole", "command",
]
