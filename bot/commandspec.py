"""What a command is, as data: :class:`CommandSpec` and the :class:`CommandGroup` it sits in.

Plain pydantic models, read by every front end (the Discord tree, the console), by
``/game help``, the option checks (``bot/options.py``) and the rate limits.  They are made
from the declarations in ``bot/gamecmds.py``, ``bot/modcmds.py`` and
``bot/pacing/commands.py`` (``bot/declare.py``) and from the systems' action models
(``bot/commands.py``).
"""

from __future__ import annotations

from pydantic import BaseModel, Field

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
    #: Its cost class in the token buckets (``bot/limits.py``): ``order``, ``render``,
    #: ``replay``, ``export`` or ``digest``; None: not limited.
    cost: str | None = None

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


__all__ = ["CommandGroup", "CommandSpec"]
