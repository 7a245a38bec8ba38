"""The real ``app_commands.CommandTree``, built from the catalogue, and the payload Discord gets."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord import app_commands

from bot.commands import CommandGroup, CommandSpec, command_groups
from bot.discord.client import RefereeClient
from bot.discord.tree import MAX_CHOICES, RefereeTree, install_commands
from rules.core import registry
from rules.core.contract import MAX_OPTION_LENGTH, MAX_TEXT_LENGTH, OptionSpec
from tests.discord.conftest import feed_gateway, start_client
from tests.discord.dpy_harness import FakeService, interaction_payload

#: Discord's option types.
STRING, INTEGER, BOOLEAN, USER = 3, 4, 5, 6
KIND_TYPES = {"id": STRING, "enum": STRING, "text": STRING, "int": INTEGER, "bool": BOOLEAN,
              "user": USER, "file": 11}  # 11: ATTACHMENT


@pytest.fixture
def catalogue() -> list[CommandGroup]:
    return command_groups()


@pytest.fixture
def tree(catalogue: list[CommandGroup]) -> RefereeTree:
    client = discord.Client(intents=discord.Intents.default())
    tree = RefereeTree(client)
    install_commands(tree, FakeService(catalogue), "Referee Moderator")
    return tree


def payloads(tree: RefereeTree) -> dict[str, dict[str, Any]]:
    """What ``tree.sync()`` would send, by group name."""
    return {cmd.name: cmd.to_dict(tree) for cmd in tree.get_commands()}


def test_one_group_per_catalogue_group_game_and_mod_first(tree, catalogue):
    names = [cmd.name for cmd in tree.get_commands()]
    assert names == [g.name for g in catalogue]
    assert names[:3] == ["game", "mod", "league"]
    # Every registered system has its group: /commando, /raiders, ... (and /rr once it exists).
    assert set(names[3:]) == set(registry.load_all())


def test_game_and_mod_subcommands(tree):
    groups = {g.name: g for g in tree.get_commands()}
    assert [c.name for c in groups["game"].commands] == [
        "new", "join", "leave", "status", "act", "map", "log", "export", "end", "help", "undo",
        "replay", "scenarios", "tutorial", "concede",
        "pace", "deadline", "away", "sub", "accept", "digest",
    ]
    assert [c.name for c in groups["mod"].commands] == ["rollback", "reroll", "rules-adopt", "seat", "extend",
                                                        "kick", "look", "scenario", "forfeit"]
    assert [c.name for c in groups["league"].commands] == [
        "new", "join", "leave", "standings", "player", "schedule", "record", "export", "close"]


def _subcommands(sent: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """A command's subcommands by path (``move``; ``air commit`` inside a group, type 2)."""
    out = {}
    for entry in sent["options"]:
        if entry["type"] == 2:
            out.update({f"{entry['name']} {s['name']}": s for s in entry["options"]})
        else:
            out[entry["name"]] = entry
    return out


def test_every_option_has_the_type_required_flag_and_limits_of_its_spec(tree, catalogue):
    sent = payloads(tree)
    for group in catalogue:
        subs = _subcommands(sent[group.name])
        assert [s["type"] for s in subs.values()] == [1] * len(group.commands)
        assert list(subs) == [spec.path for spec in group.commands]
        for spec in group.commands:
            options = {o["name"]: o for o in subs[spec.path]["options"]}
            assert set(options) == {o.name for o in spec.options}, spec.name
            for option in spec.options:
                got = options[option.name]
                where = f"/{group.name} {spec.name} {option.name}"
                assert got["type"] == KIND_TYPES[option.kind], where
                assert got["required"] is option.required, where
                assert got.get("autocomplete", False) is (option.kind == "id"), where
                if option.kind == "enum":
                    assert [c["value"] for c in got["choices"]] == option.choices, where
                if option.kind == "int":
                    assert got.get("min_value") == option.minimum, where
                    assert got.get("max_value") == option.maximum, where
                if got["type"] == STRING:  # as the service accepts them
                    limit = MAX_TEXT_LENGTH if option.kind == "text" else MAX_OPTION_LENGTH
                    assert got["max_length"] == limit, where


def test_discord_limits_hold_for_the_whole_tree(tree):
    for group in payloads(tree).values():
        assert 1 <= len(group["description"]) <= 100
        assert len(group["options"]) <= 25
        for nested in (g for g in group["options"] if g["type"] == 2):  # issue 28
            assert 1 <= len(nested["description"]) <= 100 and len(nested["options"]) <= 25
        for sub in _subcommands(group).values():
            assert 1 <= len(sub["description"]) <= 100
            assert len(sub["options"]) <= 25
            required = [o["required"] for o in sub["options"]]
            # Discord rejects a required option after an optional one.
            assert required == sorted(required, reverse=True), sub["name"]
            for option in sub["options"]:
                assert 1 <= len(option["description"]) <= 100
                assert len(option.get("choices", [])) <= MAX_CHOICES


def _characters(item: dict[str, Any]) -> int:
    # What Discord counts: names, descriptions, choice names and values, all the way down.
    own = len(item.get("name", "")) + len(item.get("description", ""))
    own += sum(len(str(c["name"])) + len(str(c["value"])) for c in item.get("choices", []))
    return own + sum(_characters(o) for o in item.get("options", []))


def test_each_group_stays_under_discords_8000_characters(tree):
    """Discord refuses a command whose names, descriptions and choices pass 8000 characters."""
    for name, group in payloads(tree).items():
        assert _characters(group) <= 8000, name


GUILD_CONTEXT, GUILD_INSTALL = 0, 0


def test_groups_are_server_only(tree):
    """``allowed_contexts``/``allowed_installs`` (``dm_permission`` is deprecated, still sent
    for older clients): installable to servers only, usable in server channels only."""
    for group in payloads(tree).values():
        assert group["contexts"] == [GUILD_CONTEXT]
        assert group["integration_types"] == [GUILD_INSTALL]
        assert group["dm_permission"] is False


def test_mod_is_shown_by_default_to_members_with_manage_channels(tree):
    sent = payloads(tree)
    assert int(sent["mod"]["default_member_permissions"]) == discord.Permissions(
        manage_channels=True).value
    assert all(sent[name]["default_member_permissions"] is None for name in sent if name != "mod")


def test_choice_names_are_words_and_values_the_keys(tree):
    new = next(s for s in payloads(tree)["game"]["options"] if s["name"] == "new")
    system = next(o for o in new["options"] if o["name"] == "system")
    names = {c["value"]: c["name"] for c in system["choices"]}
    assert names["rr"] == "Raid and Riposte"
    assert all(names[key] == registry.get(key).title for key in names)
    # Every fixed choice of every command reads as words, never as its key ("gain_op").
    choices = [c for item in payloads(tree).values() for c in _choices_in(item)]
    assert choices, "no command has fixed choices any more: the check below checks nothing"
    assert not [c for c in choices if "_" in c["name"]], [c for c in choices if "_" in c["name"]][:5]


def _choices_in(item: dict[str, Any]) -> list[dict[str, Any]]:
    """Every fixed choice of a command payload, its subcommands' and options' included."""
    found = list(item.get("choices") or [])
    for option in item.get("options") or []:
        found += _choices_in(option)
    return found


def test_descriptions_say_what_a_command_does_in_their_first_50_characters(tree):
    """Phones cut descriptions short: the start says what it does, a rule number follows.
    None starts with a rule number or a bracket, none is just its own name."""
    def check(item: dict[str, Any]) -> None:
        head = item["description"][:50]
        assert head[:1].isalpha(), item["description"]
        assert head.strip().lower() != item["name"].lower(), item["name"]
        assert len(head.split()) >= 2 or len(item["description"]) <= 50, item["description"]
        for option in item.get("options", []):
            check(option)

    for group in payloads(tree).values():
        for sub in group["options"]:
            check(sub)


def test_the_tree_is_built_with_public_decorators_only():
    """Issue 11 (8): no private ``__discord_app_commands_*`` attribute is set by hand."""
    import inspect  # noqa: PLC0415

    from bot.discord import tree as module  # noqa: PLC0415

    assert "__discord_app_commands" not in inspect.getsource(module)


def test_system_choices_of_game_new_are_the_registered_systems(tree):
    new = next(s for s in payloads(tree)["game"]["options"] if s["name"] == "new")
    system = next(o for o in new["options"] if o["name"] == "system")
    assert [c["value"] for c in system["choices"]] == sorted(registry.load_all())


def _custom_group(*options: OptionSpec) -> CommandGroup:
    return CommandGroup(name="tst", description="test orders", system="tst", commands=[
        CommandSpec(name="go", description="x" * 150, options=list(options)),
    ])


async def test_python_keyword_option_keeps_its_name_on_discord(settings, recorder):
    """An option called ``from`` (say, an area) is renamed in Python only."""
    group = _custom_group(
        OptionSpec(name="from", kind="id", required=True, description="Area moved from"),
        OptionSpec(name="fast", kind="bool", required=False, description="Hurry"),
    )
    service = FakeService([group])
    client = await start_client(RefereeClient(settings), service, defer_after=30.0)
    (cmd,) = client.tree.get_commands()
    option = cmd.to_dict(client.tree)["options"][0]["options"][0]
    assert option["name"] == "from"
    # The long description is clipped to Discord's 100 characters.
    assert len(cmd.to_dict(client.tree)["options"][0]["description"]) == 100
    await feed_gateway(client, interaction_payload("tst", "go", {"from": "12", "fast": True}))
    assert service.handled[0].options == {"from": "12", "fast": True}
    assert recorder.sent[0].message["content"] == "ok: tst go"
    await client.close()


def test_enum_with_more_than_25_values_uses_autocomplete(tree):
    many = [f"v{n}" for n in range(30)]
    group = _custom_group(OptionSpec(name="pick", kind="enum", required=True,
                                     description="One of many", choices=many))
    client = discord.Client(intents=discord.Intents.default())
    small = RefereeTree(client)
    install_commands(small, FakeService([group]), "Referee Moderator")
    option = small.get_commands()[0].to_dict(small)["options"][0]["options"][0]
    assert option["autocomplete"] is True and "choices" not in option


async def test_a_long_enum_is_filtered_by_the_front_end(settings, recorder):
    many = [f"v{n}" for n in range(30)]
    group = _custom_group(OptionSpec(name="pick", kind="enum", required=True,
                                     description="One of many", choices=many))
    service = FakeService([group])
    client = await start_client(RefereeClient(settings), service, defer_after=30.0)
    await feed_gateway(client, interaction_payload("tst", "go", {"pick": "v2"}, focused="pick"))
    choices = recorder.sent[0].payload["data"]["choices"]
    assert [c["value"] for c in choices] == ["v2", "v20", "v21", "v22", "v23", "v24", "v25",
                                             "v26", "v27", "v28", "v29"]
    assert service.completions == []
    await client.close()


def test_a_group_with_too_many_subcommands_is_refused():
    specs = [CommandSpec(name=f"c{n}", description="x") for n in range(26)]
    group = CommandGroup(name="big", description="too big", commands=specs)
    client = discord.Client(intents=discord.Intents.default())
    with pytest.raises(ValueError, match="26 subcommands"):
        install_commands(RefereeTree(client), FakeService([group]), "Referee Moderator")


def test_subcommand_groups_count_against_25_and_hold_25_each():
    """Discord: 25 subcommands or groups per command, 25 subcommands per group (issue 28)."""
    flat = [CommandSpec(name=f"c{n}", description="x") for n in range(24)]
    grouped = [CommandSpec(name=f"g{n}", subgroup=f"s{n % 2}", description="x") for n in range(4)]
    fits = CommandGroup(name="big", description="fits", commands=flat + grouped)
    assert fits.entries() == 26 and fits.limit_problems() == [
        "/big has 26 subcommands and groups; Discord allows 25"]
    full = CommandGroup(name="big", description="x", commands=[
        CommandSpec(name=f"g{n}", subgroup="air", description="x") for n in range(26)])
    assert full.limit_problems() == ["/big air has 26 subcommands; Discord allows 25"]
    client = discord.Client(intents=discord.Intents.default())
    with pytest.raises(ValueError, match="/big air has 26 subcommands"):
        install_commands(RefereeTree(client), FakeService([full]), "Referee Moderator")


async def test_an_order_in_a_subcommand_group_reaches_the_service_by_its_path(settings, recorder):
    """``/tst air commit`` is a subcommand ``commit`` in the group ``air`` on Discord, and
    the service gets the command ``["tst", "air", "commit"]`` (issue 28)."""
    group = CommandGroup(name="tst", description="test orders", system="tst",
                         subgroup_descriptions={"air": "Air duty (10.1)"}, commands=[
        CommandSpec(name="go", description="Go"),
        CommandSpec(name="commit", subgroup="air", description="Commit a unit", options=[
            OptionSpec(name="unit", kind="id", required=True, description="The unit")]),
        CommandSpec(name="strike", subgroup="air", description="Strike"),
    ])
    service = FakeService([group])
    client = await start_client(RefereeClient(settings), service, defer_after=30.0)
    (cmd,) = client.tree.get_commands()
    sent = cmd.to_dict(client.tree)
    assert [(o["type"], o["name"]) for o in sent["options"]] == [(1, "go"), (2, "air")]
    assert sent["options"][1]["description"] == "Air duty (10.1)"
    assert [s["name"] for s in sent["options"][1]["options"]] == ["commit", "strike"]
    await feed_gateway(client, interaction_payload("tst", "air commit", {"unit": "M-1"}))
    assert service.handled[0].command == ["tst", "air", "commit"]
    assert service.handled[0].options == {"unit": "M-1"}
    await client.close()


def test_callbacks_are_real_app_commands(tree):
    for group in tree.get_commands():
        assert isinstance(group, app_commands.Group)
        for command in group.walk_commands():
            if isinstance(command, app_commands.Group):  # a subcommand group (issue 28)
                continue
            assert isinstance(command, app_commands.Command)
            assert command.extras["group"] == group.name
