"""The command surface, recorded: what Discord is sent, what the console reads, what costs.

Issue 39 moves every command into one declaration (``bot/commands.py``).  These tests pin
the surface as it was before that move, so the refactor is proven to keep it: the payload
``tree.sync()`` sends for every group (names, descriptions, options, choices, limits,
autocomplete flags, permissions), the catalogue the console and ``/game help`` read, the
token buckets each command draws from, and how many words the console takes as a path.

A deliberate change to the surface re-records the file and shows up in review:
``python -m tests.discord.test_discord_tree_payload``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.commands import command_groups
from bot.config import Settings
from bot.console import ParseError, parse_line
from bot.discord.tree import RefereeTree, install_commands
from bot.limits import limits_of
from bot.models import Invocation
from rules.core import registry
from tests.discord.dpy_harness import FakeService

RECORDED = Path(__file__).with_name("recorded") / "command_surface.json"
#: The catalogue's fields as they were recorded (a new field may be added without a re-record).
SPEC_FIELDS = ("name", "subgroup", "description", "options", "rule", "may_render",
               "moderator_only", "defer_first", "private", "cooldown")


def tree_payload() -> dict[str, Any]:
    """What ``tree.sync()`` would send, by group name, from the real ``CommandTree``."""
    client = discord.Client(intents=discord.Intents.default())
    tree = RefereeTree(client)
    install_commands(tree, FakeService(command_groups()), "Referee Moderator")
    return {cmd.name: cmd.to_dict(tree) for cmd in tree.get_commands()}


def catalogue() -> list[dict[str, Any]]:
    """The catalogue's groups and specs, as plain data (the console and /game help read it)."""
    out = []
    for group in command_groups():
        dumped = group.model_dump(mode="json", exclude={"commands"})
        dumped["commands"] = [spec.model_dump(mode="json", include=set(SPEC_FIELDS))
                              for spec in group.commands]
        out.append(dumped)
    return out


def costs() -> dict[str, Any]:
    """The buckets each command draws from (``bot/limits.py``), with the default settings."""
    settings = Settings(db=":memory:")
    out: dict[str, Any] = {}
    for group in command_groups():
        for spec in group.commands:
            words = [group.name, spec.path]
            inv = Invocation(command=words, options={}, user_id="u1", user_name="u",
                             channel_id="c1", guild_id="g1")
            found = limits_of(settings, inv, spec.cost)
            out[" ".join(words)] = found
    return json.loads(json.dumps(out))  # tuples as the recorded lists


def console_path(line: str) -> list[str] | str:
    """The path the console reads from ``line``, or the sentence it refuses it with."""
    try:
        return parse_line(line)[1]
    except ParseError as exc:
        return f"refused: {exc}"


def console_paths() -> dict[str, list[str] | str]:
    """How the console splits ``/<group> a b c:d``: flat groups (``/clock`` too, the
    console's own) take two words, the others three."""
    groups = [group.name for group in command_groups()] + ["clock"]
    return {name: console_path(f"/{name} a b c:d") for name in groups}


def surface() -> dict[str, Any]:
    """Everything recorded, in one document."""
    return {"tree": tree_payload(), "catalogue": catalogue(), "costs": costs(),
            "console_paths": console_paths()}


@pytest.fixture(autouse=True)
def installed_systems_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the systems this checkout installs: other tests register throwaway ones (duel,
    shells), which would add groups and system choices to what is compared."""
    monkeypatch.setattr(registry, "_SYSTEMS", {})


def _recorded() -> dict[str, Any]:
    return json.loads(RECORDED.read_text(encoding="utf-8"))


def test_the_discord_tree_sends_the_recorded_payload():
    assert tree_payload() == _recorded()["tree"]


def test_the_catalogue_the_console_reads_is_the_recorded_one():
    assert catalogue() == _recorded()["catalogue"]


def test_every_command_costs_what_it_did():
    assert costs() == _recorded()["costs"]


def test_the_console_splits_paths_as_it_did():
    assert console_paths() == _recorded()["console_paths"]


if __name__ == "__main__":
    RECORDED.write_text(json.dumps(surface(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"recorded {RECORDED}")
