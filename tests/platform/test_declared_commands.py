"""Commands declared once (issue 39): a handler carries its spec, and everything reads it.

The catalogue, the service's dispatch, the rate limits, the console's paths and autocomplete
all come from the declarations in ``bot/gamecmds.py``, ``bot/modcmds.py`` and
``bot/pacing/commands.py`` (``bot/declare.py``); nothing is keyed by a command's name twice.
"""

from __future__ import annotations

import pytest

from bot import commands as catalogue
from bot import service as service_module
from bot.console import FLAT_GROUPS
from bot.declare import (
    Asked, CommandSet, Declared, File, Flag, Member, Option, OrderName, Pick, Scenario, Side, Text, Whole,
    command,
)
from bot.gamecmds import GAME
from bot.models import Invocation, Reply
from bot.modcmds import MOD
from bot.pipeline import Pipeline
from rules.core import registry
from tests.platform.conftest import Table


async def _noop(svc: Pipeline, inv: Invocation) -> Reply:
    """A handler for the declarations made here."""
    return Reply(text="ok")


def test_the_catalogue_is_read_from_the_declarations():
    groups = {g.name: g for g in catalogue.command_groups()}
    for declared in (GAME, MOD):
        assert groups[declared.name].commands == [c.spec() for c in declared.commands]
        assert groups[declared.name].description == declared.description


def test_dispatch_finds_each_command_through_its_declaration():
    for declared in (GAME, MOD):
        for cmd in declared.commands:
            assert service_module.HANDLERS[declared.name][cmd.name] is cmd
            assert catalogue.handler_of(declared.name, cmd.name) is cmd.handler
    assert catalogue.handler_of("rr", "move") is None  # an order goes to its system


def test_the_cost_class_sits_on_the_spec():
    game = catalogue.game_group()
    costs = {c.name: c.cost for c in game.commands if c.cost}
    assert costs == {"map": "render", "export": "export", "replay": "replay", "digest": "digest"}
    assert all(c.cost is None for c in catalogue.mod_group().commands)
    system = catalogue.system_group(sorted(registry.load_all())[0])
    assert {c.cost for c in system.commands} == {"order"}


def test_the_console_takes_the_declared_groups_as_flat():
    assert FLAT_GROUPS == ("game", "mod", "league", "clock", "channel")


def test_mod_commands_are_moderator_only_and_game_commands_are_not():
    assert all(c.spec().moderator_only for c in MOD.commands)
    assert not any(c.spec().moderator_only for c in GAME.commands)


def test_a_declaration_builds_the_spec_of_each_option_kind():
    declared = command("try", "Try every kind",
                       Text("note", "A note"), Whole("count", "How many", required=False, minimum=1, maximum=9),
                       Flag("loud", "Aloud", required=False), Member("user", "Who"), File("file", "What"),
                       Pick("how", "How", ["fast", "slow"]), Side("side", "Which side"),
                       cost="render", private=True)(_noop)
    assert isinstance(declared, Declared)
    spec = declared.spec()
    assert [(o.name, o.kind) for o in spec.options] == [
        ("note", "text"), ("count", "int"), ("loud", "bool"), ("user", "user"), ("file", "file"),
        ("how", "enum"), ("side", "id")]
    count = spec.options[1]
    assert (count.required, count.minimum, count.maximum) == (False, 1, 9)
    assert spec.options[5].choices == ["fast", "slow"]
    assert (spec.cost, spec.private, spec.moderator_only) == ("render", True, False)


def test_each_option_object_parses_what_is_typed_into_it():
    """The Transformer shape (issue 39): an option object parses as well as suggests, and the
    service's dispatch parses a declared command's options through them."""
    from rules.core.errors import RuleError

    assert Whole("count", "How many", minimum=1, maximum=9).parse(" 7 ") == 7
    with pytest.raises(RuleError, match="count must be at most 9"):
        Whole("count", "How many", minimum=1, maximum=9).parse("12")
    with pytest.raises(RuleError, match="count must be a whole number, not 'seven'"):
        Whole("count", "How many").parse("seven")
    assert Pick("how", "How", ["fast", "slow"]).parse("slow") == "slow"
    with pytest.raises(RuleError, match="how must be one of fast, slow, not 'quick'"):
        Pick("how", "How", ["fast", "slow"]).parse("quick")
    with pytest.raises(RuleError, match="takes an attached file"):
        File("file", "What").parse("not a file")

    class Upper(Option):
        """A text option of its own kind: it parses what is typed to capitals."""

        def parse(self, value: object) -> object:
            return str(value).upper()

    declared = command("shout", "Shout", Upper("word", "A word"))(_noop)
    group = CommandSet("tst", "Test", [declared])
    spec = group.group().commands[0]
    from bot.options import check_options
    assert check_options("tst", spec, {"word": "hey"}, parse=declared.parsers()) == {"word": "HEY"}
    assert check_options("tst", spec, {"word": "hey"}, parse=None) == {"word": "hey"}  # an order's raw value


def test_a_group_may_not_declare_a_command_twice():
    one = command("same", "One")(_noop)
    two = command("same", "Two")(_noop)
    with pytest.raises(ValueError, match="twice"):
        CommandSet("tst", "Test", [one, two])


async def test_a_declared_command_runs_its_handler():
    declared = command("go", "Go")(_noop)
    inv = Invocation(channel_id="c", user_id="u", user_name="u", command=["tst", "go"])
    assert (await declared(None, inv)).text == "ok"  # type: ignore[arg-type]


def _asked(table: Table, line: str, game: object = None, **typed: str) -> Asked:
    return Asked(table.invocation("alice", line, **typed), game, table.service.systems)  # type: ignore[arg-type]


async def test_scenario_suggests_the_typed_systems_scenarios_or_all(table: Table):
    option = catalogue.option_of("game", "new", "scenario")
    assert isinstance(option, Scenario)
    systems = table.service.systems
    every = [s for sys in systems.values() for s in sys.scenarios]
    assert [c.value for c in await option.suggest(_asked(table, "/game new"))] == every
    duel = [c.value for c in await option.suggest(_asked(table, "/game new", system="duel"))]
    assert duel == list(systems["duel"].scenarios)


async def test_side_suggests_nothing_without_a_game(table: Table):
    option = catalogue.option_of("mod", "seat", "side")
    assert isinstance(option, Side)
    assert await option.suggest(_asked(table, "/mod seat")) == []


async def test_order_name_offers_every_order_and_group_without_a_game(table: Table):
    option = catalogue.option_of("game", "help", "order")
    assert isinstance(option, OrderName)
    values = {c.value for c in await option.suggest(_asked(table, "/game help"))}
    paths = {a.path() for sys in table.service.systems.values() for a in sys.actions}
    assert paths <= values


async def test_options_without_suggestions_offer_nothing_through_the_service(table: Table):
    # /game log last: is a whole number; /game new options: free text.
    assert catalogue.option_of("game", "log", "last") is not None
    inv = table.invocation("alice", "/game log")
    assert await table.service.autocomplete(inv, "last") == []
    assert catalogue.option_of("game", "log", "nothing") is None
    assert await table.service.autocomplete(table.invocation("alice", "/game nosuch"), "x") == []
