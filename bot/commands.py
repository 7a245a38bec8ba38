"""The command catalogue: ``/game``, ``/mod`` and one group per registered system.

Front ends build their command tree from :func:`command_groups`, so the Discord tree, the
console and ``/game help`` can never disagree.  System groups come straight from the
systems' action models.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from rules.core import registry
from rules.core.contract import OptionSpec


class CommandSpec(BaseModel):
    """One subcommand: ``/group name option:value ...`` (``/group subgroup name …`` when it
    belongs to a subcommand group, issue 28: ``/mak air commit``)."""

    name: str
    #: The subcommand group it sits in (an order's :attr:`Action.group`); empty: none.
    subgroup: str = ""
    description: str
    options: list[OptionSpec] = Field(default_factory=list)
    rule: str = ""
    #: Commands that may produce a snapshot (the Discord adapter defers them).
    may_render: bool = False
    #: Only moderators may run it.
    moderator_only: bool = False
    #: Builds a big file (a log): the Discord adapter defers before any work.
    defer_first: bool = False
    #: Its answer is for the invoker only (so a first defer is private too).
    private: bool = False
    #: Uses per user and channel: ``(times, seconds)``, for public renders and big files.
    cooldown: tuple[int, float] | None = None

    @property
    def path(self) -> str:
        """The words after the group's name: ``move``, ``air commit``."""
        return f"{self.subgroup} {self.name}" if self.subgroup else self.name


class CommandGroup(BaseModel):
    """A slash-command group: ``game``, ``mod`` or a system key such as ``rr``."""

    name: str
    description: str
    commands: list[CommandSpec]
    system: str | None = None  # the system key for system groups
    #: What each subcommand group is for (issue 28), by its name.
    subgroup_descriptions: dict[str, str] = Field(default_factory=dict)

    def command(self, name: str) -> CommandSpec | None:
        """The subcommand at ``name`` (its :attr:`CommandSpec.path`: ``air commit``), if any."""
        wanted = " ".join(name.split())
        return next((c for c in self.commands if c.path == wanted), None)

    def subgroups(self) -> list[str]:
        """The subcommand groups of this command, in the order their first order comes."""
        return list(dict.fromkeys(c.subgroup for c in self.commands if c.subgroup))

    def entries(self) -> int:
        """What Discord counts against its 25 per command: subcommands and groups."""
        return sum(1 for c in self.commands if not c.subgroup) + len(self.subgroups())

    def in_subgroup(self, name: str) -> list[CommandSpec]:
        """The subcommands of the subcommand group ``name``."""
        return [c for c in self.commands if c.subgroup == name]

    def subgroup_description(self, name: str) -> str:
        """What the subcommand group ``name`` is for: the system's words, or "<Name> orders"."""
        return self.subgroup_descriptions.get(name) or f"{name.replace('_', ' ').capitalize()} orders"

    def limit_problems(self, most: int = 25) -> list[str]:
        """Discord's limits broken, one sentence each: at most ``most`` subcommands and
        groups per command, and ``most`` subcommands per group (issue 28)."""
        problems = []
        if self.entries() > most:
            problems.append(f"/{self.name} has {self.entries()} subcommands and groups; Discord allows {most}")
        for sub in self.subgroups():
            if len(self.in_subgroup(sub)) > most:
                problems.append(f"/{self.name} {sub} has {len(self.in_subgroup(sub))} subcommands; "
                                f"Discord allows {most}")
        return problems


def _opt(name: str, kind: str, description: str, required: bool = True, **extra) -> OptionSpec:
    return OptionSpec(name=name, kind=kind, required=required, description=description, **extra)


def game_group() -> CommandGroup:
    """``/game``: the life of a game in this channel."""
    systems = sorted(registry.load_all())
    return CommandGroup(
        name="game",
        description="Start, join and follow the game in this channel",
        commands=[
            CommandSpec(
                name="new",
                description="Start a game in this channel",
                options=[
                    _opt("system", "enum", "Game system", choices=systems),
                    _opt("scenario", "id", "Scenario: built-in or this server's (default: the first)", False),
                    _opt("options", "text", "Game options, comma separated", False),
                    _opt("scenario-file", "file", "Your own scenario, .json or .yaml (docs/scenarios.md)",
                         False),
                ],
                may_render=True,
            ),
            CommandSpec(
                name="join",
                description="Take a side in this channel's game",
                options=[_opt("side", "id", "The side to play")],
            ),
            CommandSpec(name="leave", description="Give up your seat(s) in this game"),
            CommandSpec(name="status", description="Turn, phase, who acts and what they can do"),
            CommandSpec(name="act", description="Give an order by choosing from menus (no typing)"),
            CommandSpec(
                name="map",
                description="The latest map (only you see it unless you post it)",
                options=[_opt("post", "bool", "Post it in the channel for everyone", False),
                         _opt("side", "id", "Your side's own view (games with secrets)", False)],
                may_render=True,
                cooldown=(2, 30.0),
            ),
            CommandSpec(
                name="log",
                description="The numbered steps with dice and rules",
                options=[
                    _opt("last", "int", "How many steps a page (default 10)", False,
                         minimum=1, maximum=50),
                    _opt("page", "int", "Which page back: 1 is the latest", False, minimum=1),
                ],
                cooldown=(5, 30.0),
            ),
            CommandSpec(
                name="export",
                description="The whole log as a replayable file (.json.gz)",
                options=[_opt("game", "int", "An older game of this channel, by number", False,
                              minimum=1)],
                defer_first=True,
                private=True,
                cooldown=(1, 60.0),
            ),
            CommandSpec(name="end", description="End the game and reveal the dice seed",
                        defer_first=True),
            CommandSpec(
                name="help",
                description="What the orders do, their options and rules",
                options=[_opt("order", "id", "An order, e.g. move", False)],
            ),
            CommandSpec(
                name="undo",
                description="Take back your last step if it revealed nothing new",
                may_render=True,
            ),
            CommandSpec(
                name="replay",
                description="The maps of a span of steps as an animated picture",
                options=[
                    _opt("from", "int", "First step (default #0)", False, minimum=0),
                    _opt("to", "int", "Last step (default the newest)", False, minimum=0),
                ],
                defer_first=True,
                cooldown=(1, 60.0),
            ),
            CommandSpec(
                name="scenarios",
                description="The built-in scenarios and this server's own",
                options=[_opt("system", "enum", "Only this system", False, choices=systems)],
                private=True,
            ),
            *pacing_commands(),
        ],
    )


def pacing_commands() -> list[CommandSpec]:
    """``/game pace``, ``deadline``, ``away``, ``sub``, ``accept``, ``digest`` (issue 19)."""
    return [
        CommandSpec(
            name="pace",
            description="Time each turn-part may take (all players agree, or a moderator)",
            options=[
                _opt("hours", "int", "Hours a turn-part (0: no pace)", minimum=0, maximum=720),
                _opt("then", "enum", "When a deadline passes: nothing, or pass for the side",
                     False, choices=["nothing", "pass"]),
                _opt("remind", "text", "When to remind, e.g. half,1h (or none)", False),
            ],
        ),
        CommandSpec(
            name="deadline",
            description="A fixed deadline for the turn-part in play",
            options=[_opt("at", "text", "UTC date and time, e.g. 2026-11-30 18:00, or 36h")],
        ),
        CommandSpec(
            name="away",
            description="Pause your reminders until a time (until:back ends it)",
            options=[_opt("until", "text", "UTC date and time, or a span such as 3d, or back")],
        ),
        CommandSpec(
            name="sub",
            description="Offer your side to a substitute, who accepts",
            options=[_opt("user", "user", "The substitute"),
                     _opt("side", "id", "Your side (if you hold several)", False)],
        ),
        CommandSpec(name="accept", description="Take the side a player offered you"),
        CommandSpec(
            name="digest",
            description="What happened since a step or a time, with the map",
            options=[_opt("since", "text", "A step (#40), a span back (24h) or a date")],
            may_render=True,
            cooldown=(2, 30.0),
        ),
    ]


def mod_group() -> CommandGroup:
    """``/mod``: moderator tools; every use is announced with the moderator and reason."""
    return CommandGroup(
        name="mod",
        description="Moderator tools: rollback, reroll, seats",
        commands=[
            CommandSpec(
                name="rollback",
                description="Roll the game back (or forward again) to a step",
                options=[
                    _opt("to", "int", "Step number from /game log", minimum=0),
                    _opt("reason", "text", "Why (announced in the channel)"),
                ],
                may_render=True,
                moderator_only=True,
            ),
            CommandSpec(
                name="reroll",
                description="Re-resolve the last step that rolled dice",
                options=[_opt("reason", "text", "Why (announced in the channel)")],
                may_render=True,
                moderator_only=True,
            ),
            CommandSpec(
                name="seat",
                description="Put a user in a side's seat (a substitute)",
                options=[_opt("side", "id", "The side"), _opt("user", "user", "The player")],
                moderator_only=True,
            ),
            CommandSpec(
                name="extend",
                description="Move this turn-part's deadline later",
                options=[
                    _opt("hours", "int", "Hours to add", minimum=1, maximum=720),
                    _opt("reason", "text", "Why (announced in the channel)"),
                ],
                moderator_only=True,
            ),
            CommandSpec(
                name="kick",
                description="Remove a user from every seat of this game",
                options=[
                    _opt("user", "user", "The player"),
                    _opt("reason", "text", "Why (announced in the channel)", False),
                ],
                moderator_only=True,
            ),
            CommandSpec(
                name="look",
                description="A side's own view of a game with secrets (no seat; audited)",
                options=[_opt("side", "id", "The side whose view to see")],
                moderator_only=True,
                may_render=True,
                private=True,
            ),
            CommandSpec(
                name="scenario",
                description="Keep a scenario file in this server's library, or take one out",
                options=[
                    _opt("add", "file", "A scenario file to keep (.json or .yaml)", False),
                    _opt("remove", "text", "The name of a scenario to take out", False),
                    _opt("name", "text", "Its name in the library (default: its key)", False),
                    _opt("system", "enum", "Its system (default: found from the file)", False,
                         choices=sorted(registry.load_all())),
                ],
                moderator_only=True,
            ),
        ],
    )


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
            )
            for action in system.actions
        ],
    )


def command_groups() -> list[CommandGroup]:
    """Every group, ``game`` and ``mod`` first, then the systems by key."""
    return [game_group(), mod_group()] + [system_group(k) for k in sorted(registry.load_all())]
